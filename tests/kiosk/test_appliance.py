"""The appliance's hardware parts without the hardware: the camera loop on a folder of rendered frames,
the dice link on the simulator's pty, calibration stored in the data folder."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from kiosk.appliance import Appliance, CameraLoop, camera_spec
from kiosk.config import Settings
from vision.render import Options, Scene, render


class Collect:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.got = threading.Condition()

    def __call__(self, event: dict[str, Any]) -> None:
        with self.got:
            self.events.append(event)
            self.got.notify_all()

    def wait(self, pred, timeout: float = 20) -> bool:  # type: ignore[no-untyped-def]
        with self.got:
            return self.got.wait_for(lambda: pred(self.events), timeout)


WOOD = Options(size=(960, 540), field="wood", checkers="red_white", glare=False, dice=False, perspective=0.02,
               rotate=2)


def _camera_loop(tmp_path: Path, image: np.ndarray, corners: np.ndarray) -> tuple[Collect, CameraLoop]:
    """The appliance's camera loop on a folder of twelve frames of ``image``, the board's corners saved."""
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(12):
        cv2.imwrite(str(frames / f"{i:02}.png"), image)
    (tmp_path / "calibration.json").write_text(json.dumps({"corners": corners.tolist()}))
    got = Collect()
    return got, CameraLoop(str(frames), got, tmp_path).start()


def test_camera_loop_turns_frames_into_board_events_and_saves_calibration(tmp_path: Path) -> None:
    image, corners = render(Scene.start(), 3, WOOD)
    got, loop = _camera_loop(tmp_path, image, corners)
    try:
        assert got.wait(lambda ev: any(e["stable"] for e in ev)), got.events
        stable = next(e for e in got.events if e["stable"])
        assert stable["light"] == Scene.start().light and stable["dark"] == Scene.start().dark
        assert loop.frame_jpeg() is not None
        ov = loop.overlay()
        assert ov["markers"]["note"] == "board found by clicked corners"
        assert {p["point"]: p["count"] for p in ov["points"]}[6] == 5
        new = [[10, 10], [900, 12], [905, 520], [8, 515]]
        loop.set_corners([tuple(c) for c in new])
        saved = json.loads((tmp_path / "calibration.json").read_text())["corners"]
        assert [[round(a), round(b)] for a, b in saved] == [[10, 10], [900, 12], [905, 520], [8, 515]]
    finally:
        loop.close()


def test_camera_loop_learns_the_empty_board_and_refuses_the_start_it_does_not_see(tmp_path: Path) -> None:
    """Issue 33: the calibration page's "learn" on the appliance's own camera loop (frames from a folder): the
    empty board is learnt for every point; the start is refused in words while the board is empty; new corners
    (another view) keep what the checkers look like, not the empty points' look."""
    start, corners = render(Scene.start(), 3, WOOD)
    got, loop = _camera_loop(tmp_path, render(Scene([0] * 24, [0] * 24), 3, WOOD)[0], corners)
    try:
        assert got.wait(lambda ev: any(e["stable"] for e in ev)), got.events
        ov = loop.learn("empty")
        assert ov["learnt"]["from"] == ["empty"]
        assert all(p["empty"] for p in ov["learnt"]["points"]) and ov["learnt"]["light"] is None
        with pytest.raises(ValueError, match="not at the starting position") as err:
            loop.learn("start")
        assert err.value.message["pt"].startswith("O tabuleiro não está na posição inicial")  # type: ignore[attr-defined]
        loop.pipeline.reader.colours.light = loop.pipeline.reader.colours.dark = np.zeros(3, np.float32)
        loop.set_corners([tuple(c) for c in corners.tolist()])
        colours = loop.pipeline.reader.colours
        assert colours is not None and colours.light is not None and not colours.empty
    finally:
        loop.close()


def test_appliance_dice_link_forwards_rolls_from_the_pty(tmp_path: Path) -> None:
    from firmware_bridge.sim import DiceSimulator

    class Service:
        def __init__(self) -> None:
            self.got = Collect()

        def submit(self, event: dict[str, Any]) -> list[dict[str, Any]]:
            self.got(event)
            return []

    with DiceSimulator(tmp_path / "dice") as sim:
        settings = Settings(data_dir=tmp_path, serial_port=str(tmp_path / "dice"), camera="none", language="en")
        service = Service()
        appliance = Appliance(settings, service).start()
        try:
            assert appliance.dice.wait_connected(10)
            sim.roll(6, 3)
            assert service.got.wait(lambda ev: any(e["event"] == "roll" for e in ev), 10)
            roll = next(e for e in service.got.events if e["event"] == "roll")
            assert roll["dice"] == [6, 3] and roll["cocked"] == [False, False]
            assert all(e["event"] in ("roll", "button", "board") for e in service.got.events)
        finally:
            appliance.close()


def test_camera_spec_from_settings(tmp_path: Path) -> None:
    assert camera_spec(Settings(data_dir=tmp_path, camera="none", language="en")) is None
    assert camera_spec(Settings(data_dir=tmp_path, camera="/dev/video2", language="en")) == "2"
    assert camera_spec(Settings(data_dir=tmp_path, camera=str(tmp_path), language="en")) == str(tmp_path)


def test_gpio_buttons_reach_the_referee_and_lights_follow_the_turn(tmp_path: Path) -> None:
    from gpiozero.pins.mock import MockFactory

    from kiosk.service import RefereeService

    factory = MockFactory()
    service = RefereeService(tmp_path / "journal.sqlite")
    settings = Settings(data_dir=tmp_path, serial_port=str(tmp_path / "no-dice"), camera="none", language="en")
    appliance = Appliance(settings, service, pin_factory=factory).start()
    try:
        service.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}})
        service.submit({"event": "roll", "dice": [3, 1]})  # opening: light starts (R03)
        assert factory.pin(5).state and not factory.pin(6).state  # turn light of the side on roll
        assert appliance.panel.verdict_shown == "opening"
        factory.pin(17).drive_low()  # end turn with nothing played: R09 unplayed die; casual mode, it stands
        factory.pin(17).drive_high()
        unplayed, play = service.state()["verdicts"][-2:]
        assert unplayed["verdict"] == "unplayed_die" and unplayed["unplayed"] == [3, 1]
        assert play["verdict"] == "play" and play["legal"] is False
        assert not factory.pin(5).state and factory.pin(6).state  # dark's turn now
        assert service.journal.count() == 3
    finally:
        appliance.close()
        service.close()
        factory.reset()


def test_hardware_trouble_is_an_alert_on_the_service(tmp_path: Path) -> None:
    """The dice unit lost and back, the camera bumped and its corners set again: the service's alerts (what a
    club's director highlights, docs/club.md) follow, each change told once."""
    import numpy as np

    from kiosk.service import RefereeService

    service = RefereeService(tmp_path / "journal.sqlite")
    told: list[tuple[str, bool]] = []
    service.on_alert(lambda name, on: told.append((name, on)))
    settings = Settings(data_dir=tmp_path, camera="none", language="en")
    appliance = Appliance(settings, service)
    try:
        assert appliance.submit({"event": "lost", "why": "unplugged"}) is None
        assert appliance.submit({"event": "lost", "why": "still unplugged"}) is None
        assert service.alerts == {"dice_lost"}
        appliance.submit({"event": "hello", "protocol": 1, "firmware": "x"})
        assert service.alerts == set() and told == [("dice_lost", True), ("dice_lost", False)]

        frames = tmp_path / "frames"
        frames.mkdir()
        image, corners = render(Scene.start(), 3, Options(size=(960, 540), field="wood", checkers="red_white",
                                                              glare=False, dice=False, perspective=0.02, rotate=2))
        moved = np.roll(image, (60, 80), axis=(0, 1))  # the camera knocked: the whole picture shifts
        for i in range(30):
            cv2.imwrite(str(frames / f"{i:02}.png"), image if i < 10 else moved)
        (tmp_path / "calibration.json").write_text(json.dumps({"corners": corners.tolist()}))
        loop = CameraLoop(str(frames), service.submit, tmp_path, alert=appliance._alert).start()
        try:
            deadline = threading.Event()
            for _ in range(200):
                if ("camera_bumped", True) in told:
                    break
                deadline.wait(0.1)
            assert ("camera_bumped", True) in told and "camera_bumped" in service.alerts
        finally:
            loop.close()
    finally:
        service.close()


def test_r23_the_dice_unit_and_the_panel_say_wait_while_the_tutor_judges(tmp_path: Path) -> None:
    """Issue 24: while the coach's tutor judges the play on the board (its deeper look held here), the dice
    unit blinks and the panel's verdict lights blink amber; when the verdict is final they show the turn again."""
    import threading

    from gpiozero.pins.mock import MockFactory

    from firmware_bridge.sim import DiceSimulator
    from kiosk.coach import CoachService, CoachSettings
    from kiosk.service import RefereeService
    from tests.kiosk.coach_game import after, board, held_deep_engine, opening, play_with_label

    release = threading.Event()
    engine = held_deep_engine(release)
    factory = MockFactory()
    service = RefereeService(tmp_path / "journal.sqlite")
    with DiceSimulator(tmp_path / "dice") as sim:
        settings = Settings(data_dir=tmp_path, serial_port=str(tmp_path / "dice"), camera="none", language="en")
        appliance = Appliance(settings, service, pin_factory=factory).start()
        coach = CoachService(service, lambda: engine, CoachSettings(tutor="bad", marks="gnubg"), data_dir=tmp_path).start()
        appliance.follow_coach(coach)
        try:
            assert appliance.dice.wait_connected(10)
            opening(service)
            service.submit(board(after(play_with_label("very_bad"))))
            assert sim.wait_until(lambda: sim.unit.led == "BLINK", 10), sim.unit.led
            assert sim.wait_until(lambda: coach.snapshot()["tutor"] is not None, 10)  # the first verdict
            assert coach.snapshot()["wait"] is True and sim.unit.led == "BLINK"  # still judging deeper
            assert appliance._coach_wait is True
            release.set()
            assert sim.wait_until(lambda: sim.unit.led != "BLINK", 10)
            assert coach.snapshot()["wait"] is False and coach.snapshot()["tutor"]["final"] is True
        finally:
            release.set()
            coach.close()
            appliance.close()
            service.close()
            factory.reset()
