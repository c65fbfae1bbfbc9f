"""Random self-play of the seeds' variants (R30-R32): every game must end, and every position reached must read
back from its own ``--position`` JSON (which refuses any state the variant forbids).

    .venv/bin/python bench/bench_variants.py                     # 10,000 games per variant
    .venv/bin/python bench/bench_variants.py --games 500 --json  # shorter, one JSON object
    .venv/bin/python bench/bench_variants.py --variant russian --full

Plays are drawn with ``random_play`` (a random walk that plays every die, falling back to the full list), as
Russian chains can have tens of thousands of distinct results; ``--full`` lists every result each turn instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.rules.variants import variant  # noqa: E402
from core.rules.variants.selfplay import play_random_game  # noqa: E402


def bench(name: str, games: int, full: bool, max_turns: int) -> dict[str, Any]:
    cls = variant(name)
    results: Counter[str] = Counter()
    turns = positions = unfinished = 0
    longest = 0
    start = time.perf_counter()
    for seed in range(games):
        game = play_random_game(cls, seed, max_turns=max_turns, quick=not full)  # type: ignore[arg-type]
        turns += len(game.turns)
        positions += game.positions
        longest = max(longest, len(game.turns))
        if game.result is None:
            unfinished += 1
        else:
            winner, points = game.result
            results["draw" if winner is None else f"{points}"] += 1
    seconds = time.perf_counter() - start
    return {
        "variant": name, "games": games, "unfinished": unfinished, "turns": turns, "positions_checked": positions,
        "longest_game_turns": longest, "results_by_points": dict(sorted(results.items())),
        "seconds": round(seconds, 1), "ms_per_game": round(1000 * seconds / max(games, 1), 2),
        "mode": "full" if full else "random_play",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--variant", action="append", choices=["plakoto", "russian", "jacquet"])
    parser.add_argument("--full", action="store_true", help="list every legal result each turn")
    parser.add_argument("--max-turns", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [bench(name, args.games, args.full, args.max_turns) for name in (args.variant or ["plakoto", "russian", "jacquet"])]
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(
                f"{r['variant']:8s} {r['games']} games ({r['mode']}): {r['unfinished']} unfinished, {r['turns']} turns, "
                f"{r['positions_checked']} positions checked, longest {r['longest_game_turns']} turns, "
                f"points {r['results_by_points']}, {r['seconds']} s ({r['ms_per_game']} ms/game)"
            )
    return 1 if any(r["unfinished"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
