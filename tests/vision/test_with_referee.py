"""Vision and the referee together: games of a real match, rendered as a video on one board (a hand while a
play is made, then the still board), go through the pipeline and the referee, which must infer every play
(the position after each equal to the record's) with no play ruled wrongly. The harness is the bench's
(bench/bench_vision_referee.py), which runs whole matches and corpus samples."""

from __future__ import annotations

import pytest

from bench.bench_vision_referee import replay_match
from tests.datasets import CORPUS, SAMPLES
from tests.soak import HOW, soak

MATCH = SAMPLES / "gnubg" / "charlot1-charlot2_7p_2025-11-08-2305.mat"
HD_MATCH = CORPUS / "lasse" / "match12642788.txt"
SIZE = (640, 360)

CASES = [
    # game, render seed, camera and lighting drawn per video (else a mild fixed view)
    # A plain game with nothing special: the 1280x720 corpus game below covers the same path, so --soak only.
    pytest.param(1, 5, False, id="game1", marks=pytest.mark.skipif(
        not soak(), reason=f"a plain rendered game: {HOW}")),
    # Used to fail: 18 of 53. At the hit 7/3* 5/3 vision read two dark checkers on the bar as one, the
    # referee counted the derived borne-off count as a second error, and the game stalled.
    pytest.param(3, 0, False, id="game3-two-on-the-bar"),
    # Used to fail: 3 of 53. Orange checkers on grey felt: four moved checkers looked like a hand's skin, the
    # board never settled before the next roll, and the roll was refused as premature.
    pytest.param(3, 1, True, id="game3-skin-coloured-checkers"),
]


@pytest.mark.slow
@pytest.mark.parametrize("game,seed,varied", CASES)
def test_every_play_of_a_rendered_real_game_is_inferred(game: int, seed: int, varied: bool) -> None:
    _check(MATCH, game, seed, varied, SIZE)


@pytest.mark.slow
def test_every_play_of_a_rendered_corpus_game_at_1280x720_is_inferred() -> None:
    """The Pi camera's size. Used to fail: 60 of 62. After the bear-off filled the tray, the clicked-corner bump
    check took thumbnail noise for a moved camera, reset the stillness with a hand in its reference, the
    next board never settled and the roll after it was refused."""
    _check(HD_MATCH, 1, 4, True, (1280, 720))


def _check(match, game: int, seed: int, varied: bool, size: tuple[int, int]) -> None:
    if not match.is_file():
        pytest.skip(f"match record not found at {match} (../shared is absent)")
    run = replay_match(match, size, seed, games=[game], varied=varied)
    print(f"{match.name} game {game}, seed {seed}, {size}: {run.right} of {run.expected} plays inferred, "
          f"{run.flagged} flagged")
    assert run.expected > 40
    assert run.wrong_plays == 0, run.problems
    assert run.right == run.expected, run.problems[:12]
