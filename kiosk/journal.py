"""The journal: every event, on disk, before the referee acts on it (never lose a game).

One SQLite file in WAL mode with ``synchronous=FULL``: an append returns only once the event is on the
disk, so a power cut loses at most an event that was never acknowledged. Events are grouped by match:
a ``new_match`` event opens a match, and every later event belongs to it. On start the service replays
the current match's events through a fresh referee and is exactly where it was.

Damage (an SD card after a power cut): ``inspect(path)`` runs SQLite's integrity check and reads every row;
``open_journal(path)`` salvages a damaged file (moved aside with a timestamp, every readable row copied into
a new journal, kiosk/salvage.py reads pages SQLite itself gives up on) and says what was kept and what was
lost. A small mark file beside the journal (``journal.sqlite.mark``, rewritten once a turn and at every game's
end) remembers how many events it held, so a journal that silently went back (its WAL lost) is noticed too.
A write that fails (disk full, read-only card) raises ``JournalWriteError``: nothing stored is touched and
the next append tries again.

Room kept for a full disk (issue 34, finding 7): beside the journal a file of `RESERVE_BYTES` zeros
(``journal.sqlite.reserve``) holds space on the card. When the disk fills, the first append that fails deletes
it, checkpoints the WAL more often (so it is reused rather than grown) and tries again: the clock's presses and
the rolls go on being recorded (about 12,000 events per MiB measured on a full tmpfs) while the screen asks the
owner to free space (``on_reserve``); the reserve is made again once the disk has room.

>>> j = Journal(":memory:")
>>> m = j.append({"event": "new_match", "length": 3})
>>> j.current_match() == m[0]
True
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

RESERVE_BYTES = 1024 * 1024   # space kept beside the journal for when the disk fills
RESERVE_CHECKPOINT = 64       # WAL pages between checkpoints while running on the reserve (SQLite's default 1000)
RESERVE_RETRY = 50            # appends between two tries at making the reserve again

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    length INTEGER NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    match INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER,
    UNIQUE (match, seq)
);
CREATE TABLE IF NOT EXISTS salvages (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    source TEXT NOT NULL,
    last_match INTEGER,
    lost TEXT NOT NULL
);
"""


def event_crc(match: int, seq: int, body: str) -> int:
    """CRC-32 of an event's place and text: damaged bytes that still read as JSON are caught too."""
    return zlib.crc32(f"{match}:{seq}:{body}".encode())


class JournalError(RuntimeError):
    """The journal file cannot be opened or written; the message says which file and why."""


class JournalWriteError(JournalError, ValueError):
    """An event could not be stored (disk full, read-only, I/O error): it was refused, nothing stored was lost.

    A ValueError too, so every caller that handles "the event cannot apply now" refuses it the same way.
    ``status`` is the HTTP answer: 507 when the disk is full, 503 otherwise; ``reason`` is
    ``disk_full`` | ``read_only`` | ``io_error``.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.status = 507 if reason == "disk_full" else 503


def write_error(path: str, exc: sqlite3.Error | OSError) -> JournalWriteError:
    """A JournalWriteError naming the cause in plain words."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    errno = getattr(exc, "errno", None)
    if name == "SQLITE_FULL" or errno == 28 or "disk is full" in str(exc):
        return JournalWriteError(f"the event was not recorded: the disk holding {path} is full. Free some space "
                                 "(or use a bigger card); what is recorded is kept and recording resumes by itself",
                                 "disk_full")
    if name.startswith("SQLITE_READONLY") or errno in (13, 30) or "readonly" in str(exc):
        return JournalWriteError(f"the event was not recorded: {path} cannot be written (read-only disk or file). "
                                 "Check the card and the folder's permissions; what is recorded is kept", "read_only")
    return JournalWriteError(f"the event was not recorded: writing {path} failed ({exc}). Check the card; what "
                             "is recorded is kept and the next event tries again", "io_error")


class Journal:
    """Append-only event store. Thread-safe: one connection guarded by a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            if "crc" not in {r[1] for r in self._db.execute("PRAGMA table_info(events)")}:
                self._db.execute("ALTER TABLE events ADD COLUMN crc INTEGER")  # a journal from before checksums
            self._count = int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from None
        self._lock = threading.Lock()
        self.reserve: Path | None = None  # kept only by the kiosk's service (keep_reserve), not by tools reading
        self.on_reserve = False   # the disk filled and the reserve was given up: recording goes on, space needed
        self._since_retry = 0

    # ----- the reserve (a full disk) ------------------------------------------------------------------------
    def keep_reserve(self) -> bool:
        """Keep `RESERVE_BYTES` of the disk beside the journal for when it fills (the kiosk's own journal)."""
        if self.path == ":memory:":
            return False
        with self._lock:
            self.reserve = Path(f"{self.path}.reserve")
            return self._make_reserve()

    def _make_reserve(self) -> bool:
        """Write the reserve file if it is missing (best effort): True when it is there."""
        if self.reserve is None:
            return False
        try:
            if self.reserve.stat().st_size >= RESERVE_BYTES:
                return True
        except OSError:
            pass
        try:
            with self.reserve.open("wb") as fh:
                fh.write(bytes(RESERVE_BYTES))
                fh.flush()
                os.fsync(fh.fileno())
            return True
        except OSError:
            self.reserve.unlink(missing_ok=True)  # no room: a part would only take space
            return False

    def _use_reserve(self) -> bool:
        """The disk is full: give the reserve's space to the journal. True if there was one to give."""
        if self.reserve is None or not self.reserve.exists():
            return False
        self.reserve.unlink(missing_ok=True)
        self.on_reserve = True
        self._since_retry = 0
        try:
            self._db.execute(f"PRAGMA wal_autocheckpoint={RESERVE_CHECKPOINT}")
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            pass
        return True

    def _maybe_refill(self) -> None:
        """Running on the reserve: now and then, if the disk has room again, make the reserve anew."""
        self._since_retry += 1
        if self._since_retry < RESERVE_RETRY or self.reserve is None:
            return
        self._since_retry = 0
        try:
            room = shutil.disk_usage(self.reserve.parent).free
        except OSError:
            return
        if room > 4 * RESERVE_BYTES and self._make_reserve():
            self.on_reserve = False
            try:
                self._db.execute("PRAGMA wal_autocheckpoint=1000")
            except sqlite3.Error:
                pass

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ----- writing ------------------------------------------------------------------------------------------
    def append(self, event: dict[str, Any]) -> tuple[int, int]:
        """Store one event durably; returns (match id, index of the event within its match).

        A ``new_match`` event opens a new match. Any other event with no match open yet opens a default
        one first (length 0), so nothing is ever stored outside a match.
        """
        body = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            try:
                return self._append(event, body)
            except JournalWriteError as exc:
                if exc.reason != "disk_full" or not self._use_reserve():
                    raise
            return self._append(event, body)  # on the reserve's space (a second failure is the caller's)

    def _append(self, event: dict[str, Any], body: str) -> tuple[int, int]:
        added = 1
        try:
            self._db.execute("BEGIN IMMEDIATE")
            if event.get("event") == "new_match":
                match = self._open_match(event)
                seq = 0
            else:
                match = self._current()
                if match is None:
                    default = {"event": "new_match", "length": 0}
                    match = self._open_match(default)
                    self._insert(match, 0, json.dumps(default))
                    added = 2
                seq = self._next_seq(match)
            self._insert(match, seq, body)
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite rolled back by itself
            raise write_error(self.path, exc) from None
        self._count += added
        if self.on_reserve:
            self._maybe_refill()
        return match, seq

    def _open_match(self, event: dict[str, Any]) -> int:
        players = json.dumps(event.get("players") or {}, ensure_ascii=False)
        cur = self._db.execute("INSERT INTO matches (started, length, players) VALUES (?, ?, ?)",
                               (time.time(), int(event.get("length") or 0), players))
        return int(cur.lastrowid or 0)

    def _insert(self, match: int, seq: int, body: str) -> None:
        self._db.execute("INSERT INTO events (match, seq, at, body, crc) VALUES (?, ?, ?, ?, ?)",
                         (match, seq, time.time(), body, event_crc(match, seq, body)))

    def _next_seq(self, match: int) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE match = ?", (match,)).fetchone()
        return int(row[0])

    def _current(self) -> int | None:
        row = self._db.execute("SELECT MAX(id) FROM matches").fetchone()
        return None if row[0] is None else int(row[0])

    # ----- reading ------------------------------------------------------------------------------------------
    def current_match(self) -> int | None:
        with self._lock:
            return self._current()

    def matches(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._read("SELECT id, started, length, players FROM matches ORDER BY id")
        return [{"id": r[0], "started": r[1], "length": r[2], "players": json.loads(r[3])} for r in rows]

    def events(self, match: int) -> Iterator[dict[str, Any]]:
        """The events of one match in order (a snapshot taken when called)."""
        with self._lock:
            rows = self._read("SELECT body FROM events WHERE match = ? ORDER BY seq", (match,))
        if not rows and not self._has_match(match):
            raise KeyError(match)
        return (json.loads(r[0]) for r in rows)

    def _has_match(self, match: int) -> bool:
        with self._lock:
            return bool(self._read("SELECT 1 FROM matches WHERE id = ?", (match,)))

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:  # a page went bad while serving: a plain error, salvaged at the next start
            raise JournalError(f"cannot read the journal {self.path}: {exc}; restart the kiosk to salvage it") from None

    def mark(self) -> None:
        """Remember how many events the journal holds now (see ``inspect``); best effort, never raises."""
        if self.path == ":memory:":
            return
        with self._lock:
            count, top = self._count, self._current()
        write_mark(self.path, count, top)

    def count(self, match: int | None = None) -> int:
        """The events in the file (another process may be writing it), or in one match."""
        with self._lock:
            if match is None:
                return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM events WHERE match = ?", (match,)).fetchone()[0])


# ----- health, salvage ------------------------------------------------------------------------------------------
def mark_path(path: str | Path) -> Path:
    return Path(f"{path}.mark")


def write_mark(path: str | Path, events: int, last_match: int | None) -> None:
    target = mark_path(path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(json.dumps({"events": events, "last_match": last_match, "at": time.time()}))
        os.replace(tmp, target)
    except OSError:
        pass  # a hint only (disk full: the journal itself says so)


def read_mark(path: str | Path) -> dict[str, Any] | None:
    try:
        mark = json.loads(mark_path(path).read_text())
    except (OSError, ValueError):
        return None
    return mark if isinstance(mark, dict) and isinstance(mark.get("events"), int) else None


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
                from kiosk.salvage import read_raw

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
