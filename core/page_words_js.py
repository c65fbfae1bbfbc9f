"""The page's words as the browser gets them: core/page_words.py's table, with the server's English refusals
said in Portuguese, as one JavaScript module (words.js) with its entity tag, for the kiosk (/static/words.js), the
club's director (/kiosk/words.js) and the broadcast (/overlay/words.js)."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from core.page_words import PAGE_WORDS

# The server's refusals come from Python in English (kiosk/coach.py, kiosk/pin.py, the API's checks); the
# Portuguese page says them from here, matched by their beginning (a JavaScript pattern; $1 is its first group).
SERVER_SENTENCES: tuple[tuple[str, str], ...] = (
    (r"^cube advice is given before a roll or after a double, not now",
     "O conselho de cubo é dado antes de lançar os dados ou depois de uma dobra, não agora."),
    (r"^there is no roll to show plays for", "Não há dados lançados para mostrar jogadas: lancem os dados primeiro."),
    (r"^no player is on roll yet", "Ainda não há jogador da vez."),
    (r"^the coach is off in tournament mode",
     "O treinador fica desligado no modo torneio: sem dicas, avaliações nem revisão até o fim da partida."),
    (r"^the coach knows backgammon only",
     "O treinador só conhece o gamão: o GNU Backgammon não tem este jogo; o árbitro continua julgando cada jogada."),
    (r"^there is no play to take back now.*",
     "Não há jogada para voltar agora: só uma jogada que o treinador avisou ou chamou de erro, enquanto o "
     "adversário só lançou, com a volta combinada."),
    (r"^the coach is switched off in this kiosk's settings.*",
     "O treinador está desligado na configuração do quiosque (coach = false): ponha coach = true e reinicie o "
     "quiosque."),
    (r"^the coach is not running$", "O treinador não está funcionando."),
    (r"^GNU Backgammon is not installed.*",
     "O GNU Backgammon não está instalado: instale com 'sudo apt install gnubg' e tente de novo."),
    (r"^the guide \(docs\/guia-do-professor\.md\) is not in this installation$",
     "O guia do professor não está nesta instalação."),
    (r"^wrong PIN$", "PIN errado."),
    (r"^no PIN has been set yet.*", "Ainda não há PIN: defina um primeiro."),
    (r"^this action needs the PIN.*", "Esta ação precisa do PIN: digite-o."),
    (r"^too many wrong PINs from this device: try again in (\d+) s$",
     "Muitos PINs errados neste aparelho: tente de novo em $1 s."),
    (r"^one PIN at a time from this device.*", "Um PIN de cada vez: aguarde a resposta."),
    (r"^pin: String should match pattern.*", "O PIN precisa ter de 4 a 12 dígitos."),
    (r"^GNU Backgammon has not doubled.*", "O GNU Backgammon não dobrou: não há dobra dele para responder agora."),
)


def page_words() -> dict[str, Any]:
    """The table as the page reads it: {"pt": {key: words}, "en": {...}, "server": [[pattern, pt], ...]}."""
    return {"pt": {k: pt for k, (pt, _) in PAGE_WORDS.items()}, "en": {k: en for k, (_, en) in PAGE_WORDS.items()},
            "server": [list(pair) for pair in SERVER_SENTENCES]}


@functools.cache
def page_words_js() -> str:
    """The table as a JavaScript module (served as words.js, imported by kiosk/static/i18n.js)."""
    return ("// Generated from core/page_words.py (the players' screen's words, pt and en): edit them there.\n"
            f"export const WORDS = {json.dumps(page_words(), ensure_ascii=False, indent=0, sort_keys=True)};\n")


def page_words_etag() -> str:
    """The served module's entity tag: the same words, the same tag (a browser keeps the module until it changes)."""
    return '"' + hashlib.sha256(page_words_js().encode("utf-8")).hexdigest()[:20] + '"'


def words_reply(if_none_match: str | None) -> tuple[int, str, dict[str, str]]:
    """GET words.js for both servers (the kiosk's /static/words.js, the director's /kiosk/words.js): (status, body,
    headers). Cacheable: the browser asks again at each load (no-cache) and is told 304, without the body, while
    its copy's tag is the table's."""
    tag = page_words_etag()
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if if_none_match and tag in [t.strip() for t in if_none_match.split(",")]:
        return 304, "", headers
    return 200, page_words_js(), headers


__all__ = ["SERVER_SENTENCES", "page_words", "page_words_etag", "page_words_js", "words_reply"]
