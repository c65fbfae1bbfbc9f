"""A real Mosquitto on a free loopback port (config, password file and ACL in tmp_path), boards that play
real corpus matches at speed in this process, and the director with its page on a real HTTP server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from club import mosquitto
from club.archive import match_summary
from club.config import Broker, ClubConfig
from club.director import Director, wait_for
from club.mosquitto import LocalBroker
from club.pairing import Pairing
from club.publisher import BoardPublisher
from club.replay import feed
from core.referee import Referee
from kiosk.demo import DemoRunner
from kiosk.journal import Journal
from kiosk.service import RefereeService
from tests.datasets import CORPUS
from tests.soak import soak

CLUB = "porto"
MATCHES = ("3pt", "2pt")  # the bundled corpus matches (kiosk/data): 356 and 133 events
# Twenty matches of the corpus (all in tests/data/corpus) (3 to 16 points; the 16-point records stop after some games) that
# the demo's script plays through with no event refused.
NIGHT = [
    "Llabba/BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.txt", "Llabba/match2907090.txt",
    "lasse/match11017817.txt", "lasse/match1199847.txt", "lasse/match12496474.txt", "lasse/match1668040.txt",
    "lasse/match2225428.txt", "lasse/match3497558.txt", "lasse/match3943381.txt", "lasse/match4367400.txt",
    "lasse/match4926658.txt", "lasse/match5320527.txt", "lasse/match5817304.txt", "lasse/match6235803.txt",
    "lasse/match6712137.txt", "lasse/match7562909.txt", "lasse/match7984022.txt", "lasse/match8166691.txt",
    "lasse/match8474667.txt", "lasse/match938096.txt",
]


def night_records() -> list[Any]:
    """A club night's corpus matches: every other one of the twenty (3 to 16 points still) in the default run,
    all twenty with --soak; the two bundled ones, alternately, if the corpus is not beside the checkout."""
    from core.match.formats.mat import read_mat
    from core.match.replay import replay
    from kiosk.demo_script import load_match

    night = NIGHT if soak() else NIGHT[::2]
    if not all((CORPUS / name).is_file() for name in night):
        return [load_match(MATCHES[i % 2]) for i in range(len(night))]
    records = []
    for name in night:
        record = read_mat((CORPUS / name).read_text(encoding="utf-8", errors="replace"))
        replay(record)
        records.append(record)
    return records


def names(n: int) -> list[str]:
    return [f"mesa{i:02d}" for i in range(1, n + 1)]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    if not mosquitto.available():
        pytest.skip(f"Mosquitto is not installed at {mosquitto.MOSQUITTO}: `apt-get install -y mosquitto` "
                    "(./dev test does it) to run the club tests")
    # The broker as `gamao director broker-config` writes it for twenty paired boards (club/pairing.py).
    pairing = Pairing(tmp_path / "director")
    for name in names(20):
        pairing.pair(name, CLUB)
    b = LocalBroker.paired(tmp_path / "broker", pairing).start()
    yield b
    b.stop()


class Board:
    """One simulated board: journal + referee service + club publisher, playing a corpus match."""

    def __init__(self, broker: LocalBroker, name: str, folder: Path, match: str = "3pt",
                 speed: float = 1e6, url: str | None = None, record: Any = None, key: bytes | None = None,
                 ca: str | None = None) -> None:
        self.name = name
        self.record = record
        self.folder = folder
        self.broker = broker
        self.match = match
        self.speed = speed
        self.service = RefereeService(folder / "journal.sqlite")
        config = ClubConfig(broker=Broker.parse(url or broker.url_for(name), ca_file=ca), club=CLUB, board=name,
                            key=key if key is not None else getattr(broker, "keys", {}).get(name))
        self.publisher = BoardPublisher(config, self.service, folder).start()
        self.runner: DemoRunner | None = None
        self.thread: threading.Thread | None = None

    @property
    def journal(self) -> Journal:
        return self.service.journal

    def play(self) -> Board:
        self.runner = DemoRunner(self.service, match=self.match, speed=self.speed, vision=False, dice=False,
                                 say=lambda text: None, record=self.record)
        self.thread = self.runner.start()
        return self

    def done(self) -> bool:
        return self.runner is not None and self.runner.done.is_set()

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()
        self.publisher.close(timeout=0.5)
        self.service.close()


def journal_truth(journal: Journal) -> dict[int, dict[str, Any]]:
    """Each journal match replayed: its events, score, phase and game results (what the board knows)."""
    out = {}
    for m in journal.matches():
        ref = Referee()
        events = list(journal.events(m["id"]))
        for e in events:
            feed(ref, e)
        out[m["id"]] = {"events": events, **match_summary(ref)}
    return out


def check_director(director: Director, boards: list[Any]) -> int:
    """Every board's every match equal at the director and in its archive; returns the events checked.
    `boards`: objects with `name` and `journal` (the board's own journal)."""
    checked = 0
    api = {b["board"]: b for b in director.boards()}
    for board in boards:
        truth = journal_truth(board.journal)
        latest = max(truth)
        entry = api[board.name]
        assert entry["club"] == CLUB
        assert entry["score"] == truth[latest]["score"], board.name
        assert entry["players"] == truth[latest]["players"]
        assert entry["length"] == truth[latest]["length"]
        assert entry["phase"] == truth[latest]["phase"]
        for match, t in truth.items():
            archived = list(director.archive.events(CLUB, board.name, match))
            # nothing missing, nothing doubled (the archive is keyed by index), nothing out of order
            assert director.archive.indexes(CLUB, board.name, match) == list(range(len(t["events"])))
            assert archived == t["events"], (board.name, match)
            assert set(director.archive.verdicts(CLUB, board.name, match)) == set(range(len(t["events"])))
            summary = director.summary(CLUB, board.name, match)
            assert summary["score"] == t["score"] and summary["games"] == t["games"]
            if t["phase"] == "match_over":
                result = director.archive.result(CLUB, board.name, match)
                assert result is not None and result["status"] == "finished"
                assert result["score"] == t["score"] and result["games"] == t["games"]
            checked += len(t["events"])
    return checked


def caught_up(director: Director, boards: list[Any]) -> bool:
    return not behind(director, boards)


def behind(director: Director, boards: list[Any]) -> list[str]:
    """What the director lacks of each board's journal, with what it knows of the board (for a failure's message)."""
    out = []
    for board in boards:
        for m in board.journal.matches():
            have = director.intake.matches.get((CLUB, board.name, m["id"]))
            count = board.journal.count(m["id"])
            if have is None or have.next < count:
                view = director.intake.views.get((CLUB, board.name))
                out.append(f"{board.name} match {m['id']}: {have.next if have else None} of {count} events "
                           f"(pending {sorted(have.pending)[:5] if have else []}, spilled {have.spilled if have else None},"
                           f" referee {'kept' if have and have.ref else 'none'}); the board "
                           f"{'online' if view and view.online else 'offline'}, reported {view.journal if view else None}")
    return out + ([f"director stats {director.intake.stats}"] if out else [])


@pytest.fixture
def make_director(broker: LocalBroker, tmp_path: Path) -> Iterator[Any]:
    made: list[Director] = []

    def make(folder: Path | None = None) -> Director:
        d = Director(Broker.parse(broker.url_for("director")), folder or tmp_path / "director", club=CLUB,
                     pairing=broker.pairing).start()
        made.append(d)
        assert wait_for(d.intake.connected.is_set, 10), "the director did not connect to the broker"
        return d

    yield make
    for d in made:
        if d.intake.client is not None:
            d.close()


__all__ = ["Board", "CLUB", "MATCHES", "behind", "caught_up", "check_director", "journal_truth", "names", "wait_for"]
