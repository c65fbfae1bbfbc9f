"""Playing against GNU Backgammon on the board (issue 24, kiosk/versus.py): the demo's whole match against the
real gnubg (the Debian package, as a separate process), and the engine's side against the real referee service."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core import read_mat, replay
from core.rules.position import Position, Side
from engine.analysis import analyse_record
from kiosk.service import RefereeService
from kiosk.versus import LEVELS, Brain, Versus, correction, engine_name, moves_of
from tests.kiosk.coach_game import START, after, board, fake_engine


def _gnubg():  # type: ignore[no-untyped-def]
    from engine.base import EngineUnavailable
    from engine.gnubg import GnubgEngine, find_gnubg

    try:
        find_gnubg()
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    return GnubgEngine(plies=0, timeout=120)


def test_the_demo_against_gnubg_expert_plays_gnubgs_best_at_0_plies_and_archives_the_match(tmp_path: Path) -> None:
    """The contract `gamao demo --versus gnubg --level expert --exit-when-done --data-dir DIR`: a whole match on
    the simulated dice unit (the camera's boards sent straight in to spare the shared machine), left in DIR's
    archive as a .mat naming the engine; at expert (0 plies, no noise) every checker play of the engine is
    GNU Backgammon's best at 0 plies (loss 0 in our analysis, which agrees with gnubg's `analyse match`,
    tests/engine/test_analysis.py), and every cube decision of the engine is its own analysis' (R12-R18)."""
    engine = _gnubg()
    data = tmp_path / "data"
    out = subprocess.run([sys.executable, "-m", "cli", "demo", "--versus", "gnubg", "--level", "expert",
                          "--exit-when-done", "--data-dir", str(data), "--no-browser", "--no-vision",
                          "--speed", "100", "--port", "0"], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    assert "phase match_over" in out.stdout
    mats = sorted((data / "archive").glob("*.mat"))
    assert len(mats) == 1
    record = read_mat(mats[0].read_text(encoding="utf-8"))
    replay(record)
    assert record.players[Side.DARK] == "GNU Backgammon (expert)" == engine_name("expert")
    try:
        analysis = analyse_record(record, engine, plies=0, cube=True)
    finally:
        engine.close()
    mine = [p for p in analysis.plays if p.side is Side.DARK]
    assert len(mine) > 10 and not analysis.skipped
    assert all(p.loss <= 1e-6 for p in mine), [(p.game, p.number, p.played, p.best, p.loss) for p in mine if p.loss]
    assert all(c.loss <= 1e-6 for c in analysis.cube if c.side is Side.DARK)
    last = record.games[-1]
    assert last.result is not None and last.score[last.result.winner] + last.result.points >= 3  # the match ended


def test_the_engine_plays_says_and_checks_the_board_on_the_real_referee(tmp_path: Path) -> None:
    """The engine on the light side (fake engine: its best play): after the roll its play is shown with each
    checker's move; another complete play on the board is answered with what to move; the right board clears
    it; the player rolls for the opponent and the engine's play stands in the record."""
    service = RefereeService(tmp_path / "journal.sqlite")
    said: list[str] = []
    spoken: list[str] = []
    versus = Versus(service, Brain(fake_engine(), "expert"), Side.LIGHT, speak=spoken.append, say=said.append).start()
    try:
        service.submit({"event": "new_match", "length": 3, "players": {"light": versus.name, "dark": "Ana"}})
        service.submit(board(START))
        service.submit({"event": "roll", "dice": [3, 1]})  # light (the engine) starts
        assert versus.idle()
        instruction = versus.snapshot()["instruction"]
        best = fake_engine().rank_plays(START.position_id(Side.LIGHT), (3, 1))[0]
        assert instruction["play"] == best.play and spoken[-1] == f"GNU Backgammon joga {best.play}."
        assert instruction["moves"] == moves_of(START, (3, 1), best.play)
        wrong = next(lp for lp in START.legal_plays((3, 1)) if lp.play.text() != best.play)
        service.submit(board(wrong.result))
        assert versus.idle()
        fix = versus.snapshot()["correction"]
        assert fix is not None and fix["pt"].startswith("Mova a peça da casa") and spoken[-1] == fix["pt"]
        service.submit(board(after(best.play)))
        assert versus.idle() and versus.snapshot()["correction"] is None
        service.submit({"event": "roll", "dice": [6, 4]})  # the player rolls: the engine's play stands (R23)
        assert versus.idle()
        assert service.state()["moves"][-1]["play"] == best.play
        assert versus.snapshot()["instruction"] is None
    finally:
        versus.close()
        service.close()


def test_correction_words() -> None:
    start = Position.start()
    expected = start.play((3, 1), "8/5 6/5")
    shown = start.play((3, 1), "8/4")
    fix = correction(expected, shown, Side.LIGHT)
    assert fix == {"pt": "Mova a peça da casa 6 para a casa 5; mova a peça da casa 4 para a casa 5.",
                   "en": "Move the checker from point 6 to point 5; move the checker from point 4 to point 5."}
    assert correction(expected, expected, Side.LIGHT) is None


def test_levels_map_to_gnubgs_players() -> None:
    assert LEVELS["expert"] == (0, 0.0) and LEVELS["beginner"] == (0, 0.060) and LEVELS["worldclass"][0] == 2
    with pytest.raises(ValueError, match="unknown level"):
        Brain(fake_engine(), "godlike")
    noisy = Brain(fake_engine(), "beginner", seed=3)
    pid = START.position_id(Side.LIGHT)
    assert noisy.play(pid, (3, 1), None) == noisy.play(pid, (3, 1), None)  # deterministic noise


def test_the_page_shows_the_engines_play_in_words_and_as_arrows_at_800x480(tmp_path: Path) -> None:
    """The kiosk page in real Chromium: whose roll it is for the engine, then its play in words with an arrow per
    checker move drawn on the board; a wrong board brings the correction."""
    from kiosk.config import Settings
    from kiosk.main import create_app
    from kiosk.server import BackgroundServer
    from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot

    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, coach_engine=fake_engine)
    versus = Versus(service, Brain(fake_engine(), "expert"), Side.LIGHT, speak=lambda text: None).start()
    app.state.versus = versus
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480) as page:
            service.submit({"event": "new_match", "length": 3, "players": {"light": versus.name, "dark": "Ana"}})
            service.submit(board(START))
            service.submit({"event": "roll", "dice": [6, 4]})  # the engine (light) starts with 6-4
            assert versus.idle()
            play = versus.snapshot()["instruction"]["play"]
            page.goto(f"{server.url}/?lang=pt")
            page.wait_for_selector("[data-testid=versus-arrows] line", state="attached", timeout=10000)
            # Its play is the banner's verdict, as large as any (issue 37); its level in words beside.
            assert page.inner_text("#verdict-head") == f"GNU Backgammon joga {play}"
            assert page.inner_text("#verdict-detail") == "Mova as peças dele como as setas mostram no tabuleiro."
            assert page.inner_text("[data-testid=versus] .versus-head") == "Contra o GNU Backgammon (especialista)"
            assert page.locator("[data-testid=versus-arrows] line").count() == len(versus.snapshot()["instruction"]["moves"])
            screenshot(page, "versus-pt-800x480")
            wrong = next(lp for lp in START.legal_plays((6, 4)) if lp.play.text() != play)
            service.submit(board(wrong.result))
            page.wait_for_function("document.getElementById('verdict-detail').textContent.startsWith('Mova a peça')",
                                   timeout=10000)
            # The correction's arrows stay in view: no tutor's warning over the board for the engine's side.
            assert page.is_hidden("[data-testid=coach-view]")
            screenshot(page, "versus-fix-pt-800x480")
    finally:
        versus.close()
        service.close()


def test_the_player_picks_the_level_and_side_on_the_page_and_starts_the_match(tmp_path: Path) -> None:
    """The coach's settings panel: level, side, PIN, and the start button; the match names the engine; the
    same button stops it."""
    import json
    import urllib.request

    from kiosk.config import Settings
    from kiosk.main import create_app
    from kiosk.server import BackgroundServer
    from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot

    _gnubg().close()
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, coach_engine=fake_engine)
    app.state.pins.set("4321")
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480) as page:
            page.goto(f"{server.url}/?lang=pt")
            page.wait_for_function("window.__coach && window.__coach.updates > 0")
            page.click("[data-testid=coach-btn]")  # the coach's pane in the drawer (issue 20's layout)
            page.click("[data-testid=coach-settings-open]")
            page.select_option("[data-testid=versus-level]", "beginner")
            page.select_option("[data-testid=versus-side]", "light")
            page.fill("#coach-pin", "4321")
            screenshot(page, "coach-settings-pt-800x480")
            page.check("[data-testid=coach-takeback-setting]")  # the teaching agreement (R23), with the PIN
            page.wait_for_function("window.__coach.snapshot.settings && window.__coach.snapshot.settings.takeback",
                                   timeout=10000)
            page.click("[data-testid=versus-go]")
            page.wait_for_function("window.__coach.versus && window.__coach.versus.active", timeout=10000)
            got = json.loads(urllib.request.urlopen(f"{server.url}/api/versus", timeout=5).read())
            assert got["active"] and got["level"] == "beginner" and got["side"] == "light"
            assert service.state()["match"]["players"] == {"light": "GNU Backgammon (beginner)", "dark": "Jogador"}
            assert page.inner_text("[data-testid=versus-go]") == "Parar o jogo contra o GNU Backgammon"
            page.click("[data-testid=versus-go]")
            page.wait_for_function("window.__coach.versus && !window.__coach.versus.active", timeout=10000)
    finally:
        versus = getattr(app.state, "versus", None)
        if versus is not None:
            versus.close()
            versus.brain.engine.close()
        service.close()
