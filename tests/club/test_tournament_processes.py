"""One tournament evening end to end as the club runs it (issue 39): a real Mosquitto configured by
`broker-config`, `gamao director` (a process), `gamao demo --board NAME --tournament` boards (processes, paired,
with the voice writing its calls), the tournament drawn with `gamao director tournament create` while the director
runs. The director assigns every match, each board says the call and plays it, the results come back from the
boards' own records; nobody types. The director is SIGKILLed and started again mid-tournament: nothing is lost
and the bracket goes on. A long run (--soak: 8 players on 6 boards, 5/3/3 from the corpus's 5- and 3-point
matches; 4 players on 2 boards with GAMAO_EVENING_SMALL=1): 26-70 s of wall time on 2 cores, too much of the default
run's five minutes. The default run's short version is tests/club/test_tournament_night.py: the same desk, signed
commands, boards, results from the boards' records and director restart, in process through a real Mosquitto.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from club.tournament import Journal
from core.match.formats.mat import read_mat
from tests.club.conftest import CLUB, NIGHT, names, wait_for
from tests.datasets import CORPUS
from tests.soak import HOW, soak
from tests.web import HTTP

GAMAO = [sys.executable, "-m", "cli"]
BOARDS, PLAYERS, LENGTH = (2, ["Ana", "Bruno", "Carla", "Duda"], 3) if os.environ.get("GAMAO_EVENING_SMALL") == "1" \
    else (6, ["Ana", "Bruno", "Carla", "Duda", "Eva", "Fábio", "Gil", "Hugo"], 5)
SPEED = "400"
pytestmark = pytest.mark.skipif(not soak() and os.environ.get("GAMAO_EVENING_SMALL") != "1",
                                reason=f"a whole evening as processes: {HOW} (the in-process evening runs by default)")


class Proc:
    def __init__(self, argv: list[str], log: Path) -> None:
        self.argv, self.log = argv, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Proc:
        self.fh = self.log.open("ab")
        self.proc = subprocess.Popen([*GAMAO, *self.argv], stdout=self.fh, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        return self

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(45)  # a board's own shutdown waits up to 10 s for its voice and 10 s for its outbox
            except subprocess.TimeoutExpired:
                self.kill()
        self.fh.close()


def records(folder: Path) -> Path:
    """The corpus's 3- and 5-point matches the club's night plays (tests/club/conftest.py), for the boards."""
    folder.mkdir()
    for name in NIGHT:
        src = CORPUS / name
        if src.is_file() and read_mat(src.read_text(encoding="utf-8", errors="replace")).length in (3, 5):
            shutil.copy(src, folder / Path(name).name)
    return folder


def test_an_evening_with_director_and_boards_as_processes(broker: Any, tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    data = tmp_path / "director"  # the broker fixture paired twenty boards there (club/pairing.py)
    mats = records(tmp_path / "mats")
    director = Proc(["director", "--broker", f"mqtt://127.0.0.1:{broker.port}", "--data-dir", str(data),
                     "--club", CLUB, "--port", "0"], tmp_path / "director.log").start()
    boards = []
    paired = broker.pairing.boards()
    for name in names(BOARDS):
        cred = tmp_path / f"{name}.json"
        cred.write_text(json.dumps({"board": name, "club": CLUB, "username": name, "password": broker.users[name],
                                    "key": paired[name]["key"]}))
        boards.append(Proc(["demo", "--board", name, "--broker", f"mqtt://127.0.0.1:{broker.port}", "--credentials",
                            str(cred), "--tournament", "--tournament-mats", str(mats), "--no-vision", "--no-dice",
                            "--speed", SPEED, "--port", "0", "--no-browser", "--language", "pt",
                            "--speak-to", str(tmp_path / f"{name}-voice"), "--data-dir", str(tmp_path / name)],
                           tmp_path / f"{name}.log").start())
    journal = Journal(data)
    try:
        assert wait_for(lambda: "Gamão club director on" in director.text(), 60), director.text()
        url = re.search(r"(http://[\d.]+:\d+)/", director.text()).group(1)  # type: ignore[union-attr]
        assert wait_for(lambda: len([b for b in HTTP.get(f"{url}/api/boards").json() if b["online"]]) == BOARDS,
                        90), HTTP.get(f"{url}/api/boards").json()
        out = subprocess.run([*GAMAO, "director", "--data-dir", str(data), "tournament", "create", "Noite",
                              "--format", "double_elimination", "--players", ",".join(PLAYERS), "--length",
                              str(LENGTH), "--seed", "3", "--json"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        total = 2 * len(PLAYERS) - 2

        def results() -> int:
            return len([m for m in journal.load("Noite").view()["matches"] if m["winner"]])

        # mid-tournament, with matches on the boards: the director is killed, and started again
        assert wait_for(lambda: results() >= total // 3, 240), director.text()[-2000:]
        before = journal.log("Noite")
        director.kill()
        time.sleep(1.0)  # the boards play on; their records wait at the broker
        director.start()
        assert wait_for(lambda: journal.load("Noite").view()["champion"] is not None, 400), \
            json.dumps(journal.load("Noite").view()["matches"], indent=1) + director.text()[-3000:]
        view = journal.load("Noite").view()
        log = journal.log("Noite")
        assert log[:len(before)] == before  # nothing lost
        screen = HTTP.get(f"{url.rsplit(':', 1)[0]}:{_port(director)}/api/tournaments/Noite").json()
        assert screen["champion"] == view["champion"]
    finally:
        director.stop()
        for b in boards:
            b.stop()
        journal.close()
    # every match on a board, its result from the board's record, once; nobody typed
    assert all(m["source"] == "board" for m in view["matches"])
    assert len(view["matches"]) in (total, total + 1)
    results_ops = [op for op in log if op["op"] == "result"]
    assert sorted(op["match"] for op in results_ops) == sorted(m["id"] for m in view["matches"])
    assert {m["length"] for m in view["matches"] if m["bracket"] == "main"} == {LENGTH}
    # each board said each call (the voice's own record of it) and started those matches
    for b, name in zip(boards, names(BOARDS), strict=True):
        mine = [m for m in view["matches"] if m["board"] == name]
        calls_file = tmp_path / f"{name}-voice" / "calls.jsonl"
        calls = [json.loads(line) for line in calls_file.read_text().splitlines()] if calls_file.exists() else []
        said = [c["text"] for c in calls if c.get("key") == "tournament_call"]
        table = str(int(name[-2:]))
        for m in mine:
            n = m["length"]
            want = f"Mesa {table}: {m['light']} x {m['dark']}, partida de {n} {'ponto' if n == 1 else 'pontos'}."
            assert want in said, (want, said)
        assert f"tournament: {len(mine)} matches started, 0 commands refused" in b.text(), b.text()[-1500:]


def _port(director: Proc) -> str:
    found = re.findall(r"Gamão club director on http://[\d.]+:(\d+)/", director.text())
    return found[-1]
