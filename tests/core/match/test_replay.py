"""Replay validation: plays against rolls, cube actions against the cube, results against the file.

Mutation tests change one line of a real match (a roll, a dropped die, a checker onto a closed point) and
check that the first problem reported is on that line.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from core.errors import AmbiguousPlayError
from core.match.formats import decode_text
from core.match.formats.mat import read_mat
from core.match.record import ACCEPT, MOVE, REJECT, RESIGN, Action, GameRecord, MatchRecord, MatchRules
from core.match.replay import replay
from core.rules.notation import Play
from core.rules.position import Side
from tests.datasets import CORPUS

L, D = Side.LIGHT, Side.DARK
HEAD = " 3 point match\n\n Game 1\n ana : 0                         bruno : 0\n"


def _kinds(text: str) -> list[tuple[int | None, str]]:
    return [(p.line, p.kind) for p in replay(read_mat(text)).problems]


# ----- plays ------------------------------------------------------------------------------------------------
def test_r04_play_that_the_roll_does_not_give_is_illegal() -> None:
    report = replay(read_mat(HEAD + "  1) 31: 13/8\n"))
    assert [(p.line, p.kind) for p in report.problems] == [(5, "illegal_play")]
    assert report.problems[0].message.startswith("illegal play '13/8' with 31 in position 4HPwATDgc/ABMA")


def test_r09_unplayed_die_when_a_full_play_existed() -> None:
    assert _kinds(HEAD + "  1) 31: 8/5\n") == [(5, "unplayed_die")]


def test_r05_checker_onto_a_closed_point_is_illegal() -> None:
    assert _kinds(HEAD + "  1) 65: 13/7 24/19\n") == [(5, "illegal_play")]  # dark holds light's 19 (its 6)


def test_r23_illegal_play_stands_and_the_game_goes_on_from_it() -> None:
    # 13/11 with 31 is illegal; dark then hits the checker where it stands (light's 11 = dark's 14).
    rec = read_mat(HEAD + "  1) 31: 13/11 6/5                64: 24/18 18/14*\n  2) 21: 25/23 23/22\n")
    report = replay(rec)
    assert [(p.line, p.kind) for p in report.problems] == [(5, "illegal_play")]
    before_dark = rec.games[0].actions[1].position
    assert before_dark is not None and before_dark.own(L)[11] == 1  # the checker stands where it was played
    before_entry = rec.games[0].actions[2].position
    assert before_entry is not None and before_entry.own(L)[25] == 1  # and dark hit it there


def test_unreadable_point_is_reported_at_its_line_and_the_replay_goes_on() -> None:
    report = replay(read_mat(HEAD + "  1) 31: 27/24 6/5                61: 13/7 8/7\n"))
    assert [(p.line, p.kind) for p in report.problems] == [(5, "unreadable_line")]
    assert "'27' is not a point" in report.problems[0].message
    assert report.plays == 1  # the unreadable play is not counted


def test_roll_by_the_wrong_player_is_out_of_turn() -> None:
    assert _kinds(HEAD + "  1) 31: 8/5 6/5\n  2) 21: 13/11 6/5\n") == [(6, "out_of_turn")]


def test_dance_written_as_an_empty_roll_is_fine_when_nothing_can_move() -> None:
    # Light has a checker on the bar and dark holds every entry point light's 4 and 2 would use.
    text = (
        " 0 point match\n\n Game 1\n a : 0   b : 0\n"
        "  1) 64: 24/18 13/9\n"  # a plain opening: nothing on the bar yet
    )
    assert _kinds(text) == []


# ----- resignations -------------------------------------------------------------------------------------------
def test_resignation_right_after_a_roll_is_not_an_unplayed_die(samples_dir: Path) -> None:
    for name in ("gnubg/gnubg_roll_then_resign_1p.mat", "galaxy/match1100068.mat", "studio/solnze-Lasse_3pt_2024-05-11.mat"):
        report = replay(read_mat((samples_dir / name).read_text()))
        assert report.problems == [], name


def test_empty_roll_cell_followed_by_more_play_is_an_unplayed_die() -> None:
    text = HEAD + "  1) 31:                          61: 13/7 8/7\n"
    report = replay(read_mat(text))
    assert [(p.line, p.kind) for p in report.problems] == [(5, "unplayed_die")]
    assert report.problems[0].message.startswith("light rolled 31 and played nothing, but ")


def test_resignation_values_single_gammon_backgammon_times_the_cube() -> None:
    for stated, value in ((1, 1), (2, 2), (3, 3)):
        rec = read_mat(HEAD + f"  1) 31: 8/5 6/5\n      Wins {stated} point\n".replace("      Wins", " " * 34 + "Wins"))
        report = replay(rec)
        res = rec.games[0].result
        assert report.problems == [] and res is not None
        assert (res.winner, res.how, res.value, res.points) == (D, "resign", value, stated)


def test_resignation_offered_accepted_and_rejected_in_a_live_record() -> None:
    game = GameRecord(number=1)
    game.actions = [
        Action(MOVE, L, (3, 1), "8/5 6/5"),
        Action(RESIGN, D, value=2),
        Action(REJECT, L),
        Action(MOVE, D, (6, 1), "13/7 8/7"),
        Action(RESIGN, L, value=1),
        Action(ACCEPT, D),
    ]
    rec = MatchRecord(length=5, games=[game], rules=MatchRules())
    report = replay(rec)
    assert report.problems == []
    assert game.result is not None and (game.result.winner, game.result.points, game.result.how) == (D, 1, "resign")
    assert report.final_score == {L: 0, D: 1}


# ----- results ------------------------------------------------------------------------------------------------
def test_stated_result_that_differs_is_reported_at_the_wins_line(samples_dir: Path) -> None:
    path = samples_dir / "galaxy/match6731769.mat"  # a 3-point backgammon
    text = path.read_text()
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines, start=1) if "Wins 3 point" in line)
    mutated = text.replace("Wins 3 point", "Wins 2 point")
    report = replay(read_mat(mutated))
    assert [(p.line, p.kind) for p in report.problems] == [(n, "result_differs")]
    assert report.problems[0].message == "the file says 2 points but the game is worth 3 (backgammon, cube 1)"


def test_score_line_that_differs_is_reported(samples_dir: Path) -> None:
    text = (samples_dir / "galaxy/match10013413.mat").read_text()
    mutated = text.replace(" lasse : 1                       mglough : 0", " lasse : 2                       mglough : 0", 1)
    report = replay(read_mat(mutated))
    assert report.problems[0].kind == "score_differs"


# ----- cube ---------------------------------------------------------------------------------------------------
# Each cube action out of place: the file, the problem (its line, its kind) and what it says.
CUBE_FAULTS = {
    "r12_redouble_by_the_side_without_the_cube": (HEAD + (
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Takes                      61: 13/7 8/7\n"
        "  3) 21: 13/11 6/5                Doubles => 4\n"),
        (7, "cube_out_of_turn"), "dark cannot double: only the owner of the cube (light) may redouble (R12)"),
    "r12_double_after_rolling": (HEAD + "  1) 31: 8/5 6/5\n  2)  Doubles => 2\n", (6, "cube_out_of_turn"), None),
    "r12_no_double_before_the_opening_roll": (
        HEAD + "  1)  Doubles => 2                Takes\n  2) 31: 8/5 6/5\n", (5, "cube_out_of_turn"),
        "light doubles before the opening roll; the cube comes into play after it (R03, R12)"),
    "r12_wrong_cube_value": (HEAD + "  1) 31: 8/5 6/5                 Doubles => 4\n  2)  Takes\n", (5, "cube_value"), None),
    "r14_double_in_the_crawford_game": (
        " 3 point match\n\n Game 1\n a : 2                         b : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n", (5, "cube_out_of_turn"),
        "dark cannot double: no doubling in the Crawford game (R14)"),
}


@pytest.mark.parametrize("case", CUBE_FAULTS)
def test_cube_action_out_of_place_is_reported_at_its_line(case: str) -> None:
    text, problem, message = CUBE_FAULTS[case]
    report = replay(read_mat(text))
    assert [(p.line, p.kind) for p in report.problems] == [problem]
    if message is not None:
        assert report.problems[0].message == message


def test_r17_r18_beaver_and_raccoon_session_replays(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "derived/synthetic_money_beaver_raccoon.mat").read_text())
    report = replay(rec)
    assert report.problems == [] and report.cube_actions == 4
    assert [a.kind for a in rec.games[0].actions][:5] == [MOVE, "double", "beaver", "raccoon", "take"]


# ----- the curated samples, as ../shared/matches/samples/SOURCES.md describes them ---------------------------
SOURCES_TABLE = {  # file: (games, plays, doubles + takes + drops, highest cube)
    "galaxy/match1574521.mat": (1, 1, 0, 1),
    "galaxy/match8062348.mat": (1, 41, 2, 2),
    "galaxy/match6731769.mat": (1, 49, 0, 1),
    "galaxy/match1787848.mat": (3, 121, 2, 2),
    # SOURCES counts the final 61 that was rolled and then resigned (gnubg records it as a move): 103.
    "galaxy/match1100068.mat": (2, 102, 4, 4),
    "galaxy/match10013413.mat": (5, 205, 10, 2),
    "galaxy/match8239118.mat": (1, 46, 6, 8),
    "galaxy/match12955832.mat": (4, 187, 10, 4),
    "galaxy/match9102134.mat": (14, 667, 30, 4),
    "galaxy/match7986278.mat": (1, 51, 8, 16),
    "studio/solnze-Lasse_3pt_2024-05-11.mat": (2, 97, 2, 2),
    "studio/MrPurple-Lasse_3pt_2024-05-11.mat": (2, 62, 6, 4),
    "studio/leochili75-Llabba_7pt_2023-05-07.mat": (4, 143, 10, 4),
    "studio/BoardLord-Llabba_7pt_2023-08-09.mat": (3, 141, 10, 4),
    "studio/Llabba-gorkipelin_7pt_2023-08-29.mat": (6, 254, 10, 2),
    "studio/Llabba-petruhl_11pt_2023-03-03.mat": (8, 467, 18, 4),
    "studio/FAETHON-Llabba_13pt_2023-06-29.mat": (7, 208, 20, 8),
    "studio/JuliaH-Llabba_13pt_2023-01-18.mat": (15, 669, 36, 4),
}


@pytest.mark.parametrize("name", sorted(SOURCES_TABLE))
def test_samples_match_the_sources_table(samples_dir: Path, name: str) -> None:
    rec = read_mat((samples_dir / name).read_text())
    report = replay(rec)
    cube = max((a.value or 1 for g in rec.games for a in g.actions if a.kind in ("double", "beaver", "raccoon")), default=1)
    assert (report.games, report.plays, report.cube_actions, cube) == SOURCES_TABLE[name]
    assert report.problems == []


def test_samples_with_gammons_backgammons_and_crawford(samples_dir: Path) -> None:
    how = {}
    for name in ("galaxy/match6731769.mat", "galaxy/match7986278.mat", "galaxy/match1787848.mat"):
        rec = read_mat((samples_dir / name).read_text())
        replay(rec)
        how[name] = [(g.result.how if g.result else None, g.crawford) for g in rec.games]
    assert how["galaxy/match6731769.mat"] == [("backgammon", False)]
    assert how["galaxy/match7986278.mat"] == [("backgammon", False)]
    assert how["galaxy/match1787848.mat"] == [("single", False), ("gammon", True), ("resign", False)]


# ----- mutations of real matches -------------------------------------------------------------------------------
def _roll_matches(line: str) -> list[re.Match[str]]:
    return list(re.finditer(r"(?<![\d/])([1-6])([1-6]):", line))


def _files(samples_dir: Path, n_corpus: int = 40) -> list[Path]:
    samples = sorted(samples_dir.glob("*/*.mat"))
    corpus = sorted(CORPUS.glob("*/*"))
    return samples + random.Random(3).sample(corpus, n_corpus)


def _candidates(record: MatchRecord) -> list[Action]:
    return [a for g in record.games for a in g.actions if a.kind == MOVE and a.text and a.position is not None and a.line]


def _replace_cell(line: str, action: Action, new_cell: str) -> str | None:
    rolls = _roll_matches(line)
    if not rolls or action.dice is None or action.text is None:
        return None
    m = rolls[0] if action.side is L else rolls[-1]
    old = f"{m.group(0)} {action.text}"
    if line.find(old, m.start()) != m.start():
        return None
    return line[: m.start()] + new_cell + line[m.start() + len(old) :]


def _mutate(path: Path, how: str, rng: random.Random) -> tuple[str, int] | None:
    text = decode_text(path.read_bytes())
    record = read_mat(text)
    replay(record)
    marks = record.source != "galaxy"
    lines = text.splitlines()
    actions = _candidates(record)
    rng.shuffle(actions)
    for a in actions:
        assert a.position is not None and a.dice is not None and a.text is not None and a.line is not None
        line = lines[a.line - 1]
        new = None
        if how == "roll":
            for d1 in range(6, 0, -1):
                for d2 in range(d1, 0, -1):
                    if sorted((d1, d2)) == sorted(a.dice):
                        continue
                    try:
                        a.position.parse_play(a.text, (d1, d2), marks_hits=marks)
                    except AmbiguousPlayError:
                        continue
                    except ValueError:
                        new = _replace_cell(line, a, f"{d1}{d2}: {a.text}")
                        break
                if new:
                    break
        elif how == "drop":
            words = a.text.split()
            if a.dice[0] != a.dice[1] and len(words) == 2 and "(" not in a.text and len(Play.from_text(words[0])) == 1:
                try:  # "2/0" alone can be a full play (2/1/off): only a real unplayed die counts
                    a.position.parse_play(words[0], a.dice, marks_hits=marks)
                except AmbiguousPlayError:
                    continue
                except ValueError:
                    new = _replace_cell(line, a, f"{a.dice[0]}{a.dice[1]}: {words[0]}")
        elif how == "closed":
            me = a.position.own(a.position.turn)
            opp = a.position.own(a.position.turn.other)
            if me[25]:
                continue
            for p in range(24, 1, -1):
                q = p - a.dice[0]
                if me[p] and q >= 1 and opp[25 - q] >= 2:
                    new = _replace_cell(line, a, f"{a.dice[0]}{a.dice[1]}: {p}/{q}")
                    break
        if new:
            lines[a.line - 1] = new
            return "\n".join(lines) + "\n", a.line
    return None


@pytest.mark.parametrize(("how", "kinds"), [
    ("roll", {"illegal_play", "unplayed_die"}),
    ("drop", {"unplayed_die"}),
    ("closed", {"illegal_play"}),
])
def test_mutations_are_caught_at_their_line(samples_dir: Path, how: str, kinds: set[str]) -> None:
    rng = random.Random(11)
    tried = 0
    for path in _files(samples_dir):
        mutated = _mutate(path, how, rng)
        if mutated is None:
            continue
        text, line = mutated
        tried += 1
        problems = replay(read_mat(text)).problems
        assert problems, f"{path.name}: mutation on line {line} not caught"
        first = problems[0]
        assert (first.line, first.kind in kinds) == (line, True), f"{path.name}: {text.splitlines()[line - 1]!r}: {first}"
    assert tried >= 50


# ----- combined moves and hits (MAT.md section 4) ----------------------------------------------------------------
GALAXY = '; [Site "BackgammonGalaxy"]\n\n'
STUDIO = '; [Site "Backgammon Studio"]\n\n'
# Dark opens 21: 13/11 6/5, leaving a blot on its 5 point (light's 20).
OPENING = "  1)                             21: 13/11 6/5\n"


@pytest.mark.parametrize(
    ("header", "play", "dark_on_bar"),
    [
        (STUDIO, "24/18", 0),  # XG marks every hit: an unmarked combined move goes round the blot
        (STUDIO, "24/20*/18", 1),
        (GALAXY, "24/20 20/18", 1),  # Galaxy marks no hits but names every stop: stopping on 20 hits
        (GALAXY, "24/22 22/18", 0),
    ],
)
def test_r06_combined_moves_hit_only_where_the_file_says(header: str, play: str, dark_on_bar: int) -> None:
    text = header + HEAD + OPENING + f"  2) 42: {play}\n"
    rec = read_mat(text)
    report = replay(rec)
    assert report.problems == []
    assert rec.games[0].final_position is not None
    assert rec.games[0].final_position.bar[D] == dark_on_bar


def test_r04_combined_move_through_a_closed_point_is_illegal() -> None:
    # 24/13 with 65 may stop on 18 (open) even though 19 (dark's 6 point) is closed: legal.
    assert _kinds(STUDIO + HEAD + "  1) 65: 24/13\n") == []
    # 24/14 with 55 must stop on 19, which dark holds (R05): illegal however the rest is played.
    report = replay(read_mat(STUDIO + HEAD + "  1) 55: 24/14 13/3\n"))
    assert [(p.line, p.kind) for p in report.problems] == [(7, "illegal_play")]
