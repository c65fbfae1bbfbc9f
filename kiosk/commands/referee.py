"""`gamao referee EVENTS.jsonl [--json] [--lang pt|en]`: rule on a recorded event stream.

Reads one event per line (docs/CONTRACTS.md; "-" reads standard input), feeds them to the referee and
prints its verdicts: with ``--json`` one JSON object per line, each with the index of the event that
caused it; otherwise one plain sentence per verdict. Exit status: 0 when no verdict was ``illegal`` or
``unplayed_die``, 1 when some was, 2 on bad input (the error names the line).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.referee import Referee
from core.referee.events import EventError, read_lines

NAME = "referee"
HELP = "rule on an event stream (rolls, boards, cube): print the referee's verdicts"
FAULTS = ("illegal", "unplayed_die")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("events", metavar="EVENTS.jsonl", help="event stream, one JSON object per line ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="one JSON verdict per line")
    parser.add_argument("--lang", choices=("pt", "en"), default="en", help="language of the plain output (default en)")


def _read(source: str) -> list[dict]:
    if source == "-":
        return list(read_lines(sys.stdin))
    path = Path(source)
    with path.open(encoding="utf-8") as fh:
        return list(read_lines(fh))


def run(args: argparse.Namespace) -> int:
    name = "stdin" if args.events == "-" else args.events
    try:
        events = _read(args.events)
    except FileNotFoundError:
        print(f"gamao referee: {name}: no such file; give the path of an events .jsonl file", file=sys.stderr)
        return 2
    except IsADirectoryError:
        print(f"gamao referee: {name}: is a folder; give the path of an events .jsonl file", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"gamao referee: {name}: not UTF-8 text; an events file is JSON lines", file=sys.stderr)
        return 2
    except EventError as exc:
        print(f"gamao referee: {name}: {exc}", file=sys.stderr)
        return 2
    ref = Referee()
    faults = 0
    for event in events:
        for verdict in ref.feed(event):
            if verdict["verdict"] in FAULTS:
                faults += 1
            if args.json:
                print(json.dumps(verdict, ensure_ascii=False))
            else:
                text = verdict.get("message", {}).get(args.lang, "")
                print(f"{verdict['at']:>5} {verdict['verdict']:<12} {text}")
    return 1 if faults else 0
