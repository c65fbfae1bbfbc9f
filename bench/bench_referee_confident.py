"""The referee under a confidently wrong camera (issues 15, 21): false flags, missed faults, scores.

    .venv/bin/python bench/bench_referee_confident.py --matches 20 --shares 0.2,0.5,1
    .venv/bin/python bench/bench_referee_confident.py --matches 100 --shares 0.5,1 --offset 3 --json
    nice -n 10 .venv/bin/python bench/bench_referee_confident.py --harshest --matches 200 --offsets 1,2,3 --jobs 2

Matches are a deterministic spread of the corpus (``--offset`` shifts it, for held-out samples;
``--offsets`` takes one spread per offset, each with its own seeds). Every stable board is read by the
camera model of tests/core/referee/confident_camera.py: on ``share`` of them one point is misread by one
checker, the wrong count the likelier (0.6 / 0.4). ``--harshest`` is share 1 (every stable board misread),
the camera under which a tournament must see no false call. Faults are injected as in
tests/core/referee/test_referee_faults.py (strict mode). Prints per share: boards, misread boards, injected
and caught faults (recall = caught / injected), false flags (illegal / unplayed_die never made), strict-mode
rolls refused that the true board would not refuse, faults missed, faults counted apart as unsure (their own
board, as misread, fits a play; or in a bear-off, where derived borne-off counts cannot tell) or late (an end
turn pressed too soon, seen when the mover played on), wrong plays and wrong final scores, with the first few
examples of each. ``--jobs`` runs the matches in that many processes (the machine's other work comes first:
run it under ``nice``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.core.referee.confident_camera import run_many, spread  # noqa: E402
from tests.core.referee.referee_streams import corpus_files  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=None, help="matches per offset (20; 200 with --harshest)")
    parser.add_argument("--shares", default="0.2,0.5,1")
    parser.add_argument("--harshest", action="store_true", help="every stable board misread (share 1)")
    parser.add_argument("--offset", type=int, default=1, help="start of the corpus spread (0 = the bench's first)")
    parser.add_argument("--offsets", default=None, help="several spreads, comma-separated (overrides --offset)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (each offset adds 1000)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--mode", default="strict", choices=("strict", "casual"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    matches = args.matches or (200 if args.harshest else 20)
    offsets = [int(o) for o in args.offsets.split(",")] if args.offsets else [args.offset]
    shares = [1.0] if args.harshest else [float(s) for s in args.shares.split(",")]
    files = corpus_files()
    if not files:
        print("the match corpus (../shared/matches/corpus) is missing", file=sys.stderr)
        return 2
    tasks = spread(files, matches, offsets, args.seed)
    report = {}
    for share in shares:
        t0 = time.perf_counter()
        total = run_many(tasks, share, mode=args.mode, jobs=args.jobs)
        summary: dict[str, float] = dict(total.summary())
        summary["recall"] = round(total.caught / total.injected, 4) if total.injected else 1.0
        summary["seconds"] = round(time.perf_counter() - t0, 1)
        report[str(share)] = {"summary": summary, "false_flags": total.false_flags[:8],
                              "refused_rolls": total.refused_rolls[:5], "missed": total.missed[:8],
                              "other_reason": total.other_reason[:5], "unsure": total.unsure[:5],
                              "late": total.late[:5],
                              "scores_wrong": total.scores_wrong[:5]}
        if not args.json:
            print(f"share {share}: {summary}")
            for key in ("false_flags", "refused_rolls", "missed", "unsure", "late", "other_reason", "scores_wrong"):
                for line in report[str(share)][key]:
                    print(f"    {key}: {line}")
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
