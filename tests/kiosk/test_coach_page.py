"""The coach on the page, in real headless Chromium against a real server, referee service and journal, with
the fake engine (issue 12): the legal plays drawn one at a time, the tutor's warning before the commit (R23)
that goes when the checkers are put back, the rating after the commit, the review page; tournament mode hides
it all and the coach's endpoints refuse."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from core.coach.pr import level
from core.coach.pr import words as level_words
from core.coach.words import play_words, size_of
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.kiosk.coach_game import (
    START,
    after,
    board,
    fake_engine,
    held_deep_engine,
    loss_of,
    opening,
    play_with_label,
    ranked_opening,
)


def _serve(tmp_path: Path, engine: bool = True) -> Iterator[tuple[str, RefereeService]]:
    chromium_or_skip()
    referee = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=referee,
                     coach_engine=fake_engine if engine else None)
    try:
        with BackgroundServer(app) as server:
            yield server.url, referee
    finally:
        referee.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, RefereeService]]:
    yield from _serve(tmp_path)


@pytest.fixture
def live_without_engine(tmp_path: Path) -> Iterator[tuple[str, RefereeService]]:
    yield from _serve(tmp_path, engine=False)


def _open(page, url: str, lang: str = "en") -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{url}/?lang={lang}")
    page.wait_for_function("window.__coach && window.__coach.updates > 0 && window.__gamao.renders > 0")
    if page.is_visible("[data-testid=coach-btn]"):  # the coach's pane, one touch away (issue 20)
        page.click("[data-testid=coach-btn]")


def test_the_top_plays_with_a_sentence_each_then_every_legal_play_one_at_a_time(live) -> None:
    """Issue 24: the best five plays, each called by its size with one sentence, no number; every legal play
    one touch further, drawn one at a time; the numbers behind the Numbers touch."""
    url, referee = live
    opening(referee)
    ranked = ranked_opening()
    with chromium_page(800, 480, locale="en-GB") as page:
        _open(page, url)
        page.click("[data-testid=coach-plays]")
        page.wait_for_selector("[data-testid=coach-top] .top-play", timeout=5000)
        rows = page.locator("[data-testid=coach-top] .top-play")
        assert rows.count() == 5
        heads = page.locator("[data-testid=coach-top] .top-head").all_inner_texts()
        assert heads == [f"{i + 1}. {rp.play}" for i, rp in enumerate(ranked[:5])]
        whys = page.locator("[data-testid=coach-top] .top-why").all_inner_texts()
        assert whys[0].startswith("The best play") and all(w.endswith(".") for w in whys)
        assert not page.is_visible("[data-testid=coach-top] .numbers")
        screenshot(page, "coach-en-top-plays")
        rows.nth(1).click()
        assert page.inner_text("[data-testid=coach-caption]") == f"2. {ranked[1].play}"
        page.click("#coach-close")
        page.click("[data-testid=coach-all]")
        page.wait_for_selector("[data-testid=coach-view][data-ranked=true]", timeout=5000)
        assert page.inner_text("[data-testid=coach-caption]") == f"1/16: {ranked[0].play}"
        page.click("[data-testid=coach-numbers]")
        caption = page.inner_text("[data-testid=coach-caption]")
        assert caption.startswith(f"1/16: {ranked[0].play} · equity {ranked[0].equity:.3f}, loses 0.000")
        assert page.locator("[data-testid=coach-board] circle.checker").count() == 30
        page.click("#coach-next")
        assert page.inner_text("[data-testid=coach-caption]").startswith(f"2/16: {ranked[1].play} · equity")
        assert page.get_attribute("[data-testid=coach-view]", "data-index") == "1"
        screenshot(page, "coach-en-legal-plays")
        page.click("#coach-close")  # back to the top plays
        assert page.get_attribute("[data-testid=coach-view]", "data-kind") == "top-list"
        page.click("#coach-close")
        assert not page.is_visible("[data-testid=coach-view]")


def test_legal_plays_unranked_without_an_engine(live_without_engine) -> None:
    url, referee = live_without_engine
    opening(referee)
    with chromium_page() as page:
        _open(page, url, "pt")
        page.click("[data-testid=coach-plays]")
        page.wait_for_selector("[data-testid=coach-view][data-ranked=false]", timeout=5000)
        assert page.inner_text("[data-testid=coach-caption]").endswith("sem motor de análise: jogadas sem ordem")
        assert page.inner_text("[data-testid=coach-caption]").startswith("1/16: ")
        page.wait_for_function("document.getElementById('coach-engine').textContent === 'Sem motor de análise'")


@contextmanager
def _played_on_screen(url: str, referee: RefereeService, label: str) -> Iterator[tuple[Any, str, float]]:
    """The page open in English, and light's opening play of `label` put on the board: (page, play, its loss)."""
    opening(referee)
    play = play_with_label(label)
    loss = loss_of(play)
    with chromium_page(locale="en-GB") as page:
        _open(page, url)
        referee.submit(board(after(play)))
        yield page, play, loss


def test_r23_tutor_warning_before_the_commit_goes_when_the_checkers_are_put_back(live) -> None:
    url, referee = live
    with _played_on_screen(url, referee, "bad") as (page, bad, loss):
        # The warning is the banner's verdict (issue 37: never a box over another verdict).
        page.wait_for_selector("[data-testid=verdict][data-verdict=tutor]", timeout=5000)
        size = size_of(loss, "xg", ())
        assert page.inner_text("#verdict-head") == (
            f"Wait! This play is {play_words(size)['en']}: put the checkers back and think again?")
        assert page.get_attribute("[data-testid=coach-view]", "data-kind") == "tutor"
        assert page.inner_text("[data-testid=coach-caption]") == f"Best: {ranked_opening()[0].play}"
        page.wait_for_function("document.getElementById('verdict-detail').textContent.length > 0", timeout=5000)
        assert not page.is_visible("[data-testid=tutor] .numbers")  # no number unless asked
        page.click("[data-testid=coach-numbers]")
        assert f"loses {loss:.3f}" in page.inner_text("[data-testid=tutor] .numbers")
        page.click("[data-testid=coach-numbers]")
        screenshot(page, "coach-en-tutor")
        page.click("[data-testid=lang-switch]")
        assert page.inner_text("#verdict-head") == (
            f"Espere! Esta jogada é {play_words(size)['pt']}: volte as peças e pense de novo?")
        referee.submit(board(START))  # the checkers put back: no commit, no warning
        page.wait_for_selector("[data-testid=tutor][hidden]", state="attached", timeout=5000)
        assert not page.is_visible("[data-testid=coach-view]")


def test_rating_and_explanation_after_the_commit_then_the_review(live) -> None:
    url, referee = live
    with _played_on_screen(url, referee, "very_bad") as (page, bad, loss):
        referee.submit({"event": "roll", "dice": [6, 4]})  # dark's roll commits it
        page.wait_for_selector("[data-testid=rating][data-status=rated]", timeout=5000)
        assert page.get_attribute("[data-testid=rating]", "data-label") == "very_bad"
        size = size_of(loss, "xg", ())
        assert page.inner_text("[data-testid=rating] .rating-head") == f"{bad}: {play_words(size)['en']}."
        reasons = page.locator("[data-testid=rating] li").all_inner_texts()
        assert reasons and all(r.startswith(("Your play", "Home board", "Longest prime", "Anchors", "Pip count",
                                             "Checkers borne", "After your play", "No simple count")) for r in reasons)
        assert not page.is_visible("[data-testid=tutor]")
        screenshot(page, "coach-en-rating")
        page.goto(f"{url}/review?lang=en")
        page.wait_for_function("window.__review.loaded > 0")
        words = {"error": "error", "blunder": "blunder"}[size]
        assert page.inner_text("[data-testid=review-play]") == f"1. Ana 3-1: {bad} · {words}"  # the names (issue 37)
        assert page.inner_text("#cap-best") == f"Best play: {ranked_opening()[0].play}"
        assert page.locator("[data-testid=review-played] circle.checker").count() == 30
        assert page.locator("[data-testid=review-best] circle.checker").count() == 30
        light = page.locator("[data-testid=review-summary] tr[data-side=light][data-scope=match] td").all_inner_texts()
        pr = 500 * loss
        assert light == [f"{pr:.1f}", level_words(level(pr))["en"], "1", f"{1000 * loss:.1f}", "0", "0", "1"]
        game = page.locator("[data-testid=review-summary] tr[data-side=light][data-scope=game] td").all_inner_texts()
        assert game == light
        assert page.locator("[data-testid=review-why] li").count() == len(reasons)
        screenshot(page, "coach-en-review")


def test_cube_advice_on_request_before_a_roll(live) -> None:
    url, referee = live
    opening(referee)
    referee.submit(board(after("8/5 6/5")))
    referee.submit({"event": "button", "name": "end_turn"})  # dark to roll
    with chromium_page() as page:
        _open(page, url, "pt")
        page.click("[data-testid=coach-cube]")
        page.wait_for_selector("[data-testid=cube-advice][data-action=no_double]", timeout=5000)
        assert page.inner_text("[data-testid=cube-advice]").startswith("Sem dobra, aceita: ainda é cedo para dobrar.")
        assert "custaria" not in page.inner_text("[data-testid=cube-advice]")  # the numbers only on request
        assert "O adversário deve aceitar" in page.inner_text("[data-testid=cube-advice]")


def test_tournament_mode_hides_the_coach_and_refuses(live) -> None:
    url, referee = live
    opening(referee, tournament=True)
    with chromium_page(locale="en-GB") as page:
        _open(page, url)
        referee.submit(board(after(play_with_label("very_bad"))))
        page.wait_for_function("window.__gamao.state && window.__gamao.state.verdicts.at(-1).verdict === 'in_progress'")
        assert not page.is_visible("[data-testid=coach]")
        assert not page.is_visible("[data-testid=tutor]")
        assert not page.is_visible("[data-testid=coach-view]")
        page.goto(f"{url}/review?lang=en")
        page.wait_for_function("window.__review.loaded > 0")
        assert page.inner_text("[data-testid=review-refused]").startswith("the coach is off in tournament mode")
        assert not page.is_visible("[data-testid=review]")
    for method, path in (("POST", "/api/coach/plays"), ("POST", "/api/coach/cube"), ("GET", "/api/coach/review"),
                         ("GET", "/api/coach")):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url + path, method=method), timeout=5)
        assert refused.value.code == 403
        assert json.loads(refused.value.read())["detail"].startswith("the coach is off in tournament mode")


def _gnubg_factory():  # type: ignore[no-untyped-def]
    from engine.base import EngineUnavailable
    from engine.gnubg import GnubgEngine, find_gnubg

    try:
        find_gnubg()  # wherever the machine has it (GAMAO_GNUBG, PATH, /usr/games)
    except EngineUnavailable as exc:
        pytest.skip(f"{exc} (./dev test installs it)")
    return lambda: GnubgEngine(plies=0)


def test_tutor_and_rating_with_the_real_gnubg(tmp_path: Path) -> None:
    factory = _gnubg_factory()
    chromium_or_skip()
    referee = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=referee, coach_engine=factory)
    try:
        with BackgroundServer(app) as server, chromium_page(locale="en-GB") as page:
            opening(referee)
            _open(page, server.url)
            referee.submit(board(after("24/21 6/5")))
            page.wait_for_selector("[data-testid=verdict][data-verdict=tutor]", timeout=30000)
            assert page.inner_text("#verdict-head") == (
                "Wait! This play is a blunder: put the checkers back and think again?")
            assert page.inner_text("[data-testid=coach-caption]") == "Best: 8/5 6/5"
            referee.submit(board(START))
            page.wait_for_selector("[data-testid=tutor][hidden]", state="attached", timeout=5000)
            referee.submit(board(after("24/21 6/5")))
            referee.submit({"event": "roll", "dice": [6, 4]})
            page.wait_for_selector("[data-testid=rating][data-status=rated]", timeout=30000)
            # gnubg's labels, not its digits: 24/21 6/5 loses 0.24 at 0 ply, twice the blunder mark (0.12)
            assert page.get_attribute("[data-testid=rating]", "data-label") == "very_bad"
            assert page.inner_text("[data-testid=rating] .rating-head") == "24/21 6/5: a blunder."
            screenshot(page, "coach-en-rating-gnubg")
    finally:
        referee.close()


@pytest.mark.parametrize("width,height", [(800, 480), (1280, 800)])
def test_the_coach_leaves_the_controls_on_the_small_screen(live, width: int, height: int) -> None:
    """A rating with its reasons on the Pi's 7-inch screen: the coach's panel scrolls, the
    control, chouette and language buttons stay on screen and the page itself does not scroll."""
    url, referee = live
    opening(referee)
    referee.submit(board(after(play_with_label("very_bad"))))
    referee.submit({"event": "roll", "dice": [6, 4]})  # dark's roll commits it
    with chromium_page(width, height) as page:
        _open(page, url, "pt")
        page.wait_for_selector("[data-testid=rating][data-status=rated]", timeout=5000)
        screenshot(page, f"coach-pt-{width}x{height}")
        for button in ("#controls-btn", "#lang"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (button, box)
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")


def test_the_coach_screens_at_800x480_in_brazilian_portuguese(live) -> None:
    """Issue 24's screens on the Pi's 7-inch screen (saved for docs/screens): the tutor's warning in words with
    its reason, a rated play with its sentences, the top plays, and the review with PR and the BMAB level."""
    url, referee = live
    opening(referee)
    bad = play_with_label("very_bad")
    with chromium_page(800, 480) as page:
        _open(page, url, "pt")
        referee.submit(board(after(bad)))
        page.wait_for_selector("[data-testid=verdict][data-verdict=tutor]", timeout=5000)
        assert page.inner_text("#verdict-head").startswith("Espere! Esta jogada é")
        assert page.is_visible("[data-testid=coach-view]")
        screenshot(page, "screen-tutor-warning")
        referee.submit({"event": "roll", "dice": [6, 4]})  # dark's roll commits it (R23)
        page.wait_for_selector("[data-testid=rating][data-status=rated]", timeout=5000)
        assert page.locator("[data-testid=rating] li").count() >= 2
        screenshot(page, "screen-rated-play")
        page.click("[data-testid=coach-plays]")
        page.wait_for_selector("[data-testid=coach-top] .top-play", timeout=5000)
        assert page.locator("[data-testid=coach-top] .top-play").count() == 5
        page.locator("[data-testid=coach-top]").scroll_into_view_if_needed()
        screenshot(page, "screen-top-plays")
        page.goto(f"{url}/review?lang=pt")
        page.wait_for_function("window.__review.loaded > 0")
        assert page.inner_text("[data-testid=review-summary]").startswith("PR (XG)") or "PR (XG)" in page.inner_text(
            "[data-testid=review-summary]")
        page.locator("[data-testid=review-summary]").scroll_into_view_if_needed()  # the PR and the level in view
        screenshot(page, "screen-review-pr")


def test_r23_the_screen_says_wait_while_the_tutor_judges(tmp_path: Path) -> None:
    """Issue 24: the first verdict shows at once; while the deeper look runs the screen says "Aguarde"; when it
    ends the wait goes (the warning confirmed here)."""
    import threading

    chromium_or_skip()
    release = threading.Event()
    engine = held_deep_engine(release)
    referee = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=referee, coach_engine=lambda: engine)
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480) as page:
            opening(referee)
            _open(page, server.url, "pt")
            referee.submit(board(after(play_with_label("very_bad"))))
            page.wait_for_selector("[data-testid=coach-wait]:not([hidden])", timeout=5000)
            assert page.inner_text("[data-testid=coach-wait]") == "Aguarde: o treinador está olhando a jogada…"
            # On the main screen, not only inside the drawer (issue 20: essentials always visible).
            assert page.evaluate("""() => { const e = document.getElementById("coach-wait"), r = e.getBoundingClientRect();
              const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !e.closest(".drawer") && e.contains(top) && r.bottom <= innerHeight - 48; }""")
            page.wait_for_selector("[data-testid=tutor]:not([hidden])", timeout=5000)
            # The warning too, over the board in front of the drawer: not covered.
            assert page.evaluate("""() => { const e = document.getElementById("tutor"), r = e.getBoundingClientRect();
              return e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }""")
            screenshot(page, "coach-wait-pt-800x480")
            page.wait_for_selector("[data-testid=tutor]:not([hidden])", timeout=5000)  # the first verdict
            assert page.get_attribute("[data-testid=tutor]", "data-final") == "false"
            release.set()
            page.wait_for_selector("[data-testid=coach-wait]", state="hidden", timeout=10000)
            assert page.get_attribute("[data-testid=tutor]", "data-final") == "true"
    finally:
        release.set()
        referee.close()
