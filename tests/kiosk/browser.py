"""Headless Debian Chromium through Playwright, or a pytest skip saying why it cannot run."""

from __future__ import annotations

import os
import time
from collections import deque
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


class PageLog:
    """What a page said and lost while a test drove it: its console's errors and warnings, its uncaught errors,
    its failed requests, its WebSockets (opened, frames received, errors, closed) and a crash, each with the
    seconds since the page was opened. `chromium_page` adds it to a failure raised inside its `with`, so a page
    that never drew a state says why (a script that did not load, a socket refused or closed, an error in the
    page). Playwright sends the console and failed requests only to a listener, and they are few on a page
    that works: a passing test pays for a handful of events."""

    KEEP = 60  # the last entries (a socket reconnecting each second for a minute is 60 lines)

    def __init__(self, page: Any) -> None:
        self.start = time.monotonic()
        self.lines: deque[str] = deque(maxlen=self.KEEP)
        self.dropped = 0
        self.errors: list[str] = []  # console errors and page errors, all kept (page_errors)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._error(f"page error: {error}"))
        page.on("requestfailed", lambda request: self._add(
            f"request failed: {request.method} {request.url}: {request.failure}"))
        page.on("websocket", self._websocket)
        page.on("crash", lambda _: self._add("the page crashed"))

    def _add(self, line: str) -> None:
        if len(self.lines) == self.KEEP:
            self.dropped += 1
        self.lines.append(f"{time.monotonic() - self.start:7.2f} s  {line}")

    def _error(self, line: str) -> None:
        self.errors.append(line)
        self._add(line)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self._error(f"console error: {message.text} {message.location.get('url', '')}")
        elif message.type == "warning":
            self._add(f"console warning: {message.text}")

    def _websocket(self, ws: Any) -> None:
        frames = [0]
        self._add(f"WebSocket opened: {ws.url}")

        def received(_: Any) -> None:
            if frames[0] == 0:
                self._add(f"WebSocket's first frame: {ws.url}")
            frames[0] += 1

        ws.on("framereceived", received)
        ws.on("socketerror", lambda error: self._add(f"WebSocket error: {ws.url}: {error}"))
        ws.on("close", lambda _: self._add(f"WebSocket closed: {ws.url} after {frames[0]} frames"))

    def report(self, page: Any) -> str:
        head = f"the page {page.url}, {time.monotonic() - self.start:.1f} s after it opened"
        if not self.lines:
            return f"{head}: no console error or warning, page error, failed request or WebSocket"
        dropped = f" ({self.dropped} earlier lines dropped)" if self.dropped else ""
        return "\n".join([f"{head}: what it said and lost{dropped}", *self.lines])


@contextmanager
def logged(page: Any) -> Iterator[Any]:
    """`page`, whose log (PageLog) is added as a note to a failure raised inside the `with` (an exception, an
    assert, pytest.fail)."""
    log = _LOGS[id(page)] = PageLog(page)
    try:
        yield page
    except (Exception, pytest.fail.Exception) as exc:
        exc.add_note(log.report(page))
        raise
    finally:
        del _LOGS[id(page)]


_LOGS: dict[int, PageLog] = {}  # the open pages' logs, by page


def page_errors(page: Any) -> list[str]:
    """The console errors and uncaught errors of a page opened by `chromium_page` or `full_chromium_page` so far."""
    return list(_LOGS[id(page)].errors)


@contextmanager
def chromium_page(width: int = 1280, height: int = 720, locale: str = "pt-PT") -> Iterator[Any]:
    """A fresh page in a context of its own (no cookies, storage or cache from another test) on the worker's
    Chromium. A failure inside the `with` carries the page's log (PageLog) as a note."""
    context = _browser().new_context(viewport={"width": width, "height": height}, locale=locale)
    try:
        with logged(context.new_page()) as page:
            yield page
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
        with logged(context.new_page()) as page:
            yield page
    finally:
        browser.close()


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
