"""`gamao plays` over a batch on standard input (``POSITION_ID ROLL`` lines) vs gnubg_nn on the same lines.

    .venv/bin/python bench/bench_plays_batch.py [N_LINES] [--rounds R] [--clock cpu|wall]

Lines per second for:
- ``gamao plays --count`` and ``gamao plays --json`` run as commands (a new process each, start-up included;
  the start-up alone, with an empty batch, is shown and taken off in the "without start-up" column);
- the same batch function in this process (``cli.plays.run`` with stdin/stdout as strings);
- the generator alone (``len(pos.legal_plays(dice))`` on positions decoded beforehand): what the batch
  path costs at best;
- gnubg_nn in this process: decode the ID (``board_from_position_id``), generate (``moves``), and for the
  JSON line each result's Position ID and a move text, written with ``json.dumps``.
Each is timed R times, alternating, and the best round is kept (the machine is shared). The default clock
is CPU time (of the command's process, or of this one): what waiting for a core adds is not work.
``--clock wall`` times with the wall clock.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

from bench.timing import best_of_arguments
from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns, to_position

ROOT = Path(__file__).resolve().parent.parent
CLOCK = "cpu"


def _now() -> float:
    return time.process_time() if CLOCK == "cpu" else time.perf_counter()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _command(args: list[str], stdin: str) -> float:
    # A PYTHONPATH given to the bench comes first (to time another checkout's code), then this checkout.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)}
    t, cpu = time.perf_counter(), _children_cpu()
    out = subprocess.run([sys.executable, "-m", "cli", "plays", *args], input=stdin, capture_output=True, text=True, env=env)
    dt = _children_cpu() - cpu if CLOCK == "cpu" else time.perf_counter() - t
    assert out.returncode == 0, out.stderr
    return dt


def _in_process(count: bool, stdin: str) -> float:
    from cli import plays

    args = argparse.Namespace(position_id=None, roll=None, json=not count, count=count)
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        t = _now()
        with redirect_stdout(io.StringIO()):
            status = plays.run(args)
        dt = _now() - t
    finally:
        sys.stdin = old
    assert status == 0
    return dt


def main(n: int = 20_000, rounds: int = 3) -> None:
    nn = gnubg_nn_or_none()
    if nn is None:
        print("gnubg-nn not installed: the batch and the comparison need it; install the 'test' extra on x86-64")
        return
    turns = random_turns(n, seed=7)
    lines = [(nn.position_id(b), f"{d1}{d2}") for b, d1, d2 in turns]
    stdin = "".join(f"{pid} {roll}\n" for pid, roll in lines)
    positions = [(to_position(b), (d1, d2)) for b, d1, d2 in turns]

    def generator() -> float:
        t = _now()
        for pos, dice in positions:
            len(pos.legal_plays(dice))
        return _now() - t

    def gnubg(count: bool) -> float:
        t = _now()
        out = []
        for pid, roll in lines:
            board = nn.board_from_position_id(pid)
            if count:
                out.append(str(len(nn.moves(board, int(roll[0]), int(roll[1])))))
                continue
            rows = []
            for key, moves in nn.moves(board, int(roll[0]), int(roll[1]), 1):
                after = nn.board_from_position_key(key)
                text = " ".join(f"{a}/{b}" for a, b in moves)
                rows.append({"play": text, "result": nn.position_id([list(after[0]), list(after[1])])})
            out.append(json.dumps({"position_id": pid, "dice": [int(roll[0]), int(roll[1])], "plays": rows}))
        "\n".join(out)
        return _now() - t

    cases = {
        "startup": lambda: _command(["--count"], ""),
        "cmd --count": lambda: _command(["--count"], stdin),
        "cmd --json": lambda: _command(["--json"], stdin),
        "run --count": lambda: _in_process(True, stdin),
        "run --json": lambda: _in_process(False, stdin),
        "generator": generator,
        "gnubg --count": lambda: gnubg(True),
        "gnubg --json": lambda: gnubg(False),
    }
    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, case in cases.items():
            dt = case()
            best[name] = min(best.get(name, dt), dt)
    start = best["startup"]
    print(f"lines: {n}, best of {rounds} rounds, {CLOCK} clock; start-up of the command {start * 1000:.0f} ms")
    print(f"{'':44s} {'lines/s':>10s} {'without start-up':>17s}")
    rows = [
        ("gamao plays --count (command)", best["cmd --count"], best["cmd --count"] - start),
        ("gamao plays --json (command)", best["cmd --json"], best["cmd --json"] - start),
        ("plays batch --count (in process)", best["run --count"], None),
        ("plays batch --json (in process)", best["run --json"], None),
        ("generator alone: len(legal_plays)", best["generator"], None),
        ("gnubg_nn: id -> board, moves, count", best["gnubg --count"], None),
        ("gnubg_nn: id -> board, moves, ids, json", best["gnubg --json"], None),
    ]
    for label, dt, net in rows:
        print(f"{label:44s} {n / dt:10,.0f} {'' if net is None else f'{n / net:17,.0f}'}")


if __name__ == "__main__":
    args = best_of_arguments(__doc__, "lines", "case", 3)
    CLOCK = args.clock
    main(args.n, args.rounds)
