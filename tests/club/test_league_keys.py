"""The league's keys and asks (issue 40; club/auth.py ``seal``, club/league.py): a board signs with its own
Ed25519 key, which only it holds, so the league (which has the public key) and another club cannot speak for it;
the league asks a club's director for what it missed, signed with the club's link key and the league's own counter,
kept apart from the director's own commands to its boards. With real Mosquittos: tests/club/test_league.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from club.auth import AuthError, new_sign_key, open_sealed, private_key, public_key, seal, sign
from club.config import ClubConfig, ClubConfigError, read_credentials
from club.intake import Intake
from club.league import League, ask_topic, check_ask, club_keys, signed_ask, write_link
from club.pairing import Pairing

TOPIC = "gamao/porto/mesa01/events"
BODY = b'{"board":"mesa01","club":"porto","match":1,"index":0,"event":{"event":"undo"},"seq":7}'


def test_a_board_signature_is_checked_with_its_public_key_alone() -> None:
    seed, public = new_sign_key()
    other_seed, _ = new_sign_key()
    payload = sign(TOPIC, seal(TOPIC, BODY, private_key(seed)), bytes(32))  # as club/publisher.py sends it
    assert open_sealed(TOPIC, payload, public_key(public)) == json.loads(BODY)
    assert open_sealed(TOPIC, seal(TOPIC, BODY, private_key(seed)), public_key(public))["seq"] == 7  # no MAC
    for bad, why in ((sign(TOPIC, seal(TOPIC, BODY, private_key(other_seed)), bytes(32)), "forged"),  # another board
                     (sign(TOPIC, BODY, bytes(32)), "unsigned"),            # the HMAC alone (the club's key)
                     (seal(TOPIC, BODY.replace(b'"index":0', b'"index":9'), private_key(seed))[:-1] + b"}", None)):
        if why is None:  # a signature over other bytes than the message's
            signed = seal(TOPIC, BODY, private_key(seed))
            bad = BODY.replace(b'"index":0', b'"index":9')[:-1] + signed[len(BODY) - 1:]
            why = "forged"
        with pytest.raises(AuthError, match=why):
            open_sealed(TOPIC, bad, public_key(public))
    with pytest.raises(AuthError, match="forged"):  # moved to another board's topic
        open_sealed("gamao/porto/mesa02/events", payload, public_key(public))
    with pytest.raises(ValueError):
        public_key("ab" * 32)   # a bare hex key (an older league's HMAC key) is not a public key


def test_the_board_alone_keeps_its_private_key(tmp_path: Path) -> None:
    pairing = Pairing(tmp_path)
    cred = pairing.pair("mesa01", "porto")
    assert cred["sign_key"] and cred["public"].startswith("ed25519:")
    on_disk = (tmp_path / "pairing.json").read_text()
    assert cred["sign_key"] not in on_disk and "sign_key" not in on_disk and cred["public"] in on_disk
    assert club_keys(pairing) == {"mesa01": cred["public"]}
    creds = tmp_path / "mesa01.json"
    creds.write_text(json.dumps(cred))
    assert read_credentials(creds)["sign_key"] == cred["sign_key"]
    config = ClubConfig.from_dict({"credentials": str(creds), "broker": "mqtt://127.0.0.1:1883"})
    assert config is not None and config.sign_key == cred["sign_key"]
    with pytest.raises(ClubConfigError, match="sign_key"):
        ClubConfig.from_dict({"broker": "mqtt://127.0.0.1:1883", "board": "mesa01", "sign_key": "zz"})
    # the club's director checks the MAC of a sealed message as before
    opener = pairing.opener("porto", "mesa01")
    assert opener is not None
    key = pairing.key("porto", "mesa01")
    assert key is not None
    msg = opener(TOPIC, sign(TOPIC, seal(TOPIC, BODY, private_key(cred["sign_key"])), key))
    assert msg["seq"] == 7 and len(msg["sig"]) == 128


def test_the_league_takes_public_keys_only(tmp_path: Path) -> None:
    league = League(tmp_path)
    with pytest.raises(ClubConfigError, match="public key"):
        league.pair_club("porto", {"mesa01": "ab" * 32}, broker="mqtt://127.0.0.1:1")
    seed, public = new_sign_key()
    cred = league.pair_club("porto", {"mesa01": public}, broker="mqtt://127.0.0.1:1")
    assert len(bytes.fromhex(cred["key"])) == 32   # the club's link key (the league's asks)
    assert league.key("porto", "mesa01") is None   # nothing to sign a board's command with
    opener = league.opener("porto", "mesa01")
    assert opener is not None and league.opener("lisboa", "mesa01") is None
    assert opener(TOPIC, sign(TOPIC, seal(TOPIC, BODY, private_key(seed)), bytes(32)))["seq"] == 7
    with pytest.raises(AuthError, match="unsigned"):
        opener(TOPIC, sign(TOPIC, BODY, bytes(32)))
    again = league.pair_club("porto", {"mesa01": public}, broker="mqtt://127.0.0.1:1", again=True)
    assert again["key"] == cred["key"] and again["password"] == cred["password"]


def test_a_club_director_obeys_the_league_asks_once_each(tmp_path: Path) -> None:
    """The league's ask: signed with porto's link key, its counter its own (above the last ask obeyed, whatever the
    director's own command counter is), for a board of porto's; anything else refused and counted."""
    league = League(tmp_path / "league")
    pairing = Pairing(tmp_path / "porto")
    pairing.pair("mesa01", "porto")
    cred = league.pair_club("porto", club_keys(pairing), broker="mqtt://127.0.0.1:1")
    other = league.pair_club("lisboa", {}, broker="mqtt://127.0.0.1:1")
    write_link(tmp_path / "porto", cred)
    key = bytes.fromhex(cred["key"])
    intake = Intake(None, tmp_path / "porto", club="porto", pairing=pairing)
    sent: list[tuple[str, str, dict[str, int], str]] = []
    intake.send_command = lambda club, board, body, kind="command": sent.append((club, board, body, kind)) or True  # type: ignore[method-assign]
    try:
        topic = ask_topic("porto")
        own = intake.commands.next()  # the director's own counter is far above the league's asks: no matter
        intake._handle(topic, signed_ask("porto", key, "mesa01", 3, 120, 5))
        assert sent == [("porto", "mesa01", {"match": 3, "from": 120}, "resend")]
        assert intake.stats["league_asks"] == 1 and own > 5
        refused = dict(intake.refused)
        intake._handle(topic, signed_ask("porto", key, "mesa01", 3, 120, 5))                    # replayed
        intake._handle(topic, signed_ask("porto", key, "mesa01", 3, 120, 4))                    # older
        intake._handle(topic, signed_ask("porto", bytes.fromhex(other["key"]), "mesa01", 3, 0, 9))  # lisboa's key
        intake._handle(topic, signed_ask("porto", key, "mesa09", 3, 0, 10))                     # not porto's board
        intake._handle(ask_topic("lisboa"), signed_ask("lisboa", key, "mesa01", 3, 0, 11))      # another club's asks
        intake._handle(topic, sign(topic, b'{"board":"mesa01","match":-1,"from":0,"seq":12}', key))  # out of bounds
        grew = {k: intake.refused[k] - refused[k] for k in refused if intake.refused[k] != refused[k]}
        assert grew == {"replayed": 2, "forged": 1, "unpaired": 1, "bad_topic": 1, "malformed": 1}, grew
        assert len(sent) == 1 and intake.stats["league_asks"] == 1
        intake._handle(topic, signed_ask("porto", key, "mesa01", 4, 0, 13))
        assert sent[-1] == ("porto", "mesa01", {"match": 4, "from": 0}, "resend")
        # the same match asked again within a second (the asks queued while the link was down, arriving together):
        # not resent again, counted apart
        intake._handle(topic, signed_ask("porto", key, "mesa01", 4, 0, 15))
        assert len(sent) == 2 and intake.stats["league_asks_skipped"] == 1
        assert check_ask("porto", signed_ask("porto", key, "mesa01", 4, 0, 14), key)["seq"] == 14
    finally:
        intake.archive.close()
