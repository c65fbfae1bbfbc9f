"""A club night: 20 boards play real corpus matches at speed through a real Mosquitto; the director's
/api/boards and its archive must equal every board's own journal (R11 game results, R13 match score)."""

from __future__ import annotations

from pathlib import Path

import httpx

from club.web import create_app
from kiosk.pin import PinStore
from kiosk.server import BackgroundServer
from tests.club.conftest import CLUB, MATCHES, Board, caught_up, check_director, names, wait_for

API_KEYS = {"board", "club", "online", "players", "score", "length", "phase", "last_verdict", "updated"}


def test_twenty_boards_equal_their_journals_at_the_director(broker, make_director, tmp_path: Path) -> None:
    director = make_director()
    boards = [Board(broker, name, tmp_path / name, match=MATCHES[i % 2]) for i, name in enumerate(names(20))]
    try:
        for b in boards:
            b.play()
        assert wait_for(lambda: all(b.done() for b in boards), 240), "the boards did not finish their matches"
        assert all(b.publisher.wait_idle(30) for b in boards), "a board's outbox did not empty"
        assert wait_for(lambda: caught_up(director, boards), 60), "the director did not receive everything"
        checked = check_director(director, boards)
        assert checked == sum(356 if i % 2 == 0 else 133 for i in range(20)) == 4890
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv:
            api = httpx.get(f"{srv.url}/api/boards").json()
            results = httpx.get(f"{srv.url}/api/results").json()
            mat = httpx.get(f"{srv.url}/api/results/{CLUB}/mesa01/1.mat")
        assert len(api) == 20 and all(set(e) == API_KEYS for e in api)
        assert all(e["online"] and e["phase"] == "match_over" for e in api)
        # R13: the match winner reached the length; every finished match is in the results table
        assert len(results) == 20 and all(max(r["score"].values()) >= r["length"] for r in results)
        assert mat.status_code == 200 and mat.text == boards[0].service.export("1", "mat")
        assert director.stats["duplicates"] >= 0 and director.stats["events"] == checked
    finally:
        for b in boards:
            b.close()
