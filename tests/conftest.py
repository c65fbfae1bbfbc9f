"""Options shared by every test package.

``--soak`` (or GAMAO_SOAK=1) turns on the long fuzz and soak runs; the default run keeps a shorter version.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import datasets


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False, help="run the long soak and fuzz tests")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--soak"):
        os.environ["GAMAO_SOAK"] = "1"


_SHARED_FIXTURE = re.compile(r"scope\s*=\s*[\"'](?:module|class|package)[\"']")


@functools.cache
def _shares_a_fixture(path: str) -> bool:
    try:
        return bool(_SHARED_FIXTURE.search((Path(__file__).resolve().parents[1] / path).read_text("utf-8")))
    except OSError:
        return False


def work_unit(nodeid: str) -> str:
    """The unit pytest-xdist hands to one worker: the whole file when it defines a module- or class-scoped
    fixture (a gnubg engine, a replayed corpus, a served kiosk: made once), else the test alone."""
    path = nodeid.split("::", 1)[0]
    return path if _shares_a_fixture(path) else nodeid


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # the run without pytest-xdist (an old .venv): one process, nothing to schedule
    pass
else:

    class _SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    @pytest.hookimpl(optionalhook=True)  # known only while xdist is loaded (not with -p no:xdist)
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        # ./dev test runs `-n auto --dist loadscope`: loadscope's work units, made by work_unit above (xdist's
        # loadgroup marks do not reach its scheduler under pytest 9). Every other --dist is xdist's own.
        if config.getvalue("dist") == "loadscope":
            return _SharedFixtureScheduling(config, log)
        return None


def pytest_sessionfinish(session: pytest.Session) -> None:
    # The page tests share one Chromium per worker (tests/kiosk/browser.py); close it with the session.
    browser = sys.modules.get("tests.kiosk.browser")
    if browser is not None:
        browser.close_browser()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout; tests that need it skip with a message when it is absent."""
    return datasets.shared_dir()


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The .mat/SGF samples shipped in tests/data/samples (a copy of ../shared/matches/samples)."""
    return datasets.SAMPLES


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The whole corpus of ../shared when beside the checkout, else the matches in tests/data/corpus."""
    return datasets.CORPUS
