"""The coach's engines: the first one (ratings, ranked plays, cube advice, the tutor's first look) and the
tutor's deeper looks' own (a deep look abandoned at its budget restarts that one, never the engine of the next
first verdict), started when first needed, retried a minute after failing; the rankings cached.

Shares the coach service's lock (``lock``): the cache and the last error are read and written under it; the
engine calls themselves are made outside it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.base import Engine, EngineError, EngineUnavailable, RankedPlay, Thresholds

log = logging.getLogger(__name__)
EngineFactory = Callable[[], Engine]
RETRY_ENGINE_AFTER = 60.0
CACHE = 2000  # rankings kept (the cache is emptied when it holds more)


def default_engine() -> Engine:
    """GNU Backgammon through engine/gnubg.py; EngineUnavailable when it (or its adapter) is missing."""
    try:
        from engine.gnubg import GnubgEngine
    except ImportError as exc:
        raise EngineUnavailable(f"the GNU Backgammon adapter cannot be loaded ({exc}); the coach shows plays unranked") from None
    return GnubgEngine(plies=0)


class CoachEngines:
    def __init__(self, factory: EngineFactory | None, lock: threading.RLock) -> None:
        self._factory = factory
        self._lock = lock
        self.engine: Engine | None = None
        self.deep: Engine | None = None
        self.error: str | None = None  # the last failure, said on the page
        self._tried = -1e9
        self._cache: dict[tuple[str, tuple[int, int], str | None, int], list[RankedPlay]] = {}

    def info(self) -> dict[str, Any]:
        name = getattr(self.engine, "name", None)
        return {"name": name, "available": self.engine is not None, "message": self.error}

    def main(self) -> Engine | None:
        """The first engine, started now if it is not yet (None: none, or it failed less than a minute ago)."""
        if self.engine is not None or self._factory is None:
            if self._factory is None and self.error is None:
                self.error = "no engine: plays are shown unranked"
            return self.engine
        now = time.monotonic()
        if now - self._tried < RETRY_ENGINE_AFTER:
            return None
        self._tried = now
        try:
            self.engine = self._factory()
            self.error = None
        except (EngineError, ImportError, OSError) as exc:
            self.error = str(exc)
            log.warning("coach engine unavailable: %s", exc)
        return self.engine

    def deep_engine(self) -> Engine | None:
        """The deeper looks' engine (the first one's when a second cannot start)."""
        if self.deep is None and self.main() is not None and self._factory is not None:
            try:
                self.deep = self._factory()
            except (EngineError, ImportError, OSError) as exc:
                log.warning("the tutor's second engine is unavailable (%s): deep looks share the first", exc)
                self.deep = self.engine
        return self.deep

    def warm_deep(self) -> None:
        """Start the deeper looks' engine (gnubg loads its nets) before the first deep look needs it."""
        deep = self.deep_engine()
        start = getattr(deep, "start", None)
        if deep is not self.engine and callable(start):
            start()

    def cached(self, pid: str, dice: tuple[int, int], match_id: str | None, plies: int) -> list[RankedPlay] | None:
        """A ranking already made (lock held by the caller)."""
        return self._cache.get((pid, dice, match_id, plies))

    def rank(self, pid: str, dice: tuple[int, int], match_id: str | None, plies: int,
             timeout: float, deep: bool = False) -> list[RankedPlay] | None:
        """The plays of ``dice`` best first (cached), or None when no engine answered in time."""
        key = (pid, dice, match_id, plies)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        engine = self.deep_engine() if deep else self.main()
        if engine is None:
            return None
        try:
            ranked = engine.rank_plays(pid, dice, match_id, plies=plies, timeout=timeout)
        except EngineError as exc:
            with self._lock:
                self.error = str(exc)
            return None
        with self._lock:
            self.error = None
            if len(self._cache) > CACHE:
                self._cache.clear()
            self._cache[key] = ranked
        return ranked

    def thresholds(self) -> Thresholds | None:
        """The engine's marks (doubtful, bad, very bad), None without an engine."""
        engine = self.main()
        if engine is None:
            return None
        try:
            return engine.thresholds()
        except EngineError as exc:
            self.error = str(exc)
            return None

    def thresholds_known(self) -> Thresholds | None:
        """The engine's marks when they are at hand without a request (gnubg reads them when it starts)."""
        if self.engine is None or getattr(self.engine, "_thresholds", True) is None:
            return None
        return self.engine.thresholds()

    def close(self) -> None:
        for engine in {id(e): e for e in (self.engine, self.deep) if e is not None}.values():
            try:
                engine.close()
            except Exception:
                log.exception("closing the engine failed")
