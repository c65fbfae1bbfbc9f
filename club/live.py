"""The broadcast (issue 40): every board's match as the world may see it, the director's delay behind the boards.

The delay is the server's: a board's event is shown only once it has been at the director for ``delay`` seconds
(the archive's ``received``, the same setting as the public screen's, ``GET /api/settings``). Nothing newer ever
leaves this module, so no page, file or program reading the broadcast can run ahead of it, whatever it does.

``Live(director)``:

- ``resolve(name)``: ``featured`` (the board the director features, a PIN-guarded setting; when none, the
  tournament's match in play that matters most, ``auto``), ``CLUB/BOARD`` or a board name heard from in one club
  only -> (club, board);
- ``overlay(club, board)``: the OBS overlay's one JSON object (players, score, length, cube, pips, dice, clock,
  position, last play...) as of ``now - delay``;
- ``mat``/``sgf(club, board)``: the board's match so far as .mat / SGF text, as of ``now - delay`` (the games
  finished and the one in play, as the board's own export writes them);
- ``listing()``: the night's matches (begun since the night started, at least ``delay`` seconds ago).

Each board's delayed referee is fed incrementally from the archive (one SQL read of the new events per request
at most); a longer delay set meanwhile starts it again from the match's first event.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from club.config import NAME
from club.replay import Referee, feed
from club.tournament_boards import table_of
from core.match.formats.mat import write_mat
from core.match.formats.sgf import write_sgf
from core.match.formats.variant import is_variant_record, write_variant
from core.referee.record import to_match_record

log = logging.getLogger(__name__)
FEATURED = "featured"
MAX_REFS = 1000  # delayed referees kept (a league's boards: 10 clubs of 20 boards, with room)


class NoBoard(KeyError):
    """No such board (or no match of it yet behind the delay); the message says which."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such board"


@dataclass
class _Fed:
    match: int
    ref: Referee
    next: int = 0                # events fed
    last_received: float = 0.0   # when the last fed event reached the director
    used: float = 0.0            # monotonic time of the last use (the least used go first)


class Live:
    """The delayed view of every board (see the module's docstring)."""

    def __init__(self, director: Any, clock: Any = time.time) -> None:
        self.director = director
        self.archive = director.archive
        self.clock = clock
        self._lock = threading.Lock()
        self._fed: dict[tuple[str, str], _Fed] = {}
        self._settings: tuple[float, int, Any] = (0.0, 0, None)
        #: the board followed when the director features none (club/tournament_boards.py ``Desk.featured_match``: the
        #: tournament's most important match in play), read twice a second at most
        self.auto: Callable[[], tuple[str, str] | None] | None = None
        self._auto: tuple[float, tuple[str, str] | None] = (0.0, None)

    # ----- settings -------------------------------------------------------------------------------------------
    def _read_settings(self) -> tuple[int, Any]:
        at, delay, featured = self._settings
        now = time.monotonic()
        if now - at > 0.5:  # read again twice a second at most (a delay set is in force within 0.5 s)
            delay = int(self.archive.setting("delay", 0) or 0)
            featured = self.archive.setting("featured", None)
            self._settings = (now, delay, featured)
        return delay, featured

    def settings_changed(self) -> None:
        """The director's page set the delay or the featured board: read them at the next request."""
        self._settings = (0.0, 0, None)

    def delay(self) -> int:
        return self._read_settings()[0]

    def featured(self) -> tuple[str, str] | None:
        """The director's choice; when there is none, the tournament's match in play that matters most (``auto``)."""
        featured = self._read_settings()[1]
        if isinstance(featured, dict) and isinstance(featured.get("club"), str) and isinstance(featured.get("board"), str):
            return featured["club"], featured["board"]
        return self.auto_featured()

    def auto_featured(self) -> tuple[str, str] | None:
        if self.auto is None:
            return None
        at, found = self._auto
        now = time.monotonic()
        if now - at > 0.5:
            try:
                found = self.auto()
            except Exception:  # the tournaments' journal unreadable for a moment: nothing followed, never a 5xx
                log.exception("the broadcast's featured tournament match")
                found = None
            self._auto = (now, found)
        return found

    def cutoff(self) -> float:
        return float(self.clock()) - self.delay()

    # ----- which board ------------------------------------------------------------------------------------
    def resolve(self, name: str) -> tuple[str, str]:
        """`featured`, `CLUB/BOARD` or `BOARD` -> (club, board); NoBoard when there is none (or two clubs have it)."""
        if name == FEATURED:
            featured = self.featured()
            if featured is None:
                raise NoBoard("the director features no board (the director's page: feature)")
            return featured
        club, _, board = name.rpartition("/")
        if not NAME.fullmatch(board) or (club and not NAME.fullmatch(club)):
            raise NoBoard(f"{name!r} is not a board's name (CLUB/BOARD or BOARD: letters, digits, '-', '_')")
        intake = self.director.intake
        with intake.lock:
            known = [k for k in intake.views if k[1] == board and (not club or k[0] == club)]
        if not known:
            raise NoBoard(f"no board {name!r} has been heard from")
        if len(known) > 1:
            raise NoBoard(f"board {board!r} is in {len(known)} clubs: say which, CLUB/{board}")
        return known[0]

    # ----- the delayed referee ----------------------------------------------------------------------------
    def _referee(self, club: str, board: str, cutoff: float) -> _Fed | None:
        """The board's match in play at `cutoff`, fed every event received by then (call under self._lock)."""
        match = self.archive.match_begun(club, board, cutoff)
        if match is None:
            return None
        fed = self._fed.get((club, board))
        if fed is None or fed.match != match or fed.last_received > cutoff:  # another match, or a longer delay
            fed = _Fed(match, Referee())
            self._fed[(club, board)] = fed
            if len(self._fed) > MAX_REFS:
                oldest = min(self._fed, key=lambda k: self._fed[k].used)
                del self._fed[oldest]
        while True:
            rows = self.archive.received_from(club, board, match, fed.next, cutoff)
            for idx, event, received in rows:
                feed(fed.ref, event)
                fed.next = idx + 1
                fed.last_received = received
            if len(rows) < 2000:
                break
        fed.used = time.monotonic()
        return fed

    def state(self, club: str, board: str) -> tuple[_Fed, float] | None:
        with self._lock:
            cutoff = self.cutoff()
            fed = self._referee(club, board, cutoff)
            return None if fed is None else (fed, cutoff)

    def _label(self, club: str, board: str) -> str:
        intake = self.director.intake
        with intake.lock:
            view = intake.views.get((club, board))
            return (view.label if view is not None and view.label else board)

    @staticmethod
    def _table(board: str, label: str) -> str | None:
        """The table's number as the tournament desk calls it ("1" for mesa01; a director's label that is a number),
        None when the director named the board in words (its label is shown as written)."""
        if label != board and not label.strip().isdigit():
            return None
        number = table_of(board, label)
        return number if number.isdigit() else None

    # ----- what the broadcast shows -----------------------------------------------------------------------
    def overlay(self, name: str) -> dict[str, Any]:
        """The overlay's JSON object for `name` (see docs/CONTRACTS.md, "The broadcast")."""
        club, board = self.resolve(name)
        delay = self.delay()
        label = self._label(club, board)
        out: dict[str, Any] = {"club": club, "board": board, "label": label, "table": self._table(board, label),
                               "delay": delay, "featured": name == FEATURED, "match": None}
        with self._lock:
            cutoff = self.cutoff()
            fed = self._referee(club, board, cutoff)
            if fed is None:
                out["as_of"] = cutoff
                return out
            st = fed.ref.public_state()
            events = fed.next
            last_received = fed.last_received
            match = fed.match
        moves = st.get("moves") or []
        last = moves[-1] if moves else None
        m = st["match"]
        out.update({
            "match": match, "events": events, "as_of": cutoff, "since_last": max(0.0, cutoff - last_received),
            "players": m["players"], "score": m["score"], "length": m["length"], "crawford": m.get("crawford", False),
            "game": m.get("game"), "phase": st["phase"], "turn": st.get("turn"), "position": st["position"],
            "dice": st.get("dice"), "cube": st.get("cube"), "pips": st.get("pips"), "clock": st.get("clock"),
            "variant": st.get("variant"),
            "last_play": None if last is None else {k: last.get(k) for k in ("game", "number", "side", "roll", "play")},
        })
        return out

    def _record(self, club: str, board: str) -> tuple[Any, int]:
        with self._lock:
            fed = self._referee(club, board, self.cutoff())
            if fed is None or fed.next == 0:
                raise NoBoard(f"board {board!r} of club {club!r} has no match behind the broadcast's delay yet")
            return to_match_record(fed.ref), fed.match

    def mat(self, name: str) -> tuple[str, str]:
        """(file name, .mat text) of the board's match so far (Gamão's variant text for a variant's match)."""
        club, board = self.resolve(name)
        record, match = self._record(club, board)
        text = write_variant(record) if is_variant_record(record) else write_mat(record)
        return f"{club}-{board}-{match}.mat", text

    def sgf(self, name: str) -> tuple[str, str]:
        club, board = self.resolve(name)
        record, match = self._record(club, board)
        if is_variant_record(record):
            raise NoBoard(f"board {board!r} plays a variant: SGF has no standard for it (take the .mat)")
        return f"{club}-{board}-{match}.sgf", write_sgf(record)

    def listing(self) -> dict[str, Any]:
        """The night's matches behind the delay, newest first (GET /live/)."""
        cutoff = self.cutoff()
        since = self.director.night_start(cutoff)
        begun = self.archive.matches_begun(cutoff, since)
        results = {(r["club"], r["board"], r["match"]): r for r in self.archive.results(since=since)}
        latest: dict[tuple[str, str], int] = {}
        for club, board, match, _ in begun:
            latest[(club, board)] = match
        rows = []
        for club, board, match, started in reversed(begun):
            entry: dict[str, Any] = {"club": club, "board": board, "match": match, "started": started,
                                     "in_play": latest[(club, board)] == match}
            if entry["in_play"]:
                got = self.state(club, board)
                if got is not None:
                    st = got[0].ref.public_state()
                    entry.update(players=st["match"]["players"], score=st["match"]["score"],
                                 length=st["match"]["length"], phase=st["phase"])
                entry.update(mat=f"/live/{club}/{board}.mat", sgf=f"/live/{club}/{board}.sgf",
                             overlay=f"/overlay?board={club}/{board}")
            else:
                result = results.get((club, board, match))
                if result is not None:
                    entry.update(players=result["players"], score=result["score"], length=result["length"],
                                 phase=result["status"])
            rows.append(entry)
        return {"as_of": cutoff, "delay": self.delay(), "since": since, "matches": rows}
