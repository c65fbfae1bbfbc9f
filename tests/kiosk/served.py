"""Waiting for a `gamao run` started as a child process to serve its HTTP API."""

from __future__ import annotations

import subprocess
import time
from typing import Any

import httpx

from tests.web import HTTP


def get_when_served(proc: subprocess.Popen[str], url: str, seconds: float) -> Any:
    """`url`'s JSON once `proc` serves it; the test fails with the child's stderr if it exits first, or after
    `seconds` without an answer."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return HTTP.get(url, timeout=1).json()
        except httpx.HTTPError:
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, f"gamao run did not serve within {seconds:.0f} s"
            time.sleep(0.2)
