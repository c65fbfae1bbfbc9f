"""Options shared by every test package.

``--soak`` (or GAMAO_SOAK=1) turns on the long fuzz and soak runs; the default run keeps a shorter version.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False, help="run the long soak and fuzz tests")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--soak"):
        os.environ["GAMAO_SOAK"] = "1"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout; tests that need it skip with a message when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is missing: put the project's shared/ folder beside the checkout")
    return SHARED
