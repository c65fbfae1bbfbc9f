"""The referee service the kiosk talks to: journal first, then the referee, then the subscribers.

``RefereeService`` implements ``kiosk.dependencies.KioskService``. ``submit(event)`` checks the event,
appends it to the journal (durably, see kiosk.journal) and only then feeds it to the referee, so an event
that was acknowledged survives a power cut. On start the current match is replayed from the journal.
Submissions from several threads (dice bridge, camera, touch screen) are serialised by one lock;
subscribers are called after every change, outside the lock, with the new public state.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.match.formats.mat import write_mat
from core.match.formats.sgf import write_sgf
from core.match.formats.variant import is_variant_record, write_variant
from core.referee import Referee
from core.referee.events import parse_event
from core.referee.record import to_match_record
from kiosk.journal import Journal

log = logging.getLogger(__name__)
State = dict[str, Any]


class RefereeService:
    """Journal + referee + change notification."""

    def __init__(self, journal: Journal | str | Path) -> None:
        self.journal = journal if isinstance(journal, Journal) else Journal(journal)
        self._lock = threading.RLock()
        self._subs: list[Callable[[State], None]] = []
        self._match = self.journal.current_match()
        self.referee, _ = self._replay(self._match)
        # The replay's objects live as long as the kiosk: out of the collector's sight, so its full passes over
        # them no longer add latency spikes to every later event (measured by bench/bench_referee).
        gc.freeze()

    # ----- replay -------------------------------------------------------------------------------------------
    def _replay(self, match: int | None) -> tuple[Referee, list[dict[str, Any]]]:
        """A referee that has seen every event of ``match``; also the verdicts of the last event."""
        ref = Referee()
        last: list[dict[str, Any]] = []
        if match is None:
            return ref, last
        for event in self.journal.events(match):
            last = self._feed(ref, event)
        return ref, last

    @staticmethod
    def _feed(ref: Referee, event: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return ref.feed(event)
        except Exception:  # a referee bug must not stop the kiosk: the same happens on every replay
            log.exception("referee failed on event %s", event)
            return [{"at": ref.index - 1, "verdict": "error"}]

    # ----- KioskService -----------------------------------------------------------------------------------------
    def state(self) -> State:
        with self._lock:
            return self._state()

    def _state(self) -> State:
        st = self.referee.public_state()
        st["match"]["id"] = str(self._match) if self._match is not None else "current"
        return st

    def subscribe(self, callback: Callable[[State], None]) -> Callable[[], None]:
        with self._lock:
            self._subs.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subs:
                    self._subs.remove(callback)

        return unsubscribe

    def submit(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Journal then rule on one event; ValueError (naming the field) for an event that is malformed."""
        with self._lock:
            checked = parse_event(event, self.referee.index)
            match, _seq = self.journal.append(checked)
            if match != self._match:
                # A new match (or the first event ever, which opened a default one): start from its events.
                self._match = match
                self.referee, verdicts = self._replay(match)
            else:
                verdicts = self._feed(self.referee, checked)
            state = self._state()
            subs = list(self._subs)
        for callback in subs:
            try:
                callback(state)
            except Exception:
                log.exception("a state subscriber failed")
        return verdicts

    def export(self, match_id: str, fmt: str) -> str:
        """The match as .mat or .sgf text; "current" is the match being played. KeyError if unknown."""
        if fmt not in ("mat", "sgf"):
            raise ValueError(f"unknown export format {fmt!r}: use mat or sgf")
        with self._lock:
            if match_id in ("current", str(self._match)):
                if self._match is None:
                    raise KeyError(match_id)
                ref = self.referee
                record = to_match_record(ref)
            else:
                try:
                    match = int(match_id)
                except ValueError:
                    raise KeyError(match_id) from None
                ref, _ = self._replay(match)
                record = to_match_record(ref)
        if is_variant_record(record):
            # No .mat or SGF standard for the seeds' variants: Gamão's own text, for either request.
            if fmt == "sgf":
                raise ValueError(f"SGF has no game type for {record.rules.variation} (GM[6] is backgammon): "
                                 "export mat, which writes Gamão's variant text")
            return write_variant(record)
        return write_mat(record) if fmt == "mat" else write_sgf(record)

    def matches(self) -> list[dict[str, Any]]:
        return self.journal.matches()

    def close(self) -> None:
        self.journal.close()
