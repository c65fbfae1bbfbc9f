"""The referee under a confidently wrong camera (issue 15): false flags, missed faults, scores.

    .venv/bin/python bench/bench_referee_confident.py --matches 20 --shares 0.2,0.5,1
    .venv/bin/python bench/bench_referee_confident.py --matches 100 --shares 0.5,1 --offset 3 --json

Matches are a deterministic spread of the corpus (``--offset`` shifts it, for held-out samples). Every
stable board is read by the camera model of tests/core/referee/confident_camera.py: on ``share`` of them
one point is misread by one checker, the wrong count the likelier (0.6 / 0.4). Faults are injected as in
tests/core/referee/test_referee_faults.py (strict mode). Prints per share: boards, misread boards, injected
and caught faults, false flags (illegal / unplayed_die never made), strict-mode rolls refused that the true
board would not refuse, faults missed, faults counted apart as unsure (their own board, as misread, fits a
play; or in a bear-off, where derived borne-off counts cannot tell) or late (an end turn pressed too soon,
seen when the mover played on), wrong plays and wrong final scores, with the first few examples of each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.core.referee.confident_camera import Score, run_confident  # noqa: E402
from tests.core.referee.referee_streams import corpus_files  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--shares", default="0.2,0.5,1")
    parser.add_argument("--offset", type=int, default=1, help="start of the corpus spread (0 = the tests' own)")
    parser.add_argument("--mode", default="strict", choices=("strict", "casual"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = corpus_files()
    step = max(1, len(files) // args.matches)
    chosen = files[args.offset::step][: args.matches]
    report = {}
    for share in (float(s) for s in args.shares.split(",")):
        total = Score()
        t0 = time.perf_counter()
        for n, path in enumerate(chosen):
            total.add(run_confident(path, seed=n, share=share, mode=args.mode))
        summary = total.summary()
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
