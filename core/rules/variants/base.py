"""What the three variants of the seeds (R30-R32) share: the search for legal plays, the ways of playing each
result, the notation of plays and the JSON position format.

A variant position is a ``Position`` subclass with one more hashable field, ``extra`` (pins, first-roll flags),
and its ``settings`` (the points where the seed is silent, see docs/variants.md). Each variant says how one
checker may move with one die (``_moves``) on a mover-relative state ``(me, opp, x)``: ``me`` and ``opp`` are
each side's 26 counts in its own numbering (0 = off, 1..24, 25 = bar), ``x`` is the variant's extra state seen
from the mover. Everything else lives here:

- ``legal_plays`` searches level by level, one level per die, keeping each distinct state once. The results are
  the states at the deepest level reached: a play must use as many dice as it can (R09, and Russian chains
  "interrompida quando o resultado de um dos dados não permitir"); with two different dice of which only one
  can be played, the larger one when it can (R09).
- ``VariantPlay.ways()`` lists every ordered sequence of single-die steps reaching a result (the same shape as
  ``LegalPlay.ways()``: ``Play`` objects of ``Move(frm, to, hit)`` in the mover's numbering; ``hit`` marks a hit,
  or a pin in Plakoto; ``frm`` 26 is a Russian checker entering from off the board, written ``in``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from core.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError, InvalidPositionError
from core.rules import ways
from core.rules.notation import BAR, OFF, Move, Play, play_words
from core.rules.position import PlaysView, Position, Side, check_dice

#: A Russian checker that has not entered yet (``in`` in the notation).
WAITING = 26

Step = tuple[int, int, bool]
State = tuple[tuple[int, ...], tuple[int, ...], Any]


@dataclass(frozen=True)
class Settings:
    """Base of each variant's settings (frozen dataclasses; defaults are the seed's reading)."""


class VariantPosition(Position):
    """A position of one of the seeds' variants: the board, the side on roll, ``extra`` and ``settings``."""

    __slots__ = ("extra", "settings")

    settings_class: ClassVar[type[Settings]] = Settings
    rule: ClassVar[str] = ""

    def __init__(
        self,
        rel: tuple[tuple[int, ...], tuple[int, ...]],
        turn: Side = Side.LIGHT,
        extra: Any = None,
        settings: Settings | None = None,
    ) -> None:
        super().__init__(rel, turn)
        self.extra = self._default_extra(rel) if extra is None else extra
        self.settings = settings if settings is not None else self.settings_class()
        self._hash = hash((type(self), rel, self.turn, self.extra))

    @classmethod
    def _default_extra(cls, rel: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
        return ()

    @classmethod
    def start(cls, turn: Side = Side.LIGHT, settings: Settings | None = None) -> VariantPosition:
        pos = super().start(turn)
        return cls(pos._rel, Side(turn), None, settings)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, VariantPosition)
            and type(other) is type(self)
            and other._rel == self._rel
            and other.turn is self.turn
            and other.extra == self.extra
        )

    def __hash__(self) -> int:
        assert self._hash is not None  # computed when the position is made
        return self._hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_json({json.dumps(self.to_json())!r})"

    def with_turn(self, turn: Side) -> VariantPosition:
        return type(self)(self._rel, Side(turn), self.extra, self.settings)

    # ----- the mover-relative state the search works on --------------------------------------------------
    def _state(self) -> State:
        return self._rel[self.turn.index], self._rel[self.turn.other.index], self._x()

    def _x(self) -> Any:
        """The extra state seen from the side on roll."""
        return self.extra

    def _position_of(self, state: State, turn: Side) -> VariantPosition:
        """The position after a play by the side on roll ending in ``state``, ``turn`` on roll next."""
        me, opp, x = state
        rel = (me, opp) if self.turn is Side.LIGHT else (opp, me)
        return type(self)(rel, turn, self._extra_of(x), self.settings)

    def _extra_of(self, x: Any) -> Any:
        return x

    def _moves(self, state: State, die: int) -> list[tuple[Step, State]]:
        raise NotImplementedError

    def _dice_sequence(self, dice: tuple[int, int]) -> tuple[int, ...]:
        """The dice of one turn, in the order they are played (doubles: four times)."""
        return (dice[0],) * 4 if dice[0] == dice[1] else dice

    def _turn_after(self, dice: tuple[int, int], used: int) -> Side:
        return self.turn.other

    #: Does a double make a chain of links within one turn (Russian backgammon, R31)? Then ``link_plays`` and
    #: ``parse_link`` read its links.
    chains: ClassVar[bool] = False

    def link_plays(self, dice: Sequence[int], complement: bool = False) -> list[VariantPlay]:
        """The legal plays of one link of a chain of doubles (a game with ``chains``)."""
        raise NotImplementedError(f"{self.variant} has no chains of doubles")

    def parse_link(self, text: str | Play, dice: Sequence[int], complement: bool = False) -> VariantPlay:
        """The play of one link of a chain the text describes (a game with ``chains``)."""
        raise NotImplementedError(f"{self.variant} has no chains of doubles")

    def _reroll(self, dice: tuple[int, int]) -> bool:
        """True when this roll is not played but rolled again (Russian: a double on a side's first roll)."""
        return False

    # ----- legal plays ---------------------------------------------------------------------------------------
    def legal_plays(self, dice: Sequence[int]) -> VariantPlays:  # type: ignore[override]
        """Every distinct result of playing ``dice``, each with one representative play and all its ways."""
        return VariantPlays(self, check_dice(dice))

    def _search(self, dice: tuple[int, int]) -> tuple[dict[State, tuple[Step, ...]], list[tuple[int, ...]]]:
        """(result state -> one path, the dice orders a way may follow)."""
        start = self._state()
        if self.is_game_over() or self._reroll(dice):
            return {}, []
        seq = self._dice_sequence(dice)
        if len(seq) == 2 and seq[0] != seq[1]:
            a, b = seq
            firsts: dict[int, dict[State, tuple[Step, ...]]] = {}
            seconds: dict[State, tuple[Step, ...]] = {}
            for d1, d2 in ((a, b), (b, a)):
                level: dict[State, tuple[Step, ...]] = {}
                for step, s1 in self._moves(start, d1):
                    level.setdefault(s1, (step,))
                firsts[d1] = level
                for s1, path in level.items():
                    for step, s2 in self._moves(s1, d2):
                        seconds.setdefault(s2, (*path, step))
            if seconds:
                return seconds, [(a, b), (b, a)]
            hi, lo = max(a, b), min(a, b)
            if firsts[hi]:
                return firsts[hi], [(hi,)]
            return firsts[lo], [(lo,)] if firsts[lo] else []
        frontier, depth = self._as_far_as_possible(start, seq)
        if depth == 0:
            return {}, []
        return frontier, [seq[:depth]]

    def _as_far_as_possible(self, start: State, seq: Sequence[int]) -> tuple[dict[State, tuple[Step, ...]], int]:
        """Play the dice of ``seq`` in order, as many as can be played: (result state -> one path, how many)."""
        frontier: dict[State, tuple[Step, ...]] = {start: ()}
        depth = 0
        for die in seq:
            nxt: dict[State, tuple[Step, ...]] = {}
            for st, path in frontier.items():
                for step, s2 in self._moves(st, die):
                    nxt.setdefault(s2, (*path, step))
            if not nxt:
                break
            frontier = nxt
            depth += 1
        return frontier, depth

    def random_play(self, dice: Sequence[int], rng: Any) -> VariantPlay | None:
        """One legal play drawn with ``rng`` (a ``random.Random``), without listing every result: for doubles and
        chains a randomised depth-first walk that plays every die (a play using all dice is always legal); when no
        such walk exists, or the dice differ, one of ``legal_plays`` at random. None when nothing can be played
        (or the roll is rolled again). Not uniform over results: for self-play, not for statistics."""
        dice = check_dice(dice)
        if self.is_game_over() or self._reroll(dice):
            return None
        seq = self._dice_sequence(dice)
        if dice[0] == dice[1]:
            dead: set[tuple[State, int]] = set()

            def walk(state: State, k: int, path: tuple[Step, ...]) -> tuple[State, tuple[Step, ...]] | None:
                if k == len(seq):
                    return state, path
                if (state, k) in dead:
                    return None
                moves = self._moves(state, seq[k])
                rng.shuffle(moves)
                for step, s2 in moves:
                    found = walk(s2, k + 1, (*path, step))
                    if found is not None:
                        return found
                dead.add((state, k))
                return None

            found = walk(self._state(), 0, ())
            if found is not None:
                state, path = found
                turn = self._turn_after(dice, len(path))
                return VariantPlay(self, dice, path, {"state": state, "orders": [seq], "turn": turn})
        plays = self.legal_plays(dice)
        return plays[rng.randrange(len(plays))] if len(plays) else None

    def _iter_ways(self, target: State, orders: list[tuple[int, ...]], searched: Searched) -> Iterator[tuple[Step, ...]]:
        """The ways to ``target`` (core.rules.ways, the standard game's mechanism too), over the roll's searches
        ``searched`` shared by its plays (a Russian 6-6 chain has 33,714 results; the ways of 40 of them took
        12 s when each searched the whole tree)."""
        return ways.iter_ways(self._state(), orders, self._moves, target, searched)

    # ----- notation ---------------------------------------------------------------------------------------
    def parse_play(self, text: str | Play, dice: Sequence[int], marks_hits: bool = True) -> VariantPlay:  # type: ignore[override]
        """The legal play the text describes: every step written (chains ``24/18/13`` and repeats ``(2)`` allowed),
        in any order; ``*`` marks are optional (the position decides what a landing does)."""
        dice = check_dice(dice)
        play = text if isinstance(text, Play) else play_from_text(text)
        wanted = sorted((m.frm, m.to) for m in play.moves)
        seq = self._dice_sequence(dice)
        if wanted and len(wanted) == len(seq) and not self.is_game_over() and not self._reroll(dice):
            # Every die written: such a play is legal as soon as some order of its steps walks (R09), so there is
            # no need to list every result (a Russian chain has tens of thousands).
            orders = [seq] if dice[0] == dice[1] else [seq, seq[::-1]]
            ends: set[State] = set()
            paths: dict[State, tuple[Step, ...]] = {}
            for order in orders:
                self._walk_steps(self._state(), order, 0, Counter(wanted), ends, (), paths)
            if len(ends) == 1:
                (end,) = ends
                turn = self._turn_after(dice, len(seq))
                return VariantPlay(self, dice, paths[end], {"state": end, "orders": orders, "turn": turn})
        legal = self.legal_plays(dice)
        if legal.reroll:
            raise IllegalPlayError(f"{dice[0]}{dice[1]} on a first roll is rolled again, not played ({self.rule})")
        # Walk the dice with only the text's steps (in any order); each end state is a result the text can mean.
        ends = set()
        for order in legal[0]._orders if len(legal) else []:
            if len(order) == len(wanted):
                self._walk_steps(self._state(), order, 0, Counter(wanted), ends)
        by_state = {lp._state: lp for lp in legal}
        found = [by_state[e] for e in ends if e in by_state]
        label = text if isinstance(text, str) else play_text(play)
        if not found:
            if not wanted and len(legal) == 0:
                return VariantPlay(self, dice, (), {})
            example = legal[0].text() if len(legal) else "no move"
            raise IllegalPlayError(
                f"illegal play {label!r} with {dice[0]}{dice[1]} in this {self.variant} position ({self.rule}); "
                f"legal plays include {example}"
            )
        if len(found) > 1:
            raise AmbiguousPlayError(f"ambiguous play {label!r}: it can be {' or '.join(lp.text() for lp in found)}")
        return found[0]

    def _walk_steps(
        self, state: State, order: tuple[int, ...], k: int, left: Counter[tuple[int, int]], ends: set[State],
        path: tuple[Step, ...] = (), paths: dict[State, tuple[Step, ...]] | None = None,
        seen: set[tuple[Any, ...]] | None = None,
    ) -> None:
        """Every end state of playing ``order`` with exactly the steps in ``left`` (in any order); ``paths`` keeps
        one path to each. ``seen`` skips a state reached again with the same steps left."""
        if k == len(order):
            ends.add(state)
            if paths is not None:
                paths.setdefault(state, path)
            return
        seen = set() if seen is None else seen
        memo = (state, k, tuple(sorted(left.elements())))
        if memo in seen:
            return
        seen.add(memo)
        for step, s2 in self._moves(state, order[k]):
            key = (step[0], step[1])
            if left[key] > 0:
                left[key] -= 1
                self._walk_steps(s2, order, k + 1, left, ends, (*path, step), paths, seen)
                left[key] += 1

    def play(self, dice: Sequence[int], play: str | Play) -> VariantPosition:
        return self.parse_play(play, dice).result

    def apply_unchecked(self, play: str | Play) -> Position:
        raise IllegalPlayError(f"{self.variant}: moving checkers without the dice is not supported")

    # ----- JSON --------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The position as the ``gamao plays --position`` JSON (physical numbering, board-event layout)."""
        return {"turn": self.turn.value, **self.to_dict()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, settings: Settings | None = None) -> VariantPosition:
        """Read the ``--position`` JSON; InvalidPositionError (a ValueError) names the bad field."""
        raise NotImplementedError


#: The search behind the ways of one roll's plays, per dice order (core.rules.ways.parents): made by the first play
#: asked for its ways and shared by the plays of the same ``legal_plays`` (freed with them).
Searched = ways.Searched[State]


class VariantPlay:
    """One legal result, a representative play and, on demand, every way of playing it."""

    __slots__ = ("origin", "dice", "_steps", "_state", "_orders", "_result", "_turn", "_searched")

    def __init__(self, origin: VariantPosition, dice: tuple[int, int], steps: tuple[Step, ...], info: dict[str, Any]) -> None:
        self.origin = origin
        self.dice = dice
        self._steps = steps
        self._state: State | None = info.get("state")
        self._orders: list[tuple[int, ...]] = info.get("orders", [])
        self._turn: Side = info.get("turn", origin.turn.other)
        self._searched: Searched = info.get("searched", {})
        self._result: VariantPosition | None = None

    @property
    def play(self) -> Play:
        return Play(tuple(Move(f, t, h) for f, t, h in self._steps))

    def text(self) -> str:
        return play_text(self.play)

    @property
    def result(self) -> VariantPosition:
        if self._result is None:
            if self._state is None:
                self._result = self.origin.with_turn(self._turn)
            else:
                self._result = self.origin._position_of(self._state, self._turn)
        return self._result

    def iter_ways(self) -> Iterator[Play]:
        if self._state is None:
            yield Play(())
            return
        for seq in self.origin._iter_ways(self._state, self._orders, self._searched):
            yield Play(tuple(Move(f, t, h) for f, t, h in seq))

    def ways(self) -> list[Play]:
        """Every ordered sequence of single-die moves (dice order, checkers) that reaches this result."""
        return list(self.iter_ways())

    def __repr__(self) -> str:
        return f"<VariantPlay {self.text()}>"


class VariantPlays(PlaysView[VariantPlay]):
    """The legal plays of a variant position: ``len()``, iteration, indexing, ``in`` (a Play, text or position).

    ``reroll`` is True when the roll is not played at all but rolled again (R31's first-roll doubles).
    """

    __slots__ = ("position", "dice", "reroll", "_plays")
    position: VariantPosition

    def __init__(self, position: VariantPosition, dice: tuple[int, int]) -> None:
        self.position = position
        self.dice = dice
        self.reroll = position._reroll(dice)
        found, orders = position._search(dice)
        self._plays = []
        searched: Searched = {}  # one search behind every play's ways
        for state, path in found.items():
            n = len(path)
            mine = [o for o in orders if len(o) == n]
            turn = position._turn_after(dice, n)
            self._plays.append(VariantPlay(position, dice, path, {"state": state, "orders": mine, "turn": turn,
                                                                  "searched": searched}))

    def _all(self) -> list[VariantPlay]:
        return self._plays

    def __repr__(self) -> str:
        return f"<VariantPlays {self.dice[0]}{self.dice[1]} ({len(self)}) {self.position.variant}>"


# ----- notation --------------------------------------------------------------------------------------------
_NAMES = {BAR: "bar", OFF: "off", WAITING: "in"}
_WORDS = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF, "in": WAITING}


def _word(point: int) -> str:
    return _NAMES.get(point, str(point))


def play_text(play: Play) -> str:
    """Write a variant play: the standard notation (highest point first, chains joined, repeats ``(n)``,
    ``*`` on a hit or a pin), with ``in`` for a Russian checker entering from off the board."""
    chains: list[list[Move]] = []
    for mv in sorted(play.moves, key=lambda m: (-m.frm, -m.to)):
        for chain in chains:
            if chain[-1].to == mv.frm and mv.frm != OFF:
                chain.append(mv)
                break
        else:
            chains.append([mv])
    words = []
    for chain in chains:
        words.append(_word(chain[0].frm) + "".join("/" + _word(m.to) + ("*" if m.hit else "") for m in chain))
    counts: dict[str, int] = {}
    order: list[str] = []
    for w in words:
        if w not in counts:
            order.append(w)
        counts[w] = counts.get(w, 0) + 1
    return " ".join(w if counts[w] == 1 else f"{w}({counts[w]})" for w in order)


def play_from_text(text: str) -> Play:
    """Read a variant play written by ``play_text`` (or with every step spelled); InvalidPlayError if malformed."""
    moves: list[Move] = []
    for parts, count in play_words(text, 8, "24/18 13/11", "24/18, in/22, 6/off"):
        points = []
        for part in parts:
            hit = part.endswith("*")
            word = part.rstrip("*").lower()
            if word in _WORDS:
                points.append((_WORDS[word], hit))
            elif word.isdigit() and 1 <= int(word) <= 24:
                points.append((int(word), hit))
            else:
                raise InvalidPlayError(f"invalid play {text!r}: {part!r} is not a point (1-24, bar, in or off)")
        chain = []
        for (frm, _), (to, hit) in zip(points, points[1:], strict=False):
            if frm == OFF or to in (BAR, WAITING) or (to >= frm and frm != WAITING):
                raise InvalidPlayError(f"invalid play {text!r}: {_word(frm)}/{_word(to)} is not a forward move")
            chain.append(Move(frm, to, hit))
        moves.extend(chain * count)
    return Play(tuple(moves))


# ----- JSON positions ------------------------------------------------------------------------------------
def load_json(data: Mapping[str, Any] | str) -> dict[str, Any]:
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise InvalidPositionError(f"position: not JSON ({exc.msg} at character {exc.pos})") from None
    if not isinstance(data, Mapping):
        raise InvalidPositionError("position: expected one JSON object like {\"turn\": \"light\", \"light\": [...], ...}")
    return dict(data)


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidPositionError(f"{field}: expected a whole number 0 or more, got {value!r}")
    return value


def read_side_map(data: Mapping[str, Any], field: str, kind: type, default: Any) -> dict[Side, Any]:
    """A ``{"light": ..., "dark": ...}`` field, each value of ``kind`` (int: 0 or more; bool)."""
    raw = data.get(field)
    if raw is None:
        return {Side.LIGHT: default, Side.DARK: default}
    if not isinstance(raw, Mapping) or set(raw) - {"light", "dark"}:
        raise InvalidPositionError(f"{field}: expected {{\"light\": ..., \"dark\": ...}}, got {raw!r}")
    out = {}
    for side in Side:
        value = raw.get(side.value, default)
        if kind is bool:
            if not isinstance(value, bool) and value is not None:
                raise InvalidPositionError(f"{field}.{side.value}: expected true or false, got {value!r}")
        elif value is not None:
            value = _int(value, f"{field}.{side.value}")
        out[side] = value
    return out


_KNOWN = {"turn", "light", "dark", "bar", "off"}


def read_board(data: Mapping[str, Any], extra_fields: set[str], waiting: Mapping[Side, int] | None = None) -> tuple[Side, dict[Side, list[int]], dict[Side, int], dict[Side, int]]:
    """The common fields: turn, the two 24-count arrays, bar, off (off defaults to what makes 15)."""
    unknown = set(data) - _KNOWN - extra_fields - {"event"}
    if unknown:
        raise InvalidPositionError(f"{sorted(unknown)[0]}: not a field of this variant's position")
    turn_raw = data.get("turn", "light")
    if turn_raw not in ("light", "dark"):
        raise InvalidPositionError(f"turn: expected \"light\" or \"dark\", got {turn_raw!r}")
    points: dict[Side, list[int]] = {}
    for side in Side:
        arr = data.get(side.value)
        if not isinstance(arr, list) or len(arr) != 24:
            raise InvalidPositionError(f"{side.value}: expected a list of 24 counts (physical points 1..24), got {arr!r}")
        points[side] = [_int(n, f"{side.value}[{i}] (point {i + 1})") for i, n in enumerate(arr)]
    bar = read_side_map(data, "bar", int, 0)
    off_raw = read_side_map(data, "off", int, None)
    off: dict[Side, int] = {}
    for side in Side:
        rest = sum(points[side]) + bar[side] + (waiting or {}).get(side, 0)
        off[side] = 15 - rest if off_raw[side] is None else off_raw[side]
        total = rest + off[side]
        if total != 15 or off[side] < 0:
            where = "on the board, bar" + (", waiting" if waiting else "") + " and off"
            raise InvalidPositionError(f"{side.value}: {max(total, rest)} checkers {where}; a side has exactly 15")
    return Side(turn_raw), points, bar, off


def own_counts(cls: type[Position], side: Side, physical: Sequence[int], bar: int, off: int) -> tuple[int, ...]:
    own = [0] * 26
    table = cls._own_of_phys(side)
    for phys, n in enumerate(physical, start=1):
        own[table[phys]] += n
    own[BAR] = bar
    own[OFF] = off
    return tuple(own)


def longest_run(held: Sequence[bool]) -> int:
    best = run = 0
    for h in held:
        run = run + 1 if h else 0
        best = max(best, run)
    return best


# ----- a checker's step (the variants' move generators) ---------------------------------------------------
def bears_off(me: Sequence[int], frm: int, to: int, allowed: bool) -> bool:
    """May the checker on `frm` bear off with a die that leads to `to` (0 or below)? When the game `allowed` it
    now (all home, and what else it asks): exactly, or with a larger die from the highest point held."""
    return allowed and (to == 0 or not any(me[frm + 1 : 7]))


def moved(board: Sequence[int], frm: int, to: int) -> tuple[int, ...]:
    """The board with a checker taken from `frm` (WAITING: from outside the board, R31) and put on `to`."""
    after = list(board)
    if frm != WAITING:
        after[frm] -= 1
    after[to] += 1
    return tuple(after)


def sent_to_bar(board: Sequence[int], point: int) -> tuple[int, ...]:
    """The board with its checker on `point` hit and put on the bar."""
    after = list(board)
    after[point] -= 1
    after[BAR] += 1
    return tuple(after)
