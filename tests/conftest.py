"""Options shared by every test package.

``--soak`` (or GAMAO_SOAK=1) turns on the long fuzz and soak runs; the default run keeps a shorter version.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests import datasets


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False, help="run the long soak and fuzz tests")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--soak"):
        os.environ["GAMAO_SOAK"] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``./dev test`` runs ``-n auto --dist loadgroup``) the tests of a file that share a
    module- or class-scoped fixture (a gnubg engine, a replayed corpus, a served kiosk) go to one worker
    together, so the fixture is made once; every other test goes to whichever worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        for name in info.names_closure:
            defs = info.name2fixturedefs.get(name)
            if defs and defs[-1].scope in ("module", "class", "package"):
                item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
                break


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
