"""The held roll: a roll (or a double, a resignation) that waits because the play before it is unclear.

A commit the boards cannot decide yet holds its triggering event (``TurnState.held``); the boards that follow
(the mover's play standing still, or the opponent already playing the held roll) settle it, or another roll
releases it (R25: from the play after which the held roll has no legal play).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from core.referee.inference import ACCEPT, MARGIN, Candidate, Observation, Vec
from core.referee.part import Part
from core.referee.state import Phase
from core.referee.verdicts import Verdict


class HeldRoll(Part):
    """Owns ``TurnState.held`` (and ``held_rivals``, ``held_on_pending``): when a held event goes through."""

    def board(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """A roll waits on an unclear play, and the opponent may already be moving: a board that only
        one of the plays (then that roll) explains settles it. True when this board needs no more ruling."""
        assert self.turn_state.held is not None and self.turn_state.model is not None
        mover_inf = self.turn_state.model.explain(obs, committing=True)
        if mover_inf.kind == "play" or not self.turn_state.held_rivals:
            return False
        dice = (self.turn_state.held[1]["dice"][0], self.turn_state.held[1]["dice"][1])
        costs = [self.game.turn_model(c.legal.result, dice).explain(obs).cost for c in self.turn_state.held_rivals]
        order = sorted(range(len(costs)), key=lambda k: (costs[k], k))
        best = order[0]
        others = [costs[k] for k in order[1:]] + [mover_inf.cost]
        if costs[best] <= ACCEPT and min(others) - costs[best] >= MARGIN:
            self.take(at, obs, self.turn_state.held_rivals[best].vec, out)
            return True
        # Neither the mover's play nor clearly the opponent's: no verdict while the roll waits.
        return mover_inf.kind == "unexplained"

    def pending_board(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The play before the mover's is still open, so the next roll waits, and its player may already be
        moving: a board that the held roll, played from just one of the open positions (after the mover's
        finished play, or one of the plays the mover's board left unclear), explains settles the open play,
        the mover's play and the roll at once; so does one where that roll, played from every open position,
        ends the game (the likeliest, guessed: no later board of the game can tell). A board that only the held
        roll explains gets no verdict while the roll waits. True when this board needs no more ruling."""
        p = self.turn_state.pending
        assert p is not None and self.turn_state.held is not None
        options = self.options(obs, self.turn_state.held)
        if not options:
            return False
        still = math.inf  # the board as the mover's own play (not yet committed) under any open position
        unexplained = True  # no open position explains the board as the mover's play (finished or not)
        for model in p.models:
            assert model is not None
            still = min(still, p.explain(model, obs, committing=True).cost)
            unexplained = unexplained and p.explain(model, obs).kind == "unexplained"
        # The boards since the open play was committed have been weighing its options: that evidence counts
        # too (a point the camera is unsure of tells a little on each board).
        prior = p.totals if len(p.totals) == len(p.hyps) else [0.0] * len(p.hyps)
        floor = min(prior)
        scored = sorted(((prior[k] - floor + cost, cost, k, cand, ends) for cost, k, cand, ends in options),
                        key=lambda o: (o[0], o[2]))
        score, best_cost, k, cand, _ = scored[0]
        others = [o[0] for o in scored[1:]] + [still]
        sure = best_cost <= ACCEPT and min(others) - score >= MARGIN
        if not sure:
            # The held roll played to the game's end from every open position: no later board of this game will
            # tell them apart, so the likeliest is taken (guessed) and the game ends as the board shows.
            ending = [o for o in scored if o[4] and o[1] <= ACCEPT]
            if not ending or {o[2] for o in ending} != set(range(len(p.hyps))):
                # The held roll being played from a position still open, and no play of the mover's: no verdict
                # while the roll waits (as ``board``), the mover's last board stays its play.
                return unexplained and min(o[1] for o in scored) <= ACCEPT
            _, _, k, cand, _ = ending[0]
        self.ref.committer.resolve(at, k, out, sure=sure)
        self.take(at, obs, cand.vec, out)
        return True

    def options(self, obs: Observation, roll: tuple[int, Mapping[str, Any]]) -> list[tuple[float, int, Any, bool]]:
        """The board as ``roll`` (its index and event: the roll that waits on the open play) played after the
        mover's finished play, from each open position: (cost of this board, open play k, the mover's play, that
        roll's play seen whole and ending the game), for every play of the mover that its last board, or its last board before that roll, fitted. Empty
        when the open positions have no models yet."""
        p = self.turn_state.pending
        assert p is not None
        last = self.turn_state.last_turn_obs
        if last is None or len(p.models) != len(p.hyps) or any(m is None for m in p.models):
            return []
        dice = (roll[1]["dice"][0], roll[1]["dice"][1])
        # The mover's last board before the roll as well: a board since (the play taken back, R23) does not unsay it.
        before = next((o for i, o in reversed(self.turn_state.obs_log) if i < roll[0]), last)
        options: list[tuple[float, int, Any, bool]] = []
        for k, model in enumerate(p.models):
            assert model is not None
            plays: dict[Vec, Candidate] = {}
            for board in (last, before):
                inf = p.explain(model, board, committing=True)
                plays.update((c.vec, c) for c in (inf.rivals if inf.kind == "uncertain" else [inf.best] if inf.kind == "play" else [])
                             if c is not None and c.legal is not None)
            for cand in plays.values():
                assert cand.legal is not None
                inf = p.explain(p.roll_model(self.game, cand.legal.result, dice), obs)
                ends = inf.kind == "play" and inf.best is not None and inf.best.legal is not None and inf.best.legal.result.is_game_over()
                options.append((inf.cost, k, cand, ends))
        return options

    def costs(self, obs: Observation, roll: tuple[int, Mapping[str, Any]]) -> list[float] | None:
        """Per open play, how well the board shows ``roll`` (waiting on the open play) played after the mover's
        finished play from it (the cheapest of ``options``); None when that cannot be told."""
        p = self.turn_state.pending
        assert p is not None
        options = self.options(obs, roll)
        if not options:
            return None
        return [min((o[0] for o in options if o[1] == n), default=math.inf) for n in range(len(p.hyps))]

    def take(self, at: int, obs: Observation, played: Vec, out: list[Verdict]) -> None:
        """The held roll's board showed which play the mover made (``played``): commit it, let the roll
        through, and rule on this board as the roll's first."""
        assert self.turn_state.held is not None
        held_at, ev = self.turn_state.held
        self.turn_state.held = None
        self.turn_state.last_fault = None
        if self.match_state.phase == Phase.MOVING:
            self.turn_state.last_turn_obs = Observation(played)
        if self.match_state.phase != Phase.MOVING or self.ref.committer.commit(held_at, ev, out):
            self.ref.on_roll(held_at, ev, out)
        if self.match_state.phase == Phase.MOVING and self.turn_state.model is not None:
            self.turn_state.last_turn_obs = obs
            self.ref.reading.rule_moving(at, obs, out)

    def release(self, out: list[Verdict]) -> None:
        """A roll waits on an unclear play and another roll comes: the first roll's turn is over.

        With no board in between, the first roll was not played at all: of the plays the board fitted,
        the one after which that roll has no legal play is the one made (R25); otherwise the likeliest.
        """
        assert self.turn_state.held is not None and self.turn_state.model is not None
        held_at, held_ev = self.turn_state.held
        self.turn_state.held = None
        if self.turn_state.pending is not None:
            # The roll waited on the play before it, and no board decided that play before the next roll: the
            # evidence is all in. The likeliest, marked guessed (as a cube action or the end-turn button does).
            seen = self.turn_state.last_turn_obs or self.turn_state.last_obs
            if seen is None:
                self.ref.committer.resolve(held_at, 0, out, sure=False)
            else:
                self.ref.committer.try_resolve(held_at, seen, out, force=True)
            self.turn_state.held_on_pending = False
        dice = (held_ev["dice"][0], held_ev["dice"][1])
        obs = self.turn_state.last_turn_obs
        rivals: list[Candidate] = []
        if obs is not None:
            inf = self.turn_state.model.explain(obs, committing=True)
            read: list[Candidate | None] = [*inf.rivals] or [inf.best]
            rivals = [c for c in read if c is not None and c.legal is not None]
            if inf.kind == "unexplained":
                rivals = self.turn_state.held_rivals  # held on a board that could not stand: the nearest legal plays
        if rivals:
            dancing = [c for c in rivals if c.legal is not None and len(c.legal.result.legal_plays(dice)) == 0]
            pick = dancing[0] if len(dancing) == 1 else rivals[0]
            if len(dancing) != 1:
                self.turn_state.guessed_points(rivals)  # no board will settle it: those counts prove nothing
            self.turn_state.last_turn_obs = Observation(pick.vec)
            self.turn_state.last_fault = None
        if self.ref.committer.commit(held_at, held_ev, out):
            self.ref.on_roll(held_at, held_ev, out)
            # The boards seen while that roll waited were its player's: the last one is its play so far.
            later = [(i, o) for i, o in self.turn_state.obs_log if i > held_at]
            if later and self.match_state.phase == Phase.MOVING and self.turn_state.model is not None:
                i, obs = later[-1]
                self.turn_state.last_turn_obs = obs
                self.ref.reading.rule_moving(i, obs, out)

    def retry(self, at: int, out: list[Verdict]) -> None:
        """An ambiguous board held a commit; a clearer board lets it through, then the held event."""
        assert self.turn_state.held is not None and self.turn_state.model is not None and self.turn_state.last_turn_obs is not None
        inf = self.turn_state.model.explain(self.turn_state.last_turn_obs, committing=True)
        if inf.kind != "play":
            return
        held_at, ev = self.turn_state.held
        before = next((o for i, o in reversed(self.turn_state.obs_log) if i < held_at), None)
        if ev["event"] == "roll" and before is not None and inf.best is not None:
            then = self.turn_state.model.explain(before, committing=True)
            if then.kind == "uncertain" and inf.best.vec not in {c.vec for c in then.rivals}:
                return  # not a play the board fitted when the opponent rolled (R23): their hands, not the mover's
        self.turn_state.held = None
        if self.ref.committer.commit(at, ev, out, since=held_at) and ev["event"] in ("roll", "cube", "resign"):
            self.ref.dispatch(held_at, ev, out)
        elif self.turn_state.held is not None:  # held again: the event keeps its own index (the boards after it)
            self.turn_state.held = (held_at, self.turn_state.held[1])

    def release_first(self, out: list[Verdict]) -> None:
        """A roll waits on an unclear play and a double or a resignation comes: the roll was made, so it
        goes through first (from the play after which it has no legal play, if one, R25)."""
        if (self.match_state.phase == Phase.MOVING and self.turn_state.held is not None
                and self.turn_state.held[1]["event"] == "roll" and self.turn_state.model is not None):
            self.release(out)
