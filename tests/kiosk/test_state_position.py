"""The board the page draws: the service's state and its HTTP/WebSocket schema carry the board as it stands
and the position the turn began from; the start-up replay leaves the replayed objects frozen."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from core.rules.position import Position
from kiosk.schemas import StateOut
from kiosk.service import RefereeService

START = Position.start()


def board(pos: Position) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True}


def test_state_out_keeps_the_board_as_it_stands_and_the_turn_start(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    service.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    played = START.play((3, 1), "8/5 6/5")
    service.submit(board(played))
    out = StateOut.model_validate(service.state()).model_dump(mode="json")
    assert out["position"]["light"] == list(played.light)
    assert out["position_at_turn_start"]["light"] == list(START.light)
    assert out["pips"] == {"light": 163, "dark": 167}
    service.close()
    again = RefereeService(tmp_path / "j.sqlite")  # the replay after a power cut draws the same board
    assert again.state()["position"] == service.state()["position"]
    again.close()


def test_start_up_replay_freezes_the_collector(tmp_path: Path) -> None:
    gc.unfreeze()
    try:
        RefereeService(tmp_path / "j.sqlite").close()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
