"""Small fakes for the dice bridge tests (clock and transport); hardware fakes stay out."""

from __future__ import annotations


class FakeClock:
    """A clock the test moves by hand, so the watchdog is tested without sleeping."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ListTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def payloads(self) -> list[str]:
        return [w[1:w.rindex(b"*")].decode() for w in self.written]
