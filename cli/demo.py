"""`gamao demo`: the whole system on simulated hardware; prints the kiosk's address."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cli import fail
from core.referee.games import MATCH_VARIANTS

NAME = "demo"
HELP = "play a real recorded match on simulated dice and camera, and serve the kiosk page"
DEMO_PIN = "1234"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8000, help="port for the kiosk page (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--speed", type=float, default=1.0, help="playing speed; 2 is twice as fast (default 1)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    parser.add_argument("--match", choices=["3pt", "2pt"], default="3pt",
                        help="3pt: cube, Crawford, gammon, resignation (default); 2pt: shorter")
    parser.add_argument("--mat", metavar="FILE", help="play this recorded match (.mat) instead of --match")
    parser.add_argument("--chouette", action="store_true",
                        help="a chouette of five players (R26-R29) over three generated games, with doubles the "
                             "crew members answer differently, instead of the recorded match")
    parser.add_argument("--no-vision", action="store_true", help="send boards straight in (no rendering)")
    parser.add_argument("--variant", choices=[v for v in MATCH_VARIANTS if v != "standard"],
                        help="play a generated game of one of the seeds' other games (R30-R32) with a fault of its "
                             "own kind, instead of the recorded match (a Russian game's camera first sees "
                             "backgammon's start, to learn the checkers' colours)")
    parser.add_argument("--no-dice", action="store_true", help="send rolls straight in (no dice simulator)")
    parser.add_argument("--versus", choices=["gnubg"],
                        help="play a 3-point match against GNU Backgammon on the simulated board (kiosk/versus.py): "
                             "the demo's own player plays the other side, rolls for both and moves the engine's "
                             "checkers as it says")
    parser.add_argument("--level", default="expert",
                        choices=["beginner", "casual", "intermediate", "advanced", "expert", "worldclass",
                                 "supremo", "grandmaster"], help="GNU Backgammon's level with --versus (default expert)")
    parser.add_argument("--versus-side", choices=["light", "dark"], default="dark",
                        help="GNU Backgammon's side with --versus (default dark)")
    parser.add_argument("--exit-when-done", action="store_true",
                        help="stop when the match is over (by default the match starts again, so the screen "
                             "always shows a game in progress)")
    parser.add_argument("--language", choices=["pt", "en"], help="screen language (default: the browser's; the calls in Portuguese)")
    parser.add_argument("--start-now", action="store_true",
                        help="start the match at once (by default the demo waits for the first kiosk page to connect, "
                             "so the opening and the cocked die are seen; --exit-when-done, a run that nobody "
                             "watches to its end, starts at once too, unless --wait-for-page)")
    parser.add_argument("--wait-for-page", action="store_true",
                        help="with --exit-when-done: still wait for the first kiosk page before starting")
    voice = parser.add_argument_group("voice", "the referee's spoken calls (espeak-ng, pt-br or en)")
    voice.add_argument("--silent", action="store_true", help="no spoken calls (they are on by default)")
    voice.add_argument("--speak-to", metavar="DIR",
                       help="also write each call as DIR/0001.wav with its text in DIR/0001.txt (and DIR/calls.jsonl)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="keep the journal, the archive (DIR/archive/) and the PIN in DIR (default: a fresh "
                             "temporary folder; a restarted club board resumes sending from it)")
    club = parser.add_argument_group("club", "publish this simulated board to a club's broker (docs/club.md)")
    club.add_argument("--board", help="the board's name in the club (with --broker)")
    club.add_argument("--broker", metavar="URL", help="mqtt://[user:password@]host[:port] or mqtts://... (TLS)")
    club.add_argument("--club", default="club", help="the club's name in the topics (default: club)")
    club.add_argument("--ca", metavar="FILE", help="the club's CA certificate for mqtts://")
    club.add_argument("--credentials", metavar="FILE",
                      help="the board's credentials from `gamao director pair NAME --json` (board, club, broker user "
                           "and password, and the key its messages are signed with)")
    club.add_argument("--tournament", action="store_true",
                      help="a tournament night's board: wait for the director's signed start command, say the call "
                           "and play each match it sends (kiosk/tournament_board.py)")
    club.add_argument("--tournament-mats", metavar="DIR",
                      help="recorded matches (.mat) the board plays its tournament matches from, by length "
                           "(default: the two bundled with the kiosk)")


def run(args: argparse.Namespace) -> int:
    import tempfile
    import time
    import webbrowser
    from pathlib import Path

    from kiosk.config import Settings
    from kiosk.demo import DemoRunner, FirstPage
    from kiosk.main import create_app
    from kiosk.server import BackgroundServer

    if args.speed <= 0:
        return fail("demo", "--speed must be above 0 (1 is real time, 2 twice as fast)")
    record = None
    if args.mat:
        from core.errors import GamaoError
        from core.match.formats.mat import read_mat
        from core.match.formats.variant import MAGIC
        from core.match.replay import replay

        try:
            text = Path(args.mat).read_text(encoding="utf-8", errors="replace")
            if text.lstrip("\ufeff \t\r\n").startswith(MAGIC):
                # Not a .mat: read as one it would play garbage. The demo plays a variant's generated game instead.
                print(f"gamao demo: --mat {args.mat}: a Gamão variant record, not a .mat: the demo plays a variant "
                      "with --variant NAME (`gamao replay` checks the record)", file=sys.stderr)
                return 2
            record = read_mat(text)
            replay(record)
        except (OSError, GamaoError, ValueError) as exc:
            return fail("demo", f"--mat {args.mat}: cannot play this match: {exc}")
    if bool(args.board) != bool(args.broker):
        return fail("demo", "--board and --broker go together (a board's name and its club's broker)")
    if args.tournament and not args.broker:
        return fail("demo", "--tournament needs --board and --broker (the director's commands come over the club's "
                            "broker)")
    club = ({"broker": args.broker, "club": args.club, "board": args.board,
             **({"ca_file": args.ca} if args.ca else {})} if args.broker else {})
    if args.broker and args.credentials:
        # the paired board's own name, club, user, password and key (a --board that differs is refused below)
        club = {"credentials": args.credentials, "broker": args.broker, **({"ca_file": args.ca} if args.ca else {})}
        from club.config import ClubConfigError, read_credentials

        try:
            if read_credentials(args.credentials)["board"] != args.board:
                print(f"gamao demo: --credentials {args.credentials} are board "
                      f"{read_credentials(args.credentials)['board']!r}'s, not {args.board!r}", file=sys.stderr)
                return 2
        except ClubConfigError as exc:
            return fail("demo", str(exc))
    data = Path(args.data_dir).expanduser() if args.data_dir else Path(tempfile.mkdtemp(prefix="gamao-demo-data-"))
    from kiosk.config import ConfigError

    try:
        settings = Settings(data_dir=data, host=args.host, port=args.port, language=args.language or "", club=club)
    except ConfigError as exc:
        return fail("demo", str(exc))
    from club.publisher import start_publisher
    from kiosk.journal import JournalError
    from kiosk.service import RefereeService

    try:
        data.mkdir(parents=True, exist_ok=True)
        service = RefereeService(data / "journal.sqlite")
    except (JournalError, OSError) as exc:
        return fail("demo", f"cannot use the data folder {data}: {exc}")
    for notice in service.state().get("notices", []):
        print(f"  {notice['message']['en']}", flush=True)
    publisher = start_publisher(settings, service)
    if publisher is not None:
        print(f"club: board {args.board} publishing to {publisher.config.broker.display()} "
              f"(club {publisher.config.club})", flush=True)
    chouette = None
    if args.chouette:
        from kiosk.demo_chouette import ChouetteDemo

        chouette = ChouetteDemo()
    versus = None
    if args.versus:
        from engine.base import EngineUnavailable
        from kiosk.versus import VersusDemo

        try:
            versus = VersusDemo(service, args.level, args.versus_side, say=lambda text: print(f"  {text}", flush=True))
        except EngineUnavailable as exc:
            print(f"gamao demo: --versus gnubg: {exc}", file=sys.stderr)
            service.close()
            return 2
    try:
        runner = DemoRunner(service, match=args.match, record=record, speed=args.speed, vision=not args.no_vision,
                            dice=not args.no_dice, say=lambda text: print(f"  {text}", flush=True),
                            steps=chouette.steps if chouette else (versus.steps if versus else None),
                            variant=args.variant)
    except (RuntimeError, OSError) as exc:
        print(f"gamao demo: the simulated hardware did not start: {exc}", file=sys.stderr)
        return 1
    app = create_app(settings, service=service, camera=runner.camera)
    app.state.versus = versus.versus if versus is not None else None  # shown on the page (GET /api/versus)
    from kiosk.voice import Voice

    voice = Voice(settings.table_language, enabled=not args.silent, speak_to=args.speak_to).listen(service)
    app.state.voice = voice
    if voice.status == "missing":
        print("voice: espeak-ng is not installed (apt-get install espeak-ng); the calls stay silent", flush=True)
    pin = DEMO_PIN
    if app.state.pins.is_set():
        pin = f"the one already set in {data}"
    else:
        app.state.pins.set(DEMO_PIN)
    try:
        first_page = FirstPage(app)
        server = BackgroundServer(first_page, host=args.host, port=args.port,  # type: ignore[arg-type]
                                  log_level="warning").start()
    except (RuntimeError, TimeoutError) as exc:
        runner.close()
        print(f"gamao demo: {exc}; is the port taken? try --port {args.port + 1}", file=sys.stderr)
        return 1
    url = f"http://{args.host}:{server.port}/"
    print(f"Gamão demo: open {url}  (calibration page: {url}calibrate, control PIN {pin})", flush=True)
    print(f"Data folder: {data} (journal.sqlite, archive/)", flush=True)
    print("Dice: simulated unit on a pseudo-terminal" + (" (off)" if args.no_dice else "")
          + "; camera: synthetic renderer read by vision" + (" (off)" if args.no_vision else "") + ".", flush=True)
    if not args.no_browser and _has_display():
        webbrowser.open(url)
    if args.tournament:
        return _tournament_night(args, service, publisher, runner, voice, server, data)
    try:
        if not args.start_now and (args.wait_for_page or not args.exit_when_done):
            print(f"Waiting for the kiosk page at {url} before starting the match (--start-now starts at once).",
                  flush=True)
            while not first_page.connected.wait(0.2):
                pass
        runner.start()
        while not (args.exit_when_done and runner.done.is_set()):
            if runner.done.is_set() and not runner.stop_event.is_set():
                print("  match over; starting it again in 10 s (Ctrl-C to stop)", flush=True)
                if runner.stop_event.wait(10 / args.speed):
                    break
                runner.done.clear()
                runner.start()
            time.sleep(0.2)
        # The pages get the match's end before the server stops (a loaded machine's last push came too late).
        time.sleep(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        runner.close()
        server.stop()
        if versus is not None:
            versus.close()
        voice.wait_idle(10)
        voice.close()
    if voice.calls:
        from kiosk.voice import timings

        tm = timings(voice.calls)
        print(f"voice: {len(voice.calls)} calls; started {tm['start_median_ms']:.0f} ms after the verdict (median), "
              f"{tm['start_worst_ms']:.0f} ms (worst)" + (f"; WAV written {tm['wav_median_ms']:.0f} / "
              f"{tm['wav_worst_ms']:.0f} ms" if args.speak_to else ""), flush=True)
    if runner.camera is not None:
        cam = runner.camera
        print(f"vision read {cam.boards - cam.misread} of {cam.boards} boards exactly", flush=True)
    state = service.state()
    if state.get("chouette"):
        totals = ", ".join(f"{r['name']} {r['points']:+d}" for r in state["chouette"]["ledger"])
        print(f"chouette ledger: {totals} (sum {sum(r['points'] for r in state['chouette']['ledger'])})", flush=True)
    else:
        print(f"final score: {state['match']['score']}, phase {state['phase']}", flush=True)
    if publisher is not None and not publisher.wait_idle(10):
        print(f"club: {publisher.pending()} events not yet acknowledged by the broker; they stay in the journal's "
              "outbox and go out on the next start with --data-dir", flush=True)
    service.close()
    return 0


def _tournament_night(args: argparse.Namespace, service: Any, publisher: Any, runner: Any, voice: Any, server: Any,
                      data: Any) -> int:
    """`--tournament`: play what the director sends, until Ctrl-C (kiosk/tournament_board.py)."""
    import time

    from kiosk.tournament_board import TournamentBoard, demo_steps, records_by_length

    records = records_by_length(args.tournament_mats)

    def play(cmd: dict[str, Any]) -> None:
        if runner.done.is_set() or runner._thread is None:
            runner.steps = demo_steps(cmd, records, service)
            runner.done.clear()
            runner.start()

    board = TournamentBoard(service, publisher, data, voice=voice, play=play,
                            say=lambda text: print(f"  {text}", flush=True)).start()
    print(f"tournament: board {args.board} waits for the director's matches", flush=True)
    try:
        while True:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
        runner.close()
        server.stop()
        voice.wait_idle(10)
        voice.close()
        if publisher is not None and not publisher.wait_idle(10):
            print(f"club: {publisher.pending()} events not yet acknowledged by the broker", flush=True)
        service.close()
    print(f"tournament: {board.stats['started']} matches started, {board.stats['refused']} commands refused",
          flush=True)
    return 0


def _has_display() -> bool:
    """Only open a browser where one can show: without a desktop, webbrowser may start a text browser
    in this very terminal."""
    import os

    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
