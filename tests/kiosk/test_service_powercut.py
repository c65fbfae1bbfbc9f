"""Power cut: the service process is killed (SIGKILL) at random moments and restarted.

After every restart the journal holds every acknowledged event (0 lost; at most the one in flight more)
and the restarted service's state equals a referee that saw exactly those events. The default run kills
the process 8 times during a two-match session; ``--soak`` kills it 60 times over a longer one.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.referee import Referee
from core.referee.events import write_lines
from kiosk.service import RefereeService
from tests.core.referee.referee_streams import CORPUS, load, match_stream, subset
from tests.soak import soak

SOAK = soak()
KILLS = 60 if SOAK else 8  # 12 took 18 s of the default run; every kill still lands in a different moment
ROOT = Path(__file__).resolve().parents[2]


def long_session() -> list[dict]:
    events: list[dict] = []
    for n, path in enumerate(subset(12)[: (12 if SOAK else 5)]):
        tagged, _ = match_stream(load(path), seed=n)
        events += [t.event for t in tagged]
    return events


def _reference_state(events: list[dict]) -> dict:
    """What a referee that saw ``events`` shows; a new_match starts a new referee, as in the service."""
    ref = Referee()
    for ev in events:
        if ev["event"] == "new_match":
            ref = Referee()
        ref.feed(ev)
    return ref.public_state()


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"{CORPUS} is missing: put shared/ beside the checkout")
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    events = long_session()
    stream = tmp_path / "stream.jsonl"
    stream.write_text(write_lines(events))
    rng = random.Random(2026)
    kills = 0
    progress: list[int] = []
    session = 0
    while kills < KILLS:  # one session after another (a fresh journal each) until every kill is done
        session += 1
        journal = tmp_path / f"journal{session}.sqlite"
        kills = _session(events, stream, journal, rng, kills, progress)
    print("journal sizes after each restart:", progress)
    assert len({n for n in progress if 0 < n < len(events)}) >= KILLS // 2  # killed mid-session, many times


def _session(events: list[dict], stream: Path, journal: Path, rng: random.Random, kills: int,
             progress: list[int]) -> int:
    """Run the stream to its end through a worker killed at random moments; returns the kills so far."""
    done = False
    while not done:
        errors = journal.with_suffix(".err")
        proc = subprocess.Popen([sys.executable, "-m", "tests.kiosk.powercut_worker", str(journal), str(stream)],
                                stdout=subprocess.PIPE, stderr=errors.open("w"), text=True, cwd=ROOT)
        acked: list[int] = []
        finished = threading.Event()

        def read(p: subprocess.Popen = proc, out: list[int] = acked, end: threading.Event = finished) -> None:
            assert p.stdout is not None
            for line in p.stdout:
                word = line.strip()
                if word == "done":
                    end.set()
                elif word.isdigit():
                    out.append(int(word))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        if kills < KILLS:
            if kills % 2 == 0:
                finished.wait(rng.uniform(0.05, 0.6))  # at any moment, start-up replay included
            else:
                # Once the worker acknowledges new events, however slow the machine is to start it.
                deadline = time.monotonic() + 120
                while not acked and not finished.is_set() and time.monotonic() < deadline:
                    time.sleep(0.005)
                finished.wait(rng.uniform(0.0, 0.3))
            if not finished.is_set():
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
        else:
            assert finished.wait(300), "the worker did not finish the session"
        proc.wait(timeout=60)
        reader.join(timeout=10)
        assert proc.returncode in (0, -signal.SIGKILL), f"the worker failed: {errors.read_text()[-2000:]}"
        done = finished.is_set()
        # Restart in this process: every acknowledged event is there, and the state is exactly theirs.
        service = RefereeService(journal)
        stored = service.journal.count()
        if acked:
            assert stored >= acked[-1] + 1, f"lost acknowledged events: journal has {stored}, acked {acked[-1] + 1}"
            assert stored <= acked[-1] + 2  # at most the event in flight when the power went
        progress.append(stored)
        state = service.state()
        state["match"].pop("id")
        assert state.pop("notices") == []  # a SIGKILL never leaves the journal damaged or short
        assert state == _reference_state(events[:stored])
        service.close()
    final = RefereeService(journal)
    assert final.journal.count() == len(events)
    final.close()
    return kills
