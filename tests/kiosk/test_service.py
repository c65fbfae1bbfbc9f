"""The referee service: journal before referee, replay on start, notification, exports."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from core.match.formats.mat import read_mat
from core.match.formats.sgf import read_sgf
from core.match.replay import replay
from core.referee import Referee
from core.rules.position import Position, Side
from kiosk.dependencies import KioskService
from kiosk.service import RefereeService
from tests.core.referee.referee_streams import CORPUS, load, match_stream, subset

START = Position.start()


def board(pos: Position) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True}


def opening(service: RefereeService) -> None:
    service.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    service.submit(board(START.play((3, 1), "8/5 6/5")))


def test_implements_the_kiosk_protocol(tmp_path: Path) -> None:
    assert isinstance(RefereeService(tmp_path / "j.sqlite"), KioskService)


def test_event_journaled_before_the_referee_acts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    seen: list[int] = []
    real_feed = Referee.feed

    def spy(self: Referee, event: dict[str, Any]) -> list[dict[str, Any]]:
        seen.append(service.journal.count())
        return real_feed(self, event)

    monkeypatch.setattr(Referee, "feed", spy)
    service.submit({"event": "new_match", "length": 3})
    service.submit({"event": "roll", "dice": [3, 1]})
    assert seen == [1, 2]  # the journal already held the event when the referee saw it


def test_malformed_event_refused_and_not_journaled(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    service.submit({"event": "new_match", "length": 3})
    with pytest.raises(ValueError, match=r'^event 1: "dice" must be two numbers from 1 to 6, got \[9, 1\]$'):
        service.submit({"event": "roll", "dice": [9, 1]})
    assert service.journal.count() == 1


def test_restart_is_exactly_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    service = RefereeService(path)
    opening(service)
    service.submit({"event": "cube", "action": "double", "side": "dark"})
    before = service.state()
    service.close()
    again = RefereeService(path)
    assert again.state() == before
    assert again.state()["phase"] == "cube_offered"
    assert again.submit({"event": "cube", "action": "take", "side": "light"})[0]["verdict"] == "cube"


def test_subscribers_get_every_change(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    states: list[dict[str, Any]] = []
    unsubscribe = service.subscribe(states.append)
    opening(service)
    assert len(states) == 3 and states[-1]["verdicts"][-1]["verdict"] == "in_progress"
    unsubscribe()
    service.submit({"event": "roll", "dice": [6, 4]})
    assert len(states) == 3


def test_a_failing_subscriber_does_not_stop_the_referee(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")

    def broken(_state: dict[str, Any]) -> None:
        raise RuntimeError("screen unplugged")

    service.subscribe(broken)
    opening(service)
    assert service.state()["phase"] == "moving"


def test_threads_submitting_at_once(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    service.submit({"event": "new_match", "length": 0})

    def worker() -> None:
        for _ in range(20):
            service.submit(board(START))  # the camera repeating itself

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert service.journal.count() == 81
    assert service.referee.index == 81


def test_export_unknown_match_is_key_error(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    with pytest.raises(KeyError):
        service.export("current", "mat")
    opening(service)
    with pytest.raises(KeyError):
        service.export("42", "mat")
    with pytest.raises(ValueError, match="unknown export format 'pdf': use mat or sgf"):
        service.export("current", "pdf")


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"{CORPUS} is missing: put shared/ beside the checkout")
@pytest.mark.parametrize("path", subset(3), ids=lambda p: p.name[:40])
def test_export_round_trip_matches_the_record(tmp_path: Path, path: Path) -> None:
    record = load(path)
    tagged, expected = match_stream(record, seed=5)
    service = RefereeService(tmp_path / "j.sqlite")
    for t in tagged:
        service.submit(t.event)
    first_match = service.state()["match"]["id"]
    service.submit({"event": "new_match", "length": 1})  # a later match: the first is still exportable
    for fmt, reader in (("mat", read_mat), ("sgf", read_sgf)):
        text = service.export(first_match, fmt)
        again = reader(text)
        report = replay(again)
        assert [p for p in report.problems if p.kind != "missing_result"] == [], fmt
        assert [(g.result.winner.value, g.result.points) for g in again.games if g.result] == expected.results
        moves = [(g.number, a.side.value, tuple(sorted(a.dice)))
                 for g in again.games for a in g.actions if a.kind == "move"]
        assert moves == [(g, side, tuple(sorted(d))) for g, side, d, _ in expected.plays], fmt
        assert report.final_score[Side.LIGHT] + report.final_score[Side.DARK] == sum(expected.score)


def test_an_event_is_parsed_once_from_the_service_to_the_referee(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import core.referee.events as events
    import core.referee.machine as machine
    import kiosk.service as service_module

    service = RefereeService(tmp_path / "j.sqlite")
    calls: list[dict[str, Any]] = []
    real = events.parse_event

    def counting(obj: Any, index: int | None = None) -> dict[str, Any]:
        calls.append(obj)
        return real(obj, index)

    monkeypatch.setattr(service_module, "parse_event", counting)
    monkeypatch.setattr(machine, "parse_event", counting)
    service.submit({"event": "new_match", "length": 3})  # a new match: replayed from the journal once
    calls.clear()
    service.submit({"event": "roll", "dice": [3, 1]})
    service.submit({"event": "board", **START.play((3, 1), "8/5 6/5").to_dict(), "stable": True})
    assert [c["event"] for c in calls] == ["roll", "board"]
