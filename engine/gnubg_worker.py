"""The script GNU Backgammon runs for us: ``gnubg -t -q -p engine/gnubg_worker.py``.

It runs INSIDE gnubg's embedded Python (its ``gnubg`` module exists only there), so nothing of ours is
imported here and nothing of ours imports this file: requests come as JSON lines on standard input,
answers go as JSON lines to the file descriptor named by ``GAMAO_ANSWER_FD`` (gnubg's own chatter stays on
its standard output, which the adapter throws away). One request at a time; an answer is one line.

Requests (``op``):
- ``hello``: ``{"ok": true, "version": ..., "thresholds": [doubtful, bad, very_bad]}`` read from
  ``show analysis``.
- ``hint``: ``{"gnubgid": "POS:MATCH", "plies": n}`` with the dice in the Match ID:
  ``{"ok": true, "moves": [{"move": "24/18 13/11", "result": POSITION_ID, "equity": e, "probs": [5]}, ...]}``, every
  legal play (a move filter that keeps every play at every ply), best first.
- ``cube``: ``{"gnubgid": "POS:MATCH", "plies": n}`` with no dice: gnubg's ``hint`` text parsed:
  ``{"ok": true, "action": "Double, take", "no_double": e, "double_take": e, "double_pass": e}``.
- ``quit``.
Errors: ``{"ok": false, "error": "..."}``.
"""

from __future__ import annotations  # gnubg may embed a Python older than ours

import json
import os
import re
import sys
import tempfile
from typing import Any

import gnubg  # gnubg's embedded module (pyproject.toml: mypy ignores its missing types)

_ANSWER = os.fdopen(int(os.environ["GAMAO_ANSWER_FD"]), "w", buffering=1)


def capture(command: str) -> str:
    """Run a gnubg command and return what it printed (gnubg prints to the C-level fd 1)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode("utf-8", "replace")


def setup() -> None:
    for command in ("set threads 1", "set sound enable off", "set display off", "set player 0 human",
                    "set player 1 human", "set automatic roll off", "set automatic game off",
                    "set output mwc off", "set output digits 5", "new game"):
        capture(command)
    # Every play gets evaluated at the full depth: level 0 of each ply's filter keeps all plays.
    for ply in range(1, 5):
        capture(f"set evaluation movefilter {ply} 0 -1 0 0")


def thresholds() -> list[float]:
    text = capture("show analysis")
    found: dict[str, float] = {}
    for value, name in re.findall(r"([-+]?\d+\.\d+)\s+(doubtful|bad|very bad)\b", text):
        found.setdefault(name, abs(float(value)))
    return [found["doubtful"], found["bad"], found["very bad"]]


def apply_move(board: Any, pairs: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board (opponent, mover) after the mover plays ``pairs`` ((from, to), 25 = bar, 0 = off)."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in pairs:
        me[src - 1 if src != 25 else 24] -= 1
        if dst > 0:
            me[dst - 1] += 1
            mirror = 24 - dst
            if opp[mirror] == 1:
                opp[mirror] = 0
                opp[24] += 1
    return (tuple(opp), tuple(me))


_DEPTH: dict[str, int] = {}  # the depth last set per kind: setting it again flushes gnubg's evaluation cache (~10 ms)


def set_position(gnubgid: str, plies: int, kind: str) -> None:
    if _DEPTH.get(kind) != int(plies):
        capture(f"set evaluation {kind} evaluation plies {int(plies)}")
        capture(f"set evaluation {kind} evaluation prune on")
        _DEPTH[kind] = int(plies)
    text = capture(f"set gnubgid {gnubgid}")
    position_id = gnubgid.split(":")[0]
    if gnubg.positionid(gnubg.board()) != position_id:
        raise ValueError(f"gnubg did not take the position {gnubgid}: {text.strip()[:200]}")


def hint(gnubgid: str, plies: int) -> dict[str, Any]:
    set_position(gnubgid, plies, "chequerplay")
    board = gnubg.board()
    found = gnubg.hint(10000)
    moves = []
    for entry in found.get("hint", []):
        pairs = gnubg.parsemove(entry["move"])
        probs = entry.get("details", {}).get("probs")
        moves.append({"move": entry["move"], "result": gnubg.positionid(apply_move(board, pairs)),
                      "equity": float(entry["equity"]), "probs": [float(x) for x in probs] if probs else None})
    return {"ok": True, "moves": moves}


_CUBE_LINE = re.compile(r"^\s*\d\.\s+(No double|No redouble|Double, pass|Redouble, pass|Double, take|"
                        r"Redouble, take|Double, beaver|Redouble, beaver)\s+([-+]?\d+\.\d+)", re.M)


def cube(gnubgid: str, plies: int) -> dict[str, Any]:
    set_position(gnubgid, plies, "cubedecision")
    text = capture("hint")
    answer = {"ok": True, "text": text}
    for name, value in _CUBE_LINE.findall(text):
        key = ("no_double" if name.startswith("No") else "double_pass" if name.endswith("pass")
               else "double_take")
        answer[key] = float(value)
    proper = re.search(r"Proper cube action:\s*(.+)", text)
    if proper is None or "no_double" not in answer:
        raise ValueError("gnubg gave no cube analysis here: " + " ".join(text.split())[:200])
    answer["action"] = proper.group(1).strip()
    return answer


def main() -> None:
    setup()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "quit":
                break
            if op == "hello":
                answer = {"ok": True, "thresholds": thresholds(), "version": capture("show version").split("\n")[0]}
            elif op == "hint":
                answer = hint(request["gnubgid"], request.get("plies", 0))
            elif op == "cube":
                answer = cube(request["gnubgid"], request.get("plies", 0))
            else:
                answer = {"ok": False, "error": f"unknown request {op!r}"}
        except Exception as exc:  # noqa: BLE001 - every failure goes back as an answer
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        _ANSWER.write(json.dumps(answer) + "\n")


main()
