"""The ways of a play, one mechanism for backgammon and the variants (core/rules/ways.py; R09: a play is any
order of its dice that reaches the result, R30-R32 for the variants' own steps).

The standard game's ways are the same, in the same order, as before the mechanism was shared: the digest below
is of every legal play's ways on the boards of tests/core/rules/test_movegen_order.py, computed with the
generator before (commit 847c256's all_ways, a search from each play).
"""

from __future__ import annotations

import hashlib

from core import Position
from core.rules import movegen
from core.rules.position import LegalPlay
from core.rules.variants import variant
from tests.core.rules.test_movegen_order import random_boards

WAYS_BEFORE = "d09dfdc94357e0a3"


def _ways_digest(boards: list[Position]) -> str:
    h = hashlib.sha256()
    for pos in boards:
        for dice in ((6, 6), (5, 2), (1, 1)):
            for lp in pos.legal_plays(dice):
                h.update(repr((pos.position_id(), dice, [w.text() for w in lp.ways()])).encode())
    return h.hexdigest()[:16]


def test_the_standard_games_ways_are_those_before() -> None:
    assert _ways_digest(random_boards(6, seed=35)) == WAYS_BEFORE


def test_one_search_shared_by_a_rolls_plays_gives_each_play_its_own_ways() -> None:
    """LegalPlays shares one search among its plays; a play made alone (parse_play's) searches for itself."""
    for pos in random_boards(3, seed=3):
        for dice in ((5, 2), (2, 2)):
            for lp in list(pos.legal_plays(dice))[:40]:
                alone = LegalPlay(lp.origin, lp.dice, lp._steps)
                assert [w.moves for w in lp.ways()] == [w.moves for w in alone.ways()]
                for way in lp.ways():  # each way replays to the play's result
                    me, _ = pos._generator_boards()
                    steps = [(m.frm, m.to, m.hit) for m in way.moves]
                    assert movegen.result_of(me, steps) == lp._outcome()


def _variant_play(name: str, data: dict, dice: tuple[int, int], text: str):  # type: ignore[no-untyped-def]
    pos = variant(name).from_json(data)
    return next(lp for lp in pos.legal_plays(dice) if lp.text() == text)


def test_a_way_two_dice_orders_reach_is_listed_once_in_the_variants_too() -> None:
    """Bearing two checkers off the 3-point with 6-4 (R30's bearing off): 6 then 4 and 4 then 6 are the same
    steps; the variants' own search listed that way twice, the standard game's once."""
    plakoto = {"turn": "light", "light": [6, 1, 2] + [0] * 21,
               "dark": [0] * 18 + [2, 6, 2, 1, 1, 3], "bar": {"light": 0, "dark": 0},
               "off": {"light": 6, "dark": 0}, "pinned": []}
    assert [w.text() for w in _variant_play("plakoto", plakoto, (4, 6), "3/off(2)").ways()] == ["3/off(2)"]
    jacquet = {"turn": "dark", "light": [0] * 7 + [1, 0, 0, 2, 9] + [0] * 12,
               "dark": [0] * 22 + [2, 9], "bar": {"light": 0, "dark": 0}, "off": {"light": 3, "dark": 4},
               "messenger": {"light": True, "dark": True}}
    assert [w.text() for w in _variant_play("jacquet", jacquet, (4, 6), "2/off(2)").ways()] == ["2/off(2)"]
