"""JSON text from outside, read within bounds: a line, its nesting and its numbers are limited before they can
cost memory or time (a 5,000-digit integer, JSON nested 100,000 deep, a line of 50 MB). The event format
(core/referee/events.py ``parse_line``, ``read_lines``) reads its lines through here.

>>> loads('{"event": "roll", "dice": [5, 2]}')
{'event': 'roll', 'dice': [5, 2]}
>>> loads("[" * 40 + "]" * 40)
Traceback (most recent call last):
...
core.referee.json_limits.JSONRefused: the JSON nests more than 16 levels deep; an event nests at most 4
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

# An event is a few kilobytes (a board with its probability tables is the largest), its numbers are small, and
# it nests four levels deep.
MAX_LINE = 256 * 1024
MAX_DEPTH = 16
MAX_DIGITS = 20


class JSONRefused(ValueError):
    """Why a line was refused, in words (bad JSON, or beyond the limits)."""


class _Limit(ValueError):
    pass


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Limit(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(name: str) -> float:
    raise _Limit(f"{name} is not a number JSON allows")


def _depth(line: str) -> int:
    """How deep the line's brackets nest (strings skipped): checked before json.loads recurses."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in line:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def loads(line: str) -> object:
    """One line of JSON text, parsed; JSONRefused for bad JSON or a line beyond the limits."""
    if len(line) > MAX_LINE:
        raise JSONRefused(f"the line is longer than {MAX_LINE} characters; an event is a few thousand")
    if ("[" in line or "{" in line) and _depth(line) > MAX_DEPTH:
        raise JSONRefused(f"the JSON nests more than {MAX_DEPTH} levels deep; an event nests at most 4")
    try:
        return json.loads(line, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONRefused(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # _Limit among them
        raise JSONRefused(f"not a usable event: {exc}") from None


def bounded_lines(stream: Iterable[str] | object, max_line: int = MAX_LINE) -> Iterator[str]:
    """The lines of a text file object, none held longer than `max_line` characters (a longer line is
    yielded cut to `max_line + 1`, so `parse_line` refuses it without the whole line in memory)."""
    readline = getattr(stream, "readline", None)
    if readline is None:
        yield from stream  # type: ignore[misc]
        return
    while True:
        line = readline(max_line + 1)
        if not line:
            return
        if len(line) > max_line and not line.endswith("\n"):
            # Skip the rest of this over-long line in pieces, then report it as one line.
            while True:
                rest = readline(max_line + 1)
                if not rest or rest.endswith("\n"):
                    break
        yield line
