"""The journal: every event, on disk, before the referee acts on it (never lose a game).

One SQLite file in WAL mode with ``synchronous=FULL``: an append returns only once the event is on the
disk, so a power cut loses at most an event that was never acknowledged. Events are grouped by match:
a ``new_match`` event opens a match, and every later event belongs to it. On start the service replays
the current match's events through a fresh referee and is exactly where it was.

Damage (an SD card after a power cut), in kiosk/journal_health.py: ``inspect(path)`` runs SQLite's integrity
check and reads every row; ``open_journal(path)`` salvages a damaged file (moved aside with a timestamp, every readable row copied into
a new journal, kiosk/salvage.py reads pages SQLite itself gives up on) and says what was kept and what was
lost. A small mark file beside the journal (``journal.sqlite.mark``, rewritten once a turn and at every game's
end) remembers how many events it held, so a journal that silently went back (its WAL lost) is noticed too.
A write that fails (disk full, read-only card) raises ``JournalWriteError``: nothing stored is touched and
the next append tries again.

Room kept for a full disk (issue 34, finding 7): beside the journal a file of `RESERVE_BYTES` zeros
(``journal.sqlite.reserve``) holds space on the card. When the disk fills, the first append that fails deletes
it, checkpoints the WAL more often (so it is reused rather than grown) and tries again: the clock's presses and
the rolls go on being recorded (about 10,000 events per MiB, bench/bench_disk_reserve.py) while the screen
asks the owner to free space (``on_reserve``); the reserve is made again once the disk has room.

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
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


# ----- the mark (kiosk/journal_health.py reads it) ------------------------------------------------------------------------------------------
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
