"""The demo's script: a real match from the bundled corpus turned into what the hardware would report.

Each step is one thing that happens at the table: a roll on the dice unit, a hand over the board, the
board at rest, a cube or button press. `gamao demo` (kiosk/demo.py) sends rolls through the dice
simulator's pty and boards through the renderer and vision; this module only decides what happens.
Three faults are slipped into the first game so every verdict appears once: a cocked die (R24), an
illegal play (a checker moved a distance no die shows), and a play that leaves a die unplayed (R09).
The demo match is played in strict mode, so those faults are corrected on the board before play goes on,
and the recorded match stays the real one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from core.errors import IllegalPlayError
from core.match.formats.mat import read_mat
from core.match.record import DOUBLE, DROP, MOVE, RESIGN, TAKE, MatchRecord
from core.match.replay import replay
from core.referee.inference import Observation, TurnModel
from core.rules.notation import Move, Play
from core.rules.position import Position, Side

MATCHES = {"3pt": "match1787848.mat", "2pt": "match8062348.mat"}
READ = 5.0  # seconds at speed 1 to read a fault's explanation or a result on the screen
COCKED_AT, ILLEGAL_AT, UNPLAYED_AT = 3, 5, 8  # turn numbers in game 1 where the faults are slipped in


@dataclass
class Step:
    """kind: roll | board | hand | event. `wait` is seconds at speed 1 after the step."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    wait: float = 1.0
    say: str = ""
    setup: bool = False  # the checkers are set up for a new game


def load_match(name: str = "3pt") -> MatchRecord:
    filename = MATCHES.get(name, name)
    text = resources.files("kiosk.data").joinpath(filename).read_text(encoding="utf-8")
    record = read_mat(text)
    replay(record)
    return record


def board(pos: Position) -> dict[str, Any]:
    """The board as a perfect camera reports it: every count certain (vision's own readings replace it)."""
    d = pos.to_dict()
    sure = {side: [{str(n): 1.0} for n in d[side]] for side in ("light", "dark")}  # type: ignore[union-attr]
    return {"event": "board", **d, "stable": True, "uncertainty": sure}


def _phys(side: Side, own: int) -> int:
    return own if side is Side.LIGHT else 25 - own


def illegal_play(pos: Position, dice: tuple[int, int]) -> Position | None:
    """The mover's checker moved d1+d2+1 points, which no die or sum shows (a wrong-distance play)."""
    side = pos.turn
    counts = pos.light if side is Side.LIGHT else pos.dark
    k = dice[0] + dice[1] + 1
    for own in range(24, k, -1):
        if counts[_phys(side, own) - 1]:
            try:
                return pos.apply_unchecked(Play((Move(own, own - k),)))
            except IllegalPlayError:
                continue
    return None


def unfinished_board(pos: Position, dice: tuple[int, int], play: Play) -> Position | None:
    """A board on which the player plainly left a die unplayed: the play's first checker move alone, or
    nothing moved. Chosen only when the referee's own inference, at the moment of the commit, sees an
    unfinished play there rather than a full play with one checker miscounted (then it would rightly say
    'uncertain' instead)."""
    candidates = []
    if len(play.moves) == 2 and play.moves[0].frm != 25:
        half = pos.apply_unchecked(Play(play.moves[:1]))
        if not any(lp.result == half for lp in pos.legal_plays(dice)):
            candidates.append(half)
    candidates.append(pos)
    model = TurnModel(pos, dice)
    for board_pos in candidates:
        seen = model.explain(Observation.from_event(board(board_pos)), committing=True)
        if seen.kind in ("in_progress", "nothing"):
            return board_pos
    return None


def script(record: MatchRecord, faults: bool = True) -> Iterator[Step]:
    rules = {"crawford": record.rules.crawford, "mode": "strict", "tournament": False}
    players = {s.value: n for s, n in record.players.items()}
    yield Step("event", {"event": "new_match", "length": record.length, "players": players, "rules": rules},
               wait=1.0, say=f"new {record.length}-point match: {players['light']} (light) v {players['dark']} (dark)")
    illegal_done = unplayed_done = False
    for game in record.games:
        start = Position.start()
        yield Step("board", board(start), say=f"game {game.number}: checkers set up", setup=True)
        turn = 0
        last_pos = start
        for action in game.actions:
            side = action.side
            if action.kind == MOVE:
                turn += 1
                before = action.position or last_pos
                dice = action.dice
                assert dice is not None and side is not None
                opening = turn == 1
                if opening:
                    # R03: each rolls one die; the higher starts. Light's die is reported first.
                    hi, lo = max(dice), min(dice)
                    dice_event = [hi, lo] if side is Side.LIGHT else [lo, hi]
                else:
                    dice_event = list(dice)
                if faults and game.number == 1 and turn == COCKED_AT:
                    yield Step("roll", {"dice": dice_event, "cocked": [False, True]}, wait=READ,
                               say="fault: the second die lands cocked")
                    yield Step("event", {"event": "button", "name": "ack_cocked"}, wait=0.4, say="cocked die seen")
                yield Step("roll", {"dice": dice_event, "cocked": [False, False]},
                           say=f"{side.value} rolls {dice[0]}{dice[1]}")
                if not action.play:
                    last_pos = before.with_turn(side.other)
                    continue  # no legal play (R25) or rolled then resigned
                after = before.play(dice, action.play)
                non_double = dice[0] != dice[1]
                if faults and game.number == 1 and turn >= ILLEGAL_AT and non_double and not illegal_done:
                    wrong = illegal_play(before, dice)
                    if wrong is not None:
                        illegal_done = True
                        yield Step("hand", board(before), wait=0.3)
                        yield Step("board", board(wrong), wait=READ, say="fault: a checker moved the wrong distance")
                        yield Step("hand", board(before), wait=0.3)
                        yield Step("board", board(before), wait=0.5, say="checker put back")
                partial = None
                if faults and game.number == 1 and turn >= UNPLAYED_AT and non_double and not unplayed_done:
                    partial = unfinished_board(before, dice, action.play)
                if partial is not None:
                    unplayed_done = True
                    yield Step("hand", board(before), wait=0.3)
                    yield Step("board", board(partial), wait=0.6,
                               say="fault: only one die played ..." if partial != before else "fault: nothing played ...")
                    yield Step("event", {"event": "button", "name": "end_turn"}, wait=READ,
                               say="... and end turn pressed")
                yield Step("hand", board(before), wait=0.3)
                yield Step("board", board(after), say=f"{side.value} plays {action.play.text()}")
                last_pos = after
            elif action.kind in (DOUBLE, TAKE, DROP):
                verb = {DOUBLE: "double", TAKE: "take", DROP: "drop"}[action.kind]
                yield Step("event", {"event": "cube", "action": verb, "side": side.value}, wait=2.0,
                           say=f"{side.value} {verb}s")
            elif action.kind == RESIGN:
                yield Step("event", {"event": "resign", "side": side.value, "value": action.value or 1}, wait=2.0,
                           say=f"{side.value} resigns")
                yield Step("event", {"event": "resign_reply", "accept": True}, wait=READ, say="resignation accepted")
        if game.result is not None and game.result.how not in ("drop", "resign"):
            yield Step("event", {"event": "button", "name": "end_turn"}, wait=READ, say="last play: end turn")
