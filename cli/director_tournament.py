"""`gamao director --data-dir DIR tournament ...`: the club's tournament night from the command line.

create, enter, withdraw, result, length, show, export (docs/CONTRACTS.md, "The club's tournament night").
Each prints one JSON object with --json: the tournament as core/match/brackets.py's ``view()`` gives it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from cli import fail

FORMATS = ("double_elimination", "consolation", "last_chance", "progressive", "swiss", "round_robin")
PIN_ENV = "GAMAO_DIRECTOR_PIN"


def add_parser(actions: Any) -> None:
    tour = actions.add_parser("tournament", help="the club's tournament night: create, results, show, export")
    sub = tour.add_subparsers(dest="tournament_action", metavar="WHAT", required=True)
    create = sub.add_parser("create", help="draw a new tournament")
    create.add_argument("tname", metavar="NAME")
    create.add_argument("--format", required=True, choices=FORMATS, dest="tformat")
    create.add_argument("--players", required=True, help='the players, comma-separated: "Ana,Bruno,Carla"')
    create.add_argument("--length", type=int, help="the main bracket's match length (default 5; the others 2 less)")
    create.add_argument("--seed", type=int, default=0, help="the draw's seed (default 0)")
    create.add_argument("--losses", type=int, default=3, help="modified Swiss: out at this many losses (default 3)")
    create.add_argument("--rule-set", choices=("casual", "tournament_usbgf", "tournament_ukbgf", "lesson"),
                        help="the boards' rule set and clock for every match (docs/tournament.md)")
    result = sub.add_parser("result", help="enter (or correct) a match's result by hand (the director's PIN)")
    result.add_argument("tname", metavar="NAME")
    result.add_argument("match", metavar="MATCH_ID")
    result.add_argument("--winner", required=True, metavar="PLAYER")
    result.add_argument("--score", required=True, metavar="A-B")
    enter = sub.add_parser("enter", help="a late entry")
    enter.add_argument("tname", metavar="NAME")
    enter.add_argument("player", metavar="PLAYER")
    withdraw = sub.add_parser("withdraw", help="a player leaves: the matches not played are walkovers")
    withdraw.add_argument("tname", metavar="NAME")
    withdraw.add_argument("player", metavar="PLAYER")
    length = sub.add_parser("length", help="shorter (or longer) matches in a bracket from a round on")
    length.add_argument("tname", metavar="NAME")
    length.add_argument("--bracket", default="main")
    length.add_argument("--length", type=int, required=True, dest="new_length")
    length.add_argument("--from-round", type=int, default=1)
    unassign = sub.add_parser("unassign", help="take a match off its board (a board that broke down): the desk "
                                                "sends it to a free board again")
    unassign.add_argument("tname", metavar="NAME")
    unassign.add_argument("match", metavar="MATCH_ID")
    show = sub.add_parser("show", help="the tournament: matches, standings, champion")
    show.add_argument("tname", metavar="NAME", nargs="?", help="(without: the list of tournaments)")
    export = sub.add_parser("export", help="the night's end: results, every .mat in one zip, ratings, bracket SVG")
    export.add_argument("tname", metavar="NAME")
    export.add_argument("out_dir", metavar="OUT_DIR")
    for p in (create, result, enter, withdraw, length, unassign, show, export):
        p.add_argument("--json", action="store_true", dest="tjson", help="print one JSON object")
    for p in (result, withdraw, length, unassign):
        p.add_argument("--pin", dest="tpin", help=f"the director's PIN, where one is set (or ${PIN_ENV})")


def _ratings(data: Path) -> dict[str, float]:
    """The club's rating list (club.sqlite), when the director has one."""
    from club.archive import FILE, Archive

    if not (data / FILE).is_file():
        return {}
    archive = Archive(data / FILE)
    try:
        return {r["name"]: float(r["rating"]) for r in archive.ratings()}
    finally:
        archive.close()


def _check_pin(data: Path, pin: str | None) -> str | None:
    """None when the PIN is right or none is set; otherwise why not."""
    from webguard.pin import PinError, PinStore

    pins = PinStore(data)
    if not pins.is_set():
        return None
    pin = pin if pin is not None else os.environ.get(PIN_ENV)
    if not pin:
        return f"the director's PIN is set: give it with --pin (or ${PIN_ENV})"
    try:
        pins.check(pin, None)
    except PinError as exc:
        return f"the director's PIN: {exc.message}"
    return None


def _print(view: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(view, ensure_ascii=False))
        return
    print(f"{view['name']} ({view['format']})" + (f": champion {view['champion']}" if view["champion"] else ""))
    for m in view["matches"]:
        where = f" [{m['board']}]" if m["board"] else ""
        res = f" -> {m['winner']} {m['score'] or ''}" if m["winner"] else f" ({m['status']})"
        print(f"  {m['id']:>7} {m['bracket']:<11} r{m['round']} {m['light'] or '?'} x {m['dark'] or '?'}{where}{res}")
    print("  standings: " + ", ".join(f"{r['player']} {r['wins']}-{r['losses']}" for r in view["standings"]))


def run(args: argparse.Namespace, data: Path) -> int:
    from club.tournament import Journal
    from core.match.brackets import TournamentError

    what = args.tournament_action
    try:
        data.mkdir(parents=True, exist_ok=True)
        journal = Journal(data)
    except OSError as exc:
        return fail("director tournament", f"cannot use the folder {data}: {exc.strerror or exc}")
    try:
        if what == "create":
            players = [p for p in (x.strip() for x in args.players.split(",")) if p]
            t = journal.create(args.tname, args.tformat, players, length=args.length, seed=args.seed,
                               losses=args.losses, ratings=_ratings(data), rule_set=args.rule_set)
        elif what == "show" and args.tname is None:
            names = journal.names()
            if args.tjson:
                print(json.dumps({"tournaments": names}, ensure_ascii=False))
            else:
                print("\n".join(names) or "no tournaments yet")
            return 0
        elif what == "show":
            t = journal.load(args.tname)
        elif what == "enter":
            t = journal.apply(args.tname, {"op": "enter", "player": args.player})
        else:
            if what in ("result", "withdraw", "length", "unassign"):
                why = _check_pin(data, args.tpin)
                if why is not None:
                    return fail(f"director tournament {what}", why, 1)
            if what == "result":
                t = journal.load(args.tname)
                source = "director" if args.match in {m["id"] for m in t.view()["matches"] if m["winner"]
                                                      and m["status"] == "done"} else "hand"
                t = journal.apply(args.tname, {"op": "result", "match": args.match, "winner": args.winner,
                                               "score": args.score, "source": source})
            elif what == "withdraw":
                t = journal.apply(args.tname, {"op": "withdraw", "player": args.player})
            elif what == "unassign":
                t = journal.apply(args.tname, {"op": "unassign", "match": args.match})
            elif what == "length":
                t = journal.apply(args.tname, {"op": "length", "bracket": args.bracket, "length": args.new_length,
                                               "from_round": args.from_round})
            else:
                from club.tournament_end import export

                t = journal.load(args.tname)
                written = export(t, data, Path(args.out_dir))
                view = t.view()
                view["files"] = [str(p) for p in written]
                _print(view, args.tjson)
                return 0
    except TournamentError as exc:
        return fail(f"director tournament {what}", str(exc))
    except OSError as exc:
        return fail(f"director tournament {what}", f"cannot write: {exc.strerror or exc}")
    finally:
        journal.close()
    _print(t.view(), args.tjson)
    sys.stdout.flush()
    return 0
