"""The club's archive: every board's events and verdicts as the director received them, and the results.

One SQLite file (``club.sqlite`` in the director's data folder). Events are keyed by (club, board, match,
index): a copy that arrives twice (the outbox sends again whatever the broker did not confirm) is stored
once. A match can be replayed from here through the referee at any time, so the director's page, its
results and its .mat files come from the same events as the board's own journal.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from club.auth import ReplayGuard
from club.outbox import open_db
from club.rating import START
from club.rating import change as rating_change

FILE = "club.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    club TEXT NOT NULL, board TEXT NOT NULL, label TEXT, PRIMARY KEY (club, board));
CREATE TABLE IF NOT EXISTS events (
    club TEXT NOT NULL, board TEXT NOT NULL, match INTEGER NOT NULL, idx INTEGER NOT NULL,
    body TEXT NOT NULL, received REAL NOT NULL, PRIMARY KEY (club, board, match, idx));
CREATE INDEX IF NOT EXISTS events_begun ON events (club, board, received) WHERE idx = 0;
CREATE TABLE IF NOT EXISTS verdicts (
    club TEXT NOT NULL, board TEXT NOT NULL, match INTEGER NOT NULL, idx INTEGER NOT NULL,
    body TEXT NOT NULL, PRIMARY KEY (club, board, match, idx));
CREATE TABLE IF NOT EXISTS peers (
    club TEXT NOT NULL, board TEXT NOT NULL, high INTEGER NOT NULL, state_seq INTEGER NOT NULL,
    state_mac TEXT NOT NULL, will INTEGER, PRIMARY KEY (club, board));
CREATE TABLE IF NOT EXISTS ratings (
    name TEXT PRIMARY KEY, rating REAL NOT NULL, experience INTEGER NOT NULL, matches INTEGER NOT NULL,
    updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rated (
    club TEXT NOT NULL, board TEXT NOT NULL, match INTEGER NOT NULL, winner TEXT NOT NULL, loser TEXT NOT NULL,
    winner_change REAL NOT NULL, loser_change REAL NOT NULL, PRIMARY KEY (club, board, match));
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    club TEXT NOT NULL, board TEXT NOT NULL, match INTEGER NOT NULL, players TEXT NOT NULL,
    length INTEGER NOT NULL, score TEXT NOT NULL, games TEXT NOT NULL, winner TEXT, status TEXT NOT NULL,
    finished REAL NOT NULL, PRIMARY KEY (club, board, match));
"""


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def match_summary(ref: Any) -> dict[str, Any]:
    """Players, length, score, phase and each finished game's result, from a referee that saw a match."""
    st = ref.public_state()
    m = st["match"]
    games = [{"number": g["number"], **g["result"]} for g in ref.games if g.get("result")]
    return {"players": m["players"], "length": m["length"], "score": m["score"], "phase": st["phase"],
            "games": games}


class Archive:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = open_db(self.path)
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ----- writing -------------------------------------------------------------------------------------------
    def add(self, club: str, board: str, match: int, index: int, event: dict[str, Any] | None,
            verdicts: list[dict[str, Any]] | None) -> bool:
        """Store an event (or its verdicts); False when that copy was already here."""
        with self._lock:
            if event is not None:
                cur = self._db.execute("INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                       (club, board, match, index, dumps(event), time.time()))
            else:
                cur = self._db.execute("INSERT OR IGNORE INTO verdicts VALUES (?, ?, ?, ?, ?)",
                                       (club, board, match, index, dumps(verdicts)))
        return cur.rowcount == 1

    def set_label(self, club: str, board: str, label: str | None) -> None:
        with self._lock:
            self._db.execute("INSERT INTO boards VALUES (?, ?, ?) ON CONFLICT(club, board) DO UPDATE SET label = ?",
                             (club, board, label, label))

    def labels(self) -> dict[tuple[str, str], str]:
        with self._lock:
            rows = self._db.execute("SELECT club, board, label FROM boards WHERE label IS NOT NULL").fetchall()
        return {(c, b): lab for c, b, lab in rows}

    def save_result(self, club: str, board: str, match: int, summary: dict[str, Any], status: str) -> None:
        """`status`: finished (the referee saw the match end) or closed (the director closed it)."""
        score = summary["score"]
        winner = None
        if status == "finished":
            winner = "light" if score["light"] > score["dark"] else "dark"
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (club, board, match, dumps(summary["players"]), summary["length"], dumps(score),
                              dumps(summary["games"]), winner, status, time.time()))
            if winner is not None:
                self._rate(club, board, match, summary["players"], winner, int(summary["length"] or 1))

    def _rate(self, club: str, board: str, match: int, players: dict[str, str], winner: str, length: int) -> None:
        """The club rating (club/rating.py) after a finished match, once per match; both players need names."""
        won = str(players.get(winner) or "").strip()[:40]
        lost = str(players.get("dark" if winner == "light" else "light") or "").strip()[:40]
        if not won or not lost or won == lost:
            return
        if self._db.execute("SELECT 1 FROM rated WHERE club = ? AND board = ? AND match = ?",
                            (club, board, match)).fetchone():
            return
        now = time.time()
        (rw, ew, mw), (rl, el, ml) = (self._rating(won), self._rating(lost))
        dw, dl = rating_change(rw, rl, length, ew, el)
        self._db.execute("BEGIN")
        try:
            for name, r, e, m, d in ((won, rw, ew, mw, dw), (lost, rl, el, ml, dl)):
                self._db.execute("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?)", (name, r + d, e + length,
                                                                                           m + 1, now))
            self._db.execute("INSERT INTO rated VALUES (?, ?, ?, ?, ?, ?, ?)", (club, board, match, won, lost, dw, dl))
            self._db.execute("COMMIT")
        except Exception:
            self._db.execute("ROLLBACK")
            raise

    def _rating(self, name: str) -> tuple[float, int, int]:
        row = self._db.execute("SELECT rating, experience, matches FROM ratings WHERE name = ?", (name,)).fetchone()
        return (float(row[0]), int(row[1]), int(row[2])) if row else (START, 0, 0)

    def ratings(self) -> list[dict[str, Any]]:
        """The club's rating list, best first."""
        with self._lock:
            rows = self._db.execute("SELECT name, rating, experience, matches, updated FROM ratings "
                                    "ORDER BY rating DESC, name").fetchall()
        return [{"name": r[0], "rating": round(r[1], 2), "experience": r[2], "matches": r[3], "updated": r[4]}
                for r in rows]

    def rating_changes(self) -> dict[tuple[str, str, int], tuple[float, float]]:
        with self._lock:
            rows = self._db.execute("SELECT club, board, match, winner_change, loser_change FROM rated").fetchall()
        return {(r[0], r[1], r[2]): (r[3], r[4]) for r in rows}

    def set_setting(self, name: str, value: Any) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (name, dumps(value)))

    def setting(self, name: str, default: Any = None) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0]) if row else default

    # ----- reading -------------------------------------------------------------------------------------------
    def events(self, club: str, board: str, match: int) -> Iterator[dict[str, Any]]:
        """The contiguous events of a match from index 0 (stops at the first one missing)."""
        with self._lock:
            rows = self._db.execute("SELECT idx, body FROM events WHERE club = ? AND board = ? AND match = ? "
                                    "ORDER BY idx", (club, board, match)).fetchall()
        for expected, (idx, body) in enumerate(rows):
            if idx != expected:
                return
            yield json.loads(body)

    def events_after(self, club: str, board: str, match: int, start: int, limit: int = -1) -> dict[int, dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT idx, body FROM events WHERE club = ? AND board = ? AND match = ? "
                                    "AND idx >= ? ORDER BY idx LIMIT ?", (club, board, match, start, limit)).fetchall()
        return {int(i): json.loads(b) for i, b in rows}

    def received_from(self, club: str, board: str, match: int, start: int, cutoff: float,
                      limit: int = 2000) -> list[tuple[int, dict[str, Any], float]]:
        """The events of a match from index `start` received at `cutoff` or before, contiguous (stops at the first
        one missing or received later): (index, event, received). The broadcast's delayed view (club/live.py)."""
        with self._lock:
            rows = self._db.execute("SELECT idx, body, received FROM events WHERE club = ? AND board = ? AND "
                                    "match = ? AND idx >= ? ORDER BY idx LIMIT ?",
                                    (club, board, match, start, limit)).fetchall()
        out = []
        for expected, (idx, body, received) in enumerate(rows, start=start):
            if idx != expected or received > cutoff:
                break
            out.append((int(idx), json.loads(body), float(received)))
        return out

    def matches_begun(self, cutoff: float, since: float = 0.0) -> list[tuple[str, str, int, float]]:
        """(club, board, match, first received) of every match whose first event reached the director between
        `since` and `cutoff`, oldest first (the broadcast's listing and each board's match in play)."""
        with self._lock:
            rows = self._db.execute("SELECT club, board, match, received FROM events WHERE idx = 0 AND "
                                    "received <= ? AND received >= ? ORDER BY received", (cutoff, since)).fetchall()
        return [(str(c), str(b), int(m), float(r)) for c, b, m, r in rows]

    def match_begun(self, club: str, board: str, cutoff: float) -> int | None:
        """The board's latest match whose first event reached the director at `cutoff` or before."""
        with self._lock:
            row = self._db.execute("SELECT match FROM events WHERE club = ? AND board = ? AND idx = 0 AND "
                                   "received <= ? ORDER BY received DESC, match DESC LIMIT 1",
                                   (club, board, cutoff)).fetchone()
        return None if row is None else int(row[0])

    def event(self, club: str, board: str, match: int, index: int) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM events WHERE club = ? AND board = ? AND match = ? AND idx = ?",
                                   (club, board, match, index)).fetchone()
        return json.loads(row[0]) if row else None

    def guard(self, club: str, board: str) -> ReplayGuard:
        """The board's message counters as last saved (club/auth.py), or fresh ones."""
        with self._lock:
            row = self._db.execute("SELECT high, state_seq, state_mac, will FROM peers WHERE club = ? AND board = ?",
                                   (club, board)).fetchone()
        return ReplayGuard() if row is None else ReplayGuard(int(row[0]), int(row[1]), str(row[2]), row[3])

    def save_guard(self, club: str, board: str, guard: ReplayGuard) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO peers VALUES (?, ?, ?, ?, ?, ?)",
                             (club, board, guard.high, guard.state_seq, guard.state_mac, guard.will))

    def indexes(self, club: str, board: str, match: int) -> list[int]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT idx FROM events WHERE club = ? AND board = ? AND "
                                                   "match = ? ORDER BY idx", (club, board, match))]

    def count(self, club: str | None = None, board: str | None = None) -> int:
        with self._lock:
            if club is None:
                return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM events WHERE club = ? AND board = ?",
                                        (club, board)).fetchone()[0])

    def matches(self) -> list[tuple[str, str, int]]:
        """Every (club, board, match) the archive holds events of."""
        with self._lock:
            return [(str(c), str(b), int(m)) for c, b, m in self._db.execute(
                "SELECT DISTINCT club, board, match FROM events ORDER BY club, board, match")]

    def verdict_indexes(self, club: str, board: str, match: int) -> list[int]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT idx FROM verdicts WHERE club = ? AND board = ? AND "
                                                   "match = ? ORDER BY idx", (club, board, match))]

    def verdicts(self, club: str, board: str, match: int) -> dict[int, list[dict[str, Any]]]:
        with self._lock:
            rows = self._db.execute("SELECT idx, body FROM verdicts WHERE club = ? AND board = ? AND match = ?",
                                    (club, board, match)).fetchall()
        return {i: json.loads(b) for i, b in rows}

    def results(self, since: float | None = None) -> list[dict[str, Any]]:
        """Finished or closed matches, newest first, with when the match started (its first event arrived) and
        the winner's name and rating change when it was rated."""
        with self._lock:
            rows = self._db.execute(
                "SELECT r.club, r.board, r.match, r.players, r.length, r.score, r.games, r.winner, r.status, "
                "r.finished, (SELECT MIN(received) FROM events e WHERE e.club = r.club AND e.board = r.board AND "
                "e.match = r.match), q.winner_change, q.loser_change FROM results r LEFT JOIN rated q ON "
                "q.club = r.club AND q.board = r.board AND q.match = r.match WHERE r.finished >= ? "
                "ORDER BY r.finished DESC", (since or 0.0,)).fetchall()
        out = []
        for r in rows:
            players = json.loads(r[3])
            out.append({"club": r[0], "board": r[1], "match": r[2], "players": players, "length": r[4],
                        "score": json.loads(r[5]), "games": json.loads(r[6]), "winner": r[7], "status": r[8],
                        "finished": r[9], "started": r[10],
                        "winner_name": players.get(r[7]) if r[7] else None,
                        "rating_change": None if r[11] is None else {"winner": round(r[11], 2),
                                                                     "loser": round(r[12], 2)}})
        return out

    def result(self, club: str, board: str, match: int) -> dict[str, Any] | None:
        for r in self.results():
            if (r["club"], r["board"], r["match"]) == (club, board, match):
                return r
        return None
