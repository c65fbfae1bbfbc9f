"""A board's side of the tournament night (kiosk/tournament_board.py): the director's verified start_match is shown
on the board's screen and said by its voice (espeak-ng), and starts the match with those names, length, rule set
and clock; a copy of it starts nothing; a board in the middle of its own match refuses. The screen seen in
headless Chromium at the kiosk's 800x480 (artifacts/screenshots/tournament-board-call.png)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from club.commands import CommandGate, signed_command, topic
from club.outbox import Outbox
from kiosk.config import Settings
from kiosk.demo import DemoRunner
from kiosk.demo_script import load_match, script
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from kiosk.tournament_board import TournamentBoard
from kiosk.voice import Voice
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot

KEY = bytes(range(32))
CALL = "Mesa 3: Ana x Bruno, partida de 5 pontos"


class Link:
    """The board's club link as the tournament board uses it: its config and the director's commands."""

    def __init__(self, folder: Path) -> None:
        self.config = SimpleNamespace(club="porto", board="mesa03", key=KEY)
        self.outbox = Outbox(folder / "club_outbox.sqlite")  # the board's command counter (the resend's too)
        self.gate = CommandGate("porto", "mesa03", KEY, self.outbox.obeyed)
        self.listeners: list[Any] = []

    def on_command(self, listener: Any) -> None:
        self.listeners.append(listener)

    def send(self, body: dict[str, Any], seq: int) -> None:
        for listener in self.listeners:
            listener(topic("porto", "mesa03"), signed_command("porto", "mesa03", KEY, body, seq))


def command(match: str = "M1-1", **over: Any) -> dict[str, Any]:
    return {"command": "start_match", "tournament": "Quinta", "match": match, "table": "3",
            "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": "tournament_usbgf", **over}


def test_the_call_is_shown_said_and_the_match_started(tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    service = RefereeService(tmp_path / "journal.sqlite")
    voice = Voice("pt", speak_to=tmp_path / "voice").listen(service)
    link = Link(tmp_path)
    board = TournamentBoard(service, link, tmp_path, voice=voice).start()
    try:
        link.send(command(), 1)
        deadline = time.monotonic() + 10
        while board.stats["started"] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        state = service.state()
        assert state["match"]["players"] == {"light": "Ana", "dark": "Bruno"} and state["match"]["length"] == 5
        rules = state["match"]["rules"]
        assert rules["rule_set"] == "tournament_usbgf" and rules["clock"]["per_point"] == 120.0  # its clock too
        notice = next(n for n in state["notices"] if n["kind"] == "tournament_call")
        assert notice["message"] == {"pt": CALL, "en": "Table 3: Ana v Bruno, a 5-point match"}
        assert voice.wait_idle(20)
        calls = [json.loads(x) for x in (tmp_path / "voice" / "calls.jsonl").read_text().splitlines()]
        assert [c["text"] for c in calls if c["key"] == "tournament_call"] == [CALL + "."]
        assert any(p.suffix == ".wav" and p.stat().st_size > 1000 for p in (tmp_path / "voice").iterdir())
        # the director sends it again (a new counter): nothing happens twice
        link.send(command(), 2)
        # the players start; then another match for this board is refused while theirs is under way
        runner = DemoRunner(service, vision=False, dice=False, say=lambda text: None)
        steps = script(load_match("3pt"), faults=False)
        next(steps)  # its own new_match: the director's is the one journaled
        for step in steps:
            runner.play_step(step)
            if step.kind == "roll":
                break
        link.send(command("M1-2", players={"light": "Carla", "dark": "Duda"}), 3)
        deadline = time.monotonic() + 10
        while board.stats["again"] + board.stats["busy"] < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert board.stats == {"started": 1, "again": 1, "busy": 1, "refused": 0}
        assert service.state()["match"]["players"] == {"light": "Ana", "dark": "Bruno"}
        assert len(service.journal.matches()) == 1
        # a board restarted on its data folder remembers what it started and the last counter
        again = TournamentBoard(service, Link(tmp_path), tmp_path)
        assert again.started == [["Quinta", "M1-1", "1"]] and not again.gate.obeyed(3)
    finally:
        board.close()
        voice.close()
        service.close()


def test_the_call_on_the_boards_screen(tmp_path: Path) -> None:
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    link = Link(tmp_path)
    board = TournamentBoard(service, link, tmp_path).start()
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, coach_engine=None)
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            page.goto(server.url + "/")
            page.wait_for_selector("svg#board")
            link.send(command(), 1)
            page.wait_for_selector(f"#notices:not([hidden]) >> text={CALL}", timeout=10_000)
            box = page.locator("#notices .tournament_call").bounding_box()
            assert box is not None and box["height"] >= 18  # large enough to read from a metre
            assert "Ana" in page.inner_text("body") and "Bruno" in page.inner_text("body")
            screenshot(page, "tournament-board-call")
    finally:
        board.close()
        service.close()
