"""`gamao plays POSITION_ID ROLL`: every legal play and its resulting Position ID.

Results are the board right after the play from the mover's side, not yet turned round (what
``gnubg_nn.board_from_position_key`` gives for the keys of ``gnubg_nn.moves``).
With no position it reads ``POSITION_ID ROLL`` lines from standard input and writes one JSON object per line.

``gamao plays --variant NAME --position JSON DICE --json`` (NAME: backgammon, plakoto, russian, jacquet) takes a
position in physical numbering, as board events lay it out, and prints
``{"variant", "dice", "plays": [{"play", "result"}, ...]}``, one entry per distinct result (docs/CONTRACTS.md,
"Variants on the command line"). A Russian double lists each play of its whole chain as far as it goes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from cli import fail
from core import Position, Side, check_dice

NAME = "plays"
HELP = "list the legal plays for a GNU Backgammon Position ID and a roll"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position_id", nargs="?", help="GNU Backgammon Position ID, player on roll as gnubg encodes it")
    parser.add_argument("roll", nargs="?", help="the roll, e.g. 31")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--count", action="store_true", help="print only the number of distinct results")
    parser.add_argument(
        "--variant", default=None,
        help="the game: backgammon, plakoto, russian or jacquet (with --position; DICE is then the one argument)",
    )
    parser.add_argument("--position", default=None, metavar="JSON", help="the position as one JSON object, physical numbering")


def _answer(position_id: str, roll: str, as_json: bool, count_only: bool) -> str:
    pos = Position.from_position_id(position_id, turn=Side.LIGHT)
    dice = check_dice(roll)
    plays = pos.legal_plays(dice)
    if count_only:
        return str(len(plays))
    rows = [(lp.text(), lp.result_id(Side.LIGHT)) for lp in plays]
    if as_json:
        return json.dumps({"position_id": position_id, "dice": list(dice), "plays": [{"play": p, "result": r} for p, r in rows]})
    if not rows:
        return f"{position_id} {dice[0]}{dice[1]}: no legal play"
    return "\n".join(f"{p:24s} {r}" for p, r in rows)


MAX_LINE = 1024  # "POSITION_ID ROLL" is 17 characters


def _lines() -> Iterator[str]:
    """Standard input's lines, read as bytes and never more than MAX_LINE + 1 at a time: a line without an
    end cannot fill the memory, and bytes that are not UTF-8 become U+FFFD (refused by line number)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes underneath (tests)
        yield from sys.stdin
        return
    from cli.replay import byte_lines

    for raw in byte_lines(stream, MAX_LINE):
        yield raw.decode("utf-8", errors="replace")


def _variant_answer(name: str, position: str | None, roll: str, as_json: bool, count_only: bool) -> str:
    from core.referee.games import MATCH_VARIANTS
    from core.rules.variants import position_from_json, position_to_json, variant

    if name.lower() not in ("backgammon", *MATCH_VARIANTS):
        raise ValueError(f"--variant: unknown game {name!r}; choose backgammon, plakoto, russian or jacquet")
    cls = variant(name)
    pos = cls.start() if position is None else position_from_json(cls, position)
    dice = check_dice(roll)
    plays = pos.legal_plays(dice)
    if count_only:
        return str(len(plays))
    text = getattr(plays[0], "text", None) if len(plays) else None
    rows = [(lp.text() if text else lp.play.text(), position_to_json(lp.result)) for lp in plays]  # type: ignore[attr-defined]
    if as_json:
        out: dict[str, object] = {"variant": "backgammon" if cls.variant == "standard" else cls.variant, "dice": list(dice),
                                  "plays": [{"play": p, "result": r} for p, r in rows]}
        if getattr(plays, "reroll", False):
            out["reroll"] = True
        return json.dumps(out)
    if getattr(plays, "reroll", False):
        return f"{dice[0]}{dice[1]}: a double on a first roll is rolled again (R31)"
    if not rows:
        return f"{dice[0]}{dice[1]}: no legal play"
    return "\n".join(f"{p:32s} {json.dumps(r)}" for p, r in rows)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "variant", None) is not None or getattr(args, "position", None) is not None:
        roll = args.position_id if args.roll is None else None
        if roll is None:
            return fail("plays", "with --variant/--position give only the dice, e.g. 'gamao plays --variant plakoto --position JSON 31 --json'")
        try:
            print(_variant_answer(args.variant or "backgammon", args.position, roll, args.json, args.count))
        except ValueError as exc:
            return fail("plays", str(exc))
        return 0
    if args.position_id is not None:
        if args.roll is None:
            return fail("plays", "missing the roll: give it after the Position ID, e.g. 'gamao plays 4HPwATDgc/ABMA 31'")
        try:
            print(_answer(args.position_id, args.roll, args.json, args.count))
        except ValueError as exc:
            return fail("plays", str(exc))
        return 0
    status = 0
    out = sys.stdout
    for number, line in enumerate(_lines(), start=1):
        words = line.split()
        if not words:
            continue
        try:
            if len(line) > MAX_LINE:
                raise ValueError(f"the line is longer than {MAX_LINE} characters; expected 'POSITION_ID ROLL'")
            if "\ufffd" in line:
                raise ValueError("the line is not UTF-8 text; expected 'POSITION_ID ROLL'")
            if len(words) != 2:
                raise ValueError(f"expected 'POSITION_ID ROLL', got {line.strip()[:60]!r}")
            out.write(_answer(words[0], words[1], not args.count, args.count) + "\n")
        except ValueError as exc:
            print(f"gamao plays: line {number}: {exc}", file=sys.stderr)
            out.write(json.dumps({"line": number, "error": str(exc)}) + "\n")
            status = 2
    return status
