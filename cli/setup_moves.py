"""`gamao setup-moves FROM TO`: the fewest checker moves that turn one position into another on a real board.

FROM and TO are GNU Backgammon Position IDs, both encoded from the side on roll (light unless ``--turn dark``).
Points are each side's own numbering (1..24, "bar", "off"); see core/rules/setup.py for why the plan is the
fewest. Bad IDs: exit 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json

from cli import fail

NAME = "setup-moves"
HELP = "the fewest checker moves that set up one position (GNU Backgammon Position ID) from another"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("frm", metavar="FROM", help="Position ID of the board as it is, from the side on roll")
    parser.add_argument("to", metavar="TO", help="Position ID of the position to set up, from the side on roll")
    parser.add_argument("--turn", choices=("light", "dark"), default="light",
                        help="the side on roll both IDs are encoded for (default light)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from core import Position, Side
    from core.messages import setup_words
    from core.rules.setup import setup_moves

    try:
        now = Position.from_position_id(args.frm, turn=Side(args.turn))
        target = Position.from_position_id(args.to, turn=Side(args.turn))
    except ValueError as exc:
        return fail(NAME, " ".join(str(exc).split()))
    plan = setup_moves(now, target).as_json()
    if args.json:
        print(json.dumps(plan))
        return 0
    moves = plan["moves"]
    assert isinstance(moves, list)
    if not moves:
        print("the board already shows the position")
    for move in moves:
        print(setup_words(move)["en"])
    print(f"{plan['checkers_moved']} checkers moved")
    return 0
