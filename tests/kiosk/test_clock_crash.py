"""The clock across a crash (issue 34, finding 7): the kiosk killed (SIGKILL, a real process) while dark's time
runs and started again later charges dark for his own time before the crash and nobody for the time it was
down. Before, a restart went on from the last event's time, so the time since the last event (25 s of dark's
turn in the report) was given back to him.

The worker writes the clock's beat every 0.05 s (kiosk.service.CLOCK_BEAT, 1 s on the kiosk); the bounds below
are the worker's own beat and the times the test measured, never a fixed duration."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.rules.position import Position
from kiosk.service import CLOCK_FILE, RefereeService
from tests.clock import FakeClock
from tests.kiosk.disks import fill_disk, small_disk

BANK = 120.0
WORKER = f"""
import sys, time
import kiosk.service as service
from core.rules.position import Position
service.CLOCK_BEAT = 0.05
s = service.RefereeService(sys.argv[1])
s.submit({{"event": "new_match", "length": 1, "rules": {{"rule_set": "tournament_usbgf",
          "clock": {{"per_point": {BANK}, "delay": 0, "delay_kind": "simple"}}}}}})
s.submit({{"event": "roll", "dice": [3, 1]}})
after = Position.start().play((3, 1), "8/5 6/5")
s.submit({{"event": "board", **after.to_dict(), "stable": True}})
s.submit({{"event": "button", "name": "clock", "side": "light"}})   # dark's time runs from here
print(json.dumps({{"t": s.state()["clock"]["at"], "running": s.state()["clock"]["running"]}}), flush=True)
time.sleep(600)
""".replace("import sys, time", "import json, sys, time")


def _beat(path: Path) -> float:
    return float(json.loads(path.read_text())["t"])


def test_a_crash_in_darks_turn_charges_dark_his_own_time_and_nobody_the_down_time(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    worker = subprocess.Popen([sys.executable, "-c", WORKER, str(journal)], stdout=subprocess.PIPE, text=True)
    try:
        started = json.loads(worker.stdout.readline())  # type: ignore[union-attr]
        assert started["running"] == "dark"
        time.sleep(1.0)  # dark thinks
        os.kill(worker.pid, signal.SIGKILL)
    finally:
        worker.wait(timeout=10)
    beat = _beat(tmp_path / CLOCK_FILE)
    own = beat - started["t"]          # dark's own time before the crash, as far as the last beat shows
    assert own >= 0.5
    time.sleep(1.5)                    # the kiosk is down: nobody's time
    restarted = time.monotonic()
    again = RefereeService(journal, ticks=False)
    try:
        clock = again.state()["clock"]
        since_restart = time.monotonic() - restarted
        assert clock["running"] == "dark"
        # his time before the crash is his (3 decimals), and the restart's own fraction of a second
        assert own - 0.02 <= BANK - clock["dark"] <= own + since_restart + 0.02
        again.submit({"event": "tick"})
        later = time.monotonic() - restarted
        used = BANK - again.state()["clock"]["dark"]
        assert own - 0.02 <= used <= own + later + 0.02            # and the 1.5 s down are nobody's
    finally:
        again.close()


def test_on_a_full_disk_the_press_is_recorded_and_charged_to_its_player(tmp_path: Path) -> None:
    """Before, on a full disk the clock's press was refused (507) and the time kept running for the player who
    had pressed. The journal's reserve (kiosk/journal.py) takes the press; the screen asks for space."""
    with small_disk(tmp_path) as disk:
        clock = FakeClock()
        service = RefereeService(disk / "journal.sqlite", monotonic=clock, ticks=False)
        service.submit({"event": "new_match", "length": 1, "rules": {"rule_set": "tournament_usbgf",
                        "clock": {"per_point": BANK, "delay": 0, "delay_kind": "simple"}}})
        service.submit({"event": "roll", "dice": [3, 1]})
        service.submit({"event": "board", **Position.start().play((3, 1), "8/5 6/5").to_dict(), "stable": True})
        clock.advance(7.0)
        fill_disk(disk)
        service.submit({"event": "button", "name": "clock", "side": "light"})  # raised JournalWriteError before
        state = service.state()
        assert state["clock"]["running"] == "dark"
        assert BANK - state["clock"]["light"] == pytest.approx(7.0, abs=0.01)   # light's own 7 s, no more
        clock.advance(5.0)
        service.submit({"event": "tick"})
        assert BANK - service.state()["clock"]["dark"] == pytest.approx(5.0, abs=0.01)
        assert [n["kind"] for n in service.state()["notices"]] == ["disk_reserve"]
        service.close()
