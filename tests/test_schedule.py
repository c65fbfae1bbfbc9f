"""The xdist scheduler's expected seconds per test (tests/conftest.py): what the stored run listed, and a guess for
what it did not (a test too short to be listed, a parameter set or a file added since)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import conftest


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "durations.json"
    monkeypatch.setattr(conftest, "DURATIONS", path)
    caches = (conftest._expected_seconds, conftest._listed_by_function, conftest._listed_files)
    for cache in caches:
        cache.cache_clear()
    yield path
    for cache in caches:
        cache.cache_clear()  # the real file's figures again for whoever asks next


def test_listed_tests_their_seconds_and_the_rest_a_guess(stored: Path) -> None:
    stored.write_text(json.dumps({
        "tests/kiosk/test_page.py::test_walk[a]": 10.0, "tests/kiosk/test_page.py::test_walk[b]": 20.0,
        "tests/kiosk/test_voice.py": 0.3,  # a file whose tests were all short
    }), "utf-8")
    assert conftest.expected_cost(["tests/kiosk/test_page.py::test_walk[a]"]) == 10.0
    # a parameter set added since: its listed siblings' mean
    assert conftest.expected_cost(["tests/kiosk/test_page.py::test_walk[c]"]) == 15.0
    # a test of a listed file, not listed itself: it was short
    assert conftest.expected_cost(["tests/kiosk/test_page.py::test_other"]) == conftest.FAST
    assert conftest.expected_cost(["tests/kiosk/test_voice.py::test_x"]) == conftest.FAST
    # a file the stored run did not know: seconds if it starts a browser, a broker or a process, else short
    assert conftest.expected_cost(["tests/kiosk/test_page_walk.py::test_new"]) == conftest.GUESS
    assert conftest.expected_cost(["tests/core/test_messages.py::test_new"]) == conftest.FAST
    assert conftest.expected_cost(["tests/kiosk/test_page_walk.py::a", "tests/kiosk/test_page_walk.py::b"]) \
        == 2 * conftest.GUESS
