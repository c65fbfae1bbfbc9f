"""The screen read from the chair (issue 37): what every page walk checks at every render, besides the 48 px targets.

- The size floor: no text a player reads is under ``FLOOR_PX`` CSS px on the 800x480 screen, the board's SVG text
  included (its font size times the drawing's scale). Why 18: the appliance's 7-inch panel (the official Raspberry
  Pi display: 154.08 x 85.92 mm for 800x480) has 0.193 mm pixels; DejaVu Sans' capitals are 0.73 em, so 18 px
  capitals are 13.1 px = 2.5 mm, which from a metre subtend 8.7 minutes of arc, 1.7 times the 5' of the 6/6
  (20/20) letter: read at a glance with the eyes of a player who needs reading glasses (6/10), where the 13-15 px
  of before (6.3-7.3') were at the edge of 6/6 acuity. ISO 9241-303's 16' minimum for office reading would ask
  for 33 px, which would leave no room for the board on a 480 px high screen; the verdict, the score, the dice
  and the clocks are larger (24-46 px).
- No code reaching a sentence: a snake_case name (``time_out``), a sentence ending in a colon with nothing after
  it, "undefined"/"NaN"/"null"/"[object", a rule code (R01-R32).
- One language per page: on the Portuguese page no English word (nor the jargon: off, bar, pips, rating, unit, the
  engine's English levels); on the English page no Portuguese word.
- No emoji (the appliance has no emoji font: they drew as empty boxes), no text cut off the screen, by an
  ellipsis, by a box clamped to a number of lines or by a box that hides what does not fit, no word broken in
  two across lines, and the tutor's warning never under another verdict.
"""

from __future__ import annotations

import json
from typing import Any

FLOOR_PX = 18.0

ENGLISH = ("the", "and", "with", "play", "plays", "played", "roll", "rolls", "rolled", "cube", "double", "doubles",
           "take", "takes", "drop", "drops", "wins", "game", "match", "light", "dark", "moves", "point",
           "points", "checker", "checkers", "board", "resign", "resigns", "not", "now", "advice", "score", "dice",
           "die", "to", "of", "is", "review", "coach", "rules", "export", "control", "waiting", "opening", "gammon",
           "starts", "off", "bar", "in", "pips", "rating", "unit", "expert", "world class", "grandmaster",
           "flag", "time", "clock", "player", "unrated", "none", "error", "errors", "single", "backgammon")
PORTUGUESE = ("jogada", "jogadas", "peça", "peças", "casa", "casas", "dados", "partida", "claras", "escuras", "lance",
              "treinador", "relógio", "placar", "não", "você", "começa", "ganha", "vez", "dobra", "aceitar",
              "recusar", "revisão", "regras", "barra", "fora", "jogo", "melhor", "erro")

# Runs in the page: a list of the problems seen now (empty: the page reads well from the chair).
CHAIR_JS = """(o) => {
  const floor = o.floor, bad = [], seen = new Set();
  const lang = document.documentElement.lang || "";
  // One style and one answer per element in a run (the walks run this at every render: it must stay cheap).
  const styles = new Map(), hidden = new Map();
  const style = (x) => { let st = styles.get(x); if (!st) { st = getComputedStyle(x); styles.set(x, st); } return st; };
  const hiddenEl = (e) => {
    if (hidden.has(e)) return hidden.get(e);
    const h = e.checkVisibility ? !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
      : (e.hidden || style(e).display === "none" || style(e).visibility === "hidden");
    hidden.set(e, h);
    return h;
  };
  const vw = innerWidth, vh = innerHeight;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.nodeValue.replace(/\\s+/g, " ").trim();
    const e = n.parentElement;
    if (!s || !e || ["SCRIPT", "STYLE", "TITLE", "OPTION"].includes(e.tagName) || hiddenEl(e)) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    // What is on the screen now: text scrolled out of its box, or below the page's end, is not read now.
    if (r.bottom <= 0 || r.top >= vh) continue;
    let clip = false, cut = null, top = r.top, bottom = r.bottom;
    for (let x = e.parentElement; x && x !== document.body; x = x.parentElement) {
      const st = style(x);
      if (st.overflowY !== "visible" && st.overflowY !== "clip" || st.overflowX !== "visible") {
        const b = x.getBoundingClientRect();
        if (bottom <= b.top + 1 || top >= b.bottom - 1) { clip = true; break; }
        // Half shown by a box that hides the rest and does not scroll: cut (a scrolling box shows it by a touch).
        if (!cut && st.overflowY === "hidden" && (bottom > b.bottom + 2 || top < b.top - 2)) cut = x;
        // What a scrolling box shows of it is all that the boxes around it can cut (a list's row half scrolled
        // into view at its foot is not cut by the panel that holds the list).
        if (st.overflowY === "auto" || st.overflowY === "scroll") { top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom); }
      }
    }
    if (clip) continue;
    // The language switch names the other language ("English" on the Portuguese page): by design.
    if (!e.closest("#lang")) texts.push(o.names.reduce((t, name) => t.split(name).join(" "), s));
    let px = parseFloat(style(e).fontSize);
    if (e instanceof SVGElement) { const m = e.getScreenCTM(); px *= m ? Math.hypot(m.a, m.b) : 1; }
    const what = `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : ""}`;
    if (px < floor - 0.25) {
      const key = `size ${what} ${Math.round(px)}`;
      if (!seen.has(key)) { seen.add(key); bad.push(`"${s.slice(0, 30)}" (${what}) is ${px.toFixed(1)} px, under ${floor}`); }
    }
    if (r.right > vw + 1 || r.left < -1) bad.push(`"${s.slice(0, 30)}" (${what}) runs off the screen`);
    // A word broken across two lines ("banquei-ro", "centr-o" in a narrow column): each word of a short text (no
    // hyphen or slash in it, where a line may break) on one line.
    if (range.getClientRects().length > 1 && s.split(" ").length <= 12) {
      for (const m of n.nodeValue.matchAll(/[^\\s\\-\\/–—]{4,}/g)) {
        const word = document.createRange(); word.setStart(n, m.index); word.setEnd(n, m.index + m[0].length);
        const tops = new Set([...word.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
        if (tops.size > 1) { bad.push(`"${m[0].slice(0, 30)}" (${what}) is broken in the middle of a word`); break; }
      }
    }
    if (cut) bad.push(`"${s.slice(0, 30)}" (${what}) is cut in half by its box (${cut.tagName.toLowerCase()}${cut.id ? "#" + cut.id : ""})`);
    const st = style(e);
    if (st.textOverflow === "ellipsis" && e.scrollWidth > e.clientWidth + 1) bad.push(`"${s.slice(0, 30)}" (${what}) is cut (…)`);
    // A box clamped to N lines (-webkit-line-clamp) that holds more: its last line ends in "…", the rest unread.
    const clamp = st.webkitLineClamp || st.getPropertyValue("-webkit-line-clamp");
    if (clamp && clamp !== "none" && e.scrollHeight > e.clientHeight + 1) bad.push(`"${s.slice(0, 30)}" (${what}) is cut after ${clamp} lines (…)`);
    // A box that hides what does not fit (overflow hidden, no scrolling) and holds more: its last lines unread.
    else if (st.overflowY === "hidden" && e.scrollHeight > e.clientHeight + 2) bad.push(`"${s.slice(0, 30)}" (${what}) is cut at its box's foot`);
    if (/[\\u{1F000}-\\u{1FAFF}]/u.test(s)) bad.push(`emoji in "${s.slice(0, 30)}" (no emoji font on the appliance)`);
  }
  // Inputs' and buttons' own text is text too (their value).
  const text = texts.join("\\n");
  const code = text.match(/\\b[a-z]+_[a-z_]+\\b/) || text.match(/\\bR\\d\\d\\b/) || text.match(/\\b(undefined|NaN|null)\\b|\\[object/);
  if (code) bad.push(`code "${code[0]}" in: ${text.slice(Math.max(0, code.index - 40), code.index + 40).replace(/\\s+/g, " ")}`);
  for (const t of texts) if (/:$/.test(t) && t.length > 3) bad.push(`a sentence ends in a colon with nothing after it: "${t.slice(-50)}"`);
  const foreign = lang.startsWith("pt") ? o.english : lang.startsWith("en") ? o.portuguese : [];
  if (foreign.length) {
    const words = new RegExp(`(^|[^\\\\p{L}])(${foreign.join("|")})(?![\\\\p{L}])`, "iu");
    for (const t of texts) {
      if (/^[\\d\\s.,:;()\\-\\/*]+$/.test(t)) continue;
      const w = t.match(words);
      if (w) { bad.push(`${lang.startsWith("pt") ? "English" : "Portuguese"} word "${w[2]}" in: "${t.slice(0, 80)}"`); break; }
    }
  }
  const tutor = document.getElementById("tutor"), banner = document.getElementById("banner");
  if (tutor && banner && !hiddenEl(tutor) && tutor.textContent.trim() && banner.dataset.verdict !== "tutor")
    bad.push(`the tutor's warning is shown under another verdict (${banner.dataset.verdict})`);
  return bad;
}"""

# Proper names and notation that are the same in both languages (never flagged): the product, the engine, the
# game names, the files.
NAMES = ("Gamão", "GNU Backgammon", "Chouette", "Plakoto", "Jacquet", ".mat", ".sgf", "XG", "PIN")


def chair_args(floor: float = FLOOR_PX) -> dict[str, Any]:
    return {"floor": floor, "english": list(ENGLISH), "portuguese": list(PORTUGUESE), "names": list(NAMES)}


def chair_problems(page: Any, floor: float = FLOOR_PX) -> list[str]:
    """The problems of the page as it is now (tests/kiosk/chair.py's checks)."""
    return list(page.evaluate(CHAIR_JS, chair_args(floor)))


def chair_js_call(floor: float = FLOOR_PX) -> str:
    """A JavaScript expression calling the check (for a checker installed in a page): an array of problems."""
    return f"({CHAIR_JS})({json.dumps(chair_args(floor))})"
