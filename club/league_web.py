"""The league's page (issue 40): every club's boards and results under the club's name, the inter-club fixtures
with their team scores, and the league table; read-only, on the league director's port.

- ``GET /league``: the page (club/static/league.{html,js,css}), polled every 2 s;
- ``GET /api/league``: ``{"clubs": [{"club", "boards": [entry...], "results": [...]}], "fixtures": [scored...],
  "table": [...], "ratings": [...]}`` (docs/CONTRACTS.md, "The league"): the boards' entries are /api/boards'
  (club/director.py), the results /api/results', each under its club; the fixtures scored by
  club/league_night.py from the league's results (the boards' own signed records), each pairing still in play with
  ``"live"``: the score of its match on the board now (``{"home", "away", "length"}``) or null.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from club.director import Director
from club.league import League
from club.league_night import score, table
from webguard.page import page_reply

STATIC = Path(__file__).with_name("static")
RESULTS_SHOWN = 50   # results a club shows on the page (newest first)


def league_view(director: Director, league: League) -> dict[str, Any]:
    clubs = league.clubs()
    boards = director.boards()
    results = director.results()
    grouped: dict[str, dict[str, Any]] = {c: {"club": c, "boards": [], "results": []} for c in clubs}
    for b in boards:
        grouped.setdefault(b["club"], {"club": b["club"], "boards": [], "results": []})["boards"].append(b)
    for r in results:
        club = grouped.setdefault(r["club"], {"club": r["club"], "boards": [], "results": []})
        if len(club["results"]) < RESULTS_SHOWN:
            club["results"].append(r)
    scored = [score(f, results) for f in league.fixtures()]
    by_board = {(b["club"], b["board"]): b for b in boards}
    for fixture in scored:
        for p in fixture["pairings"]:
            p["live"] = _live(p, by_board.get((p["club"], p["board"]))) if p["status"] == "playing" else None
    return {"clubs": [grouped[c] for c in sorted(grouped)], "fixtures": scored, "table": table(scored, clubs),
            "ratings": director.night()["ratings"]}


def _live(pairing: dict[str, Any], board: dict[str, Any] | None) -> dict[str, int] | None:
    """The score of the pairing's match in play on its board (the board's current match between those two players),
    or None."""
    if board is None or not board.get("length"):
        return None
    players = board.get("players") or {}
    light, dark = str(players.get("light") or "").strip(), str(players.get("dark") or "").strip()
    if {light, dark} != {pairing["home"], pairing["away"]} or board.get("phase") == "match_over":
        return None
    home = "light" if light == pairing["home"] else "dark"
    away = "dark" if home == "light" else "light"
    return {"home": int(board["score"][home]), "away": int(board["score"][away]), "length": int(board["length"])}


def add_league_routes(app: FastAPI, director: Director, league: League) -> None:
    @app.get("/league", include_in_schema=False)
    def page(request: Request) -> Response:
        return page_reply(STATIC / "league.html", request)

    @app.get("/api/league", summary="The league: each club's boards and results, the fixtures' team scores, the table")
    def view() -> dict[str, Any]:
        return league_view(director, league)
