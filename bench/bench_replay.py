"""Replay + validate the whole corpus (1,777 real matches, 190k checker plays) on one core.

    .venv/bin/python bench/bench_replay.py              # time reading and replaying every file
    .venv/bin/python bench/bench_replay.py --profile    # and where the time goes (cProfile, top 20)
    .venv/bin/python bench/bench_replay.py --json       # one JSON object with every figure

Target (issue 3): at most 30 s for the whole corpus. Files are read into memory first so the figure is
parsing + replaying, not disk.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.match.formats import decode_text  # noqa: E402
from core.match.formats.mat import read_mat  # noqa: E402
from core.match.replay import replay  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "matches" / "corpus"


def run(texts: list[bytes]) -> dict[str, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    records = [read_mat(decode_text(t)) for t in texts]
    t1 = time.perf_counter()
    plays = rolls = cube = problems = 0
    for rec in records:
        report = replay(rec)
        plays += report.plays
        cube += report.cube_actions
        problems += len(report.problems)
        rolls += sum(1 for g in rec.games for a in g.actions if a.kind == "move")
    t2, c2 = time.perf_counter(), time.process_time()
    return {
        "files": len(texts),
        "rolls": rolls,
        "plays": plays,
        "cube_actions": cube,
        "problems": problems,
        "read_s": round(t1 - t0, 2),
        "replay_s": round(t2 - t1, 2),
        "total_s": round(t2 - t0, 2),
        "cpu_s": round(c2 - c0, 2),  # this process only: what the wall time would be on an idle core
        "plays_per_s": round(plays / (t2 - t1)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", action="store_true", help="print the top 20 functions by cumulative time")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"bench_replay: {CORPUS} is missing (the shared/ folder beside the checkout)", file=sys.stderr)
        return 2
    texts = [p.read_bytes() for p in sorted(CORPUS.glob("*/*"))]
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        figures = run(texts)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(20)
        print(out.getvalue())
    else:
        figures = run(texts)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['files']} files, {figures['rolls']} rolls, {figures['plays']} plays, "
            f"{figures['cube_actions']} cube actions, {figures['problems']} problems\n"
            f"read {figures['read_s']} s + replay {figures['replay_s']} s = {figures['total_s']} s wall, "
            f"{figures['cpu_s']} s CPU ({figures['plays_per_s']} plays/s; target <= 30 s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
