""".mat reader (every dialect of ../shared/formats/MAT.md) and writer (gnubg's dialect)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.match.formats import MatchFileError, decode_text
from core.match.formats.mat import read_mat, write_mat
from core.match.record import BEAVER, DOUBLE, DROP, MOVE, RACCOON, RESIGN, TAKE
from core.match.replay import replay
from core.rules.position import Side
from tests.core.match.roundtrip import reads_back_the_same

L, D = Side.LIGHT, Side.DARK


def _match(body: str, length: int = 5, header: str = "") -> str:
    return f"{header} {length} point match\n\n Game 1\n lasse : 0                       mglough : 0\n{body}"


def _cells(text: str) -> list[tuple[str, Side | None, tuple[int, int] | None, str | None, int | None]]:
    rec = read_mat(text)
    return [(a.kind, a.side, a.dice, a.text, a.line) for a in rec.games[0].actions]


def test_galaxy_lines_numeric_bar_and_off_and_right_player_opening() -> None:
    text = _match(
        "  1)                             51: 24/23 13/8\n"
        "  2) 21: 13/11 24/23             22: 6/4 6/4 13/11 13/11\n"
        "  3) 52: 25/20 13/11             43: 25/22 22/18\n"
        "  4) 11: 8/7 7/6 6/5 6/5         44:\n"
    )
    cells = _cells(text)
    assert cells[0] == (MOVE, D, (5, 1), "24/23 13/8", 5)
    assert cells[1] == (MOVE, L, (2, 1), "13/11 24/23", 6)
    assert cells[3] == (MOVE, L, (5, 2), "25/20 13/11", 7)
    assert cells[-1] == (MOVE, D, (4, 4), "", 8)


def test_two_colon_rule_splits_a_full_width_doubles_cell() -> None:
    cells = _cells(_match("  8) 55: 25/20* 20/15 15/10 10/5* 66: 6/off(2)\n"))
    assert cells == [(MOVE, L, (5, 5), "25/20* 20/15 15/10 10/5*", 5), (MOVE, D, (6, 6), "6/off(2)", 5)]


def test_studio_column_40_cannot_move_and_question_marks() -> None:
    text = _match(
        "  1) 53: 8/3 6/3                        63: 24/18 13/10\n"
        "  2) 64: Cannot Move                    22: 24/22(2) 13/11(2)\n"
        "  3) 51: bar/off                        61: ????\n"
        "  4)  Wins 1 point                     \n"
        "  5)                                   \n"
    )
    rec = read_mat(text)
    acts = rec.games[0].actions
    assert (acts[2].kind, acts[2].text, acts[2].note) == (MOVE, "", "cannot move")
    assert (acts[5].side, acts[5].dice, acts[5].text, acts[5].note) == (D, (6, 1), None, "rolled then resigned")
    assert rec.games[0].stated is not None and (rec.games[0].stated.winner, rec.games[0].stated.points) == (L, 1)
    assert rec.problems == []


def test_cube_cells_and_the_win_line_indentation() -> None:
    text = _match(
        "  6) 21: 25/24 6/4                Doubles => 2\n"
        "  7)  Takes                      53: 10/7 11/6\n"
        "  8)  Doubles => 4                Drops\n"
        "      Wins 2 points\n"
    )
    kinds = [(k, s) for k, s, *_ in _cells(text)]
    assert kinds == [(MOVE, L), (DOUBLE, D), (TAKE, L), (MOVE, D), (DOUBLE, L), (DROP, D)]
    stated = read_mat(text).games[0].stated
    assert stated is not None and (stated.winner, stated.points, stated.line) == (L, 2, 8)


def test_right_player_wins_line_indented_34() -> None:
    stated = read_mat(_match("  1) 31: 8/5 6/5\n" + " " * 34 + "Wins 1 point and the match\n")).games[0].stated
    assert stated is not None and stated.winner is D and stated.and_the_match


def test_galaxy_losses_is_a_resignation_by_that_player() -> None:
    rec = read_mat(_match("  1) 31: 8/5 6/5                  Losses 2 point\n\n      Wins 2 point and the match\n"))
    resign = rec.games[0].actions[-1]
    assert (resign.kind, resign.side, resign.value, resign.note) == (RESIGN, D, 2, "losses")


def test_galaxy_free_standing_losses_line_takes_its_side_from_the_win() -> None:
    rec = read_mat(_match("  1) 31: 8/5 6/5                  61:\n Losses 1 point\n\n      Wins 1 point\n"))
    assert rec.games[0].actions[-1].side is D


def test_galaxy_glued_line_is_split_in_two() -> None:
    line = "  2) 43: 21/18 18/14              2)  Losses 2 point" + " " * 47 + "Wins 2 point and the match\n"
    rec = read_mat(_match("  1) 31: 8/5 6/5                  61: 13/7 8/7\n" + line, length=3))
    acts = rec.games[0].actions
    assert (acts[-1].kind, acts[-1].side) == (RESIGN, L)
    assert rec.games[0].stated is not None and rec.games[0].stated.winner is D


def test_beaver_and_raccoon_lines_with_the_blank_take() -> None:
    text = _match(
        "  1)                             62: 24/18 13/11\n"
        "  2)  Doubles => 2                Beavers => 4\n"
        "  3)  Beavers => 8\n"
        "  4) 62: 13/7* 24/22\n",
        length=0,
    )
    kinds = [(k, s) for k, s, *_ in _cells(text)]
    assert kinds == [(MOVE, D), (DOUBLE, L), (BEAVER, D), (RACCOON, L), (TAKE, D), (MOVE, L)]


def test_headers_bom_and_rules() -> None:
    header = '; [Site "BackgammonGalaxy"]\n; [Player 1 "lasse"]\n; [EventDate "2024.08.04"]\n; [CubeLimit "1"]\n\n'
    data = ("\ufeff" + _match("  1) 31: 8/5 6/5\n", header=header)).encode()
    rec = read_mat(decode_text(data))
    assert rec.headers["Site"] == "BackgammonGalaxy" and rec.source == "galaxy"
    assert rec.date == "2024-08-04" and rec.rules.cube_use is False and rec.rules.crawford
    assert rec.players == {L: "lasse", D: "mglough"}


def test_money_session_rules_unknown_jacoby() -> None:
    rec = read_mat(_match("  1) 31: 8/5 6/5\n", length=0))
    assert rec.length == 0 and rec.rules.jacoby is None and rec.rules.beavers and not rec.rules.crawford


def test_unreadable_line_is_a_problem_with_its_line() -> None:
    rec = read_mat(_match("  1) 31: 8/5 6/5\n  2) 77: 8/1\n  3) hello there\n"))
    assert [(p.line, p.kind) for p in rec.problems] == [(6, "unreadable_line"), (7, "unreadable_line")]
    assert rec.problems[0].message == "'77' is not a roll of two dice 1-6"


def test_a_file_without_a_match_line_is_refused_with_its_line() -> None:
    with pytest.raises(MatchFileError, match=r"^line 1: expected the match line \(such as ' 7 point match'\) but found 'hello'$"):
        read_mat("hello\n")


def test_a_match_line_without_games_is_refused() -> None:
    with pytest.raises(MatchFileError, match="no 'Game 1' section"):
        read_mat(" 3 point match\n")


def test_wrong_encoding_names_the_line_and_column() -> None:
    with pytest.raises(MatchFileError) as err:
        decode_text(b" 3 point match\n\n Game 1\n l\xe4sse : 0   b : 0\n")
    assert err.value.line == 4
    assert str(err.value) == (
        "line 4: byte 0xe4 at column 3 is not UTF-8 text; save the file as UTF-8 (gnubg, Galaxy and XG all write UTF-8)"
    )


def test_binary_data_is_refused() -> None:
    with pytest.raises(MatchFileError, match="binary data"):
        decode_text(b"\x7fELF\x02\x01\x00\x00")


def test_writer_uses_gnubg_columns_numeric_bar_off_and_win_lines(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "studio/solnze-Lasse_3pt_2024-05-11.mat").read_text())
    replay(rec)
    text = write_mat(rec)
    lines = text.splitlines()
    assert " 3 point match" in lines and " Game 1" in lines
    assert lines[lines.index(" Game 1") + 1] == " solnze : 0                     Lasse : 0"
    assert "  3) 62: 25/23 21/15*            62: 25/23 24/18" in lines
    assert "bar" not in text.split(" 3 point match")[1] and "off" not in text.split(" 3 point match")[1]
    assert "      Wins 2 points" in lines
    assert "      Wins 1 point" in lines


def test_writer_puts_the_right_players_win_after_a_left_drop_on_the_same_line(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "galaxy/match10013413.mat").read_text())
    replay(rec)
    assert "  5)  Drops                       Wins 1 point" in write_mat(rec).splitlines()


def test_writer_round_trips_through_our_reader(samples_dir: Path) -> None:
    for path in sorted(samples_dir.glob("*/*.mat")):
        rec = read_mat(decode_text(path.read_bytes()))
        again = reads_back_the_same(rec, write_mat, read_mat, path.name)
        for g1, g2 in zip(rec.games, again.games, strict=True):
            assert [a.position for a in g1.actions if a.kind == MOVE] == [a.position for a in g2.actions if a.kind == MOVE]


def test_hypergammon_is_refused_clearly() -> None:
    with pytest.raises(MatchFileError, match="^'HyperGammon \\(3\\)' matches cannot be replayed"):
        read_mat(_match("  1) 31: 8/5 6/5\n", header='; [Variation "HyperGammon (3)"]\n\n'))


def test_nackgammon_variation_starts_from_the_nackgammon_layout(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "derived/synthetic_nackgammon_3p.mat").read_text())
    report = replay(rec)
    assert rec.rules.variation == "nackgammon" and report.problems == []
    first = rec.games[0].actions[0].position
    assert first is not None and first.own(first.turn)[23] == 2 and first.own(first.turn)[6] == 4
