"""What the tests that kill, stop and restart processes share: is a process alive, and waiting for a condition."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, dead but not yet reaped, is not alive)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def until(check: Callable[[], object], within: float = 30.0, every: float = 0.02) -> bool:
    """Poll `check` until it is true (True) or `within` seconds pass (False)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(every)
    return bool(check())
