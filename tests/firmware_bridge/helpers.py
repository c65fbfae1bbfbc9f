"""Small fakes for the dice bridge tests (clock and transport); hardware fakes stay out."""

from __future__ import annotations

from tests.clock import FakeClock

__all__ = ["FakeClock", "ListTransport"]


class ListTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def payloads(self) -> list[str]:
        return [w[1:w.rindex(b"*")].decode() for w in self.written]
