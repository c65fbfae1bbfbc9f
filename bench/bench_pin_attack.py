"""The kiosk's PIN against 60 addresses (network namespaces, root): wrong PINs checked per hour, and the owner's
control latency on the kiosk's own screen during the attack.

    sudo .venv/bin/python bench/bench_pin_attack.py [--seconds 60] [--code OTHER_CHECKOUT]

`--code DIR` serves the kiosk from another checkout (e.g. `git worktree add /tmp/before <commit>`) for a
before/after comparison; the attack itself is tests/kiosk/netns.py. Also measured: the owner's latency with
no attack.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--code", metavar="DIR", help="serve the kiosk from this checkout (before/after)")
    args = parser.parse_args()
    code = Path(args.code).resolve() if args.code else ROOT
    sys.path.insert(0, str(code))
    sys.path.insert(1, str(ROOT))
    from kiosk.config import Settings
    from kiosk.main import create_app
    from tests.kiosk import netns  # from `code` when it has one (the same attack)
    from tests.kiosk.fakes import FakeService

    why = netns.available()
    if why is not None:
        print(f"bench_pin_attack: {why}", file=sys.stderr)
        return 2
    pin = "4321"
    app = create_app(Settings(data_dir=Path(tempfile.mkdtemp(prefix="gamao-pin-")), language="en"),
                     service=FakeService(), coach_engine=None)
    app.state.pins.set(pin)
    quiet = netns.measure(app, pin, 6.0, count=0, root=str(ROOT))["owner"]
    result = netns.measure(app, pin, args.seconds, count=args.clients, root=str(ROOT))
    print(json.dumps({"code": str(code), "owner_without_attack": quiet, **result}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
