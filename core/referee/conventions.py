"""The table's conventions (R19-R22, seed 003): touch-move, a play complete only when the turn ends, a checker
forgotten off the board, checkers moved before the one on the bar entered (issue 36).

Hoyle's conventions (1743) are the real board's, where Gamão lives; each rule set says which apply
(core.referee.rulesets: ``touch_move``, ``forgotten_checker``, ``bar_first``; docs/tournament.md gives the
decision and its sources). A match that names no rule set and sets none of them is refereed exactly as before.

``Referee`` (core.referee.machine) calls this part at two places only: ``claim`` (the ``touch_move`` event, in the
dispatch table) and ``after`` each event, before the tournament part says who each verdict is for. ``after``
reads the verdicts the other parts gave and says them as the conventions do while the turn is open:

- R20: in the tournament sets a fault on a stable board of the open turn is addressed to the mover alone (``to``:
  the mover; the tournament part adds ``to`` and the answer only to faults not yet addressed), and to both players
  and the director when the turn ends. A stable board that is a step of a legal play with a hit (the opposing blot already on the bar, the hitting
  checker not yet landed; or both on the point) is said as ``in_progress``, not as a fault. The turn's state keeps
  the fault, so the play is still judged, complete, when the turn ends (the opponent's roll, the clock's press,
  the end-turn button): a board left so at the turn's end is a fault then. Boards with a hand over them
  (``stable: false``) were never ruled on.
- R21: a checker the count-keeping found off the board (``checker_missing``, ``bear_off_too_early``: borne off by
  mistake, left beside the board after a hit) is said as ``checker_off_board``: where it goes, no penalty; the
  play read and the record are unchanged.
- R22: checkers moved while one waits on the bar, on a board of the open turn: the hint ``bar_first_hint``
  ("Entre primeiro a peça da barra"), for the mover alone; at the turn's end it is the fault it always was.
- R19: an upheld touch-move claim whose point the committed play leaves untouched: ``touch_move_ignored``; a
  checker the camera saw leave a point and come back on a settled board: ``touch_move_seen``, said to the
  opponent (who may claim), never ruled on alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.messages import SIDE_EN, SIDE_PT
from core.referee.faults import Fault
from core.referee.inference import OFF_IDX, Observation, own_of_vec, own_to_vec, vec_of_own
from core.referee.part import Part
from core.referee.state import Phase
from core.referee.verdicts import Verdict, verdict
from core.rules.position import Side

#: The settings a rule set gives the conventions (core.referee.rulesets); absent: today's behaviour.
TOUCH_MOVE_VERDICTS = ("touch_move_upheld", "touch_move_no_penalty", "touch_move_ignored", "touch_move_not_in_rules",
                       "touch_move_not_expected", "touch_move_seen")
HINT_VERDICTS = ("bar_first_hint", "checker_off_board")
COUNT_CALLS = ("checker_missing", "bear_off_too_early")
#: Faults a hit half made can show (the blot lifted first, or both checkers on the point a moment).
#: (The opposing blot on the bar with the mover's checkers as at a step: the wrong side moved; the hitting checker
#: on the point with the blot still there: the hit not made, a die unplayed.)
STEP_FAULTS = ("wrong_side_moved", "unplayed_die")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def from_points(lp: Any) -> set[int]:
    """The points (mover's numbering, 25 the bar) a checker leaves in some way of playing ``lp`` (a legal play)."""
    ways = lp.ways() if hasattr(lp, "ways") else [lp.play]
    return {m.frm for way in ways for m in way.moves}


#: How many plays ``leaves`` asks for all their ways at most (a double's plays can take seconds together).
WAYS_ASKED = 8


def leaves(model: Any, point: int) -> bool:
    """Whether some legal play of the turn moves a checker from ``point`` (the mover's numbering), in some way of
    playing it. Most plays say so by their result (fewer checkers there) or their representative steps; a play
    whose steps only pass over the point (10/4/2 is also 8/2 10/8) is asked for its ways."""
    mover, cls = model.mover, model.cls
    start = own_of_vec(model.start, mover, cls)
    if not start[point]:
        return False
    over = []
    for c in model.candidates:
        if c.legal is None:
            continue
        if own_of_vec(c.vec, mover, cls)[point] < start[point] or any(f == point for f, _, _ in c.steps):
            return True
        if any(f > point > t for f, t, _ in c.steps):
            over.append(c.legal)
    return any(point in from_points(lp) for lp in over[:WAYS_ASKED])


class Conventions(Part):
    """The table's conventions for one match: the touch-move claims of the turn and what the camera saw."""

    def __init__(self, ref: Any) -> None:
        super().__init__(ref)
        self.turn_key: tuple[int, int, str] | None = None
        self.claims: dict[int, str] = {}  # upheld point (mover's numbering) -> the claimant
        self.claim_model: Any = None
        self.left: set[int] = set()  # points a settled board of this turn showed a mover's checker gone from
        self.said: set[int] = set()  # points the opponent was told about (touch_move_seen), once a turn
        self.off_said: set[Any] = set()  # boards with a checker borne off by mistake already said (R21)

    # ----- settings -----------------------------------------------------------------------------------------
    def _rule(self, key: str) -> Any:
        return self.match_state.rules.get(key)

    def _turn(self) -> tuple[int, int, str]:
        ms = self.match_state
        moves = sum(1 for a in ms.games[-1]["actions"] if a.get("kind") == "move") if ms.games else 0
        return (len(ms.games), moves, ms.turn.value)

    def _fresh_turn(self) -> None:
        key = self._turn()
        if key != self.turn_key:
            self.turn_key = key
            self.claims, self.claim_model, self.left, self.said, self.off_said = {}, None, set(), set(), set()

    # ----- R19: the claim ------------------------------------------------------------------------------------
    def claim(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        """The opponent says the mover touched a checker on ``point`` (the mover's numbering)."""
        ms = self.match_state
        by, point = ev["by"], ev["point"]
        mover = ms.turn.value
        if not self._rule("touch_move"):
            verdict(out, at, "touch_move_not_in_rules", side=mover, by=by, point=point,
                    message={"pt": "Nestas regras não vale a peça tocada: quem joga pode tocar as peças e pensar; "
                                   "só a jogada terminada conta.",
                             "en": "Touch-move is not in these rules: the player may touch checkers while thinking; "
                                   "only the finished play counts."})
            return
        model = self.turn_state.model
        if ms.phase != Phase.MOVING or by == mover or model is None:
            verdict(out, at, "touch_move_not_expected", side=mover, by=by, point=point,
                    message={"pt": "Só o adversário pode pedir a peça tocada, enquanto a jogada está sendo feita.",
                             "en": "Only the opponent can claim touch-move, while the play is being made."})
            return
        self._fresh_turn()
        entry = {"by": by, "mover": mover, "point": point, "dice": list(ms.dice or ()), "at": at}
        ms.games[-1].setdefault("touch_moves", []).append(entry)
        possible = leaves(model, point)
        sp, sm = SIDE_PT[mover], SIDE_EN[mover]
        if not possible:
            entry["ruling"] = "no_penalty"
            verdict(out, at, "touch_move_no_penalty", side=mover, by=by, point=point,
                    message={"pt": f"A peça da casa {point} não pode ser jogada com estes dados: sem penalidade, "
                                   f"as {sp} jogam como quiserem.",
                             "en": f"The checker on point {point} cannot be played with these dice: no penalty, "
                                   f"{sm} plays as they like."})
            return
        entry["ruling"] = "upheld"
        self.claims[point] = by
        self.claim_model = model
        verdict(out, at, "touch_move_upheld", side=mover, by=by, point=point,
                message={"pt": f"Peça tocada: as {sp} precisam jogar uma peça da casa {point}.",
                         "en": f"Touch-move: {sm} must play a checker from point {point}."})

    # ----- after every event -----------------------------------------------------------------------------------
    def after(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        if not out and ev.get("event") != "board":
            return
        rules = self.match_state.rules
        if self.claims:
            self._ignored(at, out)
        if ev.get("event") != "board" or not ev.get("stable", True):
            return
        self._fresh_turn()
        said_now: list[Verdict] = []
        for v in out:
            said: Verdict | list[Verdict] | None = None
            if v["verdict"] in ("illegal", "unplayed_die"):
                if v.get("reason") == "bar_first" and rules.get("bar_first") == "hint":
                    said = self._bar_first(v)
                elif v.get("reason") in COUNT_CALLS and rules.get("forgotten_checker") == "hint" and self._count_call(v):
                    said = self._off_board(v)
                elif v.get("reason") == "bear_off_too_early" and rules.get("forgotten_checker") == "hint":
                    said = self._borne_off_by_mistake(at)
                elif v.get("reason") in STEP_FAULTS and rules.get("steps") == "in_progress":
                    said = self._step(v)
                if said is None and (rules.get("steps") == "in_progress" and rules.get("point_out") == "players_director"
                                     and self.match_state.phase == Phase.MOVING
                                     and v.get("side") == self.match_state.turn.value):
                    # R20 in the tournament sets: a fault seen while the turn is open is the mover's to put right;
                    # the opponent and the director get it (with the answer) when the turn ends: the press, the roll.
                    v["to"] = [self.match_state.turn.value]
            if said is None:
                said_now.append(v)
            elif isinstance(said, list):
                said_now.extend(said)
            else:
                said_now.append(said)
        out[:] = said_now
        if rules.get("touch_move"):
            self._seen(at, out)

    def _bar_first(self, v: Verdict) -> Verdict | None:
        if self.match_state.phase != Phase.MOVING:
            return None
        side = str(v.get("side") or self.match_state.turn.value)
        hint = dict(v)
        hint["verdict"] = "bar_first_hint"
        hint["to"] = [side]
        hint["message"] = {"pt": f"As {SIDE_PT[side]} têm uma peça na barra: voltem as peças movidas e entrem com "
                                 "ela primeiro. A jogada ainda não terminou: nada foi anotado.",
                           "en": f"{_cap(SIDE_EN[side])} has a checker on the bar: move the other checkers back and "
                                 "enter it first. The play is not finished: nothing has been recorded."}
        return hint  # type: ignore[return-value]

    def _count_call(self, v: Verdict) -> bool:
        """The count-keeping's call (a board that fits a play with a checker off), not a board's fault."""
        ms, ts = self.match_state, self.turn_state
        if ms.phase == Phase.MOVING:
            fault: Fault | None = ts.last_fault
            return fault is None
        key = ts.last_key
        return not (isinstance(key, tuple) and key and key[0] == "waiting")

    def _off_board(self, v: Verdict) -> Verdict:
        side = str(v.get("side") or "light")
        where = v.get("point")
        sp, se = SIDE_PT[side], SIDE_EN[side]
        if v.get("reason") == "bear_off_too_early":
            own = where  # already the owner's own number
        elif isinstance(where, int):
            own = self.match_state.pos.own_point(Side(side), where)
        else:
            own = where
        if own == "bar":
            msg = {"pt": f"Uma peça das {sp} está fora do tabuleiro: ela foi capturada e vai para a barra. "
                         "Coloque-a lá; sem penalidade.",
                   "en": f"A {se} checker is off the board: it was hit and goes on the bar. Put it there; no penalty."}
        elif isinstance(own, int):
            msg = {"pt": f"Uma peça das {sp} ficou fora do tabuleiro: ela volta para a casa {own} das {sp}. "
                         "Coloque-a lá; sem penalidade.",
                   "en": f"A {se} checker was left off the board: it goes back on {se}'s point {own}. Put it there; "
                         "no penalty."}
        else:
            msg = {"pt": f"Falta uma peça das {sp} no tabuleiro: coloque-a de volta no lugar; sem penalidade.",
                   "en": f"A {se} checker is missing from the board: put it back in its place; no penalty."}
        hint: dict[str, Any] = {"at": v["at"], "verdict": "checker_off_board", "side": side, "point": own,
                                "reason": v.get("reason"), "message": msg}
        return hint  # type: ignore[return-value]

    def _borne_off_by_mistake(self, at: int) -> list[Verdict] | None:
        """A checker borne off too early, on a board that is a legal play (or one on the way) with it put back: it
        is a checker forgotten off the board (R21, the seed's "bearing off by mistake"). The board is read with it
        back on its point, so the play and the record are the legal play's; the screen says where it goes."""
        ms, ts = self.match_state, self.turn_state
        model, obs, fault = ts.model, ts.last_turn_obs, ts.last_fault
        if ms.phase != Phase.MOVING or model is None or obs is None or fault is None or fault.reason != "bear_off_too_early":
            return None
        off = [f for f, t in fault.moves if t == 0]
        if not off:
            return None
        table = own_to_vec(ms.turn, model.cls)
        vec = list(obs.vec)
        for point in off:
            vec[table[point]] += 1
            vec[OFF_IDX[ms.turn]] -= 1
        if min(vec) < 0:
            return None
        fixed = Observation(tuple(vec), obs.dists, obs.derived_off)
        if model.explain(fixed).kind not in ("nothing", "in_progress", "play"):
            return None
        ts.last_key = None
        again: list[Verdict] = []
        self.ref.reading.rule_moving(at, fixed, again)  # the board as it stands with the checker back
        if ts.last_fault is not None:
            return None
        ts.last_turn_obs = fixed
        if obs.vec in self.off_said:
            return []  # said once for this board (the reading is restored all the same)
        self.off_said.add(obs.vec)
        side = ms.turn.value
        sp, se = SIDE_PT[side], SIDE_EN[side]
        points = ", ".join(str(p) for p in off)
        hint: dict[str, Any] = {
                "at": at, "verdict": "checker_off_board", "side": side, "point": off[0], "reason": "bear_off_too_early",
                "message": {"pt": f"Uma peça das {sp} foi retirada por engano (ainda há peças fora do setor interno): ela "
                                  f"volta para a casa {points}. Sem penalidade; a jogada continua.",
                            "en": f"A {se} checker was borne off by mistake (checkers are still outside the home board): "
                                  f"it goes back on point {points}. No penalty; the play goes on."}}
        return [*again, hint]  # type: ignore[list-item]  # the play so far as read, then the hint (on the banner)

    def _step(self, v: Verdict) -> Verdict | None:
        """A board that is a hit half made (R20): said as the play in progress it is."""
        ts, ms = self.turn_state, self.match_state
        model, obs = ts.model, ts.last_turn_obs
        if ms.phase != Phase.MOVING or model is None or obs is None or ts.last_fault is None:
            return None
        found = hit_step(model, obs)
        if found is None:
            return None
        so_far, point = found
        step = dict(v)
        for key in ("reason", "point", "move", "unplayed", "die", "play"):
            step.pop(key, None)
        sp, se = SIDE_PT[ms.turn.value], SIDE_EN[ms.turn.value]
        step.update(verdict="in_progress", complete=False, step="hit", point=point, used=[],
                    **({"play": so_far} if so_far else {}),
                    message={"pt": f"As {sp} estão capturando na casa {point}"
                                   f"{f' (até agora {so_far})' if so_far else ''}: a jogada continua.",
                             "en": f"{_cap(se)} is hitting on point {point}"
                                   f"{f' (so far {so_far})' if so_far else ''}: the play goes on."})
        return step  # type: ignore[return-value]

    def _seen(self, at: int, out: list[Verdict]) -> None:
        """A mover's checker seen leaving a point, then the point as it was on a settled board (R19)."""
        ms, ts = self.match_state, self.turn_state
        inf, model = ts.last_inf, ts.model
        if ms.phase != Phase.MOVING or model is None or inf is None or inf.best is None:
            return
        if inf.kind not in ("nothing", "in_progress", "play") or ts.last_fault is not None:
            return
        start = own_of_vec(model.start, ms.turn, model.cls)
        now = own_of_vec(inf.best.vec, ms.turn, model.cls)
        # A point another checker refilled, or the checker's play went on through, is a play, not a put-back.
        through = {p for f, t, _ in inf.best.steps for p in (f, t)}
        back = {p for p in self.left if now[p] >= start[p]} - through - self.said - set(self.claims)
        self.left |= {p for p in range(1, 25) if now[p] < start[p]}
        other = ms.turn.other.value
        for p in sorted(back):
            self.said.add(p)
            mover = ms.turn.value
            verdict(out, at, "touch_move_seen", side=mover, point=p, to=[other],
                    message={"pt": f"Vi uma peça das {SIDE_PT[mover]} sair da casa {p} e voltar. Se ela foi "
                                   f"tocada, as {SIDE_PT[other]} podem pedir que seja jogada (toquem na casa {p}).",
                             "en": f"I saw a {SIDE_EN[mover]} checker leave point {p} and come back. If it was "
                                   f"touched, {SIDE_EN[other]} may claim it must be played (touch point {p})."})

    def _ignored(self, at: int, out: list[Verdict]) -> None:
        """The turn's committed play against its upheld claims (R19)."""
        model = self.claim_model
        for v in list(out):
            if v["verdict"] != "play" or model is None or v.get("side") != model.mover.value:
                continue
            claims, self.claims, self.claim_model = self.claims, {}, None
            if not v.get("legal"):
                return  # an illegal play is flagged as such already
            played = next((lp for lp in model.legal if lp.result_id() == v.get("position_id")), None)
            moved = from_points(played) if played is not None else set()
            for point, by in sorted(claims.items()):
                if point in moved:
                    continue
                mover = model.mover.value
                self._mark(point)
                said: list[Verdict] = []
                verdict(said, at, "touch_move_ignored", side=mover, by=by, point=point, play=v.get("play", ""),
                        message={"pt": f"Peça tocada não jogada: as {SIDE_PT[mover]} deviam ter jogado uma peça da "
                                       f"casa {point}. A jogada fica registrada com a marca.",
                                 "en": f"Touch-move ignored: {SIDE_EN[mover]} should have played a checker from "
                                       f"point {point}. The play is recorded with the mark."})
                out.append(said[0])  # last: the banner's verdict, after the opponent's roll
            return

    def _mark(self, point: int) -> None:
        ms = self.match_state
        moves = [a for a in ms.games[-1]["actions"] if a.get("kind") == "move"] if ms.games else []
        if moves:
            moves[-1].setdefault("touch_move_ignored", []).append(point)
        for entry in reversed(ms.games[-1].get("touch_moves", []) if ms.games else []):
            if entry.get("point") == point and entry.get("ruling") == "upheld":
                entry["ignored"] = True
                break


def hit_step(model: Any, obs: Observation) -> tuple[str, int] | None:
    """(the play so far, the mover's point being hit) when ``obs`` is a hit half made: an opposing blot already
    on the bar with the hitting checker not yet on its point, or both on the point. None when it is not."""
    mover, other, cls = model.mover, model.mover.other, model.cls
    me = own_of_vec(obs.vec, mover, cls)
    opp = own_of_vec(obs.vec, other, cls)
    cross = cls._cross(mover)  # the mover's point n is the opponent's point cross[n]
    start_opp = own_of_vec(model.start, other, cls)
    # The points a legal play hits: an opposing blot there at the turn's start, gone in some legal result (the
    # candidates are built already; asking each play for all its ways took seconds on a double).
    theirs_at = own_to_vec(other, cls)
    blots = [n for n in range(1, 25) if start_opp[cross[n]] == 1]
    results = [c.vec for c in model.candidates if c.legal is not None]
    hit_at = {n for n in blots if any(vec[theirs_at[cross[n]]] == 0 for vec in results)}
    if not hit_at:
        return None
    mine_of = {cross[n]: n for n in range(1, 25)}  # the opponent's point q is the mover's point mine_of[q]
    tries: list[tuple[list[int], list[int], int]] = []
    # The blot lifted first: put each opposing checker that went to the bar back on a point it left.
    lifted = opp[25] - start_opp[25]
    if lifted > 0:
        gone = [q for q in range(1, 25) if opp[q] < start_opp[q] and mine_of.get(q) in hit_at]
        if gone:
            back = list(opp)
            for q in gone[:lifted]:
                back[q] += 1
                back[25] -= 1
            tries.append((list(me), back, mine_of[gone[0]]))
    # Both on the point: the opposing checker there goes to the bar.
    for n in range(1, 25):
        q = cross[n]
        if me[n] and opp[q] == 1 and n in hit_at:
            moved = list(opp)
            moved[q] -= 1
            moved[25] += 1
            tries.append((list(me), moved, n))
    for mine, theirs, point in tries:
        vec = vec_of_own(mine, theirs, mover, cls)
        cand = model.explain_exact(vec)
        if cand is None:
            inf = model.explain(Observation(vec, {}, obs.derived_off))
            cand = inf.best if inf.kind in ("nothing", "in_progress", "play") else None
        if cand is None:
            continue
        return " ".join(f"{f}/{t}" for f, t, _ in cand.steps), point
    return None


__all__ = ["Conventions", "HINT_VERDICTS", "TOUCH_MOVE_VERDICTS", "from_points", "hit_step"]
