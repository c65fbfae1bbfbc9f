"""A chouette at a club board (R26-R29): the director replays its events with core's TableReferee, as the
board's own service does, and agrees with the board while the chouette is played, through a real Mosquitto.

Before issue 23 the director replayed every board with a plain Referee: the first chouette event raised
``unknown event kind "chouette"`` (an "error" verdict) and from then on the director disagreed with the board
(the box's double, the drops, the rotation and the ledger were not there)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from club.config import Broker, ClubConfig
from club.director import Director, wait_for
from club.publisher import BoardPublisher
from kiosk.demo import DemoRunner
from kiosk.demo_chouette import ChouetteDemo
from kiosk.service import RefereeService
from tests.club.conftest import CLUB

COMPARED = ("phase", "turn", "position", "match", "cube", "dice", "moves", "chouette")


def _director_state(director: Director, board: str, match: int) -> dict[str, Any] | None:
    m = director.intake.matches.get((CLUB, board, match))
    return m.ref.public_state() if m is not None and m.ref is not None else None


def test_r29_the_director_agrees_with_the_board_during_a_chouette(broker, make_director, tmp_path: Path) -> None:
    director = make_director()
    service = RefereeService(tmp_path / "mesa01" / "journal.sqlite")
    # A paired board signs what it publishes (issue 22): the director refuses unsigned copies.
    config = ClubConfig(broker=Broker.parse(broker.url_for("mesa01")), club=CLUB, board="mesa01",
                        key=broker.keys["mesa01"])
    publisher = BoardPublisher(config, service, tmp_path / "mesa01").start()
    demo = ChouetteDemo()
    runner = DemoRunner(service, vision=False, dice=False, speed=1e6, say=lambda s: None, steps=demo.steps)
    checkpoints = 0
    try:
        for step in demo.steps():
            runner.play_step(step)
            chouette = step.data.get("event") == "chouette"
            if not chouette and step.data.get("event") not in ("new_match", "resign_reply"):
                continue
            # After each chouette action (and each game's start and end): the director has what the board has.
            match = service.journal.current_match()
            assert match is not None
            count = service.journal.count(match)
            assert publisher.wait_idle(10)
            assert wait_for(lambda: (m := director.intake.matches.get((CLUB, "mesa01", match))) is not None  # noqa: B023
                            and m.next >= count, 10), "the director did not receive the board's events"  # noqa: B023
            with director.intake.lock:
                seen = _director_state(director, "mesa01", match)
            board = service.state()
            assert seen is not None
            board["match"].pop("id")  # the board's journal id of the match (the director keys it by topic)
            assert {k: seen.get(k) for k in COMPARED} == {k: board.get(k) for k in COMPARED}, step.data
            assert [v for v in seen["verdicts"] if v["verdict"] == "error"] == []
            checkpoints += 1
        assert runner.errors == []
        # The whole chouette: five players, three games, every answer alone; the ledger sums to zero.
        shown = board["chouette"]
        assert {r["name"]: r["points"] for r in shown["ledger"]} == demo.ch.ledger
        assert shown["game"] == 4 and sum(demo.ch.ledger.values()) == 0
        assert checkpoints >= 4 + 2 + 4 + 3 + 3  # the answers, the doubles, the starts and ends
        # The director's summary and .mat of the match come from the same replay.
        summary = director.summary(CLUB, "mesa01", match)
        assert summary["phase"] == board["phase"]
        assert director.mat(CLUB, "mesa01", match)
    finally:
        runner.close()
        publisher.close()
        service.close()
