"""`gamao demo --chouette`: five simulated players, generated board games, doubles the crew members answer
differently (R26-R29); the kiosk's ledger at the end is the script's own (core's Chouette fed the same actions)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kiosk.demo import DemoRunner
from kiosk.demo_chouette import ChouetteDemo
from kiosk.service import RefereeService


def test_r29_chouette_demo_without_vision_ends_with_the_scripts_ledger(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "journal.sqlite")
    demo = ChouetteDemo()
    runner = DemoRunner(service, vision=False, dice=False, speed=100_000, say=lambda s: None, steps=demo.steps)
    try:
        runner.run()
    finally:
        runner.close()
    assert runner.errors == []
    shown = service.state()["chouette"]
    assert {r["name"]: r["points"] for r in shown["ledger"]} == demo.ch.ledger
    assert sum(demo.ch.ledger.values()) == 0 and shown["game"] == 4
    games = shown["games"]
    # Game 1: the box's double answered differently: the captain and one crew member drop, the others take, and
    # the first crew member who took became captain (R29).
    first = games[0]
    drops = [p["payer"] for p in first["payments"] if p["why"] == "drop"]
    assert drops == [first["captain"], first["crew"][1]] and first["captains"] == [first["captain"], first["crew"][0]]
    # Game 2: the team doubled; the box took one cube and dropped the other.
    assert [p["payee"] for p in games[1]["payments"] if p["why"] == "drop"] == [games[1]["crew"][0]]
    # Game 3: every cube dropped: the box won without a board result; its board game was left unfinished.
    assert games[2]["box_won"] is True and games[2]["points"] == 0
    assert any(g.get("abandoned") for g in service.referee.games)
    events = [e for e in service.journal.events(service.journal.current_match()) if e["event"] == "chouette"]
    assert [e["action"] for e in events].count("answer") == 4 + 2 + 4
    service.close()


def test_r29_chouette_demo_first_double_through_vision(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "journal.sqlite")
    demo = ChouetteDemo()
    runner = DemoRunner(service, vision=True, dice=False, speed=100_000, say=lambda s: None)
    try:
        for step in demo.steps():
            runner.play_step(step)
            if step.data.get("action") == "answer" and not service.state()["chouette"]["pending"]:
                break  # the box's double is answered: every member alone
    finally:
        runner.close()
    assert runner.errors == []
    shown = service.state()["chouette"]
    # Bruno (captain) and Davi dropped; Carla took first and is captain; Eva took.
    assert {c["member"]: (c["value"], c["live"]) for c in shown["cubes"]} == {
        "Carla": (2, True), "Davi": (1, False), "Eva": (2, True), "Bruno": (1, False)}
    assert (shown["captain"], shown["crew"]) == ("Carla", ["Davi", "Eva", "Bruno"])
    assert runner.camera is not None and runner.camera.boards > 10
    service.close()


def test_gamao_demo_chouette_command(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run([sys.executable, "-m", "cli", "demo", "--start-now", "--chouette", "--no-vision", "--no-dice",
                          "--no-browser", "--exit-when-done", "--speed", "100000", "--port", "0",
                          "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert "chouette of five: one die each" in out.stdout
    assert "refused" not in out.stdout
    last = out.stdout.strip().splitlines()[-1]
    expected = ChouetteDemo()
    list(expected.steps())
    totals = ", ".join(f"{n} {p:+d}" for n, p in expected.ch.ledger.items())
    assert last == f"chouette ledger: {totals} (sum 0)"
