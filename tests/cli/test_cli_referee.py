"""`gamao referee EVENTS.jsonl [--json]`: the command-line contract, run as a real process."""

from __future__ import annotations

import json
from pathlib import Path

from core.referee.events import write_lines
from core.rules.position import Position
from tests.cli_run import gamao

START = Position.start()




def board(pos: Position) -> dict:
    return {"event": "board", **pos.to_dict(), "stable": True}


def clean_session() -> list[dict]:
    return [
        {"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}},
        {"event": "roll", "dice": [3, 1], "cocked": [False, False]},
        board(START.play((3, 1), "8/5 6/5")),
        {"event": "roll", "dice": [6, 4], "cocked": [False, False]},
    ]


def test_clean_session_json_exit_0(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text(write_lines(clean_session()))
    out = gamao("referee", str(path), "--json")
    assert out.returncode == 0, out.stderr
    verdicts = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(v["at"], v["verdict"]) for v in verdicts] == [(1, "opening"), (2, "in_progress"), (3, "play"), (3, "roll")]
    assert verdicts[2]["play"] == "8/5 6/5" and verdicts[2]["side"] == "light"
    assert verdicts[2]["position_id"] == START.play((3, 1), "8/5 6/5").position_id()
    assert len(verdicts[2]["match_id"]) == 12


def test_illegal_play_exit_1_plain_sentences(tmp_path: Path) -> None:
    events = clean_session()[:2]
    wrong = START.to_dict()
    wrong["light"][12] -= 1  # 13/8 with 3-1
    wrong["light"][7] += 1
    events.append({"event": "board", **wrong, "stable": True})
    path = tmp_path / "bad.jsonl"
    path.write_text(write_lines(events))
    out = gamao("referee", str(path), "--lang", "pt")
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert lines[0] == "    1 opening      As claras começam, com 3-1."
    assert lines[1].startswith("    2 illegal      ")
    out = gamao("referee", str(path), "--json")
    assert out.returncode == 1
    last = json.loads(out.stdout.splitlines()[-1])
    assert last["verdict"] == "illegal" and set(last["message"]) == {"pt", "en"}


def test_stdin() -> None:
    out = gamao("referee", "-", "--json", stdin=write_lines(clean_session()))
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 4


def test_bad_line_exit_2_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"event": "new_match", "length": 3}\n\n{"event": "roll", "dice": [7, 1]}\n')
    out = gamao("referee", str(path))
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == (f'gamao referee: {path}: event 1: line 3: "dice" must be two numbers from 1 to 6, '
                          f"got [7, 1]\n")


def test_not_json_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "text.jsonl"
    path.write_text("roll 3 1\n")
    out = gamao("referee", str(path))
    assert out.returncode == 2
    assert out.stderr == f"gamao referee: {path}: event 0: line 1: not valid JSON (Expecting value at column 1)\n"


def test_missing_file_exit_2(tmp_path: Path) -> None:
    out = gamao("referee", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2
    assert out.stderr == f"gamao referee: {tmp_path / 'nope.jsonl'}: no such file; give the path of an events .jsonl file\n"
    assert "Traceback" not in out.stderr


def test_timed_stream_ends_with_the_clock(tmp_path: Path) -> None:
    # Issue 21: a timed match's output ends with the clock after the last event (light: 20 s used, 12 s delay).
    events = [
        {"event": "new_match", "length": 3, "rules": {"clock": {"per_point": 120, "delay": 12}}, "t": 0},
        {"event": "roll", "dice": [3, 1], "t": 1},
        {**board(START.play((3, 1), "8/5 6/5")), "t": 10},
        {"event": "button", "name": "clock", "side": "light", "t": 21},
    ]
    path = tmp_path / "timed.jsonl"
    path.write_text(write_lines(events))
    out = gamao("referee", str(path), "--json")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0 and lines[-1] == {"clock": {"light": 352.0, "dark": 360.0, "running": "dark",
                                                           "delay_left": 12.0, "delay": 12.0, "delay_kind": "simple",
                                                           "flag": None, "at": 21}}
    text = gamao("referee", str(path)).stdout.splitlines()
    assert text[-1] == "clock: light 5:52 dark 6:00, running: dark"
