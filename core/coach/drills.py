"""Drills graded by what the board shows or the student enters (issue 38): pip counts, the student's own
mistakes as cards on a Leitner schedule, and the Keith count for races. Pure: no clock, no storage.

Why Leitner boxes and not SM-2: SM-2 needs the learner to grade each answer's quality from 0 to 5, a
self-assessment ("how well did you know it?") that the drills exist to avoid; here an answer is right or wrong,
decided by the coach from the play on the board. Leitner's boxes need only that, and a teacher can read a
student's box and date at a glance. Right: the card moves up a box and comes back after that box's interval;
wrong: back to box 1, tomorrow. A card answered right in the last box is learnt (five rights in a row).

>>> s = schedule(Card(box=1), right=True, today=0)
>>> (s.box, s.due, s.learnt)
(2, 2, False)
>>> s = schedule(Card(box=4), right=False, today=10)
>>> (s.box, s.due)
(1, 11)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.rules.position import Position, Side

#: The coach's blunder mark: a play or cube decision losing this much equity or more becomes a card.
BLUNDER = 0.080
#: A card's play is answered right when it loses less than this (the coach's first mark, "doubtful": nothing to say).
RIGHT_WITHIN = 0.030
#: Days until a card in box n (1..5) comes back.
INTERVALS = {1: 1, 2: 2, 3: 4, 4: 8, 5: 16}
LAST_BOX = 5


@dataclass(frozen=True)
class Card:
    box: int = 1
    due: int = 0  # day number (days since the epoch, UTC) when it is shown again
    rights: int = 0
    wrongs: int = 0
    learnt: bool = False


def schedule(card: Card, right: bool, today: int) -> Card:
    """The card after an answer given on ``today``."""
    if not right:
        return replace(card, box=1, due=today + INTERVALS[1], wrongs=card.wrongs + 1)
    if card.box >= LAST_BOX:
        return replace(card, rights=card.rights + 1, learnt=True, due=today + INTERVALS[LAST_BOX])
    box = card.box + 1
    return replace(card, box=box, due=today + INTERVALS[box], rights=card.rights + 1)


def is_blunder(row: dict[str, Any]) -> bool:
    """A rated play (a coach review row) that lost the blunder mark or more."""
    loss = row.get("loss")
    return isinstance(loss, (int, float)) and loss >= BLUNDER and bool(row.get("best"))


# ----- cube decisions as cards ---------------------------------------------------------------------------------
#: A cube decision's question, by what the player did (engine/analysis.py CubeRating.action): "double" asks the
#: player on roll whether to double, "take" asks the opponent whether to take.
CUBE_QUESTIONS = {"double": "double", "no_double": "double", "take": "take", "pass": "take"}


def cube_answer(question: str, equities: dict[str, float]) -> str:
    """The right answer to a cube card's question from the engine's equities (the doubler's side, cubeful):
    double when doubling (the opponent answering in their best way) is worth more than not; take when taking
    costs the doubler at least as much as a pass.

    >>> cube_answer("double", {"no_double": 0.4, "double_take": 0.7, "double_pass": 1.0})
    'double'
    >>> cube_answer("take", {"no_double": 0.4, "double_take": 0.7, "double_pass": 1.0})
    'take'
    >>> cube_answer("double", {"no_double": 0.1, "double_take": 0.05, "double_pass": 1.0})
    'no_double'
    """
    no_double, double_take, double_pass = (float(equities[k]) for k in ("no_double", "double_take", "double_pass"))
    if question == "double":
        return "double" if min(double_take, double_pass) > no_double else "no_double"
    if question == "take":
        return "take" if double_take <= double_pass else "pass"
    raise ValueError(f"a cube card asks double or take, not {question!r}")


def is_cube_blunder(row: dict[str, Any]) -> bool:
    """A rated cube decision (engine/analysis.py CubeRating, as the coach's review gives it) that lost the blunder
    mark or more, with its equities."""
    loss = row.get("loss")
    return (row.get("action") in CUBE_QUESTIONS and isinstance(loss, (int, float)) and loss >= BLUNDER
            and isinstance(row.get("equities"), dict) and bool(row.get("position_id")))


# ----- pip count ----------------------------------------------------------------------------------------------
def pip_method(pos: Position, side: Side) -> list[tuple[int, int, int]]:
    """(point, checkers, pips) per occupied point of the side's own numbering, bar as 25: count point by point."""
    own = pos.own(side)
    return [(p, own[p], p * own[p]) for p in range(25, 0, -1) if own[p]]


def grade_pips(pos: Position, light: int, dark: int) -> dict[str, Any]:
    """The answer to a pip-count drill: right only when both counts are exact."""
    right = {"light": pos.pips(Side.LIGHT), "dark": pos.pips(Side.DARK)}
    given = {"light": light, "dark": dark}
    return {
        "right": given == right,
        "counts": right,
        "given": given,
        "off_by": {k: given[k] - right[k] for k in right},
        "difference": right["light"] - right["dark"],
        "method": {s.value: [{"point": p, "checkers": n, "pips": v} for p, n, v in pip_method(pos, s)]
                   for s in (Side.LIGHT, Side.DARK)},
    }


def method_text(rows: list[dict[str, int]]) -> str:
    """'6×5 + 8×3 + 13×5 + 24×2 = 30 + 24 + 65 + 48 = 167', highest point first."""
    if not rows:
        return "0"
    terms = " + ".join(f"{r['point']}×{r['checkers']}" for r in rows)
    parts = " + ".join(str(r["pips"]) for r in rows)
    return f"{terms} = {parts} = {sum(r['pips'] for r in rows)}"


def race_position(rng: Any, off: int = 3) -> Position:
    """A random race (no contact) for the drills: light on physical points 1-12, dark on 13-24, up to ``off``
    checkers of each side borne off. ``rng`` is a ``random.Random``."""
    layouts = []
    for _ in range(2):
        counts = [0] * 26
        n = 15 - rng.randint(0, off)
        for _ in range(n):
            counts[rng.choice((1, 2, 3, 4, 5, 6, 6, 5, 4, 7, 8, 9, 10, 11, 12))] += 1
        counts[0] = 15 - n
        layouts.append(tuple(counts))
    return Position((layouts[0], layouts[1]), Side.LIGHT)


def bearoff_position(rng: Any) -> Position:
    """A random bear-off for the drills: each side's checkers all in its home board (own points 1-6), 4 to 10 of
    light's and 3 to 12 of dark's still on it. ``rng`` is a ``random.Random``."""
    layouts = []
    for low, high in ((4, 10), (3, 12)):
        counts = [0] * 26
        n = rng.randint(low, high)
        for _ in range(n):
            counts[rng.choice((1, 2, 3, 4, 5, 6, 6, 5, 4))] += 1
        counts[0] = 15 - n
        layouts.append(tuple(counts))
    return Position((layouts[0], layouts[1]), Side.LIGHT)


# ----- Keith count (races) ------------------------------------------------------------------------------------
def keith_count(pos: Position, side: Side) -> int:
    """Pip count plus 2 per checker beyond 1 on the 1-point, 1 per checker beyond 1 on the 2-point, 1 per checker
    beyond 3 on the 3-point, 1 per empty point among 4, 5 and 6 (Tom Keith's adjusted count)."""
    own = pos.own(side)
    count = pos.pips(side)
    count += 2 * max(0, own[1] - 1) + max(0, own[2] - 1) + max(0, own[3] - 3)
    count += sum(1 for p in (4, 5, 6) if own[p] == 0)
    return count


def keith_advice(pos: Position, side: Side) -> dict[str, Any]:
    """Keith's rule for the side on roll in a race: add a seventh to its own count; it doubles when that exceeds
    the opponent's count by at most 4 (redoubles by at most 3), and the opponent takes when it exceeds it by at
    least 2."""
    me = keith_count(pos, side)
    them = keith_count(pos, side.other)
    lead = me + me / 7 - them
    return {"counts": {side.value: me, side.other.value: them}, "lead": round(lead, 2),
            "double": lead <= 4, "redouble": lead <= 3, "take": lead >= 2}
