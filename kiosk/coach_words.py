"""The coach's words: a rated play called by its size, the top plays with a sentence each, the review's rows,
the plays of a roll as the page draws them, and why the coach is off.

Pure functions of what the engine said (core.coach.words, core.coach.explain): no engine call, no lock. The
sizes use the match's marks (settings.marks) and the engine's thresholds, or gnubg's defaults when the engine
has not said them (DEFAULT_MARKS).
"""

from __future__ import annotations

from typing import Any

from core.coach.explain import explain_play, gain_words
from core.coach.words import headline, numbers_words, play_words, size_of
from core.rules.position import Position
from engine.base import RankedPlay, Thresholds
from kiosk.coach_records import PlayRecord, layout, position_of
from kiosk.coach_settings import CoachSettings

TOP_PLAYS = 5
DEFAULT_MARKS = (0.03, 0.06, 0.12)  # gnubg's doubtful, bad and very bad when the engine has not said its own


def msg(pt: str, en: str) -> dict[str, str]:
    return {"pt": pt, "en": en}


def off_words(enabled: bool, tournament: bool, variant: str | None) -> tuple[str, dict[str, str]]:
    """Why the coach is off: the routes' refusal (English, for the API) and the page's words."""
    if not enabled:
        return ("the coach is switched off in this kiosk's settings (coach = false in the config file); "
                "set coach = true and restart the kiosk to use it",
                msg("O treinador está desligado nas configurações deste quiosque.",
                    "The coach is switched off in this kiosk's settings."))
    if tournament:
        return ("the coach is off in tournament mode: no hints, ratings or reviews until the match ends; "
                "start a match without tournament rules to use it",
                msg("Modo torneio: o treinador está desligado.", "Tournament mode: the coach is off."))
    return (f"the coach knows backgammon only: GNU Backgammon has no {variant}; the referee still rules on every play",
            msg("O treinador conhece só o gamão: nesta variante ele fica desligado.",
                "The coach knows backgammon only: it is off in this variant."))


def marks(thresholds: Thresholds | None) -> tuple[float, float, float]:
    """The engine's (doubtful, bad, very bad), or DEFAULT_MARKS without them."""
    return (thresholds.doubtful, thresholds.bad, thresholds.very_bad) if thresholds else DEFAULT_MARKS


def rating_words(record: PlayRecord, settings: CoachSettings, thresholds: Thresholds | None) -> dict[str, Any]:
    """The rated play called by its size in words; the numbers apart, for the "números" touch."""
    if record.status != "rated":
        return {"size": None, "headline": None, "numbers": None}
    size = size_of(record.loss, settings.marks, marks(thresholds)) or "good"
    return {"size": size, "headline": headline(record.play, size),
            "numbers": numbers_words(record.loss, record.equity)}


def review_words(rows: list[dict[str, Any]], settings: CoachSettings, thresholds: Thresholds | None) -> None:
    """Each review row called by its size with the match's marks (``size``, ``headline``), the numbers apart."""
    for row in rows:
        size = size_of(row["loss"], settings.marks, marks(thresholds)) if row["status"] == "rated" else None
        row["size"] = size
        row["headline"] = headline(row["play"], size) if size else None


def top_plays(pos: Position, dice: tuple[int, int], ranked: list[RankedPlay], settings: CoachSettings,
              thresholds: Thresholds | None) -> list[dict[str, Any]]:
    """The best plays (at most TOP_PLAYS), each with its size in words and one sentence: for the best,
    what it gains over the second; for the others, what the best gains over them."""
    side = pos.turn
    best = position_of(ranked[0].result, side)
    out = []
    for i, rp in enumerate(ranked[:TOP_PLAYS]):
        size = size_of(rp.loss, settings.marks, marks(thresholds)) or "good"
        if i == 0:
            other = position_of(ranked[1].result, side) if len(ranked) > 1 else None
            gain = gain_words(explain_play(pos, dice, other, best)) if other is not None else None
            sentence = ({"pt": f"A melhor jogada: {gain['pt']}.", "en": f"The best play: it {gain['en']}."}
                        if gain else play_words("best"))
        else:
            gain = gain_words(explain_play(pos, dice, position_of(rp.result, side), best))
            words = play_words(size)
            sentence = {"pt": f"{words['pt'].capitalize()}: a melhor {gain['pt']}.",
                        "en": f"{words['en'].capitalize()}: the best {gain['en']}."}
        out.append({"rank": i + 1, "play": rp.play, "size": size, "sentence": sentence,
                    "numbers": numbers_words(rp.loss, rp.equity),
                    "board": layout(position_of(rp.result, side))})
    return out


def plays_view(pos: Position, dice: tuple[int, ...], ranked: list[RankedPlay] | None,
               top: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every legal play of the roll with its board: ranked (best first, with the engine's figures) or unranked."""
    side = pos.turn
    if ranked is not None:
        rows = [{**rp.as_json(), "board": layout(position_of(rp.result, side))} for rp in ranked]
    else:
        rows = [{"play": lp.play.text(), "result": lp.result.position_id(side), "equity": None, "loss": None,
                 "label": None, "board": layout(lp.result)} for lp in pos.legal_plays(dice)]
    return {"side": side.value, "position_id": pos.position_id(side), "dice": list(dice),
            "ranked": ranked is not None, "top": top or [], "plays": rows}
