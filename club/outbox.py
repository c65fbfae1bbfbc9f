"""The outbox's marks: for each journal match, the highest event index the broker acknowledged.

The journal (kiosk/journal.py) is the outbox's content; this file only remembers how far the broker has
confirmed it, in the outbox's own SQLite file beside the journal (``club_outbox.sqlite`` in the data
folder), so the journal's schema stays the journal's business. A mark only moves forward when the broker
acknowledges (QoS 1 PUBACK); the director can ask for a match again from an index (``rewind``) when it
finds a gap, e.g. after a broker crash lost messages it had already acknowledged.

>>> o = Outbox(":memory:")
>>> o.acked(7), o.mark(7, 4), o.acked(7), o.rewind(7, 2), o.acked(7)
(-1, None, 4, None, 1)
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from club.auth import BLOCK, Counter

FILE = "club_outbox.sqlite"


def open_db(path: str) -> sqlite3.Connection:
    """A club SQLite file (outbox or archive) in WAL mode, shared across threads, in autocommit."""
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db
SCHEMA = "CREATE TABLE IF NOT EXISTS marks (match INTEGER PRIMARY KEY, acked INTEGER NOT NULL, updated REAL)"
# The signing counter (club/auth.py Counter): the top of the block of numbers reserved.
COUNTER = "CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY CHECK (id = 0), reserved INTEGER NOT NULL)"
# The newest director command the board obeyed (club/publisher.py): a command whose counter is not above it is a replay.
COMMANDS = "CREATE TABLE IF NOT EXISTS commands (id INTEGER PRIMARY KEY CHECK (id = 0), seq INTEGER NOT NULL)"


class Outbox:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = open_db(self.path)  # synchronous=NORMAL: a lost mark only means a copy is sent twice
        self._db.execute(SCHEMA)
        self._db.execute(COUNTER)
        self._db.execute(COMMANDS)
        self._lock = threading.Lock()
        self._counter = Counter(self._reserved_top, self._reserve, BLOCK)

    def next_seq(self) -> int:
        """The next number of the board's message counter (never repeats, across restarts: club/auth.py Counter)."""
        return self._counter.next()

    def _reserved_top(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT reserved FROM counter WHERE id = 0").fetchone()
        return int(row[0]) if row else None

    def _reserve(self, top: int) -> None:
        with self._lock:
            self._db.execute("INSERT INTO counter VALUES (0, ?) ON CONFLICT(id) DO UPDATE SET reserved = ?", (top, top))

    def obeyed(self, seq: int) -> bool:
        """Record a command's counter; False (nothing recorded) when it is not above the newest obeyed (a replay)."""
        with self._lock:
            row = self._db.execute("SELECT seq FROM commands WHERE id = 0").fetchone()
            if row is not None and seq <= int(row[0]):
                return False
            self._db.execute("INSERT INTO commands VALUES (0, ?) ON CONFLICT(id) DO UPDATE SET seq = ?", (seq, seq))
            return True

    def acked(self, match: int) -> int:
        """The highest index of `match` the broker acknowledged, -1 for none."""
        with self._lock:
            row = self._db.execute("SELECT acked FROM marks WHERE match = ?", (match,)).fetchone()
        return -1 if row is None else int(row[0])

    def marks(self) -> dict[int, int]:
        with self._lock:
            return {int(m): int(a) for m, a in self._db.execute("SELECT match, acked FROM marks")}

    def mark(self, match: int, index: int) -> None:
        """The broker acknowledged every event of `match` up to `index` (never moves back)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO marks (match, acked, updated) VALUES (?, ?, julianday('now')) "
                "ON CONFLICT(match) DO UPDATE SET acked = MAX(acked, excluded.acked), updated = excluded.updated",
                (match, index))

    def rewind(self, match: int, index: int) -> None:
        """Send `match` again from `index` (the director is missing it)."""
        with self._lock:
            self._db.execute("UPDATE marks SET acked = MIN(acked, ?) WHERE match = ?", (index - 1, match))

    def close(self) -> None:
        with self._lock:
            self._db.close()
