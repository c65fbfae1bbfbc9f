"""A short scripted game for the coach's tests: events for the real referee service, and the plays to make."""

from __future__ import annotations

import threading
from typing import Any

from core.rules.position import Position, Side
from engine.base import Thresholds
from engine.fake import FakeEngine

START = Position.start()


def board(pos: Position) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True}


def new_match(tournament: bool = False) -> dict[str, Any]:
    return {"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"},
            "rules": {"tournament": tournament}}


def opening(referee: Any, tournament: bool = False) -> None:
    """A new match on the referee service, light to play the opening 3-1."""
    referee.submit(new_match(tournament))
    referee.submit({"event": "roll", "dice": [3, 1]})


# With these thresholds the fake engine's ranking of the opening 3-1 has plays of every label.
THRESHOLDS = Thresholds(doubtful=0.07, bad=0.12, very_bad=0.2)


def fake_engine(delay: float = 0.0, fail: bool = False) -> FakeEngine:
    return FakeEngine(delay=delay, fail=fail, thresholds=THRESHOLDS)


def held_deep_engine(release: threading.Event) -> FakeEngine:
    """The fake engine answering a 0-ply look at once and a deeper one only when `release` is set (10 s at most):
    the tutor's first verdict shows while its deeper look is held (issue 24)."""
    engine = fake_engine()
    rank = engine.rank_plays

    def slow_deep(position_id, dice, match_id=None, plies=0, timeout=None):  # type: ignore[no-untyped-def]
        if plies:
            release.wait(10)
        return rank(position_id, dice, match_id, plies, timeout)

    engine.rank_plays = slow_deep  # type: ignore[method-assign]
    return engine


def ranked_opening() -> list[Any]:
    """The fake engine's ranking of light's opening 3-1 (best first)."""
    return fake_engine().rank_plays(START.position_id(Side.LIGHT), (3, 1))


def loss_of(play: str) -> float:
    """What the fake engine says the opening 3-1 ``play`` loses."""
    return next(rp.loss for rp in ranked_opening() if rp.play == play)


def play_with_label(label: str | None) -> str:
    """An opening 3-1 play the fake engine labels ``label``."""
    return next(rp.play for rp in ranked_opening() if rp.label == label)


def after(play: str, dice: tuple[int, int] = (3, 1), pos: Position = START) -> Position:
    return pos.play(dice, play)
