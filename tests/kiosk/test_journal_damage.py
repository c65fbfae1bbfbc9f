"""Never lose a club's games: the journal damaged on disk in every way the issue names, then the kiosk started.

A data folder is filled by the real referee service with the demo's matches (three finished, one in
progress), each match's export taken: what was readable before the damage. Then the journal file is cut
at 10 seeded random points, zeroed, emptied, has its last pages' bytes flipped, or loses its WAL; and a disk
fills up under a serving kiosk (a small tmpfs). After each: the kiosk (create_app's own lifespan building
the service from the folder) starts, its public state carries a notice saying what happened, every
finished match exports exactly as before (from the salvaged journal or from the archive), and the match in
progress keeps only events it really had, each at its place. Every test prints how many matches it checked.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kiosk.archive import archived
from kiosk.config import Settings
from kiosk.demo_script import load_match, script
from kiosk.journal import Journal, JournalWriteError
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.cli_run import Result
from tests.cli_run import gamao as run_gamao
from tests.kiosk.disks import fill_disk
from tests.kiosk.disks import small_disk as mounted_small_disk
from tests.web import HTTP

PIN = "2468"
IN_PROGRESS_CUT = 60  # the last match is left this many events short of its end


def demo_events() -> list[dict[str, Any]]:
    """What the demo's hardware reports for four matches (3, 2, 3 and 2 points), as events."""
    events: list[dict[str, Any]] = []
    for name in ("3pt", "2pt", "3pt", "2pt"):
        for step in script(load_match(name)):
            if step.kind in ("board", "hand"):
                events.append({**step.data, "stable": step.kind == "board"})
            elif step.kind == "roll":
                events.append({"event": "roll", **step.data})
            else:
                events.append(step.data)
    return events[:-IN_PROGRESS_CUT]


def fill(service: RefereeService, events: list[dict[str, Any]]) -> None:
    for event in events:
        try:
            service.submit(event)
        except JournalWriteError:
            raise
        except ValueError:
            pass  # the demo's faults: refused, as on the table


def readable(service: RefereeService) -> dict[int, dict[str, Any]]:
    """Every match as it reads now: its .mat export, whether it is finished, its events."""
    out = {}
    for m in service.matches():
        ref, _ = service._replay(m["id"])
        out[m["id"]] = {"mat": service.export(str(m["id"]), "mat"), "finished": ref.phase == "match_over",
                        "events": list(service.journal.events(m["id"]))}
    return out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, dict[str, Any]]]:
    data = tmp_path_factory.mktemp("played")
    service = RefereeService(data / "journal.sqlite")
    fill(service, demo_events())
    before = readable(service)
    service.close()  # a clean stop: every event is in journal.sqlite itself
    assert [b["finished"] for b in before.values()] == [True, True, True, False]
    assert len(archived(data / "archive")) == 3  # the three finished matches, .mat and .sgf each
    return data, before


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[int, dict[str, Any]]]]:
    """The same matches, the kiosk never stopped (a power cut): the journal's last events are in its WAL."""
    live = tmp_path_factory.mktemp("live")
    service = RefereeService(live / "journal.sqlite")
    fill(service, demo_events())
    before = readable(service)
    data = tmp_path_factory.mktemp("crashed")
    shutil.copytree(live, data, dirs_exist_ok=True)  # journal.sqlite and its -wal, as a power cut leaves them
    assert Path(f"{data}/journal.sqlite-wal").stat().st_size > 0
    yield data, before
    service.close()


def copy_of(played: tuple[Path, dict[int, dict[str, Any]]], tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(played[0], data)
    return data


def kiosk_after(data: Path, before: dict[int, dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any]:
    """Start the real kiosk on ``data``; check its notice and every match readable before. Returns the notice."""
    # coach_engine=None: not what this file tests (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(Settings(data_dir=data, language="en"), coach_engine=None)  # the lifespan builds the service from the folder
    with TestClient(app) as client:
        state = client.get("/api/state").json()
        notices = state["notices"]
        assert [n["kind"] for n in notices] and notices[0]["kind"] in kinds, notices
        notice = notices[0]
        assert notice["message"]["en"] and notice["message"]["pt"]
        service = app.state.service
        checked = 0
        for mid, was in before.items():
            if was["finished"]:
                # Whole, from the salvaged journal or from the archive: the page's export link gives it.
                r = client.get(f"/api/matches/{mid}/export.mat")
                assert r.status_code == 200, (mid, r.text)
                assert r.text == was["mat"], f"match {mid} differs from before the damage"
                stems = [s for s in archived(data / "archive") if s.startswith(f"match-{mid:04d}-")]
                assert stems, f"finished match {mid} is not in the archive"
            else:
                # In progress: only the events it had, each at its own place; what is missing is reported.
                try:
                    kept = {seq: body for (m, seq), body in _rows(service.journal) if m == mid}
                except KeyError:
                    kept = {}
                for seq, body in kept.items():
                    assert body == was["events"][seq]
                if len(kept) < len(was["events"]):
                    assert notice["lost"], "events were lost and the notice does not say so"
            checked += 1
    print(f"matches checked: {checked}")
    assert checked == len(before)
    return notice


def _rows(journal: Journal) -> list[tuple[tuple[int, int], dict[str, Any]]]:
    rows = journal._db.execute("SELECT match, seq, body FROM events").fetchall()
    return [((m, s), json.loads(b)) for m, s, b in rows]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("after", ["clean stop", "power cut"])
def test_journal_cut_short_at_a_random_point(played, crashed, tmp_path: Path, seed: int, after: str) -> None:
    """The file cut at a seeded random point; after a clean stop (everything in the file) or a power cut (the
    latest events still in the WAL beside it)."""
    source = played if after == "clean stop" else crashed
    data = copy_of(source, tmp_path)
    journal = data / "journal.sqlite"
    size = journal.stat().st_size
    cut = random.Random(seed).randrange(1, size)
    with open(journal, "r+b") as fh:
        fh.truncate(cut)
    notice = kiosk_after(data, source[1], ("journal_salvaged",))
    aside = Path(notice["salvaged_from"])
    assert aside.exists() and aside.stat().st_size == cut  # the damaged file is kept, untouched
    assert aside.name.startswith("journal.damaged-")
    # The new journal is healthy: the next start has nothing to say.
    service = RefereeService(journal)
    assert service.state()["notices"] == []
    service.close()


def test_journal_zeroed(played, tmp_path: Path) -> None:
    data = copy_of(played, tmp_path)
    journal = data / "journal.sqlite"
    journal.write_bytes(bytes(journal.stat().st_size))
    notice = kiosk_after(data, played[1], ("journal_salvaged",))
    assert "file is not a database" in notice["message"]["en"]
    # Nothing in the file could be read: the three finished matches live on in the archive, and the notice says so.
    assert len(notice["archive_only"]) == 3 and "whole only in the archive" in notice["message"]["en"]


def test_journal_emptied_is_not_a_fresh_start(played, tmp_path: Path) -> None:
    data = copy_of(played, tmp_path)
    (data / "journal.sqlite").write_bytes(b"")
    notice = kiosk_after(data, played[1], ("journal_salvaged",))
    assert "empty" in notice["message"]["en"]


def test_journal_file_lost(played, tmp_path: Path) -> None:
    """The file itself gone (a card's directory damaged): not a silent fresh start; the archive has the games."""
    data = copy_of(played, tmp_path)
    (data / "journal.sqlite").unlink()
    notice = kiosk_after(data, played[1], ("journal_went_back",))
    assert "missing" in notice["message"]["en"] and len(notice["archive_only"]) == 3


def test_journal_last_pages_flipped(played, tmp_path: Path) -> None:
    data = copy_of(played, tmp_path)
    journal = data / "journal.sqlite"
    raw = bytearray(journal.read_bytes())
    rng = random.Random(16)
    for i in range(len(raw) - 3 * 4096, len(raw)):
        if rng.random() < 0.1:
            raw[i] ^= 0xFF
    journal.write_bytes(bytes(raw))
    kiosk_after(data, played[1], ("journal_salvaged",))


def test_journal_body_with_damaged_bytes(played, tmp_path: Path) -> None:
    """Bytes damaged inside one event's text: SQLite's structure is intact (its integrity check passes) but the
    text is no longer UTF-8, which stopped the kiosk with a raw OperationalError. Now: that event is reported."""
    data = copy_of(played, tmp_path)
    journal = data / "journal.sqlite"
    raw = bytearray(journal.read_bytes())
    at = raw.rfind(b'"event":"roll"')
    assert at > 0
    raw[at + 1:at + 6] = b"\xff\xfe\xfd\xfc\xfb"
    journal.write_bytes(bytes(raw))
    notice = kiosk_after(data, played[1], ("journal_salvaged",))
    assert notice["lost"] and "cannot be read" in notice["message"]["en"]


def test_journal_wal_lost(tmp_path: Path) -> None:
    """The issue's case: journal.sqlite kept, its WAL gone (a crash, or a copy of the file alone)."""
    live = tmp_path / "live"
    service = RefereeService(live / "journal.sqlite")
    fill(service, demo_events())
    before = readable(service)
    assert Path(f"{live}/journal.sqlite-wal").stat().st_size > 0
    data = tmp_path / "copy"
    shutil.copytree(live, data, ignore=shutil.ignore_patterns("*-wal", "*-shm"))
    service.close()
    notice = kiosk_after(data, before, ("journal_went_back", "journal_salvaged"))
    assert notice["lost"]
    # Exports of what it has, without a KeyError: every match it lists, the current one, and the archived ones.
    service = RefereeService(data / "journal.sqlite")
    for m in service.matches():
        service.export(str(m["id"]), "mat")
    service.export("current", "sgf")
    service.close()


def test_cli_json_contract_on_damage_and_salvage(played, tmp_path: Path) -> None:
    data = copy_of(played, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}

    def gamao(*args: str) -> Result:
        return run_gamao("journal", *args, env=env)

    r = gamao(str(data), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"healthy", "salvaged_from", "matches"} and out["healthy"] is True
    assert out["salvaged_from"] is None
    assert [set(m) for m in out["matches"]] == [{"id", "players", "length", "score", "finished", "events"}] * 4
    assert [m["finished"] for m in out["matches"]] == [True, True, True, False]
    assert [m["events"] for m in out["matches"]] == [len(b["events"]) for b in played[1].values()]

    journal = data / "journal.sqlite"
    with open(journal, "r+b") as fh:
        fh.truncate(journal.stat().st_size * 2 // 3)
    r = gamao(str(data), "--json")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["healthy"] is False and out["salvaged_from"] is None and "lost" in r.stderr
    r = gamao(str(data), "--salvage", "--json")
    assert r.returncode == 1, r.stderr  # repaired, but something was lost: the output says what
    out = json.loads(r.stdout)
    assert out["salvaged_from"] and Path(out["salvaged_from"]).exists() and "lost" in r.stderr
    r = gamao(str(data), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["healthy"] is True
    r = gamao(str(tmp_path / "nothing-here"), "--json")
    assert r.returncode == 2 and "holds no journal" in r.stderr and "Traceback" not in r.stderr


def test_run_check_reports_a_damaged_journal_and_run_salvages_it_and_serves(played, tmp_path: Path) -> None:

    from kiosk.server import free_port
    from tests.kiosk.served import get_when_served

    data = copy_of(played, tmp_path)
    journal = data / "journal.sqlite"
    with open(journal, "r+b") as fh:
        fh.truncate(journal.stat().st_size // 3)
    port = free_port()
    config = tmp_path / "gamao.toml"
    config.write_text(f'port = {port}\ncamera = "none"\nserial_port = "{tmp_path / "no-dice"}"\nlanguage = "en"\n')
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "XDG_DATA_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "cli", "run", "--config", str(config), "--data-dir", str(data)]
    r = subprocess.run([*cmd, "--check"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1
    assert f"MISSING  journal: {journal} is not healthy: SQLite cannot read it (database disk image is malformed)" \
        in r.stdout
    assert journal.stat().st_size == journal.stat().st_size and not list(data.glob("journal.damaged-*"))  # only looked
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        state = get_when_served(proc, f"http://127.0.0.1:{port}/api/state", 60)
        assert state["notices"][0]["kind"] == "journal_salvaged"
        for mid, was in played[1].items():
            if was["finished"]:
                assert HTTP.get(f"http://127.0.0.1:{port}/api/matches/{mid}/export.mat").text == was["mat"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "gamao run: The game journal was damaged" in err and "Traceback" not in err
    assert len(list(data.glob("journal.damaged-*.sqlite"))) == 1
    r = subprocess.run([*cmd, "--check"], capture_output=True, text=True, env=env, timeout=120)
    assert f"ok       journal: {journal}:" in r.stdout  # the salvaged journal is healthy


def test_demo_keeps_journal_archive_and_pin_in_its_data_dir(tmp_path: Path) -> None:
    from kiosk.server import free_port

    data = tmp_path / "demo-data"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    r = subprocess.run([sys.executable, "-m", "cli", "demo", "--start-now", "--data-dir", str(data), "--match", "2pt",
                        "--speed", "1000", "--no-vision", "--no-dice", "--exit-when-done", "--no-browser",
                        "--port", str(free_port())], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"Data folder: {data}" in r.stdout
    assert (data / "journal.sqlite").exists() and (data / "pin.json").exists()
    files = sorted(p.suffix for p in (data / "archive").iterdir())
    assert files == [".mat", ".sgf"]  # the one finished match, written the moment it ended
    journal = Journal(data / "journal.sqlite")
    assert journal.matches()[0]["players"] == {"light": "bb2106", "dark": "lasse"}
    journal.close()


def test_backup_while_the_kiosk_runs_has_what_is_still_in_the_wal(tmp_path: Path) -> None:
    from cli.journal import backup

    service = RefereeService(tmp_path / "data" / "journal.sqlite")
    events = demo_events()[:400]
    fill(service, events)
    assert Path(f"{tmp_path}/data/journal.sqlite-wal").stat().st_size > 0
    assert backup(tmp_path / "data" / "journal.sqlite", tmp_path / "backup.sqlite") == 0
    copy = Journal(tmp_path / "backup.sqlite")
    assert copy.count() == service.journal.count() == 400
    service.close()


# ----- disk full ----------------------------------------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with mounted_small_disk(tmp_path) as mount:
        yield mount


def test_disk_full_refuses_events_keeps_the_roll_unacknowledged_and_resumes(played, small_disk: Path) -> None:
    from firmware_bridge.sim import DiceSimulator
    from kiosk.appliance import Appliance

    data = small_disk / "data"
    shutil.copytree(played[0], data)
    before = played[1]
    settings = Settings(data_dir=data, language="en", camera="none", serial_port=str(small_disk.parent / "dice"))
    with DiceSimulator(small_disk.parent / "dice") as sim:
        app = create_app(settings, coach_engine=None)
        with TestClient(app) as client:
            app.state.pins.set(PIN)
            pin = {"X-Gamao-PIN": PIN}
            service = app.state.service
            appliance = Appliance(settings, service).start()
            try:
                assert appliance.dice.wait_connected(10)
                r = client.post("/api/match", json={"length": 1, "players": {"light": "Ana", "dark": "Bruno"}},
                                headers=pin)
                assert r.status_code == 200, r.text
                filler = fill_disk(small_disk)
                # The disk fills: the reserve beside the journal gives its room, the press is recorded and the
                # screen asks for space (issue 34, finding 7); the refusals below come once that room is used.
                assert service.journal.reserve is not None and service.journal.reserve.exists() is True
                r = client.post("/api/correction", json={"action": "undo"}, headers=pin)
                assert r.status_code == 200, r.text
                assert not service.journal.reserve.exists() and service.journal.on_reserve
                notices = client.get("/api/state").json()["notices"]
                assert [n["kind"] for n in notices] == ["disk_reserve"] and "cheio" in notices[0]["message"]["pt"]
                filler2 = fill_disk(small_disk, "filler2")
                events_before = service.journal.count()

                # A control press: a clear 507, not a bare 500.
                r = client.post("/api/correction", json={"action": "undo"}, headers=pin)
                assert r.status_code == 507 and "disk" in r.json()["detail"] and "full" in r.json()["detail"]
                # A roll on the dice unit: refused, shown, not acknowledged (the unit keeps it and re-sends it).
                _, _, seq = sim.roll(6, 3)
                assert seq is not None
                assert sim.wait_until(lambda: sim.unit.led == "ERROR", 10), sim.unit.led
                state = client.get("/api/state").json()
                failed = [n for n in state["notices"] if n["kind"] == "write_failed"]
                assert failed and "full" in failed[0]["message"]["en"] and "cheio" in failed[0]["message"]["pt"]
                assert state["dice"] is None or state["dice"]["values"] != [6, 3]
                assert sim.pending() == 1  # still waiting for its ACK after several re-sends
                # The refusal sets the unit's LED before the bridge counts it: wait for the count, not just the LED.
                stats = appliance.dice.protocol.stats
                deadline = time.monotonic() + 10
                while stats["not_handed_on"] < 1 and time.monotonic() < deadline:
                    time.sleep(0.02)
                assert stats["not_handed_on"] >= 1
                assert service.journal.count() == events_before  # what is stored is kept, nothing half-written

                filler.unlink()  # space returns: the unit's next re-send is recorded and acknowledged
                filler2.unlink()
                assert sim.wait_until(lambda: sim.pending() == 0, 10)
                state = client.get("/api/state").json()
                assert state["dice"]["values"] == [6, 3] or state["verdicts"][-1]["verdict"] in ("opening", "roll")
                assert [n for n in state["notices"] if n["kind"] == "write_failed"] == []
                assert sim.wait_until(lambda: sim.unit.led != "ERROR", 10)
                assert service.journal.count() == events_before + 1
            finally:
                appliance.close()
    # Nothing stored was lost: a fresh start has every match that was there before.
    service = RefereeService(data / "journal.sqlite")
    for mid, was in before.items():
        assert service.export(str(mid), "mat") == was["mat"]
    print(f"matches checked: {len(before)}")
    assert service.state()["notices"] == []
    service.close()


def test_read_only_journal_answers_503_and_keeps_what_is_stored(played, tmp_path: Path) -> None:
    """A card the kernel turned read-only mid-game (ext4 errors=remount-ro). The kernel will not remount a disk
    read-only while files are open for writing from here, so SQLite is made to refuse writes the same way
    (SQLITE_READONLY, through the journal's own connection): the event is refused with 503, stored events stay."""
    data = copy_of(played, tmp_path)
    app = create_app(Settings(data_dir=data, language="en"), coach_engine=None)
    with TestClient(app) as client:
        app.state.pins.set(PIN)
        service = app.state.service
        count = service.journal.count()
        service.journal._db.execute("PRAGMA query_only = 1")
        r = client.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 503 and "cannot be written" in r.json()["detail"], r.text
        notices = client.get("/api/state").json()["notices"]
        assert notices[-1]["kind"] == "write_failed" and notices[-1]["reason"] == "read_only"
        assert "somente leitura" in notices[-1]["message"]["pt"]
        assert service.journal.count() == count
        service.journal._db.execute("PRAGMA query_only = 0")
        r = client.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": PIN})
        assert r.status_code in (200, 409), r.text  # written again (or refused by the referee, not the disk)
        assert client.get("/api/state").json()["notices"] == []


# ----- the page reader never invents an event ---------------------------------------------------------------
def test_seeded_random_damage_never_raises_and_never_invents_an_event(played, tmp_path: Path) -> None:
    """40 seeded damages (byte runs zeroed, flipped or filled with noise, anywhere in the file): inspect and
    salvage never raise, and every event salvaged is exactly an event that was recorded, at its place."""
    from kiosk.journal_health import inspect, salvage

    data, before = played
    original = {(mid, seq): ev for mid, was in before.items() for seq, ev in enumerate(was["events"])}
    raw = (data / "journal.sqlite").read_bytes()
    rng = random.Random(2026)
    kept_total = 0
    for case in range(40):
        damaged = bytearray(raw)
        for _ in range(rng.randint(1, 6)):
            start = rng.randrange(len(damaged))
            length = rng.choice([1, 8, 100, 4096, 20000])
            how = rng.choice(["zero", "flip", "noise"])
            for i in range(start, min(start + length, len(damaged))):
                damaged[i] = 0 if how == "zero" else (damaged[i] ^ 0xFF if how == "flip" else rng.randrange(256))
        folder = tmp_path / f"case{case}"
        folder.mkdir()
        (folder / "journal.sqlite").write_bytes(bytes(damaged))
        health = inspect(folder / "journal.sqlite")
        if health.damaged:
            salvage(folder / "journal.sqlite", health)
        journal = Journal(folder / "journal.sqlite")
        for key, body in _rows(journal):
            assert body == original[key], f"case {case}: event {key} is not what was recorded"
        kept_total += journal.count()
        journal.close()
    print(f"events kept over 40 damaged copies: {kept_total} of {40 * len(original)}")
    assert kept_total > 0


def test_a_transaction_cut_short_in_the_wal_is_not_read_back(tmp_path: Path) -> None:
    """A write that failed half way (disk full, power cut) leaves WAL frames without their commit frame: SQLite
    ignores them, and so does the page reader, so a refused event never comes back at a salvage."""
    from kiosk.salvage import read_raw

    journal = Journal(tmp_path / "journal.sqlite")
    journal.append({"event": "new_match", "length": 1})
    journal.append({"event": "roll", "dice": [3, 1], "n": "kept"})
    wal = Path(f"{tmp_path}/journal.sqlite-wal")
    committed = wal.stat().st_size
    journal.append({"event": "roll", "dice": [6, 6], "n": "refused"})
    data = wal.read_bytes()
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copyfile(tmp_path / "journal.sqlite", copy / "journal.sqlite")  # as the power cut left it
    journal.close()
    frame = 24 + 4096
    assert (len(data) - committed) // frame >= 2  # the last append is a transaction of several frames
    (copy / "journal.sqlite-wal").write_bytes(data[: len(data) - frame])  # its commit frame never written
    from_wal, from_main = read_raw(copy / "journal.sqlite")
    texts = [text for rows in (from_wal, from_main) for _, text in rows.events.values()]
    assert any('"kept"' in t for t in texts) and not any('"refused"' in t for t in texts)
    # Unchanged, the same WAL gives the last event back: it is the missing commit frame that keeps it out.
    (copy / "journal.sqlite-wal").write_bytes(data)
    texts = [text for rows in read_raw(copy / "journal.sqlite") for _, text in rows.events.values()]
    assert any('"refused"' in t for t in texts)

