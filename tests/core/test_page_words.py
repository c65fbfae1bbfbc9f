"""The players' screen's words in one table (core/page_words.py, issue 37): every key the page asks for is in it,
every entry is said in both languages with the same placeholders, none is left unused, and the numbers agree with
their nouns. The page's own file (kiosk/static/i18n.js) keeps no words of its own: it asks the table."""

from __future__ import annotations

import re
from pathlib import Path

from core.page_words import PAGE_WORDS, fill, placeholders
from core.page_words_js import SERVER_SENTENCES, page_words_js, words_reply

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "kiosk" / "static" / "i18n.js"
# The page's modules that ask the table (each through i18n.js's wordsOf), and the broadcast's overlay.
PAGES = (I18N, *(ROOT / "kiosk" / "static" / f"{name}.js" for name in ("chouette", "coach", "review", "calibrate", "drills")),
         ROOT / "club" / "static" / "overlay.js")
# ... and the club director's page, for its own few entries (director.*; its other words are still its own)
ASKERS = (*PAGES, ROOT / "club" / "static" / "director.js")


def asked() -> tuple[set[str], set[str]]:
    """The keys i18n.js asks the table for: ({keys written whole}, {prefixes of the keys it builds: "phase." ...}).
    A key is a quoted literal there: "title", "verdict.legalPlay" (the page writes each one whole, never glued)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in ASKERS)
    # i18n.js writes its keys whole; the panels ask through w("key"), c("key") (chouette.*) or a section("prefix").
    literals = set(re.findall(r'"([A-Za-z][\w.]*)"', I18N.read_text(encoding="utf-8")))
    keys = {k for k in literals if k in PAGE_WORDS or re.fullmatch(r"[a-z]+\.[A-Za-z][\w.]*", k)}
    keys |= set(re.findall(r'\bw\(\s*"([^"]+)"', source))
    keys |= {f"chouette.{k}" for k in re.findall(r'\bc\(\s*"([^"]+)"', source)}
    prefixes = set(re.findall(r"`([a-zA-Z.]+\.)\$\{", source)) - {"chouette."}
    prefixes |= {f"{p}." for p in re.findall(r'\bsection\(lang, "([\w.]+)"\)', source)} | {f"{p}." for p in re.findall(r'\blines\(w, "([\w.]+)"', source)}
    return keys, prefixes


def test_every_key_the_page_asks_for_is_in_the_table() -> None:
    keys, prefixes = asked()
    assert len(keys) > 150 and {"phase.", "how.", "why.", "gameNames.", "resignBtn.", "rulesCard."} <= prefixes, (
        len(keys), prefixes)
    missing = sorted(k for k in keys if k not in PAGE_WORDS)
    assert missing == [], missing
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in PAGE_WORDS), prefix


def test_no_entry_is_left_unused() -> None:
    keys, prefixes = asked()
    unused = sorted(k for k in PAGE_WORDS if k not in keys and not any(k.startswith(p) for p in prefixes))
    assert unused == [], unused


def test_each_entry_in_both_languages_with_the_same_placeholders() -> None:
    for key, (pt, en) in PAGE_WORDS.items():
        assert pt.strip() and en.strip(), key
        assert placeholders(pt) == placeholders(en), (key, pt, en)
        assert not re.search(r"\bR\d\d\b", pt + en), key  # no rule code on the players' screen
    assert all(pattern.startswith("^") and pt for pattern, pt in SERVER_SENTENCES)


def test_the_page_keeps_no_words_of_its_own() -> None:
    """i18n.js asks the table: no Portuguese sentence of the screen is written in it (D1: its pt and en halves were
    two copies of one structure)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in PAGES)
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("//"))
    for pt, _ in PAGE_WORDS.values():
        if len(pt) > 12 and "{" not in pt:
            assert pt not in code, pt


def test_numbers_agree_with_their_nouns() -> None:
    """Issue 37: "1 inclinados" on the dice page; 1 is singular, 0 and 2 plural, in both languages."""
    said = {n: (fill(PAGE_WORDS["clock.cocked"][0], n=n), fill(PAGE_WORDS["matchTo"][0], n=n),
                fill(PAGE_WORDS["matchTo"][1], n=n)) for n in (0, 1, 2)}
    assert said[1] == ("1 inclinado", "Partida de 1 ponto", "Match to 1 point")
    assert said[0] == ("0 inclinados", "Partida de 0 pontos", "Match to 0 points")
    assert said[2] == ("2 inclinados", "Partida de 2 pontos", "Match to 2 points")


def test_the_served_module_is_cacheable() -> None:
    status, body, headers = words_reply(None)
    assert status == 200 and body == page_words_js() and body.startswith("// Generated from core/page_words.py")
    assert headers["Cache-Control"] == "no-cache" and headers["ETag"].startswith('"')
    assert words_reply(headers["ETag"])[:2] == (304, "")
    assert words_reply('"other", ' + headers["ETag"])[0] == 304
    assert words_reply('"stale"')[0] == 200
