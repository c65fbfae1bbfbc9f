"""The ways of playing each result (``LegalPlay.ways()`` / ``VariantPlay.ways()``) over random games.

    .venv/bin/python bench/bench_ways.py                       # backgammon: 60 games, the chosen play's ways
    .venv/bin/python bench/bench_ways.py --all                 # every legal play's ways, each turn
    .venv/bin/python bench/bench_ways.py --variant plakoto --games 20

Prints one JSON object: the plays and ways counted, a digest of every way in order (two versions of the
generator must print the same one), and the CPU seconds spent in ``ways()`` alone (the games' own moves
excluded). For a comparison of two checkouts from outside, run it under ``farm-bench --vs``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core import Position, Side  # noqa: E402
from core.rules.variants import variant  # noqa: E402


def run(name: str, games: int, every: bool) -> dict[str, Any]:
    cls: Any = Position if name == "standard" else variant(name)
    digest = hashlib.sha256()
    plays = ways = 0
    spent = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        pos = cls.start(Side.LIGHT) if name == "standard" else cls.start(rng.choice(("light", "dark")))
        for _ in range(400):
            if pos.is_game_over():
                break
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if name != "standard" and pos._reroll(dice):
                continue
            legal = pos.legal_plays(dice)
            if not len(legal):
                pos = pos.with_turn(pos.turn.other)
                continue
            chosen = legal[rng.randrange(len(legal))]
            asked = list(legal) if every else [chosen]
            started = time.process_time()
            found = [lp.ways() for lp in asked]
            spent += time.process_time() - started
            for lp, w in zip(asked, found, strict=True):
                plays += 1
                ways += len(w)
                digest.update(repr((lp.text(), [way.text() for way in w])).encode())
            pos = chosen.result
    return {"variant": name, "games": games, "plays": plays, "ways": ways, "digest": digest.hexdigest()[:16],
            "ways_cpu_s": round(spent, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--variant", default="standard", choices=["standard", "plakoto", "russian", "jacquet"])
    parser.add_argument("--all", action="store_true", help="every legal play's ways, not only the chosen play's")
    args = parser.parse_args()
    print(json.dumps(run(args.variant, args.games, args.all)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
