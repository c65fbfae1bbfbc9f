"""Partial plays (core.rules.partial): every board on the way to a legal play, and no other (R04-R10)."""

from __future__ import annotations

import random

import pytest

from core.rules import movegen
from core.rules.partial import partial_plays
from core.rules.position import Position, Side

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
# The start, a race near the end (bear-off, R10), light on the bar against a 5-point board (R07), a prime (R05).
POSITIONS = ["4HPwATDgc/ABMA", "2+4OAADc3QAAAA", "sNvBAAC2bQAAYA", "AAAA4O8BAAAA4A", "0PDgAAB48AAAMA"]


def _on_the_way(pos: Position, dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """Brute force: the boards after every proper beginning of every way of playing every legal play."""
    found = set()
    for lp in pos.legal_plays(dice):
        for way in lp.ways():
            me = list(pos.own(pos.turn))
            hits: list[int] = []
            for st in way.moves[:-1]:
                me[st.frm] -= 1
                me[st.to] += 1
                if st.hit:
                    hits.append(st.to)
                found.add((*me, *sorted(hits)))
    return found


def _random_positions(n: int) -> list[Position]:
    rng = random.Random(11)
    out = []
    for _ in range(n):
        pos = Position.start(rng.choice(list(Side)))
        for _ in range(rng.randrange(4, 40)):
            plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            pos = plays[rng.randrange(len(plays))].result if len(plays) else pos.with_turn(pos.turn.other)
            if pos.is_game_over():
                break
        if not pos.is_game_over():
            out.append(pos)
    return out


@pytest.mark.parametrize("pid", POSITIONS)
def test_r04_r09_every_board_on_the_way_and_no_other(pid: str) -> None:
    pos = Position.from_position_id(pid)
    for dice in ROLLS:
        parts = partial_plays(pos, dice)
        keys = [(*p.me, *p.hits) for p in parts]
        assert len(keys) == len(set(keys))  # each board once
        assert set(keys) == _on_the_way(pos, dice), (pid, dice)


def test_r08_r10_random_positions_agree_with_the_ways_of_each_play() -> None:
    for pos in _random_positions(12):
        for dice in ((6, 6), (5, 3), (6, 1)):
            assert {(*p.me, *p.hits) for p in partial_plays(pos, dice)} == _on_the_way(pos, dice)


def test_each_partial_play_is_reached_by_its_steps_with_its_dice() -> None:
    pos = Position.from_position_id("2+4OAADc3QAAAA")  # a bear-off: a die may carry a checker less far (R10)
    for dice in ROLLS:
        for p in partial_plays(pos, dice):
            me, oa = pos._generator_boards()
            for st, die in zip(p.steps, p.used, strict=True):
                assert st in movegen.steps(me, oa, die, pos.block_at)
                me, oa = movegen.apply_step(me, oa, st)
            assert tuple(me) == p.me and tuple(sorted(t for _, t, h in p.steps if h)) == p.hits


def test_r09_no_partial_play_when_one_die_is_all_that_can_be_played() -> None:
    # Light's last checker on the 1-point, nothing else: one die bears it off and the play is over.
    pos = Position.from_physical([1] + [0] * 23, [0] * 18 + [15] + [0] * 5, turn=Side.LIGHT)
    assert len(pos.legal_plays((6, 5))[0].play) == 1
    assert partial_plays(pos, (6, 5)) == []
    assert partial_plays(Position.start(), (6, 5), max_dice=1) == []


def test_partial_play_text() -> None:
    parts = partial_plays(Position.start(), (6, 5))
    # The 6s first, then the 5s; 24/19 and 6/1 land on closed points (R05), 6/off is no bear-off (R10).
    assert [p.text() for p in parts] == ["24/18", "13/7", "8/2", "13/8", "8/3"]
    assert [p.used for p in parts] == [(6,)] * 3 + [(5,)] * 2
