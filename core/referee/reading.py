"""Board reading: a stable board ruled on, while a play is being made and between turns.

While the mover plays, each board is read against the roll's candidates (core.referee.inference): a play in
progress, a finished play, several plays it fits, or a fault (the game's ``classify``). Between turns the board
must stay as it is. A count that stays off is a checker missing or added unless another reading of the last
commit explains it; a board set up again for a new game is said once (``new_setup_mid_game``) or closes a game
whose end was in doubt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.messages import message
from core.referee.inference import (
    ACCEPT,
    MARGIN,
    NEAR_MARGIN,
    OFF_IDX,
    START,
    Candidate,
    Inference,
    Observation,
    Vec,
    observation_cost,
    own_of_vec,
    position_of_vec,
    residual_of,
    vec_name,
    vec_of_position,
)
from core.referee.part import Part
from core.referee.state import Phase
from core.referee.turn import cand_text, unplayed_dice
from core.referee.verdicts import Verdict, fault_verdict, verdict
from core.rules.position import Side


class BoardReading(Part):
    """Owns the reading of each board (``TurnState``'s last board, inference, fault, suspects)."""

    def shows_start(self, obs: Observation) -> bool:
        """The board is set up at the game's starting position (within the referee's tolerance)."""
        return observation_cost(obs, self.game.start_vec(self.match_state.pos)) <= ACCEPT

    def set_up_again(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The board was set up for a new game while the last play of this one was unclear.

        The players only reset the board when the game is over, so the play must have borne off the last
        checker: the game-ending play that best fits the last board seen is committed.
        """
        model = self.turn_state.model
        assert model is not None
        last = self.turn_state.last_turn_obs
        if last is None or not self.shows_start(obs) or model.explain(obs).kind != "unexplained":
            return False
        enders = [c for c in model.candidates if c.legal is not None and c.legal.result.is_game_over()]
        if not enders:
            return False
        best = min(enders, key=lambda c: observation_cost(last, c.vec))
        self.turn_state.last_turn_obs = Observation(best.vec)
        self.turn_state.last_fault = None
        held, self.turn_state.held = self.turn_state.held, None
        self.ref.committer.commit(at, {"event": "board"}, out)
        if held is not None and held[1]["event"] in ("roll", "cube", "resign"):
            self.ref.dispatch(held[0], held[1], out)
        return True

    def on_board(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        if not ev["stable"]:
            return  # hands and motion: never ruled on
        obs = self.game.board(self.match_state.pos, Observation.from_event(ev))  # what the camera cannot see (R30)
        self.turn_state.see(at, obs)
        self.rule_board(at, obs, out)
        self.ref.cover.board(at, obs, out)  # a roll waiting for an object to be taken away goes on

    def rule_board(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        """A stable board, by the phase: the mover's play so far, or the board between turns."""
        if self.turn_state.pending is not None and self.match_state.phase in (Phase.MOVING, Phase.AWAITING_ROLL, Phase.CUBE_OFFERED):
            waiting = self.turn_state.held if self.turn_state.held_on_pending else None
            if self.ref.committer.try_resolve(at, obs, out) and waiting is not None and self.turn_state.held is waiting:
                # The roll waited only for the open play, now decided: it commits the mover's play and goes
                # through, and this board is ruled as its player's.
                self.turn_state.held = None
                self.turn_state.held_on_pending = False
                held_at, ev = waiting
                if self.match_state.phase == Phase.MOVING and self.ref.committer.commit(held_at, ev, out) and ev["event"] == "roll":
                    self.ref.on_roll(held_at, ev, out)
        if self.match_state.phase == Phase.MOVING and self.turn_state.model is not None:
            if self.set_up_again(at, obs, out) or self.new_setup_seen(at, obs, out):
                return
            if self.turn_state.held is not None and self.turn_state.held[1]["event"] == "roll":
                if self.turn_state.pending is not None and self.ref.held_roll.pending_board(at, obs, out):
                    return
                if self.ref.held_roll.board(at, obs, out):
                    return
            self.turn_state.last_turn_obs = obs
            self.rule_moving(at, obs, out)
            if self.turn_state.held is not None:
                self.ref.held_roll.retry(at, out)
        elif self.match_state.phase in (Phase.AWAITING_ROLL, Phase.CUBE_OFFERED):
            self.rule_waiting(at, obs, out)

    def new_setup_seen(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The board shows the starting position in the middle of a game (and not after the game's last
        play, which _set_up_again settles): say so once, rule on nothing else. True when it was that."""
        start = self.game.start_vec(self.match_state.pos)
        if vec_of_position(self.match_state.pos) == start or not self.shows_start(obs):
            return False
        if any(vec_of_position(p) == start for p in self.match_state.history[-2:]):
            return False  # a play or two into the game the start is the last position: a takeback, said as such
        if not self.start_fits_better(obs, start):
            return False
        if self.missed_game_end(at, out):
            return True
        key = ("new_setup", obs.vec)
        if key != self.turn_state.last_key:
            self.turn_state.last_key = key
            verdict(out, at, "illegal", side=self.match_state.turn.value, reason="new_setup_mid_game",
                    message=message("new_setup_mid_game"))
        return True

    def start_fits_better(self, obs: Observation, start: Vec) -> bool:
        """The starting position explains the board clearly better (by ``MARGIN``) than the game in progress
        does: the position as it stands, the roll's plays while moving, the last committed roll's other plays
        between turns. A game one checker from its start is otherwise set up again whenever the camera misreads
        the one point where they differ (the wrong count the likelier, 0.6 against 0.4): the game's own
        reading costs that point's doubt, the start one count the camera is sure of, both within ``ACCEPT``."""
        ms = self.match_state
        game = observation_cost(obs, vec_of_position(ms.pos))
        models = [self.turn_state.model] if ms.phase == Phase.MOVING else []
        snap = ms.last_commit()
        models.append(snap.get("model") if snap else None)
        for model in models:
            if model is not None:
                game = min(game, model.explain(obs).cost)
        return game - observation_cost(obs, start) >= MARGIN

    def settle_game_end(self, at: int, out: list[Verdict]) -> None:
        """The new-game button while the mover's last board is unclear between plays, one of which ends the
        game: the players say the game is over, so it is that play (marked guessed), and the game ends."""
        model, obs = self.turn_state.model, self.turn_state.last_turn_obs
        if model is None or obs is None:
            return
        inf = model.explain(obs, committing=True)
        enders = [c for c in (inf.rivals if inf.kind == "uncertain" else []) if c.legal is not None and c.legal.result.is_game_over()]
        if not enders:
            return
        self._commit_as(enders[0].vec, "guessed", at, out)

    def missed_game_end(self, at: int, out: list[Verdict]) -> bool:
        """The board is set up again between turns of a game whose end was in doubt: the players only do
        that when the game is over. A resignation waiting for its answer was accepted; a committed play read
        from a board that a game-ending play of the same roll fitted nearly as well was that play. The game
        is closed as the record supports and the next one can start. True when that happened."""
        ms = self.match_state
        if ms.phase != Phase.AWAITING_ROLL:
            return False
        if ms.resignation is not None:
            side, value = ms.resignation
            ms.resignation = None
            ms.record({"kind": "accept", "side": side.other.value})
            self.ref.ending.game_over(at, side.other, ms.points(value), "resign", out)
            return True
        snap = ms.last_commit()
        model = snap.get("model") if snap else None
        before = snap.get("last_turn_obs") if snap else None
        if model is None or before is None or not ms.can_undo():
            return False
        committed = observation_cost(before, vec_of_position(ms.pos))
        enders = sorted(((observation_cost(before, c.vec), n, c) for n, c in enumerate(model.candidates)
                         if c.legal is not None and c.legal.result.is_game_over()), key=lambda t: (t[0], t[1]))
        if not enders or enders[0][0] > ACCEPT or enders[0][0] - committed >= NEAR_MARGIN:
            return False
        self.turn_state.restore(ms.undo())
        self._commit_as(enders[0][2].vec, "corrected", at, out)
        return True

    def _commit_as(self, vec: Vec, mark: str, at: int, out: list[Verdict]) -> None:
        """Commit the play that ends on `vec` (the game-ending reading chosen), its play verdict marked `mark`
        (guessed: the players said the game was over; corrected: the board set up again said so)."""
        self.turn_state.last_turn_obs = Observation(vec)
        self.turn_state.last_fault = None
        first = len(out)
        self.ref.committer.commit(at, {"event": "board"}, out)
        for v in out[first:]:
            if v["verdict"] == "play":
                v[mark] = True  # type: ignore[literal-required]

    def board_of(self, vec: Vec) -> dict[str, Any] | None:
        """The board ``vec`` as the position's JSON (light, dark, bar, off), or None when it is no position (a
        checker missing or added: the screen then draws the referee's board)."""
        try:
            board = position_of_vec(vec, self.match_state.turn, type(self.match_state.pos)).to_dict()
        except (ValueError, TypeError, KeyError):
            return None
        return {k: board[k] for k in ("light", "dark", "bar", "off") if k in board}

    def rule_moving(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        assert self.turn_state.model is not None
        inf = self.turn_state.model.explain(obs)
        self.turn_state.last_inf = inf
        self.turn_state.last_vec = obs.vec
        if inf.kind == "unexplained":
            link = self.game.skipped_link(self.turn_state.model, obs.vec)  # a chain's two links in one board (R31)
            if link is not None:
                self.ref.turns.next_link(at, link, out)
                self.rule_moving(at, obs, out)
                return
            nearest = inf.best.vec if inf.best is not None else None
            fault = self.game.classify(self.turn_state.model, obs.vec, [vec_of_position(p) for p in self.match_state.history],
                                       nearest)
            self.turn_state.last_fault = fault
            key: Any = ("fault", fault.reason, obs.vec)
            self.turn_state.last_kind = "fault"
            if key != self.turn_state.last_key:
                self.turn_state.last_key = key
                fault_verdict(out, at, fault, self.match_state, board=self.board_of(obs.vec))
            return
        self.turn_state.last_fault = None
        settled = self.game.reading(self.turn_state.model, obs, inf)
        if settled is not inf:
            inf = self.turn_state.last_inf = settled
        self.turn_state.last_kind = inf.kind
        if self.track_counts(at, obs, inf, out):
            self.rule_moving(at, obs, out)  # the play before this turn was corrected: read the board again
            return
        if inf.kind == "uncertain":
            key = ("uncertain", tuple(sorted(c.vec for c in inf.rivals)))
            if key != self.turn_state.last_key:
                self.turn_state.last_key = key
                verdict(out, at, "uncertain", side=self.match_state.turn.value, dice=list(self.match_state.dice or ()),
                        candidates=[cand_text(c) for c in inf.rivals])
            return
        assert inf.best is not None
        self.turn_state.used = list(inf.best.used)
        # The kiosk draws the board as it stands; built here, once per ruled board, not on every push.
        self.turn_state.shown_pos = None if inf.kind == "nothing" else self.turn_state.model.position_of(inf.best, self.match_state.turn)
        key = (inf.kind, inf.best.vec)
        if key == self.turn_state.last_key:
            return
        self.turn_state.last_key = key
        if inf.kind in ("in_progress", "play"):
            verdict(out, at, "in_progress", side=self.match_state.turn.value, dice=list(self.match_state.dice or ()),
                    play=cand_text(inf.best), complete=inf.kind == "play", used=list(inf.best.used))
        link = self.game.next_link(self.turn_state.model, inf.best) if inf.kind == "play" else None
        if link is not None:
            self.ref.turns.next_link(at, link, out)  # a chain goes on in the same turn (R31)
            return
        if inf.kind == "play" and inf.best.legal is not None and inf.best.legal.result.is_game_over():
            # The last checker is off: nothing is left to decide, the game ends now.
            self.ref.committer.commit(at, {"event": "board", "ends_game": True}, out)

    def track_counts(self, at: int, obs: Observation, inf: Inference, out: list[Verdict]) -> bool:
        """A count that stays off on several stable boards is a checker really missing or added, unless
        another reading of the play before this turn explains it (then that play is corrected, and True)."""
        suspects = self.turn_state.count_suspects(obs, inf)
        if suspects and self.match_state.phase == Phase.MOVING and self.correct_last_commit(at, obs, inf, out):
            return True
        for i, sign in suspects:
            assert inf.best is not None
            side, where = vec_name(i)
            code = "checker_added" if sign > 0 else "checker_missing"
            params: dict[str, Any] = {"side": side.value, "point": where}
            off = OFF_IDX[side]
            if (code == "checker_missing" and self.match_state.phase == Phase.MOVING and side is self.match_state.turn and not obs.derived_off
                    and obs.vec[off] > inf.best.vec[off] and isinstance(where, int)
                    and not self.all_home(inf.best.vec, side)):
                # Gone from the board into the tray while checkers are still outside: borne off too early.
                code = "bear_off_too_early"
                params = {"side": side.value, "point": self.match_state.pos.own_point(side, where),
                          "dice": list(self.match_state.dice or ())}
            verdict(out, at, "illegal", side=side.value, reason=code, message=message(code, **params),
                    point=params["point"])
        return False

    def correct_last_commit(self, at: int, obs: Observation, inf: Inference, out: list[Verdict]) -> bool:
        """A count has stayed wrong since the last committed play, on boards from different readings: if
        another legal play of that roll, near the board it was committed from, explains this board clearly
        better, the commit was a misread. That play replaces it (a ``play`` verdict marked ``corrected``)
        and this turn is read from the position after it. True when that happened."""
        ms, ts = self.match_state, self.turn_state
        snap = ms.last_commit()
        old_model = snap.get("model") if snap else None
        old_obs = snap.get("last_turn_obs") if snap else None
        if (old_model is None or old_obs is None or ms.dice is None or ts.model is None
                or ts.pending is not None or ts.held is not None):
            return False
        here = vec_of_position(ms.pos)
        committed = [c for c in old_model.candidates if c.legal is not None and c.vec == here]
        if len(committed) != 1:
            return False  # the turn did not start from the committed play (something came between)
        base_cost = observation_cost(old_obs, committed[0].vec)
        options = []
        for c in old_model.candidates:
            if c.legal is None or c is committed[0] or observation_cost(old_obs, c.vec) > base_cost + MARGIN:
                continue
            model = self.game.turn_model(c.legal.result.with_turn(ms.turn), ms.dice)
            if len(model.legal) == 0 and len(ts.model.legal) != 0:
                continue
            alt = model.explain(obs)
            if alt.kind != "unexplained":
                options.append((alt.cost, c, model))
        if not options:
            return False
        options.sort(key=lambda o: o[0])
        cost, cand, model = options[0]
        if inf.cost - cost < MARGIN or (len(options) > 1 and options[1][0] - cost < MARGIN):
            return False
        assert cand.legal is not None
        text = cand.legal.play.text()
        mover = old_model.mover
        for row in reversed(ms.moves):
            if row["side"] == mover.value:
                row["play"] = text
                break
        for action in reversed(ms.games[-1]["actions"]):
            if action.get("kind") == "move" and action.get("side") == mover.value:
                action["play"] = text
                break
        new = cand.legal.result
        ms.pos = new.with_turn(ms.turn)
        ts.model = model
        ts.reset_reading()
        ts.suspects = {}
        verdict(out, at, "play", side=mover.value, dice=list(old_model.dice), play=text, legal=True,
                position_id=new.position_id(new.turn), match_id=ms.match_id(new.turn, passed=True), corrected=True)
        return True

    def all_home(self, vec: Vec, side: Side) -> bool:
        own = own_of_vec(vec, side, type(self.match_state.pos))
        return not any(own[7:26])

    def rule_waiting(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        """Between turns the board must stay as it is."""
        if self.new_setup_seen(at, obs, out):
            return
        pos_vec = vec_of_position(self.match_state.pos)
        diff = observation_cost(obs, pos_vec)
        if diff > ACCEPT and self.recommit(at, obs, diff, out):
            return
        if diff <= ACCEPT:
            fake = Inference("nothing", Candidate(pos_vec, START), float(diff), residual=residual_of(obs, pos_vec))
            self.track_counts(at, obs, fake, out)
            self.turn_state.last_key = None
            return
        key = ("waiting", obs.vec)
        if key == self.turn_state.last_key:
            return
        self.turn_state.last_key = key
        earlier = [vec_of_position(p) for p in self.match_state.history]
        totals = obs.totals()
        params: dict[str, Any] = {"side": self.match_state.turn.value, "other": self.match_state.turn.other.value}
        if obs.vec in earlier:
            code = "takeback"
        elif totals != (15, 15):
            side = Side.LIGHT if totals[0] != 15 else Side.DARK
            code = "checker_missing" if (totals[0] if side is Side.LIGHT else totals[1]) < 15 else "checker_added"
            params = {"side": side.value, "point": "?"}
            for i in range(len(pos_vec)):
                s, where = vec_name(i)
                if s is side and (obs.vec[i] - pos_vec[i]) * (1 if code == "checker_added" else -1) > 0:
                    params["point"] = where
                    break
        else:
            code = "moved_before_roll"
        verdict(out, at, "illegal", side=self.match_state.turn.value, reason=code, message=message(code, **params),
                **({"point": params["point"]} if "point" in params and code != "takeback" else {}))

    def recommit(self, at: int, obs: Observation, diff: float, out: list[Verdict]) -> bool:
        """Between turns the board is far from the committed play but is another legal play of the same
        roll: the commit was read from a board the camera misread (a count misread where the plays differ).
        The commit is taken back and that play committed instead, its verdict marked ``corrected``. True
        when that happened."""
        ms = self.match_state
        snap = ms.last_commit()
        model = snap.get("model") if snap else None
        if (ms.phase != Phase.AWAITING_ROLL or not ms.can_undo() or self.turn_state.pending is not None
                or self.turn_state.held is not None or model is None or model.mover is ms.turn):
            return False
        inf = model.explain(obs, committing=True)
        if inf.kind != "play" or inf.best is None or inf.best.legal is None or observation_cost(obs, inf.best.vec) >= diff:
            return False
        before = snap.get("last_turn_obs")
        self.turn_state.restore(ms.undo())
        self.turn_state.last_turn_obs = obs
        self.turn_state.last_fault = None
        first = len(out)
        if snap.get("trigger") == "end_turn" and before is not None:
            # The turn was ended by the button and then played on: a die was left unplayed when it was
            # pressed (R09), said now, late, as the board shows it.
            prefixes = [c for c in model.candidates if c.legal is None and c.kind != "start"]
            if prefixes:
                part = min(prefixes, key=lambda c: observation_cost(before, c.vec))
                params = {"dice": list(model.dice), "side": model.mover.value,
                          "unplayed": unplayed_dice(model, part.used), "example": model.legal[0].play.text()}
                verdict(out, at, "unplayed_die", side=model.mover.value, dice=list(model.dice),
                        reason="unplayed_die", message=message("unplayed_die", **params),
                        play=cand_text(part), unplayed=params["unplayed"], late=True)
        self.ref.committer.commit(at, {"event": "board"}, out)
        for v in out[first:]:
            if v["verdict"] == "play":
                v["corrected"] = True
        return True

