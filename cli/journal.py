"""`gamao journal DIR`: the journal's health, its salvage, and a safe backup while the kiosk runs.

    gamao journal DIR [--salvage] [--json]
    gamao journal DIR --backup FILE

``--json`` prints exactly ``{"healthy": bool, "salvaged_from": path or null, "matches": [{"id", "players",
"length", "score", "finished", "events"}]}``; what was lost goes to stderr, one line each. Exit 0 when the
journal is healthy or was repaired with nothing lost, 1 when something was lost (or is damaged and --salvage
was not given), 2 when DIR holds no journal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cli import fail

NAME = "journal"
HELP = "check the kiosk's journal of games (DIR/journal.sqlite), salvage a damaged one, or back it up safely"
JOURNAL = "journal.sqlite"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", metavar="DIR", help="the kiosk's data folder (the one holding journal.sqlite)")
    parser.add_argument("--salvage", action="store_true",
                        help="repair a damaged journal: move it aside with a timestamp and copy every readable "
                             "event into a new one (stop the kiosk first; it also does this by itself at start)")
    parser.add_argument("--json", action="store_true", help="print the health and the matches as JSON")
    parser.add_argument("--backup", metavar="FILE",
                        help="copy the journal to FILE with SQLite's backup API (safe while the kiosk runs, "
                             "unlike copying the file, which misses what is still in its WAL)")


def journal_path(folder: str) -> Path | None:
    path = Path(folder)
    if path.is_file() and path.suffix == ".sqlite":
        return path
    candidate = path / JOURNAL
    return candidate if candidate.is_file() else None


def run(args: argparse.Namespace) -> int:
    path = journal_path(args.dir)
    if path is None:
        print(f"gamao journal: {args.dir} holds no journal ({JOURNAL}); give the kiosk's data folder "
              "(`gamao run --check` names it)", file=sys.stderr)
        return 2
    if args.backup:
        return backup(path, Path(args.backup))
    from kiosk.journal import JournalError, write_mark
    from kiosk.journal_health import inspect, salvage

    health = inspect(path)
    if args.salvage and health.damaged:
        try:
            salvage(path, health)
        except JournalError as exc:
            print(f"gamao journal: {exc}", file=sys.stderr)
            return 1
    elif args.salvage and health.went_back:
        write_mark(path, len(health.events), max(health.match_ids(), default=None))  # the loss is known now
    if health.damaged and not health.salvaged_from:
        matches = _summaries_from(health)
    else:
        matches = _summaries(path)
    lost = health.lost
    repaired = health.healthy or (args.salvage and not lost)
    if args.json:
        print(json.dumps({"healthy": health.healthy, "salvaged_from": health.salvaged_from, "matches": matches},
                         ensure_ascii=False))
        for problem in health.problems:
            print(f"gamao journal: {problem}", file=sys.stderr)
        for line in lost:
            print(f"gamao journal: lost {line}", file=sys.stderr)
    else:
        print(health.summary())
        for m in matches:
            p = m["players"]
            print(f"  match {m['id']}: {p.get('light')} - {p.get('dark')}, {m['length'] or 'unlimited'} point(s), "
                  f"score {m['score']['light']}-{m['score']['dark']}, {m['events']} events"
                  f"{', finished' if m['finished'] else ''}")
        if health.damaged and not args.salvage:
            print(f"Repair it with `gamao journal {args.dir} --salvage` (with the kiosk stopped), or start the "
                  "kiosk, which salvages it by itself.")
    return 0 if repaired else 1


def _summary(match_id: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    from core.referee import Referee

    ref = Referee()
    for event in events:
        try:
            ref.feed(event)
        except Exception:  # noqa: BLE001 - a referee bug on one event must not hide the rest of the journal
            continue
    state = ref.public_state()
    return {"id": match_id, "players": dict(state["match"]["players"]), "length": state["match"]["length"],
            "score": dict(state["match"]["score"]), "finished": state["phase"] == "match_over", "events": len(events)}


def _summaries(path: Path) -> list[dict[str, Any]]:
    from kiosk.journal import Journal

    journal = Journal(path)
    try:
        return [_summary(m["id"], list(journal.events(m["id"]))) for m in journal.matches()]
    finally:
        journal.close()


def _summaries_from(health: Any) -> list[dict[str, Any]]:
    return [_summary(m, health.match_events(m)) for m in health.match_ids()]


def backup(path: Path, target: Path) -> int:
    """SQLite's online backup: a consistent copy including what is still in the WAL."""
    import sqlite3
    from urllib.parse import quote

    from kiosk.journal_health import backup_sqlite

    if target.exists() and target.resolve() == path.resolve():
        return fail("journal", "--backup FILE must not be the journal itself")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        events, matches = backup_sqlite(f"file:{quote(str(path))}?mode=rw", target, ("events", "matches"))
    except (sqlite3.Error, OSError) as exc:
        print(f"gamao journal: cannot back up {path} to {target}: {exc}. If the journal is damaged, "
              f"`gamao journal {path.parent} --salvage` first", file=sys.stderr)
        return 1
    print(f"backed up {events} events in {matches} matches from {path} to {target}")
    return _backup_students(path.parent, target)


def _backup_students(folder: Path, target: Path) -> int:
    """The students' drills and cards (kiosk/students.py, issue 38) beside the journal's copy, when the data folder
    has them: FILE-students.sqlite."""
    import sqlite3

    from kiosk.students import STUDENTS, backup_students, students_backup_name

    source = folder / STUDENTS
    if not source.exists():
        return 0
    copy = students_backup_name(target)
    try:
        n = backup_students(source, copy)
    except (sqlite3.Error, OSError) as exc:
        print(f"gamao journal: cannot back up {source} to {copy}: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {n} students from {source} to {copy}")
    return 0
