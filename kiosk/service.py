"""The referee service the kiosk talks to: journal first, then the referee, then the subscribers.

``RefereeService`` implements ``kiosk.dependencies.KioskService``. ``submit(event)`` checks the event,
appends it to the journal (durably, see kiosk.journal) and only then feeds it to the referee, so an event
that was acknowledged survives a power cut. On start the current match is replayed from the journal.
Submissions from several threads (dice bridge, camera, touch screen) are serialised by one lock;
subscribers are called after every change, outside the lock, with the new public state.

The journal is checked when the service opens it (kiosk.journal_health.open_journal: a damaged file is salvaged); what
was found is logged and shown in the public state's ``notices`` until the next match starts. Every finished
match is written to the archive folder (kiosk/archive.py) the moment it ends. A write that fails (disk full,
read-only) refuses the event with ``JournalWriteError`` (a ValueError), shows a ``write_failed`` notice until
a write succeeds again, and changes nothing that is stored.
"""

from __future__ import annotations

import copy
import gc
import json
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.match.formats.mat import write_mat
from core.match.formats.sgf import write_sgf
from core.match.formats.variant import is_variant_record, write_variant
from core.match.record import MatchRecord
from core.messages import count
from core.referee.events import parse_event
from core.referee.record import to_match_record
from kiosk.archive import ARCHIVE, archive_match, archived, file_stem
from kiosk.chouette import TableReferee, archive_chouette, table_event
from kiosk.journal import Journal, JournalWriteError
from kiosk.journal_health import Health, open_journal
from kiosk.subscribers import Subscribers

log = logging.getLogger(__name__)
State = dict[str, Any]
_RESERVE_EN = ("the disk is full: the game goes on being recorded in the room kept for this, for a while. Free "
               "some space (or use a bigger card)")
_RESERVE_PT = ("o disco está cheio: o jogo continua sendo gravado no espaço reservado para isso, por um tempo. "
               "Libere espaço (ou use um cartão maior)")
CLOCK_FILE = "clock.json"  # the running clock's time, beside the journal (issue 34, finding 7)
CLOCK_BEAT = 1.0           # seconds between two writes of it while a clock runs

_WRITE_FAILED_PT = {
    "disk_full": "O evento não foi registrado: o disco está cheio. Libere espaço (ou use um cartão maior); o que já "
                 "foi registrado continua salvo e a gravação volta sozinha.",
    "read_only": "O evento não foi registrado: não é possível gravar no cartão (somente leitura). Verifique o cartão "
                 "e as permissões da pasta; o que já foi registrado continua salvo.",
    "io_error": "O evento não foi registrado: erro ao gravar no cartão. Verifique o cartão; o que já foi registrado "
                "continua salvo e o próximo evento tenta de novo.",
}


class RefereeService:
    """Journal + referee + change notification."""

    def __init__(self, journal: Journal | str | Path, *, archive: str | Path | None = None,
                 monotonic: Callable[[], float] = time.monotonic, ticks: bool = True) -> None:
        self.health: Health | None = None
        if isinstance(journal, Journal) or str(journal) == ":memory:":
            self.journal = journal if isinstance(journal, Journal) else Journal(journal)
        else:
            self.journal, self.health = open_journal(journal)
        on_disk = self.journal.path != ":memory:"
        if on_disk:
            self.journal.keep_reserve()  # room for the presses when the disk fills (kiosk/journal.py)
        self.archive_dir: Path | None = Path(archive) if archive else (
            Path(self.journal.path).parent / ARCHIVE if on_disk else None)
        self._lock = threading.RLock()
        self._subs: Subscribers[[State]] = Subscribers(log, "a state subscriber")
        self._notices: list[dict[str, Any]] = []
        # Told (match, index, event, verdicts) after each journaled event, and called on close: the club's
        # publisher (club/publisher.py) sends copies from here, never before the journal has the event.
        self._journaled: list[Callable[[int, int, dict[str, Any], list[dict[str, Any]]], None]] = []
        self._diverters: Subscribers[[dict[str, Any]]] = Subscribers(log, "a board taker")  # boards taken (divert)
        self._closers: list[Callable[[], None]] = []
        self.alerts: set[str] = set()  # the appliance's hardware trouble now (see alert)
        self._alert_listeners: list[Callable[[str, bool], None]] = []
        self._match = self.journal.current_match()
        self.referee, _ = self._replay(self._match)
        # The clock's time (issue 21): events of a timed match get "t", seconds that only go forward. It goes on
        # from the last event's t after a restart, so the time the kiosk was off is nobody's.
        # The running player's time up to the crash is his (issue 34, finding 7): while a clock runs, its time is
        # written every CLOCK_BEAT seconds beside the journal (clock.json), and a restart goes on from the later of
        # the last event's t and that beat. Before, the time since the last event (25 s of dark's turn) was lost.
        self._monotonic = monotonic
        self._beat_path = Path(self.journal.path).parent / CLOCK_FILE if on_disk else None
        clock = self._clock()
        last = clock.now if clock is not None else None
        beat = self._read_beat() if clock is not None and clock.running is not None else None
        resumed = beat is not None and (last is None or beat > last)
        if resumed:
            last = beat
        self._t0, self._m0 = (last if last is not None else time.time()), monotonic()
        self._ticks = ticks
        self._closed = False
        self._timer: threading.Timer | None = None
        self._beat_stop = threading.Event()
        self._beat_thread: threading.Thread | None = None
        if self._beat_path is not None:
            self._beat_thread = threading.Thread(target=self._beat, name="clock-beat", daemon=True)
            self._beat_thread.start()
        if resumed:
            self.tick()  # the record (and the screen) move on to the time the kiosk went down
        self._arm_tick()
        if self.health is not None and not self.health.healthy:
            self._report_health(self.health)
        else:
            self._archive_missing(recent=10)  # a copy that failed before (disk full) is made now
        # The replay's objects live as long as the kiosk: out of the collector's sight, so its full passes over
        # them no longer add latency spikes to every later event (measured by bench/bench_referee).
        gc.freeze()

    # ----- replay -------------------------------------------------------------------------------------------
    def _replay(self, match: int | None) -> tuple[TableReferee, list[dict[str, Any]]]:
        """A referee that has seen every event of ``match``; also the verdicts of the last event. (TableReferee:
        the referee, with the chouette's session when the match is one, kiosk/chouette.py.)"""
        ref = TableReferee()
        last: list[dict[str, Any]] = []
        if match is None:
            return ref, last
        for event in self.journal.events(match):
            last = self._feed(ref, event)
        return ref, last

    @staticmethod
    def _feed(ref: TableReferee, event: dict[str, Any]) -> list[dict[str, Any]]:
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
        st["notices"] = [dict(n) for n in self._notices]
        return st

    # ----- notices: what the screen must say about the journal --------------------------------------------------
    def _notice(self, kind: str, en: str, pt: str, **extra: Any) -> None:
        self._notices = [n for n in self._notices if n["kind"] != kind]
        self._notices.append({"kind": kind, "message": {"pt": pt, "en": en}, "at": time.time(), **extra})

    def announce(self, kind: str, en: str, pt: str) -> None:
        """A notice for the screen from another part of the kiosk (the director's call to a table, issue 39); the
        page hears of it at once."""
        with self._lock:
            self._notice(kind, en, pt)
            state = self._state()
        self._subs.tell(state)

    def _clear_notice(self, *kinds: str) -> bool:
        before = len(self._notices)
        self._notices = [n for n in self._notices if n["kind"] not in kinds]
        return len(self._notices) != before

    def _report_health(self, health: Health) -> None:
        """Log and show what the start found in the journal; archive the finished matches it still holds."""
        self._archive_missing()
        only_archived = self._only_in_archive()
        kept = len(health.events)
        n = len(health.match_ids())
        lost_en = "; ".join(health.lost) if health.lost else "nothing"
        lost_pt = (f"{health.lost_events} evento(s)" if health.lost_events else
                   ("conteúdo desconhecido" if health.lost else "nada"))
        also_en = also_pt = ""
        if only_archived:
            names = ", ".join(only_archived)
            also_en = f" Finished matches kept whole only in the archive folder: {names}."
            also_pt = f" Partidas terminadas guardadas inteiras só na pasta do arquivo (archive): {names}."
        problem = health.problems[0] if health.problems else "damaged"
        if health.salvaged_from:
            aside = Path(health.salvaged_from).name
            en = (f"The game journal was damaged ({problem}). It was moved aside as {aside}, and {count(kept, 'event', 'events')} of "
                  f"{count(n, 'match', 'matches')} were saved into a new journal. Lost: {lost_en}.{also_en}")
            pt = (f"O registro das partidas estava danificado ({problem}). Ele foi movido para {aside}, e "
                  f"{count(kept, 'evento', 'eventos')} de {count(n, 'partida', 'partidas')} foram salvos em um novo registro. Perdido: {lost_pt}.{also_pt}")
            self._notice("journal_salvaged", en, pt, kept=kept, lost=health.lost,
                         salvaged_from=health.salvaged_from, archive_only=only_archived)
        else:
            en = (f"The game journal lost its latest events ({problem}). It holds {count(kept, 'event', 'events')} of {count(n, 'match', 'matches')}. "
                  f"Lost: {lost_en}.{also_en}")
            pt = (f"O registro das partidas perdeu os últimos eventos. Ele tem {count(kept, 'evento', 'eventos')} de {count(n, 'partida', 'partidas')}. "
                  f"Perdido: {lost_pt}.{also_pt}")
            self._notice("journal_went_back", en, pt, kept=kept, lost=health.lost, salvaged_from=None,
                         archive_only=only_archived)
        log.warning("journal: %s", health.summary() + (f".{also_en}" if also_en else ""))

    # ----- the archive ------------------------------------------------------------------------------------------
    def _archive(self, match: int, ref: TableReferee) -> None:
        """Write a finished match's .mat and .sgf; a failure is shown and logged, never raised."""
        if self.archive_dir is None:
            return
        started = next((m["started"] for m in self.journal.matches() if m["id"] == match), time.time())
        record = to_match_record(ref)
        try:
            paths = archive_match(self.archive_dir, match, started, record_text(record, "mat") or "",
                                  record_text(record, "sgf"))
        except OSError as exc:
            log.error("archive: match %s not written to %s: %s", match, self.archive_dir, exc)
            self._notice("archive_failed",
                         f"The finished match could not be copied to the archive folder ({exc.strerror or exc}); "
                         "it is in the journal, and the copy is tried again at the next start.",
                         f"A partida terminada não pôde ser copiada para a pasta do arquivo ({exc.strerror or exc}); "
                         "ela está no registro, e a cópia será tentada de novo no próximo início.")
            return
        self._clear_notice("archive_failed")
        log.info("archive: match %s written as %s", match, ", ".join(p.name for p in paths))

    def _archive_chouette(self, match: int) -> None:
        """After each chouette game: its ledger and games in the archive folder (kiosk/chouette.py); never raises."""
        if self.archive_dir is None:
            return
        started = next((m["started"] for m in self.journal.matches() if m["id"] == match), time.time())
        try:
            archive_chouette(self.archive_dir, match, started, self.referee)
        except OSError as exc:
            log.error("archive: chouette %s not written to %s: %s", match, self.archive_dir, exc)

    def _archive_missing(self, recent: int | None = None) -> None:
        """Archive every finished match of the journal (or of its ``recent`` last ones) that has no files yet."""
        if self.archive_dir is None:
            return
        have = archived(self.archive_dir)
        for m in self.journal.matches()[-recent if recent else 0:]:
            if file_stem(m["id"], m["started"]) in have:
                continue
            ref, _ = self._replay(m["id"])
            if ref.phase == "match_over":
                self._archive(m["id"], ref)

    def _only_in_archive(self) -> list[str]:
        """Archive files of matches the journal no longer holds whole (gone, or without their end)."""
        if self.archive_dir is None:
            return []
        stems = {file_stem(m["id"], m["started"]): m["id"] for m in self.journal.matches()}
        out = []
        for stem in archived(self.archive_dir):
            if stem in stems and self._replay(stems[stem])[0].phase == "match_over":
                continue
            out.append(f"{stem}.mat")
        return out

    def subscribe(self, callback: Callable[[State], None]) -> Callable[[], None]:
        return self._subs.add(callback)

    def submit(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Journal then rule on one event; ValueError (naming the field) for an event that is malformed."""
        failed: JournalWriteError | None = None
        if self._diverters and isinstance(event, dict) and event.get("event") == "board" and self._diverted(event):
            return []  # a lesson's board: neither journaled nor ruled on (the match's referee never sees it)
        with self._lock:
            checked = table_event(self.referee, event) or parse_event(event, self.referee.index)
            if self._timed(checked):
                checked["t"] = round(self.now(), 3)
            try:
                match, seq = self.journal.append(checked)
            except JournalWriteError as exc:
                failed = exc
                log.error("journal: %s", exc)
                self._notice("write_failed", str(exc), _WRITE_FAILED_PT[exc.reason], reason=exc.reason)
                verdicts = []
            else:
                self._clear_notice("write_failed")
                if self.journal.on_reserve:
                    if not any(n["kind"] == "disk_reserve" for n in self._notices):
                        self._notice("disk_reserve", _RESERVE_EN, _RESERVE_PT)
                else:
                    self._clear_notice("disk_reserve")
                phase = self.referee.phase
                if match != self._match:
                    # A new match (or the first event ever, which opened a default one): start from its events.
                    self._match = match
                    self.referee, verdicts = self._replay(match)
                    self._clear_notice("journal_salvaged", "journal_went_back")
                else:
                    verdicts = self._feed(self.referee, checked)
                ended = self.referee.phase != phase and self.referee.phase in ("game_over", "match_over")
                if ended or checked.get("event") == "roll":  # once a turn: how far the journal got (see inspect)
                    self.journal.mark()
                if ended:
                    if self.referee.phase == "match_over":
                        self._archive(match, self.referee)
                if any(v.get("verdict") == "chouette" and v.get("action") == "game_over" for v in verdicts):
                    self._archive_chouette(match)
            state = self._state()
            subs = list(self._subs)
            journaled = list(self._journaled)
            self._arm_tick()
        for callback in subs:
            try:
                callback(state)
            except Exception:
                log.exception("a state subscriber failed")
        if failed is not None:
            raise failed
        for listener in journaled:
            try:
                listener(match, seq, checked, verdicts)
            except Exception:
                log.exception("a journal listener failed")
        return verdicts

    # ----- the clock (issue 21) ------------------------------------------------------------------------------------
    def _clock(self) -> Any:
        tournament = getattr(self.referee, "tournament", None)
        return getattr(tournament, "clock", None)

    def _timed(self, event: dict[str, Any]) -> bool:
        """Does this event belong to a timed match (so it gets its ``t``)? Untimed matches' events stay as before."""
        if event.get("event") == "new_match":
            return bool((event.get("rules") or {}).get("clock"))
        return self._clock() is not None

    def now(self) -> float:
        """The clock's time now: seconds, going on from the last timed event's ``t``."""
        return self._t0 + (self._monotonic() - self._m0)

    def _read_beat(self) -> float | None:
        """The clock's time last written beside the journal for the current match, or None."""
        if self._beat_path is None:
            return None
        try:
            beat = json.loads(self._beat_path.read_text(encoding="utf-8"))
            if beat.get("match") == self._match and isinstance(beat.get("t"), int | float) \
                    and math.isfinite(beat["t"]):
                return float(beat["t"])
        except (OSError, ValueError, AttributeError):
            pass
        return None

    def _beat(self) -> None:
        """While a clock runs, write its time beside the journal every CLOCK_BEAT seconds (atomically; a full disk
        only skips a beat). A crash then loses at most one beat of the running player's own time."""
        while not self._beat_stop.wait(CLOCK_BEAT):
            self._write_beat()

    def _write_beat(self) -> None:
        if self._beat_path is None:
            return
        with self._lock:
            clock = self._clock()
            if clock is None or clock.running is None or clock.flag is not None:
                return
            line = json.dumps({"match": self._match, "t": round(self.now(), 3)})
        tmp = self._beat_path.with_name(CLOCK_FILE + ".tmp")
        try:
            tmp.write_text(line, encoding="utf-8")
            os.replace(tmp, self._beat_path)
        except OSError:
            pass  # disk full: the journal's own notice says so; the last beat written stays

    @property
    def current_match(self) -> int | None:
        return self._match

    def _arm_tick(self) -> None:
        """Wake when the running side's next warning or flag is due, and tell the referee (a ``tick`` event)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        tournament = getattr(self.referee, "tournament", None)
        due = tournament.next_deadline() if tournament is not None else None
        if due is None or not self._ticks:
            return
        self._timer = threading.Timer(max(0.0, due - self.now()) + 0.02, self.tick)
        self._timer.daemon = True
        self._timer.start()

    def tick(self) -> list[dict[str, Any]]:
        """Time passes (no one did anything): the referee says a warning or a fallen flag. Journaled like any event."""
        if self._clock() is None or self._closed:
            return []
        try:
            return self.submit({"event": "tick"})
        except Exception as exc:  # a timer thread: log it, never die silently (the next event re-arms it)
            log.error("clock tick not recorded: %s", exc)
            return []

    def _diverted(self, event: dict[str, Any]) -> bool:
        """Whether a taker (divert) took this board (checked first: a malformed one is refused as ever)."""
        with self._lock:
            checked = parse_event(event, self.referee.index)
            takers = list(self._diverters)
        for taker in takers:  # outside the lock: a taker may read the service
            try:
                if taker(checked):
                    return True
            except Exception:  # a taker's bug never keeps a board from the referee
                log.exception("a board taker failed")
        return False

    def divert(self, taker: Callable[[dict[str, Any]], object]) -> Callable[[], None]:
        """Offer each camera board (checked, before it is journaled) to ``taker(event)``: True takes it away from the
        journal and the referee (the teacher's table while a drill runs, kiosk/drills.py). Returns the undo."""
        return self._diverters.add(taker)

    def on_journaled(self, listener: Callable[[int, int, dict[str, Any], list[dict[str, Any]]], None]) -> None:
        """Call `listener(match, index, event, verdicts)` after each event is journaled and ruled on."""
        with self._lock:
            self._journaled.append(listener)

    def on_alert(self, listener: Callable[[str, bool], None]) -> None:
        """Call `listener(name, on)` when the hardware needs a human (``dice_lost``, ``camera_bumped``)."""
        with self._lock:
            self._alert_listeners.append(listener)

    def alert(self, name: str, on: bool) -> None:
        """The appliance's hardware trouble, on or off; told to the listeners when it changes (the club)."""
        with self._lock:
            if (name in self.alerts) == on:
                return
            (self.alerts.add if on else self.alerts.discard)(name)
            listeners = list(self._alert_listeners)
        for listener in listeners:
            try:
                listener(name, on)
            except Exception:
                log.exception("an alert listener failed")

    def at_close(self, closer: Callable[[], None]) -> None:
        """Run `closer` (e.g. stop the club publisher) when the service closes, before the journal does."""
        self._closers.append(closer)

    def export(self, match_id: str, fmt: str) -> str:
        """The match as .mat or .sgf text; "current" is the match being played. KeyError if unknown.

        Replayed from the journal's snapshot of its events, outside the service lock: an export (or many)
        never holds up the live game's events.
        """
        if fmt not in ("mat", "sgf"):
            raise ValueError(f"unknown export format {fmt!r}: use mat or sgf")
        with self._lock:
            current = self._match
        if match_id == "current":
            if current is None:
                raise KeyError(match_id)
            match = current
        else:
            try:
                match = int(match_id)
            except ValueError:
                raise KeyError(match_id) from None
            if not 0 < match < 2**63:  # SQLite's integers: anything else is no match (not an OverflowError)
                raise KeyError(match_id)
        try:
            ref, _ = self._replay(match)
        except KeyError:
            return self._from_archive(match, fmt)  # the journal lost it: the archive may have it
        if match != current and ref.phase != "match_over":
            # The journal lost this match's end (salvaged): the archive has it whole.
            try:
                return self._from_archive(match, fmt, self._stem(match))
            except KeyError:
                pass
        record = to_match_record(ref)
        text = record_text(record, fmt)
        if text is None:
            raise ValueError(f"SGF has no game type for {record.rules.variation} (GM[6] is backgammon): export mat, "
                             "which writes Gamão's own variant text")
        return text

    def table(self, match_id: str) -> TableReferee:
        """A copy of a match's referee with its chouette (kiosk/chouette.py exports read it); KeyError if unknown."""
        with self._lock:
            if match_id in ("current", str(self._match)):
                if self._match is None:
                    raise KeyError(match_id)
                return copy.deepcopy(self.referee)
            try:
                match = int(match_id)
            except ValueError:
                raise KeyError(match_id) from None
            if not 0 < match < 2**63:  # SQLite's integers: anything else is no match
                raise KeyError(match_id)
            return self._replay(match)[0]

    def _stem(self, match: int) -> str | None:
        started = next((m["started"] for m in self.journal.matches() if m["id"] == match), None)
        return None if started is None else file_stem(match, started)

    def _from_archive(self, match: int, fmt: str, stem: str | None = None) -> str:
        """The archived file of a match the journal no longer holds whole (``stem``: that very match only)."""
        if self.archive_dir is not None and 0 <= match < 10**9:
            pattern = f"{stem}.{fmt}" if stem else f"match-{match:04d}-*.{fmt}"
            files = sorted(self.archive_dir.glob(pattern))
            if files:
                return files[-1].read_text(encoding="utf-8")
        raise KeyError(str(match))

    def matches(self) -> list[dict[str, Any]]:
        return self.journal.matches()

    def close(self) -> None:
        self._ticks, self._closed = False, True
        self._beat_stop.set()
        if self._beat_thread is not None:
            self._beat_thread.join(timeout=2)
            self._write_beat()  # a shutdown, like a crash, leaves the running player's time his
        if self._timer is not None:
            self._timer.cancel()
        self.journal.mark()
        for closer in self._closers:
            try:
                closer()
            except Exception:
                log.exception("a close hook failed")
        self.journal.close()


def record_text(record: MatchRecord, fmt: str) -> str | None:
    """A match as ``.mat`` or ``.sgf`` text. The seeds' variants have neither standard: for "mat" Gamão's own
    variant text (core/match/formats/variant.py, marked as not a .mat file), for "sgf" None."""
    if is_variant_record(record):
        return write_variant(record) if fmt == "mat" else None
    return write_mat(record) if fmt == "mat" else write_sgf(record)
