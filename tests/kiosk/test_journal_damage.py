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

import errno
import json
import os
import random
import shutil
import subprocess
import sys
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


def copy_of(played: tuple[Path, dict[int, dict[str, Any]]], tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(played[0], data)
    return data


def kiosk_after(data: Path, before: dict[int, dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any]:
    """Start the real kiosk on ``data``; check its notice and every match readable before. Returns the notice."""
    app = create_app(Settings(data_dir=data, language="en"))  # the lifespan builds the service from the folder
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
def test_journal_cut_short_at_a_random_point(played, tmp_path: Path, seed: int) -> None:
    data = copy_of(played, tmp_path)
    journal = data / "journal.sqlite"
    size = journal.stat().st_size
    cut = random.Random(seed).randrange(1, size)
    with open(journal, "r+b") as fh:
        fh.truncate(cut)
    notice = kiosk_after(data, played[1], ("journal_salvaged",))
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

    def gamao(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "kiosk.cli", "journal", *args], capture_output=True,
                              text=True, env=env, timeout=120)

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


def test_backup_while_the_kiosk_runs_has_what_is_still_in_the_wal(tmp_path: Path) -> None:
    from kiosk.commands.journal import backup

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
    mount = tmp_path / "disk"
    mount.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"mounting a small tmpfs is not permitted here ({r.stderr.strip()}); the disk-full test needs it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill_disk(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_disk_full_refuses_events_keeps_the_roll_unacknowledged_and_resumes(played, small_disk: Path) -> None:
    from firmware_bridge.sim import DiceSimulator
    from kiosk.appliance import Appliance

    data = small_disk / "data"
    shutil.copytree(played[0], data)
    before = played[1]
    settings = Settings(data_dir=data, language="en", camera="none", serial_port=str(small_disk.parent / "dice"))
    with DiceSimulator(small_disk.parent / "dice") as sim:
        app = create_app(settings)
        with TestClient(app) as client:
            client.post("/api/pin", json={"pin": PIN})
            pin = {"X-Gamao-PIN": PIN}
            service = app.state.service
            appliance = Appliance(settings, service).start()
            try:
                assert appliance.dice.wait_connected(10)
                r = client.post("/api/match", json={"length": 1, "players": {"light": "Ana", "dark": "Bruno"}},
                                headers=pin)
                assert r.status_code == 200, r.text
                events_before = service.journal.count()
                filler = fill_disk(small_disk)

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
                assert appliance.dice.protocol.stats["not_handed_on"] >= 1
                assert service.journal.count() == events_before  # what is stored is kept, nothing half-written

                filler.unlink()  # space returns: the unit's next re-send is recorded and acknowledged
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


def test_the_page_says_what_the_salvage_kept_and_lost(played, tmp_path: Path) -> None:
    from kiosk.server import BackgroundServer
    from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot

    chromium_or_skip()
    data = copy_of(played, tmp_path)
    journal = data / "journal.sqlite"
    with open(journal, "r+b") as fh:
        fh.truncate(journal.stat().st_size // 2)
    with BackgroundServer(create_app(Settings(data_dir=data, language="en"))) as server, chromium_page() as page:
        page.goto(server.url + "/?lang=en")
        page.wait_for_selector("[data-testid=notices] p[data-kind=journal_salvaged]", timeout=10000)
        text = page.inner_text("[data-testid=notices]")
        assert "The game journal was damaged" in text and "moved aside as journal.damaged-" in text
        assert "Lost:" in text
        screenshot(page, "kiosk-journal-salvaged")
        page.click("#lang")
        assert "O registro das partidas estava danificado" in page.inner_text("[data-testid=notices]")
