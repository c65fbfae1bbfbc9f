"""One turn as the camera sees it: the roll's candidates, the boards, the reading so far, the open play.

``TurnState`` holds what the referee knows between a roll and its commit: the ``TurnModel`` of the roll
(every finished and half-finished way of playing it, core.referee.inference), the stable boards seen
(the last ones, and the camera's board from before the roll), how the last board was read (a play in
progress, a finished play, a fault), the counts that keep looking wrong, a commit held back by an unclear
board, and the play before this one when the boards have not yet decided it (``core.referee.pending``).
It changes nothing about the match (``core.referee.state``) and emits no verdicts (the referee,
core.referee.machine, does).

>>> from core.rules.position import Position
>>> ts = TurnState()
>>> model = ts.begin(Position.start(), (3, 1))
>>> len(model.legal), ts.last_kind
(16, 'nothing')
"""

from __future__ import annotations

import copy
from typing import Any

from core.referee.faults import Fault
from core.referee.games import game_of
from core.referee.inference import (
    DOUBTFUL,
    PILE,
    TALL_ROW,
    Candidate,
    Inference,
    Observation,
    TurnModel,
    Vec,
    observation_cost,
    play_text_of_steps,
)
from core.referee.pending import Hypothesis, Pending
from core.rules.position import Position

#: A count that stays wrong this many stable boards in a row is a real checker problem.
SUSPECT_BOARDS = 4
#: How many of the last stable boards are kept (with their event index), for the board before a roll.
BOARD_LOG = 16
#: What a snapshot for undo keeps of the turn (the reading of the last board, not the boards themselves).
_UNDO_FIELDS = ("model", "last_turn_obs", "last_inf", "last_fault", "last_kind", "last_key", "used", "shown_pos",
                "trigger")


class TurnState:
    """The current turn's view of the board; a new game starts with a new one."""

    def __init__(self) -> None:
        self.model: TurnModel | None = None  # the roll's candidates; None between turns
        #: A commit (its event index and event) waiting for a clearer board, and the plays it hangs on.
        self.held: tuple[int, dict[str, Any]] | None = None
        self.held_rivals: list[Any] = []
        self.held_on_pending = False  # the commit waits only for the play before it (``pending``)
        #: A roll (its event index and event) waiting for an object to be taken off the board (core.referee.cover).
        self.blocked: tuple[int, dict[str, Any]] | None = None
        self.pending: Pending | None = None  # the play before this one, while the boards decide it
        self.suspects: dict[tuple[int, int], int] = {}  # (vector index, sign) -> stable boards in a row
        self.suspect_vecs: dict[tuple[int, int], Vec] = {}  # (vector index, sign) -> the last board counted
        self.last_obs: Observation | None = None  # the last stable board
        self.obs_log: list[tuple[int, Observation]] = []  # (event index, board) of the last stable boards
        self.last_turn_obs: Observation | None = None  # the last stable board ruled on as this turn's play
        #: Points (vector indexes) where the plays of a guessed commit differ: a count that later stays wrong
        #: there may be the guess, not a checker missing or added (for the rest of the game).
        self.guessed: set[int] = set()
        self.reset_reading()

    def reset_reading(self) -> None:
        """Forget how the boards of this turn were read (a new turn, or the turn passed)."""
        self.last_kind = "nothing"
        self.trigger: str | None = None  # what committed the play ("roll", "cube", "resign", "end_turn", ...)
        self.last_key: Any = None  # what the last verdict said, so the same board is not ruled on twice
        self.last_inf: Inference | None = None
        self.last_fault: Fault | None = None
        self.last_vec: Vec | None = None
        self.used: list[int] = []
        # The board as the last confident inference of this turn reads it (None: as at the turn's start).
        self.shown_pos: Position | None = None

    # ----- a turn's life ----------------------------------------------------------------------------------
    def begin(self, pos: Position, dice: tuple[int, int]) -> TurnModel:
        """The dice landed: every candidate of the roll, computed once."""
        self.model = game_of(pos).turn_model(pos, dice)
        return self.model

    def end(self) -> None:
        """The play was committed (or the roll had none): nothing to read until the next roll."""
        self.model = None
        self.reset_reading()

    def see(self, at: int, obs: Observation) -> None:
        """A stable board (event ``at``)."""
        self.last_obs = obs
        self.obs_log.append((at, obs))
        del self.obs_log[:-BOARD_LOG]

    def baseline(self, roll_at: int) -> Observation | None:
        """The camera's last board before the roll (event ``roll_at``; a roll held on an unclear play is
        taken up later), if it came from a camera (borne-off counts derived): the turn's boards are also
        read as changes from it."""
        obs = next((o for i, o in reversed(self.obs_log) if i < roll_at), None)
        return obs if obs is not None and obs.derived_off else None

    # ----- counts that stay wrong -----------------------------------------------------------------------------
    def guessed_points(self, plays: list[Candidate]) -> None:
        """A commit chose among ``plays`` with nothing to tell them apart (the likeliest, a guess)."""
        self.guessed |= {i for i in range(48) if len({c.vec[i] for c in plays}) > 1}

    def count_suspects(self, obs: Observation, inf: Inference) -> list[tuple[int, int]]:
        """Update the counts that look wrong on this board; the (vector index, sign) of each that has now
        looked wrong ``SUSPECT_BOARDS`` stable boards in a row (a checker really missing or added)."""
        if inf.best is None:
            return []
        now: dict[tuple[int, int], int] = {}
        doubtful: set[tuple[int, int]] = set()
        vecs: dict[tuple[int, int], Vec] = {}
        for i, d in inf.residual.items():
            expected, seen = inf.best.vec[i], obs.vec[i]
            hidden = d == -1 and expected >= 6
            second_layer = obs.derived_off and min(expected, seen) >= TALL_ROW - 1 and max(expected, seen) > TALL_ROW
            pile = obs.derived_off and expected > PILE and seen > 0
            if hidden or second_layer or pile or i in self.guessed:
                # checkers hidden in or on a tall stack: the camera's blind spot, not a fault; or a point where
                # a guessed play may be the wrong one
                continue
            key = (i, 1 if d > 0 else -1)
            dist = obs.dists.get(i)
            # The camera itself gives the expected count fair odds here: its reading is a doubt, not a count.
            doubt = dist is not None and bool(dist) and dist.get(expected, 0.0) >= DOUBTFUL * max(dist.values())
            if any(c.vec[i] == seen for c in inf.rivals) or (doubt and self.suspect_vecs.get(key) == obs.vec):
                # One of the plays the board is unclear between has that count: no evidence either.
                # The camera itself gives the expected count fair odds, and read the board the same way
                # before: the same doubtful reading again is no more evidence of a checker missing or added.
                # A board the camera is sure of counts, and so does a board read afresh (something moved).
                if key in self.suspects:
                    now[key] = self.suspects[key]
                    doubtful.add(key)
                continue
            # A doubtful reading counts (a fresh reading of a count already seen wrong) but never makes the
            # call itself: a checker put back right after it was knocked off, then misread as still gone, is
            # no checker missing. The call waits for a board the camera is sure of at that point.
            n = self.suspects.get(key, 0) + 1
            now[key] = min(n, SUSPECT_BOARDS - 1) if doubt and n <= SUSPECT_BOARDS else n
            vecs[key] = obs.vec
        self.suspects = now
        self.suspect_vecs = {k: vecs.get(k, self.suspect_vecs.get(k, obs.vec)) for k in now}
        return [key for key, n in sorted(now.items()) if n == SUSPECT_BOARDS and key not in doubtful]

    # ----- candidates ------------------------------------------------------------------------------------------
    def nearest_legal(self, slack: float = 1.0, worst: float = 3.0, most: int = 8) -> list[Candidate]:
        """The legal plays that come nearest the last board of the turn (at most ``worst`` counts off)."""
        obs = self.last_turn_obs
        if obs is None or self.model is None:
            return []
        scored = sorted(((observation_cost(obs, c.vec), n, c) for n, c in enumerate(self.model.candidates)
                         if c.legal is not None), key=lambda t: (t[0], t[1]))
        if not scored or scored[0][0] > worst:
            return []
        return [c for cost, _, c in scored[: most] if cost <= scored[0][0] + slack]

    def hypotheses(self, inf: Inference, strict: bool) -> list[Hypothesis] | None:
        """The plays an ambiguous board may show, to be decided by later boards; None if that cannot be."""
        model = self.model
        assert model is not None
        mover = model.mover
        hyps = []
        for c in inf.rivals:
            if c.legal is not None:
                if c.legal.result.is_game_over():
                    return None  # the game's end is not left open
                hyps.append(Hypothesis(c, c.legal.result, cand_text(c), True))
            elif strict:
                return None  # strict mode wants a half-finished play corrected, not guessed
            else:
                hyps.append(Hypothesis(c, model.position_of(c, mover.other), cand_text(c),
                                       False, unplayed_dice(model, c.used)))
        return hyps if len(hyps) >= 2 else None

    # ----- undo ---------------------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {k: copy.copy(getattr(self, k)) for k in _UNDO_FIELDS}

    def restore(self, snap: dict[str, Any]) -> None:
        """Back to a snapshot: the commit it preceded is taken back, so nothing is held or open."""
        for k, v in snap.items():
            setattr(self, k, v)
        self.held = None
        self.blocked = None
        self.pending = None
        self.last_key = None


def cand_text(cand: Candidate) -> str:
    """A candidate's play as text (one way of playing it for a play in progress)."""
    if cand.legal is not None:
        return str(cand.legal.play.text())
    return play_text_of_steps(cand.steps)


def unplayed_dice(model: TurnModel, used: tuple[int, ...] | list[int]) -> list[int]:
    """The dice a play that used ``used`` left unplayed, as many as a legal play would have used (R09)."""
    dice = model.dice
    unplayed = list(dice) * (2 if dice[0] == dice[1] else 1)
    for d in used:
        unplayed.remove(d)
    return unplayed[: model.max_dice - len(used)]


__all__ = ["SUSPECT_BOARDS", "TurnState", "cand_text", "unplayed_dice"]
