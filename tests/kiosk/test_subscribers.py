"""kiosk.subscribers: the fan-out the referee service and the coach push their states through."""

from __future__ import annotations

import logging

import pytest

from kiosk.subscribers import Subscribers

log = logging.getLogger("test.subscribers")


def test_a_failing_callback_is_logged_and_the_others_are_still_told(caplog: pytest.LogCaptureFixture) -> None:
    subs: Subscribers[[int]] = Subscribers(log, "a test subscriber")
    got: list[tuple[str, int]] = []

    def boom(n: int) -> None:
        raise RuntimeError("boom")

    subs.add(lambda n: got.append(("first", n)))
    subs.add(boom)
    subs.add(lambda n: got.append(("last", n)))
    with caplog.at_level(logging.ERROR, logger="test.subscribers"):
        subs.tell(7)
    assert got == [("first", 7), ("last", 7)]
    assert [r.getMessage() for r in caplog.records] == ["a test subscriber failed"]


def test_remove_takes_one_off_once_and_iterating_gives_a_copy() -> None:
    subs: Subscribers[[int]] = Subscribers(log, "a test subscriber")
    got: list[int] = []
    remove = subs.add(got.append)
    other = subs.add(lambda n: None)
    snapshot = list(subs)
    remove()
    remove()  # twice is harmless
    assert len(subs) == 1 and len(snapshot) == 2
    subs.tell(1)
    assert got == []
    other()
    assert len(subs) == 0
