"""`gamao dice-stats PATH [--json] [--day YYYY-MM-DD] [--match ID] [--unit ID]`: are the dice fair?

PATH is the kiosk's data folder (its ``dice.jsonl``, kiosk/dicelog.py; a folder from before the log: its
journal's rolls) or a JSON-lines file of roll events as the dice bridge emits them (`gamao dice --json`).
``--json`` prints exactly ``core.match.dicestats.dice_stats`` of the rolls chosen (all of them, the unit's life,
unless ``--day``, ``--match`` or ``--unit`` narrows them); without it, a table for people. Exit 0, or 2 with one
line on stderr for a path or file it cannot use.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from cli import fail

NAME = "dice-stats"
HELP = "dice statistics: counts and chi-square tests per die, per pair and for doubles (are the dice fair?)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="the kiosk's data folder, or a JSON-lines file of roll events")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON (docs/CONTRACTS.md)")
    parser.add_argument("--day", metavar="YYYY-MM-DD", help="only the rolls of that day (the dice log's local day)")
    parser.add_argument("--match", type=int, metavar="ID", help="only the rolls of that match (journal id)")
    parser.add_argument("--unit", metavar="ID", help="only the rolls of that dice unit")


def _verdict(p: float) -> str:
    return "NOT like fair dice" if p < 0.001 else "doubtful" if p < 0.01 else "like fair dice"


def _table(stats: dict[str, Any], title: str) -> str:
    lines = [f"{title}: {stats['rolls']} rolls tested; {stats['cocked']} cocked (left out), "
             f"{stats['rerolls']} re-rolls after a cocked one, {stats['refused']} refused by the referee, "
             f"{stats['duplicates']} re-sent"]
    lines.append("          " + "".join(f"{f:>7}" for f in range(1, 7)) + "     chi2        p")
    for name, d in zip(("die 1", "die 2"), stats["dice"], strict=True):
        lines.append(f"  {name:<8}" + "".join(f"{c:>7}" for c in d["counts"])
                     + f" {d['chi2']:>8.2f} {d['p']:>8.4f}  {_verdict(d['p'])}")
    pairs, doubles = stats["pairs"], stats["doubles"]
    lines.append(f"  pairs (36 ordered): chi2 {pairs['chi2']:.2f}, p {pairs['p']:.4f}  {_verdict(pairs['p'])}")
    lines.append(f"  doubles: {doubles['count']} (expected {doubles['expected']:.1f}), p {doubles['p']:.4f}  "
                 f"{_verdict(doubles['p'])}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from core.match.dicestats import dice_stats
    from kiosk.dicelog import DiceLogError, iter_rolls

    if args.day is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.day):
        return fail("dice-stats", f"--day {args.day!r}: give a date as YYYY-MM-DD")
    # One roll at a time from the file into the counts: memory does not grow with the file (issue 34, finding 10).
    chosen = (r for r in iter_rolls(args.path)
              if (args.day is None or r.get("day") == args.day)
              and (args.match is None or r.get("match") == args.match)
              and (args.unit is None or r.get("unit") == args.unit))
    try:
        stats = dice_stats(chosen)
    except DiceLogError as exc:
        return fail("dice-stats", str(exc))
    except OSError as exc:
        return fail("dice-stats", f"{args.path}: cannot read it: {exc.strerror or exc}")
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:  # never a traceback, whatever the file
        return fail("dice-stats", f"{args.path}: {exc}")
    if args.json:
        print(json.dumps(stats))
        return 0
    scope = ", ".join(s for s in (args.day and f"day {args.day}", args.match is not None and f"match {args.match}",
                                  args.unit and f"unit {args.unit}") if s) or "all rolls"
    print(_table(stats, f"{args.path} ({scope})"))
    if stats["rolls"] < 600:
        print("  (fewer than 600 rolls: the tests can only catch a grossly unfair unit)")
    return 0
