"""The match's state alone (core.referee.state.MatchState): turns, commits (R23), undo, the cube (R12, R14),
the end of games and of the match (R11, R13), with no referee and no board."""

from __future__ import annotations

from typing import Any

from core.referee.state import UNDO_DEPTH, MatchState
from core.rules.position import Position, Side

START = Position.start()


def state(length: int = 3, **rules: Any) -> MatchState:
    return MatchState(length, {"light": "Ana", "dark": "Bia"}, {"crawford": True, **rules})


def test_r23_a_committed_play_passes_the_turn_and_is_recorded() -> None:
    st = state()
    assert (st.phase, st.dice, st.games[0]["number"]) == ("opening", None, 1)
    st.begin_roll(Side.DARK, (3, 1))
    assert (st.phase, st.turn, st.dice, st.rolls[Side.DARK]) == ("moving", Side.DARK, (3, 1), 1)
    assert st.pos.turn is Side.DARK
    after = START.with_turn(Side.DARK).play((3, 1), "8/5 6/5")
    record, row = st.add_move(Side.DARK, (3, 1), "8/5 6/5")
    st.pass_turn(after)
    assert (st.phase, st.turn, st.dice, st.pos) == ("awaiting_roll", Side.LIGHT, None, after)
    assert st.history == [START.with_turn(Side.DARK)]
    assert st.games[0]["actions"] == [record] == [{"kind": "move", "side": "dark", "dice": [3, 1], "play": "8/5 6/5"}]
    assert st.moves == [row] == [{"game": 1, "number": 1, "side": "dark", "roll": [3, 1], "play": "8/5 6/5"}]


def test_r23_undo_takes_back_the_last_commit_with_the_turn_view_saved_with_it() -> None:
    st = state()
    st.begin_roll(Side.LIGHT, (3, 1))
    assert not st.can_undo()  # nothing committed yet
    st.push_undo({"turn": "view before the commit"})
    st.add_move(Side.LIGHT, (3, 1), "8/5 6/5")
    st.pass_turn(START.play((3, 1), "8/5 6/5"))
    st.cube.double(Side.DARK)
    assert st.can_undo()
    assert st.undo() == {"turn": "view before the commit"}
    assert (st.phase, st.turn, st.dice, st.pos) == ("moving", Side.LIGHT, (3, 1), START)
    assert st.moves == [] and st.games[0]["actions"] == [] and st.history == []
    assert st.cube.value == 1 and st.cube.offered_by is None
    assert not st.can_undo()


def test_undo_reaches_back_a_few_commits_only() -> None:
    st = state()
    st.phase = "awaiting_roll"
    for n in range(UNDO_DEPTH + 2):
        st.push_undo(n)
    taken = []
    while st.can_undo():
        taken.append(st.undo())
    assert taken == list(range(UNDO_DEPTH + 1, 1, -1))


def test_r12_r14_who_may_double() -> None:
    st = state(length=0)
    assert st.double_problem(Side.LIGHT) is None
    st.cube.double(Side.LIGHT)
    st.cube.take(Side.DARK)
    assert st.double_problem(Side.LIGHT) == "cube_not_yours"  # only the owner redoubles (R12)
    assert st.double_problem(Side.DARK) is None
    capped = state(length=0, cube_cap=2)
    capped.cube.double(Side.LIGHT)
    capped.cube.take(Side.DARK)
    assert capped.double_problem(Side.DARK) == "cube_cap"
    crawford = state(length=3)
    crawford.end_game(Side.LIGHT, 2, "gammon")  # light reaches 2 of 3: the next game is the Crawford game (R14)
    crawford.new_game()
    assert crawford.match.crawford and crawford.double_problem(Side.DARK) == "crawford_no_cube"


def test_r11_r13_games_are_scored_until_the_match_is_won() -> None:
    st = state(length=3)
    assert st.end_game(Side.DARK, 2, "gammon") is False
    assert (st.phase, st.games[0]["result"]) == ("game_over", {"winner": "dark", "points": 2, "how": "gammon"})
    st.new_game()
    assert (st.phase, len(st.games), st.games[1]["score"]) == ("opening", 2, {"light": 0, "dark": 2})
    assert st.end_game(Side.DARK, 1, "single") is True
    assert st.phase == "match_over"
    assert st.public_match()["score"] == {"light": 0, "dark": 3}


def test_an_abandoned_game_stays_in_the_record_without_points() -> None:
    st = state(length=5)
    st.begin_roll(Side.LIGHT, (6, 5))
    st.add_move(Side.LIGHT, (6, 5), "24/13")
    assert st.abandon_game() == 1
    assert st.games[0]["abandoned"] and st.games[0]["result"] is None
    assert (st.games[1]["number"], st.phase, st.moves) == (2, "opening", [])
    assert st.public_match()["score"] == {"light": 0, "dark": 0}


def test_match_id_follows_the_roll() -> None:
    st = state(length=5)
    before = st.match_id()
    st.begin_roll(Side.LIGHT, (5, 2))
    assert st.match_id() != before  # the dice are in the Match ID while the roll is being played
    assert st.match_id(passed=True) != st.match_id()
