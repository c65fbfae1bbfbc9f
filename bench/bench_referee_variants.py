"""The referee on random games of Plakoto (R30), Russian backgammon (R31) and Jacquet (R32), on exact boards.

    .venv/bin/python bench/bench_referee_variants.py                # 100 games per variant
    .venv/bin/python bench/bench_referee_variants.py --games 20 --json

Each game (tests/core/referee/variant_streams.py: a board after every die and after every play) is fed to the
referee, which must read every play from the boards: the same position before every roll, no fault, no
uncertain board, the same result. Prints, per variant, the games, plays, problems, and the verdict latency
(stable boards and rolls; worst and mean, wall clock and this thread's CPU time). Exit 1 on any problem.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.referee import Referee  # noqa: E402
from core.referee.games import game_result  # noqa: E402
from core.rules.variants import variant  # noqa: E402
from tests.core.referee.variant_streams import game_events, random_game  # noqa: E402


def run(name: str, games: int) -> dict[str, object]:
    cls = variant(name)
    times: dict[str, list[float]] = {"board": [], "roll": []}
    cpu: dict[str, list[float]] = {"board": [], "roll": []}
    problems: list[str] = []
    plays = chains = 0
    t_all = time.perf_counter()
    for seed in range(games):
        game = random_game(cls, seed)
        ref = Referee()
        verdicts = []
        for ev, turn in game_events(game):
            t0, c0 = time.perf_counter(), time.thread_time()
            out = ref.feed(ev)
            dt, dc = (time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000
            if ev["event"] in times:
                times[ev["event"]].append(dt)
                cpu[ev["event"]].append(dc)
            verdicts += out
            if ev["event"] == "roll" and turn is not None:
                want = turn.before.with_turn(turn.side) if (turn.boards or turn.reroll) else turn.after
                if ref.match_state.pos != want:
                    problems.append(f"seed {seed}: position before {turn.side.value}'s {turn.dice}")
                    break
        problems += [f"seed {seed}: {v['verdict']} {v.get('reason', '')}" for v in verdicts
                     if v["verdict"] in ("illegal", "unplayed_die", "uncertain")]
        plays += sum(1 for v in verdicts if v["verdict"] == "play")
        chains += sum(1 for v in verdicts if v.get("chain"))
        res = game_result(game.final) if game.final is not None else None
        over = [v for v in verdicts if v["verdict"] == "game_over"]
        if res is not None and (len(over) != 1 or over[0]["how"] != res[2]):
            problems.append(f"seed {seed}: result {res} vs {over}")
    return {
        "variant": name, "games": games, "plays": plays, "chains": chains, "problems": len(problems),
        "first_problems": problems[:3], "seconds": round(time.perf_counter() - t_all, 1),
        **{f"{k}_worst_ms": round(max(v, default=0.0), 2) for k, v in times.items()},
        **{f"{k}_worst_cpu_ms": round(max(v, default=0.0), 2) for k, v in cpu.items()},
        **{f"{k}_mean_ms": round(sum(v) / max(1, len(v)), 3) for k, v in times.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per variant")
    parser.add_argument("--variant", action="append", choices=("plakoto", "russian", "jacquet"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    reports = [run(name, args.games) for name in (args.variant or ("plakoto", "russian", "jacquet"))]
    if args.json:
        print(json.dumps(reports))
    else:
        for r in reports:
            print("  ".join(f"{k}={v}" for k, v in r.items()))
    return 1 if any(r["problems"] for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
