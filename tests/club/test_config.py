"""The [club] settings and the outbox's marks (no broker needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from club.config import ClubConfig, ClubConfigError, parse_topic
from club.outbox import Outbox
from kiosk.config import ConfigError, Settings


def test_club_settings_parse_and_name_the_topics() -> None:
    c = ClubConfig.from_dict({"broker": "mqtts://mesa01:s%40cret@club.local", "club": "porto", "board": "mesa01"})
    assert c is not None
    assert (c.broker.host, c.broker.port, c.broker.tls, c.broker.username, c.broker.password) == \
        ("club.local", 8883, True, "mesa01", "s@cret")
    assert c.topic("events") == "gamao/porto/mesa01/events"
    assert parse_topic("gamao/porto/mesa01/verdicts") == ("porto", "mesa01", "verdicts")
    assert parse_topic("$SYS/broker/load") is None
    assert c.broker.display() == "mqtts://mesa01@club.local:8883"  # never the password
    plain = ClubConfig.from_dict({"broker": "mqtt://127.0.0.1", "board": "b1", "username": "u", "password": "p"})
    assert plain is not None and (plain.broker.port, plain.broker.tls, plain.club) == (1883, False, "club")
    assert ClubConfig.from_dict({}) is None  # no broker: nothing is published


@pytest.mark.parametrize("data, word", [
    ({"broker": "club.local:1883", "board": "b1"}, "URL"),
    ({"broker": "http://club.local", "board": "b1"}, "scheme"),
    ({"broker": "mqtt://club.local:x", "board": "b1"}, "port"),
    ({"broker": "mqtt://club.local"}, "board"),
    ({"broker": "mqtt://club.local", "board": "b/1"}, "board"),
    ({"broker": "mqtt://club.local", "board": "b1", "club": "+"}, "club"),
    ({"broker": "mqtt://club.local", "board": "b1", "ca_file": "/nonexistent/ca.crt"}, "ca_file"),
    ({"broker": "mqtt://club.local", "board": "b1", "keepalive": 0}, "keepalive"),
    ({"board": "b1"}, "broker"),
    ({"broker": "mqtt://club.local", "board": "b1", "qos": 2}, "qos"),
])
def test_bad_club_settings_are_named(data: dict, word: str, tmp_path: Path) -> None:
    with pytest.raises(ClubConfigError, match=word):
        ClubConfig.from_dict(data)
    with pytest.raises(ConfigError, match=word):  # and `gamao run --config` refuses to start on them
        Settings(data_dir=tmp_path, club=data)


def test_the_outbox_marks_only_move_forward_unless_rewound(tmp_path: Path) -> None:
    path = tmp_path / "club_outbox.sqlite"
    o = Outbox(path)
    assert o.acked(1) == -1
    o.mark(1, 10)
    o.mark(1, 4)  # a late acknowledgement never moves the mark back
    o.mark(2, 0)
    assert o.marks() == {1: 10, 2: 0}
    o.rewind(1, 6)  # the director is missing index 6 onwards
    assert o.acked(1) == 5
    o.close()
    assert Outbox(path).marks() == {1: 5, 2: 0}  # on disk: a restarted board resumes from here
