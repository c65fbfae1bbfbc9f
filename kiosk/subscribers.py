"""Callbacks told of a change, from any thread: the referee service's and the coach's pushes share this.

``add(callback)`` returns the function that takes the callback off again (safe to call twice). Iterating gives a
copy of the callbacks, so a caller may take it under its own lock and call them after. ``tell(*args)`` calls each
outside this list's lock (what they return is not read); one that raises is logged and never stops the others.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Generic, ParamSpec

P = ParamSpec("P")


class Subscribers(Generic[P]):
    def __init__(self, log: logging.Logger, what: str) -> None:
        """`log` and `what` name a failing callback as the owner would: ``log.exception(f"{what} failed")``."""
        self._log, self._what = log, what
        self._lock = threading.Lock()
        self._callbacks: list[Callable[P, object]] = []

    def add(self, callback: Callable[P, object]) -> Callable[[], None]:
        with self._lock:
            self._callbacks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return remove

    def __iter__(self) -> Iterator[Callable[P, object]]:
        with self._lock:
            return iter(list(self._callbacks))

    def __len__(self) -> int:
        with self._lock:
            return len(self._callbacks)

    def tell(self, *args: P.args, **kwargs: P.kwargs) -> None:
        for callback in self:
            try:
                callback(*args, **kwargs)
            except Exception:
                self._log.exception("%s failed", self._what)
