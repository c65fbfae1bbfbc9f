"""A play called by its size in plain words, numbers only on request.

``size_of(loss, marks)`` names a play's loss against the best play with a set of marks: ``"xg"`` (Galaxy's
and eXtreme Gammon's: an error from 0.020, a blunder from 0.080 of normalised equity, no doubtful mark) or
``"gnubg"`` (the engine's own doubtful / bad / very bad). ``play_words(size)`` and ``numbers_words(...)``
give the Brazilian Portuguese and English words; the numbers (the loss, the equity) are kept apart so the
screen shows them only behind a "números" touch.

>>> size_of(0.0, "xg", (0.03, 0.06, 0.12))
'best'
>>> size_of(0.05, "xg", (0.03, 0.06, 0.12)), size_of(0.05, "gnubg", (0.03, 0.06, 0.12))
('error', 'doubtful')
>>> play_words("blunder")["pt"]
'um erro grave'
"""

from __future__ import annotations

from collections.abc import Sequence

MARKS = ("xg", "gnubg")
XG_ERROR, XG_BLUNDER = 0.020, 0.080
BEST_EPSILON = 0.0005  # a loss this small is the best play (gnubg prints equities to 3 decimals)
SIZES = ("best", "good", "doubtful", "error", "blunder")

# size -> (pt, en): "Sua jogada: ..."
WORDS: dict[str, tuple[str, str]] = {
    "best": ("a melhor jogada", "the best play"),
    "good": ("uma boa jogada, quase tão boa quanto a melhor", "a good play, almost as good as the best"),
    "doubtful": ("uma jogada duvidosa", "a doubtful play"),
    "error": ("um erro", "an error"),
    "blunder": ("um erro grave", "a blunder"),
}
# gnubg's labels (engine.base.LABELS) as sizes, with gnubg's marks.
GNUBG_SIZE = {None: "good", "doubtful": "doubtful", "bad": "error", "very_bad": "blunder"}


def size_of(loss: float | None, marks: str, gnubg: Sequence[float]) -> str | None:
    """The size of a play losing ``loss``: best, good, doubtful (gnubg's marks only), error, blunder.
    ``gnubg`` is the engine's (doubtful, bad, very bad) thresholds; a loss must pass a mark, as gnubg's."""
    if loss is None:
        return None
    if marks not in MARKS:
        raise ValueError(f"unknown marks {marks!r}: use one of {', '.join(MARKS)}")
    if loss <= BEST_EPSILON:
        return "best"
    if marks == "xg":
        return "blunder" if loss > XG_BLUNDER else "error" if loss > XG_ERROR else "good"
    doubtful, bad, very_bad = gnubg
    return "blunder" if loss > very_bad else "error" if loss > bad else "doubtful" if loss > doubtful else "good"


def play_words(size: str) -> dict[str, str]:
    pt, en = WORDS[size]
    return {"pt": pt, "en": en}


def headline(play: str, size: str) -> dict[str, str]:
    """"24/18 13/11: um erro." - the play and its size, no number."""
    w = play_words(size)
    return {"pt": f"{play}: {w['pt']}.", "en": f"{play}: {w['en']}."}


def _n(x: float, lang: str) -> str:
    text = f"{x:.3f}"
    return text.replace(".", ",") if lang == "pt" else text


def numbers_words(loss: float | None, equity: float | None, best_equity: float | None = None) -> dict[str, str]:
    """The numbers behind a verdict, for the "números" touch: what the play loses and the equities."""
    if loss is None:
        return {"pt": "", "en": ""}
    pt = [f"perde {_n(loss, 'pt')} de equidade"]
    en = [f"loses {_n(loss, 'en')} equity"]
    if equity is not None:
        pt.append(f"equidade da jogada {_n(equity, 'pt')}")
        en.append(f"the play's equity {_n(equity, 'en')}")
    if best_equity is not None:
        pt.append(f"da melhor {_n(best_equity, 'pt')}")
        en.append(f"the best's {_n(best_equity, 'en')}")
    return {"pt": "; ".join(pt) + ".", "en": "; ".join(en) + "."}
