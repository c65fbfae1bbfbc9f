"""The referee for the seeds' other games: Plakoto (R30), Russian backgammon (R31) and Jacquet (R32).

A match declares its variant in ``new_match`` (``"variant": "plakoto"`` and ``"variant_settings"``, kept in
the referee's rules; docs/CONTRACTS.md). Everything the referee does for backgammon it does for a variant
through the same machine (core.referee.machine); what differs lives here:

- ``VariantTurnModel``: the candidates of a roll (the start, every legal result, every board on the way to
  one) from the variant's own legal plays and single-die moves (``VariantPosition._moves``), with each
  candidate's full state (Plakoto's pins, Russian first-roll flags, Jacquet's messenger) so a board is read
  back as the right position. ``TurnModel(pos, dice)`` gives one for a variant position by itself.
- Russian chains (R31): a double is one link, played four times; once the board shows it played in full
  the referee records it and the complementary double (7 - n) is the next link of the same turn, without a
  roll; after a complete chain the same player rolls again ("lance os dados novamente"). The chain stops
  when a die cannot be played, and the turn passes. A double on a side's first roll is rolled again.
- ``classify_board``: why a board fits no candidate, naming the variant's own rule first (a pinned checker
  moved; the messenger has not arrived; a six-point block not yet allowed; two checkers to enter first),
  then the reasons a backgammon board would get (core.referee.faults).
- ``game_result``: how a game ends, by variant (Plakoto's mother pinned, a draw when both are).

The standard game never comes here: its models, faults and results are exactly as before.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from core.match.score import RESULT_NAMES
from core.referee.faults import ILLEGAL, Fault, classify
from core.referee.inference import (
    ACCEPT,
    LEGAL,
    MARGIN,
    PREFIX,
    START,
    Candidate,
    Observation,
    TurnModel,
    Vec,
    observation_cost,
    own_to_vec,
    vec_of_own,
    vec_of_position,
)
from core.rules.explain import UNPLAYED as UNPLAYED_REASONS
from core.rules.explain import explain_boards
from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side
from core.rules.variants import VariantPlay, VariantPosition, variant
from core.rules.variants.base import State, Step, longest_run
from core.rules.variants.jacquet import QUARTERS, JacquetPosition
from core.rules.variants.plakoto import PlakotoPosition
from core.rules.variants.russian import RussianPosition

#: The variants a match may declare (``standard`` is backgammon).
MATCH_VARIANTS = ("standard", "plakoto", "russian", "jacquet")


# ----- the match's variant -------------------------------------------------------------------------------------
def variant_name(name: Any) -> str:
    """The canonical name of a declared variant; ValueError naming the choices."""
    if not isinstance(name, str):
        raise ValueError(f"\"variant\" must be one of {', '.join(MATCH_VARIANTS)}, got {json.dumps(name)}")
    try:
        canonical = variant(name).variant
    except ValueError:
        canonical = ""
    if canonical not in MATCH_VARIANTS:
        raise ValueError(f"\"variant\" must be one of {', '.join(MATCH_VARIANTS)}, got {json.dumps(name)}")
    return canonical


def settings_of(name: str, raw: Any) -> Any:
    """The variant's settings object from the ``variant_settings`` JSON object (None: the defaults);
    ValueError naming the field."""
    cls = variant(name)
    if not issubclass(cls, VariantPosition):
        if raw:
            raise ValueError("\"variant_settings\": the standard game has no variant settings")
        return None
    if raw is None:
        return cls.settings_class()
    if not isinstance(raw, Mapping):
        raise ValueError("\"variant_settings\" must be an object of the variant's settings (docs/variants.md)")
    fields = {f.name: f for f in dataclasses.fields(cls.settings_class)}
    for key, value in raw.items():
        if key not in fields:
            raise ValueError(f"\"variant_settings.{key}\": not a setting of {name} (known: {', '.join(fields)})")
        default = fields[key].default
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"\"variant_settings.{key}\" must be true or false, got {json.dumps(value)}")
        if isinstance(default, int) and not isinstance(default, bool) and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"\"variant_settings.{key}\" must be a whole number, got {json.dumps(value)}")
    try:
        return cls.settings_class(**raw)
    except (TypeError, ValueError) as exc:
        key, _, why = str(exc).partition(": ")
        if key in fields and why:  # the settings' own check names its field ("mother: choose one of ...")
            raise ValueError(f"\"variant_settings.{key}\": {why}") from None
        raise ValueError(f"\"variant_settings\": {exc}") from None


def settings_json(settings: Any) -> dict[str, Any]:
    return {} if settings is None else dataclasses.asdict(settings)


def start_position(rules: Mapping[str, Any]) -> Position:
    """The start of a game of the match's variant (``rules["variant"]``, default the standard game)."""
    name = rules.get("variant") or "standard"
    if name == "standard":
        return Position.start()
    cls = variant(name)
    return cls.start(settings=settings_of(name, rules.get("variant_settings")))  # type: ignore[call-arg]


def is_variant(pos: Position) -> bool:
    return isinstance(pos, VariantPosition)


# ----- a roll's candidates ----------------------------------------------------------------------------------------
NO_CHAIN, DOUBLE_LINK, COMPLEMENT_LINK = 0, 1, 2


def chain_link(pos: Position, dice: tuple[int, int]) -> int:
    """Which link of a Russian chain a roll starts (a double: the double itself), 0 for anything else."""
    return DOUBLE_LINK if isinstance(pos, RussianPosition) and dice[0] == dice[1] else NO_CHAIN


def link_plays(pos: RussianPosition, dice: tuple[int, int], link: int) -> list[VariantPlay]:
    """The legal plays of one link of a Russian chain (``RussianPosition.link_plays``): four moves of the double
    (or as many as can be played: the chain stops there). The result of a link played in full keeps the turn
    with the mover when the chain goes on (the complementary double, or a new roll after a complete chain)."""
    return pos.link_plays(dice, complement=link == COMPLEMENT_LINK)


def chain_goes_on(pos: RussianPosition, link: int) -> bool:
    """After a link played in full: does the same player go on (complementary double, or a new roll)?"""
    return pos.chain_goes_on(complement=link == COMPLEMENT_LINK)


class VariantTurnModel(TurnModel):
    """Every candidate board of one roll (or one link of a Russian chain) of a variant position."""

    def __init__(self, pos: Position, dice: Sequence[int], link: int | None = None) -> None:
        assert isinstance(pos, VariantPosition)
        self.pos = pos
        self.dice = (int(dice[0]), int(dice[1]))
        self.mover = pos.turn
        self.cls = type(pos)
        self.start = vec_of_position(pos)
        self.link = chain_link(pos, self.dice) if link is None else link
        if self.link:
            self.legal = link_plays(pos, self.dice, self.link)  # type: ignore[arg-type]
            self.orders = [(self.dice[0],) * 4]
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

    def goes_on(self, cand: Candidate | None) -> bool:
        """A Russian link played in full after which the complementary double follows in the same turn."""
        return (self.link == DOUBLE_LINK and cand is not None and cand.legal is not None
                and len(cand.legal.play) == 4 and cand.legal.result.turn is self.mover
                and not cand.legal.result.is_game_over())


def next_link(model: VariantTurnModel) -> tuple[int, int]:
    n = 7 - model.dice[0]
    return n, n


def chain_public(model: TurnModel | None, moves: Sequence[Mapping[str, Any]], turn: Side, phase: str) -> dict[str, Any] | None:
    """Where in a Russian chain the player is, for the kiosk: the link being played (``double`` or
    ``complement``; ``roll`` when the same player rolls again after a complete chain), its dice, and the links
    already played in this turn. None outside a chain."""
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


def next_link_begins(ref: Any, at: int, cand: Candidate, out: list[dict[str, Any]]) -> None:
    """R31: the board shows the double played in full; record it and make the complementary double (7 - n,
    four times, no roll) the next link of the same turn. If it cannot be played at all the chain stops there
    and the turn passes (the referee's R25 path)."""
    ms, ts = ref.match_state, ref.turn_state
    model = ts.model
    assert isinstance(model, VariantTurnModel) and cand.legal is not None and ms.dice is not None
    mover, dice = ms.turn, ms.dice
    new = cand.legal.result
    text = cand.legal.play.text()
    ref._push_undo()
    _, row = ms.add_move(mover, dice, text, chain="double")
    row["chain"] = "double"
    nxt = next_link(model)
    sp, se = ("claras", "light") if mover is Side.LIGHT else ("escuras", "dark")
    ref._v(out, at, "play", side=mover.value, dice=list(dice), play=text, legal=True,
           position_id=new.position_id(mover), match_id=ms.match_id(mover, passed=True), chain="double",
           next_dice=list(nxt),
           message={"pt": f"Jogada das {sp} com {dice[0]}-{dice[1]}: {text}. Agora a dobradinha complementar: "
                          f"joguem quatro vezes o {nxt[0]}, sem lançar (gamão russo, R31).",
                    "en": f"{se.capitalize()}'s play with {dice[0]}-{dice[1]}: {text}. Now the complementary double: "
                          f"play {nxt[0]} four times, without rolling (Russian backgammon, R31)."})
    ms.history.append(ms.pos)
    del ms.history[:-8]
    ms.pos = new.with_turn(mover)
    ms.dice = nxt
    ts.end()
    ts.model = VariantTurnModel(ms.pos, nxt, COMPLEMENT_LINK)
    ref._dance(at, out)


def skipped_link(ref: Any, at: int, vec: Vec, out: list[dict[str, Any]]) -> bool:
    """R31: a board that no play of the double explains may show the double and part of its complement, when
    the camera saw no still board between them. When the mover's checkers went further than the double can
    take them, the complement of each way the double may have been played is tried; if just one explains the
    board, the double is recorded as played so and the complement becomes the turn's link (True)."""
    model = ref.turn_state.model
    if not isinstance(model, VariantTurnModel) or model.link != DOUBLE_LINK or model.max_dice < 4:
        return False
    if _pips(model, model.start) - _pips(model, vec) <= 4 * model.dice[0]:
        return False  # no further than the double alone goes: a fault of the double, not a skipped board
    firsts = [c for c in model.candidates if model.goes_on(c)]
    if not firsts or len(firsts) > MAX_SKIPPED:
        return False
    obs = Observation(vec)
    scored = []
    for c in firsts:  # the complement's finished plays only: a board in its middle waits for the next one
        assert c.legal is not None
        for lp in link_plays(c.legal.result.with_turn(model.mover), next_link(model), COMPLEMENT_LINK):  # type: ignore[arg-type]
            board = vec_of_position(lp.result)
            cost = observation_cost(obs, board)
            if cost <= ACCEPT:
                scored.append((cost, c, board))
    scored.sort(key=lambda t: t[0])
    # Ways of splitting the chain that end on the same board are one reading: the first is recorded.
    if not scored or any(cost - scored[0][0] < MARGIN and board != scored[0][2] for cost, _, board in scored[1:]):
        return False
    next_link_begins(ref, at, scored[0][1], out)
    return True


#: A double's results beyond which the referee does not try each one's complement (each costs a few ms; a board
#: that went past such a double is then refused, and the players show the double's board first).
MAX_SKIPPED = 150


def _pips(model: VariantTurnModel, vec: Vec) -> int:
    """The mover's pips left on a board (Russian: a checker not yet entered counts 25)."""
    own = _own(vec, model.mover, model.cls)
    pips = sum(i * own[i] for i in range(1, 26))
    if model.pos.waiting(model.mover):  # type: ignore[attr-defined]
        pips += 25 * (own[OFF] - model.pos.own(model.mover)[OFF])  # none is borne off while some wait
    return pips


def public(ref: Any) -> dict[str, Any]:
    """What the kiosk shows of a variant's game beyond the board (whose ``to_dict`` already carries Plakoto's
    ``pinned``, Russian ``waiting`` and ``first_roll``, Jacquet's ``messenger``): the variant's name, rule and
    settings, and for Russian where in the chain of doubles the player is."""
    ms = ref.match_state
    pos = ms.pos
    out: dict[str, Any] = {"variant": {"name": pos.variant, "rule": pos.rule, "settings": settings_json(pos.settings)}}
    if isinstance(pos, RussianPosition):
        out["chain"] = chain_public(ref.turn_state.model, ms.moves, ms.turn, ms.phase)
    return out


# ----- faults ---------------------------------------------------------------------------------------------------
def hidden_pins(pos: Position, obs: Observation) -> Observation:
    """A camera's board of a Plakoto game (R30) with the pinned checkers put back where the camera cannot see them.

    A pinned checker lies under its pinner, so the camera sees only the pinner's colour on that point. The
    referee knows the pins from the plays: a checker that was pinned, or stood alone, on a point that now shows
    only the other colour is under it (in one turn only the mover's checkers move, and the only way onto a
    lone opposing checker is to pin it). It is counted there and taken out of the derived borne-off count.
    Boards that count the pinned checker (both colours on the point) and other variants are unchanged.
    """
    if not isinstance(pos, PlakotoPosition) or not obs.derived_off:
        return obs
    j = pos.to_json()
    pinned = {(q["point"], q["side"]) for q in j["pinned"]}
    v = list(obs.vec)
    dists = dict(obs.dists)
    for side, other, base, other_base, off in (("light", "dark", 0, 24, 50), ("dark", "light", 24, 0, 51)):
        # No more than the side's checkers not borne off: when all of them are seen elsewhere, the pinned one came
        # out from under its pinner (a fault the referee must see, R30), it is not hidden there.
        room = 15 - j["off"][side] - sum(v[base:base + 24]) - v[48 if side == "light" else 49]
        for p in range(1, 25):
            alone = j[side][p - 1] == 1 and ((p, side) in pinned or j[other][p - 1] == 0)
            if alone and room > 0 and v[base + p - 1] == 0 and v[other_base + p - 1] >= 1:
                room -= 1
                v[base + p - 1] = 1
                dists.pop(base + p - 1, None)
                v[off] = max(0, v[off] - 1)
    return obs if v == list(obs.vec) else Observation(tuple(v), dists, True)


def classify_board(model: TurnModel, obs: Vec, earlier: Sequence[Vec] = (), nearest: Vec | None = None) -> Fault:
    """Why the board ``obs`` fits no candidate of the roll: the variant's own rule when it is broken, else as
    for backgammon (core.referee.faults.classify)."""
    if not isinstance(model, VariantTurnModel):
        return classify(model, obs, earlier, nearest)
    pos, mover, cls = model.pos, model.mover, model.cls
    params: dict[str, Any] = {"dice": list(model.dice), "side": mover.value, "other": mover.other.value,
                              "example": model.legal[0].play.text() if model.legal else ""}
    if obs in earlier:
        return Fault(ILLEGAL, "takeback", params)
    me0, opp0 = _own(model.start, mover, cls), _own(model.start, mover.other, cls)
    me1, opp1 = _own(obs, mover, cls), _own(obs, mover.other, cls)
    russian = isinstance(pos, RussianPosition)
    if russian:
        # The vectors count the checkers not yet entered with the borne-off ones (core.referee.inference.vec_of_own):
        # take them out again. While any wait, none can be borne off, so the off entry fell by the checkers entered.
        for side, before, after in ((mover, me0, me1), (mover.other, opp0, opp1)):
            waiting = pos.waiting(side)  # type: ignore[attr-defined]
            if waiting:
                entered = before[0] - after[0] if side is mover else 0
                before[0] -= waiting
                after[0] -= waiting - entered
    generic = classify(model, obs, earlier, nearest) if not russian else _russian_fault(model, obs, me0, opp0, me1, opp1, params)
    if generic.reason in FIRST_REASONS:
        return generic
    moved = [p for p in range(1, 25) if me1[p] < me0[p]]
    if sum(opp1) == sum(opp0) and (sum(me1) == sum(me0) or (russian and sum(me0) <= sum(me1) <= 15)):
        if isinstance(pos, PlakotoPosition):
            for p in sorted(pos.pinned(mover), reverse=True):
                if me1[p] < me0[p]:
                    return Fault(ILLEGAL, "pinned_checker_moved", {**params, "point": pos.physical_point(mover, p)},
                                 _moves_of(me0, me1))
        if isinstance(pos, JacquetPosition):
            fault = _jacquet_fault(pos, me0, me1, params)
            if fault is not None:
                return fault
        if russian:
            entered, new = sum(me0), sum(me1) - sum(me0)
            # A checker on the board moved, or a new one stands further in than any die enters it: it moved on.
            beyond = [p for p in range(24, 0, -1) if me1[p] > me0[p] and 25 - p not in model.dice]
            if (moved or beyond) and entered + new < pos.settings.entered_before_moving:
                return Fault(ILLEGAL, "enter_two_first",
                             {**params, "n": pos.settings.entered_before_moving, "point": (moved or beyond)[0]},
                             _moves_of(me0, me1))
    return generic


#: What a board shows before any variant's rule: checkers missing or added, a takeback, the wrong side, a
#: checker moved backwards or by a distance no die gives.
FIRST_REASONS = ("takeback", "checker_missing", "checker_added", "wrong_side_moved", "wrong_direction",
                 "wrong_distance", "bar_first")


def _russian_fault(model: TurnModel, obs: Vec, me0: list[int], opp0: list[int], me1: list[int], opp1: list[int],
                   params: dict[str, Any]) -> Fault:
    """As core.referee.faults.classify, for Russian boards: the checkers not yet entered stand off the board,
    and the mover's new checkers came from there."""
    mover = model.mover
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
    from core.referee.faults import roll_of

    before = list(me0)
    before[BAR] += new  # entering from off the board is like entering from the bar (25 - die)
    reason, found, moves = explain_boards(roll_of(model), before, opp0, me1)
    if reason == "bar_first" and not me0[BAR]:
        reason = "illegal_play"
    return Fault("unplayed_die" if reason in UNPLAYED_REASONS else ILLEGAL, reason, {**params, **found}, moves)


def _own(vec: Vec, side: Side, cls: type[Position]) -> list[int]:
    table = own_to_vec(side, cls)
    return [vec[table[i]] for i in range(26)]


def _moves_of(me0: Sequence[int], me1: Sequence[int]) -> tuple[tuple[int, int], ...]:
    gone = [p for p in range(25, 0, -1) for _ in range(max(0, me0[p] - me1[p]))]
    came = [p for p in range(24, -1, -1) for _ in range(max(0, me1[p] - me0[p]))]
    return tuple(zip(gone, came, strict=False))


def _jacquet_fault(pos: JacquetPosition, me0: Sequence[int], me1: Sequence[int], params: dict[str, Any]) -> Fault | None:
    mover = pos.turn
    if not pos.messenger_arrived(mover) and not any(me1[0:7]):
        may_leave = 1 if me0[24] == 15 else 0
        if me0[24] - me1[24] > may_leave:
            return Fault(ILLEGAL, "messenger_not_arrived", {**params, "point": pos.physical_point(mover, 24)},
                         _moves_of(me0, me1))
    held_at = 2 if pos.settings.hitting else 1
    if me0[1] >= held_at and me0[2] >= held_at:
        return None
    held0 = [me0[p] >= held_at for p in range(1, 25)]
    held1 = [me1[p] >= held_at for p in range(1, 25)]
    q = pos.settings.prime_quarter
    lo = 0
    while lo < 24:
        if not held1[lo]:
            lo += 1
            continue
        hi = lo
        while hi + 1 < 24 and held1[hi + 1]:
            hi += 1
        if hi - lo + 1 >= 6 and any(not held0[k] for k in range(lo, hi + 1)) and longest_run(held1) >= 6:
            if q is None or any(lo + 1 <= p <= hi + 1 for p in QUARTERS[q]):
                new = next(k + 1 for k in range(lo, hi + 1) if not held0[k])
                return Fault(ILLEGAL, "six_block_not_allowed", {**params, "point": pos.physical_point(mover, new)},
                             _moves_of(me0, me1))
        lo = hi + 1
    return None


# ----- results ----------------------------------------------------------------------------------------------
def game_result(pos: Position) -> tuple[Side | None, int, str] | None:
    """(winner, multiplier, how) when the game is over, else None. ``how`` names the result: single, gammon,
    backgammon; Plakoto's ``mother`` (a mother pinned) and ``draw`` (both mothers pinned: no winner, 0)."""
    result = pos.result()
    if result is None:
        return None
    winner, mult = result
    if winner is None:
        return None, 0, "draw"
    if isinstance(pos, PlakotoPosition) and pos.mother_pinned(winner.other) and pos._rel[winner.index][OFF] < 15:
        return winner, mult, "mother"
    return winner, mult, RESULT_NAMES.get(mult, "single")


__all__ = [
    "COMPLEMENT_LINK", "DOUBLE_LINK", "MATCH_VARIANTS", "NO_CHAIN", "VariantTurnModel", "chain_link",
    "chain_public", "classify_board", "game_result", "is_variant", "link_plays", "next_link", "next_link_begins",
    "public", "settings_of", "skipped_link",
    "settings_json", "start_position", "variant_name",
]
