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


@contextmanager
def chromium_page(width: int = 1280, height: int = 720, locale: str = "pt-PT") -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    path = chromium_or_skip()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=ARGS, headless=True)
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
