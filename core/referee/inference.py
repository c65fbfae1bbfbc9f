"""Which play does the board show? Candidates per roll, scored against what the camera saw.

The camera only has to choose among the positions the rules allow: for a roll, ``TurnModel`` lists every
legal result (a finished play), every position on the way to one (a play in progress) and the start
(nothing moved yet). An observed board is scored against each candidate; the rules (15 checkers a side,
only legal results) fill in what the camera cannot see. When two candidates explain the board about
equally well the answer is ``uncertain``, never a guess.

Positions are compared as 52-entry vectors in physical layout: light points 1-24, dark points 1-24,
bar light, bar dark, off light, off dark.

Scores are costs (lower is better): a count that differs from the candidate by k costs k; with a
per-point probability table from the camera, a count costs -ln(p / p_max), capped. The costs of a
candidate are computed from the few entries where it differs from the start, so a board is ruled on in
a few milliseconds even for doubles with thousands of candidates.

A camera's board (``off_seen: false``) gets three allowances for what a camera cannot see: its borne-off
counts are derived, so they cost nothing; checkers above the first row of a tall stack that it did not
count, or counted too many, cost ``HIDDEN_COST`` each; and, given the camera's board from before the roll
(``TurnModel.baseline``), a point also costs no more than the difference between the change seen there and
the change the candidate makes, so a count misread the same way before and after is no evidence at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, cast

from core.rules import movegen, partial
from core.rules.notation import Move, Play
from core.rules.position import LegalPlay, Position, Side
from core.rules.variants.base import VariantPosition

Step = tuple[int, int, bool]  # (from, to, hit) in the mover's own numbering: 25 = bar, 0 = off

Vec = tuple[int, ...]
VEC_LEN = 52
BAR_IDX = {Side.LIGHT: 48, Side.DARK: 49}
OFF_IDX = {Side.LIGHT: 50, Side.DARK: 51}

#: A candidate is accepted when the board differs from it by at most about one checker.
ACCEPT = 1.5
#: ...and when the next best candidate is worse by at least this much; otherwise: uncertain.
MARGIN = 0.75
#: Candidates a single count apart on the board (in the bear-off a checker borne off and one left on
#: the 1-point, when the camera derives the borne-off count) need more than one misread count between them.
NEAR_MARGIN = 1.25
#: A per-point probability at least this high for the stated count is no uncertainty at all.
CERTAIN = 0.999
#: A count the camera's table gives at least this share of its likeliest count's odds is doubtful: the
#: camera may well have read it wrong (a confident misread, 0.6 against 0.4).
DOUBTFUL = 0.25
#: When the play is committed, a half-finished play is an unlikely explanation (R09 fault).
COMMIT_PREFIX_PENALTY = 1.0
#: A camera sees one row of checkers on a point; from the seventh on they lie on a second layer that it
#: often cannot count. On a camera's board each checker above the row it saw or did not see costs this much.
TALL_ROW = 6
HIDDEN_COST = 0.35
#: More than two rows: a pile (Plakoto's and Jacquet's start, R30/R32), whose count the camera cannot see at all.
PILE = 2 * TALL_ROW
#: ... and no more than this for a whole stack: a pile of 15 (Plakoto's and Jacquet's start) may show one row.
HIDDEN_CAP = 2 * HIDDEN_COST
#: A change above the first row of a pile (more than two rows), with the camera's board from before the roll.
UNSEEN_CHANGE = 0.1

START, PREFIX, LEGAL = "start", "prefix", "legal"
#: The probability table of a point the camera cannot see (an object stands on it): every count alike.
UNSEEN: Mapping[int, float] = {n: 1.0 for n in range(16)}


def _own_to_vec(side: Side, cls: type[Position]) -> tuple[int, ...]:
    """For each own-numbered index 0..25 of ``side``: its index in the 52-entry vector."""
    base = 0 if side is Side.LIGHT else 24
    table = [0] * 26
    table[0] = OFF_IDX[side]
    table[25] = BAR_IDX[side]
    for own in range(1, 25):
        table[own] = base + cls.routes[side][24 - own] - 1
    return tuple(table)


#: ``_own_to_vec`` computed once per (side, position class). (The cast: mypy does not take a class as hashable.)
own_to_vec = cast(Callable[[Side, type[Position]], tuple[int, ...]], cache(_own_to_vec))


def vec_of_own(me: Sequence[int], opp: Sequence[int], mover: Side, cls: type[Position] = Position) -> Vec:
    """The 52-entry vector of the mover's and the opponent's own counts. Checkers not yet on the board
    (Russian backgammon, R31) stand beside it with the borne-off ones: a camera cannot tell them apart."""
    v = [0] * VEC_LEN
    t = own_to_vec(mover, cls)
    for i in range(26):
        v[t[i]] = me[i]
    t2 = own_to_vec(mover.other, cls)
    for i in range(26):
        v[t2[i]] = opp[i]
    if cls is not Position and issubclass(cls, VariantPosition):
        n = cls.checkers
        v[t[0]] += n - sum(me)
        v[t2[0]] += n - sum(opp)
    return tuple(v)


def vec_of_position(pos: Position) -> Vec:
    return vec_of_own(pos.own(Side.LIGHT), pos.own(Side.DARK), Side.LIGHT, type(pos))


def own_of_vec(vec: Vec, side: Side, cls: type[Position] = Position) -> list[int]:
    table = own_to_vec(side, cls)
    return [vec[table[i]] for i in range(26)]


def position_of_vec(vec: Vec, turn: Side, cls: type[Position] = Position) -> Position:
    """A Position from a vector; the caller checks the counts (15 a side) first."""
    return cls((tuple(own_of_vec(vec, Side.LIGHT, cls)), tuple(own_of_vec(vec, Side.DARK, cls))), turn)


def vec_name(index: int) -> tuple[Side, str | int]:
    """(side, physical point 1-24 | "bar" | "off") of a vector index."""
    if index < 24:
        return Side.LIGHT, index + 1
    if index < 48:
        return Side.DARK, index - 23
    return (Side.LIGHT if index % 2 == 0 else Side.DARK), ("bar" if index < 50 else "off")


def cross_table(side: Side, cls: type[Position] = Position) -> tuple[int, ...]:
    """For the side's own points 1..24: the opponent's own number of the same physical point."""
    return cls._cross(side)


def single_steps(me: Sequence[int], opp: Sequence[int], die: int, cross: Sequence[int], block_at: int = 2) -> list[Step]:
    """Every legal single-checker move with one die (R04-R07, R10), with the opponent's own board.

    The rules live in ``core.rules.movegen.steps``; this only turns the opponent's board into the mover's view.
    """
    return movegen.steps(me, movegen.opponent_at(opp, cross), die, block_at)


def apply_step(me: Sequence[int], opp: Sequence[int], step: Step, cross: Sequence[int]) -> tuple[list[int], list[int]]:
    frm, to, hit = step
    me2 = list(me)
    me2[frm] -= 1
    me2[to] += 1
    opp2 = list(opp)
    if hit:
        opp2[cross[to]] -= 1
        opp2[25] += 1
    return me2, opp2


@dataclass(frozen=True)
class Observation:
    """A stable board from the camera: counts, and per (vector index) probability tables where given."""

    vec: Vec
    dists: Mapping[int, Mapping[int, float]] = field(default_factory=dict)
    #: The borne-off counts were not seen but derived (15 - board - bar), as a camera does: they carry no
    #: evidence of their own. True when the event says ``"off_seen": false`` or carries probability tables.
    derived_off: bool = False
    #: The points an object stands on (a dice cup, a die, the cube, a hand): (physical point 1-24, what covers
    #: it), sorted. The camera cannot see them: both colours' counts there cost nothing (``UNSEEN``).
    covered: tuple[tuple[int, str], ...] = ()

    @classmethod
    def from_event(cls, event: Mapping[str, Any]) -> Observation:
        v = list(event["light"]) + list(event["dark"])
        v += [event["bar"]["light"], event["bar"]["dark"], event["off"]["light"], event["off"]["dark"]]
        waiting = event.get("waiting")
        if waiting:  # Russian backgammon (R31): checkers not yet entered are off the board, as the borne-off are
            v[50] += waiting.get("light", 0)
            v[51] += waiting.get("dark", 0)
        dists: dict[int, dict[int, float]] = {}
        unc = event.get("uncertainty") or {}
        tables: list[tuple[int, Mapping[str, float]]] = []
        for side, base in (("light", 0), ("dark", 24)):
            tables += [(base + i, dist) for i, dist in enumerate(unc.get(side) or ())]
        bar = unc.get("bar") or {}
        tables += [(BAR_IDX[Side(side)], bar.get(side) or {}) for side in ("light", "dark")]
        for i, dist in tables:
            if dist:
                table = {int(k): float(p) for k, p in dist.items()}
                # A table sure of the stated count says no more than the count itself.
                if table.get(v[i], 0.0) >= CERTAIN:
                    continue
                dists[i] = table
        covered = tuple((int(c["point"]), str(c["by"])) for c in event.get("covered") or ())
        for point, _ in covered:
            # Under an object the camera sees nothing: any count is as likely as any other (never counted, never
            # a residual, never a call; see residual_of).
            dists[point - 1] = dists[24 + point - 1] = dict(UNSEEN)
        derived = event.get("off_seen") is False or bool(dists)
        return cls(tuple(v), dists, derived, covered)

    def totals(self) -> tuple[int, int]:
        v = self.vec
        return sum(v[0:24]) + v[48] + v[50], sum(v[24:48]) + v[49] + v[51]


@dataclass(slots=True)
class Candidate:
    vec: Vec
    kind: str  # start | prefix | legal
    legal: LegalPlay | None = None
    used: tuple[int, ...] = ()  # dice used (prefixes: one representative order)
    steps: tuple[Step, ...] = ()  # single-die steps that reach it (one way)
    diff: tuple[tuple[int, int], ...] = ()  # (index, value) where it differs from the start


@dataclass
class Inference:
    """What a board shows. kind: nothing | in_progress | play | uncertain | unexplained."""

    kind: str
    best: Candidate | None = None
    cost: float = 0.0
    rivals: list[Candidate] = field(default_factory=list)  # for uncertain: the close candidates
    residual: dict[int, int] = field(default_factory=dict)  # index -> observed - candidate


class _Costs:
    """Per-entry costs of an observation, memoised per (index, value)."""

    __slots__ = ("obs", "dists", "derived_off", "memo", "base")

    def __init__(self, obs: Observation, start: Vec | None = None, baseline: Observation | None = None) -> None:
        self.obs = obs.vec
        self.dists = obs.dists
        self.derived_off = obs.derived_off
        self.memo: dict[tuple[int, int], float] = {}
        # (start, board before the roll): both or neither
        self.base = (start, baseline.vec, baseline.dists) if baseline is not None and start is not None else None

    def _count_cost(self, i: int, value: int) -> float:
        c = float(abs(self.obs[i] - value))
        dist = self.dists.get(i)
        if dist:
            # The table can only make a count cheaper than the plain count model: a camera sure of a
            # wrong count is still one count off, and a point it cannot see costs nothing.
            pmax = max(dist.values()) or 1.0
            p = dist.get(value, 0.0)
            if p > 0:
                c = min(c, -math.log(p / pmax))
        return c

    def __call__(self, i: int, value: int) -> float:
        key = (i, value)
        if i >= 50 and self.derived_off:
            # A camera derives the borne-off counts as 15 - board - bar: no evidence beyond the points.
            # Other boards were counted, tray included.
            self.memo[key] = 0.0
            return 0.0
        c = self.memo.get(key)
        if c is None:
            c = self._count_cost(i, value)
            if self.derived_off and i < 48 and max(value, self.obs[i]) > TALL_ROW:
                # above one row the camera counts discs on a second layer, both too few and too many
                seen = self.obs[i]
                low: float = abs(min(seen, TALL_ROW) - min(value, TALL_ROW))
                if seen < TALL_ROW:
                    low = min(low, self._count_cost(i, min(value, TALL_ROW)))
                c = min(c, low + min(HIDDEN_CAP, HIDDEN_COST * abs(max(seen, TALL_ROW) - max(value, TALL_ROW))))
                if value > PILE and seen:
                    # a pile of three layers (Plakoto's and Jacquet's start, R30/R32): even its first row is
                    # hidden in part; the camera only says a pile is there
                    c = min(c, HIDDEN_CAP)
            if self.base is not None and i < 50:
                # What changed: a camera that misread a point before the roll (a tall stack it cannot count)
                # misreads it the same way after; a change it sees is weighed against the change the
                # candidate makes there.
                start, before, doubts = self.base
                # Not where the camera was in doubt before the roll (the count there gets fair odds in its
                # table): a confident misread there is no reading to compare a change with.
                table = doubts.get(i)
                if not (table and table.get(start[i], 0.0) >= DOUBTFUL * max(table.values())):
                    seen, made = self.obs[i] - before[i], value - start[i]
                    if self.derived_off and i < 48 and max(value, start[i]) > PILE:
                        # A pile of three layers (Plakoto's and Jacquet's 15 on one point): a change above the
                        # first row is one the camera cannot see, nearly free; a change within the row is counted.
                        # (A second layer's changes it sees in part, and its table says how well.)
                        low = (min(self.obs[i], TALL_ROW) - min(before[i], TALL_ROW)
                               - (min(value, TALL_ROW) - min(start[i], TALL_ROW)))
                        c = min(c, abs(low) + UNSEEN_CHANGE * abs((seen - made) - low))
                    else:
                        c = min(c, float(abs(seen - made)))
            self.memo[key] = c
        return c


class Plays(Protocol):
    """A roll's legal plays as a model reads them (``LegalPlays``, a variant's list of ``VariantPlay``)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class TurnModel:
    """Every candidate position for one roll of one position (computed once, when the dice land): the start,
    the legal results (``Position.legal_plays``) and the boards on the way to them (core.rules.partial)."""

    def __init__(self, pos: Position, dice: Sequence[int]) -> None:
        self.pos = pos
        self.dice = (int(dice[0]), int(dice[1]))
        self.mover = pos.turn
        self.cls = type(pos)
        self.start = vec_of_position(pos)
        self.legal: Plays = pos.legal_plays(self.dice)
        # Every legal play uses as many dice as the roll allows (R09): the first one says how many.
        self.max_dice = len(self.legal[0].play) if len(self.legal) else 0
        self.by_vec: dict[Vec, Candidate] = {}
        self._build()
        self.candidates = list(self.by_vec.values())
        #: The camera's board at the turn's start (before any checker moved), if it came from a camera: boards
        #: are then also judged by what changed since (see _Costs).
        self.baseline: Observation | None = None

    def _build(self) -> None:
        """The start, every legal result, then every board on the way to one (core.rules.partial)."""
        mover, other = self.mover, self.mover.other
        self._tables = (own_to_vec(mover, self.cls), own_to_vec(other, self.cls))
        self._cross = cross_table(mover, self.cls)
        self._effects: dict[Step, tuple[tuple[int, int], ...]] = {}
        self._start_list = list(self.start)
        self.by_vec[self.start] = Candidate(self.start, START)
        for lp in self.legal:
            steps = tuple([(m.frm, m.to, m.hit) for m in lp.play.moves])
            vec, diff = self._after(steps)
            self.by_vec[vec] = Candidate(vec, LEGAL, lp, tuple([f - t for f, t, _ in steps]), steps, diff)
        if self.max_dice < 2:
            return
        me, oa = self.pos._generator_boards()
        d1, d2 = self.dice
        for part in partial.prefixes(me, oa, d1, d2, self.max_dice, self.cls.block_at):
            vec, diff = self._after(part.steps)
            if vec not in self.by_vec:
                self.by_vec[vec] = Candidate(vec, PREFIX, None, part.used, part.steps, diff)

    def _after(self, steps: Sequence[Step]) -> tuple[Vec, tuple[tuple[int, int], ...]]:
        """The board after ``steps`` from the start, and the entries where it differs from the start (only
        places the steps touched can differ)."""
        effects = self._effects
        v = self._start_list.copy()
        touched = set()
        for st in steps:
            eff = effects.get(st)
            if eff is None:
                eff = effects[st] = self._effect(st)
            for i, d in eff:
                v[i] += d
                touched.add(i)
        s = self.start
        return tuple(v), tuple(sorted([(i, v[i]) for i in touched if v[i] != s[i]]))

    def _effect(self, step: Step) -> tuple[tuple[int, int], ...]:
        """(vector index, change) of one single-die move."""
        me_t, opp_t = self._tables
        frm, to, hit = step
        out: tuple[tuple[int, int], ...] = ((me_t[frm], -1), (me_t[to], 1))
        if hit:
            out += ((opp_t[self._cross[to]], -1), (opp_t[25], 1))
        return out

    def position_of(self, cand: Candidate, turn: Side) -> Position:
        """The position a candidate board stands for, ``turn`` on roll."""
        return position_of_vec(cand.vec, turn, self.cls)

    def explain_exact(self, vec: Vec) -> Candidate | None:
        """The candidate that is exactly this board, if any."""
        return self.by_vec.get(vec)

    def explain(self, obs: Observation, committing: bool = False) -> Inference:
        """The candidate that best explains the board, or uncertain / unexplained."""
        exact = None if obs.dists else self.by_vec.get(obs.vec)
        if exact is not None:
            return Inference(_kind(exact), exact, 0.0)
        cost = _Costs(obs, self.start, self.baseline)
        start = self.start
        # The referee's inner loop (every board against every candidate of the roll): the start's costs once,
        # each candidate's changed entries from the memo; the same sums in the same order as cost(i, x) each time.
        at_start = [cost(i, start[i]) for i in range(VEC_LEN)]
        base = 0.0
        for a in at_start:
            base += a
        memo = cost.memo
        scored: list[tuple[float, int, Candidate]] = []
        for n, cand in enumerate(self.candidates):
            c = base
            for key in cand.diff:
                v = memo.get(key)
                if v is None:
                    v = cost(*key)
                c += v - at_start[key[0]]
            if committing and cand.kind != LEGAL:
                c += COMMIT_PREFIX_PENALTY
            scored.append((c, n, cand))
        scored.sort(key=lambda t: (t[0], t[1]))
        best_cost, _, best = scored[0]
        residual = residual_of(obs, best.vec)
        if best_cost > ACCEPT:
            return Inference("unexplained", best, best_cost, residual=residual)
        # A game's last play is exempt from the wider margin: its board (no checker of the mover left) is
        # the plainest a camera sees, and nothing later could settle it.
        near = best.legal is None or not best.legal.result.is_game_over()
        rivals = [c for cc, _, c in scored[1:]
                  if cc - best_cost < MARGIN
                  or (near and cc - best_cost < NEAR_MARGIN and _one_count_apart(best.vec, c.vec))]
        if rivals:
            return Inference("uncertain", best, best_cost, [best, *rivals], residual)
        return Inference(_kind(best), best, best_cost, residual=residual)


def observation_cost(obs: Observation, vec: Vec) -> float:
    """How badly ``vec`` explains the board (0 = exactly)."""
    cost = _Costs(obs)
    return sum(cost(i, vec[i]) for i in range(VEC_LEN))


def residual_of(obs: Observation, vec: Vec) -> dict[int, int]:
    """Where the camera's counts (points and bar) disagree with ``vec``: observed - expected.

    Points the camera itself is unsure about (no count above even odds) are left out: a hand or a dice
    cup over a point says nothing about the checkers under it.
    """
    out = {}
    for i in range(50):
        d = obs.vec[i] - vec[i]
        if d:
            dist = obs.dists.get(i)
            if dist and max(dist.values()) < 0.5:
                continue
            out[i] = d
    return out


def _one_count_apart(a: Vec, b: Vec) -> bool:
    """The two positions differ by one checker count on the points or the bar (borne-off counts aside)."""
    d = 0
    for i in range(50):
        if a[i] != b[i]:
            d += abs(a[i] - b[i])
            if d > 1:
                return False
    return True


def _kind(c: Candidate) -> str:
    return {START: "nothing", PREFIX: "in_progress", LEGAL: "play"}[c.kind]


def play_text_of_steps(steps: Sequence[Step]) -> str:
    return Play(tuple(Move(f, t, h) for f, t, h in steps)).text()
