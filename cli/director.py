"""`gamao director`: every board of the club on one page (club/director.py, club/web.py)."""

from __future__ import annotations

import argparse
import sys

NAME = "director"
HELP = "the club director's page: every board's match live from the MQTT broker, results and .mat files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", metavar="URL", required=True,
                        help="the club's broker: mqtt://[user:password@]host[:1883] or mqtts://... (TLS)")
    parser.add_argument("--port", type=int, default=8080, help="port for the director's page (default 8080)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--club", default="+", help="only this club's boards (default: every club on the broker)")
    parser.add_argument("--data-dir", metavar="DIR", help="archive folder (default: <data folder>/director)")
    parser.add_argument("--ca", metavar="FILE", help="the club's CA certificate for mqtts:// (docs/club.md)")
    parser.add_argument("--pin", help="set the director's PIN (4-8 digits) for rename and close; kept hashed")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from club.config import Broker, ClubConfigError, check_name

    try:
        broker = Broker.parse(args.broker, ca_file=args.ca)
        if args.club != "+":
            check_name("club", args.club)
    except ClubConfigError as exc:
        print(f"gamao director: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"gamao director: --port must be 0-65535, not {args.port}", file=sys.stderr)
        return 2
    from kiosk.config import default_data_dir
    from kiosk.pin import PinStore

    data = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir() / "director"
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"gamao director: cannot use the archive folder {data}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    pins = PinStore(data)
    if args.pin is not None:
        try:
            pins.set(args.pin)
        except ValueError as exc:
            print(f"gamao director: --pin: {exc}", file=sys.stderr)
            return 2

    import time

    from club.director import Director
    from club.web import create_app
    from kiosk.server import BackgroundServer

    director = Director(broker, data, club=args.club).start()
    try:
        server = BackgroundServer(create_app(director, pins), host=args.host, port=args.port,
                                  log_level="warning").start()
    except (RuntimeError, TimeoutError) as exc:
        director.close()
        print(f"gamao director: {exc}; is the port taken? try --port {args.port + 1}", file=sys.stderr)
        return 1
    print(f"Gamão club director on http://{args.host}:{server.port}/ (broker {broker.display()}, "
          f"archive {data / 'club.sqlite'})", flush=True)
    try:
        while server.thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        director.close()
    return 0
