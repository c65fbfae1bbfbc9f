"""What the director keeps of each board and of each of its matches (``BoardView``, ``BoardMatch``: the intake
writes them, the page's views read them under the intake's lock, club/intake.py, club/director.py), and what a
board's state may say of its lesson (the class view, issue 38), checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from club.auth import bounded
from club.replay import Referee

Key = tuple[str, str, int]  # (club, board, match)
# The class view (issue 38): what a board's state may say of its lesson (kiosk/drills.py DrillRoom.lesson)
LESSON_KINDS = ("pips", "mistake", "opening", "bearoff", "cube", "setup")
LESSON_STAGES = ("setup", "answer", "play", "grading", "done", "menu")
MAX_STUDENT = 40             # characters of a student's name (kiosk/students.py MAX_NAME)
MAX_LESSON_COUNT = 100_000   # answers in a day, cards due


def lesson_of(obj: Any) -> dict[str, Any] | None:
    """A board's lesson as its state says it, checked and bounded (ValueError when it is not one): ``{"student": 1-40
    printable characters, "kind": a drill or None, "stage", "done", "right" <= done, "due"}``; None for none."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise ValueError("lesson must be an object or null")
    student, kind, stage = obj.get("student"), obj.get("kind"), obj.get("stage")
    if (not isinstance(student, str) or not 0 < len(student) <= MAX_STUDENT or not student.isprintable()
            or student != " ".join(student.split())):
        raise ValueError(f"lesson.student must be a name of 1-{MAX_STUDENT} printable characters")
    if kind is not None and kind not in LESSON_KINDS:
        raise ValueError("lesson.kind must be a drill's kind or null")
    if stage not in LESSON_STAGES:
        raise ValueError("lesson.stage must be a drill's stage")
    counts = {}
    for name in ("done", "right", "due"):
        n = obj.get(name)
        if not bounded(n, 0, MAX_LESSON_COUNT + 1):
            raise ValueError(f"lesson.{name} must be an integer 0-{MAX_LESSON_COUNT}")
        counts[name] = n
    if counts["right"] > counts["done"]:
        raise ValueError("lesson.right must be at most lesson.done")
    return {"student": student, "kind": kind, "stage": stage, **counts}


def for_director(verdict: dict[str, Any]) -> bool:
    """A verdict the director sees: addressed to everyone (no ``to``) or to the director (issue 21's ``to``)."""
    to = verdict.get("to")
    return not isinstance(to, list) or "director" in to


@dataclass
class BoardMatch:
    """What the intake keeps of one match of a board: its referee, its place, what is ahead of a gap."""

    ref: Referee | None
    next: int = 0                                    # the first index not yet seen in a row
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)
    progress: float = 0.0                            # monotonic time of the last step forward
    asked: float = 0.0
    last_verdict: dict[str, Any] | None = None
    result_saved: bool = False
    #: indexes whose verdicts are archived beyond ``ruled_next`` (the first one missing): a verdicts copy is a
    #: message of its own, acknowledged to the broker before it is stored, so a director killed in between
    #: loses it; it is asked for again like a missing event
    ruled: set[int] = field(default_factory=set)
    ruled_next: int = 0
    spilled: bool = False                            # events beyond MAX_PENDING wait in the archive only

    def got_verdicts(self, index: int) -> None:
        self.ruled.add(index)
        while self.ruled_next in self.ruled:
            self.ruled.discard(self.ruled_next)
            self.ruled_next += 1


@dataclass
class BoardView:
    """What the intake keeps of one board (the page's views read it under the intake's lock)."""

    club: str
    board: str
    label: str | None = None
    online: bool = False
    updated: float | None = None
    alerts: list[str] = field(default_factory=list)
    journal: list[tuple[int, int]] = field(default_factory=list)   # (match, count) the board last reported
    match: int | None = None
    ruled: float | None = None                       # when the board ruled its last verdict (its clock)
    received: float | None = None                    # when that verdict reached the director
    moved: float | None = None                       # when the director last took in an event of this board
    nmatches: int = 0                                # matches heard of (bounded by MAX_MATCHES)
    lesson: dict[str, Any] | None = None             # the board's lesson, as its last state said (lesson_of)
    changes: int = 0                                 # counts what changed the board (the views' caches follow it)
