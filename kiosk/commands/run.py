"""`gamao run`: the appliance. Camera, dice, GPIO and rules come from the config file."""

from __future__ import annotations

import argparse
import sys

NAME = "run"
HELP = "run the kiosk on the real appliance (camera, dice unit, buttons); --check tests each part"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML or JSON settings (see kiosk/deploy/gamao.toml)")
    parser.add_argument("--check", action="store_true", help="test each part, say what is missing, and exit")
    parser.add_argument("--host", help="address to serve on (default from the config: 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to serve on (default from the config: 8000)")


def run(args: argparse.Namespace) -> int:
    from kiosk.config import ConfigError, Settings

    try:
        settings = Settings.load(args.config) if args.config else Settings()
    except ConfigError as exc:
        print(f"gamao run: {exc}", file=sys.stderr)
        return 2
    if args.host:
        settings.host = args.host
    if args.port:
        settings.port = args.port

    from kiosk.checks import run_checks, summary

    checks = run_checks(settings)
    report, status = summary(checks)
    if args.check:
        print(report)
        return status
    if any(c.blocks_start for c in checks if not c.ok):
        print(report, file=sys.stderr)
        print("gamao run: not starting; fix the parts above, or try `gamao demo` on simulated hardware.",
              file=sys.stderr)
        return 1
    if status:
        # A camera or dice unit can be plugged in later (the dice link keeps trying): start, and say so.
        print(report, file=sys.stderr)

    import uvicorn

    from kiosk.main import create_app

    print(f"Gamão kiosk on http://{settings.host}:{settings.port}/", flush=True)
    from kiosk.server import WS

    if settings.club:
        print(f"club: publishing to {settings.club.get('broker')} as board {settings.club.get('board')}", flush=True)
    uvicorn.run(create_app(settings, hardware=True, service_factory=_club_service), host=settings.host,
                port=settings.port, log_level="info", ws=WS)
    return 0


def _club_service(settings: object) -> object:
    """The kiosk's own service, plus the club publisher when the config names a broker (club/publisher.py)."""
    from club.publisher import start_publisher
    from kiosk.main import default_service_factory

    service = default_service_factory(settings)  # type: ignore[arg-type]
    start_publisher(settings, service)
    return service
