"""`gamao replay`: the command-line contract of issue 3, run as a real process.

JSON per file: {"file", "match_length", "games", "plays", "cube_actions", "final_score": [left, right],
"problems": [{"line", "game", "kind", "message"}]}; exit 0 clean, 1 problems, 2 unreadable; --export.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import gamao

KEYS = ["file", "match_length", "games", "plays", "cube_actions", "final_score", "problems"]




@pytest.fixture
def samples(samples_dir: Path) -> Path:
    return samples_dir


def test_replay_json_clean_galaxy_match(samples: Path) -> None:
    path = samples / "galaxy/match10013413.mat"
    out = gamao("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data) == KEYS
    assert data == {
        "file": str(path), "match_length": 5, "games": 5, "plays": 205, "cube_actions": 10,
        "final_score": [5, 2], "problems": [],
    }


def test_replay_json_one_object_per_file(samples: Path) -> None:
    files = [str(p) for p in sorted(samples.glob("*/*.mat"))] + [str(p) for p in sorted(samples.glob("*/*.sgf"))]
    out = gamao("replay", *files, "--json")
    assert out.returncode == 0, out.stderr
    objects = [json.loads(line) for line in out.stdout.splitlines()]
    assert [o["file"] for o in objects] == files
    assert all(o["problems"] == [] for o in objects)


def test_replay_problem_exits_1_with_line_and_kind(samples: Path, tmp_path: Path) -> None:
    text = (samples / "galaxy/match10013413.mat").read_text().replace("  2) 21: 13/11 24/23", "  2) 21: 13/10 24/23")
    bad = tmp_path / "bad.mat"
    bad.write_text(text)
    out = gamao("replay", str(bad), "--json")
    assert out.returncode == 1
    problems = json.loads(out.stdout)["problems"]
    assert problems[0]["line"] == 19 and problems[0]["game"] == 1 and problems[0]["kind"] == "illegal_play"
    assert problems[0]["message"] == "illegal play '24/23 13/10' with 21 in position 4PPgASjgc/ABMA: it moves 4 pips in all but 21 gives 3 (R04)"


def test_replay_human_output(samples: Path) -> None:
    out = gamao("replay", str(samples / "galaxy/match1574521.mat"))
    assert out.returncode == 0
    assert out.stdout == (
        f"{samples / 'galaxy/match1574521.mat'}: 1-point match, 1 game, 1 plays, 0 cube actions, "
        "final score 0-1 (lasse - hornet): no problems\n"
    )


def _broken(tmp_path: Path, samples: Path) -> dict[str, Path]:
    src = (samples / "galaxy/match10013413.mat").read_bytes()
    files = {
        "truncated": src[:1500],
        "binary": bytes(range(256)) * 4,
        "nopoint": src.replace(b"51: 24/23 13/8", b"51: 24/23 31/26", 1),
        "encoding": src.replace(b"lasse", "l\u00e4sse".encode("latin-1")),
        "empty": b"",
        "notmat": b"hello world\n",
        "truncsgf": (samples / "gnubg/charlot1-charlot2_7p_2025-11-08-2305_analysed.sgf").read_bytes()[:3000],
    }
    out = {}
    for name, data in files.items():
        path = tmp_path / (f"{name}.sgf" if name == "truncsgf" else f"{name}.mat")
        path.write_bytes(data)
        out[name] = path
    return out


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        ("binary", 2, "line 1: this is binary data, not a match text file (it contains a NUL byte)"),
        ("encoding", 2, "is not UTF-8 text; save the file as UTF-8"),
        ("empty", 2, "the file is empty"),
        ("notmat", 2, "line 1: expected the match line (such as ' 7 point match') but found 'hello world'"),
        ("truncsgf", 2, "line 3: property A is not closed with ']' (the file is truncated)"),
        ("truncated", 1, "line 46 (game 2) unreadable_line"),
        ("nopoint", 1, "'31' is not a point"),
    ],
)
def test_broken_files_give_a_clear_message_never_a_traceback(
    samples: Path, tmp_path: Path, name: str, code: int, message: str
) -> None:
    path = _broken(tmp_path, samples)[name]
    out = gamao("replay", str(path))
    assert out.returncode == code
    assert "Traceback" not in out.stderr + out.stdout
    assert message in out.stderr + out.stdout


def test_broken_file_json_keeps_the_shape_and_names_the_line(samples: Path, tmp_path: Path) -> None:
    path = _broken(tmp_path, samples)["encoding"]
    out = gamao("replay", str(path), "--json")
    assert out.returncode == 2
    data = json.loads(out.stdout)
    assert list(data) == KEYS
    assert data["problems"][0]["kind"] == "unreadable_file" and data["problems"][0]["line"] == 3


def test_missing_file_exits_2(tmp_path: Path) -> None:
    out = gamao("replay", str(tmp_path / "nope.mat"))
    assert out.returncode == 2
    assert "cannot read the file: No such file or directory" in out.stderr


def test_worst_status_wins_across_files(samples: Path, tmp_path: Path) -> None:
    broken = _broken(tmp_path, samples)
    out = gamao("replay", str(samples / "galaxy/match1574521.mat"), str(broken["nopoint"]), str(broken["binary"]))
    assert out.returncode == 2


@pytest.mark.parametrize("suffix", [".mat", ".sgf"])
def test_export_writes_our_rendering_that_replays_the_same(samples: Path, tmp_path: Path, suffix: str) -> None:
    src = samples / "studio/JuliaH-Llabba_13pt_2023-01-18.mat"
    out_path = tmp_path / f"out{suffix}"
    first = gamao("replay", str(src), "--json", "--export", str(out_path))
    assert first.returncode == 0, first.stderr
    second = gamao("replay", str(out_path), "--json")
    assert second.returncode == 0, second.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert {k: a[k] for k in KEYS[1:]} == {k: b[k] for k in KEYS[1:]}


def test_export_needs_a_known_suffix(samples: Path, tmp_path: Path) -> None:
    out = gamao("replay", str(samples / "galaxy/match1574521.mat"), "--export", str(tmp_path / "x.txt"))
    assert out.returncode == 2
    assert "the name must end in .mat or .sgf" in out.stderr
