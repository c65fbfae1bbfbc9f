"""Legal-play throughput: our core vs gnubg_nn.moves (+ decoding its keys to boards), same turns, one run.

    .venv/bin/python bench/bench_legal_plays.py [N_TURNS]

Positions per second = input positions (position + roll) whose full set of legal results is produced.
"""

from __future__ import annotations

import sys
import time

from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns, to_position


def main(n: int = 20_000) -> None:
    nn = gnubg_nn_or_none()
    if nn is None:
        print("gnubg-nn not installed: generating turns needs it; install the 'test' extra on x86-64")
        return
    turns = random_turns(n, seed=7)
    positions = [(to_position(b), (d1, d2)) for b, d1, d2 in turns]
    doubles = [(p, d) for p, d in positions if d[0] == d[1]]

    def ours(items):
        t = time.perf_counter()
        total = 0
        for pos, dice in items:
            total += len(pos.legal_plays(dice))
        return len(items) / (time.perf_counter() - t), total

    def gnubg(items):
        t = time.perf_counter()
        total = 0
        for board, d1, d2 in items:
            for k in nn.moves(board, d1, d2):
                nn.board_from_position_key(k)
                total += 1
        return len(items) / (time.perf_counter() - t), total

    gdoubles = [t for t in turns if t[1] == t[2]]
    o_all, o_n = ours(positions)
    g_all, g_n = gnubg(turns)
    o_d, _ = ours(doubles)
    g_d, _ = gnubg(gdoubles)
    assert o_n == g_n, (o_n, g_n)
    print(f"turns: {n} ({len(doubles)} doubles), legal results: {o_n}")
    print(f"{'engine':40s} {'all pos/s':>12s} {'doubles pos/s':>14s}")
    print(f"{'gamao core (pure Python)':40s} {o_all:12,.0f} {o_d:14,.0f}")
    print(f"{'gnubg_nn.moves + key->board':40s} {g_all:12,.0f} {g_d:14,.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
