"""The clock, the rule sets and the dice statistics on the kiosk (issue 21): the service stamps "t" on a timed
match's events, the journal replays through `gamao referee` to the same verdicts and clock, the clock's press
from the touch screen needs no PIN (a remote one does), POST /api/match takes a rule set, /api/dice-stats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from core.referee.events import write_lines
from core.rules.position import Position
from kiosk.config import ConfigError, Settings
from kiosk.dicelog import DiceLog
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.clock import FakeClock
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN

START = Position.start()


def board(pos: Position) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True}


def test_untimed_events_stay_as_they_were(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "journal.sqlite", ticks=False)
    service.submit({"event": "new_match", "length": 3})
    service.submit({"event": "roll", "dice": [3, 1]})
    events = list(service.journal.events(service.current_match))  # type: ignore[arg-type]
    assert all("t" not in e for e in events) and service.state()["clock"] is None
    service.close()


def test_timed_stream_replays_through_gamao_referee_to_the_same_verdicts_and_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    service = RefereeService(tmp_path / "journal.sqlite", monotonic=clock, ticks=False)
    live: list[dict[str, Any]] = []
    script: list[tuple[float, dict[str, Any]]] = [
        (0, {"event": "new_match", "length": 1, "rules": {"rule_set": "tournament_usbgf", "clock":
                                                         {"per_point": 60, "delay": 12, "delay_kind": "bronstein"}}}),
        (2, {"event": "roll", "dice": [3, 1]}),
        (5, board(START.play((3, 1), "8/5 6/5"))),
        (30, {"event": "button", "name": "clock", "side": "light"}),   # 28 s: 16 from the bank
        (35, {"event": "roll", "dice": [6, 4]}),
        (80, {"event": "tick"}),                                      # dark: the one-minute warning is past
        (96, {"event": "tick"}),                                      # dark's flag (60 s bank, Bronstein)
    ]
    for at, event in script:
        clock.now = 1000.0 + at
        live.extend(service.submit(event))
    state = service.state()
    assert state["clock"]["flag"] == "dark" and state["phase"] == "match_over"
    assert [v["verdict"] for v in live if v["verdict"] in ("clock_warning", "time_out")] == ["clock_warning", "time_out"]
    events = list(service.journal.events(service.current_match))  # type: ignore[arg-type]
    assert [e["t"] - events[0]["t"] for e in events] == [at for at, _ in script]
    path = tmp_path / "timed.jsonl"
    path.write_text(write_lines(events))
    out = subprocess.run([sys.executable, "-m", "cli", "referee", str(path), "--json"], capture_output=True,
                         text=True, timeout=120)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[:-1] == json.loads(json.dumps(live))
    assert lines[-1] == {"clock": state["clock"]}
    service.close()


def test_restart_goes_on_from_the_last_events_time(tmp_path: Path) -> None:
    clock = FakeClock()
    service = RefereeService(tmp_path / "journal.sqlite", monotonic=clock, ticks=False)
    service.submit({"event": "new_match", "length": 1, "rules": {"clock": {"per_point": 120}}})
    clock.now += 3
    service.submit({"event": "roll", "dice": [3, 1]})
    before = service.state()["clock"]
    service.close()
    clock.now += 3600  # an hour with the power off: nobody's time
    again = RefereeService(tmp_path / "journal.sqlite", monotonic=clock, ticks=False)
    assert again.state()["clock"] == before
    clock.now += 1
    again.submit({"event": "tick"})
    assert again.state()["clock"]["light"] == 120.0 and again.state()["clock"]["delay_left"] == 11.0
    again.close()


def test_the_service_ticks_by_itself_when_a_flag_is_due(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "journal.sqlite")
    service.submit({"event": "new_match", "length": 1, "rules": {"clock": {"per_point": 0.2, "delay": 0}}})
    service.submit({"event": "roll", "dice": [3, 1]})
    import time

    deadline = time.monotonic() + 10
    while service.state()["phase"] != "match_over" and time.monotonic() < deadline:
        time.sleep(0.05)
    state = service.state()
    assert state["clock"]["flag"] == "light" and state["verdicts"][-3]["verdict"] == "time_out"
    service.close()


def app_client(tmp_path: Path, who: tuple[str, int], **config: Any) -> TestClient:
    settings = Settings(data_dir=tmp_path / "data", language="en", **config)
    service = RefereeService(":memory:", ticks=False)
    return TestClient(create_app(settings, service=service), client=who)


def test_new_match_with_a_rule_set_and_the_clock_press(tmp_path: Path) -> None:
    with app_client(tmp_path, TOUCH_SCREEN) as c:
        assert c.post("/api/pin", json={"pin": PIN}).status_code == 204
        r = c.post("/api/match", json={"length": 3, "rule_set": "tournament_ukbgf", "rules": {"crawford": True}},
                   headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 200, r.text
        st = c.get("/api/state").json()
        assert st["match"]["rules"]["rule_set"] == "tournament_ukbgf" and st["match"]["rules"]["mode"] == "strict"
        assert st["clock"] == {"light": 360.0, "dark": 360.0, "running": None, "delay_left": 0.0, "delay": 12.0,
                               "delay_kind": "simple", "flag": None, "at": st["clock"]["at"]}
        assert c.post("/api/correction", json={"action": "end_turn"}, headers={"X-Gamao-PIN": PIN}).status_code == 200
        r = c.post("/api/clock", json={"side": "light"})  # the touch screen: no PIN
        assert r.status_code == 200 and r.json()["verdicts"] == []
        assert c.post("/api/clock", json={"side": "blue"}).status_code == 422
        assert c.post("/api/illegal-play", json={"side": "dark", "answer": "accept"}).json()["verdicts"][0]["verdict"] \
            == "answer_not_expected"
        # The old request (no rule set) still sends exactly today's rules.
        c.post("/api/match", json={"length": 5}, headers={"X-Gamao-PIN": PIN})
        rules = c.get("/api/state").json()["match"]["rules"]
        assert "rule_set" not in rules and rules["mode"] == "casual" and c.get("/api/state").json()["clock"] is None


def test_remote_clock_press_needs_the_pin(tmp_path: Path) -> None:
    with app_client(tmp_path, STRANGER) as c:
        assert c.post("/api/clock", json={"side": "light"}).status_code == 401
        assert c.post("/api/illegal-play", json={"side": "dark", "answer": "correct"}).status_code == 401


def test_config_rule_set_is_the_default(tmp_path: Path) -> None:
    with app_client(tmp_path, TOUCH_SCREEN, rule_set="lesson") as c:
        c.post("/api/pin", json={"pin": PIN})
        c.post("/api/match", json={"length": 3}, headers={"X-Gamao-PIN": PIN})
        assert c.get("/api/state").json()["match"]["rules"]["rule_set"] == "lesson"
    try:
        Settings(data_dir=tmp_path, rule_set="chess")
    except ConfigError as exc:
        assert "unknown rule_set 'chess'" in str(exc)
    else:
        raise AssertionError("an unknown rule set was accepted")


def test_dice_stats_route_and_page(tmp_path: Path) -> None:
    log = DiceLog(tmp_path / "data")
    (tmp_path / "data").mkdir()
    log.seen({"event": "hello", "unit": "GAMAO1", "boot": "b"})
    for seq, dice in enumerate([[6, 3], [2, 2], [5, 1]], start=1):
        log.seen({"event": "roll", "seq": seq, "dice": dice, "cocked": [seq == 2, False]}, match=1)
    with app_client(tmp_path, STRANGER) as c:
        body = c.get("/api/dice-stats").json()
        assert body["life"]["rolls"] == 2 and body["life"]["cocked"] == 1 and body["units"] == ["GAMAO1"]
        assert body["match"]["match"] == 1 and body["match"]["rolls"] == 2
        assert set(body["day"]) >= {"day", "rolls", "cocked", "dice", "pairs", "doubles"}
        page = c.get("/dice")
        assert page.status_code == 200 and 'data-testid="dice-stats"' in page.text


def test_the_appliance_logs_the_units_rolls_across_matches(tmp_path: Path) -> None:
    from kiosk.appliance import Appliance
    from kiosk.dicelog import read_rolls

    settings = Settings(data_dir=tmp_path, language="en")
    service = RefereeService(tmp_path / "journal.sqlite", ticks=False)
    appliance = Appliance(settings, service)
    appliance._from_dice({"event": "hello", "unit": "GAMAO7", "boot": "0c"})
    service.submit({"event": "new_match", "length": 1})
    appliance._from_dice({"event": "roll", "seq": 1, "dice": [3, 1], "cocked": [False, False]})
    service.submit({"event": "new_match", "length": 1})
    appliance._from_dice({"event": "roll", "seq": 2, "dice": [5, 5], "cocked": [True, False]})
    service.submit({"event": "button", "name": "ack_cocked"})
    appliance._from_dice({"event": "roll", "seq": 3, "dice": [4, 4], "cocked": [False, False]})  # a tie: again
    appliance._from_dice({"event": "heartbeat"})
    rolls = read_rolls(tmp_path)
    assert [(r["seq"], r["unit"], r["boot"], r["match"]) for r in rolls] == [
        (1, "GAMAO7", "0c", 1), (2, "GAMAO7", "0c", 2), (3, "GAMAO7", "0c", 2)]
    assert "refused" not in rolls[1] and rolls[2]["refused"] == "tied_opening"
    from core.match.dicestats import dice_stats

    assert {k: dice_stats(rolls)[k] for k in ("rolls", "cocked", "rerolls", "refused")} == {
        "rolls": 2, "cocked": 1, "rerolls": 1, "refused": 1}
    assert all(r["day"] and r["at"] for r in rolls)
    service.close()
