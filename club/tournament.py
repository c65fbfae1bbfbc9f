"""The tournament journal at the director: every operation on a tournament, in order, in SQLite.

``Journal(data_dir)`` keeps ``tournament.sqlite`` beside the club's archive. A tournament's state is its
operations replayed (core/match/brackets.py), so what is journaled is all there is: a director killed or a power
cut between two operations loses neither, and one killed during a write loses only that one (SQLite's WAL,
``synchronous=FULL``: an operation the journal said it took is on the disk). Several processes (the running
director, ``gamao director tournament ...`` on the same folder) can write: each operation is checked against
the state made from the journal inside one write transaction, so two cannot cross.

Each operation carries ``at`` (the time it was taken) and, for results, its ``source``: ``board`` (from a
board's own record), ``hand`` (entered with the PIN) or ``director`` (a correction); the journal is the log of
corrections.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.match.brackets import MAX_OPS, Tournament, TournamentError

FILE = "tournament.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (name TEXT PRIMARY KEY, folded TEXT UNIQUE NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ops (tournament TEXT NOT NULL, seq INTEGER NOT NULL, op TEXT NOT NULL, at REAL NOT NULL,
                                PRIMARY KEY (tournament, seq));
"""
MAX_TOURNAMENTS = 10_000


class Journal:
    def __init__(self, data_dir: str | Path) -> None:
        self.path = Path(data_dir) / FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a result the director said it took survives a power cut
        self._db.executescript(SCHEMA)
        self._lock = threading.RLock()
        self._cache: dict[str, tuple[int, Tournament]] = {}

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def names(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT name FROM tournaments ORDER BY created, name")]

    def _name(self, name: str) -> str:
        row = self._db.execute("SELECT name FROM tournaments WHERE folded = ?", (str(name).strip().casefold(),)).fetchone()
        if row is None:
            raise TournamentError(f"no tournament {name!r} (`tournament create` makes one)")
        return str(row[0])

    def _load(self, name: str) -> Tournament:
        """The tournament replayed from the journal (cached; read again when another process wrote to it)."""
        count = self._db.execute("SELECT COUNT(*) FROM ops WHERE tournament = ?", (name,)).fetchone()[0]
        cached = self._cache.get(name)
        if cached is not None and cached[0] == count:
            return cached[1]
        if cached is not None and cached[0] < count:
            t = cached[1]
            rows = self._db.execute("SELECT op FROM ops WHERE tournament = ? AND seq >= ? ORDER BY seq",
                                    (name, cached[0]))
        else:
            t = Tournament()
            rows = self._db.execute("SELECT op FROM ops WHERE tournament = ? ORDER BY seq", (name,))
        for (text,) in rows:
            t.apply(json.loads(text))
        self._cache[name] = (count, t)
        return t

    def load(self, name: str) -> Tournament:
        with self._lock:
            return self._load(self._name(name))

    def create(self, name: str, fmt: str, players: list[str], *, length: int | None = None, seed: int = 0,
               losses: int = 3, ratings: Mapping[str, float] | None = None, rule_set: str | None = None) -> Tournament:
        op = {"op": "create", "name": str(name).strip(), "format": fmt, "players": players, "length": length,
              "seed": seed, "losses": losses, "ratings": dict(ratings or {}), "rule_set": rule_set,
              "at": time.time()}
        t = Tournament()
        t.apply(op)  # checked before anything is written
        with self._write() as db:
            if db.execute("SELECT 1 FROM tournaments WHERE folded = ?", (t.name.casefold(),)).fetchone():
                raise TournamentError(f"a tournament named {t.name!r} exists already (`tournament show` it)")
            if db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] >= MAX_TOURNAMENTS:
                raise TournamentError(f"the journal holds at most {MAX_TOURNAMENTS} tournaments")
            db.execute("INSERT INTO tournaments VALUES (?, ?, ?)", (t.name, t.name.casefold(), op["at"]))
            db.execute("INSERT INTO ops VALUES (?, 0, ?, ?)", (t.name, json.dumps(op, ensure_ascii=False), op["at"]))
        self._cache[t.name] = (1, t)
        return t

    def apply(self, name: str, op: dict[str, Any]) -> Tournament:
        """Check the operation against the journal's state and journal it (one write transaction)."""
        op = {**op, "at": op.get("at") or time.time()}
        with self._write() as db:
            real = self._name(name)
            t = self._load(real)
            if len(t.ops) >= MAX_OPS:
                raise TournamentError(f"a tournament holds at most {MAX_OPS} operations")
            t.apply(op)
            try:
                db.execute("INSERT INTO ops VALUES (?, ?, ?, ?)",
                           (real, len(t.ops) - 1, json.dumps(op, ensure_ascii=False), op["at"]))
            except BaseException:
                self._cache.pop(real, None)  # the state took an operation the journal did not
                raise
            self._cache[real] = (len(t.ops), t)
            return t

    def log(self, name: str) -> list[dict[str, Any]]:
        """Every operation, in order (the corrections' log among them)."""
        with self._lock:
            real = self._name(name)
            return [json.loads(r[0]) for r in
                    self._db.execute("SELECT op FROM ops WHERE tournament = ? ORDER BY seq", (real,))]
