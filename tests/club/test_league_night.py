"""The league's inter-club match night (issue 40; club/league_night.py, club/league_web.py): a fixture of one
club's team against another's, each pairing's result gathered from the league's archive (the boards' own records),
the team score, the league table; the league page groups every club's boards and results under its name."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from club.auth import new_sign_key
from club.director import Director
from club.league import League
from club.league_night import FixtureError, check_fixture, score, table
from club.league_web import _live
from club.web import create_app
from tests.kiosk.browser import SCREENSHOTS, chromium_or_skip, chromium_page
from webguard.pin import PinStore
from webguard.server import BackgroundServer

KEY = new_sign_key()[1]  # a board's public key, as a club gives it (club/auth.py)
CLUBS = {"porto", "lisboa"}
FIXTURE = {"id": "j1", "home": "porto", "away": "lisboa", "start": 1000.0, "pairings": [
    {"club": "porto", "board": "mesa01", "home": "Ana", "away": "Bruno"},
    {"club": "porto", "board": "mesa02", "home": "Carla", "away": "Duarte"},
    {"club": "lisboa", "board": "mesa01", "home": "Eva", "away": "Filipe"},   # a night over both clubs' rooms
    {"club": "lisboa", "board": "mesa02", "home": "Gil", "away": "Hugo"}]}


def result(club: str, board: str, light: str, dark: str, winner: str | None, finished: float = 2000.0,
           status: str = "finished", match: int = 1) -> dict[str, Any]:
    score = {"light": 3, "dark": 1} if winner == "light" else {"light": 1, "dark": 3}
    return {"club": club, "board": board, "match": match, "players": {"light": light, "dark": dark},
            "winner": winner, "status": status, "finished": finished, "started": finished - 500, "score": score}


def test_a_fixture_is_checked() -> None:
    fx = check_fixture(FIXTURE, CLUBS)
    assert fx["pairings"][2] == {"club": "lisboa", "board": "mesa01", "home": "Eva", "away": "Filipe"}
    bad = [({**FIXTURE, "away": "porto"}, "itself"), ({**FIXTURE, "away": "braga"}, "not paired"),
           ({**FIXTURE, "id": "a b"}, "fixture id"), ({**FIXTURE, "start": float("nan")}, "start"),
           ({**FIXTURE, "pairings": []}, "pairings"),
           ({**FIXTURE, "pairings": [*FIXTURE["pairings"], {**FIXTURE["pairings"][0], "home": "Zé"}]}, "two pairings"),
           ({**FIXTURE, "pairings": [FIXTURE["pairings"][0], {"board": "mesa09", "home": "Ana", "away": "X"}]},
            "plays twice"),
           ({**FIXTURE, "pairings": [{"club": "braga", "board": "mesa01", "home": "A", "away": "B"}]}, "two clubs'"),
           ({**FIXTURE, "pairings": [{"board": "mesa01", "home": "<b>", "away": "B"}]}, "player name"),
           ({**FIXTURE, "length": 0}, "length"), ([], "JSON object")]
    for raw, words in bad:
        with pytest.raises(FixtureError, match=words):
            check_fixture(raw, CLUBS)


def test_the_team_score_is_the_matches_won() -> None:
    fx = check_fixture(FIXTURE, CLUBS)
    results = [
        result("porto", "mesa01", "Bruno", "Ana", "dark"),                        # Ana (home) wins, colours swapped
        result("porto", "mesa02", "Carla", "Duarte", "dark"),                     # Duarte (away) wins
        result("lisboa", "mesa01", "Eva", "Filipe", "light", finished=1500.0),    # Eva (home) wins
        result("lisboa", "mesa01", "Eva", "Filipe", "dark", finished=1800.0, match=2),  # a second match: not counted
        result("lisboa", "mesa02", "Gil", "Hugo", "light", finished=900.0),       # before the night: not counted
        result("lisboa", "mesa02", "Gil", "Zé", "light"),                         # other players: not this pairing
        result("porto", "mesa03", "Ana", "Bruno", "dark"),                        # another board
    ]
    s = score(fx, results)
    assert s["score"] == {"home": 2, "away": 1} and s["played"] == 3 and not s["over"] and s["outcome"] is None
    assert [p["winner"] for p in s["pairings"]] == ["home", "away", "home", None]
    assert s["pairings"][0]["score"] == {"home": 3, "away": 1}
    # the last pairing closed by the director at its score: played, counted for nobody; the night is over
    s = score(fx, [*results, result("lisboa", "mesa02", "Hugo", "Gil", None, status="closed")])
    assert s["over"] and s["outcome"] == "home" and s["score"] == {"home": 2, "away": 1}
    assert s["pairings"][3]["status"] == "closed" and s["pairings"][3]["winner"] is None
    s2 = score(fx, [*results, result("lisboa", "mesa02", "Hugo", "Gil", "light")])   # Hugo (away) wins: 2-2
    assert s2["outcome"] == "drawn" and s2["score"] == {"home": 2, "away": 2}
    rows = {r["club"]: r for r in table([s, s2, score({**fx, "id": "j2"}, [])], CLUBS | {"braga"})}
    assert rows["porto"] == {"club": "porto", "played": 2, "won": 1, "drawn": 1, "lost": 0, "matches_won": 4,
                             "matches_lost": 3, "points": 3}
    assert rows["lisboa"]["points"] == 1 and rows["lisboa"]["lost"] == 1 and rows["braga"]["played"] == 0


def _league(tmp_path: Path) -> League:
    league = League(tmp_path / "league")
    for club in sorted(CLUBS):
        league.pair_club(club, {"mesa01": KEY, "mesa02": KEY}, broker="mqtt://127.0.0.1:1")
    return league


def test_the_league_keeps_fixtures_of_its_clubs_boards(tmp_path: Path) -> None:
    league = _league(tmp_path)
    league.add_fixture(FIXTURE)
    with pytest.raises(FixtureError, match="exists"):
        league.add_fixture(FIXTURE)
    with pytest.raises(FixtureError, match="no board 'mesa07'"):
        league.add_fixture({**FIXTURE, "id": "j2", "pairings": [{"board": "mesa07", "home": "A", "away": "B"}]})
    league.add_fixture({**FIXTURE, "start": 5000.0}, again=True)
    assert [f["start"] for f in League(tmp_path / "league").fixtures()] == [5000.0]  # kept in league.json


def test_the_league_page_groups_boards_and_results_by_club(tmp_path: Path) -> None:
    """GET /api/league and /league on the league director (no broker: the archive filled as the intake fills it),
    and the page in Chromium (artifacts/screenshots/league-night.png)."""
    league = _league(tmp_path)
    now = time.time()
    league.add_fixture({**FIXTURE, "start": now - 3600})
    director = Director(None, tmp_path / "league", pairing=league).start()  # type: ignore[arg-type]
    try:
        for club, board, light, dark in (("porto", "mesa01", "Ana", "Bruno"), ("lisboa", "mesa01", "Filipe", "Eva")):
            director.archive.add(club, board, 1, 0, {"event": "new_match"}, None)
            director.archive.save_result(club, board, 1, {"players": {"light": light, "dark": dark}, "length": 3,
                                                          "score": {"light": 3, "dark": 1}, "games": []}, "finished")
            with director.intake.lock:
                director.intake._view(club, board)
        pins = PinStore(tmp_path / "pins")
        with BackgroundServer(create_app(director, pins)) as srv:
            got = httpx.get(f"{srv.url}/api/league", timeout=10).json()
            assert [c["club"] for c in got["clubs"]] == ["lisboa", "porto"]
            porto = got["clubs"][1]
            assert [b["board"] for b in porto["boards"]] == ["mesa01"] and porto["boards"][0]["club"] == "porto"
            assert [(r["club"], r["winner_name"]) for r in porto["results"]] == [("porto", "Ana")]
            assert [(r["club"], r["winner_name"]) for r in got["clubs"][0]["results"]] == [("lisboa", "Filipe")]
            fx = got["fixtures"][0]
            assert fx["score"] == {"home": 1, "away": 1} and fx["played"] == 2 and not fx["over"]
            assert {r["club"] for r in got["table"]} == CLUBS
            assert json.dumps(got)  # plain JSON
            assert httpx.get(f"{srv.url}/league", timeout=10).status_code == 200
            chromium_or_skip()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            with chromium_page(1280, 800, locale="pt-BR") as page:
                page.goto(f"{srv.url}/league")
                page.wait_for_selector(".club[data-club=porto] .card")
                assert page.locator(".fixture .teamscore").inner_text() == "1 – 1"
                assert page.locator(".club[data-club=lisboa] .results td.won").inner_text() == "Filipe"
                page.screenshot(path=str(SCREENSHOTS / "league-night.png"), full_page=True)
    finally:
        director.close()


def test_a_plain_club_director_has_no_league_page(tmp_path: Path) -> None:
    director = Director(None, tmp_path / "club").start()
    try:
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv:
            assert httpx.get(f"{srv.url}/api/league", timeout=10).status_code == 404
    finally:
        director.close()


def test_a_pairing_in_play_shows_its_board_score() -> None:
    pairing = {"club": "porto", "board": "mesa02", "home": "Carla", "away": "Duarte"}
    board = {"club": "porto", "board": "mesa02", "players": {"light": "Duarte", "dark": "Carla"}, "length": 5,
             "score": {"light": 1, "dark": 3}, "phase": "awaiting_roll"}
    assert _live(pairing, board) == {"home": 3, "away": 1, "length": 5}          # Carla plays dark
    assert _live(pairing, {**board, "players": {"light": "Duarte", "dark": "Zé"}}) is None   # other players
    assert _live(pairing, {**board, "phase": "match_over"}) is None and _live(pairing, None) is None
    assert _live(pairing, {**board, "length": 0}) is None                          # no match on the board
