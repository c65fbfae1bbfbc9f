"""At most N expensive requests at once (a review, ranked plays, an export): more are answered 429 at once
with Retry-After, never queued, so sixty parallel requests cannot take every worker thread and the CPU from
the owner's screen (its `GET /api/state` is cheap and never waits for them).

`Bounded(n, what)` is a FastAPI dependency: `dependencies=[Depends(REVIEWS)]` or a `with bounded.slot():` in
a route. The slot is held for the whole request (FastAPI closes a yield dependency after the response)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import HTTPException


class Bounded:
    def __init__(self, limit: int, what: str, retry_after: int = 2) -> None:
        self.limit = limit
        self.what = what
        self.retry_after = retry_after
        self._busy = 0
        self._lock = threading.Lock()
        self.refused = 0   # requests answered 429 because the slots were taken
        self.most = 0      # the most requests held at once (tests and bench)

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._lock:
            if self._busy >= self.limit:
                self.refused += 1
                raise HTTPException(429, f"{self.what}: {self.limit} already being worked out, try again in "
                                         f"{self.retry_after} s", headers={"Retry-After": str(self.retry_after)})
            self._busy += 1
            self.most = max(self.most, self._busy)
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1

    def __call__(self) -> Iterator[None]:
        with self.slot():
            yield
