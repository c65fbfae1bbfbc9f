"""The referee's state and the steps that change it: commits (R23), the cube, games, the match.

Split from core.referee, which reads the events and rules on the boards; this module holds what the
referee remembers and how a turn, a game and a match end. Cube and score rules are core.match.cube and
core.match.
"""

from __future__ import annotations

import copy
from typing import Any

from core.match.cube import Cube
from core.match.record import MatchRules
from core.match.score import RESULT_NAMES, Match
from core.messages import message
from core.referee.faults import Fault
from core.referee.inference import (
    Inference,
    Observation,
    TurnModel,
    Vec,
    observation_cost,
    play_text_of_steps,
    position_of_vec,
)
from core.referee.pending import Hypothesis, PendingMixin
from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side

Verdict = dict[str, Any]


class RefereeBase(PendingMixin):
    """State and state changes; ``core.referee.Referee`` adds the event handlers."""

    def __init__(self) -> None:
        self.verdicts: list[Verdict] = []
        self._undo_stack: list[dict[str, Any]] = []

    # Provided by Referee.
    def _v(self, out: list[Verdict], at: int, name: str, **fields: Any) -> Verdict:
        raise NotImplementedError

    def _fault_verdict(self, out: list[Verdict], at: int, fault: Fault) -> None:
        raise NotImplementedError

    def _reset_turn_view(self) -> None:
        raise NotImplementedError

    def _pass_turn(self, new_pos: Position) -> None:
        raise NotImplementedError


    # ----- match and game set-up ----------------------------------------------------------------------------
    def _start_match(self, length: int, players: dict[str, str], rules: dict[str, Any]) -> None:
        self.length = length
        self.players = players
        self.rules = rules
        cap = rules.get("cube_cap")
        self.match = Match(length, MatchRules(
            crawford=bool(rules.get("crawford", True)) and length > 0,
            jacoby=bool(rules.get("jacoby")), beavers=bool(rules.get("beavers")),
            raccoons=bool(rules.get("beavers")), holland=bool(rules.get("holland")),
            cube_cap=cap if cap and cap > 1 else None, cube_use=cap != 1))
        self.games: list[dict[str, Any]] = []
        self._undo_stack = []
        self._new_game_state()

    def _new_game_state(self) -> None:
        self.pos = Position.start()
        self.turn = Side.LIGHT
        self.phase = "opening"
        self.dice: tuple[int, int] | None = None
        self.model: TurnModel | None = None
        self.cube = Cube(self.match.cube_settings())
        self.rolls = {Side.LIGHT: 0, Side.DARK: 0}
        self.history: list[Position] = []
        self.moves: list[dict[str, Any]] = []
        self.awaiting_ack = 0
        self.held: tuple[int, dict[str, Any]] | None = None
        self.held_rivals: list[Any] = []
        self.pending = None
        self.resignation: tuple[Side, int] | None = None
        self.suspects: dict[tuple[int, int], int] = {}
        self.last_obs: Observation | None = None
        self.obs_log: list[tuple[int, Observation]] = []  # (event index, board) of the last stable boards
        self.last_turn_obs: Observation | None = None
        self._reset_turn_view()
        self.games.append({"number": self.match.game_number, "crawford": self.match.crawford,
                           "score": {s.value: self.match.score[s] for s in Side}, "actions": [], "result": None})

    def _next_game(self) -> None:
        self._undo_stack = []
        self._new_game_state()

    def _record(self, action: dict[str, Any]) -> None:
        self.games[-1]["actions"].append(action)

    def _move_row(self, side: Side, dice: tuple[int, int], play: str) -> dict[str, Any]:
        return {"game": len(self.games), "number": len(self.moves) + 1, "side": side.value,
                "roll": list(dice), "play": play}

    def _points(self, multiplier: int) -> int:
        return self.match.game_points(multiplier, self.cube)

    # ----- ids ---------------------------------------------------------------------------------------------
    def _match_id(self, on_roll: Side | None = None, passed: bool = False) -> str:
        on_roll = on_roll or self.turn
        state = "playing"
        if self.phase in ("game_over", "match_over"):
            state = "over"
        dice = (0, 0) if passed or self.dice is None or self.phase != "moving" else self.dice
        owner = None if self.cube.owner is None else (0 if self.cube.owner is Side.LIGHT else 1)
        score = (self.match.score[Side.LIGHT], self.match.score[Side.DARK])
        if self.length:
            score = (min(score[0], 32767), min(score[1], 32767))
        return MatchIdState(
            cube=min(self.cube.value, 2**15), cube_owner=owner, on_roll=0 if on_roll is Side.LIGHT else 1,
            crawford=self.match.crawford, game_state=state if self.phase != "opening" else "none",
            doubled=self.cube.offered_by is not None, dice=dice, match_length=min(self.length, 32767),
            score=score, jacoby=bool(self.rules.get("jacoby")),
        ).encode()

    # ----- commit (R23) -----------------------------------------------------------------------------------
    def _commit(self, at: int, trigger: dict[str, Any], out: list[Verdict]) -> bool:
        """Commit the mover's play; True when the triggering event may go ahead."""
        if self.pending is not None:
            # The play before this one is still open: this commit needs it decided first.
            obs = self.last_turn_obs or self.last_obs
            decided = obs is not None and self._try_resolve(at, obs, out, committing=obs is self.last_turn_obs)
            if self.phase != "moving":
                return True  # decided, and the roll it left had no legal play: the turn has passed
            if not decided:
                self.held = (at, dict(trigger))
                self._v(out, at, "uncertain", side=self.turn.value, dice=list(self.dice or ()), committing=True,
                        candidates=[h.text for h in self.pending.hyps] if self.pending else [])
                return False
        model = self.model
        assert model is not None and self.dice is not None
        mover = self.turn
        strict = self.rules.get("mode") == "strict"
        fault: Fault | None = self.last_fault
        inf: Inference | None = None
        if fault is None and self.last_turn_obs is not None:
            inf = model.explain(self.last_turn_obs, committing=True)
            if inf.kind == "unexplained":
                inf = self.last_inf
        if fault is None and (inf is None or inf.kind == "nothing"):
            if model.max_dice == 0:
                inf = None
            else:
                fault = Fault("unplayed_die", "unplayed_die",
                              {"dice": list(self.dice), "side": mover.value, "unplayed": list(self.dice),
                               "example": model.legal[0].play.text()})
        if fault is None and inf is not None and inf.kind == "uncertain" and inf.best is not None:
            hyps = self._hypotheses(inf, strict)
            if hyps is not None and trigger.get("event") == "roll":
                # Whether the opponent's roll can be played at all must not hang on the open play.
                dice = (trigger["dice"][0], trigger["dice"][1])
                if any(len(h.new_pos.legal_plays(dice)) == 0 for h in hyps):
                    hyps = None
            if hyps is not None and trigger.get("event") != "board":
                self._push_undo()
                record = {"kind": "move", "side": mover.value, "dice": list(self.dice), "play": ""}
                self._record(record)
                row = self._move_row(mover, self.dice, "")
                self.moves.append(row)
                self._start_pending(at, mover, self.dice, hyps, record, row, out)
                self._pass_turn(hyps[0].new_pos)
                return True
        if fault is None and inf is not None and inf.kind == "uncertain":
            self.held = (at, dict(trigger))
            self.held_rivals = [c for c in inf.rivals if c.legal is not None]
            self._v(out, at, "uncertain", side=mover.value, dice=list(self.dice), committing=True,
                    candidates=[self._cand_text(c) for c in inf.rivals],
                    message={"pt": "Não consigo ver qual foi a jogada: afastem as mãos do tabuleiro.",
                             "en": "I cannot tell which play this is: keep hands clear of the board."})
            return False
        if fault is None and inf is not None and inf.kind == "in_progress" and inf.best is not None:
            best = inf.best
            unplayed = list(self.dice) * (2 if self.dice[0] == self.dice[1] else 1)
            for d in best.used:
                unplayed.remove(d)
            fault = Fault("unplayed_die", "unplayed_die",
                          {"dice": list(self.dice), "side": mover.value,
                           "unplayed": unplayed[: model.max_dice - len(best.used)],
                           "example": model.legal[0].play.text()},
                          tuple((f, t) for f, t, _ in best.steps))
        if fault is None:
            if inf is None or inf.best is None or inf.best.legal is None:
                # No legal play existed (R25) or nothing was seen: the turn passes as it is.
                self._finish_play(at, mover, "", self.pos.with_turn(mover.other), True, out)
            else:
                lp = inf.best.legal
                self._finish_play(at, mover, lp.play.text(), lp.result, True, out)
            return True
        # A fault at commit time.
        if strict:
            self._fault_verdict(out, at, fault)
            if trigger.get("event") == "roll":
                self._v(out, at, "reroll", reason="correct_first", dice=list(trigger["dice"]),
                        message=message("correct_first", side=mover.value))
            return False
        if fault.verdict == "unplayed_die":
            self._fault_verdict(out, at, fault)
        new = self._standing_position(fault)
        if new is None:
            if fault.verdict != "unplayed_die":
                self._fault_verdict(out, at, fault)
            if trigger.get("event") in ("roll", "cube"):
                # A board that cannot stand (a checker missing or added, the wrong side moved) is held, not
                # dropped: the roll counts once the board is put right, or once the following boards show
                # that roll played after one of the legal plays nearest the board (a camera misread).
                self.held = (at, dict(trigger))
                self.held_rivals = self._nearest_legal()
            return False
        text = fault.play_text() if fault.moves else ""
        self._finish_play(at, mover, text, new, False, out, reason=fault.reason, by=trigger.get("event"))
        return True

    def _hypotheses(self, inf: Inference, strict: bool) -> list[Hypothesis] | None:
        """The plays an ambiguous board may show, to be decided by later boards; None if that cannot be."""
        assert self.dice is not None and self.model is not None
        mover = self.turn
        hyps = []
        for c in inf.rivals:
            if c.legal is not None:
                if c.legal.result.is_game_over():
                    return None  # the game's end is not left open
                hyps.append(Hypothesis(c, c.legal.result, self._cand_text(c), True))
            elif strict:
                return None  # strict mode wants a half-finished play corrected, not guessed
            else:
                unplayed = list(self.dice) * (2 if self.dice[0] == self.dice[1] else 1)
                for d in c.used:
                    unplayed.remove(d)
                hyps.append(Hypothesis(c, position_of_vec(c.vec, mover.other, type(self.pos)), self._cand_text(c),
                                       False, unplayed[: self.model.max_dice - len(c.used)]))
        return hyps if len(hyps) >= 2 else None

    def _nearest_legal(self, slack: float = 1.0, worst: float = 3.0, most: int = 8) -> list[Any]:
        """The legal plays that come nearest the last board of the turn (at most ``worst`` counts off)."""
        obs = self.last_turn_obs
        if obs is None or self.model is None:
            return []
        scored = sorted(((observation_cost(obs, c.vec), n, c) for n, c in enumerate(self.model.candidates)
                         if c.legal is not None), key=lambda t: (t[0], t[1]))
        if not scored or scored[0][0] > worst:
            return []
        return [c for cost, _, c in scored[: most] if cost <= scored[0][0] + slack]

    def _standing_position(self, fault: Fault) -> Position | None:
        """Where the board stands after a flagged play that is let stand (casual mode), if it can."""
        obs = self.last_turn_obs
        if fault.reason in ("checker_missing", "checker_added", "takeback", "wrong_side_moved"):
            return None
        if obs is None:
            return self.pos.with_turn(self.turn.other)
        if obs.totals() != (15, 15) or any(obs.vec[i] and obs.vec[24 + i] for i in range(24)):
            return None
        return position_of_vec(obs.vec, self.turn.other, type(self.pos))

    def _finish_play(self, at: int, mover: Side, text: str, new: Position, legal: bool,
                     out: list[Verdict], reason: str | None = None, by: str | None = None) -> None:
        self._push_undo()
        dice = self.dice
        assert dice is not None
        self._record({"kind": "move", "side": mover.value, "dice": list(dice), "play": text,
                      **({} if legal else {"illegal": True})})
        self.moves.append(self._move_row(mover, dice, text))
        extra: dict[str, Any] = {} if legal else {"reason": reason, **({"committed_by": by} if by else {})}
        self._pass_turn(new)
        self._v(out, at, "play", side=mover.value, dice=list(dice), play=text, legal=legal,
                position_id=new.position_id(new.turn), match_id=self._match_id(new.turn, passed=True), **extra)
        result = new.result()
        if result is not None:
            winner, mult = result
            self._game_over(at, winner, self._points(mult), RESULT_NAMES[mult], out)

    def _retry_held(self, at: int, out: list[Verdict]) -> None:
        """An ambiguous board held a commit; a clearer board lets it through, then the held event."""
        assert self.held is not None and self.model is not None and self.last_turn_obs is not None
        inf = self.model.explain(self.last_turn_obs, committing=True)
        if inf.kind != "play":
            return
        held_at, ev = self.held
        self.held = None
        if self._commit(at, ev, out) and ev["event"] in ("roll", "cube", "resign"):
            getattr(self, "_on_" + ev["event"])(held_at, ev, out)

    def _cand_text(self, cand: Any) -> str:
        if cand.legal is not None:
            return str(cand.legal.play.text())
        return play_text_of_steps(cand.steps)

    # ----- undo (both players agree, R23) ---------------------------------------------------------------------
    def _push_undo(self) -> None:
        keep = ("pos", "turn", "phase", "dice", "model", "history", "moves", "rolls", "last_turn_obs",
                "last_inf", "last_fault", "last_kind", "last_key", "used", "shown_pos")
        snap = {k: copy.copy(getattr(self, k)) for k in keep}
        snap["games_actions"] = len(self.games[-1]["actions"])
        snap["cube"] = copy.deepcopy(self.cube)
        self._undo_stack.append(snap)
        del self._undo_stack[:-4]

    def _undo(self) -> bool:
        """Take back the last committed play: its mover is moving again with the same dice."""
        if not self._undo_stack or self.phase not in ("awaiting_roll", "moving"):
            return False
        snap = self._undo_stack.pop()
        del self.games[-1]["actions"][snap.pop("games_actions"):]
        for k, v in snap.items():
            setattr(self, k, v)
        self.held = None
        self.pending = None
        self.last_key = None
        return True

    # ----- cube (R12, R14, R16-R18) -------------------------------------------------------------------------
    def _double_problem(self, side: Side) -> str | None:
        if self.match.crawford:
            return "crawford_no_cube"
        if not self.match.rules.cube_use:
            return "cube_not_used"
        if self.cube.owner is not None and self.cube.owner is not side:
            return "cube_not_yours"
        cap = self.cube.settings.cap
        if cap is not None and self.cube.value * 2 > cap:
            return "cube_cap"
        if self.match.why_not_double(side, self.cube, self.rolls) is not None:
            return "holland"
        return None

    def _cube_fault(self, out: list[Verdict], at: int, side: Side, code: str) -> None:
        owner = self.cube.owner.value if self.cube.owner else side.value
        params: dict[str, Any] = {"side": side.value, "owner": owner, "cap": self.cube.settings.cap or ""}
        self._v(out, at, "illegal", side=side.value, reason=code, message=message(code, **params))

    def _cube(self, at: int, action: str, side: Side, out: list[Verdict]) -> None:
        if action == "double":
            if self.phase == "moving" and side is self.turn.other:
                if not self._commit(at, {"event": "cube", "action": action, "side": side.value}, out):
                    return
            if self.phase != "awaiting_roll" or side is not self.turn:
                self._cube_fault(out, at, side, "cube_after_roll")
                return
            code = self._double_problem(side)
            if code:
                self._cube_fault(out, at, side, code)
                return
            value = self.cube.double(side)
            self.phase = "cube_offered"
            self._record({"kind": "double", "side": side.value, "value": value})
            self._v(out, at, "cube", action="double", side=side.value, value=value)
            return
        offer = self.cube.offered_by
        if self.phase != "cube_offered" or offer is None:
            self._cube_fault(out, at, side, "no_cube_offered")
            return
        if side is offer:
            self._cube_fault(out, at, side.other, "cube_answer_wrong_side")
            return
        if action == "take":
            self.cube.take(side)
            self.phase = "awaiting_roll"
            self._record({"kind": "take", "side": side.value, "value": self.cube.value})
            self._v(out, at, "cube", action="take", side=side.value, value=self.cube.value)
        elif action == "drop":
            winner, points = self.cube.drop(side)
            self._record({"kind": "drop", "side": side.value})
            self._v(out, at, "cube", action="drop", side=side.value, value=points)
            self._game_over(at, winner, points, "drop", out)
        elif action in ("beaver", "raccoon"):
            allowed = self.cube.settings.raccoons if action == "raccoon" else self.cube.settings.beavers
            stage_ok = self.cube.stage == ("beaver" if action == "raccoon" else "double")
            if not (allowed and stage_ok):
                self._cube_fault(out, at, side, "beaver_not_allowed")
                return
            value = self.cube.raccoon(side) if action == "raccoon" else self.cube.beaver(side)
            self._record({"kind": action, "side": side.value, "value": value})
            self._v(out, at, "cube", action=action, side=side.value, value=value)

    # ----- game and match end -------------------------------------------------------------------------------
    def _game_over(self, at: int, winner: Side, points: int, how: str, out: list[Verdict]) -> None:
        if self.pending is not None:
            obs = self.last_obs
            if obs is None or not self._try_resolve(at, obs, out):
                self._resolve(at, 0, out, sure=False)  # the game ended first: the likeliest play, marked guessed
        self.match.record_result(winner, points)
        self.games[-1]["result"] = {"winner": winner.value, "points": points, "how": how}
        self.phase = "game_over"
        self.model = None
        self.held = None
        self._v(out, at, "game_over", winner=winner.value, points=points, how=how)
        if self.match.over:
            self.phase = "match_over"
            self._v(out, at, "match_over", score=[self.match.score[Side.LIGHT], self.match.score[Side.DARK]],
                    winner=winner.value)

    # ----- what the kiosk shows -----------------------------------------------------------------------------
    def public_state(self) -> dict[str, Any]:
        """GET /api/state and the WebSocket pushes (docs/CONTRACTS.md)."""
        # The board as it stands (the referee's reading of this turn's play so far), and as the turn began.
        shown = self.shown_pos if self.phase == "moving" and self.shown_pos is not None else self.pos
        m = self.match
        match_id = self._match_id()
        state_pos, start_pos = ({**p.to_dict(), "position_id": p.position_id(self.turn), "match_id": match_id}
                                for p in (shown, self.pos))
        return {
            "match": {
                "length": self.length, "players": dict(self.players),
                "score": {s.value: m.score[s] for s in Side},
                "crawford": m.crawford, "post_crawford": m.post_crawford,
                "game": len(self.games),
                "rules": dict(self.rules),
            },
            "position": state_pos,
            "position_at_turn_start": start_pos,
            "turn": self.turn.value,
            "phase": self.phase,
            "dice": {"values": list(self.dice) if self.dice else [],
                     "cocked": [False, False] if not self.awaiting_ack else [self.awaiting_ack == 1, self.awaiting_ack == 2],
                     "used": list(getattr(self, "used", []))},
            "cube": {"value": self.cube.value, "owner": self.cube.owner.value if self.cube.owner else None,
                     "offered_by": self.cube.offered_by.value if self.cube.offered_by else None,
                     "offered": self.cube.offered or None},
            "pips": {s.value: shown.pips(s) for s in Side},
            "verdicts": [dict(v) for v in self.verdicts],
            "moves": [dict(r) for r in self.moves],
            "resignation": ({"side": self.resignation[0].value, "value": self.resignation[1]}
                            if self.resignation else None),
        }


__all__ = ["RefereeBase", "Vec"]
