"""The coach's review: a game's plays with their ratings, and per player the error rate, the counts of labels and
(XG's way) the cube decisions in the PR.

``CoachReview.build(key, live, current, game)`` is what ``CoachService.review`` answers: the plays the coach saw
live keep their ratings; a match (or the part of it) played while the coach was not running is read back from the
journal's record (exported once, read once) and its plays queued for rating; the cube decisions are rated by the
coach's worker in the background (the ``cube_review`` job, ``rate_cube``), ``cube_pending`` until then. It shares
the coach service's lock (``wake``, its condition), its jobs, its live records and its queue of ratings.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from core.errors import GamaoError
from core.match.formats.mat import read_mat
from core.match.record import MatchRecord
from core.match.replay import replay
from engine.analysis import analyse_record
from engine.base import EngineError
from kiosk.coach_engines import CoachEngines
from kiosk.coach_records import PlayRecord, completed, merge_cube, plays_of, review_of
from kiosk.coach_settings import CoachSettings
from kiosk.coach_words import review_words

log = logging.getLogger(__name__)


class CoachReview:
    def __init__(self, service: Any, wake: threading.Condition, engines: CoachEngines,
                 settings_for: Callable[[str], CoachSettings], jobs: dict[str, Any],
                 records: dict[str, list[PlayRecord]], ratings: deque[PlayRecord], changed: Callable[[], None]) -> None:
        self.service = service
        self.engines = engines
        self.settings_for = settings_for
        self._wake = wake
        self._jobs, self._records, self._ratings = jobs, records, ratings
        self._changed = changed
        self.cube: dict[str, tuple[str, Any]] = {}  # match -> (its .mat text, its MatchAnalysis)

    def build(self, key: str, live: list[PlayRecord], current: dict[str, Any] | None,
              game: int | None) -> dict[str, Any]:
        """The review of match `key` (`live`: the coach's records of it; `current`: the players of the match on the
        board, when it is that one). KeyError: no such match."""
        text, record = self._recorded(key, live)
        records = self._with_recorded(key, live, record)
        players = {side.value: name for side, name in record.players.items()} if record is not None else {}
        out = {**review_of(records, key, game), "engine": self.engines.info(),
               "players": current if current is not None else players}
        review_words(out["plays"], self.settings_for(key), self.engines.thresholds_known())
        if text is not None:
            self._with_cube(key, text, out)
        return out

    def _recorded(self, key: str, live: list[PlayRecord]) -> tuple[str | None, MatchRecord | None]:
        """The match's record in the journal, exported once and read once for the whole review: its text (the cube's
        review rates it) and the record (None when it cannot be read back). KeyError: no such match, nothing live."""
        try:
            text = self.service.export(key, "mat")
        except KeyError:
            if live:
                return None, None
            raise
        except ValueError:
            return None, None
        try:
            return text, read_mat(text)
        except Exception:  # a record the coach cannot read back must not take the review (or the kiosk) down
            log.exception("the coach cannot read match %s back", key)
            return text, None

    def _with_cube(self, key: str, text: str, out: dict[str, Any]) -> None:
        """The cube decisions (XG's count) added to the review's PR, from the match's record rated by the worker
        in the background (``cube_pending`` until then)."""
        with self._wake:
            done = self.cube.get(key)
            if done is None or done[0] != text:
                self._jobs["cube_review"] = {"key": key, "text": text}
                self._wake.notify()
        out["cube_pending"] = done is None or done[0] != text
        if done is None:
            return
        analysis = done[1]
        # each rated cube decision, for the teacher's table's cards (issue 38): who, what they did, gnubg's action,
        # the equity lost, the equities (the doubler's side) and the position (the doubler on roll)
        out["cube_decisions"] = [{**c.as_json(), "equities": dict(c.equities), "position_id": c.position_id,
                                  "match_id": c.match_id} for c in analysis.cube]
        merge_cube(out["summary"], analysis.summary)
        merge_cube(out["game_summary"], analysis.games.get(int(out["game"] or 0), {}))

    def _with_recorded(self, key: str, live: list[PlayRecord], record: MatchRecord | None) -> list[PlayRecord]:
        """The live records completed from the match's record in the journal (plays the coach did not see)."""
        if record is None:
            return live
        try:
            replay(record)
            recorded = plays_of(record, key)
        except Exception:  # a record the coach cannot read back must not take the review (or the kiosk) down
            log.exception("the coach cannot read match %s back", key)
            return live
        if len(recorded) <= len(live):
            return live
        merged, new = completed(live, recorded)
        with self._wake:
            self._ratings.extend(r for r in new if r.status == "pending")
            self._records[key] = merged
            self._wake.notify()
        return merged

    def rate_cube(self, job: dict[str, Any]) -> None:
        """The worker's ``cube_review`` job: the match's cube decisions rated by the engine."""
        engine = self.engines.main()
        if engine is None:
            return
        try:
            record = read_mat(job["text"])
            analysis = analyse_record(record, engine, plies=self.settings_for(job["key"]).live_plies, cube=True)
        except (EngineError, GamaoError, ValueError) as exc:
            log.warning("the review's cube decisions of match %s could not be rated: %s", job["key"], exc)
            return
        with self._wake:
            self.cube[job["key"]] = (job["text"], analysis)
            self._changed()
