"""The screen read from the chair, point by point (issue 37), at 800x480 in headless Chromium against a real server
and referee service: each of the issue's situations is set up, shot (artifacts/screenshots/chair/NN.png) and checked
with tests/kiosk/chair.py (the size floor, no code in a sentence, one language, no emoji, nothing cut), plus what
the point itself asked for."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from core.rules.position import Position, Side
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.clock import FakeClock
from tests.core.referee.scenarios import moved
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
from tests.kiosk.coach_game import fake_engine
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService, start_state
from tests.kiosk.live import live_kiosk
from tests.kiosk.test_clock_page import fall_the_flag

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots" / "chair"
START = Position.start()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, RefereeService, FakeClock, Any]]:
    clock = FakeClock(500.0)
    with live_kiosk(tmp_path, monotonic=clock, coach_engine=None) as (url, service, app):
        yield url, service, clock, app


def shoot(page: Any, name: str) -> list[str]:
    """The page's problems from the chair now, and its screenshot."""
    page.wait_for_timeout(300)  # the last render's paint
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    return chair_problems(page)


def renders(page: Any) -> None:
    page.wait_for_function("Number(document.body.dataset.renders) > 0")


def played(pos: Position, dice: tuple[int, int], play: str) -> dict[str, Any]:
    return {"event": "board", **pos.play(dice, play).to_dict(), "stable": True}


def test_01_a_fallen_flag_says_why_in_words(live: Any) -> None:
    """A flag falls: the banner says who ran out of time, in words (no "(time_out):"), no emoji for the flag."""
    url, service, clock, _ = live
    fall_the_flag(service, clock)
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=clock-light].fallen")
        page.wait_for_selector("[data-testid=verdict][data-verdict=match_over]")
        problems = shoot(page, "01")
        detail = page.inner_text("#verdict-detail")
        assert "time_out" not in page.inner_text("body") and not detail.rstrip().endswith(":"), detail
        assert "Ana" in detail and "tempo" in detail, detail
        assert "🚩" not in page.inner_text("[data-testid=clock]")
        assert problems == [], problems


class StubVersus:
    """kiosk.versus.Versus as the routes see it (its side and snapshot), without GNU Backgammon behind it."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.instruction: dict[str, Any] | None = None

    def close(self) -> None:
        pass

    @property
    def brain(self) -> Any:  # the app closes its engine at shutdown
        class Engine:
            def close(self) -> None:
                pass
        return type("Brain", (), {"engine": Engine()})()

    def snapshot(self) -> dict[str, Any]:
        return {"side": self.side.value, "level": "expert", "name": "GNU Backgammon (expert)",
                "instruction": self.instruction, "correction": None}


def test_02_gnu_backgammon_doubles_and_the_answer_is_one_touch_away(live: Any) -> None:
    """Against GNU Backgammon: its double is the banner's verdict, with the answer one touch away on the screen;
    its play is the banner's instruction; its name and level in the players' words."""
    url, service, _, app = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "GNU Backgammon (expert)"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    service.submit(played(START, (3, 1), "8/5 6/5"))
    service.submit({"event": "button", "name": "end_turn"})
    service.submit({"event": "cube", "action": "double", "side": "dark"})
    app.state.versus = StubVersus(Side.DARK)
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(url + "/")
        renders(page)
        page.wait_for_selector("[data-testid=versus]:not([hidden])")
        problems = shoot(page, "02")
        head = page.inner_text("#verdict-head")
        assert "GNU Backgammon dobra para 2" in head, head
        assert "(expert)" not in page.inner_text("body")
        take = page.locator("[data-testid=versus-take]").bounding_box()
        assert take is not None and take["height"] >= 48 and take["y"] + take["height"] <= 480
        assert problems == [], problems
        page.click("[data-testid=versus-take]")  # Ana takes: one touch, at the board
        page.wait_for_function("document.getElementById('cube').dataset.value === '2'")
        assert service.state()["cube"]["value"] == 2
        # Its play: the banner says it, as large as any verdict; no "wait" for the tutor on its own play.
        app.state.versus.instruction = {"play": "24/18 13/9", "moves": [{"from": 1, "to": 7}, {"from": 12, "to": 16}]}
        service.submit({"event": "roll", "dice": [6, 4]})
        page.wait_for_function("document.getElementById('verdict-head').textContent.includes('24/18 13/9')", timeout=10000)
        assert page.inner_text("#verdict-head") == "GNU Backgammon joga 24/18 13/9"
        assert page.is_hidden("[data-testid=coach-wait]")
        shoot(page, "02b")
        assert chair_problems(page) == []


COACH = {"version": 1, "enabled": True, "engine": {"available": True},
         "settings": {"tutor": "bad", "marks": "xg", "takeback": False}, "busy": False, "wait": False,
         "tutor_check": None, "takeback": None, "rating": None, "cube": None, "plays": None,
         "tutor": {"message": {"pt": "Espere! Esta jogada é um erro grave", "en": "Wait! This play is a blunder"},
                   "reason": {"pt": "Ela deixa duas peças sozinhas ao alcance do adversário.",
                              "en": "It leaves two blots in the opponent's reach."},
                   "final": True, "best": {"play": "8/5 6/5"}, "best_board": START.play((3, 1), "8/5 6/5").to_dict(),
                   "size": "blunder", "numbers": None}}


def test_03_the_tutors_warning_never_over_another_verdict(live: Any) -> None:
    """The tutor warned about Ana's play, then Bruno's die fell cocked: the screen says one thing (roll again),
    and who rolls again; the warning gives way."""
    url, service, _, _ = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    service.submit(played(START, (3, 1), "24/21 24/23"))
    service.submit({"event": "roll", "dice": [6, 5], "cocked": [False, True]})
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.route_web_socket("**/ws/coach", lambda ws: ws.send(json.dumps(COACH)))
        page.goto(url + "/")
        renders(page)
        page.wait_for_selector("[data-testid=verdict][data-verdict=reroll]")
        page.wait_for_timeout(500)  # the coach's news arrives on its own socket
        problems = shoot(page, "03")
        assert problems == [], problems
        assert "Ana" not in page.inner_text("#turn"), page.inner_text("#turn")


def test_03b_the_tutors_warning_is_the_banners_verdict(live: Any) -> None:
    """While the play is being made, the warning is the banner's verdict (red), not a box over a green one."""
    url, service, _, _ = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    service.submit(played(START, (3, 1), "24/21 24/23"))
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.route_web_socket("**/ws/coach", lambda ws: ws.send(json.dumps(COACH)))
        page.goto(url + "/")
        renders(page)
        page.wait_for_function("document.getElementById('verdict-head').textContent.startsWith('Espere')", timeout=10000)
        problems = shoot(page, "03b")
        assert page.get_attribute("#banner", "data-severity") == "illegal"
        assert problems == [], problems


def test_04_the_language_is_the_browsers_not_the_systems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi left in LANG=C.UTF-8 with no language in the config: the page speaks the browser's language."""
    chromium_or_skip()
    monkeypatch.setenv("LANG", "C.UTF-8")
    for key in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    app = create_app(Settings(data_dir=tmp_path), service=FakeService(), coach_engine=None)
    with BackgroundServer(app) as server:
        with chromium_page(800, 480, locale="pt-BR") as page:
            page.goto(server.url + "/")
            renders(page)
            problems = shoot(page, "04")
            assert page.evaluate("document.documentElement.lang") == "pt-BR"
            assert problems == [], problems
        with chromium_page(800, 480, locale="en-US") as page:
            page.goto(server.url + "/")
            renders(page)
            assert page.evaluate("document.documentElement.lang") == "en"


def test_05_the_demos_dice_fall_on_either_die(tmp_path: Path) -> None:
    """The demo's rolls put each value on either die at random (the records list the higher first), and the
    kiosk's own dice page shows the rolls the journal holds."""
    from kiosk.demo_script import load_match, script

    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    seq = 0
    for step in script(load_match("3pt")):
        if step.kind == "roll":
            seq += 1
            service.submit({"event": "roll", **step.data, "seq": seq})
        elif step.kind in ("board", "hand"):
            service.submit({**step.data, "stable": step.kind == "board"})
        elif step.data:
            service.submit(step.data)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, coach_engine=None)
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            page.goto(server.url + "/dice?scope=life&lang=pt")
            page.wait_for_selector("[data-testid=dice-summary]")
            problems = shoot(page, "05")
            assert "lançamentos" in page.inner_text("[data-testid=dice-summary]")
            assert "NÃO parecem justos" not in page.inner_text("body")
            assert problems == [], problems
    finally:
        service.close()
    rolls = [s.data["dice"] for s in script(load_match("3pt")) if s.kind == "roll"]
    mixed = [d for d in rolls[2:] if d[0] != d[1]]
    higher_first = sum(d[0] > d[1] for d in mixed)
    assert 0.3 < higher_first / len(mixed) < 0.7, (higher_first, len(mixed))


def test_06_plakoto_one_numbering_on_the_screen(tmp_path: Path) -> None:
    """Plakoto: the illegal play, the pinned checker's point in the sentence, the pins in the panel and the board's
    labels all in the mover's numbering."""
    from kiosk.demo_script import variant_script

    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, coach_engine=None)
    try:
        for step in variant_script("plakoto"):
            if step.kind == "roll":
                service.submit({"event": "roll", **step.data})
            elif step.kind in ("board", "hand"):
                service.submit({**step.data, "stable": step.kind == "board"})
            elif step.data:
                service.submit(step.data)
            last = (service.state().get("verdicts") or [{}])[-1]
            if last.get("reason") == "pinned_checker_moved":
                break
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            page.goto(server.url + "/")
            page.wait_for_selector("[data-testid=verdict][data-verdict=illegal]")
            problems = shoot(page, "06")
            head, detail = page.inner_text("#verdict-head"), page.inner_text("#verdict-detail")
            origin = head.split(":")[-1].strip().split("/")[0]
            assert f"casa {origin}" in detail, (head, detail)
            pins = page.inner_text("[data-testid=variant-info]")
            assert re.search(rf":.*(?<!\d){origin}(?!\d)", pins), pins
            assert problems == [], problems
    finally:
        service.close()


def test_07_a_wrong_pin_in_the_coachs_settings_says_so_at_once(tmp_path: Path) -> None:
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service, coach_engine=fake_engine)
    app.state.pins.set(PIN)
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"}})
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            page.goto(server.url + "/")
            renders(page)
            page.click("[data-testid=coach-btn]")
            page.click("[data-testid=coach-settings-open]")
            page.fill("#coach-pin", "9999")
            before = page.input_value("[data-testid=coach-tutor]")
            page.select_option("[data-testid=coach-tutor]", "doubtful")
            page.wait_for_timeout(1500)
            problems = shoot(page, "07")
            assert page.is_visible("[data-testid=coach-settings-error]")
            assert "PIN errado" in page.inner_text("[data-testid=coach-settings-error]")
            assert page.input_value("[data-testid=coach-tutor]") == before
            assert problems == [], problems
    finally:
        service.close()


def _midgame() -> dict[str, Any]:
    s = start_state()
    s.update(phase="moving", turn="dark", dice={"values": [5, 2], "cocked": [False, False], "used": []},
             cube={"value": 2, "owner": "dark", "offered_by": None}, pips={"light": 139, "dark": 151},
             moves=[{"game": 3, "number": n, "side": "light" if n % 2 else "dark", "roll": r, "play": p}
                    for n, r, p in [(1, [3, 1], "8/5 6/5"), (2, [6, 4], "24/18 13/9"), (3, [5, 5], "13/3(2)"),
                                    (4, [4, 2], "bar/23 13/9"), (5, [6, 6], "6/off(4)"), (6, [2, 1], "bar/22")]])
    s["verdicts"] = [{"at": 9, "verdict": "illegal", "side": "dark", "reason": "wrong_distance", "dice": [5, 2],
                      "play": "13/7", "message": {"pt": "A peça 13/7 andou 6 casas, mas os dados são 5-2. Cada dado "
                                                        "move uma peça exatamente esse número de casas: volte a peça e jogue 5 e 2.",
                                                  "en": "The checker 13/7 moved 6 points, but the dice are 5-2."}}]
    return s


def test_08_every_text_from_the_chair_is_at_least_the_floor(tmp_path: Path) -> None:
    """The move list, the cube's caption, the match line, the verdict's detail and the board's numbers at 800x480."""
    chromium_or_skip()
    fake = FakeService(_midgame())
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake, coach_engine=None)
    with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=move-list] li")
        problems = shoot(page, "08")
        assert problems == [], problems


def test_09_the_hint_is_the_play_they_were_making_on_the_board_they_see(live: Any) -> None:
    """8/4 6/5 with 3-1: the hint is 8/5 6/5; the drawn board is the wooden board's, the illegal play marked."""
    url, service, _, _ = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    bad = moved(moved(START, Side.LIGHT, 8, 4), Side.LIGHT, 6, 5)  # 8/4: a 4 that was not rolled
    service.submit({"event": "board", **bad.to_dict(), "stable": True})
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=verdict][data-verdict=illegal]")
        problems = shoot(page, "09")
        detail = page.inner_text("#verdict-detail")
        assert "8/5 6/5" in detail and "24/23" not in detail, detail
        # The wood's board: a light checker on point 4, ringed as the culprit.
        assert page.locator("[data-testid=board] circle[data-culprit]").count() >= 1
        on4 = page.evaluate("""() => { const p = document.querySelector('[data-testid=board] polygon[data-point="4"]').getBBox();
          return [...document.querySelectorAll('[data-testid=board] circle.checker.light')]
            .filter((c) => Math.abs(Number(c.getAttribute('cx')) - (p.x + p.width / 2)) < 1).length; }""")
        assert on4 == 1, on4
        assert problems == [], problems


def test_10_a_timed_one_point_match_is_labelled_plainly(live: Any) -> None:
    url, service, _, _ = live
    service.submit({"event": "new_match", "length": 1, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"clock": {"per_point": 120, "delay": 12}}})
    service.submit({"event": "roll", "dice": [3, 1]})
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=clock]:not([hidden])")
        problems = shoot(page, "10")
        line = page.inner_text(".match-line")
        assert "Partida de 1 ponto" in line and "pontos" not in line and "Crawford" not in line, line
        assert problems == [], problems
        page.click("[data-testid=controls-btn]")
        page.click("#controls [data-testid=new-match-open]")
        shoot(page, "10b")
        labels = page.locator("#controls [data-testid=new-match-rule-set] option").all_inner_texts()
        assert any("2 min/ponto + 12 s" in x for x in labels), labels
        assert page.locator("#controls [data-testid=new-match-clock]").count() == 1


def test_12_the_portuguese_page_speaks_portuguese(tmp_path: Path) -> None:
    """Plays with the bar and bearing off, the count, the rules card, no chouette button in a two-player match."""
    chromium_or_skip()
    state = _midgame()
    state["verdicts"] = []
    fake = FakeService(state)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake, coach_engine=None)
    with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=move-list] li")
        page.click("[data-testid=rules-btn]")
        problems = shoot(page, "12")
        moves = page.inner_text("[data-testid=move-list]")
        assert "barra/23" in moves and "6/fora(4)" in moves, moves
        assert page.is_hidden("[data-testid=chouette-btn]")
        assert problems == [], problems


@contextmanager
def _coach_page(tmp_path: Path, played: bool, width: int = 800, height: int = 480) -> Iterator[Any]:
    """A page at the coach's kiosk (the fake engine) after Ana's opening roll: the board, or, when ``played``, the
    review after her very bad play and Bruno's roll."""
    from tests.kiosk.coach_game import after, opening, play_with_label

    with live_kiosk(tmp_path, ticks=True, coach_engine=fake_engine) as (url, service, _):
        opening(service)
        if played:
            service.submit({"event": "board", **after(play_with_label("very_bad")).to_dict(), "stable": True})
            service.submit({"event": "roll", "dice": [6, 4]})
        with chromium_page(width, height, locale="pt-BR") as page:
            page.goto(url + ("/review?lang=pt" if played else "/"))
            yield page


def _coach_panel(page: Any, button: str) -> None:
    """The coach's panel opened on the board, then its ``button`` pressed."""
    renders(page)
    page.click("[data-testid=coach-btn]")
    page.click(f"[data-testid={button}]")


@pytest.mark.parametrize(("width", "height", "name"), [(800, 480, "11"), (1280, 800, "11d")])
def test_11_the_review_from_the_chair(tmp_path: Path, width: int, height: int, name: str) -> None:
    """The review: its PR table whole at 800 and 1280 wide, the players' names, a 48 px back link and arrows."""
    with _coach_page(tmp_path, True, width, height) as page:
        page.wait_for_function("window.__review.loaded > 0")
        page.wait_for_timeout(500)
        problems = shoot(page, name)
        table = page.locator("[data-testid=review-summary]").bounding_box()
        assert table is not None and table["x"] + table["width"] <= width, table
        assert "Ana" in page.inner_text("[data-testid=review-summary]"), page.inner_text("[data-testid=review-summary]")
        assert "Claras" not in page.inner_text("body")
        for sel in ("#back", "[data-testid=review-prev]", "[data-testid=review-next]"):
            b = page.locator(sel).bounding_box()
            assert b is not None and b["height"] >= 47.5 and b["width"] >= 47.5, (sel, b)
        assert problems == [], problems
        # the PR table scrolled into view (below the boards): no word broken in its heads or levels, in both languages
        page.locator("[data-testid=review-summary]").scroll_into_view_if_needed()
        assert shoot(page, f"{name}-table") == []
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.locator("[data-testid=review-summary]").scroll_into_view_if_needed()
        assert shoot(page, f"{name}-table-en") == []
        table = page.locator("[data-testid=review-summary]").bounding_box()
        assert table is not None and table["x"] + table["width"] <= width, table


def test_11b_the_coachs_settings_from_the_chair(tmp_path: Path) -> None:
    """The coach's settings at 800x480, pt then en: every setting in view in the pane (the teacher's guide was
    scrolled below its edge), none cut, "Fechar" in view; each setting's words beside its control, the takeback's
    box beside its words (it stood above them) and the whole row one 48 px touch target."""
    with _coach_page(tmp_path, False) as page:
        _coach_panel(page, "coach-settings-open")
        page.wait_for_selector("[data-testid=coach-settings]:not([hidden])")
        for lang in ("pt", "en"):
            if lang == "en":
                page.click("#lang")
                page.wait_for_function("document.documentElement.lang === 'en'")
            problems = shoot(page, "11b" if lang == "pt" else "11b-en")
            pane = page.locator("[data-testid=coach-settings]").bounding_box()
            assert pane is not None
            for sel in ("#coach-tutor", "#coach-marks", "#coach-pin", ".coach-check", "#coach-guide", "#versus-level",
                        "#versus-side", "#versus-go", "#coach-close"):
                b = page.locator(sel).bounding_box()
                assert b is not None and b["height"] >= 47.5, (lang, sel, b)
                bottom = 480 - 56 if sel == "#coach-close" else pane["y"] + pane["height"]
                assert b["y"] >= pane["y"] - 1 and b["y"] + b["height"] <= bottom + 1, (lang, sel, b, pane)
            for label, control in (("#lbl-tutor", "#coach-tutor"), ("#lbl-marks", "#coach-marks"),
                                   ("#coach-takeback", "#lbl-takeback")):
                a, b = page.locator(label).bounding_box(), page.locator(control).bounding_box()
                assert a is not None and b is not None
                # side by side: the second starts right of the first, and they share the row's middle
                assert b["x"] >= a["x"] + a["width"] and a["y"] < b["y"] + b["height"] / 2 < a["y"] + a["height"] + 8, (lang, label, a, b)
            row, box, words = (page.locator(s).bounding_box() for s in (".coach-check", "#coach-takeback", "#lbl-takeback"))
            assert row is not None and box is not None and words is not None
            assert row["x"] <= box["x"] and row["x"] + row["width"] >= words["x"] + words["width"] - 1, (lang, row)
            assert problems == [], (lang, problems)


def test_11c_every_legal_play_one_touch_away_and_whole(tmp_path: Path) -> None:
    """The coach's top plays: "Todas as N jogadas" whole in view."""
    with _coach_page(tmp_path, False) as page:
        _coach_panel(page, "coach-plays")
        page.wait_for_selector("[data-testid=coach-top] .top-play", timeout=10000)
        page.wait_for_timeout(500)
        problems = shoot(page, "11c")
        box = page.locator("[data-testid=coach-all]").bounding_box()
        view = page.locator("[data-testid=coach-top]").bounding_box()
        assert box is not None and view is not None and box["y"] + box["height"] <= view["y"] + view["height"] + 1
        assert problems == [], problems
