"""Tournament matches to the club's boards, and their results back (issue 39).

``Desk(director, journal).start()`` runs beside the director (club/director.py), on its own thread, woken by the
director's notices and every half second:

- **Assign**: each ready match (core/match/brackets.py) goes to a free board (paired, online, not on another
  tournament match, its own match over or none), earlier rounds first; or to the board the director chooses
  (``assign``). The assignment is journaled (club/tournament.py) with the board's last match id then (``after``).
- **Start**: a signed ``start_match`` command (club/commands.py) tells the board the table, the players, the
  length and the rule set; the board says "Mesa 3: Ana x Bruno, partida de 5 pontos" and starts the match.
  Until the board's events show a match after ``after`` with those two players, the command is sent again every
  ``RESEND`` seconds (a board that was off, a command lost): each a new counter; the board starts a tournament
  match once whatever copy arrives.
- **Result**: when the director's archive holds that match's result (the board's own record, finished), the
  winner and score go into the tournament (``source: board``, with the board's match id) and the bracket moves
  on. Nothing is typed. A match closed by the director at the board has no winner: the director enters it by
  hand (with the PIN).

Everything the desk knows is in the journal and the archive, so a director restarted mid-tournament goes on:
assigned matches are found again on their boards, and a result that arrived while the director was away comes
from the board's resent journal like any other.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import Any

from club.tournament import Journal
from core.match.brackets import Tournament, TournamentError

log = logging.getLogger(__name__)
RESEND = 10.0       # seconds between two copies of a start command the board has not acted on
STEP = 0.5          # seconds between two looks when nothing wakes the desk
FREE_PHASES = ("waiting", "match_over")


def table_of(board: str, label: str | None) -> str:
    """What a player is told: "3" for mesa03 (or a label "Mesa 3"), else the label or the board's name."""
    name = label or board
    m = re.search(r"(\d+)\s*$", name)
    return str(int(m.group(1))) if m else name


class Desk:
    def __init__(self, director: Any, journal: Journal, *, auto: bool = True, rule_set: str | None = None) -> None:
        self.director = director
        self._intake = getattr(director, "intake", director)  # the broker client and the pairing (club/intake.py)
        self.journal = journal
        self.auto = auto
        self.rule_set = rule_set
        self.sent: dict[tuple[str, str], float] = {}      # (tournament, match) -> when the command last went
        self.stats = {"commands": 0, "results": 0, "assigned": 0}
        self.version = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.RLock()
        self._thread = threading.Thread(target=self._loop, name="tournament-desk", daemon=True)
        self._unlisten: Any = None

    def start(self) -> Desk:
        self._unlisten = self.director.listen(self._wake.set)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._unlisten is not None:
            self._unlisten()
        if self._thread.is_alive():
            self._thread.join(5)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(STEP)
            self._wake.clear()
            try:
                self.step()
            except Exception:  # the desk must not stop: the next look tries again
                log.exception("tournament desk")

    # ----- what the director knows of its boards -------------------------------------------------------------
    def _boards(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Paired boards the director has heard of: (club, board) -> online, phase, players, match, label."""
        out = {}
        paired = self._intake.pairing.boards()
        for entry in self.director.details():
            cred = paired.get(entry["board"])
            if cred is None or cred.get("club") != entry["club"]:
                continue
            out[(entry["club"], entry["board"])] = entry
        return out

    def _busy(self) -> set[tuple[str, str]]:
        busy = set()
        for name in self.journal.names():
            t = self.journal.load(name)
            for mid in list(t.s.boards):
                a = t.assignment(mid)
                busy.add((a.get("club") or "", a["board"]))
        return busy

    def in_play(self) -> list[dict[str, Any]]:
        """The tournaments' matches on a board now (assigned, no result yet): tournament, match, round, bracket,
        club, board."""
        out = []
        for name in self.journal.names():
            t = self.journal.load(name)
            defs = {d.id: d for d in t.s.defs}
            for mid in list(t.s.boards):
                d = defs.get(mid)
                if d is None:
                    continue
                a = t.assignment(mid)
                out.append({"tournament": t.name, "match": mid, "round": d.round, "bracket": d.bracket,
                            "club": a.get("club") or "", "board": a["board"]})
        return out

    def featured_match(self) -> tuple[str, str] | None:
        """The board the broadcast follows when the director features none (club/live.py ``Live.auto``): the
        tournament's match that matters most among those in play: a double elimination's final, then the main
        bracket's, then the highest round (then the earliest match)."""
        playing = self.in_play()
        if not playing:
            return None
        best = min(playing, key=lambda m: (m["bracket"] != "final", m["bracket"] != "main", -m["round"],
                                           m["tournament"], m["match"]))
        return best["club"], best["board"]

    def free_boards(self) -> list[tuple[str, str]]:
        busy = self._busy()
        return [key for key, e in sorted(self._boards().items())
                if e["online"] and key not in busy and e["phase"] in FREE_PHASES and not e.get("attention")]

    # ----- acting -------------------------------------------------------------------------------------------
    def assign(self, name: str, mid: str, club: str, board: str) -> Tournament:
        """Put a ready match on a board (the director's choice, or the desk's) and send the start command."""
        with self._lock:
            entry = self._boards().get((club, board))
            if entry is None:
                raise TournamentError(f"board {board} of club {club} is not a paired board the director has heard of")
            if (club, board) in self._busy():
                raise TournamentError(f"board {board} has a tournament match already")
            if entry["phase"] not in FREE_PHASES:
                raise TournamentError(f"board {board} is in the middle of a match ({entry['phase']})")
            t = self.journal.apply(name, {"op": "assign", "match": mid, "board": board, "club": club,
                                          "after": entry["match"] if entry["match"] is not None else -1})
            self.stats["assigned"] += 1
            self._send(t, mid)
            self.version += 1
        return t

    def _send(self, t: Tournament, mid: str) -> bool:
        a = t.assignment(mid)
        club, board = a["club"], a["board"]
        m = t.match(mid)
        label = None
        try:
            label = self.director.detail(club, board).get("label")
        except KeyError:
            pass
        body = {"command": "start_match", "tournament": t.name, "match": mid, "table": table_of(board, label),
                "players": {"light": m["light"], "dark": m["dark"]}, "length": m["length"],
                "rule_set": t.view().get("rule_set") or self.rule_set,
                # the match's n-th assignment: taken off a board and sent again, even to the same board, it starts
                "attempt": sum(1 for op in t.ops if op.get("op") == "assign" and op.get("match") == mid)}
        if not self._intake.send_command(club, board, body):  # the director's one command counter (club/intake.py)
            return False
        self.sent[(t.name, mid)] = time.monotonic()
        self.stats["commands"] += 1
        return True

    def _found(self, club: str, board: str, after: int, light: str, dark: str,
               results: list[dict[str, Any]]) -> tuple[int | None, dict[str, Any] | None]:
        """The board's match for this assignment (after `after`, these players) and its result if finished."""
        for r in sorted(results, key=lambda r: r["match"]):
            if (r["club"], r["board"]) == (club, board) and r["match"] > after \
                    and r["players"].get("light") == light and r["players"].get("dark") == dark:
                return r["match"], r
        entry = self._boards().get((club, board))
        if entry is not None and entry["match"] is not None and entry["match"] > after \
                and entry["players"].get("light") == light and entry["players"].get("dark") == dark:
            return entry["match"], None
        return None, None

    def step(self) -> None:
        with self._lock:
            names = self.journal.names()
            results: list[dict[str, Any]] | None = None
            for name in names:
                t = self.journal.load(name)
                for mid in list(t.s.boards):
                    if results is None:
                        results = [r for r in self.director.results() if r["status"] == "finished"]
                    self._follow(name, t, mid, results)
                    t = self.journal.load(name)
            if not self.auto:
                return
            for name in names:
                t = self.journal.load(name)
                for m in t.ready():
                    free = self.free_boards()
                    if not free:
                        return
                    try:
                        t = self.assign(name, m["id"], *free[0])
                    except TournamentError as exc:  # a player on another board: the next ready match
                        log.debug("tournament desk: %s", exc)

    def _follow(self, name: str, t: Tournament, mid: str, results: list[dict[str, Any]]) -> None:
        a = t.assignment(mid)
        m = t.match(mid)
        club, board = a.get("club") or "", a["board"]
        found, result = self._found(club, board, (int(a["after"]) if a.get("after") is not None else -1),
                                    m["light"], m["dark"], results)
        if result is not None and result.get("winner") in ("light", "dark"):
            score = result["score"]
            try:
                self.journal.apply(name, {"op": "result", "match": mid, "winner": result["winner"],
                                          "score": f"{int(score['light'])}-{int(score['dark'])}", "source": "board",
                                          "board": board, "club": club, "board_match": found})
            except TournamentError as exc:
                log.warning("tournament %s: the result of %s from board %s was not taken: %s", name, mid, board, exc)
                return
            self.stats["results"] += 1
            self.version += 1
            log.info("tournament %s: %s won by %s on board %s", name, mid, result["players"][result["winner"]], board)
            return
        if found is None and time.monotonic() - self.sent.get((name, mid), -RESEND) >= RESEND:
            self._send(t, mid)

    # ----- the big screen's view ------------------------------------------------------------------------------
    def screen(self, name: str) -> dict[str, Any]:
        """The tournament with, for each match on a board, the board's live score, clock and phase."""
        t = self.journal.load(name)
        view = t.view()
        boards = self._boards()
        for m in view["matches"]:
            if m["status"] != "playing":
                continue
            a = t.assignment(m["id"])
            entry = boards.get((a.get("club") or "", a["board"]))
            live: dict[str, Any] = {"started": False}
            if entry is not None:
                live["online"] = entry["online"]
                live["table"] = table_of(a["board"], entry.get("label"))
                players = entry.get("players") or {}
                if entry["match"] is not None and entry["match"] > int(a.get("after") or -1) \
                        and players.get("light") == m["light"] and players.get("dark") == m["dark"]:
                    live.update(started=True, score=entry["score"], phase=entry["phase"],
                                clock=(entry.get("state") or {}).get("clock"))
            m["live"] = live
        view["free_boards"] = [{"club": c, "board": b} for c, b in self.free_boards()]
        view["tables"] = {b: table_of(b, e.get("label")) for (c, b), e in boards.items()}
        return view
