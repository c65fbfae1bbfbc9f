"""The legal plays come in a fixed order with fixed representative steps (R04-R10, R25).

``gamao plays`` prints the plays in generation order, and messages quote the first one as an example, so the
faster generator must give exactly what the one before it gave (commit 08b2824): same plays, same order, the
same steps for each. The digest below was computed with that generator over boards of every kind (bar, doubles,
bearing off, hits), from both sides' numbering; tests/core/rules/test_differential_gnubg.py checks the
results themselves against GNU Backgammon.
"""

from __future__ import annotations

import hashlib
import random

from core import Position, Side

DIGEST_BEFORE = "4c20e284cd8b75493bd75e323d463128404640fe9f94e29b0f5625da4217def8"


def random_boards(n: int, seed: int) -> list[Position]:
    """Boards with checkers on the bar, borne off, spread or gathered home, for either side on roll."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        me, opp = [0] * 26, [0] * 26
        home_only = rng.random() < 0.3  # the side on roll bears off or soon will
        on_bar = 0.1 if rng.random() < 0.3 else 0.0
        for side, other in ((me, opp), (opp, me)):
            for _ in range(15):
                r = rng.random()
                if r < on_bar:
                    side[25] += 1
                elif r < 0.15:
                    side[0] += 1
                else:
                    free = [p for p in range(1, 7 if home_only and side is me else 25) if not other[25 - p]]
                    side[rng.choice(free)] += 1
        if me[0] == 15 or opp[0] == 15:
            continue
        turn = rng.choice([Side.LIGHT, Side.DARK])
        rel = (tuple(me), tuple(opp)) if turn is Side.LIGHT else (tuple(opp), tuple(me))
        boards.append(Position(rel, turn))  # type: ignore[arg-type]
    return boards


def digest(boards: list[Position]) -> str:
    h = hashlib.sha256()
    for pos in boards:
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                rows = [(lp.play.text(style="gnubg"), lp.result.position_id()) for lp in pos.legal_plays((d1, d2))]
                h.update(repr((pos.position_id(), pos.turn.value, d1, d2, rows)).encode())
    return h.hexdigest()


def test_plays_order_and_steps_are_those_of_the_generator_before() -> None:
    assert digest(random_boards(60, seed=2024)) == DIGEST_BEFORE


def test_text_and_result_id_shortcuts_agree_with_play_and_result() -> None:
    for pos in random_boards(15, seed=7):
        for dice in ((6, 6), (3, 1), (5, 2), (1, 1)):
            legal = pos.legal_plays(dice)
            for lp in legal:
                for style in ("standard", "gnubg"):
                    assert lp.text(style) == lp.play.text(style)
                for side in (None, Side.LIGHT, Side.DARK):
                    assert lp.result_id(side) == lp.result.position_id(side)
            assert len(legal) == legal.count() == len(list(legal))
