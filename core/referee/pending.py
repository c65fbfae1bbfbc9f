"""A committed play the camera could not pin down: keep every fitting play until later boards decide.

When the opponent rolls while the board fits two plays about equally (a checker hidden by a hand, a
count misread at just the wrong point), the referee does not guess and does not stop the game. It
commits the play as pending: the opponent's turn goes on from the likeliest position, and every later
stable board is compared with each possible position (the mover's checkers no longer move, so the next
boards show which play it was). The play verdict comes with the board that decides it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.referee.games import Game, game_of
from core.referee.inference import (
    ACCEPT,
    COMMIT_PREFIX_PENALTY,
    MARGIN,
    Candidate,
    Inference,
    Observation,
    TurnModel,
    observation_cost,
    vec_of_position,
)
from core.rules.position import Position, Side

#: One board adds at most this much against a hypothesis (a hand over the board is not proof).
BOARD_CAP = 3.0
#: Summed evidence needed to settle the open play: more than one misread count.
PENDING_MARGIN = 1.5
#: How many readings of boards (``Pending.explain``) an open play keeps: a few boards' worth.
READINGS = 64


@dataclass
class Hypothesis:
    cand: Candidate
    new_pos: Position  # after the play, the opponent on roll
    text: str
    legal: bool  # False: a half-finished play let stand (a die left unplayed, casual mode)
    unplayed: list[int] = field(default_factory=list)


@dataclass
class Pending:
    at: int
    mover: Side
    dice: tuple[int, int]
    hyps: list[Hypothesis]
    record: dict[str, Any]
    row: dict[str, Any]
    models: list[TurnModel | None] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)  # each hypothesis's cost, summed over the boards
    last_obs: Observation | None = None
    last_costs: list[float] = field(default_factory=list)
    #: The next roll's model after each of the mover's plays it may follow (HeldRoll.options), by position.
    roll_models: dict[tuple[Position, tuple[int, int]], TurnModel] = field(default_factory=dict)
    #: The last readings of boards by this open play's models (its own and ``roll_models``), by (model, board,
    #: committing) identity: while a roll waits on the open play, each board is read by ``weigh``, by
    #: HeldRoll.options twice (try_resolve's ``also``, then pending_board) and by pending_board, and the mover's
    #: last board and its board before that roll again on the next boards. Gone with the open play.
    readings: dict[tuple[int, int, bool], tuple[TurnModel, Observation, Observation | None, Inference]] = field(default_factory=dict)

    def build_models(self, pos: Position, model: TurnModel | None, side: Side, dice: tuple[int, int]) -> None:
        """The opponent (``side``) rolled ``dice``: a model of the roll for every possible position
        (``model``, the roll's model from ``pos``, serves the hypothesis that is ``pos``)."""
        self.models = [model if h.new_pos == pos.with_turn(h.new_pos.turn) and model is not None
                       and vec_of_position(h.new_pos) == vec_of_position(pos)
                       else game_of(h.new_pos).turn_model(h.new_pos.with_turn(side), dice) for h in self.hyps]

    def weigh(self, obs: Observation, moving: bool, committing: bool = False,
              also: list[float] | None = None) -> tuple[list[float], bool, int]:
        """Add one board's evidence against each hypothesis. ``moving``: the next roll is being played, so
        the board is read through each hypothesis's model of it; ``committing``: the board is the last one
        before the current mover's own commit, so it shows a finished play (core.referee.inference).

        Returns (this board's cost per hypothesis, decided, the best hypothesis by the summed evidence).
        """
        costs: list[float] = []
        for k, h in enumerate(self.hyps):
            model = self.models[k] if k < len(self.models) else None
            if model is not None and moving:
                inf = self.explain(model, obs, committing)
                cost = inf.cost
                if committing and inf.kind in ("nothing", "in_progress") and cost == 0.0 and model.max_dice:
                    cost += COMMIT_PREFIX_PENALTY  # an exact match skips the scoring that adds it
                costs.append(cost)
            else:
                costs.append(observation_cost(obs, vec_of_position(h.new_pos)))
        # While the next roll waits on this open play, its player may already be playing it: the board is
        # then no evidence against a position it shows that roll played from (``also``: the board as the held
        # roll played after the mover's finished play, per hypothesis; HeldRoll.costs).
        weighed = costs if also is None else [min(c, a) for c, a in zip(costs, also, strict=True)]
        # Evidence adds up over the boards since the commit (camera mistakes come and go, the checkers
        # stay); the same board seen again (at a commit) replaces its own earlier contribution.
        capped = [min(c, BOARD_CAP) for c in weighed]
        if self.last_obs is obs:
            self.totals = [t - c for t, c in zip(self.totals, self.last_costs, strict=True)]
        self.totals = [t + c for t, c in zip(self.totals or [0.0] * len(capped), capped, strict=True)]
        self.last_obs, self.last_costs = obs, capped
        totals = self.totals
        order = sorted(range(len(totals)), key=lambda k: (totals[k], k))
        best = order[0]
        # Settled by this board only when it shows the mover's own play: a board the held roll explains clearly
        # better is HeldRoll.pending_board's to settle (it knows the mover's play as well).
        held = also is not None and min(also) + MARGIN <= min(costs)
        decided = not held and costs[best] <= ACCEPT and totals[order[1]] - totals[best] >= PENDING_MARGIN
        return costs, decided, best

    def likeliest_here(self, costs: list[float]) -> int:
        """The hypothesis that explains this board best (``costs`` from ``weigh``), the summed evidence
        breaking ties."""
        return min(range(len(costs)), key=lambda k: (costs[k], self.totals[k], k))

    def explain(self, model: TurnModel, obs: Observation, committing: bool = False) -> Inference:
        """``model.explain(obs, committing)``, read once per board while the play is open: the same model (its
        candidates fixed when the dice landed), the same board object and the same baseline are the same reading."""
        key = (id(model), id(obs), committing)
        kept = self.readings.get(key)
        if kept is not None and kept[0] is model and kept[1] is obs and kept[2] is model.baseline:
            return kept[3]
        inf = model.explain(obs, committing=committing)
        if len(self.readings) >= READINGS:
            del self.readings[next(iter(self.readings))]  # the oldest
        self.readings[key] = (model, obs, model.baseline, inf)
        return inf

    def roll_model(self, game: Game, pos: Position, dice: tuple[int, int]) -> TurnModel:
        """The model of ``dice`` played from ``pos`` (kept while the play is open: the boards ask again)."""
        key = (pos, dice)
        model = self.roll_models.get(key)
        if model is None:
            model = self.roll_models[key] = game.turn_model(pos, dice)
        return model

    def model_of(self, k: int) -> TurnModel | None:
        return self.models[k] if k < len(self.models) else None
