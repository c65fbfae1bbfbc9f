"""`gamao dice-stats PATH [--json]`: the command-line contract, run as a real process."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from core.match.dicestats import dice_stats
from kiosk.dicelog import DICE_LOG, DiceLog
from kiosk.journal import Journal

GAMAO = [sys.executable, "-m", "cli"]


def gamao(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMAO, *args], capture_output=True, text=True, timeout=120)


def bridge_lines(n: int, seed: int = 3) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = [{"event": "hello", "unit": "SIM1", "boot": "b1", "protocol": 1}]
    for seq in range(1, n + 1):
        out.append({"event": "roll", "seq": seq, "dice": [rng.randint(1, 6), rng.randint(1, 6)],
                    "cocked": [seq % 50 == 0, False]})
        if seq % 97 == 0:
            out.append(dict(out[-1]))  # the unit re-sent it
        if seq % 10 == 0:
            out.append({"event": "heartbeat"})
    return out


def test_jsonl_of_bridge_events_json_is_dice_stats(tmp_path: Path) -> None:
    lines = bridge_lines(700)
    path = tmp_path / "rolls.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))
    out = gamao("dice-stats", str(path), "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got == json.loads(json.dumps(dice_stats(lines)))
    assert got["rolls"] == 700 - 14 and got["cocked"] == 14 and got["duplicates"] == 7
    assert [len(d["counts"]) for d in got["dice"]] == [6, 6] and len(got["pairs"]["counts"]) == 36
    human = gamao("dice-stats", str(path))
    assert human.returncode == 0 and "die 1" in human.stdout and "doubles" in human.stdout


def test_data_folder_dice_log_across_matches_with_filters(tmp_path: Path) -> None:
    log = DiceLog(tmp_path)
    log.seen({"event": "hello", "unit": "GAMAO1", "boot": "x"})
    for i, e in enumerate(bridge_lines(120)[1:]):
        log.seen(e, match=1 if i < 60 else 2, now=1_764_000_000.0 + i)
    assert (tmp_path / DICE_LOG).is_file()
    everything = json.loads(gamao("dice-stats", str(tmp_path), "--json").stdout)
    second = json.loads(gamao("dice-stats", str(tmp_path), "--json", "--match", "2").stdout)
    assert everything["rolls"] + everything["cocked"] == 120
    assert 0 < second["rolls"] < everything["rolls"]
    assert json.loads(gamao("dice-stats", str(tmp_path), "--json", "--unit", "OTHER").stdout)["rolls"] == 0


def test_old_data_folder_reads_the_journals_rolls(tmp_path: Path) -> None:
    j = Journal(tmp_path / "journal.sqlite")
    j.append({"event": "new_match", "length": 3})
    j.append({"event": "roll", "seq": 1, "dice": [3, 1], "cocked": [False, False]})
    j.append({"event": "roll", "dice": [6, 6], "cocked": [False, False]})  # typed at the screen: not the unit's
    j.close()
    got = json.loads(gamao("dice-stats", str(tmp_path), "--json").stdout)
    assert got["rolls"] == 1 and got["dice"][0]["counts"] == [0, 0, 1, 0, 0, 0]


def test_clear_errors(tmp_path: Path) -> None:
    out = gamao("dice-stats", str(tmp_path / "missing.jsonl"))
    assert out.returncode == 2 and "no such file" in out.stderr and "Traceback" not in out.stderr
    out = gamao("dice-stats", str(tmp_path))
    assert out.returncode == 2 and "no dice.jsonl and no journal.sqlite" in out.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "roll", "dice": [3, 1]}\n{"event": "roll", "dice": [9, 1]}\n')
    out = gamao("dice-stats", str(bad))
    assert out.returncode == 2 and "line 2" in out.stderr and '"dice" must be two numbers' in out.stderr
    bad.write_text("not json\n")
    assert "line 1 is not JSON" in gamao("dice-stats", str(bad)).stderr
    bad.write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8" in gamao("dice-stats", str(bad)).stderr
    assert "YYYY-MM-DD" in gamao("dice-stats", str(tmp_path), "--day", "yesterday").stderr
