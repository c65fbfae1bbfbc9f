"""The coach service: ranked plays, the tutor's warning, ratings, cube advice and the review, beside the referee.

``CoachService(service)`` subscribes to the referee service's state pushes. The subscriber only appends the
state to an inbox; one worker thread of its own reads the inbox and makes every engine call, so the referee,
the journal and the kiosk never wait on the engine: a slow engine only delays the coach's output, a failing
or missing one leaves it out (legal plays and explanations are still shown, unranked).

What it follows in the referee's states (docs/CONTRACTS.md, "The coach"):
- the turn's start position and dice (``position_at_turn_start``, ``dice``) while a side is moving;
- ``in_progress`` with ``complete: true``: a whole legal play is on the board but not committed (R23): the
  tutor checks its loss against the match's threshold and warns, with the better play drawn; the warning
  goes as soon as the board shows anything else (the checkers put back);
- ``play``: the committed play, rated (label, loss) and explained in plain words (core.coach.explain);
- ``cube`` ``double``: the engine's advice for the double and the answer, in plain words.
Tournament mode (``match.rules.tournament``) switches all of it off; the routes refuse with 403.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from core.coach.cube import cube_sentences, cube_words
from core.coach.explain import explain_play
from core.errors import GamaoError
from core.rules.position import Position, Side
from engine.base import EngineError
from kiosk.coach_engines import CoachEngines, EngineFactory, default_engine
from kiosk.coach_records import PlayRecord, layout, position_of
from kiosk.coach_review import CoachReview
from kiosk.coach_settings import CoachSettings, SettingsStore
from kiosk.coach_words import msg, off_words, plays_view, rating_words, top_plays
from kiosk.subscribers import Subscribers
from kiosk.tutor import Tutor

__all__ = ["CoachRefused", "CoachService", "CoachSettings", "EngineFactory", "default_engine"]
log = logging.getLogger(__name__)
State = dict[str, Any]


class CoachRefused(Exception):
    """The coach cannot answer (tournament mode: 403; nothing to ask about now: 409)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class CoachService:
    """The coach beside a KioskService. ``start()`` subscribes and starts the worker; ``close()`` stops both."""

    def __init__(self, service: Any, engine_factory: EngineFactory | None = default_engine,
                 settings: CoachSettings | None = None, data_dir: Path | None = None, enabled: bool = True) -> None:
        self.service = service
        self.enabled = enabled  # the kiosk's `coach` setting: false switches it off in every match
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self.engines = CoachEngines(engine_factory, self._lock)
        self.tutor = Tutor(self._lock, self.engines, self._board, self.off, self._changed)
        self._settings = SettingsStore(settings, data_dir / "coach.json" if data_dir is not None else None)
        self._inbox: deque[State] = deque()
        self._jobs: dict[str, Any] = {}  # cube / plays / cube_review: only the newest of each matters
        self._ratings: deque[PlayRecord] = deque()
        self._subs: Subscribers[[dict[str, Any]]] = Subscribers(log, "a coach subscriber")
        self._records: dict[str, list[PlayRecord]] = {}
        self._seen: set[tuple[Any, ...]] = set()
        self._turn: dict[str, Any] | None = None  # {side, position_id, match_id, dice}
        self._state: State = {}
        self._version = 0
        self.rating: dict[str, Any] | None = None
        self.cube: dict[str, Any] | None = None
        self.plays: dict[str, Any] | None = None
        self.takeback: dict[str, Any] | None = None  # {"side", "play"}: may be taken back now (settings.takeback)
        self._offer: dict[str, Any] | None = None  # the last committed play, while a takeback could apply
        self.busy = False
        self._stop = False
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.reviews = CoachReview(service, self._wake, self.engines, self.settings_for, self._jobs, self._records,
                                   self._ratings, self._changed)

    # ----- life ------------------------------------------------------------------------------------------------
    def start(self) -> CoachService:
        state = self.service.state()
        with self._lock:
            # What happened before the coach started is history: no warnings or ratings for it.
            self._seen.update(self._verdict_key(v) for v in state.get("verdicts", []))
            self._observe(state, react=False)
        self._unsubscribe = self.service.subscribe(self._on_state)
        self._thread = threading.Thread(target=self._run, name="coach", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._lock:
            self._stop = True
            self._wake.notify_all()
            self.tutor.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.tutor.join()
        self.engines.close()

    def _on_state(self, state: State) -> None:
        """Called by the referee service after every change, on its thread: only queue the state."""
        with self._lock:
            self._inbox.append(state)
            self._wake.notify()

    # ----- settings ---------------------------------------------------------------------------------------------
    def settings_for(self, match: str | None = None) -> CoachSettings:
        with self._lock:
            return self._settings.get(match or self._match())

    def update_settings(self, changes: dict[str, Any], match: str | None = None) -> CoachSettings:
        """Change the current match's settings; ValueError naming what is wrong."""
        with self._lock:
            self._refuse_when_off()
            new = self._settings.update(match or self._match(), changes)
            if new.tutor == "off":
                self.tutor.clear()
            self._changed()
            return new

    # ----- what the page reads ------------------------------------------------------------------------------------
    def _match(self) -> str:
        return str(self._state.get("match", {}).get("id") or "current")

    def _board(self) -> tuple[Any, Any]:
        """The referee's phase and the Position ID on the board (lock held)."""
        return self._state.get("phase"), (self._state.get("position") or {}).get("position_id")

    def tournament(self) -> bool:
        with self._lock:
            return bool(self._state.get("match", {}).get("rules", {}).get("tournament"))

    def variant(self) -> str | None:
        """The seeds' variant being played (Plakoto, Russian, Jacquet), which GNU Backgammon does not know."""
        with self._lock:
            variant = self._state.get("variant")
            return (variant.get("name") if isinstance(variant, dict) else variant) or None

    def off(self) -> bool:
        """The coach is off: switched off in the kiosk's settings, tournament mode, or a variant game."""
        return not self.enabled or self.tournament() or self.variant() is not None

    def off_message(self) -> str:
        return off_words(self.enabled, self.tournament(), self.variant())[0]

    def _refuse_when_off(self) -> None:
        """CoachRefused (403, the reason's words) whenever the coach is off: switched off, a tournament, a variant."""
        if self.off():
            raise CoachRefused(403, self.off_message())

    def engine_info(self) -> dict[str, Any]:
        return self.engines.info()

    def snapshot(self) -> dict[str, Any]:
        """The coach's public state (GET /api/coach, pushed on /ws/coach)."""
        with self._lock:
            if self.off():
                return {"version": self._version, "enabled": False,
                        "message": off_words(self.enabled, self.tournament(), self.variant())[1]}
            return {"version": self._version, "enabled": True, "engine": self.engine_info(),
                    "settings": asdict(self.settings_for()), "busy": self.busy,
                    "wait": self.tutor.judging is not None, "tutor_check": self.tutor.check,
                    "takeback": self.takeback, "tutor": self.tutor.warning, "rating": self.rating, "cube": self.cube,
                    "plays": self.plays}

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        return self._subs.add(callback)

    def _changed(self) -> None:
        self._version += 1
        self._subs.tell(self.snapshot())

    # ----- requests from the page -----------------------------------------------------------------------------------
    def request_plays(self) -> dict[str, Any]:
        """Every legal play of the current roll, unranked at once; the ranking follows from the worker."""
        with self._lock:
            self._catch_up()
            self._refuse_when_off()
            turn = self._turn
            if turn is None or not turn.get("dice"):
                raise CoachRefused(409, "there is no roll to show plays for: roll the dice first")
            side = Side(turn["side"])
            pos = position_of(turn["position_id"], side)
            dice = tuple(turn["dice"])
            cached = self.engines.cached(turn["position_id"], dice, turn["match_id"], self.settings_for().live_plies)
            self.plays = plays_view(pos, dice, cached)
            self._jobs["plays"] = dict(turn)  # ranked (or from the cache) with the top plays' sentences
            self._wake.notify()
            self._changed()
            return self.plays

    def request_takeback(self) -> dict[str, Any]:
        """Take the last play back after the opponent's roll, as both players agreed before the match (the
        ``takeback`` setting, R23's "unless both agree"): the referee's undo; its record keeps what stands."""
        with self._lock:
            self._catch_up()
            self._refuse_when_off()
            offer = self.takeback
            if offer is None:
                raise CoachRefused(409, "there is no play to take back now: only a play the coach warned about or "
                                        "rated an error, while the opponent has only rolled, with the takeback "
                                        "setting on")
        self.service.submit({"event": "button", "name": "undo"})
        with self._lock:
            self._catch_up()
            self.takeback = None
            self._offer = None
            self._changed()
        return {"taken_back": offer}

    def request_cube(self) -> dict[str, Any]:
        """Cube advice for the player on roll before the roll (or the answer while a double is offered)."""
        with self._lock:
            self._catch_up()
            self._refuse_when_off()
            st = self._state
            offered = st.get("cube", {}).get("offered_by")
            if st.get("phase") not in ("awaiting_roll", "cube_offered"):
                raise CoachRefused(409, "cube advice is given before a roll or after a double, not now")
            side = offered or st.get("turn")
            if not side:
                raise CoachRefused(409, "no player is on roll yet")
            start = st.get("position_at_turn_start") or st.get("position") or {}
            self._jobs["cube"] = {"side": side, "position_id": start.get("position_id"),
                                  "match_id": start.get("match_id"), "stage": "offered" if offered else "before"}
            self.cube = {"side": side, "stage": self._jobs["cube"]["stage"], "pending": True}
            self._wake.notify()
            self._changed()
            return self.cube

    def review(self, match: str = "current", game: int | None = None) -> dict[str, Any]:
        """A game's plays with their ratings, and per player the error rate and the counts of labels (kiosk/
        coach_review.py). KeyError: no such match."""
        with self._lock:
            self._catch_up()
            self._refuse_when_off()
            key = self._match() if match == "current" else match
            live = list(self._records.get(key, []))
            current = dict((self._state.get("match") or {}).get("players") or {}) if key == self._match() else None
        return self.reviews.build(key, live, current, game)

    # ----- following the referee -----------------------------------------------------------------------------------
    @staticmethod
    def _verdict_key(v: dict[str, Any]) -> tuple[Any, ...]:
        return (v.get("at"), v.get("verdict"), v.get("side"), v.get("play"), v.get("action"))

    def _observe(self, state: State, react: bool = True) -> None:
        """Bookkeeping for one state (no engine call): queue what the worker must do."""
        was_tournament = self.off()
        self._state = state
        if self.off():
            if not was_tournament:
                self.rating = self.cube = self.plays = None
                self.tutor.clear()
                self._jobs.clear()
                self._changed()
            return
        changed = False
        for v in state.get("verdicts", []):
            key = self._verdict_key(v)
            if key in self._seen:
                continue
            self._seen.add(key)
            if react:
                changed |= self._on_verdict(v, state)
        if len(self._seen) > 5000:  # the state carries the last verdicts only: older keys cannot come back
            self._seen = {self._verdict_key(v) for v in state.get("verdicts", [])}
        phase = state.get("phase")
        start = state.get("position_at_turn_start") or state.get("position") or {}
        dice = (state.get("dice") or {}).get("values") or []
        turn = state.get("turn")
        if phase in ("moving", "awaiting_roll", "cube_offered") and turn and start.get("position_id"):
            new_turn = {"side": turn, "position_id": start["position_id"], "match_id": start.get("match_id"),
                        "dice": list(dice) if phase == "moving" else []}
            if new_turn != self._turn:
                self._turn = new_turn
                if self.plays is not None and (self.plays["position_id"], self.plays["dice"]) != (
                        new_turn["position_id"], new_turn["dice"]):
                    self.plays = None
                    changed = True
                if self.cube is not None and self.cube.get("stage") == "before" and phase == "moving":
                    self.cube = None
                    changed = True
                if phase == "awaiting_roll" and react and self._may_double(state):
                    # The tutor's cube check: said only when the engine says to double.
                    self._jobs["cube"] = {"side": turn, "position_id": start["position_id"],
                                          "match_id": start.get("match_id"), "stage": "before", "auto": True}
                    self._wake.notify()
        if self._offer is not None:
            shown = (state.get("position") or {}).get("position_id")
            if phase not in ("moving", "awaiting_roll") or turn == self._offer["side"] or shown != self._offer["shown"]:
                self._offer = None
                if self.takeback is not None:
                    self.takeback = None
                    changed = True
        # The tutor judges (and warns) only while the board shows the play it is judging.
        changed |= self.tutor.follow(*self._board())
        if changed:
            self._changed()

    def _may_double(self, state: State) -> bool:
        cube, match = state.get("cube") or {}, state.get("match") or {}
        return (self.settings_for().tutor != "off" and not match.get("crawford")
                and cube.get("owner") in (None, state.get("turn")) and not cube.get("offered_by"))

    def _on_verdict(self, v: dict[str, Any], state: State) -> bool:
        kind = v.get("verdict")
        if kind == "in_progress" and v.get("complete") and self.settings_for().tutor != "off" and self._turn:
            shown = (state.get("position") or {}).get("position_id")
            if shown and v.get("side") == self._turn["side"]:
                self.tutor.judge({**self._turn, "dice": list(v.get("dice") or self._turn["dice"]), "shown": shown})
                self._wake.notify()
                return True
            return False
        if kind == "play" and self._turn and v.get("side") == self._turn["side"] and v.get("play"):
            self._commit(v, state)
            return True
        if kind == "cube" and v.get("action") == "double" and self._turn:
            self._jobs["cube"] = {"side": v.get("side"), "position_id": self._turn["position_id"],
                                  "match_id": self._turn["match_id"], "stage": "offered"}
            self.cube = {"side": v.get("side"), "stage": "offered", "pending": True}
            self._wake.notify()
            return True
        return False

    def _commit(self, v: dict[str, Any], state: State) -> None:
        turn = self._turn
        assert turn is not None
        side = Side(v["side"])
        dice = tuple(int(d) for d in v.get("dice") or turn["dice"])
        moves = [m for m in state.get("moves", []) if m.get("side") == side.value]
        row = moves[-1] if moves else {}
        try:
            after = position_of(v["position_id"], side.other)
        except (GamaoError, KeyError, ValueError):
            return
        match = self._match()
        record = PlayRecord(key=f"{match}:{row.get('game', 0)}:{row.get('number', 0)}", match=match,
                            game=int(row.get("game") or state.get("match", {}).get("game") or 0),
                            number=int(row.get("number") or 0), side=side.value, dice=(dice[0], dice[1]),
                            play=str(v.get("play", "")), before=turn["position_id"],
                            after=after.position_id(side), match_id=turn.get("match_id"),
                            legal=bool(v.get("legal", True)))
        if not record.legal:
            record.status = "illegal"
        self._records.setdefault(match, []).append(record)
        warned = self.tutor.committed(record.play)
        # The teaching setting (R23's "unless both agree"): a warned play, or one rated an error, may be taken
        # back while the opponent has only rolled (the board still shows the play).
        self._offer = {"key": record.key, "side": record.side, "play": record.play,
                       "shown": (state.get("position") or {}).get("position_id")}
        self.takeback = ({"side": record.side, "play": record.play}
                         if warned and self.settings_for().takeback else None)
        self.rating = {"key": record.key, "side": record.side, "dice": list(record.dice), "play": record.play,
                       "status": record.status, "label": None, "loss": None}
        if record.legal:
            self._ratings.append(record)
            self._wake.notify()

    def _catch_up(self) -> None:
        """Follow every queued state (bookkeeping only, no engine call). Called with the lock held."""
        while self._inbox:
            try:
                self._observe(self._inbox.popleft())
            except Exception:
                log.exception("the coach could not follow a state")

    # ----- the worker ----------------------------------------------------------------------------------------------------
    def _run(self) -> None:
        self._warm()
        while True:
            with self._lock:
                while (not self._stop and not self._inbox and not self._jobs and not self._ratings
                       and not self.tutor.pending):
                    self._wake.wait()
                if self._stop:
                    return
                self._catch_up()
                judge = self.tutor.take()
                job: tuple[str, Any] | None = ("tutor", judge) if judge is not None else None
                for name in ("cube", "plays", "cube_review"):
                    if job is None and name in self._jobs:
                        job = (name, self._jobs.pop(name))
                if job is None and self._ratings:
                    job = ("rating", self._ratings.popleft())
                if job is None:
                    continue
                self.busy = True
            try:
                getattr(self, f"_do_{job[0]}")(job[1])
            except Exception:
                log.exception("the coach's %s failed", job[0])
            finally:
                with self._lock:
                    self.busy = False

    def _warm(self) -> None:
        """Start the engine now (gnubg loads its nets) so the first board to judge does not wait for it; the
        deeper looks' engine starts on the background thread."""
        with self._lock:
            self.busy = True
        try:
            if self.engines.main() is not None:
                self.engines.thresholds()
                with self._lock:
                    self.tutor.later(self.engines.warm_deep)
        except Exception:  # the first request tries again and reports it
            log.exception("warming the coach's engine failed")
        finally:
            with self._lock:
                self.busy = False

    def _do_tutor(self, job: dict[str, Any]) -> None:
        self.tutor.first_look(job, self.settings_for())

    def _do_cube_review(self, job: dict[str, Any]) -> None:
        self.reviews.rate_cube(job)

    def _do_plays(self, job: dict[str, Any]) -> None:
        settings = self.settings_for()
        dice = (int(job["dice"][0]), int(job["dice"][1]))
        ranked = self.engines.rank(job["position_id"], dice, job["match_id"], settings.live_plies, settings.timeout)
        with self._lock:
            if ranked is None or self.plays is None or self.plays["position_id"] != job["position_id"]:
                if self.plays is not None:
                    self.plays["engine"] = self.engine_info()
                    self._changed()
                return
        pos = position_of(job["position_id"], Side(job["side"]))
        top = top_plays(pos, dice, ranked, settings, self.engines.thresholds()) if ranked else []
        with self._lock:
            if self.plays is None or self.plays["position_id"] != job["position_id"]:
                return
            self.plays = plays_view(pos, dice, ranked, top)
            self._changed()

    def _do_cube(self, job: dict[str, Any]) -> None:
        settings = self.settings_for()
        engine = self.engines.main()
        result: dict[str, Any] = {"side": job["side"], "stage": job["stage"], "pending": False}
        if engine is None or not job.get("position_id"):
            result["message"] = msg("Sem motor de análise: não há conselho de cubo.",
                                     "No engine: no cube advice.")
        else:
            try:
                pid = job["position_id"]
                advice = engine.cube_advice(pid, job.get("match_id"), plies=settings.live_plies,
                                            timeout=settings.timeout)
                result.update(advice.as_json())
                result["message"] = cube_words(advice.action, advice.equities)
                result["numbers"] = cube_sentences(advice.action, advice.equities)
            except (EngineError, ValueError) as exc:
                with self._lock:
                    self.engines.error = str(exc)
                result["message"] = msg("O motor não respondeu a tempo.", "The engine did not answer in time.")
        with self._lock:
            if job.get("auto"):
                still = self._state.get("phase") == "awaiting_roll" and self._state.get("turn") == job["side"]
                if still and result.get("action") in ("double_take", "double_pass") and not self.off():
                    self.cube = {**result, "tutor": True}
                    self._changed()
                return
            if self.cube is not None and not self.off():
                self.cube = result
                self._changed()

    def _do_rating(self, record: PlayRecord) -> None:
        settings = self.settings_for(record.match)
        side = Side(record.side)
        before = position_of(record.before, side)
        ranked = self.engines.rank(record.before, record.dice, record.match_id, settings.live_plies, settings.timeout)
        with self._lock:
            if self.tutor.pending:  # a board to judge came meanwhile: the tutor first, this rating after
                self._ratings.appendleft(record)
                return
        record.choices = len(ranked) if ranked else len(before.legal_plays(record.dice))
        if ranked:
            made = next((rp for rp in ranked if rp.result == record.after), None)
            best = ranked[0]
            if made is not None:
                record.status, record.equity, record.loss, record.label = "rated", made.equity, made.loss, made.label
                record.best, record.best_after = best.play, best.result
        if record.status != "rated":
            record.status = "forced" if record.choices <= 1 else "unranked"
        explain = record.status == "rated" and bool(record.best_after) and record.best_after != record.after
        record.explanation = None
        words = rating_words(record, settings, self.engines.thresholds())
        with self._lock:
            offer = self._offer
            if (settings.takeback and offer is not None and offer["key"] == record.key
                    and words.get("size") in ("error", "blunder")):
                self.takeback = {"side": record.side, "play": record.play}
            if self.rating is not None and self.rating.get("key") == record.key and not self.off():
                self.rating = {**self.rating, **words, "status": record.status, "label": record.label, "loss": record.loss,
                               "equity": record.equity, "best": record.best, "explanation": None,
                               "best_board": layout(position_of(record.best_after, side)) if record.best_after else None}
                self._changed()
            if explain:  # the sentences on the tutor's thread: the worker stays free for the tutor
                self.tutor.later(self._explain, record, before)

    def _explain(self, record: PlayRecord, before: Position) -> None:
        side = Side(record.side)
        assert record.best_after is not None
        why = explain_play(before, record.dice, position_of(record.after, side), position_of(record.best_after, side))
        record.explanation = why.as_json()
        with self._lock:
            if self.rating is not None and self.rating.get("key") == record.key and not self.off():
                self.rating = {**self.rating, "explanation": record.explanation}
                self._changed()

    # ----- for tests and benchmarks ---------------------------------------------------------------------------------------
    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until the worker has nothing left to do (True) or the timeout passes (False)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if (not self._inbox and not self._jobs and not self._ratings and not self.busy
                        and self.tutor.idle()):
                    return True
            time.sleep(0.01)
        return False
