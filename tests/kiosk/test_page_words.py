"""One table of words for the page (core/page_words.py, served as /static/words.js to kiosk/static/i18n.js), in real
headless Chromium (issues 20, 37): every key in both
languages; the server's English refusals said in Portuguese on the Portuguese page; numbers written as each
language writes them; the results in the seeds' words (gamão, gamão triplo); the players' names in the
referee's sentences; no rule code left in them."""

from __future__ import annotations

from pathlib import Path

from core.page_words_js import page_words_js
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.fakes import FakeService
from tests.web import HTTP

SAME_KEYS = """async () => {
  const { TEXT } = await import("/static/i18n.js");
  const missing = [];
  const walk = (a, b, path) => {
    for (const k of Object.keys(a)) {
      if (!(k in b)) missing.push(path + k);
      else if (a[k] && typeof a[k] === "object" && !Array.isArray(a[k])) walk(a[k], b[k], `${path}${k}.`);
      else if (Array.isArray(a[k]) && a[k].length !== b[k].length) missing.push(`${path}${k} (length)`);
    }
  };
  walk(TEXT.pt, TEXT.en, "pt->en "); walk(TEXT.en, TEXT.pt, "en->pt ");
  return missing;
}"""

WORDS = """async () => {
  const m = await import("/static/i18n.js");
  const n = (s) => ({ light: "Ana", dark: "Bruno" })[s];
  const g = (how, points) => m.describe("pt", { verdict: "game_over", winner: "light", points, how }, n);
  return {
    numbers: [m.number("pt", 0.0264, 3), m.number("en", 0.0264, 3), m.number("pt", 1234), m.number("en", 5.8)],
    single: g("single", 1).head, gammon: g("gammon", 2).head, backgammon: g("backgammon", 3),
    opening: m.describe("pt", { verdict: "opening", side: "light", dice: [2, 1] }, n).head,
    codes: m.noRuleCodes("No gamão russo é preciso entrar (R31). Empate (Plakoto, R30)."),
    names: m.describe("pt", { verdict: "illegal", side: "light", play: "13/3",
                              message: { pt: "As claras têm uma peça no bar (R10).", en: "x" } }, n).detail,
    refusal: m.serverWords("pt", "cube advice is given before a roll or after a double, not now"),
    english: m.serverWords("en", "cube advice is given before a roll or after a double, not now"),
    agree: [m.CLOCK_TEXT.pt.cocked(1), m.CLOCK_TEXT.pt.cocked(2), m.CLOCK_TEXT.pt.rolls(1), m.CLOCK_TEXT.en.rolls(1),
            m.TEXT.pt.matchTo(1), m.TEXT.en.gamesPlayed(1), m.TEXT.pt.gamesPlayed(0)],
  };
}"""


def test_every_word_is_in_both_languages_and_said_the_seeds_way(tmp_path: Path) -> None:
    chromium_or_skip()
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=FakeService())
    with BackgroundServer(app) as server, chromium_page(800, 480) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=dice]")
        # The words come from their one table (core/page_words.py), served as /static/words.js: cacheable (its
        # tag answered 304), and the page asks it for nothing it lacks.
        words = HTTP.get(server.url + "/static/words.js")
        assert words.status_code == 200 and words.headers["content-type"].startswith("text/javascript")
        assert words.text == page_words_js() and words.headers["cache-control"] == "no-cache"
        again = HTTP.get(server.url + "/static/words.js", headers={"If-None-Match": words.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert page.evaluate(SAME_KEYS) == []
        w = page.evaluate(WORDS)
        assert w["numbers"] == ["0,026", "0.026", "1.234", "5.8"]
        assert w["single"] == "Ana ganha 1 ponto (simples)" and w["gammon"] == "Ana ganha 2 pontos (gamão)"
        assert w["backgammon"]["head"] == "Ana ganha 3 pontos (gamão triplo)"
        assert "gamão triplo, vale o triplo" in w["backgammon"]["detail"]
        assert w["opening"] == "Ana começa com 2-1"  # never "Começam as Ana"
        assert w["codes"] == "No gamão russo é preciso entrar. Empate (Plakoto)."
        assert w["names"] == "As claras (Ana) têm uma peça no bar."
        assert w["refusal"].startswith("O conselho de cubo é dado antes de lançar")
        assert w["english"].startswith("cube advice is given")
        # a number and its noun agree (issue 37: "1 inclinados" on the dice page)
        assert not [e for e in errors if "i18n" in e], errors
        assert w["agree"] == ["1 inclinado", "2 inclinados", "1 lançamento", "1 roll", "Partida de 1 ponto", "1 game",
                              "0 jogos"]


def test_the_coach_refusal_reads_in_portuguese_on_the_portuguese_page(tmp_path: Path) -> None:
    """The cube advice asked for in the middle of a play: the coach refuses (409), in the page's language."""
    chromium_or_skip()
    fake = FakeService()
    fake.update(phase="moving", dice={"values": [5, 2], "cocked": [False, False], "used": []})
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake, coach_engine=None)
    with BackgroundServer(app) as server, chromium_page(800, 480) as page:
        page.goto(server.url + "/?lang=pt")
        page.wait_for_selector("[data-testid=dice] .die")
        page.click("[data-testid=coach-btn]")
        page.click("[data-testid=coach-cube]")
        page.wait_for_function("document.getElementById('coach-error').textContent.length > 0")
        assert page.inner_text("#coach-error").startswith("O conselho de cubo é dado antes de lançar os dados")
