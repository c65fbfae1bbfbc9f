"""The broadcast's featured board follows the tournament (issue 40; club/tournament_boards.py ``featured_match``,
club/live.py ``Live.auto``): when the director features no board, ``overlay?board=featured`` shows the tournament's
match in play that matters most (the final, else the main bracket's, else the highest round); a board the director
features takes over, and featuring none gives the choice back."""

from __future__ import annotations

from pathlib import Path

import httpx

from club.director import Director
from club.tournament import Journal
from club.tournament_boards import Desk
from club.tournament_web import add_routes
from club.web import create_app
from webguard.pin import PinStore
from webguard.server import BackgroundServer

PIN = "2468"
NAME = "Quinta"


def _ready(journal: Journal, bracket: str, rnd: int) -> list[str]:
    return [m["id"] for m in journal.load(NAME).view()["matches"]
            if m["status"] == "ready" and m["bracket"] == bracket and m["round"] == rnd]


def _assign(journal: Journal, mid: str, board: str) -> None:
    journal.apply(NAME, {"op": "assign", "match": mid, "board": board, "club": "club", "after": None, "at": 0.0})


def _won(journal: Journal, mid: str) -> None:
    m = next(m for m in journal.load(NAME).view()["matches"] if m["id"] == mid)
    journal.apply(NAME, {"op": "result", "match": mid, "winner": m["light"], "score": "3-1", "source": "hand"})


def test_the_featured_board_follows_the_tournament(tmp_path: Path) -> None:
    director = Director(None, tmp_path / "club").start()
    journal = Journal(tmp_path / "club")
    pins = PinStore(tmp_path / "pins")
    pins.set(PIN)
    try:
        desk = Desk(director, journal, auto=False)  # not started: the matches go to boards by hand here
        app = create_app(director, pins)
        add_routes(app, desk)
        live = app.state.live
        journal.create(NAME, "consolation", ["Ana", "Bruno", "Carla", "Duarte"], length=3, seed=1)
        with BackgroundServer(app) as srv:
            def feature() -> dict[str, object]:
                live.settings_changed()
                live._auto = (0.0, None)  # the half-second cache, for the test's pace
                return dict(httpx.get(f"{srv.url}/api/feature", timeout=10).json())

            assert feature() == {"featured": None, "auto": None}   # no tournament match on a board: nothing
            first, second = _ready(journal, "main", 1)
            _assign(journal, second, "mesa02")
            _assign(journal, first, "mesa01")
            assert feature()["auto"] == {"club": "club", "board": "mesa01"}  # same round: the earlier match
            _won(journal, first)
            assert feature()["auto"] == {"club": "club", "board": "mesa02"}  # mesa01's match over
            _won(journal, second)
            assert feature()["auto"] is None
            final, = _ready(journal, "main", 2)
            consolation, = _ready(journal, "consolation", 1)
            _assign(journal, consolation, "mesa01")
            _assign(journal, final, "mesa03")
            assert feature()["auto"] == {"club": "club", "board": "mesa03"}  # the final over the consolation
            assert live.resolve("featured") == ("club", "mesa03")
            # the director's choice takes over; featuring none gives it back to the tournament
            r = httpx.post(f"{srv.url}/api/feature", json={"club": "club", "board": "mesa01"},
                           headers={"X-Gamao-Pin": PIN}, timeout=10)
            assert r.status_code == 200, r.text
            assert feature()["featured"] == {"club": "club", "board": "mesa01"}
            assert live.resolve("featured") == ("club", "mesa01")
            r = httpx.post(f"{srv.url}/api/feature", json={"board": None}, headers={"X-Gamao-Pin": PIN}, timeout=10)
            assert r.status_code == 200, r.text
            assert feature() == {"featured": None, "auto": {"club": "club", "board": "mesa03"}}
            assert live.resolve("featured") == ("club", "mesa03")
    finally:
        journal.close()
        director.close()


def test_the_final_matters_most(tmp_path: Path) -> None:
    """A double elimination's final (its own bracket) over the main bracket's highest round; then the main bracket
    over a consolation's higher round."""
    journal = Journal(tmp_path)
    try:
        desk = Desk(None, journal, auto=False)
        playing = [{"tournament": "T", "match": "C3-1", "round": 3, "bracket": "consolation", "club": "c", "board": "b1"},
                   {"tournament": "T", "match": "M2-1", "round": 2, "bracket": "main", "club": "c", "board": "b2"},
                   {"tournament": "T", "match": "F1-1", "round": 1, "bracket": "final", "club": "c", "board": "b3"}]
        for shown, upto in (("b3", 3), ("b2", 2), ("b1", 1)):
            desk.in_play = lambda upto=upto: playing[:upto]  # type: ignore[method-assign]
            assert desk.featured_match() == ("c", shown)
    finally:
        journal.close()
