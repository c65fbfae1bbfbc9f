"""`gamao hint POSITION_ID DICE` / `gamao hint POSITION_ID --cube`: GNU Backgammon's advice.

Every legal play of the roll, best first, with its cubeful equity, its loss against the best play and
gnubg's label (doubtful, bad, very bad, from the thresholds of the installed gnubg); or, with ``--cube``,
the cube action for the player on roll before the roll. Plays and results are written as
``gamao plays`` writes them. The Match ID gives the score, the cube and Crawford (a money game with the
cube centred when absent). Needs gnubg (``sudo apt install gnubg``): without it, exit 2 saying so.
"""

from __future__ import annotations

import argparse
import json
import sys

from cli import fail

NAME = "hint"
HELP = "GNU Backgammon's ranking of every legal play of a roll, or its cube advice (--cube)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position_id", help="GNU Backgammon Position ID, the player on roll as gnubg encodes it")
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 62 (not with --cube)")
    parser.add_argument("--cube", action="store_true", help="cube advice before the roll instead of plays")
    parser.add_argument("--match-id", metavar="MATCH_ID", help="GNU Backgammon Match ID: score, cube, Crawford "
                        "and who is on roll (a money game with the cube centred when absent)")
    parser.add_argument("--plies", type=int, default=0, metavar="N", help="evaluation depth, 0 to 4 (default 0)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S", help="give up after S seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(message: str) -> int:
    return fail("hint", " ".join(message.split()))


def run(args: argparse.Namespace) -> int:
    from core import Position, Side, check_dice
    from engine.base import EngineError, EngineUnavailable
    from engine.gnubg import GnubgEngine, match_state

    try:
        Position.from_position_id(args.position_id, turn=Side.LIGHT)
        match_state(args.match_id)
        if args.cube and args.dice is not None:
            raise ValueError("give either DICE or --cube, not both")
        if not args.cube and args.dice is None:
            raise ValueError("missing the roll: give it after the Position ID (e.g. 62), or ask --cube")
        dice = None if args.cube else check_dice(args.dice)
        if not 0 <= args.plies <= 4:
            raise ValueError(f"--plies must be 0 to 4, not {args.plies}")
    except ValueError as exc:
        return _fail(str(exc))
    engine = GnubgEngine(timeout=args.timeout)
    try:
        if dice is None:
            advice = engine.cube_advice(args.position_id, args.match_id, plies=args.plies)
            if args.json:
                print(json.dumps(advice.as_json()))
            else:
                words = advice.action.replace("_", " ")
                eq = advice.equities
                print(f"{args.position_id}: {words}\n  no double   {eq['no_double']:+.3f}\n"
                      f"  double/take {eq['double_take']:+.3f}\n  double/pass {eq['double_pass']:+.3f}")
            return 0
        ranked = engine.rank_plays(args.position_id, dice, args.match_id, plies=args.plies)
    except EngineUnavailable as exc:
        return _fail(str(exc))
    except ValueError as exc:
        return _fail(str(exc))
    except EngineError as exc:
        print(f"gamao hint: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    finally:
        engine.close()
    if args.json:
        print(json.dumps({"position_id": args.position_id, "dice": list(dice), "plies": args.plies,
                          "plays": [r.as_json() for r in ranked]}))
    elif not ranked:
        print(f"{args.position_id} {dice[0]}{dice[1]}: no legal play")
    else:
        for i, r in enumerate(ranked, start=1):
            label = (r.label or "").replace("_", " ")
            print(f"{i:3d}. {r.play:24s} {r.equity:+.3f}  {0.0 - (r.loss or 0.0):+.3f}  {label}".rstrip())
    return 0
