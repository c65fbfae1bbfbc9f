"""Options shared by every test package.

``--soak`` (or GAMAO_SOAK=1) turns on the long fuzz and soak runs; the default run keeps a shorter version.
``--store-durations`` writes tests/durations.json from the run: how long each slow test took (and each file
whose tests were all short, by its path), which the scheduler below uses to start the longest work first (so
one worker is not left with an hour's tail).
The control PIN is hashed at a test cost outside the PIN's own tests (``pin_hash_at_test_cost`` below).
The machine's language is not the tests': ``neutral_language`` below.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import datasets
from tests.pin_cost import TEST_SCRYPT, scrypt_cost


def neutral_language(environ: Any = os.environ) -> None:
    """The kiosk and `gamao run` speak the system's language when none is configured (kiosk/config.py
    system_language: LC_ALL, LC_MESSAGES, LANG): a developer with LANG=pt_BR.UTF-8 got Portuguese where the
    tests expect the default English (tests/kiosk/test_run_check.py failed). The run, and every process it
    starts, gets the C locale in UTF-8 whatever the machine's; the tests of the language's choice set their own
    (monkeypatch). gnubg's numbers are read in the C locale anyway (engine/gnubg.py)."""
    for key in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        environ.pop(key, None)
    environ["LANG"] = "C.UTF-8"


neutral_language()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False, help="run the long soak and fuzz tests")
    parser.addoption("--store-durations", action="store_true", default=False,
                     help=f"write {DURATIONS.name} (the slow tests' seconds) for the scheduler's order")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--soak"):
        os.environ["GAMAO_SOAK"] = "1"


DURATIONS = Path(__file__).with_name("durations.json")
SLOW = 0.5  # seconds: a test under this is not worth a line in DURATIONS (an unknown test counts as FAST)
FAST = 0.1


@functools.cache
def _expected_seconds() -> dict[str, float]:
    try:
        data = json.loads(DURATIONS.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


def expected_cost(nodeids: Any) -> float:
    """The seconds a work unit is expected to take, from the last stored run (a test it did not list: _guess)."""
    known = _expected_seconds()
    return sum(known[n] if n in known else _guess(n) for n in nodeids)


GUESS = 3.0  # seconds: a test added since the last stored run, in a file that starts a browser, broker or process
_STARTS_SOMETHING = re.compile(r"chromium_page\(|_browser\(|chromium_or_skip|LocalBroker|\bBoard\(|DemoRunner|"
                               r"live_kiosk|GnubgEngine|subprocess\.|Popen")


@functools.cache
def _listed_by_function() -> dict[str, list[float]]:
    by: dict[str, list[float]] = {}
    for nodeid, seconds in _expected_seconds().items():
        by.setdefault(nodeid.split("[", 1)[0], []).append(seconds)
    return by


@functools.cache
def _listed_files() -> frozenset[str]:
    return frozenset(nodeid.split("::", 1)[0] for nodeid in _expected_seconds())


@functools.cache
def _file_says(path: str, pattern: re.Pattern[str]) -> bool:
    """The test file at `path` (from the repository's root) holds `pattern` (False when it cannot be read)."""
    try:
        return bool(pattern.search((Path(__file__).resolve().parents[1] / path).read_text("utf-8")))
    except OSError:
        return False


def _guess(nodeid: str) -> float:
    """A test the stored run did not list (it took under SLOW, or it was added since): the mean of its listed
    parameter sets; else, in a file the run did not know at all, GUESS when the file starts a browser, a broker or
    a process; else FAST. Counted as FAST, the 30 s tests of the files added since the last stored run were handed
    out among the short ones, in any order, one of them possibly last."""
    siblings = _listed_by_function().get(nodeid.split("[", 1)[0])
    if siblings:
        return sum(siblings) / len(siblings)
    path = nodeid.split("::", 1)[0]
    return GUESS if path not in _listed_files() and _file_says(path, _STARTS_SOMETHING) else FAST


_SHARED_FIXTURE = re.compile(r"scope\s*=\s*[\"'](?:module|class|package)[\"']")


def work_unit(nodeid: str) -> str:
    """The unit pytest-xdist hands to one worker: the whole file when it defines a module- or class-scoped
    fixture (a gnubg engine, a replayed corpus, a served kiosk: made once), else the test alone."""
    path = nodeid.split("::", 1)[0]
    return path if _file_says(path, _SHARED_FIXTURE) else nodeid


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # the run without pytest-xdist (an old .venv): one process, nothing to schedule
    pass
else:

    class _SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        _ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            # Longest expected work first (the greedy "longest processing time" order): the long rendered games
            # and page walks start at once and the many short tests fill the gaps, instead of one long test
            # starting last and running alone. Ties keep xdist's order.
            if not self._ordered:
                units = sorted(self.workqueue.items(), key=lambda unit: -expected_cost(unit[1]))
                self.workqueue.clear()
                self.workqueue.update(units)
                self._ordered = True
            super()._assign_work_unit(node)

    @pytest.hookimpl(optionalhook=True)  # known only while xdist is loaded (not with -p no:xdist)
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        # ./dev test runs `-n auto --dist loadscope`: loadscope's work units, made by work_unit above (xdist's
        # loadgroup marks do not reach its scheduler under pytest 9). Every other --dist is xdist's own.
        if config.getvalue("dist") == "loadscope":
            return _SharedFixtureScheduling(config, log)
        return None


_measured: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # On the controller this sees every worker's reports: set-up, call and tear-down add up per test.
    _measured[report.nodeid] = _measured.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    if session.config.getoption("--store-durations") and not hasattr(session.config, "workerinput"):
        slow = {n: round(s, 1) for n, s in sorted(_measured.items()) if s >= SLOW}
        # A file whose every test was short is listed by its path alone (its tests' total): known, so _guess
        # takes its tests for the short ones they are.
        files: dict[str, float] = {}
        for nodeid, seconds in _measured.items():
            files[nodeid.split("::", 1)[0]] = files.get(nodeid.split("::", 1)[0], 0.0) + seconds
        listed = {n.split("::", 1)[0] for n in slow}
        slow.update({path: round(seconds, 1) for path, seconds in files.items() if path not in listed})
        DURATIONS.write_text(json.dumps(dict(sorted(slow.items())), indent=0) + "\n", "utf-8")
    # The page tests share one Chromium per worker (tests/kiosk/browser.py); close it with the session.
    browser = sys.modules.get("tests.kiosk.browser")
    if browser is not None:
        browser.close_browser()


@pytest.fixture(scope="session", autouse=True)
def pin_hash_at_test_cost() -> Iterator[None]:
    """PINs hashed at tests/pin_cost.py's TEST_SCRYPT for the session (the PIN's own tests put the real cost back)."""
    yield from scrypt_cost(TEST_SCRYPT)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout; tests that need it skip with a message when it is absent."""
    return datasets.shared_dir()


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The .mat/SGF samples shipped in tests/data/samples (a copy of ../shared/matches/samples)."""
    return datasets.SAMPLES
