"""Headless Debian Chromium through Playwright, or a pytest skip saying why it cannot run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GAMAO_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def chromium_or_skip() -> str:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}: run `apt-get install -y chromium fonts-dejavu-core` "
                    "(./dev test does it) to run the page tests")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright for Python is not installed: pip install -e '.[test]'")
    return CHROMIUM


_SHARED: dict[str, Any] = {}  # this process's Playwright and Chromium: one browser per test worker


def _browser() -> Any:
    """The worker's Chromium, launched at its first page test (28 launches were 28 s of the default run) and
    launched again if a test brought it down."""
    from playwright.sync_api import sync_playwright

    path = chromium_or_skip()
    browser = _SHARED.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    if "playwright" not in _SHARED:
        _SHARED["playwright"] = sync_playwright().start()
    _SHARED["browser"] = _SHARED["playwright"].chromium.launch(executable_path=path, args=ARGS, headless=True)
    return _SHARED["browser"]


def close_browser() -> None:
    """Close the worker's Chromium (tests/conftest.py calls it when the session ends)."""
    browser, pw = _SHARED.pop("browser", None), _SHARED.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if pw is not None:
            pw.stop()


@contextmanager
def chromium_page(width: int = 1280, height: int = 720, locale: str = "pt-PT") -> Iterator[Any]:
    """A fresh page in a context of its own (no cookies, storage or cache from another test) on the worker's
    Chromium."""
    context = _browser().new_context(viewport={"width": width, "height": height}, locale=locale)
    try:
        yield context.new_page()
    finally:
        context.close()


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
