"""The referee's verdicts: their typed shape (``Verdict``) and how one is built.

Every verdict has ``at`` (the index of the event that caused it), ``verdict`` and ``message`` ({"pt", "en"});
the other keys depend on the verdict (core.referee.machine's docstring, docs/CONTRACTS.md). A verdict is a
plain dict (JSON as it is); ``Verdict`` names its keys for the type checker.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from core.messages import describe, message
from core.referee.faults import Fault
from core.referee.state import MatchState

#: How many of the latest verdicts public_state() keeps.
KEEP_VERDICTS = 20


class Message(TypedDict):
    pt: str
    en: str


class Verdict(TypedDict, total=False):
    """One verdict; ``at``, ``verdict`` and ``message`` always, the others by verdict."""

    at: int
    verdict: str
    message: Message
    side: str | None
    dice: list[int] | None
    play: str
    legal: bool
    position_id: str
    match_id: str
    reason: str
    committed_by: str
    guessed: bool
    corrected: bool
    candidates: list[str]
    committing: bool
    pending: bool
    complete: bool
    used: list[int]
    point: int | str
    covered: list[int]  # an uncertain verdict's points under an object (reason "point_covered"; ``by`` says what)
    move: Any
    unplayed: list[int]
    die: int
    late: bool
    action: str
    value: int
    winner: str | None
    points: int
    how: str
    score: list[int]
    number: int
    chain: str
    next_dice: list[int]
    n: int
    dice_prev: list[int]
    # the clock and the answer to an illegal play (issue 21, core.referee.tournament)
    left: float
    level: float
    flag_at: Any
    to: list[str]
    answer_by: str
    answers: list[str]
    answer: str
    accepted: bool
    mover: str
    # an illegal play's board as it stands (issue 37): the position's JSON, drawn by the screen with the fault on it
    board: dict[str, Any]
    roller: str  # a cocked die: who rolls again (issue 37)
    # the table's conventions (issue 36, core.referee.conventions)
    by: str
    step: str


def verdict(out: list[Verdict], at: int, name: str, **fields: Any) -> Verdict:
    """A verdict ``name`` caused by event ``at``, appended to ``out``; its message from core.messages unless given."""
    v = cast(Verdict, {"at": at, "verdict": name, **fields})
    if "message" not in v:
        v["message"] = cast(Message, describe(cast(dict[str, Any], v)))
    out.append(v)
    return v


def fault_verdict(out: list[Verdict], at: int, fault: Fault, ms: MatchState,
                  board: dict[str, Any] | None = None) -> None:
    """The verdict of a board fault (core.referee.faults) in the turn of ``ms``; ``board``: the board as it stands
    (the position's JSON: light, dark, bar, off), so the screen draws the wooden board with the fault marked on it."""
    params = {k: v for k, v in fault.params.items() if k != "example" or v}
    verdict(out, at, fault.verdict, side=ms.turn.value, dice=list(ms.dice) if ms.dice else None,
            reason=fault.reason, message=message(fault.reason, **fault.params),
            **({"play": fault.play_text()} if fault.moves else {}),
            **{k: v for k, v in params.items() if k in ("point", "move", "unplayed", "die")},
            **({"board": board} if board is not None else {}))


def reroll(out: list[Verdict], at: int, reason: str, **params: Any) -> None:
    """A roll that does not count (``reroll``), with why."""
    verdict(out, at, "reroll", reason=reason, message=message(reason, **params),
            **{k: v for k, v in params.items() if k in ("dice", "n", "die", "side", "roller")})


__all__ = ["KEEP_VERDICTS", "Message", "Verdict", "fault_verdict", "reroll", "verdict"]
