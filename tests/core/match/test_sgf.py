"""gnubg SGF (GM[6]): reading gnubg's own (analysed) files and writing ours, read back identically."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.match.formats import MatchFileError, decode_text
from core.match.formats.mat import read_mat
from core.match.formats.sgf import read_sgf, write_sgf
from core.match.record import MOVE, RESIGN, MatchRecord
from core.match.replay import replay
from core.rules.position import Side
from tests.core.match.roundtrip import reads_back_the_same

L, D = Side.LIGHT, Side.DARK

# Same match as .mat and as gnubg SGF (the SGF of the first pair carries gnubg's analysis).
PAIRS = [
    ("gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat", "gnubg/charlot1-charlot2_7p_2025-11-08-2305_analysed.sgf"),
    ("derived/match10013413_gnubg_reexport.mat", "derived/match10013413_gnubg_reexport_analysed.sgf"),
    ("derived/synthetic_money_beaver_raccoon.mat", "derived/synthetic_money_beaver_raccoon.sgf"),
    ("derived/synthetic_nackgammon_3p.mat", "derived/synthetic_nackgammon_3p.sgf"),
]


def _load(path: Path) -> MatchRecord:
    text = decode_text(path.read_bytes())
    return read_sgf(text) if path.suffix == ".sgf" else read_mat(text)


def _trace(record: MatchRecord) -> list[list[tuple[object, ...]]]:
    """Per game: every action but resignations, with the position before it and the play's result."""
    out = []
    for g in record.games:
        rows: list[tuple[object, ...]] = []
        for a in g.actions:
            if a.kind == RESIGN:
                continue
            played = bool(a.play) if a.kind == MOVE else None
            rows.append((a.kind, a.side, a.dice, a.position, played))
        res = g.result
        rows.append(("result", res.winner, res.points, res.how) if res else ("result", None))
        out.append(rows)
    return out


def test_letters_are_counted_from_each_players_side() -> None:
    rec = read_sgf("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b];B[41lpab];W[31fehe];B[21yb])")
    texts = [a.text for a in rec.games[0].actions]
    assert texts == ["13/9 24/23", "6/5 8/5", "25/23"]


def test_dice_set_node_then_the_move_is_one_roll() -> None:
    rec = read_sgf("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b];PL[B]DI[41];B[41lpab];PL[W]DI[65])")
    acts = rec.games[0].actions
    assert [(a.side, a.dice, a.text, a.note) for a in acts] == [
        (D, (4, 1), "13/9 24/23", "node 2"), (L, (6, 5), None, "dice set"),
    ]
    assert replay(rec).problems == []


def test_reads_gnubg_analysed_file_ignoring_analysis(samples_dir: Path) -> None:
    rec = read_sgf((samples_dir / "gnubg/charlot1-charlot2_7p_2025-11-08-2305_analysed.sgf").read_text())
    report = replay(rec)
    assert report.problems == []
    assert (rec.length, rec.players, rec.date) == (7, {L: "charlot1", D: "charlot2"}, "2025-11-08")
    assert rec.games[0].stated is not None and (rec.games[0].stated.winner, rec.games[0].stated.points) == (D, 2)
    assert [g.crawford for g in rec.games] == [False, False, False, True]  # RU[Crawford:CrawfordGame] on game 4


@pytest.mark.parametrize(("mat", "sgf"), PAIRS)
def test_sgf_and_mat_of_the_same_match_replay_identically(samples_dir: Path, mat: str, sgf: str) -> None:
    a, b = _load(samples_dir / mat), _load(samples_dir / sgf)
    ra, rb = replay(a), replay(b)
    assert ra.problems == [] and rb.problems == []
    assert (ra.final_score, ra.games, ra.plays, ra.cube_actions) == (rb.final_score, rb.games, rb.plays, rb.cube_actions)
    assert _trace(a) == _trace(b)


def test_our_sgf_reads_back_identically_for_every_sample(samples_dir: Path) -> None:
    paths = sorted(samples_dir.glob("*/*.mat")) + sorted((samples_dir).glob("*/*.sgf"))
    assert len(paths) >= 25
    for path in paths:
        original = _load(path)
        again = reads_back_the_same(original, write_sgf, read_sgf, path.name)
        assert _trace(again) == _trace(original), path.name
        assert (again.length, again.players, again.rules.crawford) == (original.length, original.players, original.rules.crawford)


def test_writer_marks_resignations_and_the_crawford_game(samples_dir: Path) -> None:
    rec = _load(samples_dir / "galaxy/match1787848.mat")  # gammon, Crawford, resignation
    replay(rec)
    text = write_sgf(rec)
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]AP[Gamao:0.1]MI[length:3][game:0][ws:0][bs:0]")
    assert "RU[Crawford:CrawfordGame]" in text
    assert "R]" in text  # a resignation: RE[W+nR] or RE[B+nR]


def test_truncated_sgf_is_refused_with_its_line(samples_dir: Path) -> None:
    text = (samples_dir / "gnubg/charlot1-charlot2_7p_2025-11-08-2305_analysed.sgf").read_text()
    with pytest.raises(MatchFileError, match=r"^line 3: property A is not closed with '\]' \(the file is truncated\)$"):
        read_sgf(text[:3000])
    with pytest.raises(MatchFileError, match="the SGF ends inside a game tree"):
        read_sgf("(;FF[4]GM[6];B[41lpab]\n")


def test_bad_move_is_refused_with_its_line() -> None:
    with pytest.raises(MatchFileError, match=r"^line 2: node 1: cannot read the move '71lpab'"):
        read_sgf("(;FF[4]GM[6]MI[length:1]\n;B[71lpab])")


def test_other_games_are_refused() -> None:
    with pytest.raises(MatchFileError, match=r"GM\[1\] is not backgammon"):
        read_sgf("(;FF[4]GM[1];B[dd])")
