"""Schemathesis against the kiosk's OpenAPI schema: no input, authorised or not, makes a 5xx.

Path parameters also get values outside what the schema allows (a hook): integers of any size and sign,
long digit strings, "NaN", "1e400". Generated from the schema alone, `GET /api/matches/{match_id}/export.mat`
only ever saw short ids and missed the 500 that `99999999999999999999` gave (SQLite's OverflowError).
The real referee service and journal answer, so the exports replay real matches.

Bounded for the default run (at most 60 examples per operation, about 10 operations, ~15 s).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeCamera

_data = Path(tempfile.mkdtemp(prefix="gamao-schemathesis-"))
_service = RefereeService(_data / "journal.sqlite")
_service.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bia"}})
_service.submit({"event": "roll", "dice": [3, 1]})
app = create_app(Settings(data_dir=_data, language="en", pin_max_failures=10**9), service=_service,
                 camera=FakeCamera())
app.state.pins.set(PIN)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

HOSTILE_PARAMETER = st.one_of(
    st.integers().map(str),
    st.integers(min_value=2**63 - 2, max_value=10**40).map(str),
    st.integers(min_value=-(10**40), max_value=0).map(str),
    st.text(alphabet="0123456789", min_size=19, max_size=5000),
    st.sampled_from(["0", "-0", "00", "01", "1e400", "NaN", "Infinity", "current ", "CURRENT", "%00"]),
)


@schema.hook("flatmap_path_parameters")
def hostile_path_parameters(ctx, path_parameters):  # type: ignore[no-untyped-def]
    """Each path parameter: the generated value, or a hostile one."""
    if not path_parameters:
        return st.just(path_parameters)
    return st.fixed_dictionaries({k: st.one_of(st.just(v), HOSTILE_PARAMETER) for k, v in path_parameters.items()})


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
