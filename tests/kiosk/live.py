"""A kiosk served for a page test: the real service on a journal in the test's folder, the app with the PIN set,
and a real HTTP server on a free loopback port."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.kiosk.browser import chromium_or_skip
from tests.kiosk.conftest import PIN


@contextmanager
def live_kiosk(tmp_path: Path, *, monotonic: Callable[[], float] = time.monotonic, ticks: bool = False,
               **app_options: Any) -> Iterator[tuple[str, RefereeService, Any]]:
    """The served kiosk's URL, its service and its app (Portuguese, the PIN set); the service is closed after."""
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite", monotonic=monotonic, ticks=ticks)
    try:
        app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, **app_options)
        app.state.pins.set(PIN)
        with BackgroundServer(app) as server:
            try:
                yield server.url, service, app
            except (Exception, pytest.fail.Exception) as exc:
                exc.add_note(served(server))
                raise
    finally:
        service.close()


def served(server: BackgroundServer) -> str:
    """The server's side of a failed page test (told after the page has closed): the connections it refused
    (webguard's per-client and total caps) and whether its thread still runs."""
    return (f"the server {server.url}: {server.connections.refused} connections refused, "
            f"thread {'running' if server.thread.is_alive() else 'ended'}")
