"""A thread-safe event list that tests and commands can wait on, with timeouts and no sleeping."""

from __future__ import annotations

import threading
from collections.abc import Callable

from firmware_bridge.protocol import Event


class EventCollector:
    """Callable sink: ``DiceLink(path, collector)``; then ``collector.wait_for(lambda e: ..., timeout=2)``."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._cond = threading.Condition()

    def __call__(self, event: Event) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def of(self, kind: str) -> list[Event]:
        with self._cond:
            return [e for e in self.events if e.get("event") == kind]

    def wait_for(self, predicate: Callable[[Event], bool], timeout: float, start: int = 0) -> Event | None:
        """The first event from index ``start`` on that satisfies ``predicate``, waiting up to ``timeout`` s."""
        with self._cond:
            found: list[Event] = []

            def ready() -> bool:
                found[:] = [e for e in self.events[start:] if predicate(e)][:1]
                return bool(found)

            self._cond.wait_for(ready, timeout)
            return found[0] if found else None

    def wait_count(self, kind: str, count: int, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: sum(e.get("event") == kind for e in self.events) >= count, timeout)
