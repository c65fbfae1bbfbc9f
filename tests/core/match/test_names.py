"""Players' names in every export (issue 34, finding 9): "Eve : 9" as a name made an exported .mat that the
reader took as the final score 9-0, and newlines and NUL went into the files as they were. Now each writer
writes a name as one line (core/match/names.py) and the .mat's colon as a look-alike letter, and the referee's
`new_match` refuses a name the files cannot hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.match.formats.mat import read_mat, write_mat
from core.match.formats.sgf import read_sgf, write_sgf
from core.match.names import MAX_NAME, mat_name, name_problem, one_line
from core.match.replay import replay
from core.referee.events import EventError, parse_event
from core.rules.position import Side
from tests.core.match.roundtrip import reads_back_the_same

HOSTILE = ["Eve : 9", "Eve:9    Bob : 3", "Ana\nGame 2", "Nul\x00l", "Tab\tbed", "Line\u2028sep", "\u202eevE",
           " : 0   x : 7"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_cannot_change_the_score_or_the_lines_of_a_mat(samples_dir: Path, name: str) -> None:
    rec = read_mat((samples_dir / "studio/solnze-Lasse_3pt_2024-05-11.mat").read_text())
    first = replay(rec)
    rec.players = {Side.LIGHT: name, Side.DARK: "Bruno"}
    text = write_mat(rec)
    again = reads_back_the_same(rec, write_mat, read_mat, name)
    assert again.players[Side.LIGHT] == mat_name(name).strip()
    assert again.players[Side.DARK] == "Bruno"
    assert replay(again).final_score == first.final_score
    assert "\x00" not in text and "\u2028" not in text and "\u202e" not in text
    assert text.count("\n Game ") == len(rec.games)  # no line the name started


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_stays_one_sgf_value(samples_dir: Path, name: str) -> None:
    rec = read_mat((samples_dir / "studio/solnze-Lasse_3pt_2024-05-11.mat").read_text())
    rec.players = {Side.LIGHT: name + "]PB[Mallory", Side.DARK: "Bruno"}
    again = reads_back_the_same(rec, write_sgf, read_sgf, name)
    assert again.players == {Side.LIGHT: one_line(name + "]PB[Mallory"), Side.DARK: "Bruno"}


@pytest.mark.parametrize(("name", "problem"), [
    ("Ana\nB", "U+000A"), ("A\x00", "U+0000"), ("\u202eevE", "U+202E"), ("   ", "only spaces"),
    ("x" * (MAX_NAME + 1), "at most 40"),
])
def test_the_referee_refuses_a_name_the_files_cannot_hold(name: str, problem: str) -> None:
    assert problem in (name_problem(name) or "")
    with pytest.raises(EventError, match="players.dark"):
        parse_event({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": name}})


def test_ordinary_names_pass_untouched() -> None:
    for name in ("Ana", "José da Silva", "Łukasz", "李", "Eve : 9"):
        assert name_problem(name) is None
        assert one_line(name) == name
    assert mat_name("Eve : 9") == "Eve \ua789 9"
