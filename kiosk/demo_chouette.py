"""`gamao demo --chouette`: five simulated players at a chouette (R26-R29), with generated board games.

Each board game is generated (seeded random legal plays, so the demo is the same every time) and played at the
simulated table like the recorded match of the ordinary demo: rolls through the dice unit, boards through vision's
renderer. The chouette's actions are what the players would enter on the touch screen:

- game 1: the box doubles; the captain drops, the first crew member takes and becomes captain (R29), one crew
  member drops alone, the others take; the side behind in the race resigns before the bear-off;
- game 2: the team doubles (the captain and one crew member); the box takes one cube and drops the other;
- game 3: the box doubles and every member drops: the game ends on the drops, the board game is left unfinished.

``chouette_script`` yields the same ``Step``s as kiosk/demo_script.py; a shadow of core's Chouette, fed the same
actions and board results, tells it who is box, captain and crew at every moment (the service computes its own).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from core.match.chouette import Chouette, ChouetteSettings
from core.rules.position import Position, Side
from kiosk.chouette import check_setup, new_match_event
from kiosk.demo_script import READ, Step, board

PLAYERS = [{"name": "Ana", "rolls": [6]}, {"name": "Bruno", "rolls": [5]}, {"name": "Carla", "rolls": [3, 4]},
           {"name": "Davi", "rolls": [3, 1]}, {"name": "Eva", "rolls": [2]}]
BOX_SIDE = Side.DARK
GAMES = 3
DOUBLE_AT = 6  # the doubler's roll number (within a game) before which the double is made
RESIGN_AFTER = 40  # plays; or when a side's race is nearly home


def _event(data: dict[str, Any], say: str, wait: float = 1.5) -> Step:
    return Step("event", data, wait=wait, say=say)


def _answer(member: str, take: bool, by_box: bool) -> Step:
    who = member if by_box else f"the box, on {member}'s cube,"
    return _event({"event": "chouette", "action": "answer", "member": member, "take": take},
                  f"  {who} {'takes' if take else 'drops'}", wait=1.0)


def _doubles(game: int, ch: Chouette, side: Side) -> Iterator[Step]:
    """The chouette's actions of ``game`` before ``side``'s roll (its DOUBLE_AT-th), applied to the shadow too."""
    if game == 1 and side is BOX_SIDE:
        offered = ch.box_doubles()
        yield _event({"event": "chouette", "action": "box_double"}, f"the box ({ch.box}) doubles: each member answers")
        # The captain drops, the first crew member takes (and becomes captain), the second drops, the rest take.
        answers = {m: i not in (0, 2) for i, m in enumerate(offered)}
        for m, take in answers.items():
            yield _answer(m, take, True)
        ch.answers(answers)
    elif game == 2 and side is BOX_SIDE.other:
        members = [ch.captain, ch.crew[0]]
        ch.team_doubles(members)
        yield _event({"event": "chouette", "action": "team_double", "members": members},
                     f"the team doubles: {' and '.join(members)}")
        answers = {members[0]: True, members[1]: False}
        for m, take in answers.items():
            yield _answer(m, take, False)
        ch.answers(answers)
    elif game == 3 and side is BOX_SIDE:
        offered = ch.box_doubles()
        yield _event({"event": "chouette", "action": "box_double"}, f"the box ({ch.box}) doubles")
        answers = dict.fromkeys(offered, False)
        for m in offered:
            yield _answer(m, False, True)
        ch.answers(answers)


def _game(rng: random.Random, number: int, ch: Chouette) -> Iterator[Step]:
    """One generated board game between the box and the captain, with the chouette's doubles."""
    pos = Position.start()
    yield Step("board", board(pos), say=f"game {number}: box {ch.box} (dark) v captain {ch.captain} (light); crew "
               f"{', '.join(ch.crew)}", setup=True)
    games_before = len(ch.games)
    rolls = {Side.LIGHT: 0, Side.DARK: 0}
    plies = 0
    while True:
        if rolls[Side.LIGHT] == 0 and rolls[Side.DARK] == 0:
            a, b = rng.sample(range(1, 7), 2)  # R03: one die each, no tie
            side = Side.LIGHT if a > b else Side.DARK
            dice: tuple[int, int] = (a, b) if side is Side.LIGHT else (b, a)
            roll = [a, b]
            pos = pos.with_turn(side)
        else:
            side = pos.turn
            if rolls[side] + 1 == DOUBLE_AT:
                yield from _doubles(number, ch, side)
                if len(ch.games) > games_before:
                    yield Step("hand", board(pos), wait=0.5, say="every cube dropped: the game is over")
                    return
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            roll = list(dice)
        rolls[side] += 1
        yield Step("roll", {"dice": roll, "cocked": [False, False]}, wait=0.6,
                   say=f"{'box' if side is BOX_SIDE else 'captain'} rolls {dice[0]}{dice[1]}")
        plays = list(pos.legal_plays(dice))
        if not plays:
            pos = pos.with_turn(side.other)
            continue
        after = rng.choice(plays).result
        yield Step("hand", board(pos), wait=0.2)
        yield Step("board", board(after), wait=0.6)
        pos = after
        plies += 1
        # Before the bear-off, the side behind in the race resigns on its turn (chouette players rarely play a
        # lost race out): a single, or a gammon when it is far behind (R29: each live cube pays 1 or 2 times).
        behind = Side.LIGHT if pos.pips(Side.LIGHT) > pos.pips(Side.DARK) else Side.DARK
        if (plies >= RESIGN_AFTER or min(pos.pips(Side.LIGHT), pos.pips(Side.DARK)) < 70) and pos.turn is behind:
            value = 2 if pos.pips(behind) - pos.pips(behind.other) > 60 else 1
            yield _event({"event": "resign", "side": behind.value, "value": value},
                         f"{'the box' if behind is BOX_SIDE else 'the captain'} resigns "
                         f"{'a gammon' if value == 2 else 'a single game'}")
            yield _event({"event": "resign_reply", "accept": True}, "resignation accepted", wait=READ)
            ch.end_game(box_wins=behind is not BOX_SIDE, points=value)
            return


class ChouetteDemo:
    """The chouette demo's script; ``ch`` is the shadow chouette after the steps so far (its ledger is what the
    kiosk must show at the end). ``steps()`` starts again from the first game each time it is called."""

    def __init__(self, seed: int = 1, games: int = GAMES) -> None:
        self.seed = seed
        self.games = games
        self.setup = check_setup({"players": PLAYERS, "box_side": BOX_SIDE.value, "consult": True})
        self.ch = Chouette(self.setup["order"], ChouetteSettings(consult=True))

    def steps(self) -> Iterator[Step]:
        rng = random.Random(self.seed)
        self.ch = ch = Chouette(self.setup["order"], ChouetteSettings(consult=True))
        rolls = ", ".join(f"{p['name']} {'-'.join(map(str, p['rolls']))}" for p in PLAYERS)
        yield _event(new_match_event(self.setup), f"chouette of five: one die each ({rolls}): box {ch.box}, captain "
                     f"{ch.captain}, crew {', '.join(ch.crew)}", wait=READ)
        for number in range(1, self.games + 1):
            yield from _game(rng, number, ch)
            yield Step("event", {}, wait=READ, say=f"after game {number}: " + ", ".join(
                f"{n} {p:+d}" for n, p in ch.table()))
