"""`gamao analyse FILE.mat|FILE.sgf`: every checker play of a match rated by GNU Backgammon.

The match is replayed with our rules (positions, scores, cubes, Crawford); each checker play's roll is
ranked by gnubg at ``--plies`` with the match state of that moment, and the play made gets its loss and
gnubg's label. ``--json`` writes one line per checker play, then a summary line per side: unforced plays,
error rate (thousandths of normalised equity per unforced play, gnubg's "Error rate mEMG", as a positive
number) and the counts of doubtful, bad and very bad plays, and XG's Performance Rating (``pr``, with its BMAB
``level`` and the ``decisions`` it divides by: unforced checker plays plus the cube decisions XG counts, each
listed under ``cube``), per side for the match and per game (docs/CONTRACTS.md, issue 24). ``--export OUT.sgf`` also writes the match with
the analysis as gnubg's SGF carries it (gnubg loads it with its analysis). Needs gnubg (``sudo apt install
gnubg``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli import fail

NAME = "analyse"
HELP = "rate every checker play of a .mat or SGF match with GNU Backgammon"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a match file: .mat (Jellyfish, gnubg, Galaxy, XG/Studio text) or .sgf")
    parser.add_argument("--plies", type=int, default=0, metavar="N", help="evaluation depth, 0 to 4 (default 0)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="give up on a play after S seconds")
    parser.add_argument("--json", action="store_true", help="JSON lines: one per checker play, then the summary")
    parser.add_argument("--export", metavar="OUT.sgf",
                        help="also write the match with the analysis into OUT.sgf, as gnubg's SGF carries it")


def _fail(message: str, status: int = 2) -> int:
    return fail("analyse", " ".join(message.split()), status)


def run(args: argparse.Namespace) -> int:
    from cli.replay import load
    from core import MatchFileError
    from core.coach.pr import level
    from engine.analysis import PlayRating, analyse_record, export_sgf
    from engine.base import EngineError, EngineUnavailable
    from engine.gnubg import GnubgEngine, find_gnubg

    if not 0 <= args.plies <= 4:
        return _fail(f"--plies must be 0 to 4, not {args.plies}")
    if args.export is not None and not args.export.lower().endswith(".sgf"):
        return _fail(f"--export {args.export}: the analysis can only be written into SGF (a .mat file has no "
                     "place for it); give a name ending in .sgf")
    path = Path(args.file)
    try:
        record = load(path)
    except MatchFileError as exc:
        where = f" (line {exc.line})" if getattr(exc, "line", None) else ""
        return _fail(f"{args.file}{where}: {exc}")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {args.file}: {exc}")
    try:
        find_gnubg()
    except EngineUnavailable as exc:
        return _fail(str(exc))

    def show(rating: PlayRating) -> None:
        if args.json:
            print(json.dumps(rating.as_json()), flush=False)
        else:
            label = (rating.label or "").replace("_", " ")
            mark = "" if rating.played == rating.best else f"  best {rating.best}"
            print(f"game {rating.game} #{rating.number:<3d} {rating.side.value:5s} {rating.dice[0]}{rating.dice[1]} "
                  f"{rating.played:24s} {0.0 - rating.loss:+.3f} {label}{mark}".rstrip())

    engine = GnubgEngine(timeout=args.timeout)
    try:
        analysis = analyse_record(record, engine, plies=args.plies, progress=show, cube=True)
    except EngineUnavailable as exc:
        return _fail(str(exc))
    except EngineError as exc:
        return _fail(str(exc), 1)
    finally:
        engine.close()
    if args.export is not None:
        try:
            Path(args.export).write_text(export_sgf(record, analysis), encoding="utf-8")
        except OSError as exc:
            return _fail(f"cannot write {args.export}: {exc}")
    for note in analysis.skipped:
        print(f"gamao analyse: not rated: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(analysis.summary_json()))
    else:
        for side, s in analysis.summary.items():
            print(f"{side.value}: {s.plays} unforced plays, error rate {s.error_rate:.1f} "
                  f"(doubtful {s.labels['doubtful']}, bad {s.labels['bad']}, very bad {s.labels['very_bad']}); "
                  f"PR {s.pr:.2f} ({level(s.pr).replace('_', ' ')}) over {s.decisions} decisions "
                  f"({s.cube_decisions} of the cube)")
    return 0
