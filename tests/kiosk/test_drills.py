"""The teacher's table (issue 38): students in SQLite, drills graded by what the board shows or the student enters,
the student's own mistakes on a Leitner schedule, and a simulated month of one student's sessions."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from core.coach.drills import INTERVALS, keith_advice, keith_count, method_text, race_position
from core.rules.position import Position, Side
from kiosk.coach_engines import CoachEngines, default_engine
from kiosk.config import Settings
from kiosk.drills import DrillRoom
from kiosk.drills_chart import progress_svg
from kiosk.main import create_app
from kiosk.students import DAY, STUDENTS, StudentStore, anki_text
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "drills"
START = Position.start()
T0 = 1_780_000_000.0  # a fixed day, so the schedule's dates are the same on every run


def board_event(pos: Position) -> dict[str, Any]:
    d = pos.to_dict()
    return {"event": "board", **d, "stable": True}


def blunder_row(before: Position, dice: tuple[int, int], played: str, best: str, loss: float,
                side: str = "light") -> dict[str, Any]:
    """A row of the coach's review (kiosk/coach_records.PlayRecord.as_json), as the coach rated it."""
    return {"side": side, "dice": list(dice), "play": played, "best": best, "loss": loss,
            "position_id": before.position_id(Side(side)), "match_id": None}


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@contextmanager
def gnubg_room(store: StudentStore, seed: int) -> Iterator[DrillRoom]:
    """A drill room coached by the real GNU Backgammon (kiosk/coach_engines.py); the test is skipped without it."""
    engines = CoachEngines(default_engine, threading.RLock())
    if engines.main() is None:
        pytest.skip(f"GNU Backgammon is not available: {engines.error}")
    try:
        yield DrillRoom(store, Clock(T0), seed=seed, coach=SimpleNamespace(engines=engines))
    finally:
        engines.close()


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = StudentStore(tmp_path / STUDENTS)
    yield s
    s.close()


def test_students_are_made_exported_and_deleted_with_all_their_rows(store: StudentStore, tmp_path: Path) -> None:
    ana = store.create("  Ana   Clara ")
    assert ana["name"] == "Ana Clara"
    bruno = store.create("Bruno")
    for bad in ("", "   ", "x" * 41, "tab\there\x00", 5):
        with pytest.raises(ValueError):
            store.create(bad)
    with pytest.raises(ValueError, match="already"):
        store.create("Ana Clara")
    store.answer(ana["id"], "pips", True, 12.5, {"given": {"light": 1, "dark": 2}}, at=T0)
    added = store.record_match(ana["id"], "7", "light", [
        blunder_row(START, (3, 1), "24/21 24/23", "8/5 6/5", 0.091),
        blunder_row(START, (6, 5), "24/18 18/13", "24/13", 0.079),              # below the mark: no card
        blunder_row(START, (4, 2), "13/9 13/11", "8/4 6/4", 0.12, side="dark"),  # the opponent's: not hers
    ], pr=9.4, at=T0)
    assert added == 1
    exported = store.export(ana["id"])
    assert exported["student"]["name"] == "Ana Clara"
    assert [a["kind"] for a in exported["answers"]] == ["pips"] and len(exported["cards"]) == 1
    assert exported["matches"] == [{"match": "7", "side": "light", "at": T0, "pr": 9.4}]
    json.dumps(exported)
    anki = anki_text(exported["cards"]).splitlines()
    assert anki[:2] == ["#separator:tab", "#html:false"] and len(anki) == 4
    front, back, tags = anki[3].split("\t")
    assert START.position_id() in front and "3-1" in front and back.startswith("8/5 6/5. Na partida: 24/21 24/23")
    assert tags == "gamao partida-7"
    store.delete(ana["id"])
    with pytest.raises(KeyError):
        store.export(ana["id"])
    db = sqlite3.connect(tmp_path / STUDENTS)
    for table in ("answers", "cards", "matches"):
        assert db.execute(f"SELECT COUNT(*) FROM {table} WHERE student = ?", (ana["id"],)).fetchone()[0] == 0
    assert [s["name"] for s in store.students()] == ["Bruno"] and bruno["id"] != ana["id"]


def test_pip_count_drill_set_up_by_guidance_then_answered_on_the_pad(store: StudentStore) -> None:
    clock = Clock(T0)
    room = DrillRoom(store, clock, seed=1)
    sid = store.create("Ana")["id"]
    room.board(board_event(START))                      # the camera sees the start
    view = room.start(sid, "pips")["session"]
    target = Position.from_position_id(view["target"]["position_id"])
    assert view["stage"] == "setup" and view["setup"]["checkers_moved"] > 0
    assert view["setup"]["moves"][0]["words"]["pt"].startswith(("Claras: leve", "Escuras: leve"))
    with pytest.raises(LookupError):
        room.answer_pips(1, 2)                          # not before the board shows the race
    # the teacher follows the first step: the guidance is one step shorter
    first = view["setup"]["moves"][0]
    halfway = _lift(START, first)
    room.board(board_event(halfway))
    assert room.view()["session"]["setup"]["checkers_moved"] == view["setup"]["checkers_moved"] - first["count"]
    room.board(board_event(target))
    clock.t += 40
    assert room.view()["session"]["stage"] == "answer"
    clock.t += 21.5
    result = room.answer_pips(target.pips(Side.LIGHT), target.pips(Side.DARK) + 2)["session"]["result"]
    assert result["right"] is False and result["off_by"] == {"light": 0, "dark": 2} and result["seconds"] == 61.5
    assert result["method_text"]["light"].endswith(f"= {target.pips(Side.LIGHT)}")
    # timed from the board matching the target (40 + 21.5 s), not from when the screen was last looked at
    assert store.progress(sid)["kinds"]["pips"] == [{"week": 0, "answers": 1, "accuracy": 0.0, "seconds": 61.5}]


def _lift(pos: Position, move: dict[str, Any]) -> Position:
    side = Side(move["side"])
    place = {"bar": 25, "off": 0}
    rel = [list(pos.own(Side.LIGHT)), list(pos.own(Side.DARK))]
    counts = rel[side.index]
    counts[place.get(move["from"], move["from"])] -= move["count"]
    counts[place.get(move["to"], move["to"])] += move["count"]
    return Position((tuple(rel[0]), tuple(rel[1])), Side.LIGHT)


def test_a_card_from_the_students_match_is_graded_by_the_board(store: StudentStore) -> None:
    clock = Clock(T0)
    room = DrillRoom(store, clock)
    sid = store.create("Ana")["id"]
    # R02/R03: her 31 from the start played 24/21 24/23 in a recorded match; the coach's best was 8/5 6/5
    store.record_match(sid, "3", "light", [blunder_row(START, (3, 1), "24/21 24/23", "8/5 6/5", 0.16)], at=T0)
    room.board(board_event(START))
    view = room.start(sid, "mistake")["session"]
    assert view["stage"] == "play" and view["dice"] == [3, 1]     # the board already shows it
    room.board(board_event(START.play((3, 1), "24/21 24/23")))    # the same mistake again
    result = room.view()["session"]["result"]
    assert result["right"] is False and result["box"] == 1 and result["due"] == int(T0 // DAY) + 1
    clock.t += DAY
    room.board(board_event(START))
    room.start(sid, "mistake")
    room.board(board_event(_lift(START, {"side": "light", "from": 8, "to": 5, "count": 1})))  # half a play: not yet
    assert room.view()["session"]["stage"] == "play"
    room.board(board_event(START.play((3, 1), "8/5 6/5")))
    result = room.view()["session"]["result"]
    assert result["right"] is True and result["box"] == 2 and result["due"] == int(clock.t // DAY) + INTERVALS[2]
    with pytest.raises(LookupError):
        room.start(sid, "mistake")                                # not due again before its day


def test_a_simulated_month_of_one_students_sessions() -> None:
    """30 days: each day 6 pip counts (right more often as the weeks go by) and every card due; the cards come from
    two recorded matches. A card answered right each time is seen on days 0, 2, 6, 14 and 30 (Leitner: 2, 4, 8, 16
    days), then learnt; a wrong answer sends it back to box 1, the next day."""
    import tempfile

    rng = random.Random(38)
    with tempfile.TemporaryDirectory() as folder:
        store = StudentStore(Path(folder) / STUDENTS)
        sid = store.create("Ana")["id"]
        day0 = int(T0 // DAY)
        rows = [blunder_row(race_position(random.Random(k)), (6, 5), "a", "b", 0.08 + k / 100) for k in range(6)]
        store.record_match(sid, "1", "light", rows[:4], pr=14.2, at=T0)
        seen: dict[int, list[int]] = {}
        for day in range(31):
            at = T0 + day * DAY
            skill = min(0.95, 0.4 + day / 50)
            for _ in range(6):
                store.answer(sid, "pips", rng.random() < skill, round(60 - day * 1.2 + rng.random() * 5, 1), {},
                             at=at)
            if day == 10:
                store.record_match(sid, "2", "light", rows[4:], pr=10.1, at=at)
            for card in store.due_cards(sid, day0 + day):
                seen.setdefault(card["id"], []).append(day)
                right = card["id"] == 1 or rng.random() < skill
                store.answer_card(card["id"], right, at + 60, 20.0, "x")
        progress = store.progress(sid)
        store.close()
    assert seen[1] == [0, 2, 6, 14, 30]                          # always right: the Leitner intervals, then learnt
    assert progress["learnt"] >= 1
    pips = progress["kinds"]["pips"]
    assert [w["week"] for w in pips] == [0, 1, 2, 3, 4] and sum(w["answers"] for w in pips) == 31 * 6
    assert pips[-1]["accuracy"] > pips[0]["accuracy"] and pips[-1]["seconds"] < pips[0]["seconds"]
    svg = progress_svg(progress)
    assert svg.startswith("<svg") and "Contagem de casas" in svg and "Meus erros" in svg
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "month.svg").write_text(svg)
    (SHOTS / "month.json").write_text(json.dumps({"seen": seen, "progress": progress}, indent=1))


def test_keith_count_and_the_counting_method() -> None:
    # a race: light 3 on the 1-point, none on 4-6 -> +4 (two extra on the ace) +3 (three empty points)
    light = [3, 2, 0, 0, 0, 0] + [0] * 18
    dark = [0] * 18 + [0, 0, 0, 0, 2, 3]
    pos = Position.from_physical(light, dark)
    assert keith_count(pos, Side.LIGHT) == pos.pips(Side.LIGHT) + 4 + 1 + 3
    advice = keith_advice(pos, Side.LIGHT)
    assert set(advice) == {"counts", "lead", "double", "redouble", "take"}
    assert method_text([{"point": 6, "checkers": 5, "pips": 30}, {"point": 1, "checkers": 2, "pips": 2}]) == (
        "6×5 + 1×2 = 30 + 2 = 32")


def test_the_api_guards_and_refuses_bad_input(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path / "data", language="en"), coach_engine=None)
    other = TestClient(app, client=STRANGER)  # the same app, from another device (one lifespan: the screen's)
    with TestClient(app, client=TOUCH_SCREEN) as screen:
        made = screen.post("/api/students", json={"name": "Ana"})
        assert made.status_code == 201
        sid = made.json()["id"]
        assert other.post("/api/students", json={"name": "Eve"}).status_code == 401
        assert screen.post("/api/students", json={"name": ""}).status_code == 422
        assert screen.post("/api/students", json={"name": "Ana", "x": 1}).status_code == 422
        assert screen.delete(f"/api/students/{sid}").status_code == 401         # the PIN, even at the screen
        assert screen.get(f"/api/students/{sid}/export").status_code == 401
        bad = screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "target": "nonsense"})
        assert bad.status_code == 422 and "Position ID" in bad.json()["detail"]["message"]
        assert screen.post("/api/drills/start", json={"student": 99, "kind": "pips"}).status_code == 404
        assert screen.post("/api/drills/start", json={"student": sid, "kind": "mistake"}).status_code == 409
        assert screen.post("/api/drills/pips", json={"light": 1, "dark": 2}).status_code == 409
        xg = screen.post("/api/drills/start", json={"student": sid, "kind": "setup",
                                                    "target": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"})
        assert xg.status_code == 200, xg.text
        assert xg.json()["session"]["target"]["position_id"] == "4HPwATDgc/ABMA"
        # a recorded match's move by dark: its Position ID is encoded for dark
        after = START.play((3, 1), "8/5 6/5").with_turn(Side.DARK)
        dark = screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "turn": "dark",
                                                      "target": after.position_id(Side.DARK)})
        assert dark.status_code == 200
        assert dark.json()["session"]["target"]["board"] == after.to_dict()
        assert screen.get(f"/api/students/{sid}/progress.svg").headers["content-type"].startswith("image/svg+xml")
        assert screen.post("/api/pin", json={"pin": PIN}).status_code == 204
        pin = {"X-Gamao-PIN": PIN}
        assert screen.get(f"/api/students/{sid}/export", headers=pin).json()["student"]["name"] == "Ana"
        assert screen.get(f"/api/students/{sid}/anki.txt").status_code == 401
        assert screen.get(f"/api/students/{sid}/anki.txt", headers=pin).text.startswith("#separator:tab")
        assert screen.delete(f"/api/students/{sid}", headers=pin).status_code == 200
        assert screen.get(f"/api/students/{sid}/progress").status_code == 404


def test_the_journals_backup_copies_the_students_too(tmp_path: Path) -> None:
    from cli.journal import backup
    from kiosk.journal import Journal
    from kiosk.students import students_backup_name

    data = tmp_path / "data"
    data.mkdir()
    Journal(data / "journal.sqlite").close()
    store = StudentStore(data / STUDENTS)  # open while backed up, as the kiosk keeps it
    store.create("Ana")
    try:
        assert backup(data / "journal.sqlite", tmp_path / "backup.sqlite") == 0
    finally:
        store.close()
    copy = StudentStore(students_backup_name(tmp_path / "backup.sqlite"))
    assert copy.path.name == "backup-students.sqlite" and [s["name"] for s in copy.students()] == ["Ana"]
    copy.close()


def test_an_opening_and_a_reply_played_on_the_board_are_rated_by_gnu_backgammon(store: StudentStore) -> None:
    # R02-R04: the start, an opening roll; the real GNU Backgammon ranks the plays (kiosk/coach_engines.py)
    with gnubg_room(store, seed=3) as room:
        sid = store.create("Ana")["id"]
        sizes = []
        for attempt in range(4):
            view = room.start(sid, "opening")["session"]
            target = Position.from_position_id(view["target"]["position_id"])
            room.board(board_event(target))  # set up (the guidance is the pips drill's, tested above)
            dice = tuple(view["dice"])
            assert room.view()["session"]["stage"] == "play"
            legal = target.legal_plays(dice)
            ranked = room.session["ranked"]  # type: ignore[index]
            # the best play once, then the engine's worst
            pick = ranked[0] if attempt % 2 == 0 else ranked[-1]
            room.board(board_event(Position.from_position_id(pick.result, turn=Side.LIGHT)))
            result = room.view()["session"]["result"]
            assert result is not None and result["played"] == pick.play and len(legal) >= len(ranked) >= 1
            assert result["right"] is (attempt % 2 == 0) or len(ranked) == 1
            assert pick.play in result["words"]["pt"]
            sizes.append((view["target"]["position_id"], dice, result["size"], result["reply"]))
        assert any(r for *_, r in sizes) and any(r is None for *_, r in sizes), sizes  # openings and replies
        assert {s for _, _, s, _ in sizes} >= {"best", "blunder"}, sizes
        assert [a["kind"] for a in store.export(sid)["answers"]] == ["opening"] * 4


def test_a_cube_decision_in_a_race_graded_by_keiths_rule_without_the_engine(store: StudentStore) -> None:
    room = DrillRoom(store, Clock(T0), seed=6)
    sid = store.create("Ana")["id"]
    view = room.start(sid, "cube")["session"]
    target = Position.from_position_id(view["target"]["position_id"])
    lead = keith_advice(target, Side.LIGHT)["lead"]
    assert -1 <= lead <= 7  # a close race, near the doubling window
    with pytest.raises(LookupError):
        room.answer_cube(True, True)  # not before the board shows it
    room.board(board_event(target))
    assert room.view()["session"]["stage"] == "answer"
    keith = keith_advice(target, Side.LIGHT)
    result = room.answer_cube(keith["double"], keith["take"])["session"]["result"]
    assert result["right"] is True and result["by"] == "keith" and result["truth"] == {
        "double": keith["double"], "take": keith["take"]}
    assert store.export(sid)["answers"][0]["kind"] == "cube"


def test_a_cube_decision_graded_by_gnu_backgammon(store: StudentStore) -> None:
    with gnubg_room(store, seed=6) as room:
        sid = store.create("Ana")["id"]
        target = Position.from_position_id(room.start(sid, "cube")["session"]["target"]["position_id"])
        room.board(board_event(target))
        result = room.answer_cube(False, False)["session"]["result"]
        assert result["by"] == "gnubg" and result["action"] in ("no_double", "double_take", "double_pass",
                                                                "too_good_take", "too_good_pass")
        assert result["right"] is (result["truth"] == {"double": False, "take": False})


def test_a_match_whose_player_is_named_as_a_student_is_hers(tmp_path: Path) -> None:
    """The kiosk's real referee service: a new match with "ana" playing dark is Ana's (names as the
    students' list writes them, case and spaces aside); the refresh reads the coach's review (none here)."""
    from kiosk.service import RefereeService

    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        with TestClient(app, client=TOUCH_SCREEN) as screen:
            sid = screen.post("/api/students", json={"name": "Ana"}).json()["id"]
            service.submit({"event": "new_match", "length": 3, "players": {"light": "Bruno", "dark": " ana "}})
            mine = app.state.drills.store.matches_of(sid)
            assert [(m["side"], m["pr"]) for m in mine] == [("dark", None)]
            refreshed = screen.post(f"/api/students/{sid}/matches/refresh")
            assert refreshed.status_code == 200 and refreshed.json()["matches"] == 1
    finally:
        service.close()


def test_a_bear_off_played_on_the_board_is_rated_by_gnu_backgammon(store: StudentStore) -> None:
    with gnubg_room(store, seed=9) as room:
        sid = store.create("Ana")["id"]
        view = room.start(sid, "bearoff")["session"]
        target = Position.from_position_id(view["target"]["position_id"])
        assert all(not target.own(s)[p] for s in (Side.LIGHT, Side.DARK) for p in range(7, 26))  # R10: all home
        room.board(board_event(target))
        best = room.session["ranked"][0]  # type: ignore[index]
        room.board(board_event(Position.from_position_id(best.result, turn=Side.LIGHT)))
        result = room.view()["session"]["result"]
        assert result["right"] is True and result["size"] == "best" and result["played"] == best.play
        assert store.export(sid)["answers"][0]["kind"] == "bearoff"
