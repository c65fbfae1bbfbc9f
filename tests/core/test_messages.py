"""Reason codes -> sentences in European Portuguese and English, with the dice and points filled in."""

from __future__ import annotations

import re

import pytest

from core.messages import REASONS, describe, message

REQUIRED = ("wrong_distance", "closed_point", "bar_first", "bear_off_too_early", "unplayed_die",
            "larger_die_required", "wrong_side_moved", "checker_missing", "checker_added", "takeback",
            "cocked_die", "tied_opening", "roll_out_of_turn", "cube_not_yours", "crawford_no_cube")

PARAMS = {"dice": [6, 5], "die": 6, "point": 7, "move": "13/9", "count": 4, "example": "24/13",
          "side": "light", "other": "dark", "owner": "dark", "n": 1, "cap": 64, "unplayed": [5],
          "dice_prev": [6, 5], "why_pt": "a partida terminou", "why_en": "the match is over"}


def test_every_required_code_exists() -> None:
    assert set(REQUIRED) <= set(REASONS)


@pytest.mark.parametrize("code", REASONS)
def test_every_code_renders_both_languages_without_holes(code: str) -> None:
    text = message(code, **PARAMS)
    assert set(text) == {"pt", "en"}
    for lang, sentence in text.items():
        assert sentence and sentence[0].isupper(), (lang, sentence)
        assert sentence.endswith("."), (lang, sentence)
        assert not re.search(r"[{}]", sentence), (lang, sentence)
        assert "  " not in sentence


def test_messages_say_how_to_put_it_right() -> None:
    # Every fault sentence tells the player what to do, not only what went wrong.
    for code in REQUIRED:
        pt, en = message(code, **PARAMS).values()
        assert re.search(r"\b(volte|jogue|lance|lancem|coloque|coloquem|confirme|complete|tire|terminem)\b", pt.lower()
                         + " " + pt, re.IGNORECASE) or code in ("cube_not_yours", "crawford_no_cube"), pt
        assert re.search(r"\b(put|take|play|roll|finish|acknowledge)\b", en, re.IGNORECASE) or code in (
            "cube_not_yours", "crawford_no_cube"), en


def test_parameters_fill_dice_and_points() -> None:
    assert message("larger_die_required", dice=[6, 2], die=6, example="8/2") == {
        "pt": "Só um dos dados pode ser jogado e, nesse caso, precisa ser o maior, o 6. Volte a peça e jogue o 6 "
              "(por exemplo 8/2).",
        "en": "Only one die can be played, and then it must be the larger one, the 6. Take the checker back and "
              "play the 6 (for example 8/2).",
    }
    assert message("wrong_distance", dice=[3, 3], move="13/9", count=4)["pt"].endswith(
        "volte a peça e jogue a dobradinha: quatro vezes o 3.")
    assert message("checker_missing", side="dark", point="bar") == {
        "pt": "Falta uma peça das escuras na barra. Coloque-a de volta no lugar.",  # the seeds' "barra" (issue 37)
        "en": "A dark checker is missing from the bar. Put it back."}
    assert message("unplayed_die", dice=[6, 5], unplayed=[6, 5], example="24/13")["en"].startswith(
        "The 6 and the 5 were left unplayed")


def test_unknown_code_is_refused() -> None:
    with pytest.raises(KeyError, match="unknown reason code 'wrong'"):
        message("wrong")


def test_describe_reports_every_informative_verdict() -> None:
    for v in ({"verdict": "opening", "side": "dark", "dice": [2, 6]},
              {"verdict": "roll", "side": "light", "dice": [4, 4]},
              {"verdict": "in_progress", "side": "light", "dice": [4, 4], "play": "13/9", "complete": False},
              {"verdict": "play", "side": "light", "dice": [4, 4], "play": "13/9(2)", "legal": True},
              {"verdict": "uncertain", "side": "light", "candidates": ["13/9", "6/2"]},
              {"verdict": "cube", "side": "light", "action": "beaver", "value": 4},
              {"verdict": "game_over", "winner": "light", "points": 3, "how": "backgammon"},
              {"verdict": "match_over", "winner": "light", "score": [7, 3]}):
        text = describe(v)
        assert text["pt"] and text["en"] and text["pt"] != text["en"]
    assert describe({"verdict": "game_over", "winner": "light", "points": 6, "how": "gammon"}) == {
        "pt": "Fim do jogo: as claras ganham 6 pontos (gamão).", "en": "Game over: light wins 6 points (gammon)."}


def test_a_play_on_the_portuguese_screen_in_the_seeds_words() -> None:
    """Issue 37: "bar/23" and "6/off" are English on the Portuguese page: the seeds' "barra" and "fora"."""
    from core.messages import pt_play

    assert pt_play("bar/22 6/off(2) 13/8*") == "barra/22 6/fora(2) 13/8*"
    said = message("illegal_play", dice=[6, 5], example="bar/20 6/off")
    assert "barra/20 6/fora" in said["pt"] and "bar/20 6/off" in said["en"]
    game = describe({"verdict": "game_over", "winner": "light", "points": 1, "how": "time_out"})
    assert "time_out" not in game["pt"] + game["en"] and "(tempo esgotado)" in game["pt"]
