"""What the best-of-R throughput benches share (bench_legal_plays.py, bench_plays_batch.py): their arguments."""

from __future__ import annotations

import argparse


def best_of_arguments(doc: str, what: str, per: str, rounds: int) -> argparse.Namespace:
    """N (how many `what`, default 20000), --rounds (timed rounds per `per`, the best kept) and --clock cpu|wall."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=20_000, help=f"number of {what} (default 20000)")
    parser.add_argument("--rounds", type=int, default=rounds,
                        help=f"timed rounds per {per}; the best is kept (default {rounds})")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="CPU time (of the process doing the work; default) or wall time")
    return parser.parse_args()
