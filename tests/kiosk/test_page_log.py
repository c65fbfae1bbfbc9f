"""A page test that fails says what the page said and lost (tests/kiosk/browser.py PageLog) and what the server
refused (tests/kiosk/live.py): issue 35, a page that never drew a state under load left only "Timeout 60000ms
exceeded" to go on."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kiosk.browser import chromium_page
from tests.kiosk.live import live_kiosk


class Failed(Exception):
    pass


def test_a_failure_inside_the_page_carries_its_errors_failed_requests_sockets_and_the_servers_refusals(
        tmp_path: Path) -> None:
    with pytest.raises(Failed) as failed, live_kiosk(tmp_path) as (url, _, _), chromium_page(800, 480) as page:
        page.route("**/lost", lambda route: route.abort())
        page.goto(url + "/")
        page.wait_for_selector("body[data-renders]", state="attached")  # the state came over /ws
        with page.expect_event("requestfailed"):
            page.evaluate("fetch('/lost').catch(() => null)")
        with page.expect_event("console"), page.expect_event("pageerror"):
            page.evaluate("console.error('a console error'); setTimeout(() => { throw new Error('an error'); })")
        raise Failed("the test failed here")
    notes = "\n".join(getattr(failed.value, "__notes__", []))
    assert f"the page {url}/, " in notes, notes
    assert f"request failed: GET {url}/lost: net::ERR_FAILED" in notes, notes
    assert "console error: a console error" in notes, notes
    assert "page error: an error" in notes, notes
    assert f"WebSocket opened: {url.replace('http', 'ws')}/ws\n" in notes + "\n", notes
    assert f"WebSocket's first frame: {url.replace('http', 'ws')}/ws" in notes, notes
    assert f"the server {url}: 0 connections refused, thread running" in notes, notes


def test_a_page_that_said_nothing_says_so() -> None:
    with pytest.raises(pytest.fail.Exception) as failed, chromium_page(800, 480):
        pytest.fail("before the page was opened anywhere")
    assert getattr(failed.value, "__notes__", []) == [
        "the page about:blank, " + failed.value.__notes__[0].split(", ", 1)[1]]
    assert failed.value.__notes__[0].endswith(
        ": no console error or warning, page error, failed request or WebSocket"), failed.value.__notes__
