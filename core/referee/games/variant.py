"""What the seeds' other games (R30-R32) share on the referee's side: their rolls' candidates read from the
variant's own single-die moves (``VariantTurnModel``), their results, their rerolls, and what the kiosk shows.

A match declares its variant in ``new_match`` (``"variant"`` and ``"variant_settings"``, kept in the
referee's rules; docs/CONTRACTS.md). Each game's own rules are in its module beside this one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from core.match.score import RESULT_NAMES
from core.referee.faults import ILLEGAL, Fault, classify
from core.referee.games.base import Game, Result, start_vec
from core.referee.inference import (
    LEGAL,
    PREFIX,
    START,
    Candidate,
    TurnModel,
    Vec,
    own_of_vec,
    vec_of_own,
    vec_of_position,
)
from core.rules.position import Position, Side
from core.rules.variants import VariantPlay, VariantPosition
from core.rules.variants.base import State, Step


class VariantTurnModel(TurnModel):
    """Every candidate board of one roll of a variant position (the start, every legal result, every board on
    the way to one), with each candidate's full state (pins, first-roll flags, the messenger) so a board is read
    back as the right position. ``plays`` gives the legal plays when a game restricts them (a Russian link)."""

    pos: VariantPosition

    def __init__(self, pos: Position, dice: Sequence[int], link: int = 0,
                 plays: list[VariantPlay] | None = None) -> None:
        assert isinstance(pos, VariantPosition)
        self.pos = pos
        self.dice = (int(dice[0]), int(dice[1]))
        self.mover = pos.turn
        self.cls = type(pos)
        self.start = vec_of_position(pos)
        self.link = link
        if plays is not None:
            self.legal = plays
            self.orders: list[tuple[int, ...]] = [(self.dice[0],) * 4]
        else:
            self.legal = list(pos.legal_plays(self.dice))
            d1, d2 = self.dice
            self.orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
        self.max_dice = len(self.legal[0].play) if self.legal else 0
        self.by_vec: dict[Vec, Candidate] = {}
        self.states: dict[Vec, State] = {}
        self._build()
        self.candidates = list(self.by_vec.values())
        self.baseline = None

    def _vec(self, state: State) -> tuple[Vec, tuple[tuple[int, int], ...]]:
        me, opp, _ = state
        vec = vec_of_own(me, opp, self.mover, self.cls)
        s = self.start
        return vec, tuple((i, x) for i, x in enumerate(vec) if x != s[i])

    def _build(self) -> None:
        pos = self.pos
        start_state = pos._state()
        self.by_vec[self.start] = Candidate(self.start, START)
        self.states[self.start] = start_state
        for lp in self.legal:
            steps = tuple((m.frm, m.to, m.hit) for m in lp.play.moves)
            state = lp._state if lp._state is not None else start_state
            vec, diff = self._vec(state)
            if vec not in self.by_vec:
                self.by_vec[vec] = Candidate(vec, LEGAL, lp, tuple((25 if f == 26 else f) - t for f, t, _ in steps),
                                             steps, diff)
                self.states[vec] = state
        n = self.max_dice
        if n < 2:
            return
        memo: dict[tuple[State, tuple[int, ...]], bool] = {}

        def dfs(state: State, order: tuple[int, ...], depth: int, path: tuple[Step, ...]) -> bool:
            rest = order[depth:n]
            key = (state, rest)
            known = memo.get(key)
            if known is not None:
                return known
            moves = pos._moves(state, order[depth])
            if depth == n - 1:
                reaches = bool(moves)
            else:
                reaches = False
                for step, s2 in moves:
                    if dfs(s2, order, depth + 1, (*path, step)):
                        reaches = True
            if reaches:
                vec, diff = self._vec(state)
                if vec not in self.by_vec:
                    used = tuple(order[:depth])
                    self.by_vec[vec] = Candidate(vec, PREFIX, None, used, path, diff)
                    self.states[vec] = state
            memo[key] = reaches
            return reaches

        for order in self.orders:
            for step, s1 in pos._moves(start_state, order[0]):
                dfs(s1, order, 1, (step,))

    def position_of(self, cand: Candidate, turn: Side) -> Position:
        """The position a candidate board stands for (its pins, flags and messenger included)."""
        if cand.legal is not None:
            return cand.legal.result.with_turn(turn)
        state = self.states.get(cand.vec)
        if state is None:
            return self.pos.with_turn(turn)
        return self.pos._position_of(state, turn)


#: What a board shows before any variant's rule: checkers missing or added, a takeback, the wrong side, a
#: checker moved backwards or by a distance no die gives.
FIRST_REASONS = ("takeback", "checker_missing", "checker_added", "wrong_side_moved", "wrong_direction",
                 "wrong_distance", "bar_first")


class VariantGame(Game):
    """A seeds' game: its own moves, results and settings; each game overrides ``rule_fault``."""

    lets_stand = False  # a variant's board keeps state the counts do not show (pins, chains): put it right

    def turn_model(self, pos: Position, dice: Sequence[int]) -> TurnModel:
        return VariantTurnModel(pos, dice)

    def rerolls(self, pos: Position, dice: tuple[int, int]) -> bool:
        assert isinstance(pos, VariantPosition)
        return pos._reroll(dice)

    def classify(self, model: TurnModel, obs: Vec, earlier: Sequence[Vec] = (), nearest: Vec | None = None) -> Fault:
        """Why the board ``obs`` fits no candidate of the roll: the variant's own rule when it is broken, else as
        for backgammon (core.referee.faults.classify)."""
        if not isinstance(model, VariantTurnModel):
            return classify(model, obs, earlier, nearest)
        mover, cls = model.mover, model.cls
        params: dict[str, Any] = {"dice": list(model.dice), "side": mover.value, "other": mover.other.value,
                                  "example": model.legal[0].play.text() if model.legal else ""}
        if obs in earlier:
            return Fault(ILLEGAL, "takeback", params)
        boards = Boards(own_of_vec(model.start, mover, cls), own_of_vec(model.start, mover.other, cls),
                        own_of_vec(obs, mover, cls), own_of_vec(obs, mover.other, cls))
        generic = self.counts_fault(model, obs, earlier, nearest, boards, params)
        if generic.reason in FIRST_REASONS:
            return generic
        return self.rule_fault(model, boards, params) or generic

    def counts_fault(self, model: TurnModel, obs: Vec, earlier: Sequence[Vec], nearest: Vec | None,
                     boards: Boards, params: dict[str, Any]) -> Fault:
        """The reasons a backgammon board would get."""
        return classify(model, obs, earlier, nearest)

    def rule_fault(self, model: VariantTurnModel, boards: Boards, params: dict[str, Any]) -> Fault | None:
        """The game's own rule broken by a board whose checkers are all there (the mover's may have entered)."""
        return None

    def result(self, pos: Position) -> Result | None:
        """(winner, multiplier, how); ``how`` names the result: single, gammon, backgammon, or the game's own."""
        result = pos.result()
        if result is None:
            return None
        winner, mult = result
        if winner is None:
            return None, 0, "draw"
        return winner, mult, RESULT_NAMES.get(mult, "single")

    def start_vec(self, pos: Position) -> Vec:
        assert isinstance(pos, VariantPosition)
        cls, settings = type(pos), pos.settings
        return start_vec(cls, settings, lambda: cls.start(settings=settings))

    def public(self, pos: Position, model: TurnModel | None, moves: Sequence[Mapping[str, Any]], turn: Side,
               phase: str) -> dict[str, Any]:
        """The variant's name, rule and settings (the board's ``to_dict`` already carries its own marks)."""
        assert isinstance(pos, VariantPosition)
        return {"variant": {"name": pos.variant, "rule": pos.rule, "settings": dataclasses.asdict(pos.settings)}}


@dataclasses.dataclass
class Boards:
    """The mover's and the opponent's own counts before the roll (``me0``, ``opp0``) and on the board."""

    me0: list[int]
    opp0: list[int]
    me1: list[int]
    opp1: list[int]

    def moves(self) -> tuple[tuple[int, int], ...]:
        """The mover's checkers that left a point paired with the points that gained one."""
        me0, me1 = self.me0, self.me1
        gone = [p for p in range(25, 0, -1) for _ in range(max(0, me0[p] - me1[p]))]
        came = [p for p in range(24, -1, -1) for _ in range(max(0, me1[p] - me0[p]))]
        return tuple(zip(gone, came, strict=False))

    def all_there(self, entering: bool = False) -> bool:
        """No checker missing or added (``entering``: the mover's may have come onto the board, Russian)."""
        me0, me1 = sum(self.me0), sum(self.me1)
        return sum(self.opp1) == sum(self.opp0) and (me1 == me0 or (entering and me0 <= me1 <= 15))


__all__ = ["FIRST_REASONS", "Boards", "VariantGame", "VariantTurnModel"]
