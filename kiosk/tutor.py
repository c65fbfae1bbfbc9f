"""The tutor: it judges a whole play on the board before it is committed (R23) and warns, with the better play.

Two looks: the first at once (``first_look``, on the coach's worker, at live_plies: 0 by default), then, while
the board still shows the play, a deeper one (tutor_plies within tutor_budget) on the tutor's own thread and
engine, which confirms or withdraws the warning; the decisive reason (what the better play gains) follows the
verdict. What it publishes, read by the coach's snapshot: ``warning`` (the warning shown, or None), ``check``
(its last verdict: shown, plies, warn, final, withdrawn) and ``judging`` (the board it is judging: the screen
says "wait").

Its thread does the deeper looks first and then the coach's other background work (``later``: the ratings'
sentences). Everything here shares the coach service's lock; ``board()`` gives the referee's phase and the
Position ID on the board, ``off()`` says the coach is off, ``changed()`` pushes the coach's state (all three
called with the lock held).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from core.coach.explain import explain_play
from core.coach.words import numbers_words, play_words, size_of
from core.errors import GamaoError
from core.rules.position import Position, Side
from engine.base import RankedPlay, Thresholds
from kiosk.coach_engines import CoachEngines
from kiosk.coach_records import layout, position_of
from kiosk.coach_settings import CoachSettings
from kiosk.coach_words import msg

log = logging.getLogger(__name__)
Job = dict[str, Any]  # {side, position_id, match_id, dice, shown}: the turn and the board to judge


def _result_of(warning: dict[str, Any], before: Position, dice: tuple[int, int]) -> str:
    """The better play's result (Position ID for the mover) from the warning's notation."""
    side = before.turn
    return before.play(dice, warning["best"]["play"]).position_id(side)


class Tutor:
    def __init__(self, lock: threading.RLock, engines: CoachEngines, board: Callable[[], tuple[Any, Any]],
                 off: Callable[[], bool], changed: Callable[[], None]) -> None:
        self._lock = lock
        self._wake = threading.Condition(lock)  # the tutor's thread waits on its own condition
        self._engines = engines
        self._board, self._off, self._changed = board, off, changed
        self.warning: dict[str, Any] | None = None
        self.check: dict[str, Any] | None = None
        self.judging: str | None = None
        self._pending: Job | None = None  # the newest board to judge, for the coach's worker
        self._deep_job: tuple[Any, ...] | None = None  # the newest board to look at deeper
        self._later: deque[tuple[Callable[..., None], tuple[Any, ...]]] = deque()
        self._busy = False
        self._stop = False
        self._thread: threading.Thread | None = None

    # ----- the coach's bookkeeping (lock held) ----------------------------------------------------------------------
    def judge(self, job: Job) -> None:
        """A whole play is on the board: judge it (the coach's worker takes it with ``take``)."""
        self._pending = job
        self.judging = job["shown"]  # "wait": the screen and the dice unit ask the opponent to hold the roll

    @property
    def pending(self) -> bool:
        return self._pending is not None

    def take(self) -> Job | None:
        job, self._pending = self._pending, None
        return job

    def follow(self, phase: Any, shown: Any) -> bool:
        """The board changed: the tutor judges and warns only while it shows the play judged. True: changed."""
        changed = False
        if self.judging is not None and (phase != "moving" or shown != self.judging):
            self.judging = None
            changed = True
        if self.warning is not None and (phase != "moving" or shown != self.warning["shown"]):
            self.warning = None
            self._pending = None
            changed = True
        return changed

    def committed(self, play: str) -> bool:
        """The play was committed: nothing left to judge. True when the tutor had warned about this play."""
        warned = self.warning is not None and self.warning.get("play") == play
        self.warning = None
        self.judging = None
        self._pending = None
        return warned

    def clear(self) -> None:
        """The coach is off (tournament mode, a variant): no warning, nothing to judge."""
        self.warning = None
        self._pending = None

    # ----- the looks (the first on the coach's worker, the deeper one on the tutor's thread) --------------------------
    def first_look(self, job: Job, settings: CoachSettings) -> None:
        """The first verdict at once from the fastest look (live_plies, 0 by default), then, while the board
        still shows the play, a deeper look (tutor_plies within tutor_budget) that confirms or withdraws it."""
        side = Side(job["side"])
        dice = (int(job["dice"][0]), int(job["dice"][1]))
        try:
            before = position_of(job["position_id"], side)
        except (GamaoError, ValueError):
            self._done(job)
            return
        thresholds = self._engines.thresholds()
        limit = settings.threshold(settings.marks_of(thresholds)) if thresholds else None
        if thresholds is None or limit is None:
            self._done(job)
            return
        deeper = settings.tutor_plies > settings.live_plies
        first = self._engines.rank(job["position_id"], dice, job["match_id"], settings.live_plies, settings.timeout)
        warning = self._warning(job, before, dice, first, settings.live_plies, limit, settings, thresholds)
        if not self._publish(job, warning, settings.live_plies, final=not deeper or first is None):
            return
        if warning is not None:
            self._add_reason(job, before, dice, warning)
        if not deeper or first is None:
            return
        # The deeper look runs on a thread of its own (and its own gnubg): the worker stays free for the next
        # board's first verdict (checkers put back and played again) and for the ratings.
        with self._lock:
            self._deep_job = (job, before, dice, warning, limit, settings, thresholds)
            self._start()
            self._wake.notify()

    def _deep_look(self, job: Job, before: Position, dice: tuple[int, int], warning: dict[str, Any] | None,
                   limit: float, settings: CoachSettings, thresholds: Thresholds) -> None:
        with self._lock:
            phase, current = self._board()
            if phase != "moving" or current != job["shown"]:
                return  # the board moved on (the roll came, the checkers were put back): nothing to deepen
        deep = self._engines.rank(job["position_id"], dice, job["match_id"], settings.tutor_plies,
                                  settings.tutor_budget, deep=True)
        if deep is None:  # the deeper look ran out of time: the first verdict stands
            self._publish(job, warning, settings.live_plies, final=True)
            return
        again = self._warning(job, before, dice, deep, settings.tutor_plies, limit, settings, thresholds)
        with self._lock:
            shown = self.warning
        if again is not None and shown is not None and again["best"]["play"] == shown["best"]["play"]:
            again["reason"] = shown.get("reason")
        if self._publish(job, again, settings.tutor_plies, final=True) and again is not None and not again.get("reason"):
            self._add_reason(job, before, dice, again)

    def _warning(self, job: Job, before: Position, dice: tuple[int, int], ranked: list[RankedPlay] | None,
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
            "message": msg(f"Espere! Esta jogada é {words['pt']}: volte as peças e pense de novo?",
                           f"Wait! This play is {words['en']}: put the checkers back and think again?"),
            "numbers": numbers_words(made.loss, made.equity, best.equity), "reason": None,
            "takeback": settings.takeback,
        }

    def _publish(self, job: Job, warning: dict[str, Any] | None, plies: int, final: bool) -> bool:
        """Show the tutor's verdict if the board still shows the judged play (False: it moved on, nothing shown)."""
        with self._lock:
            phase, current = self._board()
            if phase != "moving" or current != job["shown"] or self._off():
                if self.judging == job["shown"]:
                    self.judging = None
                    self._changed()
                return False
            if warning is not None:
                warning["final"] = final
            withdrawn = self.warning is not None and warning is None
            self.warning = warning
            self.check = {"shown": job["shown"], "plies": plies, "warn": warning is not None, "final": final,
                          "withdrawn": withdrawn}
            self.judging = None if final else job["shown"]
            self._changed()
            return True

    def _done(self, job: Job) -> None:
        with self._lock:
            if self.judging == job["shown"]:
                self.judging = None
                self.check = {"shown": job["shown"], "plies": None, "warn": False, "final": True, "withdrawn": False}
                self._changed()

    def _add_reason(self, job: Job, before: Position, dice: tuple[int, int], warning: dict[str, Any]) -> None:
        """The decisive reason of the warning (what the better play gains), said after the verdict."""
        side = Side(job["side"])
        try:
            why = explain_play(before, dice, position_of(job["shown"], side),
                               position_of(_result_of(warning, before, dice), side))
        except (GamaoError, ValueError, StopIteration):
            return
        reason = {lang: why.sentences[lang][0] for lang in ("pt", "en")}
        with self._lock:
            if self.warning is warning:
                self.warning = {**warning, "reason": reason}
                self._changed()

    # ----- the tutor's thread ---------------------------------------------------------------------------------------
    def later(self, task: Callable[..., None], *args: Any) -> None:
        """Other background work for the tutor's thread, after its deeper looks (lock held)."""
        self._later.append((task, args))
        self._start()
        self._wake.notify()

    def _start(self) -> None:
        """The background thread: the tutor's deeper looks first, then the work given ``later``. Lock held."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="coach-background", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            task: Callable[..., None]
            with self._lock:
                while not self._stop and self._deep_job is None and not self._later:
                    self._wake.wait()
                if self._stop:
                    return
                if self._deep_job is not None:
                    work, self._deep_job = self._deep_job, None
                    task = self._deep_look
                else:
                    task, work = self._later.popleft()
                self._busy = True
            try:
                task(*work)
            except Exception:
                log.exception("the coach's background work failed")
            finally:
                with self._lock:
                    self._busy = False

    def idle(self) -> bool:
        """Nothing to judge, to look at deeper or left to do on the thread (lock held)."""
        return self._pending is None and self._deep_job is None and not self._busy and not self._later

    def stop(self) -> None:
        """Stop the thread (lock held); ``join`` waits for it."""
        self._stop = True
        self._wake.notify_all()

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join(timeout=5)
