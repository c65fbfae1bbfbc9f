"""`gamao replay FILE... [--json] [--export OUT.mat|OUT.sgf]`: check recorded matches against the rules.

Every play is validated against its roll, every cube action against the cube's state, and each game's
result is recomputed and compared with the one the file states. ``--json`` writes one object per file:
``{"file", "match_length", "games", "plays", "cube_actions", "final_score": [left, right], "problems": [...]}``.
Exit status: 0 every file clean, 1 some file has problems, 2 some file cannot be read at all.

Gamão's own record of a Plakoto, Russian backgammon or Jacquet match (core/match/formats/variant.py; the kiosk's
export and archive write it as .mat) is recognised by its first line and read with every play checked against
the variant's rules (R30-R32): a play the rules refuse is one line naming the file's line, the play and why, and
exit 2 (such a file cannot be replayed past it). Its ``--json`` object also has ``"variant"``.

A .mat file is read and replayed one game at a time, never whole, so memory stays bounded whatever its
size (``--export`` needs the whole match and reads it whole). SGF files are read whole, up to
``MAX_SGF`` bytes (an SGF match is tens of kilobytes).
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from cli import fail
from core.match.formats import MatchFileError, decode_text
from core.match.formats.mat import MAX_LINE, MatStream, decode_lines, read_mat, write_mat
from core.match.formats.sgf import read_sgf, write_sgf
from core.match.formats.variant import MAGIC, is_variant_record, read_variant, write_variant
from core.match.record import MOVE, MatchRecord
from core.match.replay import Replayer, ReplayReport, replay

MAX_SGF = 16 * 1024 * 1024
MAX_VARIANT = 16 * 1024 * 1024  # a variant record is read whole (its plays are checked from the start of each game)

NAME = "replay"
HELP = "replay .mat / .sgf match files, checking every play, cube action and result against the rules"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="match files: Jellyfish/gnubg .mat or gnubg .sgf")
    parser.add_argument("--json", action="store_true", help="write one JSON object per file")
    parser.add_argument(
        "--export", metavar="OUT", help="write our rendering of the (single) FILE to OUT, .mat or .sgf by its suffix"
    )


def _is_sgf(path: Path, head: bytes) -> bool:
    return path.suffix.lower() == ".sgf" or head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"(;")


def _read_sgf(fh: BinaryIO) -> MatchRecord:
    fh.seek(0)
    data = fh.read(MAX_SGF + 1)
    if len(data) > MAX_SGF:
        raise MatchFileError(f"an SGF file above {MAX_SGF // (1024 * 1024)} MB is not a match record", None)
    return read_sgf(decode_text(data))


def _is_variant(head: bytes) -> bool:
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(MAGIC.encode())


def _read_variant(fh: BinaryIO) -> MatchRecord:
    fh.seek(0)
    data = fh.read(MAX_VARIANT + 1)
    if len(data) > MAX_VARIANT:
        raise MatchFileError(f"a variant record above {MAX_VARIANT // (1024 * 1024)} MB is not a match record", None)
    return read_variant("".join(decode_lines(data.splitlines(keepends=True))))


def _variant_report(file: str, record: MatchRecord) -> dict[str, object]:
    """What ``--json`` says of a variant record that read back with every play legal."""
    score = {"light": 0, "dark": 0}
    for game in record.games:
        if game.result is not None and game.result.winner is not None:
            score[game.result.winner.value] += game.result.points
    return {"file": file, "match_length": record.length, "games": len(record.games),
            "plays": sum(1 for g in record.games for a in g.actions if a.kind == MOVE), "cube_actions": 0,
            "final_score": [score["light"], score["dark"]], "problems": [], "variant": record.rules.variation}


def _variant_human(report: dict[str, object], record: MatchRecord) -> str:
    kind = f"{record.length}-point match" if record.length else "money session"
    left, right = report["final_score"]  # type: ignore[misc]
    games = report["games"]
    return (f"{report['file']}: {record.rules.variation} ({record.headers.get('Rule', '')}) {kind}, {games} "
            f"game{'s' if games != 1 else ''}, {report['plays']} plays, final score {left}-{right} "
            f"({' - '.join(record.players.values())}): every play legal, no problems")


def _head(fh: BinaryIO) -> bytes:
    head = fh.read(4096)
    if not head.strip():
        while head and not head.strip():  # only blanks so far: look further before calling it empty
            head = fh.read(1 << 16)
        if not head.strip():
            raise MatchFileError("the file is empty", None)
    return head


def load(path: Path) -> MatchRecord:
    """Read and parse a whole match file; MatchFileError (or OSError) when it cannot be read at all."""
    with path.open("rb") as fh:
        head = _head(fh)
        if _is_variant(head):
            return _read_variant(fh)
        if _is_sgf(path, head):
            return _read_sgf(fh)
        fh.seek(0)
        return read_mat("".join(decode_lines(byte_lines(fh))))


def byte_lines(fh: BinaryIO, max_line: int = MAX_LINE) -> Iterator[bytes]:
    """A binary file's lines, none read longer than ``max_line + 1`` bytes (the rest of such a line is
    skipped; ``decode_lines`` then refuses it by number)."""
    while True:
        raw = fh.readline(max_line + 1)
        if not raw:
            return
        if len(raw) > max_line and not raw.endswith(b"\n"):
            while (rest := fh.readline(max_line + 1)) and not rest.endswith(b"\n"):
                pass
        yield raw


def variant_record(path: Path) -> MatchRecord | None:
    """The file read as Gamão's variant record with every play checked (MatchFileError at the first play the
    rules refuse), or None when it is not one."""
    with path.open("rb") as fh:
        head = _head(fh)
        return _read_variant(fh) if _is_variant(head) else None


def replay_file(path: Path) -> tuple[MatchRecord, ReplayReport]:
    """Read and replay one file, a .mat one game at a time (none kept once replayed)."""
    with path.open("rb") as fh:
        head = _head(fh)
        if _is_sgf(path, head):
            record = _read_sgf(fh)
            return record, replay(record)
        fh.seek(0)
        stream = MatStream(decode_lines(byte_lines(fh)))
        games = stream.games()
        first = next(games, None)
        assert first is not None  # MatStream raises when there is no match line or no game
        return stream.record, Replayer(stream.record).run_games(itertools.chain([first], games))


def _unreadable(file: str, message: str, line: int | None) -> dict[str, object]:
    return {
        "file": file,
        "match_length": None,
        "games": 0,
        "plays": 0,
        "cube_actions": 0,
        "final_score": [0, 0],
        "problems": [{"line": line, "game": 0, "kind": "unreadable_file", "message": message}],
    }


def _human(file: str, record: MatchRecord, report: ReplayReport) -> str:
    kind = f"{record.length}-point match" if record.length else "money session"
    left, right = report.final_score.values()
    names = " - ".join(record.players.values())
    head = (
        f"{file}: {kind}, {report.games} game{'s' if report.games != 1 else ''}, {report.plays} plays, "
        f"{report.cube_actions} cube actions, final score {left}-{right} ({names})"
    )
    if not report.problems:
        return head + ": no problems"
    lines = [head + f": {len(report.problems)} problem{'s' if len(report.problems) != 1 else ''}"]
    for p in report.problems:
        where = f"line {p.line}" if p.line is not None else "file"
        lines.append(f"  {where} (game {p.game}) {p.kind}: {p.message}")
    return "\n".join(lines)


def _export(record: MatchRecord, out: str) -> str | None:
    """Write the export; returns an error message or None."""
    target = Path(out)
    suffix = target.suffix.lower()
    if suffix not in (".mat", ".sgf"):
        return f"cannot export to {out!r}: the name must end in .mat or .sgf"
    if is_variant_record(record):
        if suffix == ".sgf":
            return f"cannot export {record.rules.variation} to {out!r}: SGF has no game type for it (GM[6] is backgammon)"
        text = write_variant(record)
    else:
        text = write_sgf(record) if suffix == ".sgf" else write_mat(record)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"cannot write {out!r}: {exc.strerror or exc}"
    return None


def _cannot(file: str, said: str, message: str, line: int | None, as_json: bool) -> int:
    """A file that cannot be replayed: `said` on stderr and, with --json, an unreadable_file problem; status 2."""
    fail("replay", f"{file}: {said}")
    if as_json:
        print(json.dumps(_unreadable(file, message, line)))
    return 2


def run(args: argparse.Namespace) -> int:
    if args.export and len(args.files) != 1:
        return fail("replay", "--export takes exactly one FILE")
    status = 0
    for file in args.files:
        try:
            record = variant_record(Path(file))
            if record is not None:
                summary = _variant_report(file, record)
                print(json.dumps(summary) if args.json else _variant_human(summary, record))
                if args.export:
                    error = _export(record, args.export)
                    if error:
                        return fail("replay", str(error))
                continue
            if args.export:
                record = load(Path(file))
                report = replay(record)
            else:
                record, report = replay_file(Path(file))
        except MatchFileError as exc:
            status = _cannot(file, str(exc), exc.reason, exc.line, args.json)
            continue
        except (AssertionError, LookupError, TypeError, ValueError, RecursionError) as exc:
            # A record shape the replay does not expect: say so plainly rather than print a traceback.
            message = f"cannot replay this file ({type(exc).__name__}: {exc}); please report it with the file"
            status = _cannot(file, message, message, None, args.json)
            continue
        except OSError as exc:
            message = f"cannot read the file: {exc.strerror or exc}"
            status = _cannot(file, message, message, None, args.json)
            continue
        if args.json:
            print(json.dumps(report.as_dict(file)))
        else:
            print(_human(file, record, report))
        if report.problems:
            status = max(status, 1)
        if args.export:
            error = _export(record, args.export)
            if error:
                return fail("replay", str(error))
    return status
