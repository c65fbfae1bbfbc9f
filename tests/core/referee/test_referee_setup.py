"""The set-up check per game: a board set up again for a new game in the middle of one is said as such
(``new_setup_mid_game``), in every game the referee follows: backgammon (R01), Plakoto (R30), Russian
backgammon (R31, whose start is an empty board) and Jacquet (R32). Before issue 23 only backgammon's start was
known: a Plakoto or Jacquet board set up again was called ``wrong_side_moved``, a Russian one ``checker_missing``.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.referee import Referee
from core.rules.position import Position, Side
from core.rules.variants import variant
from tests.core.referee.referee_streams import board_event as standard_board
from tests.core.referee.variant_streams import board_event, game_events, random_game

TURNS = 12  # rolls into the game before the board is set up again


def _game(name: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A game's events up to its TURNS-th roll's boards, and the board of that game set up for its start."""
    if name == "standard":
        pos = Position.start()
        events: list[dict[str, Any]] = [{"event": "new_match", "length": 0, "rules": {"premature_roll": "commit"}},
                                        standard_board(pos)]
        dice = [(3, 1), (6, 5), (4, 2), (5, 5), (2, 1), (6, 3), (4, 4), (5, 2), (6, 1), (3, 3), (5, 4), (6, 2)]
        for k, roll in enumerate(dice[:TURNS]):
            if k == 0:
                pos = pos.with_turn(Side.LIGHT)
            plays = pos.legal_plays(roll)
            events.append({"event": "roll", "dice": list(roll)})
            if len(plays):
                pos = plays[0].result
                events.append(standard_board(pos))
            else:
                pos = pos.with_turn(pos.turn.other)
        return events, standard_board(Position.start())
    game = random_game(variant(name), 5)
    events, rolls = [], 0
    for ev, _turn in game_events(game):
        if ev["event"] == "roll":
            rolls += 1
            if rolls > TURNS:
                break
        events.append(ev)
    return events, board_event(game.turns[0].before.with_turn(Side.LIGHT))


@pytest.mark.parametrize(("name", "rule"), [("standard", "R01"), ("plakoto", "R30"), ("russian", "R31"),
                                            ("jacquet", "R32")])
@pytest.mark.parametrize("when", ["moving", "awaiting_roll"])
def test_board_set_up_again_mid_game_is_new_setup_in_every_game(name: str, rule: str, when: str) -> None:
    """R01/R30-R32: the start of this game on the board in the middle of one: said once, as backgammon's is."""
    events, start = _game(name)
    ref = Referee()
    for ev in events:
        ref.feed(ev)
    assert str(ref.phase) == "moving", rule
    if when == "awaiting_roll":
        ref.feed({"event": "button", "name": "end_turn"})
        assert str(ref.phase) == "awaiting_roll"
    said = ref.feed(start)
    assert [(v["verdict"], v.get("reason")) for v in said] == [("illegal", "new_setup_mid_game")], (rule, said)
    assert ref.feed(start) == []  # said once while the board stays so
    assert ref.games[-1]["result"] is None  # nothing was committed or ended by it
