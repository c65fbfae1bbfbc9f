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

from core.errors import GamaoError

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
