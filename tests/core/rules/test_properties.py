"""Property tests (hypothesis) of the legal-play generator on positions reached by random play."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core import Position, Side

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position after 0-60 random legal turns from the start."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    pos = Position.start(turn=draw(st.sampled_from([Side.LIGHT, Side.DARK])))
    for _ in range(draw(st.integers(0, 60))):
        plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        nxt = rng.choice(list(plays)).result if len(plays) else pos.with_turn(pos.turn.other)
        if nxt.is_game_over():
            break
        pos = nxt
    return pos


@settings(max_examples=150, deadline=None)
@given(positions(), dice_st)
def test_fifteen_checkers_a_side_are_conserved(pos: Position, dice: tuple[int, int]) -> None:
    for lp in pos.legal_plays(dice):
        for side in Side:
            assert sum(lp.result.own(side)) == 15
        for p in range(24):  # never two colours on one point
            assert not (lp.result.light[p] and lp.result.dark[p])


@settings(max_examples=150, deadline=None)
@given(positions(), dice_st)
def test_results_are_distinct(pos: Position, dice: tuple[int, int]) -> None:
    results = [lp.result for lp in pos.legal_plays(dice)]
    assert len(results) == len(set(results))


@settings(max_examples=60, deadline=None)
@given(positions(), dice_st)
def test_every_result_is_reached_by_each_listed_way(pos: Position, dice: tuple[int, int]) -> None:
    legal = pos.legal_plays(dice)
    for lp in legal:
        ways = lp.ways()
        assert ways, lp
        assert lp.play in ways
        for way in ways:
            assert pos.apply_unchecked(way) == lp.result
            assert pos.parse_play(way, dice).result == lp.result


@settings(max_examples=100, deadline=None)
@given(positions(), dice_st)
def test_every_play_uses_the_same_number_of_dice(pos: Position, dice: tuple[int, int]) -> None:
    # R09: all legal plays use the maximal number of dice.
    lengths = {len(lp.play) for lp in pos.legal_plays(dice)}
    assert len(lengths) <= 1


@settings(max_examples=100, deadline=None)
@given(positions())
def test_position_id_round_trip(pos: Position) -> None:
    assert Position.from_position_id(pos.position_id(), turn=pos.turn) == pos
    assert Position.from_physical(pos.light, pos.dark, {s.value: n for s, n in pos.bar.items()},
                                  {s.value: n for s, n in pos.off.items()}, pos.turn) == pos
