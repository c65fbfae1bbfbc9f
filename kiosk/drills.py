"""The teacher's table (issue 38): a student's drill session, set up on the real board and graded by what the
camera sees or the student enters.

One session at a time (one board). The room follows the journal's ``board`` events (the camera's readings) to
know the board as it stands; a drill that needs a position on the board first guides the set-up with
``core.rules.setup.setup_moves`` from that board to the target, move by move, until they match; then the drill
starts. Drills:

- ``pips``: a race is set up; the student enters both pip counts on a number pad; timed; graded exactly; the right
  counts and the point-by-point counting method are shown after.
- ``mistake``: a card (one of the student's own plays that lost 0.080 or more) is set up with its dice; the
  student plays on the board; the board the camera sees is matched against the legal plays' results: right when
  it is the best play's result (the coach's best play, stored with the card), wrong otherwise (the card goes back
  to box 1). No engine is needed to grade a card.
- ``opening``: the start (an opening move) or the start after the opponent's opening (a reply, the opponent playing
  GNU Backgammon's best) with a roll for light; the student plays it on the board; the coach's engine ranks the
  roll's plays when the drill starts, and the play the camera sees is called by its size in the coach's words
  (best, good, error, blunder with XG's marks): right when the coach finds nothing wrong (best or good).
- ``bearoff``: a bear-off (both sides in their home boards) and a roll; played on the board and called as an
  opening is (GNU Backgammon's ranking, which reads its bear-off database for such positions).
- ``cube``: a close race is set up; the student enters light's cube decision (double or not) and dark's answer
  (take or drop) on the screen; graded against GNU Backgammon's cube advice at 0 ply (double when it says
  double/take or double/pass; take when taking is worth more to dark than dropping), or Keith's rule without
  the engine; the Keith count and its rule are shown after.
- ``setup``: any position (a Position ID or XGID typed, a recorded match's move): the set-up alone.
"""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from core.coach.drills import (
    CUBE_QUESTIONS,
    bearoff_position,
    grade_pips,
    keith_advice,
    method_text,
    race_position,
)
from core.coach.words import headline, size_of
from core.messages import pt_play, setup_words
from core.referee import Referee
from core.rules.matchid import MatchIdError, decode_match_id
from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side
from core.rules.setup import setup_moves
from core.rules.variants import PlakotoPosition, VariantPosition, position_from_json, variant
from core.rules.xgid import XGID
from kiosk.students import StudentStore, day_of

log = logging.getLogger(__name__)
LESSON_IDLE = 900.0  # seconds: a student who has not drilled for this long is no longer at the board (class view)


#: Games whose start a set-up names (typed in the set-up field, or ``variant``); "portes" is the Greek name of
#: backgammon itself (its start is backgammon's).
GAMES = {"portes": "standard", "gamao": "standard", "gamão": "standard", "plakoto": "plakoto", "plakato": "plakoto",
         "tavli": "plakoto", "russo": "russian", "russian": "russian", "jacquet": "jacquet", "nackgammon": "nackgammon"}


#: A recorded match's play typed in the set-up field: "partida 3, lance 12" or "match 3, move 12".
RECORDED = re.compile(r"^(?:partida|match) (?P<match>[1-9][0-9]{0,15}),? (?:lance|move) (?P<move>[1-9][0-9]{0,5})$",
                      re.IGNORECASE)


def parse_target(text: str, turn: str = "light", game: str | None = None) -> Position:
    """A Position ID (encoded for ``turn``, the side on roll) or an XGID, as typed or pasted; a game's name (its
    start: "plakoto", "russo", "jacquet", "portes", "nackgammon"); or, with ``game``, that game's position as the
    ``gamao plays --position`` JSON (a recorded variant match's position). ValueError saying why not."""
    text = " ".join(str(text).split())
    name = GAMES.get(text.lower()) if text else game
    if name is not None and (not text or text.lower() in GAMES):
        return variant(name).start(Side(turn))
    if game is not None and text.startswith("{"):
        return position_from_json(variant(game), text)
    if text.upper().startswith("XGID="):
        return XGID.from_text(text).position
    return Position.from_position_id(text, turn=Side(turn))


def layout_of(event: dict[str, Any]) -> dict[str, Any] | None:
    """A camera's board event as a layout (24 counts a side, bar, off or None when the camera does not say), or None
    when it is not one (the checks a board of any game passes; the game's own rules are not asked: a board being
    set up is any board)."""
    try:
        light, dark = [int(n) for n in event["light"]], [int(n) for n in event["dark"]]
        bar = {side: int((event.get("bar") or {}).get(side, 0)) for side in ("light", "dark")}
        off = event.get("off")
        off = None if not isinstance(off, dict) else {side: int(off.get(side, 0)) for side in ("light", "dark")}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    counts = {"light": light, "dark": dark}
    if len(light) != 24 or len(dark) != 24 or min(light + dark + list(bar.values())) < 0:
        return None
    for side in ("light", "dark"):
        if sum(counts[side]) + bar[side] + (off[side] if off else 0) > 15 or (off and off[side] < 0):
            return None
    return {"light": light, "dark": dark, "bar": bar, "off": off}


def board_as(layout: dict[str, Any], target: Position) -> Position:
    """The camera's board as a position of the target's game, for the set-up's plan: the target's own numbering
    (each game has its routes), checkers the camera does not see off the board (borne off, or waiting to enter in
    Russian backgammon), and in Plakoto the pins: two colours on a point are a pin (the lone checker under), and a
    checker the target pins that is missing from the board is taken to be under the pinner the camera sees on its
    point (a pinned checker cannot be seen: R30)."""
    light, dark, bar = list(layout["light"]), list(layout["dark"]), layout["bar"]
    counts = {Side.LIGHT: light, Side.DARK: dark}
    pins: dict[int, Side] = {}
    if isinstance(target, PlakotoPosition):
        wanted = {int(q["point"]): Side(q["side"]) for q in target.to_dict().get("pinned") or []}  # type: ignore[union-attr]
        for q in range(1, 25):
            here = [side for side in Side if counts[side][q - 1]]
            if len(here) == 2:
                lone = [side for side in here if counts[side][q - 1] == 1]
                if lone:
                    pins[q] = wanted[q] if wanted.get(q) in lone else lone[0]
        for side in Side:
            off = layout["off"][side.value] if layout["off"] else target.own(side)[OFF]
            room = 15 - sum(counts[side]) - bar[side.value] - off
            for q, pinned in sorted(wanted.items()):
                if pinned is side and room > 0 and not counts[side][q - 1] and counts[side.other][q - 1]:
                    counts[side][q - 1] = 1
                    pins[q] = side
                    room -= 1
    rel = []
    for side in Side:
        own = [0] * 26
        for phys, n in enumerate(counts[side], start=1):
            own[target.own_point(side, phys)] += n
        own[BAR] = bar[side.value]
        own[OFF] = 15 - sum(own)
        rel.append(tuple(own))
    if isinstance(target, PlakotoPosition):
        extra = tuple(frozenset(target.own_point(side, q) for q, s in pins.items() if s is side) for side in Side)
        return PlakotoPosition((rel[0], rel[1]), target.turn, extra, target.settings)
    if isinstance(target, VariantPosition):
        return type(target)((rel[0], rel[1]), target.turn, None, target.settings)
    return type(target)((rel[0], rel[1]), target.turn)


def cube_of(match_id: str | None) -> dict[str, Any] | None:
    """The cube and score a cube card's decision was made at (its Match ID): ``{"value", "owner": "light"|"dark"|None,
    "score": {"light", "dark"}, "length"}`` (length 0: money); None without one."""
    if not match_id:
        return None
    try:
        st = decode_match_id(match_id)
    except MatchIdError:
        return None
    owner = None if st.cube_owner is None else ("light" if st.cube_owner == 0 else "dark")
    return {"value": st.cube, "owner": owner, "score": {"light": st.score[0], "dark": st.score[1]},
            "length": st.match_length}


class DrillRoom:
    def __init__(self, store: StudentStore, clock: Callable[[], float] = time.time, seed: int | None = None,
                 coach: Any = None) -> None:
        self.store = store
        self.coach = coach  # kiosk.coach.CoachService: its engines rank an opening drill's plays
        self.service: Any = None  # the referee service (follow): its journal has the recorded matches
        self._undivert: Callable[[], None] | None = None
        self.clock = clock
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        self.seen: Position | None = None  # the board as the camera last read it
        self.layout: dict[str, Any] | None = None  # the same as a layout (any game's board: layout_of)
        self.session: dict[str, Any] | None = None
        self._last: tuple[int, float] | None = None  # (student, when) of the last drill started or answered
        self._listeners: list[Callable[[], object]] = []

    # ----- the club's class view (club/publisher.py sends it in the board's signed state) ------------------------
    def on_change(self, listener: Callable[[], object]) -> None:
        """``listener()`` when the lesson changes (a drill starts, moves on a stage, is answered or stopped). It must
        return at once: it may be called with the room's lock held."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:  # a listener never stops a drill
                log.exception("a lesson listener failed")

    def lesson(self) -> dict[str, Any] | None:
        """What the club's director shows of this board's lesson (docs/CONTRACTS.md, the class view): the student,
        the drill and its stage, and the student's answers today (done, right) and cards due; None when no student
        has drilled here for LESSON_IDLE seconds. Between two drills, ``kind`` is None and ``stage`` "menu"."""
        now = self.clock()
        with self._lock:
            s = self.session
            last = self._last
            if s is not None:
                sid, kind, stage = int(s["student"]), str(s["kind"]), str(s["stage"])
            elif last is not None and now - last[1] < LESSON_IDLE:
                sid, kind, stage = last[0], None, "menu"
            else:
                return None
        try:
            name = self.store.student(sid)["name"]
        except KeyError:  # deleted meanwhile
            return None
        done, right = self.store.answered_on(sid, day_of(now))
        return {"student": name, "kind": kind, "stage": stage, "done": done, "right": right,
                "due": len(self.store.due_cards(sid, day_of(now)))}

    # ----- the camera ----------------------------------------------------------------------------------------
    def follow(self, service: Any) -> None:
        """Read the camera's boards from the service's journal (kiosk.service.RefereeService.on_journaled)."""
        self.service = service
        if hasattr(service, "on_journaled"):
            service.on_journaled(lambda match, _seq, event, _verdicts: self.journaled(match, event))
        if hasattr(service, "divert"):  # a drill's boards never reach the match's referee
            self._undivert = service.divert(self.takes)

    def unfollow(self) -> None:
        """Stop taking the camera's boards (the app's end)."""
        undo, self._undivert = self._undivert, None
        if undo is not None:
            undo()

    def takes(self, event: dict[str, Any]) -> bool:
        """While a drill runs, the camera's boards are the lesson's: taken here, before the journal, so the current
        match's referee (and its journal, and the club's director) never rule on a set-up or a drill's play. A roll
        or a new match ends the drill (a game is on, journaled below)."""
        with self._lock:
            running = self.session is not None
        if running:
            self.board(event)
        return running

    def journaled(self, match: int, event: dict[str, Any]) -> None:
        """A board goes to the set-up; a new match whose player is named as a student becomes that student's; a roll
        or a new match ends a drill (the board is a game's again)."""
        if event.get("event") in ("roll", "new_match") and self.session is not None:
            self.stop()
        if event.get("event") == "new_match":
            players = event.get("players") or {}
            for side in ("light", "dark"):
                sid = self.store.by_name(players.get(side))
                if sid is not None:
                    self.store.record_match(sid, str(match), side, [], at=self.clock())
            return
        self.board(event)

    def board(self, event: dict[str, Any]) -> None:
        if event.get("event") != "board" or event.get("stable") is False:
            return
        layout = layout_of(event)
        if layout is None:
            return  # not a board (a hand on it): keep the last
        try:
            pos: Position | None = Position.from_physical(event["light"], event["dark"], event.get("bar"),
                                                          event.get("off"))
        except (KeyError, ValueError, TypeError):
            pos = None  # a board no backgammon position has (a Plakoto pin: two colours on a point)
        with self._lock:
            self.layout = layout
            if pos is not None:
                self.seen = pos
            s = self.session
            if s is not None and s["stage"] == "setup":
                self._check_setup(s)
            elif s is not None and s["stage"] == "play" and pos is not None:
                self._played(s, pos)

    def _seen_as(self, target: Position) -> Position | None:
        """The board as the camera last read it, as a position of the target's game (None before any)."""
        if type(target) is Position:
            return self.seen
        return board_as(self.layout, target) if self.layout is not None else None

    # ----- sessions ------------------------------------------------------------------------------------------
    def start(self, student: int, kind: str, target: str | None = None, card: int | None = None,
              turn: str = "light", game: str | None = None, match: int | None = None,
              move: int | None = None) -> dict[str, Any]:
        self.store.student(student)
        now = self.clock()
        s: dict[str, Any] = {"student": student, "kind": kind, "started": now, "stage": "setup", "result": None}
        if kind == "pips":
            pos = race_position(self.rng)
            s.update(target=pos, dice=None)
        elif kind == "mistake":
            due = self.store.due_cards(student, day_of(now))
            chosen = next((c for c in due if card is None or c["id"] == card), None)
            if chosen is None:
                raise LookupError("no card is due today")
            if chosen.get("kind") == "cube":  # a cube decision: set up, then answered on the screen
                question = CUBE_QUESTIONS[chosen["played"]]
                doubler = Side(chosen["side"]) if question == "double" else Side(chosen["side"]).other
                pos = Position.from_position_id(chosen["position_id"], turn=doubler)
                s.update(target=pos, dice=None, card=chosen, question=question, cube=cube_of(chosen["match_id"]))
            else:
                pos = Position.from_position_id(chosen["position_id"], turn=Side(chosen["side"]))
                s.update(target=pos, dice=tuple(int(d) for d in chosen["dice"]), card=chosen)
        elif kind == "opening":
            s.update(self._opening())
        elif kind == "bearoff":
            pos = bearoff_position(self.rng)
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            s.update(target=pos, dice=dice, ranked=self._rank(pos, dice), reply=None)
        elif kind == "cube":
            s.update(target=self._close_race(), dice=None)
        elif kind == "setup" and (match is not None or RECORDED.match(" ".join(str(target or "").split()))):
            if match is None:  # typed: "partida 3, lance 12" / "match 3, move 12"
                found = RECORDED.match(" ".join(str(target).split()))
                assert found is not None
                match, move = int(found["match"]), int(found["move"])
            s.update(target=self.recorded(match, move or 1), dice=None)
        elif kind == "setup":
            s.update(target=parse_target(target or "", turn, game), dice=None)
        else:
            raise ValueError(f"kind: one of pips, mistake, opening, bearoff, cube, setup (not {kind!r})")
        with self._lock:
            self.session = s
            self._last = (student, now)
            self._check_setup(s)
        self._changed()
        return self.view()

    def recorded(self, match: int, move: int) -> Position:
        """The position before the ``move``-th play (1 = the first) of a match in the journal, of any game (its
        events replayed by a fresh referee); LookupError when the journal has no such match or play."""
        journal = getattr(self.service, "journal", None)
        if journal is None:
            raise LookupError("no journal to read a recorded match from")
        ref = Referee()
        before: Position | None = None
        played = 0
        try:
            events = list(journal.events(match))
        except (KeyError, ValueError):
            events = []
        for event in events:
            try:
                ref.feed(event)
            except Exception:  # a referee bug on one event: the board's journal goes on, so does the replay
                log.exception("replaying match %s for a set-up", match)
            played = len(ref.match_state.moves)
            if played == move - 1:
                before = ref.match_state.pos
            elif played >= move:
                break
        if before is None or played < move:
            raise LookupError(f"match {match} has no play {move} in the journal")
        return before

    def stop(self) -> None:
        with self._lock:
            if self.session is not None:
                self._last = (int(self.session["student"]), self.clock())
            self.session = None
        self._changed()

    def _check_setup(self, s: dict[str, Any]) -> None:
        seen = self._seen_as(s["target"])
        if s["stage"] != "setup" or seen is None:
            return
        if setup_moves(seen, s["target"]).done:
            s["stage"] = ("answer" if s["kind"] in ("pips", "cube") or s.get("question") else
                          "done" if s["kind"] == "setup" else "play")
            s["ready_at"] = self.clock()
            self._changed()
            if s["kind"] == "setup":
                self.store.answer(s["student"], "setup", True, s["ready_at"] - s["started"],
                                  {"position_id": s["target"].position_id(Side.LIGHT)}, at=s["ready_at"])

    def view(self) -> dict[str, Any]:
        """What the page shows: the target, the set-up still to do (in words), the stage and the result."""
        with self._lock:
            s = self.session
            if s is None:
                return {"session": None}
            self._check_setup(s)
            target: Position = s["target"]
            seen = self._seen_as(target)
            plan = setup_moves(seen, target) if seen is not None else None
            out: dict[str, Any] = {
                "kind": s["kind"], "stage": s["stage"], "student": s["student"],
                "target": {"position_id": target.position_id(Side.LIGHT), "board": target.to_dict(),
                           "turn": target.turn.value},
                "seen": seen.to_dict() if seen is not None else None,
                "game": getattr(target, "variant", "standard"),  # the target's game (its numbering, its pins)
                "setup": None if plan is None else {
                    "checkers_moved": plan.checkers_moved,
                    "moves": [m.as_json() | {"words": setup_words(m.as_json())} for m in plan.moves]},
                "dice": list(s["dice"]) if s.get("dice") else None,
                "reply": s.get("reply"),  # an opening reply: the opponent's roll and play ("31 8/5 6/5")
                # a cube card: "double" (the student is on roll) or "take" (the student answers a double), and the
                # cube and score of that moment in the match (or None)
                "question": s.get("question"), "side": s["card"]["side"] if s.get("card") else None,
                "cube": s.get("cube"),
                "result": s["result"],
            }
            return {"session": out}

    # ----- answers -------------------------------------------------------------------------------------------
    def _answered(self, s: dict[str, Any], now: float) -> None:
        self._last = (int(s["student"]), now)
        self._changed()

    def _waiting(self, kind: str, what: str) -> dict[str, Any]:
        """The session waiting for the student's answer of this kind (the lock held); LookupError when none is."""
        s = self.session
        if s is not None:
            self._check_setup(s)
        if s is None or s["kind"] != kind or s["stage"] != "answer":
            raise LookupError(f"no {what} is waiting for an answer")
        return s

    def answer_pips(self, light: int, dark: int) -> dict[str, Any]:
        with self._lock:
            s = self._waiting("pips", "pip count")
            now = self.clock()
            graded = grade_pips(s["target"], light, dark)
            graded["seconds"] = round(now - s["ready_at"], 1)
            graded["method_text"] = {k: method_text(v) for k, v in graded["method"].items()}
            graded["keith"] = keith_advice(s["target"], Side.LIGHT)
            s["result"] = graded
            s["stage"] = "done"
        self.store.answer(s["student"], "pips", graded["right"], graded["seconds"],
                          {"position_id": s["target"].position_id(Side.LIGHT), "given": graded["given"],
                           "counts": graded["counts"]}, at=now)
        self._answered(s, now)
        return self.view()

    def answer_decision(self, answer: str) -> dict[str, Any]:
        """The student's answer to a cube card (double / no_double to "double", take / pass to "take"): right when
        it is the card's best (GNU Backgammon's, from the match's review); the card moves on its Leitner schedule."""
        with self._lock:
            s = self._waiting("mistake", "cube decision")
            question = s.get("question")
            if question is None or CUBE_QUESTIONS.get(answer) != question:
                raise ValueError(f"answer: {'double or no_double' if question == 'double' else 'take or pass'}")
            card = s["card"]
            now = self.clock()
            right = answer == card["best"]
            updated = self.store.answer_card(card["id"], right, now, round(now - s["ready_at"], 1), answer)
            s["stage"] = "done"
            s["result"] = {"right": right, "played": answer, "best": card["best"], "was": card["played"],
                           "loss": card["loss"], "box": updated["box"], "due": updated["due"],
                           "learnt": bool(updated["learnt"]), "side": card["side"], "question": question}
            self._answered(s, now)
        return self.view()

    def _rank(self, pos: Position, dice: tuple[int, int]) -> list[Any]:
        engines = getattr(self.coach, "engines", None)
        ranked = engines.rank(pos.position_id(pos.turn), dice, None, 0, 30.0) if engines is not None else None
        if not ranked:
            raise RuntimeError("the coach's engine (GNU Backgammon) is not running: openings need it")
        return list(ranked)

    def _opening(self) -> dict[str, Any]:
        """An opening move (light's first roll, never a double) or a reply (dark has played its best opening)."""
        pos = Position.start(Side.LIGHT)
        reply = self.rng.random() < 0.5
        if reply:
            first = self.rng.choice([(a, b) for a in range(1, 7) for b in range(1, a)])
            dark = Position.start(Side.DARK)
            best = self._rank(dark, first)[0]
            pos = dark.play(first, best.play).with_turn(Side.LIGHT)
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        else:
            dice = self.rng.choice([(a, b) for a in range(1, 7) for b in range(1, a)])
        return {"target": pos, "dice": dice, "ranked": self._rank(pos, dice),
                "reply": f"{first[0]}{first[1]} {best.play}" if reply else None}

    def _close_race(self) -> Position:
        """A race near the doubling window: Keith's lead (light's count + 1/7 - dark's) between -1 and 7."""
        for _ in range(500):
            pos = race_position(self.rng)
            if -1 <= keith_advice(pos, Side.LIGHT)["lead"] <= 7:
                return pos
        return pos

    def answer_cube(self, double: bool, take: bool) -> dict[str, Any]:
        with self._lock:
            s = self._waiting("cube", "cube decision")
            target: Position = s["target"]
            s["stage"] = "grading"
        keith = keith_advice(target, Side.LIGHT)
        truth = {"double": keith["double"], "take": keith["take"]}
        by, action = "keith", None
        engine = getattr(getattr(self.coach, "engines", None), "main", lambda: None)()
        if engine is not None:
            try:
                advice = engine.cube_advice(target.position_id(Side.LIGHT), None, plies=0, timeout=30.0)
            except Exception:  # the engine failed: Keith's rule grades, and says so
                advice = None
            if advice is not None:
                eq = advice.equities
                truth = {"double": advice.action in ("double_take", "double_pass"),
                         "take": eq.get("double_take", 0.0) <= eq.get("double_pass", 1.0)}
                by, action = "gnubg", advice.action
        now = self.clock()
        given = {"double": bool(double), "take": bool(take)}
        result = {"right": given == truth, "given": given, "truth": truth, "by": by, "action": action,
                  "keith": keith, "seconds": round(now - s["ready_at"], 1)}
        with self._lock:
            s["result"] = result
            s["stage"] = "done"
        self.store.answer(s["student"], "cube", result["right"], result["seconds"],
                          {"position_id": target.position_id(Side.LIGHT), "given": given, "truth": truth, "by": by},
                          at=now)
        self._answered(s, now)
        return self.view()

    def _played(self, s: dict[str, Any], pos: Position) -> None:
        """A board while the student's play is awaited: graded once it is one of the roll's results."""
        if s["kind"] in ("opening", "bearoff"):
            self._opening_played(s, pos)
            return
        target: Position = s["target"]
        card = s["card"]
        side = Side(card["side"])
        if pos == target.with_turn(Side.LIGHT) or setup_moves(target, pos).done:
            return  # not played yet
        results = {}
        for legal in target.legal_plays(s["dice"]):
            results[legal.result.with_turn(Side.LIGHT)] = legal
        seen = pos.with_turn(Side.LIGHT)
        if seen not in results:
            return  # a play in progress (or a checker misread): wait for a board that is a whole play
        best = target.play(s["dice"], card["best"]).with_turn(Side.LIGHT)
        right = seen == best
        now = self.clock()
        played = results[seen].text()
        updated = self.store.answer_card(card["id"], right, now, round(now - s["ready_at"], 1), played)
        s["stage"] = "done"
        s["result"] = {"right": right, "played": played, "best": card["best"], "was": card["played"],
                       "loss": card["loss"], "box": updated["box"], "due": updated["due"],
                       "learnt": bool(updated["learnt"]), "side": side.value}
        self._answered(s, now)

    def _opening_played(self, s: dict[str, Any], pos: Position) -> None:
        target: Position = s["target"]
        seen = pos.with_turn(Side.LIGHT)
        if setup_moves(target, seen).done:
            return
        ranked = {Position.from_position_id(r.result, turn=Side.LIGHT).with_turn(Side.LIGHT): r for r in s["ranked"]}
        if seen not in ranked:
            return  # a play in progress, or a hit not yet finished: wait for a whole play
        mine = ranked[seen]
        best = s["ranked"][0]
        size = size_of(mine.loss, "xg", ()) or "good"
        right = size in ("best", "good")
        now = self.clock()
        seconds = round(now - s["ready_at"], 1)
        s["stage"] = "done"
        s["result"] = {"right": right, "played": mine.play, "best": best.play, "size": size,
                       "words": {"pt": headline(pt_play(mine.play), size)["pt"], "en": headline(mine.play, size)["en"]},
                       "best_words": {"pt": pt_play(best.play), "en": best.play},
                       "loss": mine.loss, "reply": s.get("reply")}
        self.store.answer(s["student"], s["kind"], right, seconds,
                          {"position_id": target.position_id(Side.LIGHT), "dice": list(s["dice"]),
                           "played": mine.play, "best": best.play, "size": size}, at=now)
        self._answered(s, now)
