"""GNU Backgammon's own answers, got without our adapter: the oracles of the engine's tests.

- ``corpus_turns``: positions from the corpus matches, replayed with ``core.match.replay``, each with the
  Match ID of its moment (the real score, cube and Crawford).
- ``text_hints`` / ``text_cubes``: the Debian gnubg driven in plain text mode (``gnubg -t``, its own ``hint``
  command, output parsed here): a different path from engine.gnubg's worker script.
- ``analyse_match``: gnubg's own ``analyse match`` of a .mat file, read back from ``gnubg.match(analysis=1)``;
  ``load_sgf``: what gnubg reads back from an SGF file with analysis (``load match``).

The PyPI ``gnubg`` wheel (1.1.0a16) is not used as the oracle here: it is another gnubg version whose
evaluations differ from the Debian package's 1.07 by up to ~0.005 at the same depth (measured in
bench/bench_coach.py --pypi), more than the tolerances asked of the adapter.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from core import Position, Side, read_mat, replay, write_mat
from core.match.formats import decode_text
from core.match.record import BEAVER, DOUBLE, MOVE, RACCOON, TAKE, player_index
from core.rules.matchid import MatchIdState
from engine.gnubg import find_gnubg
from tests.datasets import CORPUS


# gnubg prints numbers in the machine's locale (a decimal comma under pt_BR): the oracle reads them in C's, as
# engine/gnubg.py does.
def _c_locale() -> dict[str, str]:
    return {**os.environ, "LANG": "C", "LC_ALL": "C"}


_SETUP = ("set threads 1\nset display off\nset player 0 human\nset player 1 human\nset automatic roll off\n"
          "set output mwc off\nset output digits 5\nset beavers 3\nnew game\n")


@dataclass(frozen=True)
class Turn:
    position_id: str  # the mover on roll
    match_id: str  # with the dice (before the roll: dice 0, 0)
    dice: tuple[int, int]
    can_double: bool  # the mover may double before this roll


def corpus_files() -> list[Path]:
    return sorted(CORPUS.rglob("*.txt"))


def corpus_turns(files: list[Path]) -> list[Turn]:
    """Every roll of ``files`` with more than one legal play, in order."""
    turns: list[Turn] = []
    for path in files:
        record = read_mat(decode_text(path.read_bytes()))
        if record.rules.variation != "standard":
            continue
        replay(record)
        for game in record.games:
            cube, owner, offered = 1, None, 1
            for action in game.actions:
                if action.kind in (DOUBLE, BEAVER, RACCOON):
                    offered = action.value or cube * 2
                    if action.kind != DOUBLE and action.side is not None:
                        cube, owner = offered, player_index(action.side)
                    continue
                if action.kind == TAKE and action.side is not None:
                    cube, owner = offered, player_index(action.side)
                    continue
                if action.kind != MOVE or action.position is None or action.dice is None or action.side is None:
                    continue
                pos, side = action.position, action.side
                if pos.turn != side or len(pos.legal_plays(action.dice)) < 2:
                    continue
                mover = player_index(side)
                state = MatchIdState(cube=cube, cube_owner=owner, on_roll=mover, crawford=game.crawford,
                                     dice=action.dice, match_length=record.length,
                                     score=(game.score[Side.LIGHT], game.score[Side.DARK]))
                can_double = owner in (None, mover) and not game.crawford and (
                    record.length == 0 or max(state.score) + cube < record.length)
                turns.append(Turn(pos.position_id(side), state.encode(), action.dice, can_double))
    return turns


def _run_text(commands: list[str], timeout: float = 600) -> str:
    proc = subprocess.run([find_gnubg(), "-t", "-q"], input=_SETUP + "\n".join(commands) + "\n",
                          capture_output=True, text=True, timeout=timeout, cwd=tempfile.gettempdir(), env=_c_locale())
    return proc.stdout


_SET = re.compile(r"^Setting GNUbg ID (\S+)", re.M)
_MOVE = re.compile(r"^\s*\*?\s*\d+\.\s+Cubeful (\d)-ply\s+(.+?)\s+Eq\.:\s+([-+]?\d+\.\d+)", re.M)


def text_hints(turns: list[Turn], plies: int) -> list[list[tuple[str, float, int]]]:
    """gnubg's ``hint`` for each turn: [(result Position ID, equity, ply)], best first (equities as printed).
    At more than 0 ply only the plays gnubg's move filter kept are evaluated at full depth; the others
    are listed at 0 ply (all of them when the filter kept a single play)."""
    commands = [f"set evaluation chequerplay evaluation plies {plies}"]
    for t in turns:
        commands += [f"set gnubgid {t.position_id}:{t.match_id}", "hint 1000"]
    out = _run_text(commands)
    parts = _SET.split(out)[1:]
    assert len(parts) == 2 * len(turns), "gnubg did not answer every position"
    answers = []
    for t, (gid, text) in zip(turns, zip(parts[::2], parts[1::2], strict=True), strict=True):
        assert gid == f"{t.position_id}:{t.match_id}"
        pos = Position.from_position_id(t.position_id, turn=Side.LIGHT)
        rows = []
        for ply, move, eq in _MOVE.findall(text):
            result = pos.parse_play(move, t.dice).result.position_id(Side.LIGHT)
            rows.append((result, float(eq), int(ply)))
        answers.append(rows)
    return answers


_CUBE = re.compile(r"^\s*\d\.\s+(No double|No redouble|Double, pass|Redouble, pass|Double, take|Redouble, take|"
                   r"Double, beaver|Redouble, beaver)\s+([-+]?\d+\.\d+)", re.M)


def text_cubes(turns: list[Turn], plies: int) -> list[tuple[str, dict[str, float]]]:
    """gnubg's ``hint`` before the roll: (proper cube action as printed, equities)."""
    commands = [f"set evaluation cubedecision evaluation plies {plies}"]
    for t in turns:
        state = MatchIdState.decode(t.match_id)
        before = MatchIdState(cube=state.cube, cube_owner=state.cube_owner, on_roll=state.on_roll,
                              crawford=state.crawford, match_length=state.match_length, score=state.score)
        commands += [f"set gnubgid {t.position_id}:{before.encode()}", "hint"]
    out = _run_text(commands)
    parts = _SET.split(out)[1:]
    assert len(parts) == 2 * len(turns)
    answers = []
    for text in parts[1::2]:
        eq: dict[str, float] = {}
        for name, value in _CUBE.findall(text):
            key = "no_double" if name.startswith("No") else "double_pass" if name.endswith("pass") else "double_take"
            eq[key] = float(value)
        proper = re.search(r"Proper cube action:\s*(.+)", text)
        answers.append((proper.group(1).strip() if proper else "", eq))
    return answers


_ANALYSE = r'''
import gnubg, json, os
for c in %(commands)r:
    gnubg.command(c)
m = gnubg.match(analysis=1, statistics=1)
plays = []
for number, g in enumerate(m["games"], start=1):
    for a in g["game"]:
        if a.get("action") != "move" or not a.get("move"):
            continue
        an = a.get("analysis", {})
        moves = an.get("moves", ())
        loss = moves[0]["score"] - moves[an["imove"]]["score"] if moves else 0.0
        plays.append({"game": number, "player": a["player"], "dice": list(a["dice"]), "loss": loss,
                      "skill": an.get("skill"), "forced": len(moves) <= 1})
stats = {p: {"unforced": s["moves"]["unforced-moves"], "error": s["moves"]["error-skill"],
             "marked": s["moves"]["marked"]} for p, s in m["stats"].items()}
with open(%(out)r, "w") as f:
    json.dump({"plays": plays, "stats": stats}, f)
'''


def analyse_match(path: Path, plies: int = 0) -> dict[str, object]:
    """gnubg's own ``analyse match`` of the match in ``path`` (rewritten by us in gnubg's .mat dialect)."""
    record = read_mat(decode_text(path.read_bytes()))
    replay(record)
    with tempfile.TemporaryDirectory() as tmp:
        mat = Path(tmp) / "match.mat"
        mat.write_text(write_mat(record))
        commands = ["set threads 1", "set display off", "set output mwc off",
                    f"set analysis chequerplay evaluation plies {plies}",
                    f"set analysis cubedecision evaluation plies {plies}", f"import mat \"{mat}\"", "analyse match"]
        return _run_script(commands, Path(tmp))


def load_sgf(path: Path) -> dict[str, object]:
    """What gnubg reads back from an SGF file (``load match``): each play's analysis and the statistics."""
    with tempfile.TemporaryDirectory() as tmp:
        return _run_script(["set threads 1", "set display off", f"load match \"{path}\""], Path(tmp))


def _run_script(commands: list[str], tmp: Path) -> dict[str, object]:
    out = tmp / "analysis.json"
    script = tmp / "script.py"
    script.write_text(_ANALYSE % {"commands": commands, "out": str(out)})
    subprocess.run([find_gnubg(), "-t", "-q", "-p", str(script)], capture_output=True, timeout=600,
                   cwd=tmp, env=_c_locale())
    return json.loads(out.read_text())
