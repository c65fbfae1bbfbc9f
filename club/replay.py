"""A board's events through the referee, the same way on the board (its catch-up) and at the director.

``feed(ref, event)`` is one event's verdicts; a referee bug gives an ``error`` verdict at that event, as
kiosk/service.py rules it on the board, so a copy ruled again here says what the board said. ``replay(events)``
is a fresh referee that saw them all, and how many there were.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from core.referee.table import TableReferee as Referee  # a chouette's events too (R26-R29), as on the board

log = logging.getLogger(__name__)


def feed(ref: Referee, event: dict[str, Any]) -> list[dict[str, Any]]:
    """The referee's verdicts on one event; a referee bug gives "error", as kiosk/service.py does."""
    try:
        return ref.feed(event)
    except Exception:  # the board's referee said "error" at the same place
        log.exception("referee failed on an archived event")
        return [{"at": ref.index - 1, "verdict": "error"}]


def replay(events: Iterable[dict[str, Any]]) -> tuple[Referee, int]:
    """A fresh referee fed every event, and the number of events."""
    ref = Referee()
    seen = 0
    for event in events:
        feed(ref, event)
        seen += 1
    return ref, seen
