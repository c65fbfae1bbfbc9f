"""The director: every board of the club on one page, from the broker, with the club's archive.

``Director(broker, data_dir).start()`` is the intake (club/intake.py: the boards' messages taken in,
authenticated, put in order and replayed) and the views over what it keeps: this module answers the page
(``boards``, ``detail``, ``lessons``, ``status``, ``results``, ``night``, ``dice``, ``mat``, ``summary``) and the owner's
two controls (``rename``, ``close_match``), reading the intake's boards and matches under its lock and the
archive. ``create_app(director)`` (club/web.py) is the page and its API.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club.archive import Archive, match_summary
from club.config import Broker
from club.intake import MAX_MATCH_ID, BoardMatch, BoardView, Intake, for_director
from club.league_watch import BridgeWatch
from club.pairing import Pairing
from club.replay import Referee, replay
from core.match.dicestats import dice_stats  # the tournament issue's dice statistics (issue 21)
from core.match.formats.mat import write_mat
from core.match.formats.variant import is_variant_record, write_variant
from core.referee.record import to_match_record

__all__ = ["MAX_MATCH_ID", "Director", "attention", "wait_for"]  # MAX_MATCH_ID: club/web.py's path bound
log = logging.getLogger(__name__)
SILENT = 95.0        # seconds without a word after which a board counts as offline (it speaks every 30 s)
ENTRY_KEYS = ("board", "club", "online", "players", "score", "length", "phase", "last_verdict", "updated")


def attention(ref: Referee, alerts: list[str]) -> list[str]:
    """Why this board's referee waits on a human: illegal (a flagged play in strict mode, until the board is
    corrected), uncertain (the last ruling could not tell the play), cocked_die (R24, until acknowledged),
    and the board's own hardware alerts (dice_lost, camera_bumped). Empty when play can go on."""
    reasons: list[str] = []
    if ref.match_state.awaiting_ack:
        reasons.append("cocked_die")
    if ref.phase not in ("game_over", "match_over"):
        fault = ref.turn_state.last_fault
        if fault is not None and ref.rules.get("mode") == "strict":
            reasons.append("illegal")
        last = ref.verdicts[-1] if ref.verdicts else None
        if last is not None and last["verdict"] == "uncertain":
            reasons.append("uncertain")
    return reasons + [a for a in alerts if a not in reasons]


class Director:
    """The intake and the page's views over it (the views only read what the intake keeps)."""

    def __init__(self, broker: Broker | None, data_dir: str | Path, club: str = "+",
                 client_id: str | None = None, pairing: Pairing | None = None) -> None:
        self.intake = Intake(broker, data_dir, club, client_id, pairing)
        self.archive: Archive = self.intake.archive
        self.refused_pages = 0      # /ws connections from another site's page (club/web.py counts them)
        self.league_watch: BridgeWatch | None = None  # the league bridge's watchdog when this director runs it
        self._cache: dict[tuple[str, str], tuple[int, dict[str, Any], dict[str, Any]]] = {}
        # the first listener: the boards that changed are made again on the intake's thread when it tells of them,
        # before the pages hear of it, so that a page's read finds them made (constant time per board)
        self.intake.listen(self._remake_changed)

    def start(self) -> Director:
        self.intake.start()
        return self

    def close(self) -> None:
        if self.league_watch is not None:
            self.league_watch.close()
        self.intake.close()

    def listen(self, callback: Callable[[], object]) -> Callable[[], None]:
        """`callback()` after boards changed (the intake's worker thread); returns the function that stops it."""
        return self.intake.listen(callback)

    @property
    def results_version(self) -> int:
        """Counts the results saved (the page fetches /api/results again when it moves)."""
        return self.intake.results_version

    def _current(self, view: BoardView) -> BoardMatch | None:
        return None if view.match is None else self.intake.matches.get((view.club, view.board, view.match))

    def _public(self, m: BoardMatch | None) -> dict[str, Any] | None:
        return m.ref.public_state() if m is not None and m.ref is not None else None

    def _remake_changed(self) -> None:
        with self.intake.lock:
            for view in self.intake.views.values():
                made = self._cache.get((view.club, view.board))
                if made is None or made[0] != view.changes:
                    self._made(view)

    def _made(self, view: BoardView) -> tuple[int, dict[str, Any], dict[str, Any]]:
        """The board's /api/boards entry and its detail, made once per change of the board (reads between two
        changes are constant time)."""
        key = (view.club, view.board)
        made = self._cache.get(key)
        if made is None or made[0] != view.changes:
            detail = self._detail(view)
            made = self._cache[key] = (view.changes, {k: detail[k] for k in ENTRY_KEYS}, detail)
        return made

    @staticmethod
    def _online(view: BoardView) -> bool:
        # A board is online when its last state said so and it has spoken lately (a broker that crashed
        # cannot send the will of a board that went while it was down).
        return view.online and view.updated is not None and time.time() - view.updated < SILENT

    def board(self, view: BoardView) -> dict[str, Any]:
        """One entry of GET /api/boards (exactly ENTRY_KEYS)."""
        return self._as_of_now(view, "entry")

    def _as_of_now(self, view: BoardView, part: str) -> dict[str, Any]:
        """The board's `entry` or `detail`, made again when a message changed it, with "online" and "updated" as
        they are now."""
        _, entry, detail = self._made(view)
        return {**(entry if part == "entry" else detail), "online": self._online(view), "updated": view.updated}

    def boards(self) -> list[dict[str, Any]]:
        with self.intake.lock:
            return [self.board(self.intake.views[k]) for k in self.intake.order]

    def _detail(self, view: BoardView, moves: bool = False) -> dict[str, Any]:
        m = self._current(view)
        st = self._public(m)
        keys = ("position", "turn", "dice", "cube", "pips", "verdicts", "match", *(("moves",) if moves else ()))
        state = {k: st[k] for k in keys if k in st} if st else None
        if state is not None and "verdicts" in state:  # the players' own hints stay at the board (issue 36)
            state["verdicts"] = [v for v in state["verdicts"] if for_director(v)]
        if state is not None and st is not None and st.get("clock") is not None:
            state["clock"] = st["clock"]  # the tournament clock (issue 21), when the board's referee has one
        return {"board": view.board, "club": view.club, "online": self._online(view),
                "players": st["match"]["players"] if st else {},
                "score": st["match"]["score"] if st else {"light": 0, "dark": 0},
                "length": st["match"]["length"] if st else 0,
                "phase": st["phase"] if st else "waiting",
                "last_verdict": m.last_verdict if m is not None else None,
                "updated": view.updated,
                "label": view.label or view.board, "match": view.match,
                "attention": attention(m.ref, view.alerts) if m is not None and m.ref is not None
                else list(view.alerts),
                "alerts": list(view.alerts), "ruled": view.ruled, "received": view.received, "moved": view.moved,
                "events": m.next if m is not None else 0, "state": state,
                "lesson": dict(view.lesson) if view.lesson is not None else None}

    def detail(self, club: str, board: str, moves: bool = False) -> dict[str, Any]:
        """The board's page: the /api/boards entry plus label, match, attention and the public state."""
        with self.intake.lock:
            view = self.intake.views.get((club, board))
            if view is None:
                raise KeyError(board)
            if moves:
                return self._detail(view, moves=True)
            return self._as_of_now(view, "detail")

    def details(self) -> list[dict[str, Any]]:
        with self.intake.lock:
            return [self.detail(c, b) for (c, b) in self.intake.order]

    def lessons(self) -> list[dict[str, Any]]:
        """The class view (GET /api/lessons): each online board whose state names a lesson, in the grid's order."""
        with self.intake.lock:
            views = [self.intake.views[k] for k in self.intake.order]
            return [{"club": v.club, "board": v.board, "label": v.label or v.board, **dict(v.lesson)}
                    for v in views if v.lesson is not None and self._online(v)]

    def status(self) -> dict[str, Any]:
        """What the director took in and what it refused (GET /api/status)."""
        with self.intake.lock:
            top = sorted(self.intake.refused_by.items(), key=lambda kv: -kv[1])[:10]
            intake = self.intake
            return {"connected": intake.connected.is_set(), "paired": len(intake.pairing.boards()),
                    "boards": len(intake.views), "stats": dict(intake.stats), "refused": dict(intake.refused),
                    "refused_total": sum(intake.refused.values()),
                    "refused_by": [{"board": b, "count": n} for b, n in top], "link": dict(intake.link),
                    # the league's link through the bridge this director watches (club/league_watch.py), else None
                    "league_link": self.league_watch.state() if self.league_watch is not None else None}

    def results(self) -> list[dict[str, Any]]:
        return self.archive.results()

    @staticmethod
    def night_start(now: float | None = None) -> float:
        """A club night runs from 06:00 local time to 06:00 the next day (a night past midnight is one night)."""
        now = time.time() if now is None else now
        t = time.localtime(now - 6 * 3600)
        return time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 6, 0, 0, 0, 0, -1))

    def night(self) -> dict[str, Any]:
        """Tonight's results, standings (wins, then points) and the club rating kept across nights."""
        start = self.night_start()
        results = self.archive.results(since=start)
        ratings = {r["name"]: r for r in self.archive.ratings()}
        table: dict[str, dict[str, Any]] = {}
        for r in results:
            if r["status"] != "finished" or r["winner"] not in ("light", "dark"):
                continue
            for side in ("light", "dark"):
                name = str(r["players"].get(side) or "").strip()
                if not name:
                    continue
                row = table.setdefault(name, {"name": name, "played": 0, "won": 0, "lost": 0, "points_for": 0,
                                              "points_against": 0})
                other = "dark" if side == "light" else "light"
                row["played"] += 1
                row["won" if r["winner"] == side else "lost"] += 1
                row["points_for"] += int(r["score"].get(side, 0))
                row["points_against"] += int(r["score"].get(other, 0))
        standings = sorted(table.values(), key=lambda x: (-x["won"], -(x["points_for"] - x["points_against"]),
                                                          x["name"]))
        for row in standings:
            rating = ratings.get(row["name"])
            row["rating"] = rating["rating"] if rating else None
        return {"since": start, "results": results, "standings": standings, "ratings": list(ratings.values())}

    def dice(self, club: str, board: str) -> dict[str, Any]:
        """The board's rolls in its current match, and their statistics (core.match.dicestats)."""
        with self.intake.lock:
            view = self.intake.views.get((club, board))
            if view is None or view.match is None:
                raise KeyError(board)
            match = view.match
        rolls = [e for e in self.archive.events(club, board, match)
                 if e.get("event") == "roll" and isinstance(e.get("dice"), list) and len(e["dice"]) == 2]
        out: dict[str, Any] = {"board": board, "club": club, "match": match, "rolls": len(rolls)}
        try:
            out["stats"] = dice_stats(rolls)  # the unit's cocked rolls and re-sent rolls (same seq) counted apart
        except ValueError as exc:  # a board's event the director could not count (never a 5xx)
            log.warning("dice statistics of %s/%s: %s", club, board, exc)
            out["stats"] = None
        return out

    def mat(self, club: str, board: str, match: int) -> str:
        """The archived match as .mat text (replayed from the archive); KeyError if there is none. A match of one of
        the seeds' variants (R30-R32) is Gamão's own variant text, as the board's export writes it (.mat has no
        standard for these games: written as backgammon, its plays would not read back)."""
        ref, seen = replay(self.archive.events(club, board, match))
        if not seen:
            raise KeyError(match)
        record = to_match_record(ref)
        return write_variant(record) if is_variant_record(record) else write_mat(record)

    def summary(self, club: str, board: str, match: int) -> dict[str, Any]:
        """Score and game results of an archived match, replayed from the archive."""
        return match_summary(replay(self.archive.events(club, board, match))[0])

    # ----- control (the page checks the director's PIN first) --------------------------------------------
    def rename(self, club: str, board: str, label: str) -> None:
        with self.intake.lock:
            if (club, board) not in self.intake.views:
                raise KeyError(board)
            self.archive.set_label(club, board, label or None)
            self.intake.views[(club, board)].label = label or None
            self.intake.changed(self.intake.views[(club, board)])
        self.intake.notify()

    def close_match(self, club: str, board: str) -> dict[str, Any]:
        """Record the board's current match as closed by the director, at its present score."""
        with self.intake.lock:
            view = self.intake.views.get((club, board))
            m = self._current(view) if view is not None else None
            if view is None or m is None or m.ref is None or view.match is None:
                raise KeyError(board)
            if m.ref.phase == "match_over":
                raise ValueError(f"board {board}'s match {view.match} is over already; nothing to close")
            summary = match_summary(m.ref)
            self.archive.save_result(club, board, view.match, summary, "closed")
            m.result_saved = True
            self.intake.results_version += 1
            self.intake.changed(view)
        self.intake.notify()
        return summary


def wait_for(predicate: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    """Poll `predicate` until true or `timeout` seconds (tests, bench)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
