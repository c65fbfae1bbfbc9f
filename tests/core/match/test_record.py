"""Game and match records: the move list, action descriptions and scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.match.formats.mat import read_mat
from core.match.record import MOVE, Action, GameRecord, MatchRecord
from core.match.replay import replay
from core.rules.position import Side

L, D = Side.LIGHT, Side.DARK


def test_move_list_rows_like_the_kiosk_state(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "galaxy/match10013413.mat").read_text())
    replay(rec)
    rows = rec.move_list()
    assert rows[0] == {"game": 1, "number": 1, "side": "dark", "roll": [5, 1], "play": "24/23 13/8"}
    assert rows[1] == {"game": 1, "number": 2, "side": "light", "roll": [2, 1], "play": "24/23 13/11"}
    assert len(rows) == sum(1 for g in rec.games for a in g.actions if a.kind == MOVE)


def test_every_action_keeps_the_position_before_it(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "studio/solnze-Lasse_3pt_2024-05-11.mat").read_text())
    replay(rec)
    first = rec.games[0].actions[0]
    assert first.position is not None and first.position.position_id() == "4HPwATDgc/ABMA"
    checked = 0
    for game in rec.games:
        for a, b in zip(game.actions, game.actions[1:], strict=False):
            if a.kind == MOVE and a.play and b.position is not None:
                assert a.position is not None and a.dice is not None
                assert b.position == a.position.play(a.dice, a.play)
                checked += 1
    assert checked == 87


def test_describe_actions() -> None:
    assert Action(MOVE, L, (3, 1), "8/5 6/5").describe() == "light 31: 8/5 6/5"
    assert Action("double", D, value=2).describe() == "dark doubles to 2"
    assert Action("resign", L, value=2).describe() == "light resigns gammon"
    assert Action("take", D).describe() == "dark takes"


def test_unknown_action_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown action kind 'castle'"):
        Action("castle", L)


def test_final_score_starts_from_the_first_games_score(samples_dir: Path) -> None:
    rec = read_mat((samples_dir / "galaxy/match10013413.mat").read_text())
    report = replay(rec)
    assert rec.final_score == report.final_score == {L: 5, D: 2}
    empty = MatchRecord(length=3, games=[GameRecord(number=1, score={L: 1, D: 2})])
    assert empty.final_score == {L: 1, D: 2}
