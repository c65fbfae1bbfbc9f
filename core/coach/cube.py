"""The cube advice in plain words: gnubg's "No double, take", "Too good to double, pass", ...

``explain_cube(action, equities)`` takes the engine's verdict for the player on roll (one of
``no_double``, ``double_take``, ``double_pass``, ``too_good_take``, ``too_good_pass``) and its cubeful
equities (``no_double``, ``double_take``, ``double_pass``, from the doubler's side) and says what to do and
why, for the player who may double and for the opponent who must answer a double.

>>> print(cube_sentences("double_take", {"no_double": 0.45, "double_take": 0.62, "double_pass": 1.0})["en"])
Double, take: doubling gains 0.170. The opponent should take: a take leaves the doubler 0.620, a pass 1.000.
"""

from __future__ import annotations

from collections.abc import Mapping

# Each cube action's words, pt then en: its head, and its reason in words only (no equities: what the screen says
# first; cube_sentences' numbers come on request).
WORDS = {
    "no_double": (("Sem dobra", "No double"), ("ainda é cedo para dobrar", "it is too early to double")),
    "double_take": (("Dobre, aceita", "Double, take"), ("é hora de dobrar", "it is time to double")),
    "double_pass": (("Dobre, recusa", "Double, pass"),
                    ("é hora de dobrar, e o adversário deve recusar", "it is time to double, and the opponent should pass")),
    "too_good_take": (("Bom demais para dobrar, aceita", "Too good to double, take"),
                      ("você está bem demais: jogue sem dobrar, pelo gamão", "you are too good: play on for the gammon")),
    "too_good_pass": (("Bom demais para dobrar, recusa", "Too good to double, pass"),
                      ("você está bem demais: jogue sem dobrar, pelo gamão", "you are too good: play on for the gammon")),
}
ACTIONS = tuple(WORDS)


def _n(x: float, lang: str) -> str:
    text = f"{x:.3f}"
    return text.replace(".", ",") if lang == "pt" else text


def should_take(equities: Mapping[str, float]) -> bool | None:
    """Whether the opponent should take a double (taking leaves the doubler less than passing)."""
    if "double_take" not in equities or "double_pass" not in equities:
        return None
    return equities["double_take"] <= equities["double_pass"]


def _head(action: str, equities: Mapping[str, float]) -> tuple[str, str, bool | None]:
    """The advice's head in pt and en (a "no double" says the opponent's answer too), and should_take."""
    if action not in ACTIONS:
        raise ValueError(f"unknown cube action {action!r}; expected one of {', '.join(ACTIONS)}")
    take = should_take(equities)
    head_pt, head_en = WORDS[action][0]
    if action == "no_double" and take is not None:
        head_pt += ", aceita" if take else ", recusa"
        head_en += ", take" if take else ", pass"
    return head_pt, head_en, take


def explain_cube(action: str, equities: Mapping[str, float]) -> dict[str, str]:
    """{"pt", "en", "answer_pt", "answer_en", "take": "take"|"pass"|""}: the advice, and the opponent's answer."""
    head_pt, head_en, take = _head(action, equities)
    nd, dt, dp = (equities.get(k) for k in ("no_double", "double_take", "double_pass"))
    out = {"pt": head_pt, "en": head_en}
    if nd is not None and dt is not None and dp is not None:
        after = min(dt, dp)  # what doubling is worth: the opponent answers in their own best way
        gain = after - nd
        if action.startswith("double"):
            out["pt"] += f": dobrar ganha {_n(gain, 'pt')}."
            out["en"] += f": doubling gains {_n(gain, 'en')}."
        elif action == "no_double":
            out["pt"] += f": ainda é cedo, dobrar agora custaria {_n(-gain, 'pt')}."
            out["en"] += f": too early, doubling now would cost {_n(-gain, 'en')}."
        else:
            out["pt"] += (f": jogando sem dobrar você vale {_n(nd, 'pt')}, mais do que os {_n(after, 'pt')} "
                          "de uma dobra; jogue pelo gammon.")
            out["en"] += (f": playing on is worth {_n(nd, 'en')}, more than the {_n(after, 'en')} of a double; "
                          "play on for the gammon.")
        if take is not None:
            if take:
                out["answer_pt"] = (f"O adversário deve aceitar: aceitando, quem dobra fica com {_n(dt, 'pt')}; "
                                    f"recusando, com {_n(dp, 'pt')}.")
                out["answer_en"] = (f"The opponent should take: a take leaves the doubler {_n(dt, 'en')}, "
                                    f"a pass {_n(dp, 'en')}.")
            else:
                out["answer_pt"] = (f"O adversário deve recusar: aceitando, quem dobra ficaria com {_n(dt, 'pt')}; "
                                    f"recusando, só com {_n(dp, 'pt')}.")
                out["answer_en"] = (f"The opponent should pass: a take would leave the doubler {_n(dt, 'en')}, "
                                    f"a pass only {_n(dp, 'en')}.")
    else:
        out["pt"] += "."
        out["en"] += "."
    out["take"] = "" if take is None else ("take" if take else "pass")
    return out


def cube_sentences(action: str, equities: Mapping[str, float]) -> dict[str, str]:
    """The advice and the answer in one line per language (what the kiosk shows)."""
    words = explain_cube(action, equities)
    return {lang: " ".join(w for w in (words[lang], words.get(f"answer_{lang}", "")) if w) for lang in ("pt", "en")}


def cube_words(action: str, equities: Mapping[str, float]) -> dict[str, str]:
    """{"pt", "en"}: the cube advice and the opponent's answer in words, without a number.

    >>> cube_words("double_take", {"no_double": 0.45, "double_take": 0.62, "double_pass": 1.0})["pt"]
    'Dobre, aceita: é hora de dobrar. O adversário deve aceitar.'
    """
    head_pt, head_en, take = _head(action, equities)
    reason_pt, reason_en = WORDS[action][1]
    out = {"pt": f"{head_pt}: {reason_pt}.", "en": f"{head_en}: {reason_en}."}
    if take is not None and action != "double_pass":
        out["pt"] += " O adversário deve aceitar." if take else " O adversário deve recusar."
        out["en"] += " The opponent should take." if take else " The opponent should pass."
    return out
