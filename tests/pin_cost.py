"""The control PIN's scrypt cost in tests. webguard/pin.py hashes a PIN at n 2^14, r 8 (~16 MB, 55 ms here); the tests
hash at 1/16 of that (n 2^10, 1 MB, 2.4 ms; the same function, and the record keeps its n, r, p, so checks use it
too), as Django advises for password hashers in tests. tests/conftest.py sets the test cost for the session; the
PIN's own tests (tests/kiosk/test_pin.py, test_pin_netns.py), which measure the owner's latency and the attack
bounds, put the production cost back for their module. The tests in tests/kiosk, club and cli hash 410 PINs in
process, 118 of them in those two files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webguard import pin as pin_module

PRODUCTION_SCRYPT = dict(pin_module._SCRYPT)  # read at import, before any test changes it
TEST_SCRYPT = {**PRODUCTION_SCRYPT, "n": 2**10}


def scrypt_cost(cost: dict[str, int]) -> Iterator[None]:
    """The body of a fixture: webguard/pin.py hashes new PINs at ``cost`` until the fixture ends."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pin_module, "_SCRYPT", cost)
        yield
