"""The commit (R23): the mover's play made final by the opponent's roll or double, a resignation, the end-turn
button or the game's last board; and the open play, when the boards could not yet tell which play was made.

In casual mode a flagged illegal play stands once committed when the game lets it (its board read as counts
alone); in strict mode the commit is refused until the board is corrected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.messages import message
from core.referee.faults import Fault
from core.referee.inference import Candidate, Inference, Observation, position_of_vec
from core.referee.part import Part
from core.referee.pending import Hypothesis, Pending
from core.referee.state import Phase
from core.referee.turn import cand_text, unplayed_dice
from core.referee.verdicts import Verdict, fault_verdict, verdict
from core.rules.position import Position, Side


class Commit(Part):
    """Owns what a commit writes: the play's row and record, the open play (``TurnState.pending``)."""

    def commit(self, at: int, trigger: Mapping[str, Any], out: list[Verdict], since: int | None = None) -> bool:
        """Commit the mover's play; True when the triggering event may go ahead. ``since``: the index of the
        triggering event when it was held and is let through again (``at`` is the board that lets it)."""
        self.turn_state.trigger = trigger.get("name") or trigger.get("event")
        if self.turn_state.pending is not None:
            # The play before this one is still open: this commit needs it decided first.
            obs = self.turn_state.last_turn_obs or self.turn_state.last_obs
            # A cube action, a resignation, the end-turn button or the game's last checker borne off does not
            # wait: the evidence so far decides.
            force = trigger.get("event") not in ("roll", "board") or bool(trigger.get("ends_game"))
            if obs is None and force:
                self.resolve(at, 0, out, sure=False)
            roll = (at if since is None else since, trigger) if trigger.get("event") == "roll" else None
            decided = (self.turn_state.pending is None
                       or obs is not None and self.try_resolve(at, obs, out, force=force,
                                                                committing=obs is self.turn_state.last_turn_obs, roll=roll))
            if self.match_state.phase != Phase.MOVING:
                return True  # decided, and the roll it left had no legal play: the turn has passed
            if not decided:
                self.turn_state.held = (at, dict(trigger))
                self.turn_state.held_on_pending = True
                self.turn_state.held_rivals = []  # it waits on the open play, not on plays of this board
                verdict(out, at, "uncertain", side=self.match_state.turn.value, dice=list(self.match_state.dice or ()), committing=True,
                        candidates=[h.text for h in self.turn_state.pending.hyps] if self.turn_state.pending else [])
                return False
        model = self.turn_state.model
        assert model is not None and self.match_state.dice is not None
        mover = self.match_state.turn
        strict = self.match_state.rules.get("mode") == "strict"
        fault: Fault | None = self.turn_state.last_fault
        inf: Inference | None = None
        if fault is None and self.turn_state.last_turn_obs is not None:
            inf = model.explain(self.turn_state.last_turn_obs, committing=True)
            if inf.kind == "unexplained":
                inf = self.turn_state.last_inf
        if fault is None and (inf is None or inf.kind == "nothing"):
            if model.max_dice == 0:
                inf = None
            else:
                fault = Fault("unplayed_die", "unplayed_die",
                              {"dice": list(self.match_state.dice), "side": mover.value, "unplayed": list(self.match_state.dice),
                               "example": model.legal[0].play.text()})
        event = trigger.get("event")
        unclear = False  # the board fitted several plays and the event settled which
        if fault is None and inf is not None and inf.kind == "uncertain" and inf.best is not None:
            if event in ("roll", "cube", "resign"):
                # The opponent rolls, doubles or resigns: the game was not over, so a play that would have
                # ended it is not the one made.
                going_on = [c for c in inf.rivals if c.legal is None or not c.legal.result.is_game_over()]
                if going_on and len(going_on) < len(inf.rivals):
                    unclear = True
                    inf = Inference("uncertain" if len(going_on) > 1 else _kind_of(going_on[0]), going_on[0],
                                    inf.cost, going_on if len(going_on) > 1 else [], inf.residual)
        if fault is None and inf is not None and inf.kind == "uncertain" and inf.best is not None:
            hyps = self.turn_state.hypotheses(inf, strict)
            if hyps is not None and trigger.get("event") == "roll":
                # Whether the opponent's roll can be played at all must not hang on the open play.
                dice = (trigger["dice"][0], trigger["dice"][1])
                if any(len(h.new_pos.legal_plays(dice)) == 0 for h in hyps):
                    hyps = None
            if hyps is not None and trigger.get("event") != "board":
                self.ref.push_undo()
                record, row = self.match_state.add_move(mover, self.match_state.dice, "")
                self.start_pending(at, mover, self.match_state.dice, hyps, record, row, out)
                self.ref.turns.pass_turn(hyps[0].new_pos)
                return True
        if fault is None and inf is not None and inf.kind == "uncertain" and event not in ("roll", "board"):
            # A cube action, a resignation or the end-turn button is never lost to an unclear board: the
            # likeliest legal play is committed, marked guessed, and the event goes ahead. The end-turn
            # button after a board that may show a half-finished play (a die left unplayed, R09, or a count
            # misread) says "uncertain" and waits for a clearer board.
            pick = next((c for c in inf.rivals if c.legal is not None), None)
            if event == "button" and any(c.legal is None for c in inf.rivals):
                pick = None
            if pick is not None and pick.legal is not None:
                self.finish_play(at, mover, pick.legal.play.text(), pick.legal.result, True, out, guessed=True)
                return True
        if fault is None and inf is not None and inf.kind == "uncertain":
            self.turn_state.held = (at, dict(trigger))
            self.turn_state.held_on_pending = False
            self.turn_state.held_rivals = [c for c in inf.rivals if c.legal is not None]
            verdict(out, at, "uncertain", side=mover.value, dice=list(self.match_state.dice), committing=True,
                    candidates=[cand_text(c) for c in inf.rivals],
                    message={"pt": "Não consigo ver qual foi a jogada: afastem as mãos do tabuleiro.",
                             "en": "I cannot tell which play this is: keep hands clear of the board."})
            return False
        if fault is None and inf is not None and inf.kind == "in_progress" and inf.best is not None:
            best = inf.best
            fault = Fault("unplayed_die", "unplayed_die",
                          {"dice": list(self.match_state.dice), "side": mover.value,
                           "unplayed": unplayed_dice(model, best.used),
                           "example": model.legal[0].play.text()},
                          tuple((f, t) for f, t, _ in best.steps))
        if fault is None:
            if inf is None or inf.best is None or inf.best.legal is None:
                # No legal play existed (R25) or nothing was seen: the turn passes as it is.
                self.finish_play(at, mover, "", self.match_state.pos.with_turn(mover.other), True, out)
            else:
                lp = inf.best.legal
                self.finish_play(at, mover, lp.play.text(), lp.result, True, out, guessed=unclear)
            return True
        # A fault at commit time.
        if strict:
            fault_verdict(out, at, fault, self.match_state)
            if trigger.get("event") == "roll":
                verdict(out, at, "reroll", reason="correct_first", dice=list(trigger["dice"]),
                        message=message("correct_first", side=mover.value))
            return False
        if fault.verdict == "unplayed_die":
            fault_verdict(out, at, fault, self.match_state)
        new = self.standing_position(fault)
        if new is None:
            if fault.verdict != "unplayed_die":
                fault_verdict(out, at, fault, self.match_state)
            if trigger.get("event") in ("roll", "cube"):
                # A board that cannot stand (a checker missing or added, the wrong side moved) is held, not
                # dropped: the roll counts once the board is put right, or once the following boards show
                # that roll played after one of the legal plays nearest the board (a camera misread).
                self.turn_state.held = (at, dict(trigger))
                self.turn_state.held_on_pending = False
                self.turn_state.held_rivals = self.turn_state.nearest_legal()
            return False
        text = fault.play_text() if fault.moves else ""
        self.finish_play(at, mover, text, new, False, out, reason=fault.reason, by=trigger.get("event"))
        return True

    def standing_position(self, fault: Fault) -> Position | None:
        """Where the board stands after a flagged play that is let stand (casual mode), if it can."""
        obs = self.turn_state.last_turn_obs
        if fault.reason in ("checker_missing", "checker_added", "takeback", "wrong_side_moved"):
            return None
        if not self.game.lets_stand:
            return None  # the game's board keeps state the counts do not show (pins, chains): put it right
        if obs is None:
            return self.match_state.pos.with_turn(self.match_state.turn.other)
        if obs.totals() != (15, 15) or any(obs.vec[i] and obs.vec[24 + i] for i in range(24)):
            return None
        return position_of_vec(obs.vec, self.match_state.turn.other, type(self.match_state.pos))

    def finish_play(self, at: int, mover: Side, text: str, new: Position, legal: bool,
                     out: list[Verdict], reason: str | None = None, by: str | None = None,
                     guessed: bool = False) -> None:
        self.ref.push_undo()
        dice = self.match_state.dice
        assert dice is not None
        self.match_state.add_move(mover, dice, text, **({} if legal else {"illegal": True}))
        extra: dict[str, Any] = {} if legal else {"reason": reason, **({"committed_by": by} if by else {})}
        if guessed:
            extra["guessed"] = True
        self.ref.turns.pass_turn(new)
        verdict(out, at, "play", side=mover.value, dice=list(dice), play=text, legal=legal,
                position_id=new.position_id(new.turn), match_id=self.match_state.match_id(new.turn, passed=True), **extra)
        result = self.game.result(new)
        if result is not None:
            winner, mult, how = result
            self.ref.ending.game_over(at, winner, self.match_state.points(mult), how, out)

    def start_pending(self, at: int, mover: Side, dice: tuple[int, int], hyps: list[Hypothesis],
                       record: dict[str, Any], row: dict[str, Any], out: list[Verdict]) -> None:
        self.turn_state.pending = Pending(at, mover, dice, hyps, record, row)
        verdict(out, at, "uncertain", side=mover.value, dice=list(dice), committing=True, pending=True,
                candidates=[h.text for h in hyps],
                message={"pt": "Não consigo ver qual destas jogadas foi feita; as próximas imagens do tabuleiro vão "
                               "dizê-lo. O jogo continua.",
                         "en": "I cannot see which of these plays was made; the next views of the board will "
                               "tell. Play on."})

    def try_resolve(self, at: int, obs: Observation, out: list[Verdict], force: bool = False,
                     committing: bool = False, roll: tuple[int, Mapping[str, Any]] | None = None) -> bool:
        """Decide the open play from a board; True when decided. ``committing``: the board is the last
        one before the current mover's own commit, so it shows a finished play (core.referee.inference).
        ``roll``: the roll (its index and event) that commits the mover's play and waits on the open one
        (by default the roll held on it)."""
        p = self.turn_state.pending
        if p is None:
            return True
        moving = self.match_state.phase == Phase.MOVING
        waiting = roll or (self.turn_state.held if self.turn_state.held_on_pending else None)
        also = None
        if moving and waiting is not None and waiting[1]["event"] == "roll" and at > waiting[0]:
            also = self.ref.held_roll.costs(obs, waiting)  # a board since that roll: its player may be playing it
        costs, decided, best = p.weigh(obs, moving, committing, also)
        if not decided and not force:
            # Rule on this board from the position that explains it best (not yet a verdict on the play).
            here = p.likeliest_here(costs)
            self.match_state.pos = p.hyps[here].new_pos.with_turn(self.match_state.turn)
            model = p.model_of(here)
            if self.match_state.phase == Phase.MOVING and model is not None:
                self.turn_state.model = model
            return False
        self.resolve(at, best, out, sure=decided)
        return True

    def resolve(self, at: int, k: int, out: list[Verdict], sure: bool = True) -> None:
        p = self.turn_state.pending
        assert p is not None
        h = p.hyps[k]
        self.turn_state.pending = None
        p.record["play"] = h.text
        p.row["play"] = h.text
        if not h.legal:
            p.record["illegal"] = True
        # Carry on from the position that was played.
        model = p.model_of(k)
        if self.match_state.phase == Phase.MOVING and model is not None:
            self.turn_state.model = model
        self.match_state.pos = h.new_pos.with_turn(self.match_state.turn)
        extra: dict[str, Any] = {} if sure else {"guessed": True}
        if not h.legal:
            params = {"dice": list(p.dice), "side": p.mover.value, "unplayed": h.unplayed}
            verdict(out, at, "unplayed_die", side=p.mover.value, dice=list(p.dice), reason="unplayed_die",
                    message=message("unplayed_die", **params), play=h.text, unplayed=h.unplayed)
        verdict(out, at, "play", side=p.mover.value, dice=list(p.dice), play=h.text, legal=h.legal,
                position_id=h.new_pos.position_id(h.new_pos.turn), match_id=self.match_state.match_id(h.new_pos.turn, passed=True),
                **({} if h.legal else {"reason": "unplayed_die"}), **extra)
        if self.match_state.phase == Phase.MOVING:
            self.ref.turns.dance(at, out)  # the roll after it may have no legal play in the position now known


def _kind_of(cand: Candidate) -> str:
    return "play" if cand.legal is not None else "nothing" if cand.kind == "start" else "in_progress"
