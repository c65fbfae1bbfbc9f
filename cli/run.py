"""`gamao run`: the appliance. Camera, dice, GPIO and rules come from the config file."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cli import fail

if TYPE_CHECKING:
    from kiosk.config import Settings
    from kiosk.service import RefereeService

NAME = "run"
HELP = "run the kiosk on the real appliance (camera, dice unit, buttons); --check tests each part"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML or JSON settings (see kiosk/deploy/gamao.toml)")
    parser.add_argument("--check", action="store_true", help="test each part, say what is missing, and exit")
    parser.add_argument("--host", help="address to serve on (default from the config: 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to serve on (default from the config: 8000)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="folder for the journal, the archive (DIR/archive/) and the PIN (default from the config)")


def run(args: argparse.Namespace) -> int:
    from kiosk.config import ConfigError, Settings

    try:
        settings = Settings.load(args.config) if args.config else Settings()
    except ConfigError as exc:
        return fail("run", str(exc))
    if args.host:
        settings.host = args.host
    if args.port:
        settings.port = args.port
    if args.data_dir:
        from pathlib import Path

        settings.data_dir = Path(args.data_dir).expanduser()

    from kiosk.checks import run_checks, summary

    checks = run_checks(settings, thorough=args.check)
    report, status = summary(checks, settings.language)
    if args.check:
        print(report)
        return status
    if any(c.blocks_start for c in checks if not c.ok):
        print(report, file=sys.stderr)
        from kiosk.checks import t

        print(f"gamao run: {t('not_starting', settings.language)}", file=sys.stderr)
        return 1
    if status:
        # A camera or dice unit can be plugged in later (the dice link keeps trying): start, and say so.
        print(report, file=sys.stderr)

    import logging

    from kiosk.journal import JournalError
    from kiosk.main import create_app
    from kiosk.pin import PinStore, ask_first_pin
    from kiosk.server import serve

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    try:  # the journal is checked (and salvaged when damaged) before anything is served
        service = open_service(settings)
    except JournalError as exc:
        print(f"gamao run: not starting: {exc}", file=sys.stderr)
        return 1
    for notice in service.state().get("notices", []):
        print(f"gamao run: {notice['message']['en']}", file=sys.stderr, flush=True)
    if sys.stdin.isatty():
        ask_first_pin(PinStore(settings.data_dir))  # else the first PIN is set on the touch screen
    print(f"Gamão kiosk on http://{settings.host}:{settings.port}/", flush=True)
    if settings.club:
        print(f"club: publishing to {settings.club.get('broker')} as board {settings.club.get('board')}", flush=True)
    try:
        serve(create_app(settings, service=service, hardware=True), settings.host, settings.port)
    finally:
        service.close()
    return 0


def open_service(settings: Settings) -> RefereeService:
    """The kiosk's service on the data folder's journal (checked, and salvaged when damaged; JournalError
    when it cannot be used), publishing copies to the club's broker when the config has a [club] table."""
    from club.publisher import start_publisher
    from kiosk.main import JOURNAL
    from kiosk.service import RefereeService

    service = RefereeService(settings.data_dir / JOURNAL)
    publisher = start_publisher(settings, service)  # nothing without a [club] table (docs/club.md)
    if publisher is not None:
        from kiosk.tournament_board import TournamentBoard

        # the director's tournament calls (issue 39): the board takes only what its paired key verifies
        board = TournamentBoard(service, publisher, settings.data_dir).start()
        service.at_close(board.close)
        service.tournament_board = board  # type: ignore[attr-defined]  # the app's voice says the calls
    return service
