"""`gamao analyse`: the command-line contract, run as a real process with the real gnubg."""

from __future__ import annotations

import json
import re
import sys

import pytest

from core import read_mat, replay, write_sgf
from core.match.formats import decode_text
from tests.cli_run import gamao
from tests.datasets import CORPUS

GAMAO = [sys.executable, "-m", "cli"]
MATCH = (CORPUS / "Llabba"
         / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.txt")

# gnubg prints equities to 5 decimals (``set output digits 5``): an error rate (thousandths of equity a play)
# within 0.01 of gnubg's own is a mean loss equal to its last printed digit. The figures are never one machine's:
# a neural network's sums differ between vector units (6.982 on one processor, 6.985 on another for this match),
# so the oracle is the local gnubg's own `analyse match` of the same match, run here.
RATE = 0.01


@pytest.fixture(scope="module")
def gnubg_analysis() -> dict:
    from tests.engine.oracle import analyse_match

    return analyse_match(MATCH, plies=0)


def _gnubgs(analysis: dict, player: str) -> dict:
    """gnubg's own statistics for one player (X light, O dark), in the summary's words."""
    stats = analysis["stats"][player]
    marked = stats["marked"]
    return {"plays": stats["unforced"], "error_rate": 1000 * stats["error"] / stats["unforced"],
            "doubtful": marked["doubtful"], "bad": marked["bad"], "very_bad": marked["very bad"]}


def _lines(out: str) -> tuple[list[dict], dict]:
    rows = [json.loads(line) for line in out.splitlines()]
    return rows[:-1], rows[-1]


def test_analyse_json_lines_then_the_summary(tmp_path, gnubg_analysis) -> None:
    mat = tmp_path / "match.mat"
    mat.write_bytes(MATCH.read_bytes())
    out = gamao("analyse", str(mat), "--json")
    assert out.returncode == 0, out.stderr
    plays, summary = _lines(out.stdout)
    assert plays and all(set(p) == {"game", "number", "side", "dice", "played", "best", "loss", "label"}
                         for p in plays)
    assert {p["game"] for p in plays} == {1, 2, 3}
    assert all(p["loss"] == 0 for p in plays if p["played"] == p["best"])
    assert set(summary) == {"summary", "games", "cube"} and set(summary["summary"]) == {"light", "dark"}
    for side in ("light", "dark"):
        s = summary["summary"][side]
        assert set(s) == {"plays", "error_rate", "doubtful", "bad", "very_bad", "pr", "level", "decisions",
                          "cube_decisions", "cube_error"}
        labelled = [p for p in plays if p["side"] == side and p["label"]]
        assert s["doubtful"] + s["bad"] + s["very_bad"] == len(labelled)
    # the figures gnubg's own `analyse match` gives this match at 0 ply on this machine (tests/engine/oracle.py)
    for player, side in (("X", "light"), ("O", "dark")):
        mine, theirs = summary["summary"][side], _gnubgs(gnubg_analysis, player)
        assert {k: mine[k] for k in ("plays", "doubtful", "bad", "very_bad")} == {
            k: theirs[k] for k in ("plays", "doubtful", "bad", "very_bad")}
        assert abs(mine["error_rate"] - theirs["error_rate"]) <= RATE, (side, mine, theirs)
    assert summary["summary"]["light"]["plays"] == 60 and summary["summary"]["dark"]["plays"] == 52  # the counts


def test_analyse_json_pr_is_500_times_the_listed_errors_over_gnubgs_unforced_plays_and_the_cube(
        gnubg_analysis) -> None:
    """Issue 24: PR = 500 x (the listed checker losses + the listed cube errors) / decisions, where decisions
    are gnubg's own count of unforced checker plays (its `analyse match` statistics) plus the listed cube
    decisions (XG's count); per game the same from the game's lines; the BMAB level named."""
    from core.coach.pr import level

    out = gamao("analyse", str(MATCH), "--json")
    assert out.returncode == 0, out.stderr
    plays, summary = _lines(out.stdout)
    gnubg = gnubg_analysis
    cube = summary["cube"]
    assert cube and {c["action"] for c in cube} <= {"no_double", "double", "take", "pass"}
    assert any(c["action"] == "double" for c in cube)  # this match has doubles: every one is a decision
    for player, side in (("X", "light"), ("O", "dark")):
        s = summary["summary"][side]
        mine = [c for c in cube if c["side"] == side]
        assert s["cube_decisions"] == len(mine)
        assert s["decisions"] == gnubg["stats"][player]["unforced"] + len(mine)
        error = sum(p["loss"] for p in plays if p["side"] == side) + sum(c["loss"] for c in mine)
        assert abs(s["pr"] - 500 * error / s["decisions"]) <= 0.01
        assert s["level"] == level(s["pr"])
        for game, sides in summary["games"].items():
            g = sides[side]
            lost = (sum(p["loss"] for p in plays if p["side"] == side and p["game"] == int(game))
                    + sum(c["loss"] for c in mine if c["game"] == int(game)))
            assert g["decisions"] and abs(g["pr"] - 500 * lost / g["decisions"]) <= 0.01


def test_analyse_reads_sgf_the_same(tmp_path) -> None:
    record = read_mat(decode_text(MATCH.read_bytes()))
    replay(record)
    sgf = tmp_path / "match.sgf"
    sgf.write_text(write_sgf(record))
    mat = tmp_path / "match.mat"
    mat.write_bytes(MATCH.read_bytes())
    a, b = gamao("analyse", str(sgf), "--json"), gamao("analyse", str(mat), "--json")
    assert a.returncode == 0, a.stderr
    assert _lines(a.stdout)[1] == _lines(b.stdout)[1]


def test_analyse_text_form(gnubg_analysis) -> None:
    out = gamao("analyse", str(MATCH))
    assert out.returncode == 0
    last = out.stdout.splitlines()[-2:]
    for line, (player, side) in zip(last, (("X", "light"), ("O", "dark")), strict=True):
        found = re.match(rf"{side}: (\d+) unforced plays, error rate (\d+\.\d) \(", line)
        assert found, line
        theirs = _gnubgs(gnubg_analysis, player)
        assert int(found[1]) == theirs["plays"]
        assert abs(float(found[2]) - theirs["error_rate"]) <= 0.05 + RATE  # printed to one decimal


def test_bad_file_is_one_line_and_exit_2(tmp_path) -> None:
    junk = tmp_path / "junk.mat"
    junk.write_text("this is not a match\n")
    for path in (junk, tmp_path / "missing.mat"):
        out = gamao("analyse", str(path), "--json")
        assert out.returncode == 2 and out.stdout == ""
        assert len(out.stderr.strip().splitlines()) == 1 and "gamao analyse" in out.stderr
    out = gamao("analyse", str(MATCH), "--plies", "7")
    assert out.returncode == 2 and "plies" in out.stderr


def test_without_gnubg_exit_2_saying_how_to_install_it(tmp_path) -> None:
    out = gamao("analyse", str(MATCH), "--json", env={"GAMAO_GNUBG": str(tmp_path / "none")})
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "sudo apt install gnubg" in out.stderr


def test_export_writes_the_analysis_into_sgf_as_gnubg_reads_it(tmp_path) -> None:
    from tests.engine.oracle import load_sgf

    out_sgf = tmp_path / "analysed.sgf"
    out = gamao("analyse", str(MATCH), "--json", "--export", str(out_sgf))
    assert out.returncode == 0, out.stderr
    plays, summary = _lines(out.stdout)
    text = out_sgf.read_text()
    assert text.startswith("(;FF[4]GM[6]") and "A[0][" in text and "BM[1]" in text and "DO[]" in text
    back = load_sgf(out_sgf)  # gnubg's `load match` of our file
    assert len(back["plays"]) == len(plays)
    for mine, theirs in zip(plays, back["plays"], strict=True):
        assert mine["label"] == (theirs["skill"].replace(" ", "_") if theirs["skill"] else None)
        assert abs(mine["loss"] - theirs["loss"]) <= 1e-5
    for player, side in (("X", "light"), ("O", "dark")):
        stats = back["stats"][player]
        assert stats["unforced"] == summary["summary"][side]["plays"]
        assert abs(1000 * stats["error"] / stats["unforced"] - summary["summary"][side]["error_rate"]) <= RATE


def test_export_only_into_sgf(tmp_path) -> None:
    out = gamao("analyse", str(MATCH), "--export", str(tmp_path / "out.mat"))
    assert out.returncode == 2 and "SGF" in out.stderr and len(out.stderr.strip().splitlines()) == 1
