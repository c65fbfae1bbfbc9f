"""The hardware around the referee service on the real appliance (`gamao run`): the dice unit on its
serial port, the camera through vision's pipeline, the buttons and lights on the GPIO header.

Every part is optional and independent: a missing camera leaves boards to the touch screen's
corrections, an unplugged dice unit is picked up when it is plugged in (DiceLink keeps retrying the path),
and no GPIO chip means no buttons. Each part's events go to `service.submit` from its own thread.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.checks import UDEV_LINK, find_dice_port
from kiosk.config import Settings
from kiosk.dicelog import DiceLog
from kiosk.journal import JournalWriteError

log = logging.getLogger(__name__)
CALIBRATION = "calibration.json"


def overlay(pipeline: Any, corners: Any, last: dict[str, Any] | None, size: tuple[int, int],
            markers: dict[str, Any], learning: Any = None) -> dict[str, Any]:
    """What the calibration page draws: the field corners and each point's detected count, in image pixels;
    what was learnt about this board and how sure the last reading is, point by point (``learnt``, issue 33)."""
    import cv2
    import numpy as np

    from vision.geometry import columns_to_points

    out: dict[str, Any] = {"width": size[0], "height": size[1], "corners": None, "points": [], "markers": markers}
    if learning is not None:
        out["learnt"] = learning.summary(pipeline, last)
    if pipeline is None or corners is None:
        return out
    layout = pipeline.reader.layout
    back = np.linalg.inv(layout.homography(corners))
    top, bottom = columns_to_points(pipeline.light_home)
    for pts, y in ((top, layout.top_y + layout.checker), (bottom, layout.bottom_y - layout.checker)):
        for j, p in enumerate(pts):
            x, yy = cv2.perspectiveTransform(np.array([[[layout.column_x(j), y]]], np.float32), back)[0][0]
            light = last["light"][p - 1] if last else 0
            dark = last["dark"][p - 1] if last else 0
            learnt = out["learnt"]["points"][p - 1] if "learnt" in out else {}
            out["points"].append({"point": p, "x": round(float(x), 1), "y": round(float(yy), 1),
                                  "side": "light" if light else ("dark" if dark else None), "count": light or dark,
                                  "sure": learnt.get("sure"), "level": learnt.get("level")})
    out["corners"] = [[round(float(a), 1), round(float(b), 1)] for a, b in corners]
    return out


def learn_board(pipeline: Any, learning: Any, frame: Any, corners: Any, board: str) -> dict[str, Any]:
    """What the calibration page's "learn" does (issue 33): the board event read after learning ``board`` from
    ``frame``; ValueError with a plain sentence when there is nothing to learn from."""
    from vision.learning import LearnError

    if pipeline is None or learning is None or frame is None:
        raise LearnError("A câmera ainda não mandou nenhuma imagem.", "The camera has not delivered a frame yet.")
    if corners is None:
        raise LearnError("O tabuleiro não foi encontrado: toque nos seus quatro cantos primeiro.",
                         "The board is not found: tap its four corners first.")
    return learning.learn(pipeline, pipeline.reader.canonical(frame, corners), board)


def keep_learnt(pipeline: Any, old: Any, same_view: bool = True) -> Any:
    """A new pipeline that reads with what the old one learnt about this board (for the whole match): the
    checker colours always; the empty points' look only from the same view (new corners warp them anew)."""
    colours = old.reader.colours if old is not None else None
    if colours is not None:
        from vision.detect import ColourModel

        pipeline.reader.colours = colours if same_view else ColourModel(colours.light, colours.dark)
    return pipeline


def camera_spec(settings: Settings) -> str | None:
    """vision.camera.open_source's spec for the configured camera, or None when there is none."""
    cam = settings.camera
    if cam == "none":
        return None
    if cam in ("auto", "picamera2") and importlib.util.find_spec("picamera2") is not None:
        return "picamera"
    if cam.startswith("/dev/video") and cam[len("/dev/video"):].isdigit():
        return cam[len("/dev/video"):]
    if cam == "auto":
        devices = sorted(glob.glob("/dev/video*"))
        return devices[0][len("/dev/video"):] if devices else None
    return cam  # a folder of images or a video file, for trials


class CameraLoop:
    """Frames -> vision pipeline -> board events, in a thread; also the calibration page's camera."""

    def __init__(self, spec: str, submit: Callable[[dict[str, Any]], Any], data_dir: Path,
                 alert: Callable[[str, bool], None] | None = None, controls: Any = None) -> None:
        self.spec = spec
        self.controls = controls  # vision.camera_controls.CameraControls for the Pi camera
        self.submit = submit
        self.alert = alert  # told ("camera_bumped", on) when the camera moved and its corners need a look
        self.path = data_dir / CALIBRATION
        self._lock = threading.Lock()
        self._jpeg: bytes | None = None
        self._size = (0, 0)
        self._last: dict[str, Any] | None = None
        self._stop = threading.Event()
        self.pipeline: Any = None
        self.corners: Any = self._load_corners()
        self._frame: Any = None  # the latest frame shown to the calibration page (what "learn" learns from)
        self.learning: Any = None  # vision.learning.BoardLearning: what this board looks like (issue 33)
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def _load_corners(self) -> Any:
        import numpy as np

        try:
            return np.array(json.loads(self.path.read_text())["corners"], np.float32)
        except (OSError, ValueError, KeyError):
            return None  # not calibrated yet: vision looks for the ArUco markers

    def start(self) -> CameraLoop:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        from vision.camera import CameraError, open_source
        from vision.pipeline import Pipeline

        while not self._stop.is_set():
            try:
                source = open_source(self.spec, self.controls)
                self.pipeline = keep_learnt(Pipeline(corners=self.corners), self.pipeline)
                previous = None
                bumped = False
                shown = 0.0
                for frame, t in source.frames():
                    if self._stop.is_set():
                        return
                    if time.monotonic() - shown > 0.5:  # the calibration page needs a picture, not video
                        self._show(frame)
                        shown = time.monotonic()
                    event = self.pipeline.process(frame, t)
                    if event is not None and event["stable"] and self._wants_start(event):
                        # the owner showed the empty board first: the checker colours come from the start now
                        try:
                            event = learn_board(self.pipeline, self.learning, frame, self.corners
                                                if self.corners is not None else self.pipeline.registrar.last, "start")
                        except ValueError as exc:  # LearnError: not learnt from this frame; the pipeline's event stands
                            log.info("the start was not learnt from this frame: %s", exc)
                    if self.alert is not None and self.pipeline.bumped != bumped:
                        bumped = self.pipeline.bumped  # on until the corners are set again (a new pipeline)
                        self.alert("camera_bumped", bumped)
                    if event is None:
                        continue
                    key = (event["stable"], event["light"], event["dark"], event["bar"])
                    if key != previous:
                        previous = key
                        if event["stable"]:
                            with self._lock:
                                self._last = event
                        if self.submit(event) is False:
                            previous = None  # not recorded (disk full): send this board again with the next frame
            except CameraError as exc:
                log.warning("camera: %s; trying again in 5 s", exc)
            except Exception:  # a vision bug must not stop the referee; log it and reopen the camera
                log.exception("camera loop failed; reopening in 5 s")
            self._stop.wait(5)

    def _show(self, frame: Any) -> None:
        import cv2

        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            with self._lock:
                self._jpeg = buf.tobytes()
                self._size = (int(frame.shape[1]), int(frame.shape[0]))
                self._frame = frame

    # ---- CalibrationSource ----------------------------------------------------------------------------------
    def frame_jpeg(self) -> bytes | None:
        with self._lock:
            return self._jpeg

    def overlay(self) -> dict[str, Any]:
        pipeline = self.pipeline
        corners = self.corners if self.corners is not None else (
            pipeline.registrar.last if pipeline is not None else None)
        with self._lock:
            last, size = self._last, self._size
        found = "clicked corners" if self.corners is not None else "ArUco markers"
        return overlay(pipeline, corners, last, size,
                       {"found": [], "missing": [], "note": f"board found by {found}" if corners is not None
                        else "board not found: click its four corners",
                        "note_key": ("clicked" if self.corners is not None else "markers") if corners is not None
                        else "not_found"}, self._learning(pipeline))

    def _wants_start(self, event: dict[str, Any]) -> bool:
        """The checker colours are not learnt yet but the empty points are (the pipeline learns the colours by
        itself only when it has learnt nothing), and the board shows the start."""
        from vision.pipeline import is_start

        colours = self.pipeline.reader.colours
        return (colours is not None and (colours.light is None or colours.dark is None) and self.learning is not None
                and is_start(event, self.pipeline.start))

    def _learning(self, pipeline: Any) -> Any:
        if self.learning is None and pipeline is not None:
            from vision.learning import BoardLearning

            self.learning = BoardLearning(pipeline.light_home)
        return self.learning

    def learn(self, board: str) -> dict[str, Any]:
        """Learn this board from the latest frame, which shows ``board`` ("start" or "empty"); the new overlay.
        ValueError (vision.learning.LearnError, with words in pt and en) when it cannot."""
        pipeline = self.pipeline
        with self._lock:
            frame = self._frame
        corners = self.corners if self.corners is not None else (pipeline.registrar.last if pipeline is not None else None)
        event = learn_board(pipeline, self._learning(pipeline), frame, corners, board)
        with self._lock:
            self._last = event
        return self.overlay()

    def set_corners(self, corners: list[tuple[float, float]]) -> dict[str, Any]:
        import numpy as np

        from vision.geometry import validate_corners
        from vision.pipeline import Pipeline

        try:
            arr = validate_corners(np.array(corners, np.float32))
        except ValueError as exc:
            raise ValueError(f"these corners do not make a board: {exc}") from None
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"corners": arr.tolist()}))
        os.replace(tmp, self.path)
        self.corners = arr
        self.pipeline = keep_learnt(Pipeline(corners=arr), self.pipeline, same_view=False)
        return self.overlay()


class Appliance:
    """`pin_factory`: gpiozero's, for tests (MockFactory); by default the panel starts only on a Pi."""

    def __init__(self, settings: Settings, service: Any, pin_factory: Any = None) -> None:
        self.settings = settings
        self.service = service
        self.pin_factory = pin_factory
        self.dice: Any = None
        self.camera: CameraLoop | None = None
        self.panel: Any = None
        self._unsubscribe: Callable[[], None] | None = None
        self._write_failed = False
        self._coach_wait = False
        self._coach_unsubscribe: Any = None
        self.dice_log = DiceLog(settings.data_dir)  # the unit's rolls across matches (issue 21)
        self._verdicts: list[dict[str, Any]] = []  # the referee's answer to the last event handed on

    def submit(self, event: dict[str, Any]) -> bool | None:
        """Hand one event to the service; False when it could not be recorded (disk full), so the source sends
        it again; None for events that are not the referee's."""
        kind = event.get("event")
        if kind in ("lost", "hello", "reconnected"):  # the dice unit went away or came back
            self._alert("dice_lost", kind == "lost")
        if kind not in ("roll", "button", "board"):
            return None  # hello, heartbeat, lost ...: the bridge's own business
        self._verdicts = []
        try:
            self._verdicts = self.service.submit(event) or []
        except JournalWriteError:
            return False  # the service logged it and put it on the screen; the lights follow (_lights)
        except ValueError as exc:
            log.warning("event refused: %s", exc)
        return True

    def _alert(self, name: str, on: bool) -> None:
        """Hardware trouble a human must see to (a club's director highlights the board)."""
        alert = getattr(self.service, "alert", None)
        if alert is not None:
            alert(name, on)

    def _from_dice(self, event: dict[str, Any]) -> None:
        """The dice unit's events: a roll that could not be recorded is not acknowledged, so the unit re-sends it.
        Each roll the journal took (and the unit's hello) also goes to the dice log (kiosk/dicelog.py)."""
        if self.submit(event) is False:
            from firmware_bridge.protocol import NotHandedOn

            raise NotHandedOn("the journal cannot be written")
        refused = next((v.get("reason") for v in self._verdicts if v.get("verdict") == "reroll"), None)
        try:
            self.dice_log.seen(event, match=getattr(self.service, "current_match", None), refused=refused)
        except OSError as exc:
            log.error("dice log: %s", exc)

    def start(self) -> Appliance:
        from firmware_bridge.link import DiceLink

        s = self.settings
        port = s.serial_port if s.serial_port != "auto" else (find_dice_port(s) or UDEV_LINK)
        self.dice = DiceLink(port, self._from_dice).start()  # reopens the path whenever the unit is plugged in
        spec = camera_spec(s)
        if spec is not None:
            from vision.camera_controls import CameraControls

            self.camera = CameraLoop(spec, self.submit, s.data_dir, alert=self._alert,
                                     controls=CameraControls.from_dict(s.camera_controls)).start()
        if self.pin_factory is not None or glob.glob("/dev/gpiochip*"):
            try:
                from firmware_bridge.gpio import Panel

                self.panel = Panel(s.gpio, self.submit, pin_factory=self.pin_factory)
            except Exception as exc:  # no lgpio, pins busy: the touch screen still works
                log.warning("GPIO panel not started: %s", exc)
        if hasattr(self.service, "subscribe"):
            self._unsubscribe = self.service.subscribe(self._lights)
        return self

    def _lights(self, state: dict[str, Any]) -> None:
        """The panel follows the turn and the verdicts; both the panel and the dice unit show a failed write."""
        failed = any(n.get("kind") == "write_failed" for n in state.get("notices") or [])
        verdicts = state.get("verdicts") or []
        if failed != self._write_failed:
            self._write_failed = failed
            if self.dice is not None:
                from firmware_bridge.protocol import unit_led_for_verdict

                self.dice.send_led("ERROR" if failed else (verdicts and unit_led_for_verdict(verdicts[-1])) or "ON")
        if self.panel is None:
            return
        self.panel.show_turn(state.get("turn"))
        if failed:
            self.panel.show_verdict({"at": f"write_failed {len(verdicts)}", "verdict": "write_failed"})
        elif verdicts:
            self.panel.show_verdict(verdicts[-1])

    def follow_coach(self, coach: Any) -> None:
        """While the coach's tutor judges the play on the board (its snapshot's ``wait``), the dice unit blinks
        and the panel's verdict light blinks amber: the opponent waits before rolling (issue 24)."""
        def on_coach(snapshot: dict[str, Any]) -> None:
            wait = bool(snapshot.get("wait"))
            if wait == self._coach_wait:
                return
            self._coach_wait = wait
            if self.dice is not None:
                from firmware_bridge.protocol import unit_led_for_verdict

                verdicts = (self.service.state().get("verdicts") or []) if hasattr(self.service, "state") else []
                self.dice.send_led("BLINK" if wait else (verdicts and unit_led_for_verdict(verdicts[-1])) or "ON")
            if self.panel is not None:
                self.panel.show_wait(wait)

        self._coach_unsubscribe = coach.subscribe(on_coach)

    def close(self) -> None:
        if self._coach_unsubscribe is not None:
            self._coach_unsubscribe()
        if self._unsubscribe is not None:
            self._unsubscribe()
        for part in (self.camera, self.dice, self.panel):
            if part is not None:
                part.close()
