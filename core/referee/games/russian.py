"""Russian backgammon (R31) on the referee's side: checkers that enter from off the board, two to enter before
any moves on, the first roll's double rolled again, and the chains of doubles.

A double is one link, played four times; once the board shows it played in full the referee records it and the
complementary double (7 - n) is the next link of the same turn, without a roll; after a complete chain the same
player rolls again ("lance os dados novamente"). The chain stops when a die cannot be played, and the turn
passes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.messages import pt_play
from core.referee import inference
from core.referee.faults import ILLEGAL, Fault, roll_of
from core.referee.games.base import Link
from core.referee.games.variant import Boards, TurnModel, VariantGame, VariantTurnModel
from core.referee.inference import Candidate, Inference, Observation, Vec
from core.rules.explain import UNPLAYED as UNPLAYED_REASONS
from core.rules.explain import explain_boards
from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side
from core.rules.variants.russian import RussianPosition

#: Which link of a chain a model reads: none, the double, its complement.
NO_CHAIN, DOUBLE_LINK, COMPLEMENT_LINK = 0, 1, 2
#: A double's results beyond which the referee does not try each one's complement (each costs a few ms; a board
#: that went past such a double is then refused, and the players show the double's board first).
MAX_SKIPPED = 150


class RussianGame(VariantGame):
    name = "russian"

    def turn_model(self, pos: Position, dice: Sequence[int]) -> TurnModel:
        if isinstance(pos, RussianPosition) and dice[0] == dice[1]:
            return self.link_model(pos, (int(dice[0]), int(dice[1])), DOUBLE_LINK)
        return VariantTurnModel(pos, dice)

    def link_model(self, pos: RussianPosition, dice: tuple[int, int], link: int) -> VariantTurnModel:
        """One link of a chain: four moves of the double (or as many as can be played: the chain stops there).
        The result of a link played in full keeps the turn with the mover when the chain goes on."""
        return VariantTurnModel(pos, dice, link, pos.link_plays(dice, complement=link == COMPLEMENT_LINK))

    # ----- chains ----------------------------------------------------------------------------------------------
    @staticmethod
    def goes_on(model: TurnModel, cand: Candidate | None) -> bool:
        """A double played in full after which the complementary double follows in the same turn."""
        return (isinstance(model, VariantTurnModel) and model.link == DOUBLE_LINK and cand is not None
                and cand.legal is not None and len(cand.legal.play) == 4 and cand.legal.result.turn is model.mover
                and not cand.legal.result.is_game_over())

    def reading(self, model: TurnModel, obs: Observation, inf: Inference) -> Inference:
        """A double's four moves standing still are where the player goes on to the complement, as a play stands
        when committed: a half-played link is the unlikely reading there too."""
        if inf.kind == "uncertain" and getattr(model, "link", None) == DOUBLE_LINK:
            firm = model.explain(obs, committing=True)
            if firm.kind == "play" and self.goes_on(model, firm.best):
                return firm
        return inf

    def next_link(self, model: TurnModel, cand: Candidate | None) -> Link | None:
        """The board shows the double played in full: it is recorded, and the complementary double (7 - n, four
        times, no roll) is the next link of the same turn."""
        if not self.goes_on(model, cand):
            return None
        assert cand is not None and cand.legal is not None
        mover, dice = model.mover, model.dice
        new = cand.legal.result
        text = cand.legal.play.text()
        n = 7 - dice[0]
        nxt = (n, n)
        after = new.with_turn(mover)
        assert isinstance(after, RussianPosition)
        sp, se = ("claras", "light") if mover is Side.LIGHT else ("escuras", "dark")
        message = {"pt": f"Jogada das {sp} com {dice[0]}-{dice[1]}: {pt_play(text)}. Agora a dobradinha complementar: "
                         f"joguem quatro vezes o {n}, sem lançar (gamão russo, R31).",
                   "en": f"{se.capitalize()}'s play with {dice[0]}-{dice[1]}: {text}. Now the complementary double: "
                         f"play {n} four times, without rolling (Russian backgammon, R31)."}
        return Link(cand, text, new, nxt, self.link_model(after, nxt, COMPLEMENT_LINK), "double",
                    {"chain": "double", "next_dice": list(nxt), "message": message})

    def skipped_link(self, model: TurnModel, vec: Vec) -> Link | None:
        """A board that no play of the double explains may show the double and part of its complement, when the
        camera saw no still board between them. When the mover's checkers went further than the double can take
        them, the complement of each way the double may have been played is tried; if just one explains the
        board, the double is recorded as played so and the complement becomes the turn's link."""
        if not isinstance(model, VariantTurnModel) or model.link != DOUBLE_LINK or model.max_dice < 4:
            return None
        if _pips(model, model.start) - _pips(model, vec) <= 4 * model.dice[0]:
            return None  # no further than the double alone goes: a fault of the double, not a skipped board
        firsts = [c for c in model.candidates if self.goes_on(model, c)]
        if not firsts or len(firsts) > MAX_SKIPPED:
            return None
        obs = Observation(vec)
        n = 7 - model.dice[0]
        scored = []
        for c in firsts:  # the complement's finished plays only: a board in its middle waits for the next one
            assert c.legal is not None
            after = c.legal.result.with_turn(model.mover)
            assert isinstance(after, RussianPosition)
            for lp in after.link_plays((n, n), complement=True):
                board = inference.vec_of_position(lp.result)
                cost = inference.observation_cost(obs, board)
                if cost <= inference.ACCEPT:
                    scored.append((cost, c, board))
        scored.sort(key=lambda t: t[0])
        # Ways of splitting the chain that end on the same board are one reading: the first is recorded.
        if not scored or any(cost - scored[0][0] < inference.MARGIN and board != scored[0][2] for cost, _, board in scored[1:]):
            return None
        return self.next_link(model, scored[0][1])

    def public(self, pos: Position, model: TurnModel | None, moves: Sequence[Mapping[str, Any]], turn: Side,
               phase: str) -> dict[str, Any]:
        """Besides the variant: where in a chain of doubles the player is (``chain``)."""
        return {**super().public(pos, model, moves, turn, phase), "chain": chain_public(model, moves, turn, phase)}

    # ----- faults --------------------------------------------------------------------------------------------
    def counts_fault(self, model: TurnModel, obs: Vec, earlier: Sequence[Vec], nearest: Vec | None,
                     boards: Boards, params: dict[str, Any]) -> Fault:
        """As core.referee.faults.classify, for Russian boards: the checkers not yet entered stand off the board,
        and the mover's new checkers came from there."""
        pos, mover = model.pos, model.mover
        assert isinstance(pos, RussianPosition)
        me0, opp0, me1, opp1 = boards.me0, boards.opp0, boards.me1, boards.opp1
        # The vectors count the checkers not yet entered with the borne-off ones (core.referee.inference.vec_of_own):
        # take them out again. While any wait, none can be borne off, so the off entry fell by the checkers entered.
        for side, before, after in ((mover, me0, me1), (mover.other, opp0, opp1)):
            waiting = pos.waiting(side)
            if waiting:
                entered = before[0] - after[0] if side is mover else 0
                before[0] -= waiting
                after[0] -= waiting - entered
        new = sum(me1) - sum(me0)
        if sum(opp1) != sum(opp0) or not 0 <= new <= 15 - sum(me0):
            side, arr0, arr1 = (mover, me0, me1) if sum(opp1) == sum(opp0) else (mover.other, opp0, opp1)
            code = "checker_missing" if sum(arr1) < sum(arr0) else "checker_added"
            point: Any = "?"
            for p in range(24, 0, -1):
                if (arr1[p] - arr0[p]) * (1 if code == "checker_added" else -1) > 0:
                    point = p
                    break
            return Fault(ILLEGAL, code, {**params, "side": side.value, "point": point})
        if any(opp1[p] > opp0[p] for p in range(0, 25)):
            return Fault(ILLEGAL, "wrong_side_moved", params)
        before = list(me0)
        before[BAR] += new  # entering from off the board is like entering from the bar (25 - die)
        reason, found, moves = explain_boards(roll_of(model), before, opp0, me1)
        if reason == "bar_first" and not me0[BAR]:
            reason = "illegal_play"
        return Fault("unplayed_die" if reason in UNPLAYED_REASONS else ILLEGAL, reason, {**params, **found}, moves)

    def rule_fault(self, model: VariantTurnModel, boards: Boards, params: dict[str, Any]) -> Fault | None:
        pos = model.pos
        if not isinstance(pos, RussianPosition) or not boards.all_there(entering=True):
            return None
        me0, me1 = boards.me0, boards.me1
        moved = [p for p in range(1, 25) if me1[p] < me0[p]]
        entered, new = sum(me0), sum(me1) - sum(me0)
        # A checker on the board moved, or a new one stands further in than any die enters it: it moved on.
        beyond = [p for p in range(24, 0, -1) if me1[p] > me0[p] and 25 - p not in model.dice]
        if (moved or beyond) and entered + new < pos.settings.entered_before_moving:
            return Fault(ILLEGAL, "enter_two_first",
                         {**params, "n": pos.settings.entered_before_moving, "point": (moved or beyond)[0]},
                         boards.moves())
        return None


def chain_public(model: TurnModel | None, moves: Sequence[Mapping[str, Any]], turn: Side, phase: str) -> dict[str, Any] | None:
    """Where in a chain the player is, for the kiosk: the link being played (``double`` or ``complement``;
    ``roll`` when the same player rolls again after a complete chain), its dice, and the links already played in
    this turn. None outside a chain."""
    link = getattr(model, "link", NO_CHAIN) if model is not None and phase == "moving" else NO_CHAIN
    played = []
    for row in reversed(moves):  # this turn's links: the mover's rows at the end of the move list
        if row.get("side") != turn.value or not row.get("play"):
            break
        played.append(list(row["roll"]))
    again = phase == "awaiting_roll" and bool(played)
    if link == NO_CHAIN and not again:
        return None
    if link == NO_CHAIN and phase == "moving":
        played = []
    return {"link": {NO_CHAIN: "roll", DOUBLE_LINK: "double", COMPLEMENT_LINK: "complement"}[link],
            "dice": list(model.dice) if model is not None and link else [], "played": played[::-1]}


def _pips(model: VariantTurnModel, vec: Vec) -> int:
    """The mover's pips left on a board (a checker not yet entered counts 25)."""
    own = inference.own_of_vec(vec, model.mover, model.cls)
    pips = sum(i * own[i] for i in range(1, 26))
    pos = model.pos
    assert isinstance(pos, RussianPosition)
    if pos.waiting(model.mover):
        pips += 25 * (own[OFF] - pos.own(model.mover)[OFF])  # none is borne off while some wait
    return pips


RUSSIAN = RussianGame()

__all__ = ["COMPLEMENT_LINK", "DOUBLE_LINK", "NO_CHAIN", "RUSSIAN", "RussianGame", "chain_public"]
