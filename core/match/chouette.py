"""The chouette (R26-R29): more than two people at one board, as match-level bookkeeping.

Roles (R26): each player rolls one die; the highest is the box (the seed's "banqueiro"), the second the captain,
then the crew ("apostadores") in order. Ties roll again: a player's rolls are given as a list and compared in
turn. The box plays the captain (R27); every member of the team (the captain and each crew member) has their own
cube against the box and answers each double alone (R29). Whether crew members may advise the captain
("Os apostadores podem sugerir ao capitão como jogar") is the ``consult`` setting.

Doubles (R29):
- the box doubles: every live cube the box may turn (centred or the box's) is offered; each member takes (owns
  the cube at twice the value) or drops (pays the value before the double at once, and is out of this game). If
  the captain drops and a crew member takes, the first crew member in order who took becomes captain and plays
  on; the old captain goes to the end of the crew ("passa a ser o último apostador").
- the team doubles: the captain and any members who wish offer their own cubes (centred or theirs); the box
  answers each cube alone: a drop pays that member the value before the double.
A game ends when the board game ends (each live cube pays its value times 1, 2 or 3) or when no cube is live.

Rotation after each game (R28), by the board result: the box loses -> the captain becomes box, the old box goes
to the end of the crew and crew 1 becomes captain; the box wins -> the box stays, the captain goes to the end of
the crew and crew 1 becomes captain.

>>> ch = Chouette.from_rolls({"Ana": [6], "Bruno": [5], "Carla": [3]})
>>> ch.box, ch.captain, ch.crew
('Ana', 'Bruno', ['Carla'])
>>> ch.end_game(box_wins=True, points=1)
>>> ch.ledger, (ch.box, ch.captain, ch.crew)
({'Ana': 2, 'Bruno': -1, 'Carla': -1}, ('Ana', 'Carla', ['Bruno']))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import GamaoError
from core.rules.position import Side

BOX = "box"


class ChouetteError(GamaoError, ValueError):
    """An action the chouette's state does not allow (a player without a live cube, a double not answered, ...)."""


@dataclass(frozen=True)
class ChouetteSettings:
    #: Crew members may advise the captain, who decides (R27; the seed allows it).
    consult: bool = True
    #: The highest cube value (the seed's cube shows up to 64).
    cube_cap: int = 64


@dataclass
class MemberCube:
    """One team member's cube against the box: its value and owner (``None`` centred, ``"box"``, or the member)."""

    value: int = 1
    owner: str | None = None
    live: bool = True


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    points: int
    why: str  # "drop", "game", ...


@dataclass
class ChouetteGame:
    """One game's record: the roles at its start, every payment, and how it ended."""

    number: int
    box: str
    captain: str
    crew: list[str]
    payments: list[Payment] = field(default_factory=list)
    captains: list[str] = field(default_factory=list)  # every captain who played this game's board, in order
    box_won: bool | None = None
    points: int = 0


def order_by_dice(rolls: Mapping[str, Sequence[int] | int]) -> list[str]:
    """Players from the highest roll down (R26); a tie is settled by the tied players' next rolls."""
    if len(rolls) < 3:
        raise ChouetteError(f"a chouette needs three players or more, got {len(rolls)}")
    seqs = {name: [r] if isinstance(r, int) else list(r) for name, r in rolls.items()}
    for name, seq in seqs.items():
        if not seq or any(not isinstance(d, int) or not 1 <= d <= 6 for d in seq):
            raise ChouetteError(f"{name}: each roll is one die, 1 to 6; got {seq!r}")

    def rank(names: list[str], k: int) -> list[str]:
        if len(names) == 1:
            return names
        missing = [n for n in names if len(seqs[n]) <= k]
        if missing:
            raise ChouetteError(f"{', '.join(sorted(names))} tie on roll {k}: each rolls again (R26)")
        out: list[str] = []
        for value in sorted({seqs[n][k] for n in names}, reverse=True):
            out += rank([n for n in names if seqs[n][k] == value], k + 1)
        return out

    return rank(list(seqs), 0)


class Chouette:
    """A running chouette: roles, each member's cube in the current game, the ledger and every game's record."""

    def __init__(self, order: Sequence[str], settings: ChouetteSettings | None = None) -> None:
        if len(order) < 3 or len(set(order)) != len(order):
            raise ChouetteError(f"a chouette needs three or more distinct players, got {list(order)}")
        self.settings = settings or ChouetteSettings()
        self.box = order[0]
        self.captain = order[1]
        self.crew = list(order[2:])
        self.ledger: dict[str, int] = {name: 0 for name in order}
        self.games: list[ChouetteGame] = []
        self.cubes: dict[str, MemberCube] = {}
        self.pending: dict[str, bool | None] = {}  # member -> answer, while a double waits for answers
        self._pending_by: str | None = None
        self._start_game()

    @classmethod
    def from_rolls(cls, rolls: Mapping[str, Sequence[int] | int], settings: ChouetteSettings | None = None) -> Chouette:
        return cls(order_by_dice(rolls), settings)

    # ----- state ---------------------------------------------------------------------------------------------
    @property
    def game(self) -> ChouetteGame:
        return self.games[-1]

    @property
    def team(self) -> list[str]:
        """The captain, then the crew in order."""
        return [self.captain, *self.crew]

    def live(self) -> list[str]:
        """Team members whose cube is still in this game, captain first."""
        return [m for m in self.team if self.cubes[m].live]

    def may_consult(self) -> bool:
        return self.settings.consult

    def _start_game(self) -> None:
        self.cubes = {m: MemberCube() for m in self.team}
        self.pending = {}
        self._pending_by = None
        self.games.append(ChouetteGame(len(self.games) + 1, self.box, self.captain, list(self.crew), captains=[self.captain]))

    def _pay(self, payer: str, payee: str, points: int, why: str) -> None:
        self.ledger[payer] -= points
        self.ledger[payee] += points
        self.game.payments.append(Payment(payer, payee, points, why))

    def _no_pending(self) -> None:
        if self.pending:
            waiting = ", ".join(m for m, a in self.pending.items() if a is None)
            raise ChouetteError(f"a double is waiting for answers from {waiting}")

    # ----- doubles ----------------------------------------------------------------------------------------
    def box_doubles(self) -> list[str]:
        """The box offers every live cube it may turn; returns the members who must answer (``answer``)."""
        self._no_pending()
        offered = [m for m in self.live() if self.cubes[m].owner in (None, BOX)]
        offered = [m for m in offered if self.cubes[m].value * 2 <= self.settings.cube_cap]
        if not offered:
            raise ChouetteError("the box may not double: every live cube is owned by its member or at the cap (R29)")
        self.pending = {m: None for m in offered}
        self._pending_by = BOX
        return offered

    def team_doubles(self, members: Sequence[str] | None = None) -> list[str]:
        """The captain (and the members named, default: every live member who may) offer their own cubes; the box
        answers each one with ``answer``. Returns the cubes offered."""
        self._no_pending()
        may = [m for m in self.live() if self.cubes[m].owner in (None, m) and self.cubes[m].value * 2 <= self.settings.cube_cap]
        chosen = may if members is None else list(members)
        for m in chosen:
            if m not in may:
                raise ChouetteError(f"{m} may not double: no live cube of theirs that is centred or theirs (R29)")
        if not chosen:
            raise ChouetteError("no team member may double now")
        self.pending = {m: None for m in chosen}
        self._pending_by = "team"
        return chosen

    def answer(self, member: str, take: bool) -> bool:
        """Record the answer for one member's offered cube (the member's own after a box double, the box's after a
        team double). Returns True when every answer is in and the double is settled."""
        if member not in self.pending:
            raise ChouetteError(f"{member}: no double of {member}'s cube is waiting for an answer")
        if self.pending[member] is not None:
            raise ChouetteError(f"{member}: this double has been answered already")
        self.pending[member] = bool(take)
        if any(a is None for a in self.pending.values()):
            return False
        self._settle_double()
        return True

    def answers(self, takes: Mapping[str, bool]) -> None:
        """Answer several offered cubes at once (``{member: take}``)."""
        for member, take in takes.items():
            self.answer(member, take)

    def _settle_double(self) -> None:
        answers, by = self.pending, self._pending_by
        self.pending, self._pending_by = {}, None
        box_doubled = by == BOX
        for m, take in answers.items():
            cube = self.cubes[m]
            if take:  # the taker owns the cube: the member after the box's double, the box after the team's
                cube.value *= 2
                cube.owner = m if box_doubled else BOX
            else:  # who drops pays the cube's value before the double
                payer, payee = (m, self.box) if box_doubled else (self.box, m)
                self._pay(payer, payee, cube.value, "drop")
                cube.live = False
        if box_doubled and answers.get(self.captain) is False:
            # The first crew member in order still in the game (who took, or whose cube was theirs already).
            takers = [m for m in self.crew if self.cubes[m].live]
            if takers:
                new = takers[0]
                old = self.captain
                self.crew = [m for m in self.crew if m != new] + [old]
                self.captain = new
                self.game.captains.append(new)
        if not self.live():
            self._finish(box_won=box_doubled, points=0)

    # ----- the end of a game ----------------------------------------------------------------------------------
    def end_game(self, box_wins: bool, points: int) -> None:
        """The board game ended: the box won or lost ``points`` (1 single, 2 gammon, 3 backgammon) per cube value."""
        self._no_pending()
        if points not in (1, 2, 3):
            raise ChouetteError(f"points: 1, 2 or 3, not {points!r}")
        if not self.live():
            raise ChouetteError("this game is over already (no live cube)")
        for m in self.live():
            value = self.cubes[m].value * points
            if box_wins:
                self._pay(m, self.box, value, "game")
            else:
                self._pay(self.box, m, value, "game")
        self._finish(box_wins, points)

    def _finish(self, box_won: bool, points: int) -> None:
        self.game.box_won = box_won
        self.game.points = points
        if box_won:
            self.crew = [*self.crew, self.captain]
        else:
            self.crew = [*self.crew, self.box]
            self.box = self.captain
        self.captain = self.crew.pop(0)
        self._start_game()

    def table(self) -> list[tuple[str, int]]:
        """The ledger, highest first; it always sums to zero."""
        return sorted(self.ledger.items(), key=lambda kv: (-kv[1], kv[0]))

# ----- the session at a board (R26-R29 as the kiosk and the club follow them) ------------------------------------
CHOUETTE = "chouette"
NAME_MAX = 40
KEEP_LOG = 12
LEDGER_FORMAT = "gamao-chouette-ledger"


class ChouetteInputError(ValueError):
    """Bad chouette input; ``field`` names what was wrong (for a 422 that names it)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


def check_setup(obj: Any) -> dict[str, Any]:
    """The ``"chouette"`` object of a new_match event, checked and normalised (``order`` computed, R26).

    ``{"players": [{"name": str, "rolls": [die, ...]}, ...], "box_side": "light"|"dark", "consult": bool,
    "cube_cap": int}``; a tie without its re-rolls is refused (``players``: each rolls again).
    """
    if not isinstance(obj, Mapping):
        raise ChouetteInputError("chouette", "must be an object with players, box_side, consult, cube_cap")
    players = obj.get("players")
    if not isinstance(players, list) or not 3 <= len(players) <= 12:
        raise ChouetteInputError("players", "a chouette needs 3 to 12 players, each {\"name\", \"rolls\"}")
    rolls: dict[str, list[int]] = {}
    for i, p in enumerate(players):
        if not isinstance(p, Mapping):
            raise ChouetteInputError(f"players[{i}]", 'must be {"name": text, "rolls": [one die, ...]}')
        name = p.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX:
            raise ChouetteInputError(f"players[{i}].name", f"a name of 1 to {NAME_MAX} characters")
        name = name.strip()
        if name in rolls:
            raise ChouetteInputError(f"players[{i}].name", f"{name!r} is there twice: each player once")
        r = p.get("rolls")
        r = [r] if isinstance(r, int) and not isinstance(r, bool) else r
        if (not isinstance(r, list) or not 1 <= len(r) <= 10
                or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in r)):
            raise ChouetteInputError(f"players[{i}].rolls", "one die each, 1 to 6 (and the re-rolls of a tie, in order)")
        rolls[name] = list(r)
    try:
        order = order_by_dice(rolls)
    except ChouetteError as exc:
        raise ChouetteInputError("players", str(exc)) from None
    box_side = obj.get("box_side", "light")
    if box_side not in ("light", "dark"):
        raise ChouetteInputError("box_side", f'"light" or "dark" (the side of the box), not {box_side!r}')
    consult = obj.get("consult", True)
    if not isinstance(consult, bool):
        raise ChouetteInputError("consult", "true or false (may crew members advise the captain, R27)")
    cap = obj.get("cube_cap", 64)
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 2 or cap > 4096 or cap & (cap - 1):
        raise ChouetteInputError("cube_cap", "a power of two from 2 to 4096 (the highest cube)")
    return {"players": [{"name": n, "rolls": r} for n, r in rolls.items()], "order": order,
            "box_side": box_side, "consult": consult, "cube_cap": cap}


def _msg(pt: str, en: str) -> dict[str, str]:
    return {"pt": pt, "en": en}


def _pts(n: int) -> tuple[str, str]:
    return (f"{n} ponto" if n == 1 else f"{n} pontos"), (f"{n} point" if n == 1 else f"{n} points")


class ChouetteSession:
    """core's Chouette plus what the kiosk needs beside it: the box's side, which board games each chouette game
    was played on, the captain's cube actions for the .mat, and the recent messages."""

    def __init__(self, setup: Mapping[str, Any]) -> None:
        self.setup = dict(setup)
        self.box_side = Side(setup["box_side"])
        self.ch = Chouette(setup["order"], ChouetteSettings(consult=bool(setup["consult"]),
                                                            cube_cap=int(setup["cube_cap"])))
        self.bound: dict[int, int] = {}  # referee game index -> chouette game number
        self.marks: list[dict[str, Any]] = []  # the captain's cube on the board: {"board", "at", "kind", "side", "value"}
        self.log: list[dict[str, Any]] = []
        self.offer_by: str | None = None  # "box" | "team" while a double waits for answers
        self.offer_values: dict[str, int] = {}
        self.offer_at: tuple[int, int] = (0, 0)  # (referee game index, its action count) when the double was made
        self.after_game: list[dict[str, int]] = []  # the ledger after each finished game

    @property
    def captain_side(self) -> Side:
        return self.box_side.other

    def say(self, at: int, kind: str, pt: str, en: str, **extra: Any) -> dict[str, Any]:
        v = {"at": at, "verdict": CHOUETTE, "action": kind, "message": _msg(pt, en), **extra}
        self.log.append(v)
        del self.log[:-KEEP_LOG]
        return v

    def may_double(self) -> dict[str, Any]:
        ch = self.ch
        if ch.pending:
            return {"box": [], "team": []}
        cap = ch.settings.cube_cap
        live = ch.live()
        return {"box": [m for m in live if ch.cubes[m].owner in (None, BOX) and ch.cubes[m].value * 2 <= cap],
                "team": [m for m in live if ch.cubes[m].owner in (None, m) and ch.cubes[m].value * 2 <= cap]}

    def public(self, phase: str, on_roll: Side) -> dict[str, Any]:
        """The chouette as the kiosk shows it (public_state()["chouette"]); ``phase`` and ``on_roll``: the board
        game's (who may double now)."""
        ch = self.ch
        roles = {ch.box: "box", ch.captain: "captain", **{m: "crew" for m in ch.crew}}
        turn = None
        if phase == "awaiting_roll":
            turn = "box" if on_roll is self.box_side else "team"
        elif phase == "moving":  # the doubler's opponent is moving: a double commits the play first
            turn = "team" if on_roll is self.box_side else "box"
        pending = None
        if ch.pending:
            pending = {"by": self.offer_by,
                       "answers": [{"member": m, "value": self.offer_values.get(m),
                                    "answer": None if a is None else ("take" if a else "drop")}
                                   for m, a in ch.pending.items()],
                       "waiting": [m for m, a in ch.pending.items() if a is None]}
        return {
            "players": [p["name"] for p in self.setup["players"]],
            "rolls": {p["name"]: p["rolls"] for p in self.setup["players"]},
            "order": list(self.setup["order"]),
            "box": ch.box, "captain": ch.captain, "crew": list(ch.crew),
            "box_side": self.box_side.value, "captain_side": self.captain_side.value,
            "consult": ch.settings.consult, "cube_cap": ch.settings.cube_cap,
            "game": ch.game.number,
            "cubes": [{"member": m, "role": roles[m], "value": ch.cubes[m].value,
                       "owner": None if ch.cubes[m].owner is None else ("box" if ch.cubes[m].owner == BOX else m),
                       "live": ch.cubes[m].live} for m in ch.team],
            "pending": pending,
            "may_double": self.may_double(),
            "doubling": turn,
            "ledger": [{"name": n, "points": ch.ledger[n], "role": roles[n]} for n in self.setup["order"]],
            "games": [game_summary(g) for g in ch.games[:-1]],
            "log": [dict(v) for v in self.log],
        }


def game_summary(g: ChouetteGame) -> dict[str, Any]:
    return {"number": g.number, "box": g.box, "captain": g.captain, "crew": list(g.crew), "captains": list(g.captains),
            "box_won": g.box_won, "points": g.points,
            "payments": [{"payer": p.payer, "payee": p.payee, "points": p.points, "why": p.why} for p in g.payments]}



def session_ledger(s: ChouetteSession) -> dict[str, Any]:
    """Every player's points, game by game (the JSON export, docs/CONTRACTS.md)."""
    ch = s.ch
    games = []
    for g, after in zip(ch.games, s.after_game, strict=False):
        games.append({**game_summary(g), "ledger": after})
    return {"format": LEDGER_FORMAT, "version": 1, "players": list(s.setup["order"]),
            "rolls": {p["name"]: p["rolls"] for p in s.setup["players"]},
            "settings": {"consult": ch.settings.consult, "cube_cap": ch.settings.cube_cap,
                         "box_side": s.box_side.value},
            "games": games, "ledger": dict(ch.ledger), "total": sum(ch.ledger.values()),
            "next": {"box": ch.box, "captain": ch.captain, "crew": list(ch.crew)}}


def ledger_text_of(data: Mapping[str, Any]) -> str:
    """A ledger (``session_ledger``) as a plain table: one line per finished game, one column per player, then
    the totals."""
    names = data["players"]
    width = max(8, *(len(n) for n in names))
    head = f"{'game':>4}  {'box':<{width}} {'captain':<{width}} " + " ".join(f"{n:>{width}}" for n in names)
    lines = ["; Gamão chouette ledger (R26-R29): running totals after each game; they always sum to zero", head]
    for g in data["games"]:
        cap = "/".join(g["captains"])
        lines.append(f"{g['number']:>4}  {g['box']:<{width}} {cap:<{width}} "
                     + " ".join(f"{g['ledger'][n]:>{width}}" for n in names))
    lines.append(f"{'':>4}  {'total':<{width}} {'':<{width}} " + " ".join(f"{data['ledger'][n]:>{width}}" for n in names))
    return "\n".join(lines) + "\n"
