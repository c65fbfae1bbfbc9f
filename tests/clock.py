"""A clock the test moves by hand (the dice bridge's watchdog, the referee's match clock), so nothing sleeps."""

from __future__ import annotations


class FakeClock:
    """Called like time.monotonic; `now` is set or `advance`d by the test."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
