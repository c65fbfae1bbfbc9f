"""The referee's false-call bars with the table's conventions on (issue 36): each rule set against none.

    .venv/bin/python bench/bench_conventions.py                     # 12 corpus matches, every rule set
    .venv/bin/python bench/bench_conventions.py --matches 40 --harshest-cases --json

For each rule set (and "none", today's rules) the same corpus matches are refereed three ways, as the existing
bars do: the exact camera (the streams as recorded), the noisy camera of tests/core/referee/test_referee_noise.py
(every other stable board perturbed) and the confidently wrong camera of tests/core/referee/confident_camera.py at
its harshest (every stable board misread at one point, faults injected, strict mode). A false call is any
``illegal`` / ``unplayed_die`` where none was made, and, with the conventions on, any of their own calls:
``checker_off_board``, ``bar_first_hint``, ``touch_move_ignored`` (a ``touch_move_seen`` is a notice to the
opponent, counted apart). No event of a real match is a touch-move claim, so an ignored claim is never right here.
The match's own ``mode`` stays the harness's (casual for the exact and noisy streams, strict for the harshest).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tests.core.referee.confident_camera as confident  # noqa: E402
import tests.core.referee.test_referee_noise as noisy  # noqa: E402
from core.referee import Referee  # noqa: E402
from core.referee.rulesets import NAMES  # noqa: E402
from tests.core.referee import referee_streams  # noqa: E402
from tests.core.referee.referee_streams import corpus_files, load, subset  # noqa: E402

CALLS = ("illegal", "unplayed_die", "checker_off_board", "bar_first_hint", "touch_move_ignored")
ORIGINAL = referee_streams.match_stream


def with_rule_set(name: str | None) -> Any:
    """match_stream whose new_match names the rule set (the harness's own keys, mode first, still win)."""
    def stream(*args: Any, **kwargs: Any) -> Any:
        tagged, expected = ORIGINAL(*args, **kwargs)
        if name is not None:
            ev = tagged[0].event
            ev["rules"] = {**ev["rules"], "rule_set": name}
        return tagged, expected
    return stream


def exact(paths: list[Path], name: str | None) -> dict[str, int]:
    """The recorded streams as they are: every call is false (the matches were played legally)."""
    out = {"boards": 0, "calls": 0, "notices": 0, "plays": 0, "wrong": 0}
    for seed, path in enumerate(paths):
        tagged, expected = with_rule_set(name)(load(path), seed=seed)
        ref = Referee()
        got = []
        for t in tagged:
            out["boards"] += t.event.get("event") == "board"
            for v in ref.feed(t.event):
                out["calls"] += v["verdict"] in CALLS
                out["notices"] += v["verdict"] == "touch_move_seen"
                if v["verdict"] == "play":
                    got.append((v["side"], v["position_id"]))
        want = [(side, pid) for _, side, _, pid in expected.plays]
        out["plays"] += len(want)
        out["wrong"] += sum(1 for k, w in enumerate(want) if k >= len(got) or got[k] != w)
    return out


def noisy_run(paths: list[Path], name: str | None) -> dict[str, int]:
    noisy.match_stream = with_rule_set(name)
    total: dict[str, int] = {}
    original_feed = Referee.feed
    calls = {"conventions": 0, "notices": 0}

    def feed(self: Referee, event: Any) -> Any:
        out = original_feed(self, event)
        calls["conventions"] += sum(v["verdict"] in CALLS[2:] for v in out)
        calls["notices"] += sum(v["verdict"] == "touch_move_seen" for v in out)
        return out
    Referee.feed = feed  # type: ignore[method-assign]
    try:
        for n, path in enumerate(paths):
            for key, value in noisy.run_noisy(path, seed=n).items():
                total[key] = total.get(key, 0) + value
    finally:
        Referee.feed = original_feed  # type: ignore[method-assign]
        noisy.match_stream = ORIGINAL
    return {"plays": total["plays"], "wrong": total["wrong"],
            "calls": total["false_faults"] + calls["conventions"], "notices": calls["notices"]}


def harshest(cases: list[tuple[Path, int]], name: str | None) -> dict[str, int]:
    confident.match_stream = with_rule_set(name)
    saved = confident.FLAGS
    confident.FLAGS = CALLS  # the conventions' own calls count as flags (a false one is a false call)
    try:
        total = confident.run_many(cases, 1.0, jobs=1)
    finally:
        confident.match_stream, confident.FLAGS = ORIGINAL, saved
    return {"boards": total.boards, "calls": len(total.false_flags), "refused_rolls": len(total.refused_rolls),
            "missed": len(total.missed), "caught": total.caught, "injected": total.injected,
            "wrong_plays": total.wrong_plays, "scores_wrong": len(total.scores_wrong)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--harshest-cases", action="store_true",
                        help="the harshest camera on test_referee_confident.py's HARSHEST_CASES too")
    parser.add_argument("--sets", default=",".join(("none", *NAMES)), help="rule sets to run (none: today's rules)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not corpus_files():
        print("the match corpus (../shared/matches/corpus) is missing", file=sys.stderr)
        return 2
    paths = subset(args.matches)
    cases = [(p, 5000 + n) for n, p in enumerate(paths)]
    if args.harshest_cases:
        from tests.core.referee.test_referee_confident import HARSHEST_CASES
        cases += [(referee_streams.CORPUS / n, s) for n, s in HARSHEST_CASES if (referee_streams.CORPUS / n).is_file()]
    report: dict[str, Any] = {}
    for name in [None if n == "none" else n for n in args.sets.split(",")]:
        random.seed(0)
        report[name or "none"] = {"exact": exact(paths, name), "noisy": noisy_run(paths, name),
                                  "harshest": harshest(cases, name)}
        if not args.json:
            r = report[name or "none"]
            print(f"{name or 'none':17} exact: {r['exact']}\n{'':17} noisy: {r['noisy']}\n{'':17} harshest: {r['harshest']}",
                  flush=True)
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
