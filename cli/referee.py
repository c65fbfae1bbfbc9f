"""`gamao referee EVENTS.jsonl [--json] [--lang pt|en]`: rule on a recorded event stream.

Reads one event per line (docs/CONTRACTS.md; "-" reads standard input), feeds them to the referee and
prints its verdicts: with ``--json`` one JSON object per line, each with the index of the event that
caused it; otherwise one plain sentence per verdict. A timed match (``rules.clock``) ends the output with
the clock after the last event: with ``--json`` one line ``{"clock": {...}}`` (``public_state()["clock"]``). Exit status: 0 when no verdict was ``illegal`` or
``unplayed_die``, 1 when some was, 2 on bad input (the error names the line).

The file is read twice, line by line, never whole: first every line is checked (so bad input prints no
verdict at all), then the events are fed to the referee. Standard input is spooled to a temporary file
for that. Memory stays bounded whatever the file's size; a line longer than
``core.referee.events.MAX_LINE`` is refused by its number.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from core.referee import Referee
from core.referee.events import Event, EventError, bounded_lines, read_lines

NAME = "referee"
HELP = "rule on an event stream (rolls, boards, cube): print the referee's verdicts"
FAULTS = ("illegal", "unplayed_die")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("events", metavar="EVENTS.jsonl", help="event stream, one JSON object per line ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="one JSON verdict per line")
    parser.add_argument("--lang", choices=("pt", "en"), default="en", help="language of the plain output (default en)")


def _events(fh: IO[str]) -> Iterator[Event]:
    fh.seek(0)
    return read_lines(bounded_lines(fh))


def _open(source: str) -> IO[str]:
    if source != "-":
        return Path(source).open(encoding="utf-8", newline=None)
    spool = tempfile.TemporaryFile("w+", encoding="utf-8")
    shutil.copyfileobj(sys.stdin, spool, 1 << 16)
    return spool


def run(args: argparse.Namespace) -> int:
    name = "stdin" if args.events == "-" else args.events
    try:
        with _open(args.events) as fh:
            for _ in _events(fh):  # every line checked before any verdict is printed
                pass
            return _rule(_events(fh), args)
    except FileNotFoundError:
        print(f"gamao referee: {name}: no such file; give the path of an events .jsonl file", file=sys.stderr)
    except IsADirectoryError:
        print(f"gamao referee: {name}: is a folder; give the path of an events .jsonl file", file=sys.stderr)
    except UnicodeError:  # a file that is not UTF-8, or stdin's undecodable bytes met spooling it
        print(f"gamao referee: {name}: not UTF-8 text; an events file is JSON lines", file=sys.stderr)
    except EventError as exc:
        print(f"gamao referee: {name}: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"gamao referee: {name}: cannot read it: {exc.strerror or exc}", file=sys.stderr)
    return 2


def _rule(events: Iterator[Event], args: argparse.Namespace) -> int:
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
    clock = ref.public_state().get("clock")
    if clock is not None:  # a timed match: the clock after the last event, as the kiosk's state has it
        if args.json:
            print(json.dumps({"clock": clock}, ensure_ascii=False))
        else:
            left = " ".join(f"{s} {int(clock[s]) // 60}:{int(clock[s]) % 60:02d}" for s in ("light", "dark"))
            print(f"clock: {left}, running: {clock['running'] or 'none'}")
    return 1 if faults else 0
