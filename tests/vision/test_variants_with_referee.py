"""Vision and the referee on the seeds' other games (R30-R32): a random game of each, rendered as a video on one
board (a hand while a play is made, then the still board), goes through the pipeline and the referee, which must
follow every turn (its position before each roll equal to the game's), with no play called illegal; here the
first 40 turns of each, the bench's five games of each to their own results. A play the camera cannot tell (a bear-off from a pile it cannot count) is shown on the touch
screen by the players, as the kiosk asks; few are. The harness is bench/bench_vision_variants.py, which runs five
games of each."""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_vision_variants import replay_game
from core.rules.variants import PlakotoPosition
from vision.pipeline import Pipeline
from vision.render import Options, Scene, render
from vision.synthetic import SensorNoise

#: The first turns of each game (entering, chains of doubles, messengers, piles, pins); the bench plays them whole
TURNS = 40
CASES = [
    # variant, self-play seed
    # Plakoto's rendered game is the demo's (tests/kiosk/test_demo_variants.py: pins, piles, its own fault through
    # the camera); the bench plays five of each
    pytest.param("russian", 0, id="russian"),  # entering on an empty board, chains of doubles, a gammon
    pytest.param("jacquet", 0, id="jacquet"),  # the messengers, piles of 15, a bear-off
]


@pytest.mark.slow
@pytest.mark.parametrize("name,seed", CASES)
def test_every_turn_of_a_rendered_variant_game_is_followed(name: str, seed: int) -> None:
    run = replay_game(name, seed, max_turns=TURNS)
    illegal = [f for f in run.flagged if f[1] == "illegal"]
    print(f"{name} seed {seed}: {run.followed} of {run.turns} turns followed, {len(run.flagged)} flagged "
          f"({len(illegal)} illegal), {run.corrections} shown on the touch screen, result {run.result}, "
          f"{run.seconds:.0f} s")
    assert run.turns == TURNS
    assert run.corrections <= run.turns // 10
    assert run.lost_at is None and run.followed == run.turns, run.flagged[:6]
    assert not illegal


POINT, SIDES = 10, [("light", "dark"), ("dark", "light")]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pinner,pinned", SIDES)
def test_a_pinned_checker_is_under_its_pinner(seed: int, pinner: str, pinned: str) -> None:
    """R30: "a peça que prende fica por cima" -- the renderer lays the pinned checker under its pinner; vision
    reports the point as the pinner's colour with the pinner's count (the referee puts the pinned one back)."""
    start = PlakotoPosition.start()
    light, dark = list(start.light), list(start.dark)
    board = {"light": light, "dark": dark}
    board[pinner][POINT - 1] += 2
    board[pinner][(23 if pinner == "light" else 0)] -= 2
    board[pinned][POINT - 1] += 1
    board[pinned][(23 if pinned == "light" else 0)] -= 1
    opts = Options(size=(640, 360), rotate=3.0, perspective=0.03, dice=False)
    first, corners = render(Scene(list(start.light), list(start.dark)), seed, opts)
    pipe = Pipeline(corners=corners, start=(list(start.light), list(start.dark)))
    noise = SensorNoise(np.random.default_rng(seed), 1.5)
    for k in range(15):  # the start, still: the colours are learnt from its two piles
        pipe.process(noise(first), k / 30)
    colours = pipe.reader.colours
    assert colours is not None
    image, _ = render(Scene(light, dark, pinned=[(POINT, pinned)]), seed, opts)
    pipe = Pipeline(corners=corners, start=(list(start.light), list(start.dark)))
    pipe.reader.colours = colours  # the same camera, started again on the new board
    ev = None
    for k in range(15):
        ev = pipe.process(noise(image), k / 30)
    assert ev is not None and ev["stable"]
    assert (ev[pinner][POINT - 1], ev[pinned][POINT - 1]) == (2, 0)
