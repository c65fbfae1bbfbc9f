"""Turn recorded matches into referee event streams, as the kiosk would see them.

For every play: the roll, boards halfway through the play (one per die), unstable boards (a hand over
the board) in between, and the exact board after the play. Cube actions and resignations become cube /
resign events; a new game starts with the board set up again. Each event carries a tag saying what it
is, so tests can inject faults or camera noise at the right places and check verdicts against the
record (``gamao replay`` fills the expected plays and results).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.match.formats import decode_text
from core.match.formats.mat import read_mat
from core.match.record import ACCEPT, BEAVER, DOUBLE, DROP, MOVE, RACCOON, REJECT, RESIGN, TAKE, MatchRecord
from core.match.replay import replay
from core.referee.inference import apply_step, cross_table
from core.rules.position import Position, Side
from tests.datasets import CORPUS as CORPUS  # re-exported: the referee and kiosk tests import it from here
from tests.datasets import corpus_files


def subset(n: int) -> list[Path]:
    """A deterministic spread of ``n`` files across the corpus (both folders, all lengths)."""
    files = corpus_files()
    if not files:
        return []
    step = max(1, len(files) // n)
    return files[::step][:n]


@dataclass
class Tagged:
    event: dict[str, Any]
    tag: dict[str, Any] = field(default_factory=dict)


@dataclass
class Expected:
    plays: list[tuple[int, str, tuple[int, int], str]] = field(default_factory=list)  # game, side, dice, pos id after
    results: list[tuple[str, int]] = field(default_factory=list)  # winner, points
    score: list[int] = field(default_factory=lambda: [0, 0])
    games: int = 0


def load(path: Path) -> MatchRecord:
    record = read_mat(decode_text(path.read_bytes()))
    replay(record)
    return record


def board_event(pos: Position, stable: bool = True) -> dict[str, Any]:
    ev: dict[str, Any] = {"event": "board", **pos.to_dict(), "stable": stable}
    return ev


def _unstable(pos: Position, rng: random.Random) -> dict[str, Any]:
    ev = board_event(pos, stable=False)
    # A hand over the board hides a few points.
    for _ in range(3):
        side = rng.choice(("light", "dark"))
        i = rng.randrange(24)
        ev[side][i] = 0
    return ev


def _steps_positions(pos: Position, dice: tuple[int, int], play: Any) -> list[Position]:
    """Positions after each single-die step of one legal way of playing ``play``."""
    lp = pos.parse_play(play, dice)
    ways = lp.ways()
    if not ways:
        return [lp.result]
    mover = pos.turn
    me, opp = list(pos.own(mover)), list(pos.own(mover.other))
    cross = cross_table(mover, type(pos))
    out = []
    for mv in ways[0].moves:
        me, opp = apply_step(me, opp, (mv.frm, mv.to, mv.hit), cross)
        rel = (tuple(me), tuple(opp)) if mover is Side.LIGHT else (tuple(opp), tuple(me))
        out.append(type(pos)(rel, mover.other))
    out[-1] = lp.result
    return out


def match_stream(record: MatchRecord, seed: int = 0, halfway: bool = True, unstable: bool = True,
                 mode: str = "casual") -> tuple[list[Tagged], Expected]:
    """Events for a whole (replayed) match, and what the referee must conclude from them."""
    rng = random.Random(seed)
    rules = {"crawford": record.rules.crawford, "jacoby": record.rules.jacoby,
             "beavers": record.rules.beavers, "mode": mode, "premature_roll": "commit",
             "cube_cap": 1 if not record.rules.cube_use else record.rules.cube_cap}
    out: list[Tagged] = [Tagged({"event": "new_match", "length": record.length,
                                 "players": {"light": record.players[Side.LIGHT] or "Light",
                                             "dark": record.players[Side.DARK] or "Dark"},
                                 "rules": rules})]
    exp = Expected()
    for game in record.games:
        if game.result is None:
            break
        exp.games += 1
        pos = Position.start()
        out.append(Tagged(board_event(pos), {"kind": "setup"}))
        first = True
        turn_no = 0
        for action in game.actions:
            if action.kind == MOVE:
                assert action.dice is not None and action.side is not None and action.position is not None
                pos = action.position
                d = action.dice
                if first:
                    hi, lo = max(d), min(d)
                    dice = [hi, lo] if action.side is Side.LIGHT else [lo, hi]
                    first = False
                else:
                    dice = [d[0], d[1]]
                turn_no += 1
                out.append(Tagged({"event": "roll", "dice": dice, "cocked": [False, False]},
                                  {"kind": "roll", "game": game.number, "turn": turn_no, "side": action.side.value,
                                   "pos": pos}))
                legal = pos.legal_plays(d)
                if action.play is None or (not action.play and len(legal)):
                    continue  # rolled, then resigned
                if len(legal) == 0:
                    exp.plays.append((game.number, action.side.value, d, pos.position_id(action.side.other)))
                    continue
                steps = _steps_positions(pos, d, action.play)
                tag = {"game": game.number, "turn": turn_no, "side": action.side.value, "dice": d, "pos": pos,
                       "after": steps[-1], "play": action.play}
                for k, mid in enumerate(steps):
                    last = k == len(steps) - 1
                    if unstable:
                        out.append(Tagged(_unstable(mid, rng), {"kind": "unstable", **tag}))
                    if last or halfway:
                        out.append(Tagged(board_event(mid), {"kind": "final" if last else "halfway", **tag}))
                exp.plays.append((game.number, action.side.value, d, steps[-1].position_id(steps[-1].turn)))
            elif action.kind in (DOUBLE, TAKE, DROP, BEAVER, RACCOON):
                assert action.side is not None
                out.append(Tagged({"event": "cube", "action": action.kind, "side": action.side.value},
                                  {"kind": "cube"}))
            elif action.kind == RESIGN:
                assert action.side is not None
                res = game.result
                value = res.value if res is not None and res.how == "resign" else 1
                out.append(Tagged({"event": "resign", "side": action.side.value, "value": value}, {"kind": "resign"}))
                if not any(a.kind in (ACCEPT, REJECT) for a in game.actions):
                    out.append(Tagged({"event": "resign_reply", "accept": True}, {"kind": "resign"}))
            elif action.kind in (ACCEPT, REJECT):
                out.append(Tagged({"event": "resign_reply", "accept": action.kind == ACCEPT}, {"kind": "resign"}))
        res = game.result
        if res.how == "resign" and not any(a.kind == RESIGN for a in game.actions):
            loser = res.winner.other
            out.append(Tagged({"event": "resign", "side": loser.value, "value": res.value}, {"kind": "resign"}))
            out.append(Tagged({"event": "resign_reply", "accept": True}, {"kind": "resign"}))
        exp.results.append((res.winner.value, res.points))
        exp.score[0 if res.winner is Side.LIGHT else 1] += res.points
        if record.length and max(exp.score) >= record.length:
            break
    return out, exp


def camera_tables(ev: dict[str, Any]) -> dict[str, list[dict[str, float]]]:
    """Probability tables like vision's: the count it read, fairly sure of it."""
    return {s: [{str(n): 0.9, **({str(n - 1): 0.05} if n else {}), str(n + 1): 0.05} for n in ev[s]]
            for s in ("light", "dark")}


def events_of(tagged: list[Tagged]) -> Iterator[dict[str, Any]]:
    return (t.event for t in tagged)
