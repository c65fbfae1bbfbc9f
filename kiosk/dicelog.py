"""The dice log: every roll of the dice unit, kept across matches in the data folder (``dice.jsonl``).

One JSON object per line, the roll as the dice bridge emits it plus where and when it was seen::

    {"event": "roll", "seq": 7, "dice": [6, 3], "cocked": [false, false], "unit": "GAMAO1", "boot": "1a2b",
     "at": 1764170000.5, "day": "2026-11-26", "match": 12}

``seq`` is the unit's own sequence number (firmware_bridge/protocol.py): with ``unit`` and ``boot`` it names the
roll, so a roll the unit re-sent is counted once. The log is appended (one line, flushed and synced) after the
journal took the roll; it is what ``gamao dice-stats`` and the kiosk's /dice page read
(core.match.dicestats). A data folder from before the log existed is read from its journal's rolls instead.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from core.match.dicestats import dice_stats
from kiosk.journal import Journal, JournalError

DICE_LOG = "dice.jsonl"
MAX_LINE = 4096
MAX_LINES = 1_000_000  # a unit rolling every 10 s for 115 days without a pause


class DiceLogError(ValueError):
    """A dice log (or a file of roll events) that cannot be read; the message names the file and line."""


class DiceLog:
    """Appends the unit's rolls to ``DIR/dice.jsonl``; remembers the unit and boot from its ``hello``."""

    def __init__(self, data_dir: str | Path) -> None:
        self.path = Path(data_dir) / DICE_LOG
        self.unit: str | None = None
        self.boot: str | None = None
        self._lock = threading.Lock()

    def seen(self, event: dict[str, Any], match: int | None = None, now: float | None = None,
             refused: str | None = None) -> None:
        """One event from the dice bridge (after the service took it): a roll is logged, a hello remembered.
        ``refused``: the referee's reason when it had the roll made again (a tie at the opening, out of turn).
        A log that cannot be written is the journal's problem too: the error is left to the caller to log."""
        kind = event.get("event")
        if kind == "hello":
            self.unit, self.boot = event.get("unit"), event.get("boot")
            return
        if kind != "roll" or event.get("seq") is None:
            return
        at = time.time() if now is None else now
        entry = {"event": "roll", "seq": event["seq"], "dice": list(event["dice"]),
                 "cocked": list(event.get("cocked") or [False, False]), "unit": self.unit, "boot": self.boot,
                 "at": round(at, 3), "day": time.strftime("%Y-%m-%d", time.localtime(at)), "match": match,
                 **({"refused": refused} if refused and refused != "cocked_die" else {})}
        line = json.dumps(entry, separators=(",", ":")) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line's JSON object, read at most `MAX_LINE` + 2 bytes at a time: a 300 MB line, or /dev/zero with no
    newline at all, is refused after 4 KiB, never read into memory (issue 34, finding 10: 635 MB, 5.4 GB)."""
    with path.open("rb") as fh:
        lineno = 0
        while True:
            raw = fh.readline(MAX_LINE + 2)
            if not raw:
                return
            lineno += 1
            if lineno > MAX_LINES:
                raise DiceLogError(f"{path}: more than {MAX_LINES:,} lines; a dice unit's life is far fewer rolls")
            body = raw.rstrip(b"\r\n")
            if len(body) > MAX_LINE:
                raise DiceLogError(f"{path}: line {lineno} is longer than {MAX_LINE} characters; a roll is one short line")
            try:
                text = body.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise DiceLogError(f"{path}: line {lineno} is not UTF-8 text; give a JSON-lines file of roll "
                                   "events") from None
            if not text or text.startswith("#"):
                continue
            try:
                obj = json.loads(text)
            except RecursionError:
                raise DiceLogError(f"{path}: line {lineno} nests too deeply; a roll is a flat JSON object") from None
            except ValueError as exc:
                raise DiceLogError(f"{path}: line {lineno} is not JSON ({exc})") from None
            if not isinstance(obj, dict):
                raise DiceLogError(f"{path}: line {lineno} is not a JSON object; give roll events, one per line")
            yield lineno, obj


def _field_problem(obj: dict[str, Any]) -> str | None:
    """What is wrong with a roll's other fields (they name the roll and choose it), or None."""
    for key in ("seq", "match"):
        value = obj.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or abs(value) >= 2**63):
            return f'"{key}" must be a whole number, got {_short(value)}'
    for key in ("unit", "boot", "day", "refused"):
        value = obj.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > 64):
            return f'"{key}" must be a short text, got {_short(value)}'
    cocked = obj.get("cocked")
    if cocked is not None and (not isinstance(cocked, list) or len(cocked) != 2
                               or not all(isinstance(c, bool) for c in cocked)):
        return f'"cocked" must be two true/false values, got {_short(cocked)}'
    return None


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _journal_rolls(journal: Path) -> list[dict[str, Any]]:
    """Rolls of the dice unit (those with a sequence number) that a journal holds, oldest first."""
    try:
        j = Journal(journal)
    except JournalError as exc:
        raise DiceLogError(f"{journal}: not a kiosk journal ({exc})") from None
    try:
        out = []
        for m in j.matches():
            for ev in j.events(m["id"]):
                if ev.get("event") == "roll" and ev.get("seq") is not None:
                    out.append({**ev, "match": m["id"],
                                "day": time.strftime("%Y-%m-%d", time.localtime(m["started"]))})
        return out
    except (sqlite3.Error, JournalError, ValueError, TypeError, KeyError, OverflowError) as exc:
        raise DiceLogError(f"{journal}: not a kiosk journal, or a damaged one ({exc}); `gamao journal` checks "
                           "and repairs it") from None
    finally:
        j.close()


def read_rolls(path: str | Path) -> list[dict[str, Any]]:
    """The roll events of a data folder (its dice log, else its journal) or of a JSON-lines file. DiceLogError,
    naming the file and line, for anything it cannot use (a bad type anywhere, too long, too deep, not SQLite)."""
    return list(iter_rolls(path))


def iter_rolls(path: str | Path) -> Iterator[dict[str, Any]]:
    """`read_rolls` one roll at a time (`gamao dice-stats` keeps only the counts: its memory does not grow with
    the file). The path is checked at the first `next()`."""
    p = Path(path)
    if p.is_dir():
        log = p / DICE_LOG
        if log.is_file():
            p = log
        elif (p / "journal.sqlite").exists():
            yield from _journal_rolls(p / "journal.sqlite")
            return
        else:
            raise DiceLogError(f"{p}: no {DICE_LOG} and no journal.sqlite here; give the kiosk's data folder "
                               "or a JSON-lines file of roll events")
    elif not p.exists():
        raise DiceLogError(f"{p}: no such file or folder")
    try:
        yield from _with_units(_checked(p))
    except OSError as exc:
        raise DiceLogError(f"{p}: cannot read it: {exc.strerror or exc}") from None


def _checked(p: Path) -> Iterator[dict[str, Any]]:
    for lineno, obj in _lines(p):
        if obj.get("event", "roll") != "roll":
            if obj.get("event") == "hello":
                problem = _field_problem({k: obj.get(k) for k in ("unit", "boot")})
                if problem is not None:
                    raise DiceLogError(f"{p}: line {lineno}: {problem}")
                yield obj
            continue
        dice = obj.get("dice")
        if (not isinstance(dice, list) or len(dice) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
            raise DiceLogError(f"{p}: line {lineno}: \"dice\" must be two numbers from 1 to 6, got {_short(dice)}")
        problem = _field_problem(obj)
        if problem is not None:
            raise DiceLogError(f"{p}: line {lineno}: {problem}")
        yield obj


def _with_units(items: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """A bridge's stream names the unit once (``hello``): each roll after it gets that unit and boot."""
    unit = boot = None
    for obj in items:
        if obj.get("event") == "hello":
            unit, boot = obj.get("unit"), obj.get("boot")
            continue
        if "unit" not in obj and unit is not None:
            obj = {**obj, "unit": unit, "boot": boot}
        yield obj


def report(rolls: list[dict[str, Any]], day: str | None = None, match: int | None = None) -> dict[str, Any]:
    """The statistics for the unit's life (every roll), the day and the match (core.match.dicestats)."""
    today = day or time.strftime("%Y-%m-%d")
    last_match = match if match is not None else next((r.get("match") for r in reversed(rolls)
                                                       if r.get("match") is not None), None)
    return {"life": dice_stats(rolls),
            "day": {"day": today, **dice_stats([r for r in rolls if r.get("day") == today])},
            "match": {"match": last_match,
                      **dice_stats([r for r in rolls if last_match is not None and r.get("match") == last_match])},
            "units": sorted({str(r["unit"]) for r in rolls if r.get("unit")})}
