"""Property tests (hypothesis) of the variants' legal plays (R30-R32), on positions reached by random play:
checkers are conserved, every listed way reaches its result, and no result breaks the variant's rules (checked
here by small replays written independently of the generator)."""

from __future__ import annotations

import random
from itertools import islice

from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.position import Side
from core.rules.variants import (
    WAITING,
    JacquetPosition,
    JacquetSettings,
    PlakotoPosition,
    PlakotoSettings,
    RussianPosition,
    RussianSettings,
    VariantPosition,
)

SETTINGS = {
    PlakotoPosition: [PlakotoSettings(), PlakotoSettings(bear_off_while_pinned=True, mother="draw_if_both")],
    RussianPosition: [RussianSettings(), RussianSettings(complement_while_entering=False, roll_again=False)],
    JacquetPosition: [JacquetSettings(), JacquetSettings(hitting=True, prime_quarter=1)],
}


def reach(cls: type[VariantPosition], seed: int, turns: int, which: int) -> VariantPosition:
    rng = random.Random(seed)
    pos = cls.start(Side.LIGHT if seed % 2 else Side.DARK, SETTINGS[cls][which])
    for _ in range(turns):
        if pos.is_game_over():
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        lp = pos.random_play(dice, rng)
        pos = lp.result if lp is not None else (pos if pos._reroll(dice) else pos.with_turn(pos.turn.other))
    return pos


def total(json_pos: dict, side: str) -> int:
    return sum(json_pos[side]) + json_pos["bar"][side] + json_pos["off"][side] + json_pos.get("waiting", {}).get(side, 0)


def check_plays(pos: VariantPosition, dice: tuple[int, int], on_step):  # type: ignore[no-untyped-def]
    legal = pos.legal_plays(dice)
    seen = set()
    for lp in islice(legal, 40):
        result = lp.result
        assert result not in seen
        seen.add(result)
        js = result.to_json()
        assert total(js, "light") == total(js, "dark") == 15  # conserved
        assert type(pos).from_json(js, pos.settings) == result  # the variant's own checks on the result
        mover = pos.turn
        n = 0
        for way in islice(lp.iter_ways(), 30):
            n += 1
            me = list(pos.own(mover))
            waiting = 15 - sum(me)
            for move in way.moves:
                on_step(pos, me, waiting, move)
                if move.frm == WAITING:
                    waiting -= 1
                else:
                    me[move.frm] -= 1
                me[move.to] += 1
            assert tuple(me) == result.own(mover)  # the way reaches the result
        assert n >= 1
    return legal


def plakoto_step(pos, me, waiting, move):  # type: ignore[no-untyped-def]
    # Nothing of the opponent's changes during a Plakoto turn (no hits), so the start's pins and counts hold.
    pinned = pos.pinned(pos.turn)
    assert move.frm not in pinned  # a pinned checker never moves (R30)
    if move.to:
        cross = pos._cross(pos.turn)
        assert pos.own(pos.turn.other)[cross[move.to]] < 2 or cross[move.to] in pos.pinned(pos.turn.other)
        assert move.to not in pinned  # the pinner's point is closed to the pinned side (R30)


def russian_step(pos, me, waiting, move):  # type: ignore[no-untyped-def]
    if move.frm not in (WAITING, 25):
        assert 15 - waiting >= pos.settings.entered_before_moving  # two entered before moving (R31)
    if me[25]:
        assert move.frm == 25


def jacquet_step(pos, me, waiting, move):  # type: ignore[no-untyped-def]
    held_at = 2 if pos.settings.hitting else 1
    before = [me[p] >= held_at for p in range(1, 25)]
    after_me = list(me)
    after_me[move.frm] -= 1
    after_me[move.to] += 1
    if move.to and not before[move.to - 1]:
        lo = hi = move.to
        while lo > 1 and after_me[lo - 1] >= held_at:
            lo -= 1
        while hi < 24 and after_me[hi + 1] >= held_at:
            hi += 1
        if after_me[move.to] >= held_at and hi - lo + 1 >= 6:
            q = pos.settings.prime_quarter
            quarter = {1: range(19, 25), 2: range(13, 19), 3: range(7, 13), 4: range(1, 7)}.get(q or 0, range(1, 25))
            if any(lo <= p <= hi for p in quarter):
                assert me[1] and me[2], f"six-point block without own points 1 and 2 (R32): {move}"
    if not pos.messenger_arrived(pos.turn) and not any(me[0:7]) and me[24] < 15:
        assert move.frm != 24  # only the messenger moves before it arrives (R32)


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
SEEDS = st.integers(0, 10_000)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(0, 80), st.integers(0, 1), DICE)
def test_r30_plakoto_properties(seed: int, turns: int, which: int, dice: tuple[int, int]) -> None:
    pos = reach(PlakotoPosition, seed, turns, which)
    check_plays(pos, dice, plakoto_step)
    for p in range(1, 25):
        light, dark = pos.light[p - 1], pos.dark[p - 1]
        if light and dark:  # two colours only under a pin
            assert pos.own_point(Side.LIGHT, p) in pos.pinned(Side.LIGHT) or pos.own_point(Side.DARK, p) in pos.pinned(Side.DARK)


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.integers(0, 80), st.integers(0, 1), DICE)
def test_r31_russian_properties(seed: int, turns: int, which: int, dice: tuple[int, int]) -> None:
    pos = reach(RussianPosition, seed, turns, which)
    legal = check_plays(pos, dice, russian_step)
    if dice[0] == dice[1] and len(legal) and not legal.reroll:
        longest = max(len(lp.play) for lp in legal)
        assert all(len(lp.play) == longest for lp in legal)  # every play goes as far as the chain can


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(0, 100), st.integers(0, 1), DICE)
def test_r32_jacquet_properties(seed: int, turns: int, which: int, dice: tuple[int, int]) -> None:
    pos = reach(JacquetPosition, seed, turns, which)
    check_plays(pos, dice, jacquet_step)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([PlakotoPosition, RussianPosition, JacquetPosition]), SEEDS, st.integers(0, 60), DICE)
def test_random_play_is_a_legal_play(cls: type[VariantPosition], seed: int, turns: int, dice: tuple[int, int]) -> None:
    pos = reach(cls, seed, turns, 0)
    lp = pos.random_play(dice, random.Random(seed))
    legal = pos.legal_plays(dice)
    if lp is None:
        assert len(legal) == 0
    else:
        assert lp.result in legal
