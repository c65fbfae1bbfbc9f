"""The league's inter-club match night (issue 40): one club's team against another's, the team score, the table.

How a backgammon league's team match is played (the London Backgammon League, the UK's county and national team
leagues): each club fields a team of N players (six in London); on the night the home club hosts, the away team
travels, and each home player plays one match against one away player; a team scores one point for each match its
player wins, and the team with more won matches wins the fixture (an even N can end level). The league table
counts fixtures won, drawn and lost and the matches won and lost.

Here a fixture is that night at the league: ``{"id", "home", "away", "start", "length", "pairings"}``, each pairing
a board and the two players who meet on it (``{"club", "board", "home", "away"}``: the home team's player and the
away team's). The boards are the home club's (the usual night: both teams in one room); a board of the away
club's is accepted too (a night split over the two clubs' rooms, each team's half at home), since a board's record
reaches the league from whichever club it is in. The result of a pairing is gathered at the league director from
the boards' own signed records (club/intake.py checks each board's signature; the referee at the league replays
the events): the first match finished on that board after the fixture's start between those two players (their
colours either way). A match the director closed by hand counts for nobody (the fixture shows it). Pure
bookkeeping: no I/O; club/league.py keeps the fixtures, club/league_web.py shows them.

League points of a fixture: 2 for a win, 1 each for a draw, 0 for a loss (``POINTS``).

>>> fx = check_fixture({"id": "j1", "home": "porto", "away": "lisboa", "start": 0, "pairings": [
...     {"club": "porto", "board": "mesa01", "home": "Ana", "away": "Bruno"}]}, {"porto", "lisboa"})
>>> score(fx, [{"club": "porto", "board": "mesa01", "match": 3, "players": {"light": "Bruno", "dark": "Ana"},
...             "winner": "dark", "status": "finished", "finished": 10.0, "score": {"light": 1, "dark": 3}}])["score"]
{'home': 1, 'away': 0}
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Any

from club.config import NAME
from core.match.brackets import MAX_LENGTH, TournamentError, check_name

MAX_PAIRINGS = 32          # boards of one fixture (a team match is 4-8 a side)
MAX_FIXTURES = 500         # fixtures the league keeps (a season of 10 clubs is 90)
POINTS = {"won": 2, "drawn": 1, "lost": 0}


class FixtureError(ValueError):
    """A fixture the league cannot take, with a message for its director."""


def check_fixture(raw: Any, clubs: Collection[str]) -> dict[str, Any]:
    """The fixture as kept (FixtureError when it is not one): paired clubs, a board and a player at most once."""
    if not isinstance(raw, dict):
        raise FixtureError("a fixture is a JSON object")
    fid, home, away = raw.get("id"), raw.get("home"), raw.get("away")
    if not isinstance(fid, str) or not NAME.match(fid):
        raise FixtureError(f"fixture id {fid!r}: 1-40 letters, digits, '-' or '_'")
    for side, club in (("home", home), ("away", away)):
        if not isinstance(club, str) or club not in clubs:
            raise FixtureError(f"fixture {fid}: the {side} club {club!r} is not paired with the league")
    if home == away:
        raise FixtureError(f"fixture {fid}: a club does not play itself")
    start = raw.get("start")
    if not isinstance(start, (int, float)) or isinstance(start, bool) or not math.isfinite(start) or start < 0:
        raise FixtureError(f"fixture {fid}: start must be a time (seconds since 1970)")
    length = raw.get("length")
    if length is not None and (not isinstance(length, int) or isinstance(length, bool)
                               or not 1 <= length <= MAX_LENGTH):
        raise FixtureError(f"fixture {fid}: length must be 1-{MAX_LENGTH} points or absent")
    pairings = raw.get("pairings")
    if not isinstance(pairings, list) or not 1 <= len(pairings) <= MAX_PAIRINGS:
        raise FixtureError(f"fixture {fid}: pairings must be a list of 1-{MAX_PAIRINGS}")
    out: list[dict[str, str]] = []
    boards: set[tuple[str, str]] = set()
    players: set[str] = set()
    for i, p in enumerate(pairings, 1):
        if not isinstance(p, dict):
            raise FixtureError(f"fixture {fid}, pairing {i}: a JSON object")
        club, board = p.get("club", home), p.get("board")
        if club not in (home, away):
            raise FixtureError(f"fixture {fid}, pairing {i}: the board must be one of the two clubs' ({home}, {away})")
        if not isinstance(board, str) or not NAME.match(board):
            raise FixtureError(f"fixture {fid}, pairing {i}: board {board!r} is not a board's name")
        if (club, board) in boards:
            raise FixtureError(f"fixture {fid}: board {club}/{board} has two pairings")
        boards.add((str(club), board))
        try:
            names = check_name(p.get("home")), check_name(p.get("away"))
        except TournamentError as exc:
            raise FixtureError(f"fixture {fid}, pairing {i}: {exc}") from None
        for name in names:
            if name in players:
                raise FixtureError(f"fixture {fid}: {name} plays twice")
            players.add(name)
        out.append({"club": str(club), "board": board, "home": names[0], "away": names[1]})
    return {"id": fid, "home": home, "away": away, "start": float(start), "length": length, "pairings": out}


def _between(result: dict[str, Any], home: str, away: str) -> str | None:
    """"home"/"away": which of the pairing's players won the result; "none" when it names both but has no winner;
    None when it is not a match between those two."""
    players = result.get("players") or {}
    names = {str(players.get("light") or "").strip(), str(players.get("dark") or "").strip()}
    if names != {home, away}:
        return None
    winner = result.get("winner")
    if result.get("status") != "finished" or winner not in ("light", "dark"):
        return "none"
    return "home" if str(players.get(winner)).strip() == home else "away"


def score(fixture: dict[str, Any], results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The fixture with each pairing's result and the team score, from the league's results (club/archive.py
    ``results``: every club's, newest first)."""
    wanted = {(p["club"], p["board"]) for p in fixture["pairings"]}
    by_board: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        key = (r["club"], r["board"])
        if key in wanted and float(r.get("finished") or 0) >= fixture["start"] and (
                r.get("started") is None or float(r["started"]) >= fixture["start"]):
            by_board.setdefault(key, []).append(r)
    team = {"home": 0, "away": 0}
    done = 0
    shown = []
    for p in fixture["pairings"]:
        mine = sorted(by_board.get((p["club"], p["board"]), []), key=lambda r: (r["finished"], r["match"]))
        row: dict[str, Any] = {**p, "winner": None, "status": "playing", "match": None, "score": None}
        for r in mine:
            won = _between(r, p["home"], p["away"])
            if won is None:
                continue
            players = r["players"]
            row["match"], row["status"] = r["match"], r["status"]
            row["score"] = {"home": r["score"]["light" if players.get("light") == p["home"] else "dark"],
                            "away": r["score"]["dark" if players.get("light") == p["home"] else "light"]}
            if won in ("home", "away"):
                row["winner"] = won
                team[won] += 1
            done += 1
            break
        shown.append(row)
    over = done == len(fixture["pairings"])
    outcome = None
    if over:
        outcome = "home" if team["home"] > team["away"] else "away" if team["away"] > team["home"] else "drawn"
    return {**fixture, "pairings": shown, "score": team, "played": done, "over": over, "outcome": outcome}


def table(scored: Iterable[dict[str, Any]], clubs: Iterable[str]) -> list[dict[str, Any]]:
    """The league table over the fixtures played to the end: fixtures won/drawn/lost, matches won/lost, points."""
    def blank(club: str) -> dict[str, Any]:
        return {"club": club, "played": 0, "won": 0, "drawn": 0, "lost": 0, "matches_won": 0, "matches_lost": 0,
                "points": 0}

    rows = {c: blank(c) for c in clubs}
    for fx in scored:
        if not fx["over"]:
            continue
        for side, other in (("home", "away"), ("away", "home")):
            row = rows.setdefault(fx[side], blank(fx[side]))
            row["played"] += 1
            row["matches_won"] += fx["score"][side]
            row["matches_lost"] += fx["score"][other]
            how = "drawn" if fx["outcome"] == "drawn" else "won" if fx["outcome"] == side else "lost"
            row[how] += 1
            row["points"] += POINTS[how]
    return sorted(rows.values(), key=lambda r: (-r["points"], -(r["matches_won"] - r["matches_lost"]), r["club"]))
