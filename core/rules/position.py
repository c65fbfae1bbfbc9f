"""Positions: two sides, 24 points, the bar and the borne-off checkers (R01, R02).

Physical points 1..24 are numbered as the light side counts them (light's home is 1-6, light moves
24 -> 1). Each side also has its own numbering (its route): in the standard game dark's own point n is
physical 25 - n. Routes are class-level data, so variants with other start positions, shared routes or
other landing rules are subclasses that override a few facts (see ``core.rules.variants``).

>>> pos = Position.start()
>>> pos.position_id()
'4HPwATDgc/ABMA'
>>> len(pos.legal_plays((3, 1)))
16
>>> pos.play((3, 1), "8/5 6/5").position_id(Side.LIGHT)
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import binascii
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import StrEnum
from operator import itemgetter, mul
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from core.errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError
from core.messages import summary
from core.rules import movegen, ways
from core.rules.explain import explain_play
from core.rules.notation import BAR, OFF, Move, Play, check_dice, steps_text


class Side(StrEnum):
    LIGHT = "light"
    DARK = "dark"

    @property
    def other(self) -> Side:
        return Side.DARK if self is Side.LIGHT else Side.LIGHT

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows str.index on purpose
        return 0 if self is Side.LIGHT else 1


_BASE64_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_RUNS = tuple("0" + "1" * n for n in range(31))  # a point's checkers in a Position ID, highest bit first


def _position_id(me: Sequence[int], opp: Sequence[int]) -> str:
    """GNU Backgammon Position ID of own-numbered counts, ``me`` on roll: written from the highest bit down,
    each point (bar, 24..1 of the side on roll, then of the opponent) is a 0 followed by one 1 per checker."""
    bits = int("".join(map(_RUNS.__getitem__, (*me[25:0:-1], *opp[25:0:-1]))), 2)
    return binascii.b2a_base64(bits.to_bytes(10, "little"), newline=False)[:14].decode()


class Position:
    """An immutable backgammon position with the side on roll. Hashable; equal when the boards and turn are."""

    __slots__ = ("_rel", "turn", "_hash")

    variant: ClassVar[str] = "standard"
    #: For each side, the 24 physical points in the order that side travels them (its own 24-point first).
    routes: ClassVar[Mapping[Side, tuple[int, ...]]] = {
        Side.LIGHT: tuple(range(24, 0, -1)),
        Side.DARK: tuple(range(1, 25)),
    }
    #: Start position in each side's own numbering: own point -> checkers (R02). 0 = off, 25 = bar.
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {
        Side.LIGHT: {24: 2, 13: 5, 8: 3, 6: 5},
        Side.DARK: {24: 2, 13: 5, 8: 3, 6: 5},
    }
    checkers: ClassVar[int] = 15
    #: How many opposing checkers close a point (R05); Jacquet closes a point with one.
    block_at: ClassVar[int] = 2
    #: What landing on a single opposing checker does: "hit" (R06), "pin" (Plakoto, R30) or None (Jacquet).
    capture: ClassVar[str | None] = "hit"

    def __init__(self, rel: tuple[tuple[int, ...], tuple[int, ...]], turn: Side = Side.LIGHT) -> None:
        """Build from each side's own-numbered 26 counts (0 = off, 1..24 = own points, 25 = bar)."""
        self._rel = rel
        self.turn = turn if turn.__class__ is Side else Side(turn)
        self._hash: int | None = None  # computed on first use: most positions made are never hashed

    # ----- construction -------------------------------------------------------------------------------
    @classmethod
    def start(cls, turn: Side = Side.LIGHT) -> Position:
        rel = []
        for side in (Side.LIGHT, Side.DARK):
            counts = [0] * 26
            for point, n in cls.start_layout[side].items():
                counts[point] += n
            rel.append(tuple(counts))
        return cls((rel[0], rel[1]), turn)

    @classmethod
    def from_physical(
        cls,
        light: Sequence[int],
        dark: Sequence[int],
        bar: Mapping[str, int] | None = None,
        off: Mapping[str, int] | None = None,
        turn: Side = Side.LIGHT,
    ) -> Position:
        """Build from 24 counts per side on physical points 1..24 (the ``board`` event's layout).

        Borne-off counts default to whatever makes 15 checkers; a side with more than 15 is refused.
        """
        bar = bar or {}
        off = off or {}
        rel = []
        for side, counts in ((Side.LIGHT, light), (Side.DARK, dark)):
            if len(counts) != 24:
                raise InvalidPositionError(f"{side.value} needs 24 point counts, got {len(counts)}")
            own = [0] * 26
            for phys, n in enumerate(counts, start=1):
                if n < 0:
                    raise InvalidPositionError(f"{side.value} has {n} checkers on point {phys}")
                own[cls._own_of_phys(side)[phys]] += int(n)
            own[BAR] = int(bar.get(side.value, bar.get(side, 0)))
            on_board = sum(own[1:])
            stated_off = off.get(side.value, off.get(side))
            own[OFF] = cls.checkers - on_board if stated_off is None else int(stated_off)
            if sum(own) != cls.checkers or own[OFF] < 0:
                raise InvalidPositionError(
                    f"{side.value} has {sum(own)} checkers ({on_board} on the board or bar, {own[OFF]} off); "
                    f"a side has exactly {cls.checkers}"
                )
            rel.append(tuple(own))
        pos = cls((rel[0], rel[1]), turn)
        pos._check_shared_points()
        return pos

    def _check_shared_points(self) -> None:
        light, dark = self._rel
        if not any(map(mul, light[1:25], _route_tables(type(self), Side.LIGHT)[2](dark))):
            return  # the usual answer, found without building the physical views
        light_phys, dark_phys = self.light, self.dark
        for p in range(1, 25):
            if light_phys[p - 1] and dark_phys[p - 1]:
                raise InvalidPositionError(f"point {p} holds both light and dark checkers")

    @classmethod
    def from_position_id(cls, position_id: str, turn: Side = Side.LIGHT) -> Position:
        """Decode a GNU Backgammon Position ID; ``turn`` is the side the ID is encoded for (on roll)."""
        text = position_id.strip()
        if text.startswith("Position ID:"):
            text = text.split(":", 1)[1].strip()
        if len(text) != 14:
            raise InvalidPositionError(f"invalid Position ID {position_id!r}: expected 14 characters, like 4HPwATDgc/ABMA")
        if not _BASE64_LETTERS.issuperset(text):
            raise InvalidPositionError(f"invalid Position ID {position_id!r}: not base64 text")
        bits = int.from_bytes(binascii.a2b_base64(text + "=="), "little")
        # The ID is, lowest bit first, for each point of the opponent then of the side on roll (1..24, bar):
        # one 1 per checker, then a 0. Runs of 1s between the 0s are the counts.
        runs = format(bits, "080b")[::-1].split("0", 50)
        if len(runs) < 51:
            raise InvalidPositionError(f"invalid Position ID {position_id!r}: it does not describe two sides")
        counts = list(map(len, runs[:50]))
        boards = []
        for k in (0, 25):
            n = sum(counts[k : k + 25])
            if n > cls.checkers:
                raise InvalidPositionError(f"invalid Position ID {position_id!r}: a side has {n} checkers (at most 15)")
            boards.append((cls.checkers - n, *counts[k : k + 25]))
        opp, me = boards
        if opp[OFF] == me[OFF] == cls.checkers:
            raise InvalidPositionError(f"invalid Position ID {position_id!r}: both sides have borne off every checker")
        turn = turn if turn.__class__ is Side else Side(turn)
        pos = cls((me, opp) if turn is Side.LIGHT else (opp, me), turn)
        try:
            pos._check_shared_points()
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"invalid Position ID {position_id!r}: {exc}") from None
        return pos

    # ----- views ------------------------------------------------------------------------------------------
    # Route tables are class-level facts, built once per class and side (in a module-level cache: mypyc
    # cannot compile a cached classmethod).
    @classmethod
    def _own_of_phys(cls, side: Side) -> tuple[int, ...]:
        """Index by physical point (1..24): the side's own point number there."""
        return _route_tables(cls, side)[0]

    @classmethod
    def _cross(cls, side: Side) -> tuple[int, ...]:
        """Index by the side's own point (1..24): the opponent's own point number on the same physical point."""
        return _route_tables(cls, side)[1]

    def own(self, side: Side) -> tuple[int, ...]:
        """The side's 26 counts in its own numbering (0 = off, 1..24, 25 = bar)."""
        return self._rel[Side(side).index]

    def _physical(self, side: Side) -> tuple[int, ...]:
        own = self._rel[side.index]
        table = self._own_of_phys(side)
        return tuple(own[table[p]] for p in range(1, 25))

    @property
    def light(self) -> tuple[int, ...]:
        return self._physical(Side.LIGHT)

    @property
    def dark(self) -> tuple[int, ...]:
        return self._physical(Side.DARK)

    @property
    def bar(self) -> dict[Side, int]:
        return {Side.LIGHT: self._rel[0][BAR], Side.DARK: self._rel[1][BAR]}

    @property
    def off(self) -> dict[Side, int]:
        return {Side.LIGHT: self._rel[0][OFF], Side.DARK: self._rel[1][OFF]}

    def physical_point(self, side: Side, own_point: int) -> int:
        """The physical point (1..24) of the side's own point number."""
        return self.routes[Side(side)][24 - own_point]

    def own_point(self, side: Side, physical: int) -> int:
        return self._own_of_phys(Side(side))[physical]

    def to_dict(self) -> dict[str, object]:
        """The layout of a ``board`` event (physical points)."""
        return {
            "light": list(self.light),
            "dark": list(self.dark),
            "bar": {"light": self._rel[0][BAR], "dark": self._rel[1][BAR]},
            "off": {"light": self._rel[0][OFF], "dark": self._rel[1][OFF]},
        }

    def pips(self, side: Side) -> int:
        own = self._rel[Side(side).index]
        return sum(i * own[i] for i in range(1, 26))

    def with_turn(self, turn: Side) -> Position:
        return type(self)(self._rel, turn)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and type(other) is type(self) and other._rel == self._rel and other.turn is self.turn

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((type(self), self._rel, self.turn))
        return self._hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_position_id({self.position_id()!r}, turn=Side.{self.turn.name})"

    # ----- identifiers ----------------------------------------------------------------------------------
    def position_id(self, side: Side | None = None) -> str:
        """GNU Backgammon Position ID, encoded for ``side`` on roll (default: the side whose turn it is)."""
        side = self.turn if side is None else Side(side)
        if side is Side.LIGHT:
            me, opp = self._rel
        else:
            opp, me = self._rel
        return _position_id(me, opp)

    # ----- game over (R11) ----------------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self._rel[0][OFF] == self.checkers or self._rel[1][OFF] == self.checkers

    def result(self) -> tuple[Side, int] | None:
        """(winner, 1 single | 2 gammon | 3 backgammon) once a side has borne off all its checkers."""
        for winner in (Side.LIGHT, Side.DARK):
            if self._rel[winner.index][OFF] == self.checkers:
                loser = self._rel[winner.other.index]
                if loser[OFF] > 0:
                    return winner, 1
                cross = self._cross(winner)
                in_winners_home = any(loser[cross[i]] for i in range(1, 7))
                return winner, 3 if loser[BAR] or in_winners_home else 2
        return None

    # ----- plays ------------------------------------------------------------------------------------------
    def legal_plays(self, dice: Sequence[int]) -> LegalPlays:
        """All legal plays of the side on roll, one per distinct resulting position (R04-R10, R25)."""
        return LegalPlays(self, check_dice(dice))

    def _after(self, me: Sequence[int], opp: Sequence[int]) -> Position:
        mover = self.turn
        rel = (tuple(me), tuple(opp)) if mover is Side.LIGHT else (tuple(opp), tuple(me))
        return type(self)(rel, mover.other)

    def _boards(self) -> tuple[list[int], list[int]]:
        return list(self._rel[self.turn.index]), list(self._rel[self.turn.other.index])

    def _generator_boards(self) -> tuple[list[int], list[int]]:
        """The mover's counts and the opponent's counts on the mover's points (see core.rules.movegen)."""
        turn = self.turn
        if turn is Side.LIGHT:
            me, opp = self._rel
        else:
            opp, me = self._rel
        return list(me), [0, *self._opponent_at(turn)(opp), 0]

    @classmethod
    def _opponent_at(cls, side: Side) -> Callable[[Sequence[int]], tuple[int, ...]]:
        """Reads the opponent's counts on ``side``'s points 1..24, in that order (``movegen.opponent_at``)."""
        return _route_tables(cls, side)[2]

    def parse_play(self, text: str | Play, dice: Sequence[int], marks_hits: bool = True) -> LegalPlay:
        """Resolve written notation against this position and roll.

        Combined moves (``22/13`` with 63), bar/off spellings and any sub-move order are accepted. When the
        text fits plays that differ only by a hit on an intermediate point, ``*`` marks decide; with
        ``marks_hits`` (files that mark every hit, like XG's) an unmarked point means no hit there, otherwise
        the text is ambiguous and AmbiguousPlayError says so. Raises IllegalPlayError when no legal play fits.
        """
        dice = check_dice(dice)
        play = text if isinstance(text, Play) else Play.from_text(text)
        spelled = self._spelled_out(play, dice)
        if spelled is not None:
            # Every die written as a legal single step: legal under R09 without generating every play.
            return LegalPlay(self, dice, spelled)
        legal = self.legal_plays(dice)
        wanted = self._mover_after(play)
        label = (text.strip() if isinstance(text, str) else play.text()) or "no move"
        if wanted is None:
            raise IllegalPlayError(self._illegal_message(label, dice, "a checker it moves is not there"))
        candidates = [lp for lp in legal if lp._me == wanted]
        if not candidates:
            if not play and len(legal) == 0:
                return LegalPlay(self, dice, ())
            why, reason, params = _why_not(legal, play)
            raise IllegalPlayError(self._illegal_message(label, dice, why), reason=reason, params=params)
        if len(candidates) == 1:
            return candidates[0]
        if marks_hits or all(m.distance in dice for m in play.moves):
            # The steps as written (each stop hitting what stands there) settle it when they fit one play.
            try:
                literal = self.apply_unchecked(play)
            except IllegalPlayError:
                literal = None
            exact = [lp for lp in candidates if lp.result == literal]
            if len(exact) == 1:
                return exact[0]
        marked = {m.to for m in play.moves if m.hit}
        if marked or marks_hits:
            scored = sorted(candidates, key=lambda lp: len(lp._hit_points() ^ (marked | lp._forced_hits(play))))
            best = len(scored[0]._hit_points() ^ (marked | scored[0]._forced_hits(play)))
            tied = [lp for lp in scored if len(lp._hit_points() ^ (marked | lp._forced_hits(play))) == best]
            if len(tied) == 1:
                return tied[0]
            candidates = tied
        options = " or ".join(lp.play.text() for lp in candidates)
        raise AmbiguousPlayError(
            f"ambiguous play {label!r} with {dice[0]}{dice[1]} in position {self.position_id()}: "
            f"it can be {options}; write the hit with '*' or every step"
        )

    def _spelled_out(self, play: Play, dice: tuple[int, int]) -> tuple[movegen.Step, ...] | None:
        """The play's steps when it uses every die, one written move per die, each legal in turn; else None."""
        doubles = dice[0] == dice[1]
        if len(play.moves) != (4 if doubles else 2):
            return None
        me, oa = self._generator_boards()
        left = [dice[0]] * 4 if doubles else list(dice)
        out: list[movegen.Step] = []
        for mv in play.moves:
            fits = []
            for die in set(left):
                for st in movegen.steps(me, oa, die, self.block_at):
                    if st[0] == mv.frm and st[1] == mv.to:
                        fits.append((die, st))
            if len(fits) != 1:
                return None  # not a single step, or a bear-off either die could make: let the generator decide
            die, st = fits[0]
            left.remove(die)
            out.append(st)
            me, oa = movegen.apply_step(me, oa, st)
        return tuple(out)

    def _illegal_message(self, label: str, dice: tuple[int, int], why: str) -> str:
        return f"illegal play {label!r} with {dice[0]}{dice[1]} in position {self.position_id()}: {why}"

    def _mover_after(self, play: Play) -> tuple[int, ...] | None:
        me = list(self._rel[self.turn.index])
        for mv in play.moves:
            if me[mv.frm] <= 0:
                return None
            me[mv.frm] -= 1
            me[mv.to] += 1
        return tuple(me)

    def play(self, dice: Sequence[int], play: str | Play) -> Position:
        """The position after a legal play (turn passed to the opponent); IllegalPlayError otherwise."""
        return self.parse_play(play, dice).result

    def apply_unchecked(self, play: str | Play) -> Position:
        """Move the checkers as written, ignoring the dice (an illegal play that stands, R23).

        Still physical: the checker must be there, and a point with two or more opposing checkers cannot
        take it. A blot on a destination (or on a ``*``-marked point of a chain) is hit.
        """
        play = play if isinstance(play, Play) else Play.from_text(play)
        me, opp = self._boards()
        cross = self._cross(self.turn)
        for mv in play.moves:
            if me[mv.frm] <= 0:
                where = "the bar" if mv.frm == BAR else f"point {mv.frm}"
                raise IllegalPlayError(
                    f"impossible move {mv.text()} in position {self.position_id()}: no checker on {where}"
                )
            if mv.to != OFF:
                o = opp[cross[mv.to]]
                if o >= self.block_at and (o > 1 or self.capture is None):
                    raise IllegalPlayError(
                        f"impossible move {mv.text()} in position {self.position_id()}: point {mv.to} holds {o} opposing checkers"
                    )
                if o == 1 and self.capture == "hit":
                    opp[cross[mv.to]] -= 1
                    opp[BAR] += 1
            me[mv.frm] -= 1
            me[mv.to] += 1
        return self._after(me, opp)


_RouteTables = tuple[tuple[int, ...], tuple[int, ...], Callable[[Sequence[int]], tuple[int, ...]]]
_ROUTE_TABLES: dict[tuple[type[Position], Side], _RouteTables] = {}


def _route_tables(cls: type[Position], side: Side) -> _RouteTables:
    """A class's tables for one side, built once: own point by physical point, the cross table (own point ->
    the opponent's own point there), and a reader of the opponent's counts on the side's points 1..24."""
    tables = _ROUTE_TABLES.get((cls, side))
    if tables is None:
        own: dict[Side, list[int]] = {}
        for s in (side, side.other):
            own[s] = [0] * 25
            for k, phys in enumerate(cls.routes[s]):
                own[s][phys] = 24 - k
        cross = [0] * 26
        for k, phys in enumerate(cls.routes[side]):
            cross[24 - k] = own[side.other][phys]
        tables = (tuple(own[side]), tuple(cross), itemgetter(*cross[1:25]))
        _ROUTE_TABLES[(cls, side)] = tables
    return tables


def _why_not(legal: LegalPlays, play: Play) -> tuple[str, str, dict[str, Any]]:
    """Why the written play is no legal play: a line for the error message, and the reason code and values
    of core.messages that the referee gives for the same play seen on the board (core.rules.explain)."""
    pos = legal.position
    reason, params, _ = explain_play(pos, legal.dice, play, legal)
    if len(legal) == 0:
        return "no checker can move with this roll, so nothing may be played (R25)", reason, params
    total = sum(mv.distance for mv in play.moves if mv.to != OFF)
    available = sum(legal.dice) * (2 if legal.dice[0] == legal.dice[1] else 1)
    if total > available:
        return f"it moves {total} pips in all but {legal.dice[0]}{legal.dice[1]} gives {available} (R04)", reason, params
    return summary(reason, most=len(legal[0].play), **params), reason, params


class LegalPlay:
    """One legal resulting position, a representative play, and on demand every way of playing it."""

    __slots__ = ("origin", "dice", "_steps", "_after", "_result", "_searched")

    def __init__(self, origin: Position, dice: tuple[int, int], steps: tuple[movegen.Step, ...],
                 searched: ways.Searched[Any] | None = None) -> None:
        self.origin, self.dice = origin, dice
        self._steps = steps
        self._after: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._result: Position | None = None
        self._searched = searched  # the search behind the ways, shared by the plays of one LegalPlays

    def _outcome(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if self._after is None:
            self._after = movegen.result_of(self.origin._rel[self.origin.turn.index], self._steps)
        return self._after

    @property
    def _me(self) -> tuple[int, ...]:
        return self._outcome()[0]

    @property
    def play(self) -> Play:
        return Play(tuple(Move(f, t, h) for f, t, h in self._steps))

    def text(self, style: str = "standard") -> str:
        """``self.play.text(style)``, written straight from the steps."""
        return steps_text(self._steps, style)

    @property
    def result(self) -> Position:
        if self._result is None:
            self._result = self.origin._after(*self._boards_after())
        return self._result

    def result_id(self, side: Side | None = None) -> str:
        """``self.result.position_id(side)`` (default: the side on roll after the play, the opponent),
        encoded straight from the counts."""
        me, opp = self._boards_after()
        mover = self.origin.turn
        if side is None or Side(side) is not mover:
            return _position_id(opp, me)
        return _position_id(me, opp)

    def _boards_after(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The mover's and the opponent's own-numbered counts after the play."""
        origin = self.origin
        me, hits = self._outcome()
        opp = origin._rel[origin.turn.other.index]
        if hits:
            hit = list(opp)
            cross = origin._cross(origin.turn)
            for point in hits:
                hit[cross[point]] -= 1
                hit[BAR] += 1
            opp = tuple(hit)
        return me, opp

    def ways(self) -> list[Play]:
        """Every sequence of single-die moves (dice order, checkers) that legally reaches this result."""
        return [Play(tuple(Move(f, t, h) for f, t, h in seq)) for seq in movegen.all_ways(
            *self.origin._generator_boards(), *self.dice, self._outcome(), len(self._steps), self.origin.block_at,
            self._searched)]

    def _hit_points(self) -> set[int]:
        return set(self._outcome()[1])

    def _forced_hits(self, play: Play) -> set[int]:
        # Destinations written in the text where this play hits: those need no mark to be meant.
        written = {m.to for m in play.moves}
        return self._hit_points() & written

    def __repr__(self) -> str:
        return f"<LegalPlay {self.play.text()} -> {self.result.position_id(self.origin.turn)}>"


class _Played(Protocol):
    @property
    def result(self) -> Position: ...


PlayT = TypeVar("PlayT", bound=_Played)


class PlaysView(Generic[PlayT]):
    """What the legal plays of every game answer (LegalPlays here, VariantPlays for the variants): ``len()``,
    iteration, indexing and ``in`` (a Play, text or Position). A subclass sets `position` and `dice` and gives
    its plays by `_all()`."""

    __slots__ = ()
    position: Position
    dice: tuple[int, int]

    def _all(self) -> Sequence[PlayT]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._all())

    def count(self) -> int:
        return len(self)

    def __iter__(self) -> Iterator[PlayT]:
        return iter(self._all())

    def __getitem__(self, i: int) -> PlayT:
        return self._all()[i]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Position):
            return any(lp.result == item for lp in self._all())
        if isinstance(item, (str, Play)):
            try:
                self.position.parse_play(item, self.dice)
            except ValueError:
                return False
            return True
        return False

    def results(self) -> Iterator[Position]:
        return (lp.result for lp in self._all())


class LegalPlays(PlaysView[LegalPlay]):
    """The standard game's legal plays (PlaysView): counted without building a play, each built on first use."""

    __slots__ = ("position", "dice", "_steps", "_plays")

    def __init__(self, position: Position, dice: tuple[int, int]) -> None:
        self.position = position
        self.dice = dice
        me, oa = position._generator_boards()
        self._steps = movegen.plays(me, oa, dice[0], dice[1], position.block_at)
        self._plays: list[LegalPlay] | None = None  # made on first use: counting needs none

    def _all(self) -> list[LegalPlay]:
        if self._plays is None:
            searched: ways.Searched[Any] = {}  # one search behind every play's ways
            self._plays = [LegalPlay(self.position, self.dice, path, searched) for path in self._steps]
        return self._plays

    def __len__(self) -> int:
        return len(self._steps)

    def __repr__(self) -> str:
        return f"<LegalPlays {self.dice[0]}{self.dice[1]} ({len(self)}) in {self.position.position_id()}>"
