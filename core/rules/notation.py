"""Play notation: checker moves written the way real files write them.

Points are in the mover's numbering (24 = farthest, 1..6 = home), 25 = bar, 0 = off. Reading accepts the
dialects of gnubg, Backgammon Galaxy and XG/Backgammon Studio (see ../shared/formats/MAT.md):
``13/7* 8/7``, ``bar/22``, ``25/22``, ``6/off``, ``6/0``, chains ``24/18/12``, ``13/7*/1``, repeats
``6/4(2)`` and combined moves ``22/13``. Combined moves are resolved against a position by
``Position.parse_play``; ``Play.from_text`` only reads the text.

>>> Play.from_text("13/7* 8/7")
Play.from_text('13/7* 8/7')
>>> Play.from_text("24/18/12").moves
(Move(24, 18), Move(18, 12))
>>> Play.from_text("bar/22 6/off").text(style="gnubg")
'25/22 6/0'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from operator import itemgetter

from core.errors import InvalidPlayError, InvalidRollError

BAR = 25
OFF = 0

_REPEAT = re.compile(r"^(.*?)\((\d+)\)$")
_BAR_WORDS = {"bar", "b", "ba"}
_OFF_WORDS = {"off", "o", "-"}


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moving from one point to another (mover's numbering; 25 = bar, 0 = off)."""

    frm: int
    to: int
    hit: bool = False

    def __repr__(self) -> str:
        return f"Move({self.frm}, {self.to}{', hit=True' if self.hit else ''})"

    @property
    def distance(self) -> int:
        return self.frm - self.to

    def text(self, numeric: bool = False) -> str:
        return f"{_point_text(self.frm, numeric)}/{_point_text(self.to, numeric)}{'*' if self.hit else ''}"


def _point_text(point: int, numeric: bool) -> str:
    if numeric:
        return str(point)
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    if point == 26:
        return "in"  # a Russian checker entering from off the board (core.rules.variants.WAITING, R31)
    return str(point)


def _parse_point(word: str, play_text: str) -> tuple[int, bool]:
    hit = word.endswith("*")
    core_word = word.rstrip("*")
    low = core_word.lower()
    if low in _BAR_WORDS:
        return BAR, hit
    if low in _OFF_WORDS:
        return OFF, hit
    if core_word.isdigit() and 0 <= int(core_word) <= 25:
        return int(core_word), hit
    raise InvalidPlayError(
        f"invalid play {play_text!r}: {word!r} is not a point (use 1-24, bar or 25 for the bar, off or 0 for off)"
    )


def play_words(text: object, most: int, play_example: str, move_example: str) -> Iterator[tuple[list[str], int]]:
    """Each move written in a play (any game's dialect): the words of its points (FROM, TO, ...) and how many
    times it is made, ``13/7(2)``: 1 to `most`. InvalidPlayError for what no dialect accepts, with the game's
    examples."""
    if not isinstance(text, str):
        raise InvalidPlayError(f"invalid play {text!r}: expected text such as '{play_example}'")
    for token in text.replace(",", " ").split():
        count = 1
        m = _REPEAT.match(token)
        if m:
            token, count = m.group(1), int(m.group(2))
            if not 1 <= count <= most:
                raise InvalidPlayError(f"invalid play {text!r}: a repeat must be (1) to ({most}), not ({count})")
        parts = token.split("/")
        if len(parts) < 2 or any(p == "" for p in parts):
            raise InvalidPlayError(f"invalid play {text!r}: {token!r} is not a move (write FROM/TO, e.g. {move_example})")
        yield parts, count


@dataclass(frozen=True, slots=True)
class Play:
    """A sequence of checker moves for one turn. An empty play is written ``""`` (no legal move)."""

    moves: tuple[Move, ...] = ()

    @classmethod
    def from_text(cls, text: str) -> Play:
        """Read a play written in any of the dialects; raises InvalidPlayError when malformed."""
        moves: list[Move] = []
        for parts, count in play_words(text, 4, "13/7 8/7", "13/7, bar/22 or 6/off"):
            points = [_parse_point(p, text) for p in parts]
            if points[0][1]:
                raise InvalidPlayError(f"invalid play {text!r}: a hit mark '*' belongs after the point landed on")
            chain = []
            for (frm, _), (to, hit) in zip(points, points[1:], strict=False):
                if frm == OFF:
                    raise InvalidPlayError(f"invalid play {text!r}: a checker cannot move from off the board")
                if to == BAR:
                    raise InvalidPlayError(f"invalid play {text!r}: a checker cannot move to the bar")
                if to >= frm:
                    raise InvalidPlayError(
                        f"invalid play {text!r}: {frm}/{to} moves backwards (checkers move from higher to lower points)"
                    )
                if to == OFF and hit:
                    raise InvalidPlayError(f"invalid play {text!r}: nothing can be hit off the board")
                chain.append(Move(frm, to, hit))
            moves.extend(chain * count)
        return cls(tuple(moves))

    def __repr__(self) -> str:
        return f"Play.from_text({self.text(style='gnubg')!r})"

    def __str__(self) -> str:
        return self.text()

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __bool__(self) -> bool:
        return bool(self.moves)

    def text(self, style: str = "standard") -> str:
        """Write the play.

        ``standard``: highest point first, chains joined (``13/7*/1``), repeats as ``(2)``, words bar/off.
        ``gnubg``: one sub-move per die in the order played, numeric bar 25 and off 0, ``*`` on the first hit
        of each point (what GNU Backgammon writes in .mat files).
        """
        return steps_text([(mv.frm, mv.to, mv.hit) for mv in self.moves], style)


# Standard notation; 26 is a Russian checker entering from off the board (core.rules.variants.WAITING, R31).
_WORDS = {**{p: "off" if p == OFF else "bar" if p == BAR else str(p) for p in range(26)}, 26: "in"}
_TO = {p: f"/{w}" for p, w in _WORDS.items()}
_TO_HIT = {p: f"/{w}*" for p, w in _WORDS.items()}
_FROM_AND_TO = itemgetter(0, 1)


def _landing(to: int, hit: bool) -> str:
    """``/to`` or ``/to*`` (any integer: a Play can be built from other numbers than points)."""
    return (_TO_HIT if hit else _TO).get(to) or f"/{to}{'*' if hit else ''}"


def steps_text(steps: Sequence[tuple[int, int, bool]], style: str = "standard") -> str:
    """Write a play given as (from, to, hit) steps: what ``Play.text`` writes, without building the Play.

    Linear in the number of steps (a play line of a damaged file can hold millions).
    """
    if style == "gnubg":
        seen: set[int] = set()
        out = []
        for frm, to, hit in steps:
            out.append(f"{frm}/{to}*" if hit and to not in seen else f"{frm}/{to}")
            if hit:
                seen.add(to)
        return " ".join(out)
    if style != "standard":
        raise ValueError(f"unknown notation style {style!r}: use 'standard' or 'gnubg'")
    # Join each checker's steps into chains: a step starting where an open chain ended continues the
    # earliest such chain. ``ends`` holds, for each point, the chains ending there (a heap of their numbers).
    chains: list[list[str]] = []
    ends: dict[int, list[int]] = {}
    for frm, to, hit in sorted(steps, key=_FROM_AND_TO, reverse=True):  # stable: equal steps keep their order
        waiting = ends.get(frm)
        if waiting and frm != OFF:
            k = heappop(waiting)
            chains[k].append(_landing(to, hit))
        else:
            k = len(chains)
            chains.append([_WORDS.get(frm) or str(frm), _landing(to, hit)])
        if to != OFF:
            if to in ends:
                heappush(ends[to], k)
            else:
                ends[to] = [k]
    if len(chains) == 1:
        return "".join(chains[0])
    # Repeats: identical chain texts are written once with (n).
    counts: dict[str, int] = {}
    for chain in chains:
        word = "".join(chain)
        counts[word] = counts.get(word, 0) + 1
    return " ".join(w if n == 1 else f"{w}({n})" for w, n in counts.items())


_DIE = frozenset(range(1, 7))
_ROLL_TEXT = {f"{d1}{d2}": (d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)}


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Validate a roll given as two numbers (or text like ``"31"``) and return it as a tuple."""
    if type(dice) is tuple and len(dice) == 2:
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and d1 in _DIE and d2 in _DIE:
            return dice  # the common case, already right: nothing to convert
    elif type(dice) is str and dice in _ROLL_TEXT:
        return _ROLL_TEXT[dice]
    if isinstance(dice, str):
        text = dice.strip()
        if len(text) != 2 or not text.isdigit():
            raise InvalidRollError(f"invalid roll {dice!r}: write two dice 1-6, e.g. 31 or 66")
        dice = (int(text[0]), int(text[1]))
    try:
        d1, d2 = (int(d) for d in dice)
    except (TypeError, ValueError):
        raise InvalidRollError(f"invalid roll {dice!r}: expected two dice 1-6") from None
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidRollError(f"invalid roll {d1}{d2}: each die shows 1 to 6")
    return d1, d2
