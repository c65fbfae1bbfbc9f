"""Random-play turns generated with gnubg_nn (independent of our generator), and conversions."""

from __future__ import annotations

import random

from core import Position, Side


def gnubg_nn_or_none():
    try:
        import gnubg_nn
    except ImportError:
        return None
    return gnubg_nn


def to_position(board: tuple, turn: Side = Side.LIGHT) -> Position:
    """gnubg board (opponent[25], on_roll[25]) -> Position with the on-roll side = turn."""
    opp, me = board

    def own(b):
        return (15 - sum(b), *b[:24], b[24])

    rel = (own(me), own(opp)) if turn is Side.LIGHT else (own(opp), own(me))
    return Position(rel, turn)  # type: ignore[arg-type]


def to_gnubg(pos: Position) -> list[list[int]]:
    me, opp = pos.own(pos.turn), pos.own(pos.turn.other)
    return [list(opp[1:26]), list(me[1:26])]


def random_turns(n: int, seed: int = 1) -> list[tuple[list[list[int]], int, int]]:
    """n (board, d1, d2) turns from random games played by picking uniformly among gnubg_nn's plays."""
    nn = gnubg_nn_or_none()
    assert nn is not None
    rng = random.Random(seed)
    start = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    board = [list(start), list(start)]
    turns = []
    while len(turns) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turns.append(([list(board[0]), list(board[1])], d1, d2))
        keys = nn.moves(board, d1, d2)
        if keys:
            after = nn.board_from_position_key(rng.choice(keys))
            board = [list(after[0]), list(after[1])]
        if sum(board[1][:25]) == 0:  # mover bore off everything: new game
            board = [list(start), list(start)]
            continue
        board = [board[1], board[0]]  # the other side is on roll
    return turns
