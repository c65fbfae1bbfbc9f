"""`gamao run --config` with a [club] table: the kiosk's own service publishes, and says offline on close;
without the table nothing is published."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from cli.run import open_service
from club.commands import signed_command, topic
from club.config import Broker, make_client
from club.director import wait_for
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.club.conftest import CLUB
from tests.club.test_security import Listener


def test_the_appliance_service_publishes_when_the_config_names_a_broker(broker, tmp_path: Path) -> None:
    listener = Listener(broker.url_for("director"))
    club = {"broker": broker.url_for("mesa01"), "club": CLUB, "board": "mesa01"}
    settings = Settings(data_dir=tmp_path / "data", language="en", club=club)
    try:
        with BackgroundServer(create_app(settings, service_factory=open_service)) as srv:
            service = srv.server.config.app.state.service
            service.submit({"event": "new_match", "length": 1, "players": {"light": "Ana", "dark": "Bia"}})
            service.submit({"event": "roll", "dice": [6, 1]})
            assert wait_for(lambda: listener.topics().count(f"gamao/{CLUB}/mesa01/events") == 2, 10)
            assert (tmp_path / "data" / "club_outbox.sqlite").exists()
        # the lifespan closed the service, which closed the publisher: the board says it is offline (the broker
        # hands that last message on a moment later: wait for it, as the director would)
        offline = {"board": "mesa01", "club": CLUB, "online": False, "updated": None}

        def states() -> list[dict]:
            return [m for t, m in listener.got if t.endswith("/state")]

        wait_for(lambda: bool(states()) and states()[-1] == offline, 10)
        assert states()[-1] == offline
        assert [m["index"] for t, m in listener.got if t.endswith("/verdicts")] == [0, 1]
    finally:
        listener.close()


def test_a_paired_appliance_takes_the_directors_tournament_call(broker, tmp_path: Path) -> None:
    """`gamao run` on a paired board: the director's signed start_match (issue 39) starts the match there."""
    club = {"broker": broker.url_for("mesa03"), "club": CLUB, "board": "mesa03", "key": broker.keys["mesa03"].hex()}
    service = open_service(Settings(data_dir=tmp_path / "data", language="pt", club=club))
    director = make_client("director-probe", Broker.parse(broker.url_for("director")))
    director.connect("127.0.0.1", broker.port)
    director.loop_start()
    try:
        board = service.tournament_board  # type: ignore[attr-defined]
        assert wait_for(lambda: board._publisher.commands_heard.is_set(), 10)  # its subscription acknowledged
        body = {"command": "start_match", "tournament": "Quinta", "match": "M1-1", "table": "3",
                "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": None}
        director.publish(topic(CLUB, "mesa03"), signed_command(CLUB, "mesa03", broker.keys["mesa03"], body, 1),
                         qos=1).wait_for_publish(5)
        assert wait_for(lambda: service.state()["match"]["players"] == {"light": "Ana", "dark": "Bruno"}, 10)  # type: ignore[attr-defined]
        assert any(n["kind"] == "tournament_call" for n in service.state()["notices"])  # type: ignore[attr-defined]
    finally:
        director.loop_stop()
        director.disconnect()
        service.close()  # type: ignore[attr-defined]


def test_no_club_table_publishes_nothing(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", language="en")
    service = open_service(settings)
    try:
        assert service._journaled == [] and service._closers == []  # type: ignore[attr-defined]
        service.submit({"event": "roll", "dice": [6, 1]})  # type: ignore[attr-defined]
        assert not (tmp_path / "data" / "club_outbox.sqlite").exists()
    finally:
        service.close()  # type: ignore[attr-defined]


def test_the_appliances_hardware_alerts_reach_the_club(broker, tmp_path: Path) -> None:
    """The appliance tells its service of a lost dice unit (kiosk/appliance.py); the board's state says so."""
    listener = Listener(broker.url_for("director"))
    club = {"broker": broker.url_for("mesa02"), "club": CLUB, "board": "mesa02"}
    service = open_service(Settings(data_dir=tmp_path / "data", language="en", club=club))
    try:
        service.alert("dice_lost", True)  # type: ignore[attr-defined]
        assert wait_for(lambda: any(t.endswith("mesa02/state") and m.get("alerts") == ["dice_lost"]
                                    for t, m in listener.got), 10)
        service.alert("dice_lost", False)  # type: ignore[attr-defined]
        assert wait_for(lambda: [m.get("alerts") for t, m in listener.got if t.endswith("mesa02/state")][-1] == [], 10)
    finally:
        service.close()  # type: ignore[attr-defined]
        listener.close()


def test_the_board_says_offline_last_even_when_its_state_is_being_sent_at_close(broker, tmp_path: Path) -> None:
    """A state the sending thread was building when the board closed (here: the lesson is slow to read, as the
    kiosk's teacher's table ends during the shutdown) must go out before the offline state, never after: the
    director would show a board that is gone as online. Failed 1 run in 2 of the whole suite under load."""
    listener = Listener(broker.url_for("director"))
    club = {"broker": broker.url_for("mesa01"), "club": CLUB, "board": "mesa01"}
    service = open_service(Settings(data_dir=tmp_path / "data", language="en", club=club))
    publisher = service.club_publisher
    building = threading.Event()

    def slow_lesson() -> None:
        building.set()
        time.sleep(0.5)  # the close below starts while the state is being built
        return None

    try:
        assert wait_for(publisher.connected.is_set, 10)
        publisher.teach(slow_lesson)
        assert building.wait(10)
        service.close()
        offline = {"board": "mesa01", "club": CLUB, "online": False, "updated": None}

        def states() -> list[dict]:
            return [m for t, m in listener.got if t.endswith("/state")]

        wait_for(lambda: len(states()) >= 2 and states()[-1] == offline, 5)
        time.sleep(0.7)  # anything the thread still sent arrives in this time
        assert states()[-1] == offline
    finally:
        listener.close()
