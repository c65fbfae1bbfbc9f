"""`gamao demo`: the whole system on simulated hardware.

A real corpus match (kiosk/demo_script.py) is played at the table that is not there: every roll goes
through the dice unit simulator's pseudo-terminal and the serial bridge, every board is drawn by vision's
synthetic renderer (a hand over the board between plays) and read back by vision's pipeline, and the
referee rules on what arrives, exactly as on the appliance. The kiosk page shows it all.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kiosk.demo_script import Step, load_match, script, variant_script

Say = Callable[[str], None]


class SimulatedDice:
    """The dice unit simulator on a pty, read by the real serial bridge; rolls reach the service from the
    bridge's reader thread, as on the appliance."""

    def __init__(self, submit: Callable[[dict[str, Any]], Any], folder: Path) -> None:
        from firmware_bridge.link import DiceLink
        from firmware_bridge.sim import DiceSimulator

        self._submit = submit
        self._arrived = threading.Condition()
        self._rolls = 0
        self.sim = DiceSimulator(folder / "gamao-dice").start()
        self.link = DiceLink(self.sim.port, self._on_event).start()
        if not self.link.wait_connected(10):
            self.close()
            raise RuntimeError("the simulated dice unit did not answer on its pseudo-terminal")

    def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("event") in ("roll", "button"):
            self._submit(event)
            with self._arrived:
                self._rolls += event.get("event") == "roll"
                self._arrived.notify_all()

    def roll(self, dice: list[int], cocked: list[bool]) -> bool:
        """Roll on the unit; True once the bridge has delivered it (the demo keeps events in order)."""
        with self._arrived:
            before = self._rolls
        self.sim.roll(dice[0], dice[1], cocked=(cocked[0], cocked[1]))
        with self._arrived:
            return self._arrived.wait_for(lambda: self._rolls > before, timeout=5)

    def close(self) -> None:
        self.link.stop()
        self.sim.stop()


class SimulatedCamera:
    """Renders each board with vision's synthetic renderer and reads it back through vision's pipeline.

    Also the calibration page's camera: the latest frame and what was detected on it.
    """

    def __init__(self, seed: int = 7, variant: str | None = None) -> None:
        from vision.pipeline import Pipeline
        from vision.render import Options

        self.seed = seed
        #: R30-R32: the variant's start, to learn the checker colours from (Plakoto's and Jacquet's piles); a
        #: Russian game starts on an empty board, so the colours are learnt from backgammon's start shown first
        self.variant = variant
        self.start: tuple[list[int], list[int]] | None = None
        if variant is not None:
            from core.rules.variants import variant as variant_class

            first = variant_class(variant).start()  # type: ignore[call-arg]
            self.start = (list(first.light), list(first.dark))
        self.opts = Options(size=(960, 540), field="wood", checkers="red_white", perspective=0.03, rotate=3.0,
                            glare=False, dice=False)
        self.hand_opts = Options(**{**self.opts.__dict__, "hand": True})
        self._pipeline_cls = Pipeline
        self.pipeline: Any = None
        self.corners: Any = None
        self.t = 0.0
        self._lock = threading.Lock()
        self._jpeg: bytes | None = None
        self._image: Any = None  # the latest frame (what the calibration page's "learn" learns from)
        self._last: dict[str, Any] | None = None
        self.learning: Any = None  # vision.learning.BoardLearning (issue 33), made with the pipeline
        self.boards = self.misread = 0

    def _render(self, event: dict[str, Any], hand: bool) -> Any:
        from vision.render import Scene, render

        scene = Scene.from_event(event)
        # Borne-off checkers go in a box beside the board, out of the camera's view (vision infers them);
        # drawn in the tray at the frame's edge they look like an arm reaching in.
        scene.off = {"light": 0, "dark": 0}
        image, corners = render(scene, self.seed, self.hand_opts if hand else self.opts)
        if self.pipeline is None:
            # One camera that never moves: calibrated once with the renderer's corners, then every frame
            # (hands, boards) goes through the same pipeline, stillness and learnt colours included.
            self.corners = corners
            self.pipeline = self._pipeline_cls(corners=corners, start=self.start)
            if self.start is not None and not any(self.start[0]):
                self._learn_colours()
        return image

    def _learn_colours(self) -> None:
        """Russian backgammon (R31): the players set up backgammon's start once for the camera to learn the
        checkers' colours, then clear the board (docs/variants.md)."""
        from vision.render import Scene, render

        image, _ = render(Scene.start(), self.seed, self.opts)
        for _ in range(12):
            self.t += 0.15
            self.pipeline.process(image, self.t)
            if self.pipeline.reader.colours is not None:
                break
        self._restart(self.corners)

    def _restart(self, corners: Any) -> None:
        """A fresh pipeline on these corners that keeps the checker colours learnt at the start."""
        colours = self.pipeline.reader.colours
        self.corners = corners
        self.pipeline = self._pipeline_cls(corners=corners, start=self.start)
        self.pipeline.reader.colours = colours

    def _show(self, image: Any) -> None:
        import cv2

        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            with self._lock:
                self._jpeg = buf.tobytes()
                self._image = image

    def see(self, truth: dict[str, Any], hand: bool, setup: bool = False) -> tuple[dict[str, Any] | None, bool]:
        """The board event vision reports for this board; (event, read_correctly).

        `setup`: all thirty checkers are put back for a new game. Vision's stillness keeps comparing with
        the last stable board, and a change that large never settles, so the demo starts vision afresh
        then (keeping the learnt colours), as a player would restart the camera.
        """
        if setup and self.pipeline is not None:
            self._restart(self.corners)
        image = self._render(truth, hand)
        self._show(image)
        event = None
        for _ in range(2 if hand else 12):  # frames 0.15 s apart until vision says what a camera would
            self.t += 0.15
            event = self.pipeline.process(image, self.t)
            if event is not None and event["stable"] is not hand:
                break
        if hand or event is None:
            return event, True
        self.boards += 1
        right = _reads_right(event, truth)
        with self._lock:
            self._last = event  # the calibration page shows what was read, right or not, and how sure
        if not right:
            self.misread += 1
        return event, right

    # ---- CalibrationSource ------------------------------------------------------------------------------
    def frame_jpeg(self) -> bytes | None:
        with self._lock:
            return self._jpeg

    def overlay(self) -> dict[str, Any]:
        from kiosk.appliance import overlay

        with self._lock:
            last = self._last
        return overlay(self.pipeline, self.corners, last, self.opts.size,
                       {"found": [], "missing": [],
                        "note": "simulated camera: corners come from the renderer, no markers to check",
                        "note_key": "simulated"},
                       self._learning())

    def _learning(self) -> Any:
        if self.learning is None and self.pipeline is not None:
            from vision.learning import BoardLearning

            self.learning = BoardLearning(self.pipeline.light_home, self.start)
        return self.learning

    def learn(self, board: str) -> dict[str, Any]:
        """Learn this board from the latest frame, which shows ``board`` ("start" or "empty"); the new overlay."""
        from kiosk.appliance import learn_board

        with self._lock:
            image = self._image
        event = learn_board(self.pipeline, self._learning(), image, self.corners, board)
        with self._lock:
            self._last = event
        return self.overlay()

    def show(self, truth: dict[str, Any]) -> None:
        """Put this board in front of the camera (the owner's set-up, before a match: the empty board, the start)."""
        self._show(self._render(truth, hand=False))

    def set_corners(self, corners: list[tuple[float, float]]) -> dict[str, Any]:
        import numpy as np

        from vision.geometry import validate_corners

        try:
            arr = validate_corners(np.array(corners, dtype=np.float32))
        except ValueError as exc:
            raise ValueError(f"these corners do not make a board: {exc}") from None
        if self.pipeline is None:
            self.corners, self.pipeline = arr, self._pipeline_cls(corners=arr)
        else:
            self._restart(arr)
        return self.overlay()


def _reads_right(event: dict[str, Any], truth: dict[str, Any]) -> bool:
    from core.referee.inference import PILE, TALL_ROW

    """Vision read this board as a camera can: a pinned Plakoto checker (R30) lies under its pinner, out of sight
    (the referee puts it back, core.referee.games.plakoto); a stack above one row shows its first row, and
    a pile of more than two rows (Plakoto's and Jacquet's start, R30/R32) shows as a pile: their counts are left
    to the referee's tall-stack allowance."""
    if event["bar"] != truth["bar"]:
        return False
    hidden = {(pin["point"], pin["side"]) for pin in truth.get("pinned", ())}
    for side in ("light", "dark"):
        for p, (seen, n) in enumerate(zip(event[side], truth[side], strict=True), start=1):
            want = n - ((p, side) in hidden)
            tall = (want > TALL_ROW and seen >= TALL_ROW) or (want > PILE and seen > 0)
            if seen != want and not tall:
                return False
    return True


class DemoRunner:
    """Plays the script against a service. `vision`/`dice` False feed those events straight in."""

    def __init__(self, service: Any, *, match: str = "3pt", speed: float = 1.0, vision: bool = True,
                 dice: bool = True, say: Say = print, record: Any = None,
                 steps: Callable[[], Iterable[Step]] | None = None, variant: str | None = None) -> None:
        self.service = service
        self.match = match
        self.record = record  # a MatchRecord to play instead of the bundled `match` (gamao demo --mat)
        self.steps = steps  # another script than the recorded match's (the chouette's, kiosk/demo_chouette.py)
        self.variant = variant  # a generated game of plakoto, russian or jacquet (gamao demo --variant)
        self.speed = max(speed, 0.01)
        self.say = say
        self.stop_event = threading.Event()
        self.done = threading.Event()
        self._thread: threading.Thread | None = None  # set by start(); play_step alone has none
        self._folder = Path(tempfile.mkdtemp(prefix="gamao-demo-"))
        self.camera = SimulatedCamera(variant=variant) if vision else None
        self.dice = SimulatedDice(self._submit, self._folder) if dice else None
        self.errors: list[str] = []

    def _submit(self, event: dict[str, Any]) -> None:
        try:
            self.service.submit(event)
        except ValueError as exc:  # the referee refused the event: show it, keep playing
            self.errors.append(str(exc))
            self.say(f"  referee refused an event: {exc}")

    def play_step(self, step: Step) -> None:
        """Make one step happen at the simulated table."""
        if step.kind == "roll":
            delivered = self.dice is not None and self.dice.roll(step.data["dice"], step.data["cocked"])
            if not delivered:
                if self.dice is not None:
                    self.say("  the dice bridge did not deliver the roll in time; sent directly")
                self._submit({"event": "roll", **step.data})
        elif step.kind in ("board", "hand"):
            hand = step.kind == "hand"
            if self.camera is None:
                self._submit({**step.data, "stable": not hand})
                return
            event, right = self.camera.see(step.data, hand, step.setup)
            if event is None:
                return
            if not right:
                # What a player does when the screen misreads the board: a correction from the touch screen.
                self.say("  vision misread this board; the demo corrects it from the touch screen")
                event = {**step.data, "stable": True, "source": "manual"}
            self._submit(event)
        elif step.data:
            self._submit(step.data)

    def run(self) -> None:
        try:
            if self.steps:
                steps = self.steps()
            elif self.variant:
                steps = variant_script(self.variant)
            else:
                steps = script(self.record if self.record is not None else load_match(self.match))
            for step in steps:
                if self.stop_event.is_set():
                    break
                if step.say:
                    self.say(step.say)
                self.play_step(step)
                if self.stop_event.wait(step.wait / self.speed):
                    break
        finally:
            self.done.set()

    def start(self) -> threading.Thread:
        thread = self._thread = threading.Thread(target=self.run, name="gamao-demo", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self.stop_event.set()
        if self._thread is not None:  # a runner driven step by step (play_step) has no thread to wait for
            self.done.wait(10)
        if self.dice is not None:
            self.dice.close()


class FirstPage:
    """The demo's app as uvicorn serves it, noting when the first kiosk page opens its WebSocket (``/ws``): the
    demo waits for it before starting the match, so the opening roll and the cocked die are not missed."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.connected = threading.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") == "websocket" and scope.get("path") == "/ws":
            self.connected.set()
        await self.app(scope, receive, send)

    def __getattr__(self, name: str) -> Any:  # app.state and the rest, as the app has them
        return getattr(self.app, name)
