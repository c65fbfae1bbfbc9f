"""A club night: boards play different corpus matches at speed through a real Mosquitto (10 boards in the default
run, 20 with --soak); the director's /api/boards and its archive must equal every board's own journal (R11 game
results, R13 match score)."""

from __future__ import annotations

from pathlib import Path

from club.web import create_app
from kiosk.demo_script import script
from kiosk.pin import PinStore
from kiosk.server import BackgroundServer
from tests.club.conftest import CLUB, Board, behind, caught_up, check_director, names, night_records, wait_for
from tests.web import HTTP

API_KEYS = {"board", "club", "online", "players", "score", "length", "phase", "last_verdict", "updated"}


def test_a_club_nights_corpus_matches_equal_their_journals_at_the_director(broker, make_director, tmp_path: Path) -> None:
    director = make_director()
    records = night_records()
    boards = [Board(broker, name, tmp_path / name, record=r)
              for name, r in zip(names(len(records)), records, strict=True)]
    try:
        for b in boards:
            b.play()
        assert wait_for(lambda: all(b.done() for b in boards), 240), "the boards did not finish their matches"
        assert all(b.publisher.wait_idle(30) for b in boards), "a board's outbox did not empty"
        assert wait_for(lambda: caught_up(director, boards), 60), \
            f"the director did not receive everything: {behind(director, boards)}"
        assert not any(b.runner.errors for b in boards if b.runner is not None)
        checked = check_director(director, boards)
        assert checked == sum(len(list(script(r))) for r in records)  # every step of every match, once
        print(f"club night: {checked} events checked over {len(boards)} boards")
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv:
            api = HTTP.get(f"{srv.url}/api/boards").json()
            results = HTTP.get(f"{srv.url}/api/results").json()
            mat = HTTP.get(f"{srv.url}/api/results/{CLUB}/mesa01/1.mat")
        assert len(api) == len(boards) and all(set(e) == API_KEYS for e in api)
        assert all(e["online"] for e in api)
        over = [b for b in boards if b.service.state()["phase"] == "match_over"]
        assert len(over) >= len(boards) // 2 and [e["phase"] for e in api].count("match_over") == len(over)
        # R13: the match winner reached the length; every finished match is in the results table
        assert len(results) == len(over) and all(max(r["score"].values()) >= r["length"] for r in results)
        assert mat.status_code == 200 and mat.text == boards[0].service.export("1", "mat")
        assert director.intake.stats["duplicates"] >= 0 and director.intake.stats["events"] == checked
    finally:
        for b in boards:
            b.close()
