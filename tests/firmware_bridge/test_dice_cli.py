"""`gamao dice` and `gamao dice-sim`: in process against a simulated unit, and as two real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.dice import describe
from cli.main import main
from firmware_bridge.sim import DiceSimulator
from firmware_bridge.simscript import ScriptError, Step, parse_script

GAMAO = [sys.executable, "-m", "cli"]
ROOT = Path(__file__).resolve().parents[2]


def test_dice_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with DiceSimulator(tmp_path / "dice") as sim:
        sim.roll(6, 3)
        sim.roll(2, 5, cocked=(False, True))
        assert main(["dice", "--port", sim.port, "--json", "--count", "2", "--seconds", "10"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["event"] == "hello"
    assert lines[1:] == [{"event": "roll", "seq": 0, "dice": [6, 3], "cocked": [False, False]},
                         {"event": "roll", "seq": 1, "dice": [2, 5], "cocked": [False, True]}]


def test_dice_readable_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with DiceSimulator(tmp_path / "dice") as sim:
        sim.button("ack_cocked")
        sim.roll(4, 4, cocked=(True, True))
        assert main(["dice", "--port", sim.port, "--count", "1", "--seconds", "10"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "unit SIM1 connected (firmware 1.0, protocol 1)",
        "button ack_cocked",
        "roll #1: 4-4  (die 1 and die 2 cocked: roll again)",
    ]


def test_describe_every_event() -> None:
    assert describe({"event": "lost", "why": "no frame from the unit for 3 s"}) == "unit lost: no frame from the unit for 3 s"
    assert describe({"event": "reconnected"}) == "unit back"
    assert describe({"event": "rejected", "why": "bad CRC"}) == "rejected: bad CRC"
    assert describe({"event": "button", "name": "end_turn", "side": "dark"}) == "button end_turn (dark)"
    assert describe({"event": "unit_error", "code": 3, "text": "queue full"}) == "unit error 3: queue full"
    assert describe({"event": "heartbeat", "uptime_ms": 1500, "battery": None}) == "heartbeat: up 1.5 s, mains"


def test_dice_missing_port_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "--port", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gamao dice: no such port: {tmp_path / 'nope'}. Plug the dice unit in")
    assert "Traceback" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may open any file")
def test_dice_port_without_permission(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = tmp_path / "locked"
    port.touch(mode=0o000)
    assert main(["dice", "--port", str(port)]) == 2
    assert "no permission to open" in capsys.readouterr().err


def test_dice_port_that_is_not_a_serial_port(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    assert main(["dice", "--port", str(notes)]) == 2
    assert capsys.readouterr().err == (f"gamao dice: {notes} is not a serial port (a terminal device); "
                                       "give the dice unit's port, e.g. /dev/gamao-dice\n")


def test_dice_bad_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "--count", "0"]) == 2
    assert capsys.readouterr().err == "gamao dice: --count must be 1 or more\n"


def test_sim_script_language() -> None:
    assert parse_script("63 # opening\n6c3; 63c\nr\nb end_turn\nwait 0.5\nu\np\nq") == [
        Step("roll", (6, 3)), Step("roll", (6, 3), (True, False)), Step("roll", (6, 3), (False, True)),
        Step("random"), Step("button", name="end_turn"), Step("wait", seconds=0.5), Step("unplug"), Step("plug"),
        Step("quit"),
    ]
    with pytest.raises(ScriptError) as info:
        parse_script("63\n73", "game.txt")
    assert str(info.value).startswith("game.txt line 2: cannot read '73': type a roll like 63")


def test_sim_bad_script_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["dice-sim", "--link", str(tmp_path / "d"), "--rolls", "63; 07"]) == 2
    assert capsys.readouterr().err.startswith("gamao dice-sim: --rolls line 2: cannot read '07'")
    assert main(["dice-sim", "--link", str(tmp_path / "d"), "--script", str(tmp_path / "none.txt")]) == 2
    assert "gamao dice-sim: cannot read the script:" in capsys.readouterr().err


def test_two_processes_sim_and_dice_with_an_unplug(tmp_path: Path) -> None:
    link = tmp_path / "gamao-dice"
    script = tmp_path / "game.txt"
    script.write_text("wait 0.5\n63\n5c2\nwait 0.5\nu\nr\nwait 0.3\np\n")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    sim = subprocess.Popen([*GAMAO, "dice-sim", "--link", str(link), "--script", str(script), "--ack-timeout", "20"],
                           cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        dice = subprocess.run([*GAMAO, "dice", "--port", str(link), "--wait", "--json", "--count", "3",
                               "--seconds", "30"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        sim_out, sim_err = sim.communicate(timeout=30)
    finally:
        if sim.poll() is None:
            sim.kill()
    assert dice.returncode == 0, dice.stderr
    events = [json.loads(line) for line in dice.stdout.splitlines()]
    rolls = [e for e in events if e["event"] == "roll"]
    assert [r["seq"] for r in rolls] == [0, 1, 2]
    assert rolls[0]["dice"] == [6, 3] and rolls[1] == {"event": "roll", "seq": 1, "dice": [5, 2], "cocked": [True, False]}
    kinds = [e["event"] for e in events]
    assert "lost" in kinds and "reconnected" in kinds
    assert sim.returncode == 0, sim_err
    assert sim_out.splitlines()[0].startswith(f"dice unit simulated at {link} (-> /dev/pts/")
    assert sim_out.splitlines()[-1] == "every roll acknowledged"


def test_keyboard_mode(tmp_path: Path) -> None:
    link = tmp_path / "kb"
    proc = subprocess.Popen([*GAMAO, "dice-sim", "--link", str(link)], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate("63\nbogus\nq\n", timeout=30)
    assert proc.returncode == 0, err
    lines = out.splitlines()
    assert lines[2:] == ["rolled 6-3 (seq 0)", "cannot read 'bogus': " + lines[1], "quit"]
    assert not link.exists()
