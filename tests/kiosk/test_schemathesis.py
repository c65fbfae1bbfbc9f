"""Schemathesis against the kiosk's OpenAPI schema: no input, authorised or not, makes a 5xx.

Bounded for the default run (at most 60 examples per operation, about 10 operations, ~10 s).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from kiosk.config import Settings
from kiosk.main import create_app
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService

_data = Path(tempfile.mkdtemp(prefix="gamao-schemathesis-"))
app = create_app(Settings(data_dir=_data, language="en", pin_max_failures=10**9), service=FakeService())
app.state.pins.set(PIN)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.exclude(path="/api/pin").parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_with_the_pin(case) -> None:
    # With the right PIN the bodies reach the handlers, which is where a 5xx could hide. POST /api/pin is
    # left to the run without a PIN: with it, every example would change the PIN under the others.
    case.call_and_validate(headers={"X-Gamao-PIN": PIN}, checks=[not_a_server_error])


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_without_the_pin(case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
