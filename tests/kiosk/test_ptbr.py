"""The Portuguese on every screen, message and document is Brazilian (issue 16), in the seeds' words.

Scans every pt text: the referee's messages (core/messages.py, every reason code and description, and the
pt strings written in core/referee), the page's and the calibration page's words, and the Portuguese in
the docs and the HTML.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.messages import REASONS, TEMPLATES, describe, message
from core.page_words import PAGE_WORDS
from core.page_words_js import SERVER_SENTENCES
from webguard.page import page_text

ROOT = Path(__file__).resolve().parents[2]

# Forms a Brazilian reader finds foreign (European Portuguese), with the Brazilian word used instead.
EUROPEAN_ONLY = {
    r"\bcâmara\b": "câmera", r"\becrã\b": "tela", r"\btem de\b": "tem que / precisa", r"\btêm de\b": "precisam",
    r"\bControlo\b": "Controle", r"\bcontrolo\b": "controle", r"\b(está|estão|estou) a [a-zç]+r\b": "gerúndio",
    r"\ba (ligar|tentar)\b": "gerúndio", r"\bliga[çc][ãa]o\b": "conexão",
    r"\bcarreg(ue|uem|ar) em\b": "apertar", r"\b[Rr]eponha(m)?\b": "coloque(m) de volta",
    r"\baltura de\b": "hora de", r"\bregisto\b": "registro", r"\bregistad[oa]\b": "registrado",
    r"\balgarismos\b": "dígitos", r"\bIntroduza\b": "Digite", r"\bcentrad[oa]\b": "no centro",
    r"\b[àÀ] espera\b": "esperando", r"\bem curso\b": "em andamento", r"\b[Gg]uardad[oa]\b": "salvo",
    r"\bficheiro\b": "arquivo", r"\btelemóvel\b": "celular", r"\bpor acabar\b": "inacabado",
    r"\b(ficou|ficaram) por jogar\b": "faltou jogar", r"\bcasa interior\b": "setor interno",
    r"\btabuleiro interior\b": "setor interno", r"\bpeças? no bar\b|\bpara o bar\b|\bpelo bar\b|\bdo bar\b": "barra (the seeds' word, issue 37)",
    r"\bMarcador\b": "Placar", r"\bem falta\b": "faltando", r"\bfora de tempo\b": "fora de hora",
}
SEED_WORDS = ["casa", "peça", "setor interno", "barra", "retirar", "dobradinha", "cubo"]

VERDICTS = [
    {"verdict": "opening", "side": "light", "dice": [3, 1]}, {"verdict": "roll", "side": "dark", "dice": [6, 6]},
    {"verdict": "in_progress", "side": "light", "dice": [3, 1], "play": "8/5"},
    {"verdict": "in_progress", "side": "light", "dice": [3, 1], "play": "8/5 6/5", "complete": True},
    {"verdict": "play", "side": "dark", "dice": [6, 6], "play": ""},
    {"verdict": "play", "side": "dark", "dice": [6, 5], "play": "24/13", "legal": False, "committed_by": "cube"},
    {"verdict": "uncertain", "side": "light", "candidates": ["8/5 6/5", "6/5 8/5"]},
    {"verdict": "game_over", "winner": "dark", "points": 2, "how": "gammon"},
    {"verdict": "match_over", "winner": "light", "score": [7, 3]},
    *({"verdict": "cube", "side": "light", "action": a, "value": 4} for a in ("double", "take", "drop", "beaver", "raccoon")),
]
PARAMS = {"dice": [5, 5], "die": 5, "point": 7, "move": "13/8", "example": "13/3", "side": "light", "other": "dark",
          "owner": "dark", "n": 1, "cap": 64, "count": 4, "unplayed": [5], "dice_prev": [3, 1],
          "why_pt": "a partida terminou", "why_en": "the match is over"}


def portuguese_texts() -> dict[str, str]:
    texts = {f"message:{code}": message(code, **PARAMS)["pt"] for code in REASONS}
    texts.update({f"message:{code}:bar": message(code, **{**PARAMS, "point": "bar"})["pt"]
                  for code in ("checker_missing", "checker_added")})
    texts.update({f"describe:{v['verdict']}:{i}": describe(v)["pt"] for i, v in enumerate(VERDICTS)})
    for path in sorted((ROOT / "core" / "referee").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for i, m in enumerate(re.finditer(r'(?:"pt":\s*|why_pt=)((?:"[^"]*"\s*)+)', source)):
            texts[f"{path.name}:{i}"] = "".join(re.findall(r'"([^"]*)"', m.group(1)))
    static = ROOT / "kiosk" / "static"
    # The page's own words: their one table (core/page_words.py; kiosk/static/i18n.js asks it), and the server's
    # refusals said in Portuguese.
    texts["page_words:pt"] = "\n".join(pt for pt, _ in PAGE_WORDS.values())
    texts["page_words:server"] = "\n".join(pt for _, pt in SERVER_SENTENCES)
    for name in ("index.html", "calibrate.html"):
        texts[name] = (static / name).read_text(encoding="utf-8")
    # The panels added later keep their own pt and en words in their files (the coach, the review, the chouette,
    # the club's director), as do the Python modules that write Portuguese for the screen.
    for path in [*sorted(static.glob("*.js")), *sorted((ROOT / "club" / "static").glob("*")),
                 *sorted((ROOT / "kiosk").glob("*.py")), *sorted((ROOT / "core" / "coach").glob("*.py")),
                 *sorted((ROOT / "club").glob("*.py"))]:
        if path.is_file() and path.name != "i18n.js":
            texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        texts[str(doc.relative_to(ROOT))] = doc.read_text(encoding="utf-8")
    return texts


def test_no_european_only_form_in_the_portuguese() -> None:
    found = []
    for where, text in portuguese_texts().items():
        for pattern, brazilian in EUROPEAN_ONLY.items():
            for m in re.finditer(pattern, text):
                found.append(f"{where}: {m.group(0)!r} (pt-BR: {brazilian})")
    assert found == []


def test_the_scan_sees_every_message_and_screen() -> None:
    texts = portuguese_texts()
    assert len([k for k in texts if k.startswith("message:")]) >= len(TEMPLATES)
    assert any(k.startswith("machine.py:") for k in texts) and "page_words:pt" in texts
    # and would catch what it looks for
    assert re.search(r"\b(está|estão|estou) a [a-zç]+r\b", "as claras estão a jogar")
    assert re.search(r"\btem de\b", "tem de entrar") and re.search(r"\bcâmara\b", "Calibrar câmara")


def test_the_seeds_words_are_the_ones_used() -> None:
    everything = " ".join(message(code, **PARAMS)["pt"] for code in REASONS).lower()
    everything += " " + " ".join(describe(v)["pt"] for v in VERDICTS).lower()
    for word in SEED_WORDS:
        assert re.search(rf"\b{word}\b", everything), word
    # the seeds call the bar "barra" (13 times; "linha bar" 10): issue 37 asks for it, never "no bar"
    assert not re.search(r"\b(no|do|para o) bar\b", everything)


def test_screens_declare_brazilian_portuguese() -> None:
    static = ROOT / "kiosk" / "static"
    for name in ("index.html", "calibrate.html"):
        assert '<html lang="pt-BR">' in page_text(static / name)  # the head every page shares (webguard/page.py)
    assert 'lang === "pt" ? "pt-BR"' in (static / "app.js").read_text(encoding="utf-8")
