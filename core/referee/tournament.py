"""The referee's tournament part: the clock (core.referee.clock) and the answer to an illegal play.

``Referee`` (core.referee.machine) calls it at four places only: ``before`` each event (time passes: a fallen
flag or a warning), ``after`` each event (whose time runs now), ``on_button`` (the clock's press, and the
per-side end-turn buttons in a timed match) and ``answer`` (an ``illegal_play_answer`` event, in the dispatch
table). It is one of the referee's parts (core.referee.part): it drives the others only through the referee's
named parts (``committer.commit``, ``committer.standing_position``, ``ending.game_over``) and builds its
verdicts with core.referee.verdicts.

Whose time runs follows the referee's state after each event: the side on turn while it rolls and plays, the
side that must answer a double or a resignation while the cube or the resignation waits, nobody before a
game's opening roll or after its end (USBGF Clock Rules 3.3-3.5; Unified Clock Rules 3.3-3.5). The delay
starts afresh whenever the turn changes hands (a committed play, a cube action, a resignation, an undo).

In a timed match a press by the mover commits the play as the end-turn button does; when the play cannot be
committed (unfinished, illegal under a rule set that makes it be corrected, unclear to the camera), the press is
answered at once with ``clock_press_refused`` and the mover's time keeps running.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.messages import SIDE_EN, SIDE_PT
from core.referee.clock import Clock, clock_of
from core.referee.part import Part
from core.referee.rulesets import illegal_play
from core.referee.state import MatchState, Phase
from core.referee.verdicts import Verdict, verdict
from core.rules.position import Side

if TYPE_CHECKING:
    from core.referee.machine import Referee

FAULT_VERDICTS = ("illegal", "unplayed_die")


def _mmss(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


class Tournament(Part):
    """One match's clock and illegal-play answers (None clock: an untimed match)."""

    def __init__(self, ref: Referee, rules: Mapping[str, Any], length: int) -> None:
        super().__init__(ref)
        self.clock: Clock | None = clock_of(rules, length)
        self._marker: tuple[int, int] = (0, 0)

    # ----- the four calls from the referee ------------------------------------------------------------------
    def before(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> bool:
        """Time passes to the event's ``t``. True when a flag fell: the match is over and the event is not
        ruled on (it came after the end)."""
        ms = self.match_state
        self._marker = (len(ms.games), len(ms.games[-1]["actions"]) if ms.games else 0)
        if self.clock is not None:
            fell, warnings = self.clock.advance(ev.get("t"))
            for side, level in warnings:
                left = self.clock.left(side)
                verdict(out, at, "clock_warning", side=side, left=round(left, 3), level=level,
                       message={"pt": f"Relógio: as {SIDE_PT[side]} têm {_mmss(left)} restantes.",
                                "en": f"Clock: {SIDE_EN[side]} has {_mmss(left)} left."})
            if fell is not None:
                self._time_out(at, fell, out)
                return True
        fault = self.turn_state.last_fault
        if (ev.get("event") == "roll" and ms.phase == Phase.MOVING and illegal_play(ms.rules) == "answer"
                and fault is not None and self.ref.committer.standing_position(fault) is not None):
            # US rules: rolling on a flagged illegal play accepts it; it stands (R23) and the roll goes on.
            mover = ms.turn.value
            self._casual_commit(at, dict(ev), out)
            self._accepted(ms, mover, ms.turn.value if ms.turn.value != mover else None,
                           {"side": Side(mover).other.value, "answer": "accept", "by": "roll", "mover": mover,
                            "reason": fault.reason, "dice": list(ms.dice or ()), "at": at})
        return False

    def _time_out(self, at: int, fell: str, out: list[Verdict]) -> None:
        ms = self.match_state
        assert self.clock is not None
        winner = Side(fell).other
        verdict(out, at, "time_out", side=fell, winner=winner.value, flag_at=self.clock.flag_at,
               message={"pt": f"A bandeira caiu: o tempo das {SIDE_PT[fell]} acabou. As {SIDE_PT[winner.value]} "
                              "vencem a partida.",
                        "en": f"Flag fall: {SIDE_EN[fell]} is out of time. {SIDE_EN[winner.value].capitalize()} "
                              "wins the match."})
        if ms.phase != Phase.MATCH_OVER:
            points = max(1, ms.length - ms.match.score[winner]) if ms.length > 0 else ms.cube.value
            ms.resignation = None
            self.ref.ending.game_over(at, winner, points, "time_out", out)
            ms.phase = Phase.MATCH_OVER

    def _casual_commit(self, at: int, trigger: dict[str, Any], out: list[Verdict]) -> None:
        """Commit the mover's play letting a flagged illegal play stand (as casual mode does)."""
        rules = self.match_state.rules
        saved, rules["mode"] = rules.get("mode"), "casual"
        try:
            self.ref.committer.commit(at, trigger, out)
        finally:
            rules["mode"] = saved

    def after(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        """After the event: the fault verdicts say who they are for; whose time runs now."""
        ms = self.match_state
        if ms.rules.get("point_out") == "players_director":
            mode = illegal_play(ms.rules)
            for v in out:
                if v["verdict"] in FAULT_VERDICTS and "to" not in v:  # (addressed already: the mover's, issue 36)
                    v["to"] = ["light", "dark", "director"]
                    if ms.phase == Phase.MOVING and v.get("side") == ms.turn.value and mode != "stands":
                        v["answer_by"] = ms.turn.other.value
                        v["answers"] = ["accept", "correct"] if mode == "answer" else ["correct"]
        if self.clock is None:
            return
        t = ev.get("t")
        target = self._runs()
        marker = (len(ms.games), len(ms.games[-1]["actions"]) if ms.games else 0)
        handed = marker != self._marker or any(v["verdict"] == "opening" for v in out)
        if target != self.clock.running or (handed and target is not None):
            self.clock.switch(target, t)

    def on_button(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> bool:
        """The clock's press (and, in a timed match, a per-side end-turn button): True when handled here."""
        name = ev.get("name")
        if not (name == "clock" or (name == "end_turn" and "side" in ev and self.clock is not None)):
            return False
        ms = self.match_state
        side = ev["side"]
        # A roll waiting on an unclear play came before this press: it goes through first (as for end_turn).
        self.ref.held_roll.release_first(out)
        if ms.phase == Phase.MOVING and side == ms.turn.value:
            # In a timed match a press never lets an unfinished or illegal play stand: it is answered and the
            # mover's time runs on (the opponent's roll or answer may still let an illegal play stand).
            saved = ms.rules.get("mode")
            if self.clock is not None:
                ms.rules["mode"] = "strict"
            first = len(out)
            try:
                self.ref.committer.commit(at, {**ev, "name": "end_turn"}, out)
            finally:
                ms.rules["mode"] = saved
            if ms.phase == Phase.MOVING and ms.turn.value == side and self.clock is not None:
                # Said first, so the fault's own verdict (what is wrong) is the last one, on the banner.
                said = out[first:]
                del out[first:]
                self._refused(at, side, "play_not_done", out)
                out.extend(said)
        elif self.clock is not None and ms.phase == Phase.AWAITING_ROLL and side == ms.turn.value:
            self._refused(at, side, "roll_first", out)
        return True

    def answer(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        """The opponent's answer to a flagged illegal play: ``accept`` (it stands) or ``correct``."""
        ms, ts = self.match_state, self.turn_state
        side, what = ev["side"], ev["answer"]
        mode = illegal_play(ms.rules)
        fault = ts.last_fault
        if ms.phase != Phase.MOVING or side == ms.turn.value or fault is None or mode == "stands":
            verdict(out, at, "answer_not_expected", side=side, answer=what,
                   message={"pt": "Não há jogada ilegal esperando resposta.",
                            "en": "No illegal play is waiting for an answer."})
            return
        mover = ms.turn.value
        entry = {"side": side, "answer": what, "mover": mover, "reason": fault.reason,
                 "dice": list(ms.dice or ()), "at": at}
        ms.games[-1].setdefault("answers", []).append(entry)
        if what == "accept" and mode != "answer":
            entry["refused"] = True
            verdict(out, at, "illegal_play_answer", side=side, answer=what, accepted=False, mover=mover,
                   message={"pt": "Nestas regras uma jogada ilegal não pode ser aceita: as "
                                  f"{SIDE_PT[mover]} precisam corrigi-la.",
                            "en": f"Under these rules an illegal play cannot be accepted: {SIDE_EN[mover]} must "
                                  "put it right."})
            return
        if what == "correct":
            verdict(out, at, "illegal_play_answer", side=side, answer=what, accepted=False, mover=mover,
                   message={"pt": f"As {SIDE_PT[side]} pedem a correção: as {SIDE_PT[mover]} refazem a jogada "
                                  "(o relógio delas continua correndo).",
                            "en": f"{SIDE_EN[side].capitalize()} asks for a correction: {SIDE_EN[mover]} plays "
                                  "again (their clock keeps running)."})
            return
        verdict(out, at, "illegal_play_answer", side=side, answer=what, accepted=True, mover=mover,
               message={"pt": f"As {SIDE_PT[side]} aceitam a jogada ilegal: ela fica feita.",
                        "en": f"{SIDE_EN[side].capitalize()} accepts the illegal play: it stands."})
        self._casual_commit(at, {"event": "illegal_play_answer", "side": side}, out)
        if ms.phase == Phase.MOVING and ms.turn.value == mover:
            entry["refused"] = True  # a board that cannot stand (a checker missing): it must be put right
        else:
            self._accepted(ms, mover, side, None)

    @staticmethod
    def _accepted(ms: MatchState, mover: str, by: str | None, entry: dict[str, Any] | None) -> None:
        """The record says who let the mover's illegal play stand (and, for an accept by rolling, the answer)."""
        if by is None:
            return
        moves = [a for a in ms.games[-1]["actions"] if a.get("kind") == "move" and a.get("side") == mover]
        if moves and moves[-1].get("illegal"):
            moves[-1]["accepted_by"] = by
            if entry is not None:
                ms.games[-1].setdefault("answers", []).append(entry)

    def public(self) -> dict[str, Any] | None:
        return self.clock.public() if self.clock is not None else None

    def next_deadline(self) -> float | None:
        """The event time at which the kiosk should send a ``tick`` (a warning or the flag is due)."""
        return self.clock.next_deadline() if self.clock is not None else None

    # ----- helpers ------------------------------------------------------------------------------------------
    def _runs(self) -> str | None:
        ms = self.match_state
        if ms.phase not in (Phase.MOVING, Phase.AWAITING_ROLL, Phase.CUBE_OFFERED):
            return None
        if ms.resignation is not None:
            return str(ms.resignation[0].other.value)  # the side that must answer it
        if ms.phase == Phase.CUBE_OFFERED and ms.cube.offered_by is not None:
            return str(ms.cube.offered_by.other.value)  # the side that must take or drop
        return str(ms.turn.value)

    def _refused(self, at: int, side: str, why: str, out: list[Verdict]) -> None:
        if why == "roll_first":
            msg = {"pt": f"As {SIDE_PT[side]} ainda não lançaram: lancem e joguem antes de apertar o relógio.",
                   "en": f"{SIDE_EN[side].capitalize()} has not rolled yet: roll and play before pressing the clock."}
        else:
            msg = {"pt": f"A jogada das {SIDE_PT[side]} não está terminada ou não é permitida: o relógio delas "
                         "continua correndo.",
                   "en": f"{SIDE_EN[side].capitalize()}'s play is not finished or not allowed: their clock keeps "
                         "running."}
        verdict(out, at, "clock_press_refused", side=side, reason=why, message=msg)
