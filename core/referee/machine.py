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
  before the boards could decide it.
- ``uncertain``: side, dice, candidates; ``committing`` when it happened at a commit, ``pending`` when
  the game goes on and the following boards will decide.
- ``illegal`` / ``unplayed_die``: side, reason (core.messages.REASONS), point/move/unplayed/die when
  they apply, play (the moves seen).
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

from core.messages import describe, message
from core.referee.events import RULE_DEFAULTS, parse_event
from core.referee.faults import Fault, classify
from core.referee.inference import (
    ACCEPT,
    MARGIN,
    OFF_IDX,
    TALL_ROW,
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
from core.referee.state import RefereeBase
from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side

Verdict = dict[str, Any]
KEEP_VERDICTS = 20
SUSPECT_BOARDS = 4  # a count that stays wrong this many stable boards in a row is a real checker problem


class Referee(RefereeBase):
    """The referee state machine. ``rules`` as in the new_match event (crawford, mode, ...)."""

    def __init__(self, rules: Mapping[str, Any] | None = None, length: int = 0,
                 players: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.index = 0
        self.last_seq: Any = None
        self._start_match(length, dict(players or {"light": "Light", "dark": "Dark"}), {**RULE_DEFAULTS, **(rules or {})})

    # ----- entry point -----------------------------------------------------------------------------------------
    def feed(self, event: Mapping[str, Any]) -> list[Verdict]:
        """Rule on one event. Raises core.referee.events.EventError (a ValueError) for a malformed event."""
        at = self.index
        ev = parse_event(dict(event), at)
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
        self._v(out, at, fault.verdict, side=self.turn.value, dice=list(self.dice) if self.dice else None,
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
        if self.phase == "match_over":
            self._reroll(out, at, "roll_not_expected", why_pt="a partida terminou", why_en="the match is over")
            return
        if self.phase == "cube_offered":
            self._reroll(out, at, "roll_not_expected", why_pt="há um cubo oferecido esperando resposta",
                         why_en="a double is waiting for an answer")
            return
        if self.awaiting_ack:
            self._reroll(out, at, "cocked_die", n=self.awaiting_ack)
            return
        if any(ev["cocked"]):
            n = 1 if ev["cocked"][0] else 2
            self.awaiting_ack = n
            self._reroll(out, at, "cocked_die", n=n, dice=list(dice))
            return
        if self.phase == "moving" and self.held is not None and self.held[1]["event"] == "roll":
            self._release_held_roll(out)
        if self.phase == "moving":
            if self.premature(dice):
                self._reroll(out, at, "roll_out_of_turn", side=self.turn.value, dice_prev=list(self.dice))
                return
            if not self._commit(at, ev, out):
                return
            if self.phase == "match_over":
                return
            # A commit that ended the game (an unclear last bear-off): this is the next game's opening roll.
        if self.phase == "game_over":
            self._next_game()
        if self.phase == "opening":
            if dice[0] == dice[1]:
                self._reroll(out, at, "tied_opening", die=dice[0], dice=list(dice))
                return
            starter = Side.LIGHT if dice[0] > dice[1] else Side.DARK
            self.pos = self.pos.with_turn(starter)
            self._v(out, at, "opening", side=starter.value, dice=list(dice))
            self._begin_turn(at, starter, dice, out)
            return
        if self.phase != "awaiting_roll":
            return
        self._v(out, at, "roll", side=self.turn.value, dice=list(dice))
        self._begin_turn(at, self.turn, dice, out)

    def _held_roll_board(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """A roll waits on an unclear play, and the opponent may already be moving: a board that only
        one of the plays (then that roll) explains settles it. True when this board needs no more ruling."""
        assert self.held is not None and self.model is not None
        mover_inf = self.model.explain(obs, committing=True)
        if mover_inf.kind == "play" or not self.held_rivals:
            return False
        dice = (self.held[1]["dice"][0], self.held[1]["dice"][1])
        costs = [TurnModel(c.legal.result, dice).explain(obs).cost for c in self.held_rivals]
        order = sorted(range(len(costs)), key=lambda k: (costs[k], k))
        best = order[0]
        others = [costs[k] for k in order[1:]] + [mover_inf.cost]
        if costs[best] <= ACCEPT and min(others) - costs[best] >= MARGIN:
            self._take_held_roll(at, obs, self.held_rivals[best].vec, out)
            return True
        # Neither the mover's play nor clearly the opponent's: no verdict while the roll waits.
        return mover_inf.kind == "unexplained"

    def _pending_held_roll_board(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The play before the mover's is still open, so the next roll waits, and its player may already be
        moving: a board that the held roll, played from just one of the open positions (after the mover's
        finished play, or one of the plays the mover's board left unclear), explains settles the open play,
        the mover's play and the roll at once."""
        p = self.pending
        assert p is not None and self.held is not None
        last = self.last_turn_obs
        if last is None or len(p.models) != len(p.hyps) or any(m is None for m in p.models):
            return False
        dice = (self.held[1]["dice"][0], self.held[1]["dice"][1])
        options: list[tuple[float, int, Any]] = []  # (cost of this board, open play k, the mover's play)
        still = math.inf  # the board as the mover's own play (not yet committed) under any open position
        for k, model in enumerate(p.models):
            assert model is not None
            still = min(still, model.explain(obs, committing=True).cost)
            inf = model.explain(last, committing=True)
            plays = inf.rivals if inf.kind == "uncertain" else [inf.best] if inf.kind == "play" else []
            for cand in plays:
                if cand is not None and cand.legal is not None:
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
        assert self.held is not None
        held_at, ev = self.held
        self.held = None
        self.last_fault = None
        if self.phase == "moving":
            self.last_turn_obs = Observation(played)
        if self.phase != "moving" or self._commit(held_at, ev, out):
            self._on_roll(held_at, ev, out)
        if self.phase == "moving" and self.model is not None:
            self.last_turn_obs = obs
            self._rule_moving(at, obs, out)

    def _release_held_roll(self, out: list[Verdict]) -> None:
        """A roll waits on an unclear play and another roll comes: the first roll's turn is over.

        With no board in between, the first roll was not played at all: of the plays the board fitted,
        the one after which that roll has no legal play is the one made (R25); otherwise the likeliest.
        """
        assert self.held is not None and self.model is not None
        held_at, held_ev = self.held
        self.held = None
        dice = (held_ev["dice"][0], held_ev["dice"][1])
        obs = self.last_turn_obs
        rivals = []
        if obs is not None:
            inf = self.model.explain(obs, committing=True)
            rivals = [c for c in (inf.rivals or [inf.best]) if c is not None and c.legal is not None]
            if inf.kind == "unexplained":
                rivals = self.held_rivals  # held on a board that could not stand: the nearest legal plays
        if rivals:
            dancing = [c for c in rivals if len(c.legal.result.legal_plays(dice)) == 0]  # type: ignore[union-attr]
            pick = dancing[0] if len(dancing) == 1 else rivals[0]
            self.last_turn_obs = Observation(pick.vec)
            self.last_fault = None
        if self._commit(held_at, held_ev, out):
            self._on_roll(held_at, held_ev, out)

    def _set_up_again(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The board was set up for a new game while the last play of this one was unclear.

        The players only reset the board when the game is over, so the play must have borne off the last
        checker: the game-ending play that best fits the last board seen is committed.
        """
        model = self.model
        assert model is not None
        if self.last_turn_obs is None or not _shows_start(obs) or model.explain(obs).kind != "unexplained":
            return False
        enders = [c for c in model.candidates if c.legal is not None and c.legal.result.is_game_over()]
        if not enders:
            return False
        best = min(enders, key=lambda c: observation_cost(self.last_turn_obs, c.vec))  # type: ignore[arg-type]
        self.last_turn_obs = Observation(best.vec)
        self.last_fault = None
        held, self.held = self.held, None
        self._commit(at, {"event": "board"}, out)
        if held is not None and held[1]["event"] in ("roll", "cube", "resign"):
            getattr(self, "_on_" + held[1]["event"])(held[0], held[1], out)
        return True

    def premature(self, dice: tuple[int, int]) -> bool:
        """With rules.premature_roll == "reject", a roll while the play is visibly unfinished is refused."""
        if self.rules.get("premature_roll") != "reject" or self.model is None or self.model.max_dice == 0:
            return False
        if self.last_fault is not None:
            return False
        if self.last_turn_obs is None:
            return True
        # Judged as at commit time: a finished play under a little camera noise is not unfinished.
        return self.model.explain(self.last_turn_obs, committing=True).kind in ("nothing", "in_progress")

    def _on_board(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        if not ev["stable"]:
            return  # hands and motion: never ruled on
        obs = Observation.from_event(ev)
        self.last_obs = obs
        self.obs_log.append((at, obs))
        del self.obs_log[:-16]
        if self.pending is not None and self.phase in ("moving", "awaiting_roll", "cube_offered"):
            self._try_resolve(at, obs, out)
        if self.phase == "moving" and self.model is not None:
            if self._set_up_again(at, obs, out) or self._new_setup_seen(at, obs, out):
                return
            if self.held is not None and self.held[1]["event"] == "roll":
                if self.pending is not None and self._pending_held_roll_board(at, obs, out):
                    return
                if self._held_roll_board(at, obs, out):
                    return
            self.last_turn_obs = obs
            self._rule_moving(at, obs, out)
            if self.held is not None:
                self._retry_held(at, out)
        elif self.phase in ("awaiting_roll", "cube_offered"):
            self._rule_waiting(at, obs, out)

    def _new_setup_seen(self, at: int, obs: Observation, out: list[Verdict]) -> bool:
        """The board shows the starting position in the middle of a game (and not after the game's last
        play, which _set_up_again settles): say so once, rule on nothing else. True when it was that."""
        if vec_of_position(self.pos) == START_VEC or not _shows_start(obs):
            return False
        if any(vec_of_position(p) == START_VEC for p in self.history[-2:]):
            return False  # a play or two into the game the start is the last position: a takeback, said as such
        key = ("new_setup", obs.vec)
        if key != self.last_key:
            self.last_key = key
            self._v(out, at, "illegal", side=self.turn.value, reason="new_setup_mid_game",
                    message=message("new_setup_mid_game"))
        return True

    def _on_cube(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        self._cube(at, ev["action"], Side(ev["side"]), out)

    def _on_resign(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        side = Side(ev["side"])
        finished = self.last_kind == "play" and self.last_fault is None
        if self.phase == "moving" and (side is self.turn.other or finished):
            # A resignation after a finished play (or before one's own roll) commits that play first (R23).
            if not self._commit(at, ev, out):
                return
        if self.phase in ("opening", "moving", "awaiting_roll", "cube_offered"):
            self.resignation = (side, ev["value"])
            self._record({"kind": "resign", "side": ev["side"], "value": ev["value"]})

    def _on_resign_reply(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        if self.resignation is None:
            return
        side, value = self.resignation
        self.resignation = None
        self._record({"kind": "accept" if ev["accept"] else "reject", "side": side.other.value})
        if ev["accept"]:
            self._game_over(at, side.other, self._points(value), "resign", out)

    def _on_button(self, at: int, ev: dict[str, Any], out: list[Verdict]) -> None:
        name = ev["name"]
        if name == "ack_cocked":
            self.awaiting_ack = 0
        elif name == "end_turn":
            if self.phase == "moving":
                self._commit(at, ev, out)
        elif name == "undo":
            self._undo()
        elif name == "new_game":
            if self.phase == "game_over":
                self._next_game()
            elif self.phase in ("moving", "awaiting_roll", "cube_offered") and self.games[-1]["actions"]:
                # The players start again before this game ended (the referee lost track of it, or they
                # gave it up): it stays in the record unfinished, with no points.
                self.games[-1]["abandoned"] = True
                self._v(out, at, "abandoned", number=self.games[-1]["number"],
                        message={"pt": "Jogo deixado inacabado, sem pontos. Novo jogo: lancem para ver quem começa.",
                                 "en": "Game left unfinished, with no points. New game: roll to see who starts."})
                self.match.game_number += 1
                self._next_game()
        elif name == "double":
            side = self.turn if self.phase == "awaiting_roll" else self.turn.other
            self._cube(at, "double", Side(ev.get("side", side)), out)
        elif name in ("take", "drop"):
            side = self.cube.offered_by.other if self.cube.offered_by else self.turn
            self._cube(at, name, Side(ev.get("side", side)), out)

    # ----- turns --------------------------------------------------------------------------------------------
    def _begin_turn(self, at: int, side: Side, dice: tuple[int, int], out: list[Verdict]) -> None:
        self.turn = side
        self.pos = self.pos.with_turn(side)
        self.dice = dice
        self.rolls[side] += 1
        self.model = TurnModel(self.pos, dice)
        self.phase = "moving"
        if self.pending is not None:
            self._pending_models(side, dice)
        else:
            # Not while the previous play is open: the open plays differ exactly where this turn's boards
            # show no change, and reading changes would hide that difference.
            self.model.baseline = self._baseline(at)
        self._reset_turn_view()
        if self.pending is not None and any(m is not None and len(m.legal) == 0 for m in self.pending.models):
            # Rare (a double came between): the roll cannot wait for the boards, take the likeliest play.
            self._try_resolve(at, self.last_obs or Observation(vec_of_position(self.pos)), out, force=True)
        self._dance(at, out)

    def _baseline(self, roll_at: int) -> Observation | None:
        """The camera's last board before the roll (event ``roll_at``; a roll held on an unclear play is
        taken up later), if it came from a camera (borne-off counts derived): the turn's boards are also
        read as changes from it."""
        obs = next((o for i, o in reversed(self.obs_log) if i < roll_at), None)
        return obs if obs is not None and obs.derived_off else None

    def _dance(self, at: int, out: list[Verdict]) -> None:
        """R25: no legal play; the turn passes at once, nothing to commit."""
        if self.model is None or self.dice is None or len(self.model.legal) != 0:
            return
        side, dice = self.turn, self.dice
        self._v(out, at, "play", side=side.value, dice=list(dice), play="", legal=True,
                position_id=self.pos.position_id(side.other), match_id=self._match_id(side.other, passed=True))
        self._record({"kind": "move", "side": side.value, "dice": list(dice), "play": ""})
        self.moves.append(self._move_row(side, dice, ""))
        self._pass_turn(self.pos.with_turn(side.other))

    def _reset_turn_view(self) -> None:
        self.last_kind = "nothing"
        self.last_key: Any = None
        self.last_inf: Inference | None = None
        self.last_fault: Fault | None = None
        self.last_vec: Vec | None = None
        self.used: list[int] = []
        # The board as the last confident inference of this turn reads it (None: as at the turn's start).
        self.shown_pos: Position | None = None

    def _pass_turn(self, new_pos: Position) -> None:
        self.history.append(self.pos)
        del self.history[:-8]
        self.pos = new_pos
        self.turn = new_pos.turn
        self.phase = "awaiting_roll"
        self.dice = None
        self.model = None
        self._reset_turn_view()

    def _rule_moving(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        assert self.model is not None
        inf = self.model.explain(obs)
        self.last_inf = inf
        self.last_vec = obs.vec
        if inf.kind == "unexplained":
            nearest = inf.best.vec if inf.best is not None else None
            fault = classify(self.model, obs.vec, [vec_of_position(p) for p in self.history], nearest)
            self.last_fault = fault
            key = ("fault", fault.reason, obs.vec)
            self.last_kind = "fault"
            if key != self.last_key:
                self.last_key = key
                self._fault_verdict(out, at, fault)
            return
        self.last_fault = None
        self.last_kind = inf.kind
        self._track_counts(at, obs, inf, out)
        if inf.kind == "uncertain":
            key: Any = ("uncertain", tuple(sorted(c.vec for c in inf.rivals)))
            if key != self.last_key:
                self.last_key = key
                self._v(out, at, "uncertain", side=self.turn.value, dice=list(self.dice or ()),
                        candidates=[self._cand_text(c) for c in inf.rivals])
            return
        assert inf.best is not None
        self.used = list(inf.best.used)
        # The kiosk draws the board as it stands; built here, once per ruled board, not on every push.
        self.shown_pos = None if inf.kind == "nothing" else position_of_vec(inf.best.vec, self.turn, type(self.pos))
        key = (inf.kind, inf.best.vec)
        if key == self.last_key:
            return
        self.last_key = key
        if inf.kind in ("in_progress", "play"):
            self._v(out, at, "in_progress", side=self.turn.value, dice=list(self.dice or ()),
                    play=self._cand_text(inf.best), complete=inf.kind == "play", used=list(inf.best.used))
        if inf.kind == "play" and inf.best.legal is not None and inf.best.legal.result.is_game_over():
            # The last checker is off: nothing is left to decide, the game ends now.
            self._commit(at, {"event": "board"}, out)

    def _track_counts(self, at: int, obs: Observation, inf: Inference, out: list[Verdict]) -> None:
        """A count that stays off on several stable boards is a checker really missing or added."""
        if inf.best is None:
            return
        now: dict[tuple[int, int], int] = {}
        for i, d in inf.residual.items():
            expected, seen = inf.best.vec[i], obs.vec[i]
            hidden = d == -1 and expected >= 6
            second_layer = obs.derived_off and min(expected, seen) >= TALL_ROW - 1 and max(expected, seen) > TALL_ROW
            if hidden or second_layer:
                continue  # checkers hidden in or on a tall stack: the camera's blind spot, not a fault
            key = (i, 1 if d > 0 else -1)
            now[key] = self.suspects.get(key, 0) + 1
        self.suspects = now
        for (i, sign), n in sorted(now.items()):
            if n == SUSPECT_BOARDS:
                side, where = vec_name(i)
                code = "checker_added" if sign > 0 else "checker_missing"
                params: dict[str, Any] = {"side": side.value, "point": where}
                off = OFF_IDX[side]
                if (code == "checker_missing" and self.phase == "moving" and side is self.turn and not obs.derived_off
                        and obs.vec[off] > inf.best.vec[off] and isinstance(where, int)
                        and not self._all_home(inf.best.vec, side)):
                    # Gone from the board into the tray while checkers are still outside: borne off too early.
                    code = "bear_off_too_early"
                    params = {"side": side.value, "point": self.pos.own_point(side, where),
                              "dice": list(self.dice or ())}
                self._v(out, at, "illegal", side=side.value, reason=code, message=message(code, **params),
                        point=params["point"])

    def _all_home(self, vec: Vec, side: Side) -> bool:
        own = own_of_vec(vec, side, type(self.pos))
        return not any(own[7:26])

    def _rule_waiting(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        """Between turns the board must stay as it is."""
        if self._new_setup_seen(at, obs, out):
            return
        pos_vec = vec_of_position(self.pos)
        diff = observation_cost(obs, pos_vec)
        if diff <= ACCEPT:
            fake = Inference("nothing", _Fixed(pos_vec), float(diff), residual=residual_of(obs, pos_vec))
            self._track_counts(at, obs, fake, out)
            self.last_key = None
            return
        key = ("waiting", obs.vec)
        if key == self.last_key:
            return
        self.last_key = key
        earlier = [vec_of_position(p) for p in self.history]
        totals = obs.totals()
        params: dict[str, Any] = {"side": self.turn.value, "other": self.turn.other.value}
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
        self._v(out, at, "illegal", side=self.turn.value, reason=code, message=message(code, **params),
                **({"point": params["point"]} if "point" in params and code != "takeback" else {}))


START_VEC = vec_of_position(Position.start())


def _shows_start(obs: Observation) -> bool:
    """The board is set up at the starting position (within the referee's tolerance)."""
    return observation_cost(obs, START_VEC) <= ACCEPT


class _Fixed:
    """A stand-in candidate for the between-turns board check."""

    def __init__(self, vec: Vec) -> None:
        self.vec = vec


__all__ = ["Referee", "position_of_vec", "MatchIdState"]
