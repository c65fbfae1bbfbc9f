"""The referee: a stream of events in, what a good human referee would say out.

``Referee.feed(event)`` takes one event (core.referee.events format) and returns verdicts
``{"at": index, "verdict": name, ...}``. It is deterministic: the same events give the same verdicts and
the same ``public_state()``, which is how the kiosk's journal brings it back after a power cut.

A play is ruled on from the board alone: each stable board is matched against the candidates of the
roll (core.referee.inference); a board that fits no legal play is explained by core.referee.faults. A play is
committed by the opponent's roll or double, or by the end-turn button (R23). In casual mode a flagged
illegal play stands once committed; in strict mode the commit is refused until the board is corrected.

Every verdict has ``at`` (the index of the event that caused it), ``verdict`` and ``message``
({"pt", "en"}); the others, by verdict:

- ``opening``: side (who starts), dice. ``roll``: side, dice.
- ``reroll``: reason (cocked_die, tied_opening, roll_out_of_turn, roll_not_expected), dice; the roll
  does not count.
- ``in_progress``: side, dice, play (so far), complete (a whole legal play is on the board), used.
- ``play``: side, dice, play, legal, position_id and match_id after it; ``reason`` (and ``committed_by``,
  the event that committed it) when a flagged play was let stand (casual), ``guessed`` when the game ended
  (or a cube action, a resignation or the end-turn button came) before the boards could decide it,
  ``corrected`` when it replaces the same side's last play (a later board showed that commit misread).
- ``uncertain``: side, dice, candidates; ``committing`` when it happened at a commit, ``pending`` when
  the game goes on and the following boards will decide.
- ``illegal`` / ``unplayed_die``: side, reason (core.messages.REASONS), point/move/unplayed/die when
  they apply, play (the moves seen); ``late`` on an unplayed die seen only after the end-turn button.
- ``cube``: action, side, value. ``game_over``: winner, points, how. ``match_over``: score [light, dark],
  winner.

>>> ref = Referee()
>>> [v["verdict"] for v in ref.feed({"event": "roll", "dice": [5, 2]})]
['opening']
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from core.match.score import RESULT_NAMES
from core.messages import describe, message
from core.referee import variants
from core.referee.events import RULE_DEFAULTS, CheckedEvent, parse_event
from core.referee.faults import Fault
from core.referee.inference import (
    ACCEPT,
    MARGIN,
    NEAR_MARGIN,
    OFF_IDX,
    Inference,
    Observation,
    TurnModel,
    Vec,
    observation_cost,
    own_of_vec,
    position_of_vec,
    residual_of,
    vec_name,
    vec_of_position,
)
from core.referee.pending import Hypothesis, Pending
from core.referee.state import MatchState
from core.referee.turn import TurnState, cand_text, unplayed_dice
from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side

Verdict = dict[str, Any]
KEEP_VERDICTS = 20


class _MatchField:
    """An attribute of the referee that is its match state's (``Referee.pos`` is ``match_state.pos``)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(obj.match_state, self.name)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(obj.match_state, self.name, value)


class Referee:
    """The referee state machine. ``rules`` as in the new_match event (crawford, mode, ...).

    It owns no game state of its own beyond the event count: the match's state is ``match_state``
    (core.referee.state.MatchState), the current turn's view of the board is ``turn_state``
    (core.referee.turn.TurnState); the referee reads the events, rules on them and says so.
    """

    def __init__(self, rules: Mapping[str, Any] | None = None, length: int = 0,
                 players: Mapping[str, str] | None = None) -> None:
        self.verdicts: list[Verdict] = []
        self.index = 0
        self.last_seq: Any = None
        self._start_match(length, dict(players or {"light": "Light", "dark": "Dark"}), {**RULE_DEFAULTS, **(rules or {})})

    def _start_match(self, length: int, players: dict[str, str], rules: dict[str, Any]) -> None:
        self.match_state = MatchState(length, players, rules)
        self.turn_state = TurnState()

    def _next_game(self) -> None:
        self.match_state.new_game()
        self.turn_state = TurnState()

    # The match's state as attributes of the referee (a test sets a game up through pos, turn and phase).
    pos = _MatchField()
    turn = _MatchField()
    phase = _MatchField()
    dice = _MatchField()
    rules = _MatchField()
    length = _MatchField()
    players = _MatchField()
    games = _MatchField()

    # ----- entry point -----------------------------------------------------------------------------------------
    def feed(self, event: Mapping[str, Any]) -> list[Verdict]:
        """Rule on one event. Raises core.referee.events.EventError (a ValueError) for a malformed event.

        An event that ``parse_event`` already checked (a CheckedEvent, as the kiosk's service and
        ``read_lines`` give them) is not checked again."""
        at = self.index
        ev = event if type(event) is CheckedEvent else parse_event(dict(event), at)
        self.index += 1
        out: list[Verdict] = []
        handler = getattr(self, "_on_" + ev["event"])
        handler(at, ev, out)
        self.verdicts.extend(out)
        del self.verdicts[:-KEEP_VERDICTS]
        return out

    # ----- verdict helpers ----------------------------------------------------------------------------------
    def _v(self, out: list[Verdict], at: int, name: str, **fields: Any) -> Verdict:
        v: Verdict = {"at": at, "verdict": name, **fields}
        if "message" not in v:
            v["message"] = describe(v)
        out.append(v)
        return v

    def _fault_verdict(self, out: list[Verdict], at: int, fault: Fault) -> None:
        params = {k: v for k, v in fault.params.items() if k != "example" or v}
        self._v(out, at, fault.verdict, side=self.match_state.turn.value, dice=list(self.match_state.dice) if self.match_state.dice else None,
                reason=fault.reason, message=message(fault.reason, **fault.params),
                **({"play": fault.play_text()} if fault.moves else {}),
                **{k: v for k, v in params.items() if k in ("point", "move", "unplayed", "die")})

    def _reroll(self, out: list[Verdict], at: int, reason: str, **params: Any) -> None:
        self._v(out, at, "reroll", reason=reason, message=message(reason, **params),
                **{k: v for k, v in params.items() if k in ("dice", "n", "die", "side")})

    # ----- events -------------------------------------------------------------------------------------------
    def _on_new_match(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        self._start_match(ev["length"], ev["players"], ev["rules"])

    def _on_roll(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        dice = (ev["dice"][0], ev["dice"][1])
        seq = ev.get("seq")
        if seq is not None:
            if seq == self.last_seq:
                return  # the dice unit sent the same roll again: one roll, one verdict
            self.last_seq = seq
        if self.match_state.phase == "match_over":
            self._reroll(out, at, "roll_not_expected", why_pt="a partida terminou", why_en="the match is over")
            return
        if self.match_state.phase == "cube_offered":
            self._reroll(out, at, "roll_not_expected", why_pt="há um cubo oferecido esperando resposta",
                         why_en="a double is waiting for an answer")
            return
        if self.match_state.awaiting_ack:
            self._reroll(out, at, "cocked_die", n=self.match_state.awaiting_ack)
            return
        if any(ev["cocked"]):
            n = 1 if ev["cocked"][0] else 2
            self.match_state.awaiting_ack = n
            self._reroll(out, at, "cocked_die", n=n, dice=list(dice))
            return
        if self.match_state.phase == "moving" and self.turn_state.held is not None and self.turn_state.held[1]["event"] == "roll":
            self._release_held_roll(out)
        if self.match_state.phase == "moving":
            if self.premature(dice):
                self._reroll(out, at, "roll_out_of_turn", side=self.match_state.turn.value, dice_prev=list(self.match_state.dice))
                return
            if not self._commit(at, ev, out):
                return
            if self.match_state.phase == "match_over":
                return
            # A commit that ended the game (an unclear last bear-off): this is the next game's opening roll.
        if self.match_state.phase == "game_over":
            self._next_game()
        if self.match_state.phase == "opening":
            if dice[0] == dice[1]:
                self._reroll(out, at, "tied_opening", die=dice[0], dice=list(dice))
                return
            starter = Side.LIGHT if dice[0] > dice[1] else Side.DARK
            self.match_state.pos = self.match_state.pos.with_turn(starter)
            self._v(out, at, "opening", side=starter.value, dice=list(dice))
            self._begin_turn(at, starter, dice, out)
            return
        if self.match_state.phase != "awaiting_roll":
            return
        if variants.is_variant(self.match_state.pos) and self.match_state.pos.with_turn(self.match_state.turn)._reroll(dice):
            self._reroll(out, at, "first_roll_double", side=self.match_state.turn.value, dice=list(dice))
            return
        self._v(out, at, "roll", side=self.match_state.turn.value, dice=list(dice))
        self._begin_turn(at, self.match_state.turn, dice, out)

    def _held_roll_board(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """A roll waits on an unclear play, and the opponent may already be moving: a board that only
        one of the plays (then that roll) explains settles it. True when this board needs no more ruling."""
        assert self.turn_state.held is not None and self.turn_state.model is not None
        mover_inf = self.turn_state.model.explain(obs, committing=True)
        if mover_inf.kind == "play" or not self.turn_state.held_rivals:
            return False
        dice = (self.turn_state.held[1]["dice"][0], self.turn_state.held[1]["dice"][1])
        costs = [TurnModel(c.legal.result, dice).explain(obs).cost for c in self.turn_state.held_rivals]
        order = sorted(range(len(costs)), key=lambda k: (costs[k], k))
        best = order[0]
        others = [costs[k] for k in order[1:]] + [mover_inf.cost]
        if costs[best] <= ACCEPT and min(others) - costs[best] >= MARGIN:
            self._take_held_roll(at, obs, self.turn_state.held_rivals[best].vec, out)
            return True
        # Neither the mover's play nor clearly the opponent's: no verdict while the roll waits.
        return mover_inf.kind == "unexplained"

    def _pending_held_roll_board(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The play before the mover's is still open, so the next roll waits, and its player may already be
        moving: a board that the held roll, played from just one of the open positions (after the mover's
        finished play, or one of the plays the mover's board left unclear), explains settles the open play,
        the mover's play and the roll at once."""
        p = self.turn_state.pending
        assert p is not None and self.turn_state.held is not None
        last = self.turn_state.last_turn_obs
        if last is None or len(p.models) != len(p.hyps) or any(m is None for m in p.models):
            return False
        dice = (self.turn_state.held[1]["dice"][0], self.turn_state.held[1]["dice"][1])
        # The mover's last board before the roll as well: a board since (the play taken back, R23) does not unsay it.
        before = next((o for i, o in reversed(self.turn_state.obs_log) if i < self.turn_state.held[0]), last)
        options: list[tuple[float, int, Any]] = []  # (cost of this board, open play k, the mover's play)
        still = math.inf  # the board as the mover's own play (not yet committed) under any open position
        for k, model in enumerate(p.models):
            assert model is not None
            still = min(still, model.explain(obs, committing=True).cost)
            plays: dict[Vec, Any] = {}
            for board in (last, before):
                inf = model.explain(board, committing=True)
                plays.update((c.vec, c) for c in (inf.rivals if inf.kind == "uncertain" else [inf.best] if inf.kind == "play" else [])
                             if c is not None and c.legal is not None)
            for cand in plays.values():
                options.append((TurnModel(cand.legal.result, dice).explain(obs).cost, k, cand))
        if not options:
            return False
        # The boards since the open play was committed have been weighing its options: that evidence counts
        # too (a point the camera is unsure of tells a little on each board).
        prior = p.totals if len(p.totals) == len(p.hyps) else [0.0] * len(p.hyps)
        floor = min(prior)
        scored = sorted(((prior[k] - floor + cost, cost, k, cand) for cost, k, cand in options),
                        key=lambda o: (o[0], o[2]))
        score, best_cost, k, cand = scored[0]
        others = [o[0] for o in scored[1:]] + [still]
        if not (best_cost <= ACCEPT and min(others) - score >= MARGIN):
            return False
        self._resolve(at, k, out)
        self._take_held_roll(at, obs, cand.vec, out)
        return True

    def _take_held_roll(self, at: int, obs: Observation, played: Vec, out: list[Verdict]) -> None:
        """The held roll's board showed which play the mover made (``played``): commit it, let the roll
        through, and rule on this board as the roll's first."""
        assert self.turn_state.held is not None
        held_at, ev = self.turn_state.held
        self.turn_state.held = None
        self.turn_state.last_fault = None
        if self.match_state.phase == "moving":
            self.turn_state.last_turn_obs = Observation(played)
        if self.match_state.phase != "moving" or self._commit(held_at, ev, out):
            self._on_roll(held_at, ev, out)
        if self.match_state.phase == "moving" and self.turn_state.model is not None:
            self.turn_state.last_turn_obs = obs
            self._rule_moving(at, obs, out)

    def _release_held_roll(self, out: list[Verdict]) -> None:
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
                self._resolve(held_at, 0, out, sure=False)
            else:
                self._try_resolve(held_at, seen, out, force=True)
            self.turn_state.held_on_pending = False
        dice = (held_ev["dice"][0], held_ev["dice"][1])
        obs = self.turn_state.last_turn_obs
        rivals = []
        if obs is not None:
            inf = self.turn_state.model.explain(obs, committing=True)
            rivals = [c for c in (inf.rivals or [inf.best]) if c is not None and c.legal is not None]
            if inf.kind == "unexplained":
                rivals = self.turn_state.held_rivals  # held on a board that could not stand: the nearest legal plays
        if rivals:
            dancing = [c for c in rivals if len(c.legal.result.legal_plays(dice)) == 0]  # type: ignore[union-attr]
            pick = dancing[0] if len(dancing) == 1 else rivals[0]
            if len(dancing) != 1:
                self.turn_state.guessed_points(rivals)  # no board will settle it: those counts prove nothing
            self.turn_state.last_turn_obs = Observation(pick.vec)
            self.turn_state.last_fault = None
        if self._commit(held_at, held_ev, out):
            self._on_roll(held_at, held_ev, out)
            # The boards seen while that roll waited were its player's: the last one is its play so far.
            later = [(i, o) for i, o in self.turn_state.obs_log if i > held_at]
            if later and self.match_state.phase == "moving" and self.turn_state.model is not None:
                i, obs = later[-1]
                self.turn_state.last_turn_obs = obs
                self._rule_moving(i, obs, out)

    def _set_up_again(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The board was set up for a new game while the last play of this one was unclear.

        The players only reset the board when the game is over, so the play must have borne off the last
        checker: the game-ending play that best fits the last board seen is committed.
        """
        model = self.turn_state.model
        assert model is not None
        if self.turn_state.last_turn_obs is None or not _shows_start(obs) or model.explain(obs).kind != "unexplained":
            return False
        enders = [c for c in model.candidates if c.legal is not None and c.legal.result.is_game_over()]
        if not enders:
            return False
        best = min(enders, key=lambda c: observation_cost(self.turn_state.last_turn_obs, c.vec))  # type: ignore[arg-type]
        self.turn_state.last_turn_obs = Observation(best.vec)
        self.turn_state.last_fault = None
        held, self.turn_state.held = self.turn_state.held, None
        self._commit(at, {"event": "board"}, out)
        if held is not None and held[1]["event"] in ("roll", "cube", "resign"):
            getattr(self, "_on_" + held[1]["event"])(held[0], held[1], out)
        return True

    def premature(self, dice: tuple[int, int]) -> bool:
        """With rules.premature_roll == "reject", a roll while the play is visibly unfinished is refused."""
        if self.match_state.rules.get("premature_roll") != "reject" or self.turn_state.model is None or self.turn_state.model.max_dice == 0:
            return False
        if self.turn_state.last_fault is not None:
            return False
        if self.turn_state.last_turn_obs is None:
            return True
        # Judged as at commit time: a finished play under a little camera noise is not unfinished.
        return self.turn_state.model.explain(self.turn_state.last_turn_obs, committing=True).kind in ("nothing", "in_progress")

    def _on_board(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        if not ev["stable"]:
            return  # hands and motion: never ruled on
        obs = variants.hidden_pins(self.match_state.pos, Observation.from_event(ev))  # Plakoto: pins under their pinners
        self.turn_state.see(at, obs)
        if self.turn_state.pending is not None and self.match_state.phase in ("moving", "awaiting_roll", "cube_offered"):
            waiting = self.turn_state.held if self.turn_state.held_on_pending else None
            if self._try_resolve(at, obs, out) and waiting is not None and self.turn_state.held is waiting:
                # The roll waited only for the open play, now decided: it commits the mover's play and goes
                # through, and this board is ruled as its player's.
                self.turn_state.held = None
                self.turn_state.held_on_pending = False
                held_at, ev = waiting
                if self.match_state.phase == "moving" and self._commit(held_at, ev, out) and ev["event"] == "roll":
                    self._on_roll(held_at, ev, out)
        if self.match_state.phase == "moving" and self.turn_state.model is not None:
            if self._set_up_again(at, obs, out) or self._new_setup_seen(at, obs, out):
                return
            if self.turn_state.held is not None and self.turn_state.held[1]["event"] == "roll":
                if self.turn_state.pending is not None and self._pending_held_roll_board(at, obs, out):
                    return
                if self._held_roll_board(at, obs, out):
                    return
            self.turn_state.last_turn_obs = obs
            self._rule_moving(at, obs, out)
            if self.turn_state.held is not None:
                self._retry_held(at, out)
        elif self.match_state.phase in ("awaiting_roll", "cube_offered"):
            self._rule_waiting(at, obs, out)

    def _new_setup_seen(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The board shows the starting position in the middle of a game (and not after the game's last
        play, which _set_up_again settles): say so once, rule on nothing else. True when it was that."""
        if vec_of_position(self.match_state.pos) == START_VEC or not _shows_start(obs):
            return False
        if any(vec_of_position(p) == START_VEC for p in self.match_state.history[-2:]):
            return False  # a play or two into the game the start is the last position: a takeback, said as such
        if self._missed_game_end(at, out):
            return True
        key = ("new_setup", obs.vec)
        if key != self.turn_state.last_key:
            self.turn_state.last_key = key
            self._v(out, at, "illegal", side=self.match_state.turn.value, reason="new_setup_mid_game",
                    message=message("new_setup_mid_game"))
        return True

    def _settle_game_end(self, at: int, out: list[Verdict]) -> None:
        """The new-game button while the mover's last board is unclear between plays, one of which ends the
        game: the players say the game is over, so it is that play (marked guessed), and the game ends."""
        model, obs = self.turn_state.model, self.turn_state.last_turn_obs
        if model is None or obs is None:
            return
        inf = model.explain(obs, committing=True)
        enders = [c for c in (inf.rivals if inf.kind == "uncertain" else []) if c.legal is not None and c.legal.result.is_game_over()]
        if not enders:
            return
        self.turn_state.last_turn_obs = Observation(enders[0].vec)
        self.turn_state.last_fault = None
        first = len(out)
        self._commit(at, {"event": "board"}, out)
        for v in out[first:]:
            if v["verdict"] == "play":
                v["guessed"] = True

    def _missed_game_end(self, at: int, out: list[Verdict]) -> bool:
        """The board is set up again between turns of a game whose end was in doubt: the players only do
        that when the game is over. A resignation waiting for its answer was accepted; a committed play read
        from a board that a game-ending play of the same roll fitted nearly as well was that play. The game
        is closed as the record supports and the next one can start. True when that happened."""
        ms = self.match_state
        if ms.phase != "awaiting_roll":
            return False
        if ms.resignation is not None:
            side, value = ms.resignation
            ms.resignation = None
            ms.record({"kind": "accept", "side": side.other.value})
            self._game_over(at, side.other, ms.points(value), "resign", out)
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
        self.turn_state.last_turn_obs = Observation(enders[0][2].vec)
        self.turn_state.last_fault = None
        first = len(out)
        self._commit(at, {"event": "board"}, out)
        for v in out[first:]:
            if v["verdict"] == "play":
                v["corrected"] = True
        return True

    def _on_cube(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        self._cube(at, ev["action"], Side(ev["side"]), out)

    def _on_resign(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        side = Side(ev["side"])
        self._release_held_roll_first(out)
        finished = self.turn_state.last_kind == "play" and self.turn_state.last_fault is None
        if self.match_state.phase == "moving" and (side is self.match_state.turn.other or finished):
            # A resignation after a finished play (or before one's own roll) commits that play first (R23).
            if not self._commit(at, ev, out):
                return
        if self.match_state.phase in ("opening", "moving", "awaiting_roll", "cube_offered"):
            self.match_state.resignation = (side, ev["value"])
            self.match_state.record({"kind": "resign", "side": ev["side"], "value": ev["value"]})

    def _on_resign_reply(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        if self.match_state.resignation is None:
            return
        side, value = self.match_state.resignation
        self.match_state.resignation = None
        self.match_state.record({"kind": "accept" if ev["accept"] else "reject", "side": side.other.value})
        if ev["accept"]:
            self._game_over(at, side.other, self.match_state.points(value), "resign", out)

    def _on_button(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        name = ev["name"]
        if name == "ack_cocked":
            self.match_state.awaiting_ack = 0
        elif name == "end_turn":
            self._release_held_roll_first(out)  # a roll waiting on an unclear play: the press is its player's
            if self.match_state.phase == "moving":
                self._commit(at, ev, out)
        elif name == "undo":
            if self.match_state.can_undo():
                self.turn_state.restore(self.match_state.undo())
        elif name == "new_game":
            if self.match_state.phase == "moving":
                self._settle_game_end(at, out)
            if self.match_state.phase == "game_over":
                self._next_game()
            elif self.match_state.phase in ("moving", "awaiting_roll", "cube_offered") and self.match_state.games[-1]["actions"]:
                # The players start again before this game ended (the referee lost track of it, or they
                # gave it up): it stays in the record unfinished, with no points.
                number = self.match_state.abandon_game()
                self.turn_state = TurnState()
                self._v(out, at, "abandoned", number=number,
                        message={"pt": "Jogo deixado inacabado, sem pontos. Novo jogo: lancem para ver quem começa.",
                                 "en": "Game left unfinished, with no points. New game: roll to see who starts."})
        elif name == "double":
            side = self.match_state.turn if self.match_state.phase == "awaiting_roll" else self.match_state.turn.other
            self._cube(at, "double", Side(ev.get("side", side)), out)
        elif name in ("take", "drop"):
            side = self.match_state.cube.offered_by.other if self.match_state.cube.offered_by else self.match_state.turn
            self._cube(at, name, Side(ev.get("side", side)), out)

    # ----- turns --------------------------------------------------------------------------------------------
    def _begin_turn(self, at: int, side: Side, dice: tuple[int, int], out: list[Verdict]) -> None:
        ms, ts = self.match_state, self.turn_state
        ms.begin_roll(side, dice)
        model = ts.begin(ms.pos, dice)
        if ts.pending is not None:
            ts.pending.build_models(ms.pos, ts.model, side, dice)
        else:
            # Not while the previous play is open: the open plays differ exactly where this turn's boards
            # show no change, and reading changes would hide that difference.
            model.baseline = ts.baseline(at)
        ts.reset_reading()
        if ts.pending is not None and any(m is not None and len(m.legal) == 0 for m in ts.pending.models):
            # Rare (a double came between): the roll cannot wait for the boards, take the likeliest play.
            self._try_resolve(at, ts.last_obs or Observation(vec_of_position(ms.pos)), out, force=True)
        self._dance(at, out)

    def _dance(self, at: int, out: list[Verdict]) -> None:
        """R25: no legal play; the turn passes at once, nothing to commit."""
        if self.turn_state.model is None or self.match_state.dice is None or len(self.turn_state.model.legal) != 0:
            return
        side, dice = self.match_state.turn, self.match_state.dice
        self._v(out, at, "play", side=side.value, dice=list(dice), play="", legal=True,
                position_id=self.match_state.pos.position_id(side.other), match_id=self.match_state.match_id(side.other, passed=True))
        self.match_state.record({"kind": "move", "side": side.value, "dice": list(dice), "play": ""})
        self.match_state.moves.append(self.match_state.move_row(side, dice, ""))
        self._pass_turn(self.match_state.pos.with_turn(side.other))

    def _pass_turn(self, new_pos: Position) -> None:
        self.match_state.pass_turn(new_pos)
        self.turn_state.end()

    def _rule_moving(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        assert self.turn_state.model is not None
        inf = self.turn_state.model.explain(obs)
        self.turn_state.last_inf = inf
        self.turn_state.last_vec = obs.vec
        if inf.kind == "unexplained":
            if variants.skipped_link(self, at, obs.vec, out):  # R31: the double and its complement in one board
                self._rule_moving(at, obs, out)
                return
            nearest = inf.best.vec if inf.best is not None else None
            fault = variants.classify_board(self.turn_state.model, obs.vec, [vec_of_position(p) for p in self.match_state.history], nearest)
            self.turn_state.last_fault = fault
            key = ("fault", fault.reason, obs.vec)
            self.turn_state.last_kind = "fault"
            if key != self.turn_state.last_key:
                self.turn_state.last_key = key
                self._fault_verdict(out, at, fault)
            return
        self.turn_state.last_fault = None
        if inf.kind == "uncertain" and getattr(self.turn_state.model, "link", None) == variants.DOUBLE_LINK:
            # R31: a Russian double's four moves standing still are where the player goes on to the complement,
            # as a play stands when committed: a half-played link is the unlikely reading there too.
            firm = self.turn_state.model.explain(obs, committing=True)
            if firm.kind == "play" and self.turn_state.model.goes_on(firm.best):
                inf = self.turn_state.last_inf = firm
        self.turn_state.last_kind = inf.kind
        if self._track_counts(at, obs, inf, out):
            self._rule_moving(at, obs, out)  # the play before this turn was corrected: read the board again
            return
        if inf.kind == "uncertain":
            key: Any = ("uncertain", tuple(sorted(c.vec for c in inf.rivals)))
            if key != self.turn_state.last_key:
                self.turn_state.last_key = key
                self._v(out, at, "uncertain", side=self.match_state.turn.value, dice=list(self.match_state.dice or ()),
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
            self._v(out, at, "in_progress", side=self.match_state.turn.value, dice=list(self.match_state.dice or ()),
                    play=cand_text(inf.best), complete=inf.kind == "play", used=list(inf.best.used))
        if inf.kind == "play" and isinstance(self.turn_state.model, variants.VariantTurnModel) and self.turn_state.model.goes_on(inf.best):
            variants.next_link_begins(self, at, inf.best, out)  # R31: the complementary double follows
            return
        if inf.kind == "play" and inf.best.legal is not None and inf.best.legal.result.is_game_over():
            # The last checker is off: nothing is left to decide, the game ends now.
            self._commit(at, {"event": "board", "ends_game": True}, out)

    def _track_counts(self, at: int, obs: Observation, inf: Inference, out: list[Verdict]) -> bool:
        """A count that stays off on several stable boards is a checker really missing or added, unless
        another reading of the play before this turn explains it (then that play is corrected, and True)."""
        suspects = self.turn_state.count_suspects(obs, inf)
        if suspects and self.match_state.phase == "moving" and self._correct_last_commit(at, obs, inf, out):
            return True
        for i, sign in suspects:
            assert inf.best is not None
            side, where = vec_name(i)
            code = "checker_added" if sign > 0 else "checker_missing"
            params: dict[str, Any] = {"side": side.value, "point": where}
            off = OFF_IDX[side]
            if (code == "checker_missing" and self.match_state.phase == "moving" and side is self.match_state.turn and not obs.derived_off
                    and obs.vec[off] > inf.best.vec[off] and isinstance(where, int)
                    and not self._all_home(inf.best.vec, side)):
                # Gone from the board into the tray while checkers are still outside: borne off too early.
                code = "bear_off_too_early"
                params = {"side": side.value, "point": self.match_state.pos.own_point(side, where),
                          "dice": list(self.match_state.dice or ())}
            self._v(out, at, "illegal", side=side.value, reason=code, message=message(code, **params),
                    point=params["point"])
        return False

    def _correct_last_commit(self, at: int, obs: Observation, inf: Inference, out: list[Verdict]) -> bool:
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
            model = TurnModel(c.legal.result.with_turn(ms.turn), ms.dice)
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
        self._v(out, at, "play", side=mover.value, dice=list(old_model.dice), play=text, legal=True,
                position_id=new.position_id(new.turn), match_id=ms.match_id(new.turn, passed=True), corrected=True)
        return True

    def _all_home(self, vec: Vec, side: Side) -> bool:
        own = own_of_vec(vec, side, type(self.match_state.pos))
        return not any(own[7:26])

    def _rule_waiting(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        """Between turns the board must stay as it is."""
        if self._new_setup_seen(at, obs, out):
            return
        pos_vec = vec_of_position(self.match_state.pos)
        diff = observation_cost(obs, pos_vec)
        if diff > ACCEPT and self._recommit(at, obs, diff, out):
            return
        if diff <= ACCEPT:
            fake = Inference("nothing", _Fixed(pos_vec), float(diff), residual=residual_of(obs, pos_vec))
            self._track_counts(at, obs, fake, out)
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
        self._v(out, at, "illegal", side=self.match_state.turn.value, reason=code, message=message(code, **params),
                **({"point": params["point"]} if "point" in params and code != "takeback" else {}))

    def _recommit(self, at: int, obs: Observation, diff: float, out: list[Verdict]) -> bool:
        """Between turns the board is far from the committed play but is another legal play of the same
        roll: the commit was read from a board the camera misread (a count misread where the plays differ).
        The commit is taken back and that play committed instead, its verdict marked ``corrected``. True
        when that happened."""
        ms = self.match_state
        snap = ms.last_commit()
        model = snap.get("model") if snap else None
        if (ms.phase != "awaiting_roll" or not ms.can_undo() or self.turn_state.pending is not None
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
                self._v(out, at, "unplayed_die", side=model.mover.value, dice=list(model.dice),
                        reason="unplayed_die", message=message("unplayed_die", **params),
                        play=cand_text(part), unplayed=params["unplayed"], late=True)
        self._commit(at, {"event": "board"}, out)
        for v in out[first:]:
            if v["verdict"] == "play":
                v["corrected"] = True
        return True

    # ----- commit (R23) -----------------------------------------------------------------------------------
    def _commit(self, at: int, trigger: dict[str, Any], out: list[Verdict]) -> bool:
        """Commit the mover's play; True when the triggering event may go ahead."""
        self.turn_state.trigger = trigger.get("name") or trigger.get("event")
        if self.turn_state.pending is not None:
            # The play before this one is still open: this commit needs it decided first.
            obs = self.turn_state.last_turn_obs or self.turn_state.last_obs
            # A cube action, a resignation, the end-turn button or the game's last checker borne off does not
            # wait: the evidence so far decides.
            force = trigger.get("event") not in ("roll", "board") or bool(trigger.get("ends_game"))
            if obs is None and force:
                self._resolve(at, 0, out, sure=False)
            decided = (self.turn_state.pending is None
                       or obs is not None and self._try_resolve(at, obs, out, force=force,
                                                                committing=obs is self.turn_state.last_turn_obs))
            if self.match_state.phase != "moving":
                return True  # decided, and the roll it left had no legal play: the turn has passed
            if not decided:
                self.turn_state.held = (at, dict(trigger))
                self.turn_state.held_on_pending = True
                self._v(out, at, "uncertain", side=self.match_state.turn.value, dice=list(self.match_state.dice or ()), committing=True,
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
                self._push_undo()
                record, row = self.match_state.add_move(mover, self.match_state.dice, "")
                self._start_pending(at, mover, self.match_state.dice, hyps, record, row, out)
                self._pass_turn(hyps[0].new_pos)
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
                self._finish_play(at, mover, pick.legal.play.text(), pick.legal.result, True, out, guessed=True)
                return True
        if fault is None and inf is not None and inf.kind == "uncertain":
            self.turn_state.held = (at, dict(trigger))
            self.turn_state.held_on_pending = False
            self.turn_state.held_rivals = [c for c in inf.rivals if c.legal is not None]
            self._v(out, at, "uncertain", side=mover.value, dice=list(self.match_state.dice), committing=True,
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
                self._finish_play(at, mover, "", self.match_state.pos.with_turn(mover.other), True, out)
            else:
                lp = inf.best.legal
                self._finish_play(at, mover, lp.play.text(), lp.result, True, out, guessed=unclear)
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
                self.turn_state.held = (at, dict(trigger))
                self.turn_state.held_on_pending = False
                self.turn_state.held_rivals = self.turn_state.nearest_legal()
            return False
        text = fault.play_text() if fault.moves else ""
        self._finish_play(at, mover, text, new, False, out, reason=fault.reason, by=trigger.get("event"))
        return True

    def _standing_position(self, fault: Fault) -> Position | None:
        """Where the board stands after a flagged play that is let stand (casual mode), if it can."""
        obs = self.turn_state.last_turn_obs
        if fault.reason in ("checker_missing", "checker_added", "takeback", "wrong_side_moved"):
            return None
        if variants.is_variant(self.match_state.pos):
            return None  # a variant's board keeps state the counts do not show (pins, chains): put it right
        if obs is None:
            return self.match_state.pos.with_turn(self.match_state.turn.other)
        if obs.totals() != (15, 15) or any(obs.vec[i] and obs.vec[24 + i] for i in range(24)):
            return None
        return position_of_vec(obs.vec, self.match_state.turn.other, type(self.match_state.pos))

    def _finish_play(self, at: int, mover: Side, text: str, new: Position, legal: bool,
                     out: list[Verdict], reason: str | None = None, by: str | None = None,
                     guessed: bool = False) -> None:
        self._push_undo()
        dice = self.match_state.dice
        assert dice is not None
        self.match_state.add_move(mover, dice, text, **({} if legal else {"illegal": True}))
        extra: dict[str, Any] = {} if legal else {"reason": reason, **({"committed_by": by} if by else {})}
        if guessed:
            extra["guessed"] = True
        self._pass_turn(new)
        self._v(out, at, "play", side=mover.value, dice=list(dice), play=text, legal=legal,
                position_id=new.position_id(new.turn), match_id=self.match_state.match_id(new.turn, passed=True), **extra)
        result = variants.game_result(new) if variants.is_variant(new) else new.result()
        if result is not None:
            winner, mult = result[:2]
            self._game_over(at, winner, self.match_state.points(mult), result[2] if len(result) > 2 else RESULT_NAMES[mult], out)

    def _retry_held(self, at: int, out: list[Verdict]) -> None:
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
        if self._commit(at, ev, out) and ev["event"] in ("roll", "cube", "resign"):
            getattr(self, "_on_" + ev["event"])(held_at, ev, out)
        elif self.turn_state.held is not None:  # held again: the event keeps its own index (the boards after it)
            self.turn_state.held = (held_at, self.turn_state.held[1])

    # ----- undo (both players agree, R23) ---------------------------------------------------------------------
    def _push_undo(self) -> None:
        self.match_state.push_undo(self.turn_state.snapshot())

    # ----- cube (R12, R14, R16-R18) -------------------------------------------------------------------------
    def _cube_fault(self, out: list[Verdict], at: int, side: Side, code: str) -> None:
        owner = self.match_state.cube.owner.value if self.match_state.cube.owner else side.value
        params: dict[str, Any] = {"side": side.value, "owner": owner, "cap": self.match_state.cube.settings.cap or ""}
        self._v(out, at, "illegal", side=side.value, reason=code, message=message(code, **params))

    def _release_held_roll_first(self, out: list[Verdict]) -> None:
        """A roll waits on an unclear play and a double or a resignation comes: the roll was made, so it
        goes through first (from the play after which it has no legal play, if one, R25)."""
        if (self.match_state.phase == "moving" and self.turn_state.held is not None
                and self.turn_state.held[1]["event"] == "roll" and self.turn_state.model is not None):
            self._release_held_roll(out)

    def _cube(self, at: int, action: str, side: Side, out: list[Verdict]) -> None:
        if action == "double":
            self._release_held_roll_first(out)
            if self.match_state.phase == "moving" and side is self.match_state.turn.other:
                if not self._commit(at, {"event": "cube", "action": action, "side": side.value}, out):
                    return
            if self.match_state.phase != "awaiting_roll" or side is not self.match_state.turn:
                self._cube_fault(out, at, side, "cube_after_roll")
                return
            code = self.match_state.double_problem(side)
            if code:
                self._cube_fault(out, at, side, code)
                return
            value = self.match_state.cube.double(side)
            self.match_state.phase = "cube_offered"
            self.match_state.record({"kind": "double", "side": side.value, "value": value})
            self._v(out, at, "cube", action="double", side=side.value, value=value)
            return
        offer = self.match_state.cube.offered_by
        if self.match_state.phase != "cube_offered" or offer is None:
            self._cube_fault(out, at, side, "no_cube_offered")
            return
        if side is offer:
            self._cube_fault(out, at, side.other, "cube_answer_wrong_side")
            return
        if action == "take":
            self.match_state.cube.take(side)
            self.match_state.phase = "awaiting_roll"
            self.match_state.record({"kind": "take", "side": side.value, "value": self.match_state.cube.value})
            self._v(out, at, "cube", action="take", side=side.value, value=self.match_state.cube.value)
        elif action == "drop":
            winner, points = self.match_state.cube.drop(side)
            self.match_state.record({"kind": "drop", "side": side.value})
            self._v(out, at, "cube", action="drop", side=side.value, value=points)
            self._game_over(at, winner, points, "drop", out)
        elif action in ("beaver", "raccoon"):
            allowed = self.match_state.cube.settings.raccoons if action == "raccoon" else self.match_state.cube.settings.beavers
            stage_ok = self.match_state.cube.stage == ("beaver" if action == "raccoon" else "double")
            if not (allowed and stage_ok):
                self._cube_fault(out, at, side, "beaver_not_allowed")
                return
            value = self.match_state.cube.raccoon(side) if action == "raccoon" else self.match_state.cube.beaver(side)
            self.match_state.record({"kind": action, "side": side.value, "value": value})
            self._v(out, at, "cube", action=action, side=side.value, value=value)

    # ----- game and match end -------------------------------------------------------------------------------
    def _game_over(self, at: int, winner: Side, points: int, how: str, out: list[Verdict]) -> None:
        if self.turn_state.pending is not None:
            obs = self.turn_state.last_obs
            if obs is None or not self._try_resolve(at, obs, out):
                self._resolve(at, 0, out, sure=False)  # the game ended first: the likeliest play, marked guessed
        match_over = self.match_state.end_game(winner, points, how)
        self.turn_state.model = None
        self.turn_state.held = None
        self._v(out, at, "game_over", winner=winner.value if winner else None, points=points, how=how)
        if match_over:
            self._v(out, at, "match_over", score=[self.match_state.match.score[Side.LIGHT], self.match_state.match.score[Side.DARK]],
                    winner=winner.value)

    def _start_pending(self, at: int, mover: Side, dice: tuple[int, int], hyps: list[Hypothesis],
                       record: dict[str, Any], row: dict[str, Any], out: list[Verdict]) -> None:
        self.turn_state.pending = Pending(at, mover, dice, hyps, record, row)
        self._v(out, at, "uncertain", side=mover.value, dice=list(dice), committing=True, pending=True,
                candidates=[h.text for h in hyps],
                message={"pt": "Não consigo ver qual destas jogadas foi feita; as próximas imagens do tabuleiro vão "
                               "dizê-lo. O jogo continua.",
                         "en": "I cannot see which of these plays was made; the next views of the board will "
                               "tell. Play on."})

    def _try_resolve(self, at: int, obs: Observation, out: list[Verdict], force: bool = False,
                     committing: bool = False) -> bool:
        """Decide the open play from a board; True when decided. ``committing``: the board is the last
        one before the current mover's own commit, so it shows a finished play (core.referee.inference)."""
        p = self.turn_state.pending
        if p is None:
            return True
        costs, decided, best = p.weigh(obs, self.match_state.phase == "moving", committing)
        if not decided and not force:
            # Rule on this board from the position that explains it best (not yet a verdict on the play).
            here = p.likeliest_here(costs)
            self.match_state.pos = p.hyps[here].new_pos.with_turn(self.match_state.turn)
            model = p.model_of(here)
            if self.match_state.phase == "moving" and model is not None:
                self.turn_state.model = model
            return False
        self._resolve(at, best, out, sure=decided)
        return True

    def _resolve(self, at: int, k: int, out: list[Verdict], sure: bool = True) -> None:
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
        if self.match_state.phase == "moving" and model is not None:
            self.turn_state.model = model
        self.match_state.pos = h.new_pos.with_turn(self.match_state.turn)
        extra: dict[str, Any] = {} if sure else {"guessed": True}
        if not h.legal:
            params = {"dice": list(p.dice), "side": p.mover.value, "unplayed": h.unplayed}
            self._v(out, at, "unplayed_die", side=p.mover.value, dice=list(p.dice), reason="unplayed_die",
                    message=message("unplayed_die", **params), play=h.text, unplayed=h.unplayed)
        self._v(out, at, "play", side=p.mover.value, dice=list(p.dice), play=h.text, legal=h.legal,
                position_id=h.new_pos.position_id(h.new_pos.turn), match_id=self.match_state.match_id(h.new_pos.turn, passed=True),
                **({} if h.legal else {"reason": "unplayed_die"}), **extra)
        if self.match_state.phase == "moving":
            self._dance(at, out)  # the roll after it may have no legal play in the position now known

    # ----- what the kiosk shows -----------------------------------------------------------------------------
    def public_state(self) -> dict[str, Any]:
        """GET /api/state and the WebSocket pushes (docs/CONTRACTS.md)."""
        # The board as it stands (the referee's reading of this turn's play so far), and as the turn began.
        shown = self.turn_state.shown_pos if self.match_state.phase == "moving" and self.turn_state.shown_pos is not None else self.match_state.pos
        ms = self.match_state
        match_id = ms.match_id()
        state_pos, start_pos = ({**p.to_dict(), "position_id": p.position_id(ms.turn), "match_id": match_id}
                                for p in (shown, ms.pos))
        return {
            "match": ms.public_match(),
            "position": state_pos,
            "position_at_turn_start": start_pos,
            "turn": self.match_state.turn.value,
            "phase": self.match_state.phase,
            "dice": {"values": list(self.match_state.dice) if self.match_state.dice else [],
                     "cocked": [False, False] if not self.match_state.awaiting_ack else [self.match_state.awaiting_ack == 1, self.match_state.awaiting_ack == 2],
                     "used": list(self.turn_state.used)},
            "cube": ms.public_cube(),
            "pips": {s.value: shown.pips(s) for s in Side},
            "verdicts": [dict(v) for v in self.verdicts],
            "moves": [dict(r) for r in self.match_state.moves],
            "resignation": ({"side": self.match_state.resignation[0].value, "value": self.match_state.resignation[1]}
                            if self.match_state.resignation else None),
            **(variants.public(self) if variants.is_variant(ms.pos) else {}),
        }


START_VEC = vec_of_position(Position.start())


def _shows_start(obs: Observation) -> bool:
    """The board is set up at the starting position (within the referee's tolerance)."""
    return observation_cost(obs, START_VEC) <= ACCEPT


def _kind_of(cand: Any) -> str:
    return "play" if cand.legal is not None else "nothing" if cand.kind == "start" else "in_progress"


class _Fixed:
    """A stand-in candidate for the between-turns board check."""

    def __init__(self, vec: Vec) -> None:
        self.vec = vec


__all__ = ["Referee", "position_of_vec", "MatchIdState"]
