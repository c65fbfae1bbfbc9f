"""`gamao director`: every board of the club on one page (club/director.py, club/web.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli import fail

NAME = "director"
HELP = "the club director's page: every board's match live from the MQTT broker, results and .mat files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", metavar="URL",
                        help="the club's broker: mqtt://[user:password@]host[:1883] or mqtts://... (TLS); without a "
                             "user, the director's own from `broker-config` (needed unless pairing)")
    parser.add_argument("--port", type=int, default=8080, help="port for the director's page (default 8080)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--club", default="+", help="only this club's boards (default: every club on the broker)")
    parser.add_argument("--data-dir", metavar="DIR", help="archive folder (default: <data folder>/director)")
    parser.add_argument("--ca", metavar="FILE", help="the club's CA certificate for mqtts:// (docs/club.md)")
    parser.add_argument("--pin", help="set the director's PIN (4-8 digits) for rename and close; kept hashed")
    parser.add_argument("--league-director", action="store_true",
                        help="run as the league's director: every club's boards from the league's broker, checked with "
                             "the keys the clubs gave (`league pair`), one rating list (club/league.py)")
    parser.add_argument("--broadcast-port", type=int, metavar="PORT",
                        help="also serve the broadcast alone on this port (overlay, /live/ files; read-only, no PIN, "
                             "no control, behind the delay): the address to give a streamer or the world")
    parser.add_argument("--run-league-bridge", metavar="CONF",
                        help="run the league bridge's own Mosquitto (OUT_DIR/league-bridge/mosquitto.conf from "
                             "`broker-config --league`) and restart it when it stops answering; its state on the page "
                             "(club/league_watch.py; on the broker's machine)")
    parser.add_argument("--trust-proxy", metavar="ADDRS",
                        help="addresses of a reverse proxy whose X-Forwarded-For is believed (comma-separated); "
                             "by default no proxy header is trusted")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    pair = actions.add_parser("pair", help="pair a board: issue its name, broker user and password, and signing key")
    pair.add_argument("name", help="the board's name (1-40 letters, digits, '-' or '_'); also its broker user")
    pair.add_argument("--club", dest="pair_club", help="the club the board belongs to (default: club, or the "
                                                        "board's own with --again)")
    pair.add_argument("--broker", dest="pair_broker", metavar="URL",
                      help="the broker's URL to write into the credentials (without user and password)")
    pair.add_argument("--again", action="store_true", help="issue new credentials to a board paired already")
    pair.add_argument("--json", action="store_true", help="print the credentials as one JSON object")
    conf = actions.add_parser("broker-config", help="write a Mosquitto configuration for the paired boards")
    conf.add_argument("out_dir", metavar="OUT_DIR", help="folder for mosquitto.conf, passwd, acl (and tls/)")
    conf.add_argument("--listen", default="0.0.0.0:8883", metavar="HOST:PORT",
                      help="where the broker listens (default 0.0.0.0:8883)")
    conf.add_argument("--no-tls", action="store_true",
                      help="plain MQTT (only for a broker listening on loopback; docs/club.md)")
    conf.add_argument("--tls-host", metavar="NAME", help="the broker's host name in its certificate")
    conf.add_argument("--league", metavar="FILE",
                      help="the league's pairing of this club (JSON from `league pair`): add Mosquitto's bridge to the "
                           "league's broker (club/league.py)")
    conf.add_argument("--league-ca", metavar="FILE", help="the league broker's CA certificate (mqtts://)")
    conf.add_argument("--league-relay", default="127.0.0.1:8884", metavar="HOST:PORT",
                      help="a TLS league: where the league bridge's own Mosquitto listens (loopback; default "
                           "127.0.0.1:8884)")
    keys = actions.add_parser("league-keys", help="this club's boards and keys as JSON, for the league (`league pair`)")
    keys.add_argument("--club", dest="keys_club", help="only this club's boards (default: every paired board)")
    league = actions.add_parser("league", help="the league's side: pair a club, write the league broker's config")
    league_actions = league.add_subparsers(dest="league_action", metavar="ACTION", required=True)
    lpair = league_actions.add_parser("pair", help="pair a club: its bridge's user and password (JSON)")
    lpair.add_argument("club", help="the club's name")
    lpair.add_argument("keys", metavar="KEYS_JSON", help="the club's `league-keys` output")
    lpair.add_argument("--broker", dest="league_broker", required=True, metavar="URL",
                       help="the league broker's address as the club's broker reaches it (mqtt[s]://HOST:PORT)")
    lpair.add_argument("--again", action="store_true", help="the club's boards' keys again (same password)")
    lconf = league_actions.add_parser("broker-config", help="write the league broker's configuration")
    lconf.add_argument("out_dir", metavar="OUT_DIR")
    lconf.add_argument("--listen", default="0.0.0.0:8883", metavar="HOST:PORT",
                       help="where the clubs' bridges connect (default 0.0.0.0:8883, TLS)")
    lconf.add_argument("--no-tls", action="store_true",
                       help="plain MQTT for the clubs (only on a network of your own; docs/league.md)")
    lconf.add_argument("--tls-host", metavar="NAME", help="the league broker's host name in its certificate")
    lconf.add_argument("--director-listen", default="127.0.0.1:1883", metavar="HOST:PORT",
                       help="with TLS: a plain listener for the league's own director on this machine "
                            "(default 127.0.0.1:1883)")
    lfix = league_actions.add_parser("fixture", help="an inter-club match night: home club, away club, pairings "
                                                     "(JSON; club/league_night.py)")
    lfix.add_argument("fixture", metavar="FIXTURE_JSON",
                      help='{"id", "home", "away", "start", "length", "pairings": [{"club", "board", "home", "away"}]}')
    lfix.add_argument("--again", action="store_true", help="replace the fixture with the same id")
    from cli.director_tournament import add_parser

    add_parser(actions)  # `tournament create|result|show|...` (cli/director_tournament.py)


def _data_dir(args: argparse.Namespace) -> Path:
    from kiosk.config import default_data_dir

    return Path(args.data_dir).expanduser() if args.data_dir else default_data_dir() / "director"


def _pair(args: argparse.Namespace) -> int:
    import json

    from club.config import Broker, ClubConfigError
    from club.pairing import Pairing

    try:
        if args.pair_broker:
            b = Broker.parse(args.pair_broker)
            args.pair_broker = f"{'mqtts' if b.tls else 'mqtt'}://{b.host}:{b.port}"
        cred = Pairing(_data_dir(args)).pair(args.name, args.pair_club, args.pair_broker, again=args.again)
    except ClubConfigError as exc:
        return fail("director pair", str(exc))
    except OSError as exc:
        return fail("director pair", f"cannot write {_data_dir(args)}: {exc.strerror or exc}")
    if args.json:
        print(json.dumps(cred))
    else:
        print(f"board {cred['board']} paired in club {cred['club']}: broker user {cred['username']}, password "
              f"{cred['password']}, key {cred['key']}\nwrite the broker's configuration again "
              "(`gamao director broker-config OUT_DIR`) and reload the broker")
    return 0


def _broker_config(args: argparse.Namespace) -> int:
    from club.broker_config import BROKER_USER, broker_owner, closed_to, write_broker_config
    from club.config import ClubConfigError
    from club.pairing import Pairing

    pairing = Pairing(_data_dir(args))
    try:
        conf = write_broker_config(pairing, args.out_dir, listen=args.listen, tls=not args.no_tls,
                                   tls_host=args.tls_host)
    except ClubConfigError as exc:
        return fail("director broker-config", str(exc))
    except (OSError, RuntimeError) as exc:
        return fail("director broker-config", f"cannot write {args.out_dir}: {exc}")
    if args.league:
        import json
        import subprocess

        from club.league import write_league_bridge, write_link
        try:
            cred = json.loads(Path(args.league).read_text(encoding="utf-8"))
            # a TLS league: the bridge in a Mosquitto of its own (OUT_DIR/league-bridge), the club's broker bridged
            # to it on loopback (docs/league.md, "A limit found")
            text, relay = write_league_bridge(str(cred.get("club")), cred, args.out_dir, ca_file=args.league_ca,
                                              relay=args.league_relay)
            write_link(_data_dir(args), cred)  # the director checks the league's asks with it (club/league.py)
        except (OSError, ValueError, AttributeError, KeyError, subprocess.SubprocessError) as exc:
            return fail("director broker-config", f"--league {args.league}: {exc}")
        with conf.open("a", encoding="utf-8") as f:
            f.write(text)
        conf.chmod(0o600)  # the bridge's password is in it (Mosquitto reads it before dropping to its user)
        if relay is not None:
            print(f"{relay}: the league's TLS bridge, a Mosquitto of its own on {args.league_relay}: start it too, "
                  f"`mosquitto -c {relay}`, or let the director run and watch it (`gamao director ... "
                  f"--run-league-bridge {relay}`)")
    print(f"{conf} ({len(pairing.boards())} paired boards and the director); start it with `mosquitto -c {conf}`, "
          "or reload a running one (SIGHUP)")
    closed = closed_to(broker_owner(), conf.parent)
    if closed is not None:
        print(f"gamao director broker-config: warning: Mosquitto drops to the user {BROKER_USER!r}, who cannot reach "
              f"{closed} (closed to it), so it cannot open these files there: write them where it can (e.g. "
              f"/etc/mosquitto/gamao), or copy the folder there keeping its owners (cp -a)", file=sys.stderr)
    return 0


def _league(args: argparse.Namespace) -> int:
    import json
    import subprocess

    from club.config import ClubConfigError
    from club.league import League, club_keys, write_league_config
    from club.league_night import FixtureError
    from club.pairing import Pairing

    try:
        if args.action == "league-keys":
            print(json.dumps(club_keys(Pairing(_data_dir(args)), args.keys_club)))
            return 0
        league = League(_data_dir(args))
        if args.league_action == "pair":
            try:
                keys = json.loads(Path(args.keys).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                return fail("director league pair", f"cannot read {args.keys}: {exc}")
            if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
                return fail("director league pair", f"{args.keys} must be a JSON object of board names to keys")
            print(json.dumps(league.pair_club(args.club, keys, broker=args.league_broker, again=args.again)))
            return 0
        if args.league_action == "fixture":
            try:
                raw = json.loads(Path(args.fixture).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                return fail("director league fixture", f"cannot read {args.fixture}: {exc}")
            print(json.dumps(league.add_fixture(raw, again=args.again)))
            return 0
        conf = write_league_config(league, args.out_dir, listen=args.listen, tls=not args.no_tls,
                                   tls_host=args.tls_host, local=args.director_listen)
        print(f"{conf} ({len(league.clubs())} clubs and the league director)")
        return 0
    except (ClubConfigError, FixtureError) as exc:
        return fail("director league", str(exc))
    except (OSError, subprocess.SubprocessError) as exc:  # openssl missing or failing (the league's certificates)
        return fail("director league", f"cannot write: {exc}")


def run(args: argparse.Namespace) -> int:
    if args.action in ("league", "league-keys"):
        return _league(args)
    if args.action == "pair":
        return _pair(args)
    if args.action == "broker-config":
        return _broker_config(args)
    if args.action == "tournament":
        from cli.director_tournament import run as tournament

        return tournament(args, _data_dir(args))
    from club.config import Broker, ClubConfigError, check_name

    if not args.broker:
        print("gamao director: --broker URL is needed (the club's broker, e.g. mqtts://clube.local:8883)",
              file=sys.stderr)
        return 2
    try:
        broker = Broker.parse(args.broker, ca_file=args.ca)
        if broker.username is None:  # the director's own user from pairing.json (`broker-config` wrote it)
            from club.league import League
            from club.pairing import Pairing

            own = (League(_data_dir(args)) if args.league_director else Pairing(_data_dir(args))).director()
            broker = Broker.parse(args.broker, own["username"], own["password"], ca_file=args.ca)
        if args.club != "+":
            check_name("club", args.club)
    except ClubConfigError as exc:
        return fail("director", str(exc))
    if not 0 <= args.port <= 65535:
        return fail("director", f"--port must be 0-65535, not {args.port}")
    if args.broadcast_port is not None and not 0 <= args.broadcast_port <= 65535:
        return fail("director", f"--broadcast-port must be 0-65535, not {args.broadcast_port}")
    from webguard.pin import PinStore

    data = _data_dir(args)
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail("director", f"cannot use the archive folder {data}: {exc.strerror or exc}")
    pins = PinStore(data)
    if args.pin is not None:
        try:
            pins.set(args.pin)
        except ValueError as exc:
            return fail("director", f"--pin: {exc}")

    import time

    from club.broadcast import create_broadcast_app
    from club.director import Director
    from club.live import Live
    from club.tournament import Journal
    from club.tournament_boards import Desk
    from club.tournament_web import add_routes
    from club.web import create_app
    from webguard.server import BackgroundServer

    if args.league_director:
        from club.league import League

        director = Director(broker, data, club="+", pairing=League(data)).start()  # type: ignore[arg-type]
    else:
        director = Director(broker, data, club=args.club).start()
    if args.run_league_bridge:
        import logging

        from club.league_watch import BridgeWatch
        try:
            watch = BridgeWatch(Path(args.run_league_bridge).expanduser(), log_file=data / "league-bridge.log")
        except ValueError as exc:
            director.close()
            return fail("director", f"--run-league-bridge: {exc}")
        said = logging.getLogger("club.league_watch")  # its starts and restarts in the director's output
        said.addHandler(logging.StreamHandler())
        said.setLevel(logging.INFO)
        director.league_watch = watch.start()
        import signal

        def stop(*_: object) -> None:  # systemd's stop or kill: close as Ctrl-C does, the bridge's Mosquitto with it
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
    desk = Desk(director, Journal(data)).start()  # the tournament night (issue 39): matches to boards, results back
    app = create_app(director, pins)
    add_routes(app, desk)
    try:
        server = BackgroundServer(app, host=args.host, port=args.port,
                                  log_level="warning", trust_proxy=args.trust_proxy).start()
    except (RuntimeError, TimeoutError) as exc:
        desk.close()
        director.close()
        print(f"gamao director: {exc}; is the port taken? try --port {args.port + 1}", file=sys.stderr)
        return 1
    print(f"Gamão club director on http://{args.host}:{server.port}/ (broker {broker.display()}, "
          f"archive {data / 'club.sqlite'})", flush=True)
    broadcast = None
    if args.broadcast_port is not None:
        try:
            cast = Live(director)
            cast.auto = desk.featured_match  # board=featured follows the tournament's match that matters most
            broadcast = BackgroundServer(create_broadcast_app(cast), host=args.host,
                                         port=args.broadcast_port, log_level="warning",
                                         trust_proxy=args.trust_proxy).start()
        except (RuntimeError, TimeoutError) as exc:
            print(f"gamao director: the broadcast: {exc}", file=sys.stderr)
        else:
            print(f"broadcast (read-only) on http://{args.host}:{broadcast.port}/overlay?board=featured and "
                  f"/live/", flush=True)
    try:
        while server.thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        if broadcast is not None:
            broadcast.stop()
        server.stop()
        desk.close()
        desk.journal.close()
        director.close()
    return 0
