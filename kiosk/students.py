"""Students and their drills (issue 38): named profiles the teacher makes on the kiosk, no account, no network.

Everything is in the data folder's ``students.sqlite`` (WAL, synchronous=FULL, as the journal), copied by
`gamao journal DIR --backup FILE` beside the journal's copy. Each drill answer, card and recorded match belongs
to one student; ``export`` gives all of a student's rows as JSON and ``delete`` removes them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from core.coach.drills import CUBE_QUESTIONS, Card, cube_answer, is_blunder, is_cube_blunder, schedule
from core.messages import pt_play
from kiosk.journal_health import backup_sqlite

STUDENTS = "students.sqlite"
MAX_NAME = 40
MAX_STUDENTS = 200
DAY = 86400.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS students (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answers (id INTEGER PRIMARY KEY, student INTEGER NOT NULL, kind TEXT NOT NULL,
    at REAL NOT NULL, right INTEGER NOT NULL, seconds REAL, detail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cards (id INTEGER PRIMARY KEY, student INTEGER NOT NULL, source TEXT NOT NULL,
    position_id TEXT NOT NULL, match_id TEXT, side TEXT NOT NULL, dice TEXT NOT NULL, played TEXT NOT NULL,
    best TEXT NOT NULL, loss REAL NOT NULL, box INTEGER NOT NULL, due INTEGER NOT NULL, rights INTEGER NOT NULL,
    wrongs INTEGER NOT NULL, learnt INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'play',
    UNIQUE (student, position_id, dice, played));
CREATE TABLE IF NOT EXISTS matches (student INTEGER NOT NULL, match TEXT NOT NULL, side TEXT NOT NULL,
    at REAL NOT NULL, pr REAL, PRIMARY KEY (student, match, side));
CREATE INDEX IF NOT EXISTS answers_by_student ON answers (student, at);
CREATE INDEX IF NOT EXISTS cards_by_student ON cards (student, due);
"""


def day_of(at: float) -> int:
    """Days since the epoch (UTC): a card's due date."""
    return int(at // DAY)


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ValueError("name: give the student's name as text")
    text = " ".join(name.split())
    if not text or len(text) > MAX_NAME or not text.isprintable():
        raise ValueError(f"name: 1 to {MAX_NAME} printable characters")
    return text


class StudentStore:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        if "kind" not in {r[1] for r in self._db.execute("PRAGMA table_info(cards)")}:  # a folder from before cube cards
            self._db.execute("ALTER TABLE cards ADD COLUMN kind TEXT NOT NULL DEFAULT 'play'")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _q(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            cur = self._db.execute(sql, args)
            cur.row_factory = sqlite3.Row
            return cur.fetchall()

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> int | None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                last = None
                for sql, args in statements:
                    last = self._db.execute(sql, args).lastrowid
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return last

    # ----- students -------------------------------------------------------------------------------------------
    def create(self, name: Any, at: float | None = None) -> dict[str, Any]:
        text = clean_name(name)
        if self._q("SELECT 1 FROM students WHERE name = ?", (text,)):
            raise ValueError(f"name: there is already a student called {text}")
        if self._q("SELECT COUNT(*) AS n FROM students")[0]["n"] >= MAX_STUDENTS:
            raise ValueError(f"name: at most {MAX_STUDENTS} students")
        sid = self._tx([("INSERT INTO students (name, created) VALUES (?, ?)", (text, time.time() if at is None else at))])
        return self.student(int(sid or 0))

    def student(self, sid: int) -> dict[str, Any]:
        rows = self._q("SELECT id, name, created FROM students WHERE id = ?", (sid,))
        if not rows:
            raise KeyError(sid)
        return dict(rows[0])

    def by_name(self, name: Any) -> int | None:
        """The student called ``name`` (spaces and case aside), if any: a match's player named as a student."""
        if not isinstance(name, str) or not name.strip():
            return None
        rows = self._q("SELECT id FROM students WHERE name = ? COLLATE NOCASE", (" ".join(name.split()),))
        return int(rows[0]["id"]) if rows else None

    def matches_of(self, sid: int) -> list[dict[str, Any]]:
        return [dict(r) for r in self._q("SELECT match, side, at, pr FROM matches WHERE student = ? ORDER BY at", (sid,))]

    def students(self, today: int | None = None) -> list[dict[str, Any]]:
        today = day_of(time.time()) if today is None else today
        rows = self._q(
            "SELECT s.id, s.name, s.created, "
            "(SELECT COUNT(*) FROM answers a WHERE a.student = s.id) AS answers, "
            "(SELECT COUNT(*) FROM cards c WHERE c.student = s.id AND NOT c.learnt AND c.due <= ?) AS due "
            "FROM students s ORDER BY s.name COLLATE NOCASE", (today,))
        return [dict(r) for r in rows]

    def delete(self, sid: int) -> None:
        self.student(sid)
        self._tx([(f"DELETE FROM {t} WHERE student = ?", (sid,)) for t in ("answers", "cards", "matches")]
                 + [("DELETE FROM students WHERE id = ?", (sid,))])

    def export(self, sid: int) -> dict[str, Any]:
        student = self.student(sid)
        answers = [dict(r) | {"detail": json.loads(r["detail"])} for r in
                   self._q("SELECT kind, at, right, seconds, detail FROM answers WHERE student = ? ORDER BY at", (sid,))]
        cards = [dict(r) for r in self._q("SELECT * FROM cards WHERE student = ? ORDER BY id", (sid,))]
        matches = [dict(r) for r in self._q("SELECT match, side, at, pr FROM matches WHERE student = ? ORDER BY at", (sid,))]
        for c in cards:
            c.pop("student", None)
        return {"student": student, "answers": answers, "cards": cards, "matches": matches}

    # ----- answers and matches ---------------------------------------------------------------------------------
    def answer(self, sid: int, kind: str, right: bool, seconds: float | None, detail: dict[str, Any],
               at: float | None = None) -> None:
        self.student(sid)
        self._tx([("INSERT INTO answers (student, kind, at, right, seconds, detail) VALUES (?, ?, ?, ?, ?, ?)",
                   (sid, kind, time.time() if at is None else at, int(bool(right)), seconds, json.dumps(detail)))])

    def record_match(self, sid: int, match: str, side: str, rows: list[dict[str, Any]], pr: float | None = None,
                     at: float | None = None) -> int:
        """The student played ``side`` of ``match``: it is theirs, and each of their plays in the coach's review
        ``rows`` that lost the blunder mark or more becomes a card, due today. Returns the cards added."""
        self.student(sid)
        at = time.time() if at is None else at
        statements: list[tuple[str, tuple[Any, ...]]] = [(  # the first time it was given keeps its date
            "INSERT INTO matches (student, match, side, at, pr) VALUES (?, ?, ?, ?, ?) ON CONFLICT "
            "(student, match, side) DO UPDATE SET pr = COALESCE(excluded.pr, pr)", (sid, match, side, at, pr))]
        before = self._q("SELECT COUNT(*) AS n FROM cards WHERE student = ?", (sid,))[0]["n"]
        for row in rows:
            if row.get("kind") == "cube":  # a cube decision (the coach's review's cube_decisions)
                if row.get("side") == side and is_cube_blunder(row):
                    statements.append(self._cube_card(sid, match, side, row, day_of(at)))
                continue
            if row.get("side") != side or not is_blunder(row):
                continue
            dice = "".join(str(d) for d in row["dice"])
            statements.append((
                "INSERT OR IGNORE INTO cards (student, source, position_id, match_id, side, dice, played, best, loss,"
                " box, due, rights, wrongs, learnt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, 0, 0, 0)",
                (sid, match, row["position_id"], row.get("match_id"), side, dice, row["play"], row["best"],
                 float(row["loss"]), day_of(at))))
        self._tx(statements)
        return int(self._q("SELECT COUNT(*) AS n FROM cards WHERE student = ?", (sid,))[0]["n"] - before)

    def answered_on(self, sid: int, day: int) -> tuple[int, int]:
        """(answers, right answers) of the student on ``day`` (days since the epoch, UTC): the class view's progress."""
        row = self._q("SELECT COUNT(*) AS n, COALESCE(SUM(right), 0) AS r FROM answers WHERE student = ? AND at >= ? "
                      "AND at < ?", (sid, day * DAY, (day + 1) * DAY))[0]
        return int(row["n"]), int(row["r"])

    @staticmethod
    def _cube_card(sid: int, match: str, side: str, row: dict[str, Any], today: int) -> tuple[str, tuple[Any, ...]]:
        """A card of a cube decision: no dice; ``played`` what the student did (double, no_double, take, pass),
        ``best`` the right answer to the card's question (core.coach.drills.cube_answer); the position as the
        review gives it (encoded for the player on roll, the doubler)."""
        question = CUBE_QUESTIONS[row["action"]]
        best = cube_answer(question, row["equities"])
        return ("INSERT OR IGNORE INTO cards (student, source, position_id, match_id, side, dice, played, best, loss,"
                " box, due, rights, wrongs, learnt, kind) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, 1, ?, 0, 0, 0, 'cube')",
                (sid, match, row["position_id"], row.get("match_id"), side, row["action"], best, float(row["loss"]),
                 today))

    # ----- cards ---------------------------------------------------------------------------------------------
    def due_cards(self, sid: int, today: int) -> list[dict[str, Any]]:
        return [dict(r) for r in self._q(
            "SELECT * FROM cards WHERE student = ? AND NOT learnt AND due <= ? ORDER BY due, id", (sid, today))]

    def card(self, cid: int) -> dict[str, Any]:
        rows = self._q("SELECT * FROM cards WHERE id = ?", (cid,))
        if not rows:
            raise KeyError(cid)
        return dict(rows[0])

    def answer_card(self, cid: int, right: bool, at: float, seconds: float | None, played: str) -> dict[str, Any]:
        c = self.card(cid)
        new = schedule(Card(c["box"], c["due"], c["rights"], c["wrongs"], bool(c["learnt"])), right, day_of(at))
        self._tx([
            ("UPDATE cards SET box = ?, due = ?, rights = ?, wrongs = ?, learnt = ? WHERE id = ?",
             (new.box, new.due, new.rights, new.wrongs, int(new.learnt), cid)),
            ("INSERT INTO answers (student, kind, at, right, seconds, detail) VALUES (?, 'mistake', ?, ?, ?, ?)",
             (c["student"], at, int(right), seconds,
              json.dumps({"card": cid, "played": played, "best": c["best"], "box": new.box, "due": new.due}))),
        ])
        return self.card(cid)

    # ----- progress ------------------------------------------------------------------------------------------
    def progress(self, sid: int) -> dict[str, Any]:
        """Per kind of drill, per week (days since the first answer // 7): answers, accuracy, median seconds;
        and the PR of the student's recorded matches in order."""
        self.student(sid)
        rows = self._q("SELECT kind, at, right, seconds FROM answers WHERE student = ? ORDER BY at", (sid,))
        kinds: dict[str, list[dict[str, Any]]] = {}
        if rows:
            first = min([day_of(rows[0]["at"])] + [day_of(r["at"]) for r in self._q(
                "SELECT at FROM matches WHERE student = ? ORDER BY at LIMIT 1", (sid,))])
            weeks: dict[tuple[str, int], list[sqlite3.Row]] = {}
            for r in rows:
                weeks.setdefault((r["kind"], (day_of(r["at"]) - first) // 7), []).append(r)
            for (kind, week), rs in sorted(weeks.items()):
                secs = sorted(r["seconds"] for r in rs if r["seconds"] is not None)
                kinds.setdefault(kind, []).append({
                    "week": week, "answers": len(rs), "accuracy": round(sum(r["right"] for r in rs) / len(rs), 3),
                    "seconds": secs[len(secs) // 2] if secs else None})
        matches = [dict(r) for r in self._q(
            "SELECT match, at, pr FROM matches WHERE student = ? AND pr IS NOT NULL ORDER BY at", (sid,))]
        start = min([day_of(r["at"]) for r in rows[:1]] + [day_of(m["at"]) for m in matches[:1]], default=0)
        for m in matches:
            m["week"] = (day_of(m["at"]) - start) // 7
        cards = self._q("SELECT box, learnt FROM cards WHERE student = ?", (sid,))
        boxes = {b: 0 for b in range(1, 6)}
        for c in cards:
            if not c["learnt"]:
                boxes[c["box"]] += 1
        return {"kinds": kinds, "matches": matches, "boxes": boxes,
                "learnt": sum(1 for c in cards if c["learnt"]), "answers": len(rows)}


def backup_students(path: Path, target: Path) -> int:
    """SQLite's online backup of ``students.sqlite`` to ``target`` (checked); the number of students copied.
    sqlite3.Error or OSError when it cannot be done."""
    return backup_sqlite(f"file:{path}?mode=ro", target, ("students",))[0]


def students_backup_name(journal_backup: Path) -> Path:
    """Where `gamao journal DIR --backup FILE` puts the students' copy: FILE's name with ``-students``."""
    return journal_backup.with_name(f"{journal_backup.stem}-students{journal_backup.suffix or '.sqlite'}")


def anki_text(cards: list[dict[str, Any]], lang: str = "pt") -> str:
    """A student's cards as a text file Anki imports (File > Import: tab-separated, the header lines name the
    separator; Anki 2.1.54 and later): front = the position (Position ID, XGID-free), the side and the dice and the
    question; back = the best play, what the student played and the equity lost."""
    pt = lang != "en"
    lines = ["#separator:tab", "#html:false", "#tags column:3"]
    for c in cards:
        side = ("claras" if c["side"] == "light" else "escuras") if pt else c["side"]
        loss = f"{c['loss']:.3f}".replace(".", "," if pt else ".")
        if c.get("kind") == "cube":
            front, back = _anki_cube(c, side, loss, pt)
            lines.append("\t".join(" ".join(x.split()) for x in (front, back, f"gamao cubo partida-{c['source']}")))
            continue
        dice = f"{c['dice'][0]}-{c['dice'][1]}"
        front = (f"Position ID {c['position_id']} ({side} jogam {dice}): qual é a melhor jogada?" if pt else
                 f"Position ID {c['position_id']} ({side} to play {dice}): what is the best play?")
        back = (f"{pt_words(c['best'], pt)}. Na partida: {pt_words(c['played'], pt)} (perdeu {loss})." if pt else
                f"{c['best']}. In the match: {c['played']} (lost {loss}).")
        tags = f"gamao partida-{c['source']}"
        lines.append("\t".join(" ".join(x.split()) for x in (front, back, tags)))
    return "\n".join(lines) + "\n"


CUBE_WORDS = {"pt": {"double": "dobrar", "no_double": "não dobrar", "take": "aceitar", "pass": "recusar"},
              "en": {"double": "double", "no_double": "no double", "take": "take", "pass": "pass"}}


def _anki_cube(c: dict[str, Any], side: str, loss: str, pt: bool) -> tuple[str, str]:
    words = CUBE_WORDS["pt" if pt else "en"]
    take = CUBE_QUESTIONS.get(c["played"]) == "take"
    if pt:
        question = f"as {side} aceitam?" if take else f"as {side} dobram?"
        front = f"Position ID {c['position_id']}, Match ID {c['match_id'] or '-'}: {question}"
        back = f"{words[c['best']].capitalize()}. Na partida: {words[c['played']]} (perdeu {loss})."
    else:
        question = f"does {side} take?" if take else f"does {side} double?"
        front = f"Position ID {c['position_id']}, Match ID {c['match_id'] or '-'}: {question}"
        back = f"{words[c['best']].capitalize()}. In the match: {words[c['played']]} (lost {loss})."
    return front, back


def pt_words(play: str, pt: bool) -> str:
    return pt_play(play) if pt else play
