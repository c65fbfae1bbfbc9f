"""Legal-play throughput: our core vs gnubg_nn.moves (+ decoding its keys to boards), same turns, one run.

    .venv/bin/python bench/bench_legal_plays.py [N_TURNS] [--rounds R] [--clock cpu|wall]

Positions per second = input positions (position + roll) whose full set of legal results is produced: for
us ``len(pos.legal_plays(dice))`` (one representative sequence of steps per distinct result), for gnubg_nn
its move keys decoded to boards. Each side is timed R times, alternating, and the best round is kept: on a
shared machine the best round is the one least disturbed by other work. Both engines run in this one
thread, so the default clock is this process's CPU time (what waiting for a core adds is not the engines'
work); ``--clock wall`` times with the wall clock instead.
"""

from __future__ import annotations

import time

from bench.timing import best_of_arguments
from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns, to_position


def main(n: int = 20_000, rounds: int = 5, clock: str = "cpu") -> None:
    now = time.process_time if clock == "cpu" else time.perf_counter
    nn = gnubg_nn_or_none()
    if nn is None:
        print("gnubg-nn not installed: generating turns needs it; install the 'test' extra on x86-64")
        return
    turns = random_turns(n, seed=7)
    positions = [(to_position(b), (d1, d2)) for b, d1, d2 in turns]
    doubles = [(p, d) for p, d in positions if d[0] == d[1]]
    gdoubles = [t for t in turns if t[1] == t[2]]

    def ours(items):
        t = now()
        total = 0
        for pos, dice in items:
            total += len(pos.legal_plays(dice))
        return now() - t, total

    def gnubg(items):
        t = now()
        total = 0
        for board, d1, d2 in items:
            for k in nn.moves(board, d1, d2):
                nn.board_from_position_key(k)
                total += 1
        return now() - t, total

    best: dict[str, float] = {}
    totals = {}
    for _ in range(rounds):
        for name, run, items in (
            ("ours", ours, positions), ("gnubg", gnubg, turns), ("ours_d", ours, doubles), ("gnubg_d", gnubg, gdoubles),
        ):
            dt, total = run(items)
            best[name] = min(best.get(name, dt), dt)
            totals[name] = total
    assert totals["ours"] == totals["gnubg"], totals
    print(f"turns: {n} ({len(doubles)} doubles), legal results: {totals['ours']}, best of {rounds} rounds, {clock} clock")
    print(f"{'engine':40s} {'all pos/s':>12s} {'doubles pos/s':>14s}")
    print(f"{'gamao core':40s} {n / best['ours']:12,.0f} {len(doubles) / best['ours_d']:14,.0f}")
    print(f"{'gnubg_nn.moves + key->board':40s} {n / best['gnubg']:12,.0f} {len(doubles) / best['gnubg_d']:14,.0f}")
    print(f"{'ratio (gamao / gnubg_nn)':40s} {best['gnubg'] / best['ours']:12.2f} {best['gnubg_d'] / best['ours_d']:14.2f}")


if __name__ == "__main__":
    args = best_of_arguments(__doc__, "turns", "side", 5)
    main(args.n, args.rounds, args.clock)
