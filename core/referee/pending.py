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

from core.messages import message
from core.referee.inference import (
    ACCEPT,
    COMMIT_PREFIX_PENALTY,
    Candidate,
    Observation,
    TurnModel,
    observation_cost,
    vec_of_position,
)
from core.rules.position import Position, Side

Verdict = dict[str, Any]
#: One board adds at most this much against a hypothesis (a hand over the board is not proof).
BOARD_CAP = 3.0
#: Summed evidence needed to settle the open play: more than one misread count.
PENDING_MARGIN = 1.5


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


class PendingMixin:
    """Mixed into the referee; uses its state (pos, model, turn, dice, phase) and verdict helpers."""

    pending: Pending | None
    pos: Position
    model: TurnModel | None
    turn: Side
    dice: tuple[int, int] | None
    phase: str

    def _v(self, out: list[Verdict], at: int, name: str, **fields: Any) -> Verdict:
        raise NotImplementedError

    def _match_id(self, on_roll: Side | None = None, passed: bool = False) -> str:
        raise NotImplementedError

    def _start_pending(self, at: int, mover: Side, dice: tuple[int, int], hyps: list[Hypothesis],
                       record: dict[str, Any], row: dict[str, Any], out: list[Verdict]) -> None:
        self.pending = Pending(at, mover, dice, hyps, record, row)
        self._v(out, at, "uncertain", side=mover.value, dice=list(dice), committing=True, pending=True,
                candidates=[h.text for h in hyps],
                message={"pt": "Não consigo ver qual destas jogadas foi feita; as próximas imagens do tabuleiro vão "
                               "dizê-lo. O jogo continua.",
                         "en": "I cannot see which of these plays was made; the next views of the board will "
                               "tell. Play on."})

    def _pending_models(self, side: Side, dice: tuple[int, int]) -> None:
        """The opponent rolled: a model of the roll for every possible position."""
        p = self.pending
        if p is None:
            return
        p.models = [self.model if h.new_pos == self.pos.with_turn(h.new_pos.turn) and self.model is not None
                    and vec_of_position(h.new_pos) == vec_of_position(self.pos)
                    else TurnModel(h.new_pos.with_turn(side), dice) for h in p.hyps]

    def _try_resolve(self, at: int, obs: Observation, out: list[Verdict], force: bool = False,
                     committing: bool = False) -> bool:
        """Decide the pending play from a board; True when decided. ``committing``: the board is the last
        one before the current mover's own commit, so it shows a finished play (core.referee.inference)."""
        p = self.pending
        if p is None:
            return True
        costs: list[float] = []
        for k, h in enumerate(p.hyps):
            model = p.models[k] if k < len(p.models) else None
            if model is not None and self.phase == "moving":
                inf = model.explain(obs, committing=committing)
                cost = inf.cost
                if committing and inf.kind in ("nothing", "in_progress") and cost == 0.0 and model.max_dice:
                    cost += COMMIT_PREFIX_PENALTY  # an exact match skips the scoring that adds it
                costs.append(cost)
            else:
                costs.append(observation_cost(obs, vec_of_position(h.new_pos)))
        # Evidence adds up over the boards since the commit (camera mistakes come and go, the checkers
        # stay); the same board seen again (at a commit) replaces its own earlier contribution.
        capped = [min(c, BOARD_CAP) for c in costs]
        if p.last_obs is obs:
            p.totals = [t - c for t, c in zip(p.totals, p.last_costs, strict=True)]
        p.totals = [t + c for t, c in zip(p.totals or [0.0] * len(capped), capped, strict=True)]
        p.last_obs, p.last_costs = obs, capped
        totals = p.totals
        order = sorted(range(len(totals)), key=lambda k: (totals[k], k))
        best = order[0]
        decided = costs[best] <= ACCEPT and totals[order[1]] - totals[best] >= PENDING_MARGIN
        if not decided and not force:
            # Rule on this board from the position that explains it best (not yet a verdict on the play).
            here = min(range(len(costs)), key=lambda k: (costs[k], totals[k], k))
            self.pos = p.hyps[here].new_pos.with_turn(self.turn)
            if self.phase == "moving" and here < len(p.models) and p.models[here] is not None:
                self.model = p.models[here]
            return False
        self._resolve(at, best, out, sure=decided)
        return True

    def _resolve(self, at: int, k: int, out: list[Verdict], sure: bool = True) -> None:
        p = self.pending
        assert p is not None
        h = p.hyps[k]
        self.pending = None
        p.record["play"] = h.text
        p.row["play"] = h.text
        if not h.legal:
            p.record["illegal"] = True
        # Carry on from the position that was played.
        if self.phase == "moving" and k < len(p.models) and p.models[k] is not None:
            self.model = p.models[k]
        self.pos = h.new_pos.with_turn(self.turn)
        extra: dict[str, Any] = {} if sure else {"guessed": True}
        if not h.legal:
            params = {"dice": list(p.dice), "side": p.mover.value, "unplayed": h.unplayed}
            self._v(out, at, "unplayed_die", side=p.mover.value, dice=list(p.dice), reason="unplayed_die",
                    message=message("unplayed_die", **params), play=h.text, unplayed=h.unplayed)
        self._v(out, at, "play", side=p.mover.value, dice=list(p.dice), play=h.text, legal=h.legal,
                position_id=h.new_pos.position_id(h.new_pos.turn), match_id=self._match_id(h.new_pos.turn, passed=True),
                **({} if h.legal else {"reason": "unplayed_die"}), **extra)
        if self.phase == "moving":
            self._dance(at, out)  # the roll after it may have no legal play in the position now known

    def _dance(self, at: int, out: list[Verdict]) -> None:
        raise NotImplementedError
