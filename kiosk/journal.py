"""The journal: every event, on disk, before the referee acts on it (never lose a game).

One SQLite file in WAL mode with ``synchronous=FULL``: an append returns only once the event is on the
disk, so a power cut loses at most an event that was never acknowledged. Events are grouped by match:
a ``new_match`` event opens a match, and every later event belongs to it. On start the service replays
the current match's events through a fresh referee and is exactly where it was.

>>> j = Journal(":memory:")
>>> m = j.append({"event": "new_match", "length": 3})
>>> j.current_match() == m[0]
True
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
    UNIQUE (match, seq)
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be opened or written; the message says which file and why."""


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
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from None
        self._lock = threading.Lock()

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
                    seq = self._next_seq(match)
                self._insert(match, seq, body)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None
        return match, seq

    def _open_match(self, event: dict[str, Any]) -> int:
        players = json.dumps(event.get("players") or {}, ensure_ascii=False)
        cur = self._db.execute("INSERT INTO matches (started, length, players) VALUES (?, ?, ?)",
                               (time.time(), int(event.get("length") or 0), players))
        return int(cur.lastrowid or 0)

    def _insert(self, match: int, seq: int, body: str) -> None:
        self._db.execute("INSERT INTO events (match, seq, at, body) VALUES (?, ?, ?, ?)", (match, seq, time.time(), body))

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
            rows = self._db.execute("SELECT id, started, length, players FROM matches ORDER BY id").fetchall()
        return [{"id": r[0], "started": r[1], "length": r[2], "players": json.loads(r[3])} for r in rows]

    def events(self, match: int) -> Iterator[dict[str, Any]]:
        """The events of one match in order (a snapshot taken when called)."""
        with self._lock:
            rows = self._db.execute("SELECT body FROM events WHERE match = ? ORDER BY seq", (match,)).fetchall()
        if not rows and not self._has_match(match):
            raise KeyError(match)
        return (json.loads(r[0]) for r in rows)

    def _has_match(self, match: int) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM matches WHERE id = ?", (match,)).fetchone() is not None

    def count(self, match: int | None = None) -> int:
        with self._lock:
            if match is None:
                return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM events WHERE match = ?", (match,)).fetchone()[0])
