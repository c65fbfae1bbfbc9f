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

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from core.coach.cube import cube_sentences, cube_words
from core.coach.explain import explain_play, gain_words
from core.coach.words import headline, numbers_words, play_words, size_of
from core.errors import GamaoError
from core.match.formats.mat import read_mat
from core.match.replay import replay
from core.rules.position import Position, Side
from engine.analysis import analyse_record
from engine.base import Engine, EngineError, EngineUnavailable, RankedPlay, Thresholds
from kiosk.coach_records import PlayRecord, layout, merge_cube, plays_of, position_of, review_of
from kiosk.subscribers import Subscribers

log = logging.getLogger(__name__)
State = dict[str, Any]
EngineFactory = Callable[[], Engine]
TUTOR_LEVELS = ("off", "very_bad", "bad", "doubtful")
RETRY_ENGINE_AFTER = 60.0
TOP_PLAYS = 5


class CoachRefused(Exception):
    """The coach cannot answer (tournament mode: 403; nothing to ask about now: 409)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


TOURNAMENT = ("the coach is off in tournament mode: no hints, ratings or reviews until the match ends; "
              "start a match without tournament rules to use it")


SWITCHED_OFF = ("the coach is switched off in this kiosk's settings (coach = false in the config file); "
                "set coach = true and restart the kiosk to use it")

# The marks of a play's size. "xg": Galaxy's and eXtreme Gammon's, an error from 0.020 and a blunder from 0.080
# (normalised equity; doubtful is not marked); "gnubg": the installed gnubg's own (doubtful, bad, very bad).
MARKS = ("xg", "gnubg")
XG_MARKS = Thresholds(doubtful=0.020, bad=0.020, very_bad=0.080)


@dataclass(frozen=True)
class CoachSettings:
    """Per match. tutor: which plays get a warning before they are committed (off, very bad only, bad, doubtful).
    live_plies: the engine's depth for ratings and ranked plays while the game is live; the tutor judges at
    live_plies at once (the first verdict), then looks again at tutor_plies within tutor_budget seconds and
    confirms or withdraws its warning. marks: "xg" (0.020 error / 0.080 blunder) or "gnubg" (its own marks).
    takeback: both players agreed before the match that a mistake may be taken back after the roll (R23)."""

    tutor: str = "bad"
    live_plies: int = 0
    tutor_plies: int = 2
    tutor_budget: float = 2.0
    timeout: float = 10.0
    marks: str = "xg"
    takeback: bool = False

    def __post_init__(self) -> None:
        if self.tutor not in TUTOR_LEVELS:
            raise ValueError(f"unknown tutor setting {self.tutor!r}: use one of {', '.join(TUTOR_LEVELS)}")
        if not (0 <= self.live_plies <= 4 and 0 <= self.tutor_plies <= 4):
            raise ValueError("plies must be 0 to 4")
        if self.marks not in MARKS:
            raise ValueError(f"unknown marks {self.marks!r}: use one of {', '.join(MARKS)}")

    def marks_of(self, engine: Thresholds) -> Thresholds:
        """The thresholds that name a play's size: XG's, or the engine's own."""
        return XG_MARKS if self.marks == "xg" else engine

    def threshold(self, thresholds: Thresholds) -> float | None:
        return {"off": None, "very_bad": thresholds.very_bad, "bad": thresholds.bad,
                "doubtful": thresholds.doubtful}[self.tutor]


def default_engine() -> Engine:
    """GNU Backgammon through engine/gnubg.py; EngineUnavailable when it (or its adapter) is missing."""
    try:
        from engine.gnubg import GnubgEngine
    except ImportError as exc:
        raise EngineUnavailable(f"the GNU Backgammon adapter cannot be loaded ({exc}); the coach shows plays unranked") from None
    return GnubgEngine(plies=0)


def _result_of(warning: dict[str, Any], before: Position, dice: tuple[int, int]) -> str:
    """The better play's result (Position ID for the mover) from the warning's notation."""
    side = before.turn
    return before.play(dice, warning["best"]["play"]).position_id(side)


def _msg(pt: str, en: str) -> dict[str, str]:
    return {"pt": pt, "en": en}


class CoachService:
    """The coach beside a KioskService. ``start()`` subscribes and starts the worker; ``close()`` stops both."""

    def __init__(self, service: Any, engine_factory: EngineFactory | None = default_engine,
                 settings: CoachSettings | None = None, data_dir: Path | None = None, enabled: bool = True) -> None:
        self.service = service
        self.enabled = enabled  # the kiosk's `coach` setting: false switches it off in every match
        self._engine_factory = engine_factory
        self._engine: Engine | None = None
        # The tutor's deeper looks run on an engine of their own: a deep look abandoned at its budget restarts
        # that one, never the engine of the next first verdict.
        self._deep: Engine | None = None
        self._deep_job: tuple[Any, ...] | None = None  # the newest board to look at deeper
        self._deep_thread: threading.Thread | None = None
        self._deep_busy = False
        self._explain_jobs: deque[tuple[PlayRecord, Position]] = deque()  # ratings waiting for their sentences
        self._engine_error: str | None = None
        self._engine_tried = -1e9
        self._defaults = settings or CoachSettings()
        self._settings: dict[str, CoachSettings] = {}
        self._file = data_dir / "coach.json" if data_dir is not None else None
        self._load_settings()
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._deep_wake = threading.Condition(self._lock)  # the deeper looks' thread waits on its own condition
        self._inbox: deque[State] = deque()
        self._jobs: dict[str, Any] = {}  # tutor / cube / plays: only the newest of each matters
        self._ratings: deque[PlayRecord] = deque()
        self._cache: dict[tuple[str, tuple[int, int], str | None, int], list[RankedPlay]] = {}
        self._subs: Subscribers[[dict[str, Any]]] = Subscribers(log, "a coach subscriber")
        self._records: dict[str, list[PlayRecord]] = {}
        self._cube_reviews: dict[str, tuple[str, Any]] = {}  # match -> (its .mat text, its MatchAnalysis)
        self._seen: set[tuple[Any, ...]] = set()
        self._turn: dict[str, Any] | None = None  # {side, position_id, match_id, dice}
        self._state: State = {}
        self._version = 0
        self.tutor: dict[str, Any] | None = None
        self.rating: dict[str, Any] | None = None
        self.cube: dict[str, Any] | None = None
        self.plays: dict[str, Any] | None = None
        self.judging: str | None = None  # the board (Position ID) the tutor is judging: the screen says "wait"
        self.tutor_check: dict[str, Any] | None = None  # the tutor's last verdict: {"shown", "plies", "warn", "final"}
        self.takeback: dict[str, Any] | None = None  # {"side", "play"}: may be taken back now (settings.takeback)
        self._offer: dict[str, Any] | None = None  # the last committed play, while a takeback could apply
        self.busy = False
        self._stop = False
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

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
            self._deep_wake.notify_all()
        for thread in (self._thread, self._deep_thread):
            if thread is not None:
                thread.join(timeout=5)
        for engine in {id(e): e for e in (self._engine, self._deep) if e is not None}.values():
            try:
                engine.close()
            except Exception:
                log.exception("closing the engine failed")

    def _on_state(self, state: State) -> None:
        """Called by the referee service after every change, on its thread: only queue the state."""
        with self._lock:
            self._inbox.append(state)
            self._wake.notify()

    # ----- settings ---------------------------------------------------------------------------------------------
    def _load_settings(self) -> None:
        if self._file is None or not self._file.exists():
            return
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
            self._settings = {k: CoachSettings(**v) for k, v in data.items()}
        except (ValueError, TypeError) as exc:
            log.warning("ignoring unreadable coach settings %s: %s", self._file, exc)

    def settings_for(self, match: str | None = None) -> CoachSettings:
        with self._lock:
            return self._settings.get(match or self._match(), self._defaults)

    def update_settings(self, changes: dict[str, Any], match: str | None = None) -> CoachSettings:
        """Change the current match's settings; ValueError naming what is wrong."""
        with self._lock:
            self._refuse_in_tournament()
            key = match or self._match()
            new = replace(self.settings_for(key), **changes)
            self._settings[key] = new
            if self._file is not None:
                self._file.parent.mkdir(parents=True, exist_ok=True)
                self._file.write_text(json.dumps({k: asdict(v) for k, v in self._settings.items()}), encoding="utf-8")
            if new.tutor == "off":
                self.tutor = None
            self._changed()
            return new

    # ----- what the page reads ------------------------------------------------------------------------------------
    def _match(self) -> str:
        return str(self._state.get("match", {}).get("id") or "current")

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
        if not self.enabled:
            return SWITCHED_OFF
        if self.tournament():
            return TOURNAMENT
        return (f"the coach knows backgammon only: GNU Backgammon has no {self.variant()}; the referee still "
                "rules on every play")

    def _refuse_in_tournament(self) -> None:
        if self.off():
            raise CoachRefused(403, self.off_message())

    def engine_info(self) -> dict[str, Any]:
        name = getattr(self._engine, "name", None)
        return {"name": name, "available": self._engine is not None, "message": self._engine_error}

    def snapshot(self) -> dict[str, Any]:
        """The coach's public state (GET /api/coach, pushed on /ws/coach)."""
        with self._lock:
            if not self.enabled:
                return {"version": self._version, "enabled": False, "message": _msg(
                    "O treinador está desligado nas configurações deste quiosque.",
                    "The coach is switched off in this kiosk's settings.")}
            if self.tournament():
                return {"version": self._version, "enabled": False, "message": _msg(
                    "Modo torneio: o treinador está desligado.", "Tournament mode: the coach is off.")}
            if self.variant() is not None:
                return {"version": self._version, "enabled": False, "message": _msg(
                    "O treinador conhece só o gamão: nesta variante ele fica desligado.",
                    "The coach knows backgammon only: it is off in this variant.")}
            return {"version": self._version, "enabled": True, "engine": self.engine_info(),
                    "settings": asdict(self.settings_for()), "busy": self.busy,
                    "wait": self.judging is not None, "tutor_check": self.tutor_check, "takeback": self.takeback,
                    "tutor": self.tutor, "rating": self.rating, "cube": self.cube, "plays": self.plays}

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
            self._refuse_in_tournament()
            turn = self._turn
            if turn is None or not turn.get("dice"):
                raise CoachRefused(409, "there is no roll to show plays for: roll the dice first")
            side = Side(turn["side"])
            pos = position_of(turn["position_id"], side)
            dice = tuple(turn["dice"])
            cached = self._cache.get((turn["position_id"], dice, turn["match_id"], self.settings_for().live_plies))
            self.plays = self._plays_view(pos, dice, cached)
            self._jobs["plays"] = dict(turn)  # ranked (or from the cache) with the top plays' sentences
            self._wake.notify()
            self._changed()
            return self.plays

    def _plays_view(self, pos: Position, dice: tuple[int, ...], ranked: list[RankedPlay] | None,
                    top: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        side = pos.turn
        if ranked is not None:
            rows = [{**rp.as_json(), "board": layout(position_of(rp.result, side))} for rp in ranked]
        else:
            rows = [{"play": lp.play.text(), "result": lp.result.position_id(side), "equity": None, "loss": None,
                     "label": None, "board": layout(lp.result)} for lp in pos.legal_plays(dice)]
        return {"side": side.value, "position_id": pos.position_id(side), "dice": list(dice),
                "ranked": ranked is not None, "top": top or [], "plays": rows}

    def _top(self, pos: Position, dice: tuple[int, int], ranked: list[RankedPlay], settings: CoachSettings,
             thresholds: Thresholds | None) -> list[dict[str, Any]]:
        """The best plays (at most TOP_PLAYS), each with its size in words and one sentence: for the best,
        what it gains over the second; for the others, what the best gains over them."""
        side = pos.turn
        marks = (thresholds.doubtful, thresholds.bad, thresholds.very_bad) if thresholds else (0.03, 0.06, 0.12)
        best = position_of(ranked[0].result, side)
        out = []
        for i, rp in enumerate(ranked[:TOP_PLAYS]):
            size = size_of(rp.loss, settings.marks, marks) or "good"
            if i == 0:
                other = position_of(ranked[1].result, side) if len(ranked) > 1 else None
                gain = gain_words(explain_play(pos, dice, other, best)) if other is not None else None
                sentence = ({"pt": f"A melhor jogada: {gain['pt']}.", "en": f"The best play: it {gain['en']}."}
                            if gain else play_words("best"))
            else:
                gain = gain_words(explain_play(pos, dice, position_of(rp.result, side), best))
                words = play_words(size)
                sentence = {"pt": f"{words['pt'].capitalize()}: a melhor {gain['pt']}.",
                            "en": f"{words['en'].capitalize()}: the best {gain['en']}."}
            out.append({"rank": i + 1, "play": rp.play, "size": size, "sentence": sentence,
                        "numbers": numbers_words(rp.loss, rp.equity),
                        "board": layout(position_of(rp.result, side))})
        return out

    def request_takeback(self) -> dict[str, Any]:
        """Take the last play back after the opponent's roll, as both players agreed before the match (the
        ``takeback`` setting, R23's "unless both agree"): the referee's undo; its record keeps what stands."""
        with self._lock:
            self._catch_up()
            self._refuse_in_tournament()
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
            self._refuse_in_tournament()
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
        """A game's plays with their ratings, and per player the error rate and the counts of labels.

        Plays the coach saw live keep their ratings; a match (or the part of it) played while the coach was
        not running is read back from the journal's record and rated now (KeyError: no such match)."""
        with self._lock:
            self._catch_up()
            self._refuse_in_tournament()
            key = self._match() if match == "current" else match
            live = list(self._records.get(key, []))
        records = self._with_recorded(key, live)
        out = {**review_of(records, key, game), "engine": self.engine_info()}
        settings = self.settings_for(key)
        t = self._engine.thresholds() if self._engine is not None and self._thresholds_known() else None
        marks = (t.doubtful, t.bad, t.very_bad) if t else (0.03, 0.06, 0.12)
        for row in out["plays"]:  # each play called by its size with the match's marks, the numbers apart
            size = size_of(row["loss"], settings.marks, marks) if row["status"] == "rated" else None
            row["size"] = size
            row["headline"] = headline(row["play"], size) if size else None
        self._with_cube(key, out)
        return out

    def _with_cube(self, key: str, out: dict[str, Any]) -> None:
        """The cube decisions (XG's count) added to the review's PR, from the match's record rated by the worker
        in the background (``cube_pending`` until then)."""
        try:
            text = self.service.export(key, "mat")
        except (KeyError, ValueError):
            return
        with self._lock:
            done = self._cube_reviews.get(key)
            if done is None or done[0] != text:
                self._jobs["cube_review"] = {"key": key, "text": text}
                self._wake.notify()
        out["cube_pending"] = done is None or done[0] != text
        if done is None:
            return
        analysis = done[1]
        merge_cube(out["summary"], analysis.summary)
        merge_cube(out["game_summary"], analysis.games.get(int(out["game"] or 0), {}))

    def _thresholds_known(self) -> bool:
        """The engine's thresholds are at hand without a request (gnubg reads them when it starts)."""
        return getattr(self._engine, "_thresholds", True) is not None

    def _with_recorded(self, key: str, live: list[PlayRecord]) -> list[PlayRecord]:
        """The live records completed from the match's record in the journal (plays the coach did not see)."""
        try:
            text = self.service.export(key, "mat")
        except KeyError:
            if live:
                return live
            raise
        except ValueError:
            return live
        try:
            record = read_mat(text)
            replay(record)
            recorded = plays_of(record, key)
        except Exception:  # a record the coach cannot read back must not take the review (or the kiosk) down
            log.exception("the coach cannot read match %s back", key)
            return live
        if len(recorded) <= len(live):
            return live
        seen = {(r.game, r.side, r.dice, r.before): r for r in live}
        merged = []
        with self._lock:
            for r in recorded:
                same = seen.get((r.game, r.side, r.dice, r.before))
                if same is not None:
                    merged.append(same)
                    continue
                merged.append(r)
                if r.status == "pending":
                    self._ratings.append(r)
            self._records[key] = merged
            self._wake.notify()
        return merged

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
                self.tutor = self.rating = self.cube = self.plays = None
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
        if self.judging is not None:
            shown = (state.get("position") or {}).get("position_id")
            if phase != "moving" or shown != self.judging:
                self.judging = None
                changed = True
        if self.tutor is not None:
            shown = (state.get("position") or {}).get("position_id")
            if phase != "moving" or shown != self.tutor["shown"]:
                self.tutor = None
                self._jobs.pop("tutor", None)
                changed = True
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
                self._jobs["tutor"] = {**self._turn, "dice": list(v.get("dice") or self._turn["dice"]), "shown": shown}
                self.judging = shown  # "wait": the screen and the dice unit ask the opponent to hold the roll
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
        warned = self.tutor is not None and self.tutor.get("play") == record.play
        self.tutor = None
        self.judging = None
        self._jobs.pop("tutor", None)
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
                while not self._stop and not self._inbox and not self._jobs and not self._ratings:
                    self._wake.wait()
                if self._stop:
                    return
                self._catch_up()
                job = None
                for name in ("tutor", "cube", "plays", "cube_review"):
                    if name in self._jobs:
                        job = (name, self._jobs.pop(name))
                        break
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
            if self._engine_or_none() is not None:
                self._thresholds()
                with self._lock:
                    self._explain_jobs.append(("warm",))  # type: ignore[arg-type]
                    self._start_background()
                    self._deep_wake.notify()
        except Exception:  # the first request tries again and reports it
            log.exception("warming the coach's engine failed")
        finally:
            with self._lock:
                self.busy = False

    def _warm_deep(self) -> None:
        deep = self._deep_engine()
        start = getattr(deep, "start", None)
        if deep is not self._engine and callable(start):
            start()

    def _engine_or_none(self) -> Engine | None:
        if self._engine is not None or self._engine_factory is None:
            if self._engine_factory is None and self._engine_error is None:
                self._engine_error = "no engine: plays are shown unranked"
            return self._engine
        now = time.monotonic()
        if now - self._engine_tried < RETRY_ENGINE_AFTER:
            return None
        self._engine_tried = now
        try:
            self._engine = self._engine_factory()
            self._engine_error = None
        except (EngineError, ImportError, OSError) as exc:
            self._engine_error = str(exc)
            log.warning("coach engine unavailable: %s", exc)
        return self._engine

    def _deep_engine(self) -> Engine | None:
        if self._deep is None and self._engine_or_none() is not None and self._engine_factory is not None:
            try:
                self._deep = self._engine_factory()
            except (EngineError, ImportError, OSError) as exc:
                log.warning("the tutor's second engine is unavailable (%s): deep looks share the first", exc)
                self._deep = self._engine
        return self._deep

    def _rank(self, pid: str, dice: tuple[int, int], match_id: str | None, plies: int,
              timeout: float, deep: bool = False) -> list[RankedPlay] | None:
        key = (pid, dice, match_id, plies)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        engine = self._deep_engine() if deep else self._engine_or_none()
        if engine is None:
            return None
        try:
            ranked = engine.rank_plays(pid, dice, match_id, plies=plies, timeout=timeout)
        except EngineError as exc:
            with self._lock:
                self._engine_error = str(exc)
            return None
        with self._lock:
            self._engine_error = None
            if len(self._cache) > 2000:
                self._cache.clear()
            self._cache[key] = ranked
        return ranked

    def _thresholds(self) -> Thresholds | None:
        engine = self._engine_or_none()
        if engine is None:
            return None
        try:
            return engine.thresholds()
        except EngineError as exc:
            self._engine_error = str(exc)
            return None

    def _do_tutor(self, job: dict[str, Any]) -> None:
        """The first verdict at once from the fastest look (live_plies, 0 by default), then, while the board
        still shows the play, a deeper look (tutor_plies within tutor_budget) that confirms or withdraws it."""
        settings = self.settings_for()
        side = Side(job["side"])
        dice = (int(job["dice"][0]), int(job["dice"][1]))
        try:
            before = position_of(job["position_id"], side)
        except (GamaoError, ValueError):
            self._tutor_done(job)
            return
        thresholds = self._thresholds()
        limit = settings.threshold(settings.marks_of(thresholds)) if thresholds else None
        if thresholds is None or limit is None:
            self._tutor_done(job)
            return
        deeper = settings.tutor_plies > settings.live_plies
        first = self._rank(job["position_id"], dice, job["match_id"], settings.live_plies, settings.timeout)
        warning = self._warning(job, before, dice, first, settings.live_plies, limit, settings, thresholds)
        if not self._publish_tutor(job, warning, settings.live_plies, final=not deeper or first is None):
            return
        if warning is not None:
            self._add_reason(job, before, dice, warning)
        if not deeper or first is None:
            return
        # The deeper look runs on a thread of its own (and its own gnubg): the worker stays free for the next
        # board's first verdict (checkers put back and played again) and for the ratings.
        with self._lock:
            self._deep_job = (job, before, dice, warning, limit, settings, thresholds)
            self._start_background()
            self._deep_wake.notify()

    def _start_background(self) -> None:
        """The background thread: the tutor's deeper looks first, then the ratings' explanations. Lock held."""
        if self._deep_thread is None:
            self._deep_thread = threading.Thread(target=self._deep_run, name="coach-background", daemon=True)
            self._deep_thread.start()

    def _deep_run(self) -> None:
        while True:
            with self._lock:
                while not self._stop and self._deep_job is None and not self._explain_jobs:
                    self._deep_wake.wait()
                if self._stop:
                    return
                if self._deep_job is not None:
                    work, self._deep_job = self._deep_job, None
                    task = self._deep_look
                else:
                    work, task = self._explain_jobs.popleft(), self._explain
                    if work == ("warm",):
                        work, task = (), self._warm_deep
                self._deep_busy = True
            try:
                task(*work)
            except Exception:
                log.exception("the coach's background work failed")
            finally:
                with self._lock:
                    self._deep_busy = False

    def _deep_look(self, job: dict[str, Any], before: Position, dice: tuple[int, int], warning: dict[str, Any] | None,
                   limit: float, settings: CoachSettings, thresholds: Thresholds) -> None:
        with self._lock:
            current = (self._state.get("position") or {}).get("position_id")
            if self._state.get("phase") != "moving" or current != job["shown"]:
                return  # the board moved on (the roll came, the checkers were put back): nothing to deepen
        deep = self._rank(job["position_id"], dice, job["match_id"], settings.tutor_plies, settings.tutor_budget,
                          deep=True)
        if deep is None:  # the deeper look ran out of time: the first verdict stands
            self._publish_tutor(job, warning, settings.live_plies, final=True)
            return
        again = self._warning(job, before, dice, deep, settings.tutor_plies, limit, settings, thresholds)
        with self._lock:
            shown = self.tutor
        if again is not None and shown is not None and again["best"]["play"] == shown["best"]["play"]:
            again["reason"] = shown.get("reason")
        if self._publish_tutor(job, again, settings.tutor_plies, final=True) and again is not None and not again.get("reason"):
            self._add_reason(job, before, dice, again)

    def _warning(self, job: dict[str, Any], before: Position, dice: tuple[int, int], ranked: list[RankedPlay] | None,
                 plies: int, limit: float, settings: CoachSettings, thresholds: Thresholds) -> dict[str, Any] | None:
        if not ranked:
            return None
        made = next((rp for rp in ranked if rp.result == job["shown"]), None)
        if made is None or made.loss is None or made.loss < limit or made.loss <= 0:
            return None
        best = ranked[0]
        side = Side(job["side"])
        marks = settings.marks_of(thresholds)
        size = size_of(made.loss, settings.marks, (thresholds.doubtful, thresholds.bad, thresholds.very_bad)) or "error"
        words = play_words(size)
        return {
            "side": side.value, "dice": list(dice), "play": made.play, "loss": made.loss, "label": marks.label(made.loss),
            "size": size, "plies": plies, "final": False, "shown": job["shown"],
            "best": {"play": best.play, "equity": best.equity},
            "best_board": layout(position_of(best.result, side)), "before": layout(before),
            "message": _msg(f"Espere! Esta jogada é {words['pt']}: volte as peças e pense de novo?",
                            f"Wait! This play is {words['en']}: put the checkers back and think again?"),
            "numbers": numbers_words(made.loss, made.equity, best.equity), "reason": None,
            "takeback": settings.takeback,
        }

    def _publish_tutor(self, job: dict[str, Any], warning: dict[str, Any] | None, plies: int, final: bool) -> bool:
        """Show the tutor's verdict if the board still shows the judged play (False: it moved on, nothing shown)."""
        with self._lock:
            current = (self._state.get("position") or {}).get("position_id")
            if self._state.get("phase") != "moving" or current != job["shown"] or self.off():
                if self.judging == job["shown"]:
                    self.judging = None
                    self._changed()
                return False
            if warning is not None:
                warning["final"] = final
            withdrawn = self.tutor is not None and warning is None
            self.tutor = warning
            self.tutor_check = {"shown": job["shown"], "plies": plies, "warn": warning is not None, "final": final,
                                "withdrawn": withdrawn}
            self.judging = None if final else job["shown"]
            self._changed()
            return True

    def _tutor_done(self, job: dict[str, Any]) -> None:
        with self._lock:
            if self.judging == job["shown"]:
                self.judging = None
                self.tutor_check = {"shown": job["shown"], "plies": None, "warn": False, "final": True,
                                    "withdrawn": False}
                self._changed()

    def _add_reason(self, job: dict[str, Any], before: Position, dice: tuple[int, int], warning: dict[str, Any]) -> None:
        """The decisive reason of the warning (what the better play gains), said after the verdict."""
        side = Side(job["side"])
        try:
            why = explain_play(before, dice, position_of(job["shown"], side),
                               position_of(_result_of(warning, before, dice), side))
        except (GamaoError, ValueError, StopIteration):
            return
        reason = {lang: why.sentences[lang][0] for lang in ("pt", "en")}
        with self._lock:
            if self.tutor is warning:
                self.tutor = {**warning, "reason": reason}
                self._changed()

    def _do_cube_review(self, job: dict[str, Any]) -> None:
        engine = self._engine_or_none()
        if engine is None:
            return
        try:
            record = read_mat(job["text"])
            analysis = analyse_record(record, engine, plies=self.settings_for(job["key"]).live_plies, cube=True)
        except (EngineError, GamaoError, ValueError) as exc:
            log.warning("the review's cube decisions of match %s could not be rated: %s", job["key"], exc)
            return
        with self._lock:
            self._cube_reviews[job["key"]] = (job["text"], analysis)
            self._changed()

    def _do_plays(self, job: dict[str, Any]) -> None:
        settings = self.settings_for()
        dice = (int(job["dice"][0]), int(job["dice"][1]))
        ranked = self._rank(job["position_id"], dice, job["match_id"], settings.live_plies, settings.timeout)
        with self._lock:
            if ranked is None or self.plays is None or self.plays["position_id"] != job["position_id"]:
                if self.plays is not None:
                    self.plays["engine"] = self.engine_info()
                    self._changed()
                return
        pos = position_of(job["position_id"], Side(job["side"]))
        top = self._top(pos, dice, ranked, settings, self._thresholds()) if ranked else []
        with self._lock:
            if self.plays is None or self.plays["position_id"] != job["position_id"]:
                return
            self.plays = self._plays_view(pos, dice, ranked, top)
            self._changed()

    def _do_cube(self, job: dict[str, Any]) -> None:
        settings = self.settings_for()
        engine = self._engine_or_none()
        result: dict[str, Any] = {"side": job["side"], "stage": job["stage"], "pending": False}
        if engine is None or not job.get("position_id"):
            result["message"] = _msg("Sem motor de análise: não há conselho de cubo.",
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
                    self._engine_error = str(exc)
                result["message"] = _msg("O motor não respondeu a tempo.", "The engine did not answer in time.")
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
        ranked = self._rank(record.before, record.dice, record.match_id, settings.live_plies, settings.timeout)
        with self._lock:
            if "tutor" in self._jobs:  # a board to judge came meanwhile: the tutor first, this rating after
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
        words = self._rating_words(record, settings)
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
            if explain:  # the sentences on the background thread: the worker stays free for the tutor
                self._explain_jobs.append((record, before))
                self._start_background()
                self._deep_wake.notify()

    def _explain(self, record: PlayRecord, before: Position) -> None:
        side = Side(record.side)
        assert record.best_after is not None
        why = explain_play(before, record.dice, position_of(record.after, side), position_of(record.best_after, side))
        record.explanation = why.as_json()
        with self._lock:
            if self.rating is not None and self.rating.get("key") == record.key and not self.off():
                self.rating = {**self.rating, "explanation": record.explanation}
                self._changed()

    def _rating_words(self, record: PlayRecord, settings: CoachSettings) -> dict[str, Any]:
        """The rated play called by its size in words; the numbers apart, for the "números" touch."""
        if record.status != "rated":
            return {"size": None, "headline": None, "numbers": None}
        t = self._thresholds()
        marks = (t.doubtful, t.bad, t.very_bad) if t else (0.03, 0.06, 0.12)
        size = size_of(record.loss, settings.marks, marks) or "good"
        return {"size": size, "headline": headline(record.play, size),
                "numbers": numbers_words(record.loss, record.equity)}

    # ----- for tests and benchmarks ---------------------------------------------------------------------------------------
    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until the worker has nothing left to do (True) or the timeout passes (False)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if (not self._inbox and not self._jobs and not self._ratings and not self.busy
                        and self._deep_job is None and not self._deep_busy and not self._explain_jobs):
                    return True
            time.sleep(0.01)
        return False
