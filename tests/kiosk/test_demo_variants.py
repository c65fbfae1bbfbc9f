"""`gamao demo --variant plakoto|russian|jacquet [--no-vision]`: a generated game of each of the seeds' other
games (R30-R32) played through the referee (strict mode) with one fault of the variant's own kind, its boards
sent straight in or rendered and read back by vision."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.match.formats.variant import read_variant
from kiosk.demo import DemoRunner
from kiosk.demo_script import VARIANT_FAULTS, variant_script
from kiosk.server import free_port
from kiosk.service import RefereeService


def play_demo(tmp_path: Path, name: str, vision: bool) -> tuple[RefereeService, DemoRunner, list[dict[str, Any]]]:
    """The demo's game of ``name`` played step by step through a service; (service, runner, every verdict)."""
    service = RefereeService(tmp_path / "journal.sqlite")
    seen: list[dict[str, Any]] = []
    submit = service.submit

    def watch(event: dict[str, Any]) -> list[dict[str, Any]]:
        out = submit(event)
        seen.extend(out)
        return out

    service.submit = watch  # type: ignore[method-assign]
    runner = DemoRunner(service, vision=vision, dice=False, variant=name, say=lambda s: None)
    try:
        for step in variant_script(name):
            runner.play_step(step)
    finally:
        runner.close()
    assert not runner.errors
    assert [v["verdict"] for v in seen].count("game_over") == 1
    return service, runner, seen


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_variant_demo_plays_a_game_with_its_own_fault(tmp_path: Path, name: str) -> None:
    service, _, seen = play_demo(tmp_path, name, vision=False)
    faults = [(v["verdict"], v.get("reason")) for v in seen if v["verdict"] in ("illegal", "unplayed_die", "uncertain")]
    assert faults == [("illegal", VARIANT_FAULTS[name][0])]
    state = service.state()
    assert state["phase"] == "game_over" and state["variant"]["name"] == name
    record = read_variant(service.export("current", "mat"))
    assert record.rules.variation == name and record.games[0].result is not None
    service.close()


def test_variant_demo_command(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "cli", "demo", "--start-now", "--no-browser", "--no-vision", "--no-dice",
                        "--variant", "jacquet", "--speed", "1000", "--exit-when-done", "--port", str(port)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "new jacquet game (R32)" in r.stdout and VARIANT_FAULTS["jacquet"][1] in r.stdout
    assert "phase game_over" in r.stdout and "Traceback" not in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["plakoto"])
def test_variant_demo_with_vision(tmp_path: Path, name: str) -> None:
    """R30 on the camera: the demo's Plakoto game rendered (pinned checkers under their pinners, the piles of
    15) and read back by vision's pipeline; the referee follows it to its end with the variant's own fault
    flagged, and the boards vision read as a camera can (a pinned checker out of sight, a pile as a pile) are
    sent as read. bench/bench_vision_variants.py runs five random games of each variant."""
    service, runner, seen = play_demo(tmp_path, name, vision=True)
    camera = runner.camera
    assert camera is not None and camera.boards > 100
    print(f"{name}: {camera.boards} boards, {camera.misread} corrected from the touch screen")
    assert camera.misread <= camera.boards // 20  # the rest went to the referee as vision read them
    faults = [(v["verdict"], v.get("reason")) for v in seen if v["verdict"] == "illegal"]
    assert faults == [("illegal", VARIANT_FAULTS[name][0])]
    assert service.state()["phase"] == "game_over"
    service.close()
