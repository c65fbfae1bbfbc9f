"""The SQLite journal: durable appends (WAL, synchronous=FULL), matches, events in order."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from kiosk.journal import Journal, JournalError


def test_pragmas_wal_and_full_sync(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    mode = j._db.execute("PRAGMA journal_mode").fetchone()[0]
    sync = j._db.execute("PRAGMA synchronous").fetchone()[0]
    assert (mode, sync) == ("wal", 2)  # 2 = FULL


def test_events_grouped_by_match_in_order(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    assert j.current_match() is None
    m1, s = j.append({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}})
    assert s == 0
    assert j.append({"event": "roll", "dice": [3, 1]}) == (m1, 1)
    m2, s = j.append({"event": "new_match", "length": 5})
    assert m2 != m1 and s == 0
    assert j.append({"event": "roll", "dice": [6, 1]}) == (m2, 1)
    assert [e["event"] for e in j.events(m1)] == ["new_match", "roll"]
    assert [m["length"] for m in j.matches()] == [3, 5]
    assert j.matches()[0]["players"] == {"light": "Ana", "dark": "Bruno"}
    with pytest.raises(KeyError):
        list(j.events(99))


def test_first_event_opens_a_default_match(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    match, seq = j.append({"event": "roll", "dice": [3, 1]})
    assert seq == 1
    assert [e["event"] for e in j.events(match)] == ["new_match", "roll"]


def test_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    m, _ = j.append({"event": "new_match", "length": 3})
    for i in range(50):
        j.append({"event": "button", "name": "end_turn", "i": i})
    j.close()
    j2 = Journal(path)
    assert j2.current_match() == m
    assert [e.get("i") for e in j2.events(m)][1:] == list(range(50))
    assert j2.count(m) == 51 and j2.count() == 51


def test_appends_from_many_threads_keep_a_gapless_sequence(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    m, _ = j.append({"event": "new_match", "length": 0})
    seqs: list[int] = []

    def worker() -> None:
        for _ in range(25):
            seqs.append(j.append({"event": "button", "name": "undo"})[1])

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seqs) == list(range(1, 101))
    rows = sqlite3.connect(tmp_path / "j.sqlite").execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert rows == 101


def test_unwritable_journal_is_a_plain_error(tmp_path: Path) -> None:
    folder = tmp_path / "dir.sqlite"
    folder.mkdir()
    with pytest.raises(JournalError, match=r"^cannot open the journal .*dir\.sqlite: "):
        Journal(folder)


def test_a_journal_from_before_checksums_opens_healthy_and_new_events_get_one(tmp_path: Path) -> None:
    from kiosk.journal import event_crc
    from kiosk.journal_health import inspect

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE matches (id INTEGER PRIMARY KEY, started REAL NOT NULL, length INTEGER NOT NULL, players TEXT NOT NULL);
        CREATE TABLE events (id INTEGER PRIMARY KEY, match INTEGER NOT NULL REFERENCES matches(id), seq INTEGER NOT NULL,
                             at REAL NOT NULL, body TEXT NOT NULL, UNIQUE (match, seq));
        INSERT INTO matches VALUES (1, 1.0, 3, '{}');
        INSERT INTO events (match, seq, at, body) VALUES (1, 0, 1.0, '{"event":"new_match","length":3}');
    """)
    db.commit()
    db.close()
    assert inspect(path).healthy
    j = Journal(path)
    assert j.append({"event": "roll", "dice": [3, 1]}) == (1, 1)
    rows = j._db.execute("SELECT seq, body, crc FROM events ORDER BY seq").fetchall()
    assert rows[0][2] is None and rows[1][2] == event_crc(1, 1, rows[1][1])
    j.close()
    assert inspect(path).healthy
