"""Whole games (R30-R32): random self-play ends, and every position reached reads back from its own JSON (the
variant's checks refuse two colours on a point without a pin, a pin under an empty point, a wrong count, a
checker out before the messenger). bench/bench_variants.py plays 10,000 games per variant."""

from __future__ import annotations

import pytest

from core.rules.variants import JacquetPosition, PlakotoPosition, RussianPosition, VariantPosition
from core.rules.variants.selfplay import play_random_game
from tests.soak import soak

# games per case with --soak; the default run plays half of each (bench/bench_variants.py plays 10,000)
SHARE = 1 if soak() else 2


@pytest.mark.parametrize(("cls", "games", "quick"), [
    (PlakotoPosition, 200, False),
    (JacquetPosition, 200, False),
    (RussianPosition, 300, True),  # Russian chains list tens of thousands of results: drawn by random_play
    (PlakotoPosition, 100, True),
    (JacquetPosition, 100, True),
])
def test_random_games_end_legally(cls: type[VariantPosition], games: int, quick: bool) -> None:
    games //= SHARE
    points = set()
    for seed in range(games):
        game = play_random_game(cls, seed, quick=quick)
        assert game.result is not None, f"{cls.variant} seed {seed} did not end"
        points.add(game.result[1])
        assert game.positions == len(game.turns)
    assert 1 in points and 2 in points  # single games and gammons both happen


def test_russian_full_lists_a_few_games() -> None:
    assert play_random_game(RussianPosition, 0).result is not None
