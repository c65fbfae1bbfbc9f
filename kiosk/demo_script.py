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

import random
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


def on_either_die(dice: tuple[int, int] | list[int], rng: random.Random) -> list[int]:
    """The two values as real dice fall: each value on either die at random. The recorded matches list the
    higher die first, so a simulated unit that kept their order had a die 1 always the higher one (its χ² said
    "not like fair dice"; issue 37)."""
    a, b = dice
    return [a, b] if rng.random() < 0.5 else [b, a]


def script(record: MatchRecord, faults: bool = True, seed: int = 37) -> Iterator[Step]:
    rng = random.Random(seed)  # the same demo every time, its dice on either die at random
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
                    dice_event = on_either_die(dice, rng)
                if faults and game.number == 1 and turn == COCKED_AT:
                    yield Step("roll", {"dice": dice_event, "cocked": [False, True]}, wait=READ,
                               say="fault: the second die lands cocked")
                    yield Step("event", {"event": "button", "name": "ack_cocked"}, wait=0.4, say="cocked die seen")
                # The opening's verdict (who starts, with what) stays long enough to be read.
                yield Step("roll", {"dice": dice_event, "cocked": [False, False]}, wait=READ if opening else 1.0,
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


# ----- the seeds' other games (R30-R32): `gamao demo --variant NAME --no-vision` -------------------------------
VARIANT_FAULTS = {
    "plakoto": ("pinned_checker_moved", "fault: a pinned checker moves (R30)"),
    "russian": ("enter_two_first", "fault: the first checker entered moves on at once (R31)"),
    "jacquet": ("messenger_not_arrived", "fault: a second checker leaves before the messenger arrives (R32)"),
}


def variant_board(pos: Any) -> dict[str, Any]:
    """A variant position as a perfect camera's board event (the ``--position`` JSON shape)."""
    data = pos.to_json()
    data.pop("turn", None)
    return {"event": "board", **data, "stable": True}


def _moved(pos: Any, side: Side, changes: dict[int, int]) -> dict[str, Any]:
    ev = variant_board(pos)
    ev.pop("pinned", None)
    for phys, d in changes.items():
        ev[side.value][phys - 1] += d
    if "waiting" in ev:
        ev["waiting"] = {**ev["waiting"], side.value: ev["waiting"][side.value] - sum(changes.values())}
    return ev


def variant_fault(turn: Any) -> dict[str, Any] | None:
    """A board breaking the variant's own rule at this turn, if the turn allows one."""
    pos, side, (d1, d2) = turn.before, turn.side, turn.dice
    if turn.reroll or not turn.boards:
        return None
    if pos.variant == "plakoto" and pos.pinned(side):
        own = max(pos.pinned(side))
        if own - d1 >= 1:
            return _moved(pos, side, {pos.physical_point(side, own): -1, pos.physical_point(side, own - d1): 1})
    if pos.variant == "jacquet" and not pos.messenger_arrived(side) and pos.own(side)[24] == 14:
        return _moved(pos, side, {pos.physical_point(side, 24): -1, pos.physical_point(side, 24 - d1): 1})
    if pos.variant == "russian" and pos.waiting(side) == 15 and d1 != d2:
        return _moved(pos, side, {25 - d1 - d2: 1})
    return None


def variant_game(name: str, faults: bool = True, max_seed: int = 200) -> tuple[Any, int | None]:
    """The first generated game (core.referee.selfplay, seeds 0, 1, ...) that ends and, with ``faults``, has a
    turn where the variant's own fault can be slipped in: (game, that turn's index)."""
    from core.referee.selfplay import random_game
    from core.rules.variants import variant

    cls = variant(name)
    for seed in range(max_seed):
        game = random_game(cls, seed)
        if game.final is None or not game.final.is_game_over():
            continue
        if not faults:
            return game, None
        at = next((k for k, t in enumerate(game.turns) if variant_fault(t) is not None), None)
        if at is not None:
            return game, at
    raise RuntimeError(f"no generated {name} game with a fault of its kind in {max_seed} seeds")


def variant_script(name: str, faults: bool = True, seed: int = 37) -> Iterator[Step]:
    """A generated game of Plakoto, Russian backgammon or Jacquet, played through the referee in strict mode,
    with one fault of the variant's own kind (refused, then put right)."""
    game, fault_at = variant_game(name, faults)
    rng = random.Random(seed)
    players = {"light": "Ana", "dark": "Bia"}
    start = game.turns[0].before
    yield Step("event", {"event": "new_match", "length": 0, "players": players, "variant": name,
                         "rules": {"mode": "strict"}},
               wait=1.0, say=f"new {name} game ({start.rule}): Ana (light) v Bia (dark)")
    yield Step("board", variant_board(start), say="checkers set up", setup=True)
    for k, turn in enumerate(game.turns):
        d = turn.dice
        dice = ([max(d), min(d)] if turn.side is Side.LIGHT else [min(d), max(d)]) if k == 0 else on_either_die(d, rng)
        note = " (a double on a first roll: rolled again, R31)" if turn.reroll else ""
        yield Step("roll", {"dice": dice, "cocked": [False, False]}, wait=0.8,
                   say=f"{turn.side.value} rolls {d[0]}{d[1]}{note}")
        if k == fault_at:
            wrong = variant_fault(turn)
            assert wrong is not None
            yield Step("hand", variant_board(turn.before), wait=0.3)
            yield Step("board", wrong, wait=READ, say=VARIANT_FAULTS[name][1])
            yield Step("hand", variant_board(turn.before), wait=0.3)
            yield Step("board", variant_board(turn.before), wait=0.5, say="checker put back")
        prev = turn.before
        for n, b in enumerate(turn.boards, start=1):
            yield Step("hand", variant_board(prev), wait=0.2)
            last = n == len(turn.boards)
            yield Step("board", variant_board(b), wait=1.0 if last else 0.5,
                       say=f"{turn.side.value} plays {turn.text}" if last else "")
            prev = b
