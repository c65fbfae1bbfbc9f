"""The referee's scenario helpers, shared by the scenario tests (test_referee.py) and the camera, confidence and display
tests: events as the camera and dice unit send them, a referee at a match's start or at a given position."""

from __future__ import annotations

from typing import Any

from core.referee import Referee
from core.rules.position import Position, Side

START = Position.start()


def bd(pos: Position, stable: bool = True) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": stable}


def roll(a: int, b: int, cocked: tuple[bool, bool] = (False, False)) -> dict[str, Any]:
    return {"event": "roll", "dice": [a, b], "cocked": list(cocked)}


def referee(length: int = 5, **rules: Any) -> Referee:
    ref = Referee()
    ref.feed({"event": "new_match", "length": length, "players": {"light": "Ana", "dark": "Bruno"}, "rules": rules})
    return ref


def kinds(verdicts: list[dict[str, Any]]) -> list[str]:
    return [v["verdict"] for v in verdicts]


def after(pos: Position, dice: tuple[int, int], text: str) -> Position:
    return pos.play(dice, text)


def moved(pos: Position, side: Side, frm: int, to: int) -> Position:
    """Move one checker of ``side`` (own numbering) ignoring the rules, as a careless hand would."""
    counts = {s: list(pos.own(s)) for s in Side}
    counts[side][frm] -= 1
    counts[side][to] += 1
    return Position((tuple(counts[Side.LIGHT]), tuple(counts[Side.DARK])), pos.turn)


def unclear_31() -> dict[str, Any]:
    """Light's 3-1 played 13/10 6/5, on a board whose points 5, 6, 9 and 10 the camera cannot count (any of 0-5)."""
    ev = bd(after(START, (3, 1), "13/10 6/5"))
    flat = {str(n): 1.0 / 6 for n in range(6)}
    table: list[dict[str, float]] = [{} for _ in range(24)]
    for point in (5, 6, 9, 10):
        table[point - 1] = flat
    ev["uncertainty"] = {"light": table}
    return ev


def light_on_bar() -> tuple[Referee, Position]:
    ref = referee()
    ref.feed(roll(6, 2))
    p1 = after(START, (6, 2), "24/18 13/11")
    ref.feed(bd(p1))
    ref.feed(roll(6, 6))
    p2 = after(p1, (6, 6), "24/18(2) 13/7*(2)")
    ref.feed(bd(p2))
    assert p2.bar[Side.LIGHT] == 1
    return ref, p2


def at_position(pos: Position, length: int = 3) -> Referee:
    """A referee whose game stands at ``pos`` with its side to roll (the scenario's set-up)."""
    ref = referee(length)
    ref.pos, ref.turn, ref.phase = pos, pos.turn, "awaiting_roll"
    return ref
