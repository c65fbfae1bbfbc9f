"""`gamao dice-stats` on hostile files (issue 34, finding 10): a clear `gamao dice-stats: ...` line and exit 2 for
any input, never a traceback, and memory bounded (a 300 MB line and /dev/zero are refused after 4 KiB).

Before: 6 of 24 malformed files ended in a traceback (a list or an object where a number belongs, a 2,000-deep
array, a data folder whose journal is not SQLite); a 300 MB line took 635 MB before refusing; /dev/zero grew to
5.4 GB in 6 s. Each file runs in a real process whose peak memory (VmHWM) is read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.match.dicestats import dice_stats
from tests.cli_run import Result, gamao
from tests.soak import soak

MB = 1024 * 1024
ROLL = {"event": "roll", "seq": 1, "dice": [3, 1], "cocked": [False, False]}

HOSTILE_LINES: dict[str, str] = {
    "seq a list": json.dumps({**ROLL, "seq": [1]}),
    "seq an object": json.dumps({**ROLL, "seq": {"a": 1}}),
    "unit a list": json.dumps({**ROLL, "unit": [1]}),
    "boot an object": json.dumps({**ROLL, "boot": {}}),
    "hello unit a list": json.dumps({"event": "hello", "unit": ["x"], "boot": "b"}),
    "cocked a number": json.dumps({**ROLL, "cocked": 1}),
    "cocked an object": json.dumps({**ROLL, "cocked": {"a": True}}),
    "cocked texts": json.dumps({**ROLL, "cocked": ["yes", "no"]}),
    "match a list": json.dumps({**ROLL, "match": [2]}),
    "match a float": json.dumps({**ROLL, "match": 2.5}),
    "day a number": json.dumps({**ROLL, "day": 20261129}),
    "dice an object": json.dumps({**ROLL, "dice": {"a": 1}}),
    "dice floats": json.dumps({**ROLL, "dice": [3.0, 1.0]}),
    "dice booleans": json.dumps({**ROLL, "dice": [True, True]}),
    "dice three": json.dumps({**ROLL, "dice": [1, 2, 3]}),
    "a 2,000-deep array": "[" * 2000 + "]" * 2000,
    "a 2,000-deep object": '{"a":' * 2000 + "1" + "}" * 2000,
    "a huge number": json.dumps({**ROLL, "seq": 10**400}),
    "NaN": '{"event": "roll", "seq": NaN, "dice": [3, 1]}',
    "a list line": "[1, 2]",
    "a string line": '"roll"',
    "not JSON": "roll 3 1",
    "unit too long": json.dumps({**ROLL, "unit": "u" * 65}),
    "Latin-1": "{\"event\": \"roll\", \"unit\": \"caf\xe9\", \"dice\": [3, 1]}",
}


def _run(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """The command in a process of its own; its peak memory in MB. VmHWM of /proc/self/status, not ru_maxrss:
    ru_maxrss keeps the forked parent's size across exec (a long pytest process: 314 MB before the child ran)."""
    code = ("import sys, runpy; sys.argv = ['gamao', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('cli', run_name='__main__')\n"
            "finally:\n    hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "    print('MAXRSS', hwm, file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code, "dice-stats", *args], capture_output=True, text=True,
                         timeout=120)
    rss = next(int(line.split()[1]) for line in out.stderr.splitlines() if line.startswith("MAXRSS"))
    out.stderr = "\n".join(line for line in out.stderr.splitlines() if not line.startswith("MAXRSS"))
    return out, rss / 1024


def _clear(out: subprocess.CompletedProcess[str] | Result) -> str:
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    assert out.returncode == 2, (out.returncode, out.stderr[-500:])
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamao dice-stats: "), lines
    return lines[0]


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_a_malformed_line_is_one_clear_line(tmp_path: Path, name: str) -> None:
    f = tmp_path / "rolls.jsonl"
    f.write_bytes((json.dumps(ROLL) + "\n" + HOSTILE_LINES[name] + "\n").encode()
                  if name != "Latin-1" else (json.dumps(ROLL) + "\n" + HOSTILE_LINES[name] + "\n").encode("latin-1"))
    out = gamao("dice-stats", str(f))  # in process (tests/cli_run.py): 24 cases, no interpreter start each
    assert "line 2" in _clear(out)


def test_a_300_mb_line_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    f = tmp_path / "long.jsonl"
    with f.open("wb") as fh:
        fh.write(b'{"event": "roll", "dice": [3, 1], "unit": "')
        chunk = b"x" * MB
        for _ in range(300):
            fh.write(chunk)
        fh.write(b'"}\n')
    out, rss = _run(str(f))
    assert "line 1 is longer than 4096" in _clear(out)
    assert rss < 200, f"{rss:.0f} MB for a refused line"


def test_dev_zero_is_refused_in_bounded_memory() -> None:
    out, rss = _run("/dev/zero")
    assert "line 1 is longer than 4096" in _clear(out)
    assert rss < 200


def test_a_data_folder_whose_journal_is_not_sqlite(tmp_path: Path) -> None:
    (tmp_path / "journal.sqlite").write_bytes(b"this is not a database\n" * 100)
    assert "not a kiosk journal" in _clear(gamao("dice-stats", str(tmp_path)))


def test_a_data_folder_whose_journal_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "journal.sqlite").mkdir()
    _clear(gamao("dice-stats", str(tmp_path)))


def test_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """200,000 good rolls (--soak; 40,000 by default) are counted one at a time: the statistics equal core's of the
    whole list, the memory stays under 200 MB."""
    f = tmp_path / "many.jsonl"
    n = 200_000 if soak() else 40_000
    rolls = [{"event": "roll", "seq": i, "dice": [1 + i % 6, 1 + (i // 6) % 6]} for i in range(n)]
    f.write_text("".join(json.dumps(r) + "\n" for r in rolls))
    out, rss = _run(str(f), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == dice_stats(rolls)
    assert rss < 200


def test_core_refuses_a_malformed_roll_with_a_value_error() -> None:
    for bad in ({**ROLL, "cocked": 1}, {**ROLL, "seq": [1]}, {**ROLL, "unit": {}}):
        with pytest.raises(ValueError):
            dice_stats([bad])
