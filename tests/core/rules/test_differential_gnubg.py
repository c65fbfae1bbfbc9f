"""Differential test of our legal-play generator against GNU Backgammon's (gnubg_nn.moves).

Runs on x86-64 where the gnubg-nn wheel exists; elsewhere it is skipped with a message saying so.
"""

from __future__ import annotations

import pytest

from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns, to_position

nn = gnubg_nn_or_none()
pytestmark = pytest.mark.skipif(nn is None, reason="gnubg-nn is not installed (no wheel for this platform): oracle check skipped")

N_TURNS = 20_000


def test_r04_r10_same_results_as_gnubg_on_20000_random_turns() -> None:
    turns = random_turns(N_TURNS, seed=2026)
    doubles = sum(1 for _, d1, d2 in turns if d1 == d2)
    assert 0.13 < doubles / N_TURNS < 0.20  # about a sixth are doubles
    disagreements = []
    for board, d1, d2 in turns:
        pos = to_position(board)
        ours = {lp.result.position_id(pos.turn) for lp in pos.legal_plays((d1, d2))}
        theirs = {nn.position_id([list(b) for b in nn.board_from_position_key(k)]) for k in nn.moves(board, d1, d2)}
        if ours != theirs:
            disagreements.append((pos.position_id(), d1, d2, sorted(ours ^ theirs)))
    assert disagreements == []
