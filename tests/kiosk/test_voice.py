"""The referee heard (kiosk/voice.py, issue 20): the calls the verdicts ask for, in Brazilian Portuguese and English,
said by the real espeak-ng as a separate process, written as numbered WAVs with their texts; never blocking the
referee; silent by the owner's choice; missing espeak-ng said and survived."""

from __future__ import annotations

import json
import shutil
import wave
from pathlib import Path

import pytest

from core.messages import message
from kiosk.config import ConfigError, Settings
from kiosk.service import RefereeService
from kiosk.voice import PHRASES, Voice, add_phrases, calls_for, phrase, timings
from tests.procs import alive, until

NAMES = {"light": "Ana", "dark": "Bruno"}
VERDICTS = [
    {"verdict": "reroll", "reason": "cocked_die", "dice": [6, 3]},
    {"verdict": "illegal", "side": "dark", "reason": "wrong_distance", "play": "13/3"},
    {"verdict": "unplayed_die", "side": "light", "unplayed": [5]},
    {"verdict": "cube", "action": "double", "side": "light", "value": 2},
    {"verdict": "cube", "action": "take", "side": "dark", "value": 2},
    {"verdict": "cube", "action": "drop", "side": "dark", "value": 2},
    {"verdict": "game_over", "winner": "light", "points": 4, "how": "backgammon"},
    {"verdict": "match_over", "winner": "light", "score": [5, 3]},
]


def espeak_or_skip() -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed: apt-get install espeak-ng (./dev test does it)")


def test_r24_r09_r13_the_verdicts_that_need_the_players_are_called_in_the_seeds_words() -> None:
    calls = calls_for(VERDICTS, NAMES, "pt")
    said = [phrase("pt", key, **params) for key, params in calls]
    assert said == ["Dado inclinado. Lance de novo.", "Jogada ilegal, Bruno. Volte as peças.",
                    "Ana, faltou jogar um dado.", "Ana dobra para 2.", "Bruno aceita. O cubo vale 2.",
                    "Bruno recusa a dobra.", "Ana ganha 4 pontos, gamão triplo, e a partida, 5 a 3."]
    english = [phrase("en", key, **params) for key, params in calls_for(VERDICTS, NAMES, "en")]
    assert english[0] == "Cocked die. Roll again."
    assert english[-1] == "Ana wins 4 points, a backgammon, and the match, 5 to 3."
    alone = calls_for([VERDICTS[-2]], NAMES, "pt") + calls_for([VERDICTS[-1]], NAMES, "pt")
    assert [phrase("pt", k, **p) for k, p in alone] == ["Ana ganha 4 pontos, gamão triplo.", "Ana ganha a partida, 5 a 3."]
    # Verdicts that need nobody are not said; no names given: the sides' words, never the API's "Light".
    assert calls_for([{"verdict": "roll", "side": "light", "dice": [3, 1]}, {"verdict": "play", "side": "light"}],
                     NAMES, "pt") == []
    key, params = calls_for([VERDICTS[1]], {"light": "Light", "dark": "Dark"}, "pt")[0]
    assert phrase("pt", key, **params) == "Jogada ilegal, Escuras. Volte as peças."


def test_a_cup_left_on_the_board_when_a_roll_comes_is_said() -> None:
    """Issue 33: the roll waits for the dice cup to be taken off; the players hear what and where, in the words of
    core/messages.py (the screen's)."""
    v = {"verdict": "uncertain", "reason": "point_covered", "side": "dark", "covered": [15], "by": "cup",
         "message": message("point_covered", covered=[15], by="cup")}
    assert [phrase(lang, k, **p) for lang in ("pt", "en") for k, p in calls_for([v], NAMES, lang)] == [
        "Tire o copo da casa 15.", "Take the dice cup off point 15."]
    assert calls_for([{"verdict": "uncertain", "side": "dark", "candidates": ["13/9"]}], NAMES, "pt") == []


def test_one_table_for_every_part_and_a_clash_refused() -> None:
    assert all(len(words) == 2 and all(words) for words in PHRASES.values())
    assert phrase("pt", "time_low", name="Ana", seconds=30) == "Ana, restam 30 segundos."
    with pytest.raises(ValueError, match="already defined: illegal"):
        add_phrases({"illegal": ("x", "y")})


def test_calls_written_as_numbered_wavs_with_their_texts_by_the_real_espeak(tmp_path: Path) -> None:
    espeak_or_skip()
    voice = Voice("pt", speak_to=tmp_path, play=False)
    try:
        voice.on_verdicts(VERDICTS[:3])
        # queued, never waited for: back before the worker made the three calls' sound (three espeak-ng runs; no
        # clock measured, which a loaded or one-core machine would stretch)
        assert len(voice.calls) < 3
        assert voice.wait_idle(20)
    finally:
        voice.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0001.txt", "0001.wav", "0002.txt", "0002.wav", "0003.txt",
                                                          "0003.wav", "calls.jsonl"]
    assert (tmp_path / "0002.txt").read_text(encoding="utf-8") == "Jogada ilegal, Escuras. Volte as peças.\n"
    with wave.open(str(tmp_path / "0002.wav")) as w:
        assert w.getnframes() / w.getframerate() > 1.0  # a second and more of speech
    lines = [json.loads(x) for x in (tmp_path / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x["key"] for x in lines] == ["cocked_die", "illegal", "unplayed_die"]
    assert all(x["language"] == "pt" and x["started_ms"] is not None and x["wav_ms"] >= x["started_ms"] for x in lines)
    tm = timings(voice.calls)
    assert tm["calls"] == 3 and tm["start_worst_ms"] >= tm["start_median_ms"]


def test_the_same_call_is_not_said_twice_in_a_row_and_silence_says_nothing(tmp_path: Path) -> None:
    espeak_or_skip()
    voice = Voice("en", speak_to=tmp_path / "on", play=False)
    try:
        assert voice.say("cocked_die") and not voice.say("cocked_die")  # one fault seen on two boards
        assert voice.wait_idle(20)
    finally:
        voice.close()
    assert len(voice.calls) == 1 and voice.calls[0].text == "Cocked die. Roll again."
    silent = Voice("pt", enabled=False, speak_to=tmp_path / "off")
    assert silent.status == "off" and not silent.say("cocked_die")
    assert list((tmp_path / "off").iterdir()) == []


def test_missing_espeak_is_said_and_play_goes_on(tmp_path: Path) -> None:
    service = RefereeService(":memory:")
    try:
        voice = Voice("pt", command="espeak-ng-not-installed-here", speak_to=tmp_path)
        assert voice.status == "missing" and not voice.say("illegal", name="Ana")
        voice.listen(service)
        service.submit({"event": "new_match", "length": 3, "players": NAMES})
        service.submit({"event": "roll", "dice": [5, 3], "cocked": [False, True]})  # a call, unsaid: play goes on
        assert service.state()["match"]["players"] == NAMES and voice.players == NAMES
        assert voice.calls == [] and list(tmp_path.iterdir()) == []
    finally:
        service.close()


def test_a_service_journals_then_the_voice_calls_its_verdicts(tmp_path: Path) -> None:
    """R24 end to end: a cocked roll submitted to the real service is called, with the players' names known."""
    espeak_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    voice = Voice("pt", speak_to=tmp_path / "calls", play=False).listen(service)
    try:
        service.submit({"event": "new_match", "length": 3, "players": NAMES})
        service.submit({"event": "roll", "dice": [5, 3], "cocked": [False, True]})
        assert voice.wait_idle(20)
    finally:
        voice.close()
        service.close()
    assert [c.key for c in voice.calls] == ["cocked_die"]
    assert voice.calls[0].started is not None and (voice.calls[0].started - voice.calls[0].asked) < 1.0


def test_the_appliance_setting_speak() -> None:
    assert Settings().speak is True
    assert Settings.from_dict({"speak": False}).speak is False
    with pytest.raises(ConfigError, match="'speak' must be true or false"):
        Settings.from_dict({"speak": "no"})


def test_the_page_says_once_that_the_voice_is_missing(tmp_path: Path) -> None:
    from kiosk.main import create_app
    from kiosk.server import BackgroundServer
    from tests.kiosk.browser import chromium_or_skip, chromium_page
    from tests.kiosk.fakes import FakeService

    chromium_or_skip()
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=FakeService())
    app.state.voice = Voice("pt", command="espeak-ng-not-installed-here")
    with BackgroundServer(app) as server, chromium_page(800, 480) as page:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=toast]:not([hidden])")
        assert page.inner_text("[data-testid=toast]").startswith("Sem voz: o espeak-ng não está instalado")
        page.reload()
        page.wait_for_selector("[data-testid=dice]")
        page.wait_for_timeout(300)
        assert page.is_hidden("[data-testid=toast]")  # said once


def test_the_clocks_warnings_and_flag_are_called() -> None:
    """Issue 21: the clock's warnings at one minute and ten seconds, and the flag's fall, are spoken."""
    from kiosk.voice import calls_for, phrase

    calls = calls_for([{"verdict": "clock_warning", "side": "dark", "level": 60},
                       {"verdict": "clock_warning", "side": "dark", "level": 10},
                       {"verdict": "time_out", "side": "dark"}], {"light": "Ana", "dark": "Bia"}, "pt")
    assert [k for k, _ in calls] == ["time_low", "time_low", "time_up"]
    assert phrase("pt", "time_low", **calls[0][1]) == "Bia, restam 60 segundos."
    assert phrase("en", "time_up", **calls[2][1]) == "Bia, time is up."


def test_a_hung_espeak_is_ended_with_its_owner(tmp_path: Path) -> None:
    """Issue 34, finding 11: a stand-in espeak-ng that hangs (a shell that starts `sleep`) is ended, its child
    too, when the voice closes; before, it outlived the demo (15 s late, an orphan)."""
    pids = tmp_path / "pids"
    stand_in = tmp_path / "espeak-ng"
    stand_in.write_text(f"#!/bin/sh\necho $$ >> {pids}\nsleep 120 &\necho $! >> {pids}\nwait\n")
    stand_in.chmod(0o755)
    voice = Voice("pt", command=str(stand_in), play=True)
    assert voice.say("cocked_die")
    assert until(lambda: pids.exists() and len(pids.read_text().split()) >= 2, 10)
    started = [int(p) for p in pids.read_text().split()]
    assert all(alive(pid) for pid in started)
    voice.close()
    until(lambda: not any(alive(pid) for pid in started), 5)
    assert [pid for pid in started if alive(pid)] == []
