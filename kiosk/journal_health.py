"""A journal's health after a power cut or a bad card: ``inspect`` (SQLite's integrity check, every row read,
the mark beside it compared), ``salvage`` (the damaged file moved aside, every readable event copied into a new
journal in its place; kiosk/salvage.py reads the pages SQLite gives up on) and ``open_journal`` (the kiosk's
start: the journal opened, salvaged first when damaged, with what was kept and lost). The journal itself is
kiosk/journal.py.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from kiosk.journal import SCHEMA, Journal, JournalError, event_crc, read_mark, write_mark
from kiosk.salvage import read_raw


def backup_sqlite(source: str, target: Path, tables: tuple[str, ...]) -> list[int]:
    """SQLite's online backup of the database at the URI `source` (``file:...?mode=...``) to `target`, through
    ``target.tmp`` and checked by SQLite's integrity check: the copy's rows in each of `tables`. sqlite3.Error or
    OSError when it cannot be done (a failed check: sqlite3.DatabaseError, and no copy is left)."""
    tmp = target.with_name(target.name + ".tmp")
    tmp.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(source, uri=True)
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
            counts = [int(dst.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]) for table in tables]
        finally:
            dst.close()
            src.close()
        if check != "ok":
            raise sqlite3.DatabaseError(f"the copy failed SQLite's integrity check: {check}")
        tmp.replace(target)
    except (sqlite3.Error, OSError):
        tmp.unlink(missing_ok=True)
        raise
    return counts


@dataclass
class Health:
    """What ``inspect``/``open_journal`` found. ``events`` (match, seq) -> body of every readable event and
    ``matches`` id -> row (event texts are kept only for a damaged journal, to salvage them); ``problems`` what is wrong; ``lost`` what could not be kept (English lines);
    ``salvaged_from`` where the damaged file was moved."""

    path: str
    exists: bool = True
    healthy: bool = True
    damaged: bool = False     # the file itself: salvage it
    went_back: bool = False   # sound, but fewer events than at the last finished game
    unreadable: int = 0       # rows of a journal's shape whose bytes are damaged
    salvaged_up_to: int = 0   # matches up to this id were salvaged before: their gaps are known
    problems: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    lost_events: int = 0
    salvaged_from: str | None = None
    events: dict[tuple[int, int], tuple[float, str]] = field(default_factory=dict)
    matches: dict[int, tuple[float, int, dict[str, Any]]] = field(default_factory=dict)

    @property
    def something_lost(self) -> bool:
        return bool(self.lost)

    def match_events(self, match: int) -> list[dict[str, Any]]:
        return [json.loads(text) for (m, _seq), (_at, text) in sorted(self.events.items()) if m == match]

    def summary(self) -> str:
        """One paragraph for the log and the command line."""
        if not self.exists:
            return f"no journal at {self.path}" + (f" ({'; '.join(self.problems)})" if self.problems else "")
        kept = f"{len(self.events)} events in {len(self.match_ids())} matches"
        if self.healthy and not self.salvaged_from:
            return f"{self.path}: healthy, {kept}"
        parts = [f"{self.path}: {'; '.join(self.problems) or 'damaged'}"]
        if self.salvaged_from:
            parts.append(f"moved aside to {self.salvaged_from}; {kept} salvaged into a new journal")
        else:
            parts.append(f"{kept} readable")
        parts.append("lost: " + "; ".join(self.lost) if self.lost else "nothing lost")
        return ". ".join(parts)

    def match_ids(self) -> list[int]:
        return sorted({m for m, _ in self.events} | set(self.matches))


def _sql_rows(path: Path, health: Health, keep: bool, mode: str = "rw") -> bool:
    """Read every row through SQLite (integrity check first) into ``health``; False when SQLite cannot.
    ``keep``: keep the events' bodies (for a salvage), else only which events there are."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        health.problems.append(f"SQLite cannot open it ({exc})")
        return False
    db.text_factory = bytes
    ok = True
    try:
        result = [r[0].decode("utf-8", "replace") for r in db.execute("PRAGMA integrity_check").fetchall()]
        if result != ["ok"]:
            lines = [line.strip() for line in "\n".join(result).splitlines() if not line.startswith("***")]
            first = "; ".join(lines[:2])
            health.problems.append(f"SQLite's integrity check failed ({first[:160]})")
            ok = False
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {b"events", b"matches"} <= tables:
            health.problems.append("it is not a Gamão journal (no events or matches table)")
            return False
        for mid, started, length, players in db.execute("SELECT id, started, length, players FROM matches"):
            try:
                health.matches[int(mid)] = (float(started), int(length), json.loads(players.decode("utf-8")))
            except (ValueError, TypeError, AttributeError):
                health.problems.append(f"match {mid}'s row cannot be read")
                ok = False
        if b"salvages" in tables:  # gaps a salvage already reported are not news
            row = db.execute("SELECT MAX(last_match) FROM salvages").fetchone()
            health.salvaged_up_to = int(row[0] or 0)
        bad = 0
        columns = {r[1] for r in db.execute("PRAGMA table_info(events)")}
        crc = "crc" if b"crc" in columns or "crc" in columns else "NULL"
        for match, seq, at, body, stored in db.execute(f"SELECT match, seq, at, CAST(body AS BLOB), {crc} FROM events"):
            try:
                text = body.decode("utf-8")
                if stored is not None and stored != event_crc(match, seq, text):
                    raise ValueError("checksum")
                if not isinstance(json.loads(text), dict):
                    raise ValueError("not an event")
                health.events[(int(match), int(seq))] = (float(at), text if keep else "")
            except (ValueError, TypeError, AttributeError):
                bad += 1
        if bad:
            health.problems.append(f"{bad} event(s) cannot be read (damaged bytes)")
            ok = False
    except sqlite3.Error as exc:
        health.problems.append(f"SQLite cannot read it ({exc})")
        ok = False
    finally:
        db.close()
    return ok


def _wal(path: Path) -> Path:
    return Path(f"{path}-wal")


def inspect(path: str | Path) -> Health:
    """Check a journal without changing it: SQLite's integrity check, every row read, the mark compared.

    ``healthy`` is False when SQLite finds damage, a row cannot be read, the file is empty, or the journal
    holds fewer events than it did at the last finished game (its WAL lost). The readable rows are in
    ``events`` and ``matches`` (from the pages themselves when SQLite cannot read them).
    """
    path = Path(path)
    health = Health(str(path))
    if not path.exists():
        health.exists = False
        mark = read_mark(path)
        if mark is not None and mark["events"] > 0:  # it held games: the file itself was lost
            health.healthy, health.went_back = False, True
            health.problems.append(f"the journal file is missing, though it held {mark['events']} events")
            health.lost.append(f"{mark['events']} event(s): the whole journal")
            health.lost_events = mark["events"]
        return health
    wal = _wal(path)
    if path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size > 0):
        health.healthy, health.damaged = False, True
        health.problems.append("the journal file is empty (0 bytes)")
        health.lost.append("whatever the file held (it is empty)")
    else:
        # Read a copy: opening a damaged file may make SQLite roll its WAL into it, and this only looks.
        with tempfile.TemporaryDirectory(prefix="gamao-inspect-") as tmp:
            copy = Path(tmp) / "journal.sqlite"
            try:
                shutil.copyfile(path, copy)
                if wal.exists():
                    shutil.copyfile(wal, _wal(copy))
            except OSError:  # no room for a copy (the disk is full): look at the file itself
                if not path.is_file():
                    raise JournalError(f"cannot open the journal {path}: it is not a file") from None
                copy = path
            ok = _sql_rows(copy, health, keep=False)
            if not ok and copy != path:
                # A copy taken while the kiosk writes may be torn (the file copied mid-checkpoint, the WAL after it):
                # SQLite's own read of the live file, read-only (it writes nothing back), has the last word.
                live = Health(str(path))
                if _sql_rows(path, live, keep=False, mode="ro"):
                    health, ok = live, True
            if not ok:
                health.healthy, health.damaged = False, True
                problems = list(health.problems)
                health.events.clear()
                health.matches.clear()
                _sql_rows(copy, health, keep=True)  # what SQLite still reads, bodies kept, first
                health.problems = problems

                for rows in read_raw(copy):  # then the WAL's pages, then the main file's, page by page
                    for key, ev in rows.events.items():
                        health.events.setdefault(key, ev)
                    for key, m in rows.matches.items():
                        health.matches.setdefault(key, m)
                    health.unreadable = max(health.unreadable, rows.bad_cells)
    _losses(health, read_mark(path))
    return health


def _losses(health: Health, mark: dict[str, Any] | None) -> None:
    """Fill ``lost`` from gaps in each match's sequence and from the mark."""
    by_match: dict[int, list[int]] = {}
    for m, seq in health.events:
        by_match.setdefault(m, []).append(seq)
    for m in sorted(set(by_match) | set(health.matches)):
        if m <= health.salvaged_up_to:
            continue
        seqs = sorted(by_match.get(m, []))
        expected = set(range(seqs[-1] + 1)) if seqs else set()
        missing = sorted(expected - set(seqs))
        if not seqs:
            health.lost.append(f"every event of match {m}")
        elif missing:
            health.lost_events += len(missing)
            health.lost.append(f"{len(missing)} event(s) of match {m} (numbers {_ranges(missing)})")
    gaps = health.lost_events
    if mark is not None and mark["events"] > len(health.events):
        short = mark["events"] - len(health.events) - gaps
        health.went_back = not health.damaged
        if health.went_back:
            health.problems.append(f"the journal holds {len(health.events)} events but held {mark['events']} "
                                   "earlier (its WAL file was lost or the file was replaced)")
        if short > 0:
            health.lost_events += short
            health.lost.append(f"{short} event(s) recorded after the last readable one")
    if health.unreadable and not health.lost:
        health.lost.append(f"{health.unreadable} row(s) too damaged to read (which events they held is unknown)")
    if health.lost or health.problems:
        health.healthy = False


def _ranges(numbers: list[int]) -> str:
    out: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(out)


def salvage(path: str | Path, health: Health | None = None) -> Health:
    """Move a damaged journal aside (``journal.damaged-YYYYmmdd-HHMMSS.sqlite``, its WAL beside it) and put a
    new journal holding every readable event in its place. Returns the health with ``salvaged_from`` set.

    The new journal is written first and put in place only when complete, so a salvage that fails (disk full)
    leaves the damaged file where it was; JournalError then says why.
    """
    path = Path(path)
    health = health or inspect(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.stem}.damaged-{stamp}-{n}{path.suffix}")
    fresh = path.with_name(path.name + ".salvage")
    for leftover in (fresh, _wal(fresh), Path(f"{fresh}-shm")):
        leftover.unlink(missing_ok=True)
    try:
        db = sqlite3.connect(fresh, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        firsts: dict[int, tuple[float, str]] = {}
        for (m, seq), (at, text) in sorted(health.events.items()):
            firsts.setdefault(m, (at, text))
            db.execute("INSERT INTO events (match, seq, at, body, crc) VALUES (?, ?, ?, ?, ?)",
                       (m, seq, at, text, event_crc(m, seq, text)))
        for m in sorted(set(firsts) | set(health.matches)):
            if m in health.matches:
                started, length, players = health.matches[m]
            else:  # the match's row was lost: rebuilt from its first event
                at, first_text = firsts[m]
                first = json.loads(first_text)
                started, length = at, int(first.get("length") or 0) if first.get("event") == "new_match" else 0
                players = first.get("players") or {} if first.get("event") == "new_match" else {}
            db.execute("INSERT INTO matches (id, started, length, players) VALUES (?, ?, ?, ?)",
                       (m, started, length, json.dumps(players, ensure_ascii=False)))
        db.execute("INSERT INTO salvages (at, source, last_match, lost) VALUES (?, ?, ?, ?)",
                   (time.time(), str(aside), max(health.match_ids(), default=0), json.dumps(health.lost)))
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        for part, suffix in ((path, ""), (_wal(path), "-wal")):
            if part.exists():
                os.replace(part, f"{aside}{suffix}")
        Path(f"{path}-shm").unlink(missing_ok=True)
        _wal(fresh).unlink(missing_ok=True)
        Path(f"{fresh}-shm").unlink(missing_ok=True)
        os.replace(fresh, path)
    except (sqlite3.Error, OSError) as exc:
        fresh.unlink(missing_ok=True)
        raise JournalError(f"the journal {path} is damaged and the salvage could not write a new one ({exc}); "
                           "free some space or check the card, then start again") from None
    health.salvaged_from = str(aside)
    write_mark(path, len(health.events), max(health.match_ids(), default=None))
    return health


def open_journal(path: str | Path) -> tuple[Journal, Health]:
    """Open the kiosk's journal, salvaging it first when it is damaged (see ``salvage``)."""
    health = inspect(path)
    if health.damaged:
        salvage(path, health)
    journal = Journal(path)
    if health.went_back:  # the file is sound (or gone), only shorter than it was: nothing to move aside
        write_mark(path, len(health.events), max(health.match_ids(), default=None))
    return journal, health
