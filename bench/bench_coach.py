"""The coach's engine on this machine: GNU Backgammon (the Debian gnubg) through engine.gnubg.

    .venv/bin/python bench/bench_coach.py                 # hint at 0 and 2 ply, cube, one match analysis
    .venv/bin/python bench/bench_coach.py --agreement     # and gamao analyse vs gnubg's analyse match, 20 matches
    .venv/bin/python bench/bench_coach.py --pypi          # and the PyPI gnubg wheel (1.1.0a16) vs the Debian 1.07
    .venv/bin/python bench/bench_coach.py --json          # one JSON object with every figure

Times are end to end as the kiosk sees them (our legal plays, the request, gnubg's evaluation of every
legal play at the depth asked, the answer), over positions from the corpus matches with their real match
states. One gnubg process, one thread.

Figures on the development machine (2-core Xeon 2.5 GHz shared with other jobs, gnubg 1.07.001 Debian):
  start of gnubg (nets loaded)     0.08-0.18 s
  hint, 0 ply (every legal play)   median 11 ms, p90 15 ms    (mostly our legal plays in Python)
  hint, 2 ply (every legal play)   median 150-210 ms, p90 400-480 ms, max 0.9 s
  cube, 0 ply / 2 ply              median 11 ms / 31-41 ms
  whole match (7 points, 3 games, 133 checker plays): 0 ply 1.6 s, 2 ply 70 s (every play at 2 ply)
  --agreement: 20 corpus matches, 2,154 checker plays, 0 label differences, error rates within 0.0001
  --pypi: the PyPI wheel (gnubg 1.1.0a16) and the Debian 1.07 give the same best equity within 0.001 in only
          77 of 300 match positions (median difference 0.006, max 0.05): a different gnubg, not an oracle.

Raspberry Pi 4 (estimate, not measured): a Cortex-A72 at 1.5 GHz runs single-threaded code about 4 times
slower than this Xeon core (single-core benchmark scores and Python's pyperformance both put it at 1/3.5 to
1/5), and gnubg's neural net loses its x86 SIMD (SSE/AVX) unless the arm64 build uses NEON, so count 4x for our
Python and 4-8x for gnubg's evaluations: hint at 0 ply ~50 ms, cube at 0 ply ~50 ms, hint at 2 ply ~0.6-1.7 s
median (p90 1.6-4 s), a whole match at 0 ply ~7 s and at 2 ply 5-10 minutes. So: 0 ply live, 2 ply for the
tutor with a timeout of a few seconds (falling back to 0 ply), and 2-ply reviews in the background.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.figures import print_figures  # noqa: E402
from core import read_mat  # noqa: E402
from core.match.formats import decode_text  # noqa: E402
from engine.analysis import analyse_record  # noqa: E402
from engine.gnubg import GnubgEngine  # noqa: E402
from tests.engine.oracle import analyse_match, corpus_files, corpus_turns  # noqa: E402


def _ms(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {"n": len(samples), "median_ms": round(1000 * statistics.median(samples), 2),
            "p90_ms": round(1000 * samples[int(0.9 * (len(samples) - 1))], 2),
            "max_ms": round(1000 * samples[-1], 2)}


def _timed(call, items) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        call(item)
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--agreement", action="store_true", help="gamao analyse vs gnubg's analyse match, 20 matches")
    parser.add_argument("--match-2ply", action="store_true", help="also time the whole match analysis at 2 ply")
    parser.add_argument("--pypi", action="store_true", help="compare the PyPI gnubg wheel's 0-ply best equities")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    turns = corpus_turns(corpus_files()[:10])
    sample0, sample2 = turns[::max(1, len(turns) // 300)][:300], turns[::max(1, len(turns) // 30)][:30]
    cubes = [t for t in turns if t.can_double][:: 5][:60]

    t = time.perf_counter()
    engine = GnubgEngine(timeout=600)
    engine.thresholds()
    figures["start_s"] = round(time.perf_counter() - t, 3)
    figures["gnubg"] = engine.version
    figures["hint_0ply"] = _ms(_timed(lambda x: engine.rank_plays(x.position_id, x.dice, x.match_id, plies=0), sample0))
    figures["hint_2ply"] = _ms(_timed(lambda x: engine.rank_plays(x.position_id, x.dice, x.match_id, plies=2), sample2))
    figures["cube_0ply"] = _ms(_timed(lambda x: engine.cube_advice(x.position_id, x.match_id, plies=0), cubes))
    figures["cube_2ply"] = _ms(_timed(lambda x: engine.cube_advice(x.position_id, x.match_id, plies=2), cubes[:20]))
    path = corpus_files()[0]

    def match_analysis(plies: int) -> dict[str, object]:
        record = read_mat(decode_text(path.read_bytes()))
        t = time.perf_counter()
        analysis = analyse_record(record, engine, plies=plies)
        return {"file": path.name, "checker_plays": len(analysis.plays), "seconds": round(time.perf_counter() - t, 2)}

    figures["match_analysis_0ply"] = match_analysis(0)
    if args.match_2ply:
        figures["match_analysis_2ply"] = match_analysis(2)
    if args.agreement:
        files = corpus_files()
        chosen = files[:: len(files) // 20][:20]
        worst, label_diffs, plays = 0.0, 0, 0
        for p in chosen:
            rec = read_mat(decode_text(p.read_bytes()))
            ours = analyse_record(rec, engine, plies=0)
            theirs = analyse_match(p, plies=0)
            plays += len(ours.plays)
            label_diffs += sum(1 for a, b in zip(ours.plays, theirs["plays"], strict=False)
                               if a.label != ((b["skill"] or "").replace(" ", "_") or None))
            for player, side in (("X", "light"), ("O", "dark")):
                st = theirs["stats"][player]
                rate = 1000 * st["error"] / st["unforced"] if st["unforced"] else 0.0
                mine = {s.value: v for s, v in ours.summary.items()}[side].error_rate
                worst = max(worst, abs(mine - rate))
        figures["agreement_20_matches_0ply"] = {"matches": len(chosen), "checker_plays": plays,
                                                "label_differences": label_diffs,
                                                "max_error_rate_difference": round(worst, 4)}
    if args.pypi:
        import gnubg as pypi  # the PyPI wheel: a test oracle only, never imported by engine/

        from core.rules.matchid import MatchIdState
        diffs, same = [], 0
        matches = [x for x in sample0 if MatchIdState.decode(x.match_id).match_length > 0]
        for x in matches:
            s = MatchIdState.decode(x.match_id)
            ci = pypi.cubeinfo(s.cube, -1 if s.cube_owner is None else s.cube_owner, s.on_roll, s.match_length,
                               s.score, int(s.crawford))
            theirs = pypi.findbestmoves(pypi.positionfromid(x.position_id), ci,
                                        pypi.evalcontext(1, 0, 1, 1, 0.0), x.dice)
            ours = engine.rank_plays(x.position_id, x.dice, x.match_id, plies=0)
            diffs.append(abs(theirs[0]["score"] - ours[0].equity))
            same += abs(theirs[0]["score"] - ours[0].equity) <= 0.001
        figures["pypi_1.1.0a16_vs_debian_0ply_best_equity"] = {
            "positions": len(diffs), "within_0.001": same, "max_difference": round(max(diffs), 4),
            "median_difference": round(statistics.median(diffs), 5)}
    engine.close()
    print_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
