"""Headless Debian Chromium through Playwright, or a pytest skip saying why it cannot run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

# The page tests drive Debian's headless shell of the same Chromium (package chromium-headless-shell: Blink, V8
# and the same version as the kiosk's browser, without the full browser's windowing and services; ./dev test
# installs it). Measured here on test_page.py and the page walk's size/language walks (19 tests, one process, the
# same minute, twice each): 46.9 / 45.6 s of CPU with /usr/bin/chromium, 27.9 / 28.0 s with the shell; the whole
# run 322 -> 257 s of pytest. The Pi's kiosk runs the full Chromium: test_full_chromium.py draws the page in it.
# Where the shell is not installed the full Chromium runs every page test; GAMAO_CHROMIUM names another.
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("GAMAO_CHROMIUM") or (HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else FULL_CHROMIUM)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def chromium_or_skip(path: str = CHROMIUM) -> str:
    if not Path(path).exists():
        pytest.skip(f"Chromium is not installed at {path}: run `apt-get install -y chromium fonts-dejavu-core` "
                    "(./dev test does it) to run the page tests")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright for Python is not installed: pip install -e '.[test]'")
    return path


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


@contextmanager
def full_chromium_page(width: int = 800, height: int = 480, locale: str = "pt-BR") -> Iterator[Any]:
    """A page in the full Chromium (the browser the Pi's kiosk runs), launched for this page alone when the other
    page tests run on the headless shell."""
    if CHROMIUM == FULL_CHROMIUM:
        with chromium_page(width, height, locale) as page:
            yield page
        return
    chromium_or_skip(FULL_CHROMIUM)
    _browser()  # the worker's Playwright (one per process)
    browser = _SHARED["playwright"].chromium.launch(executable_path=FULL_CHROMIUM, args=ARGS, headless=True)
    try:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        yield context.new_page()
    finally:
        browser.close()


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
