"""The cube advice in plain words (issue 12): gnubg's five verdicts, with the take/pass answer from the equities."""

from __future__ import annotations

import pytest

from core.coach.cube import ACTIONS, cube_sentences, explain_cube


def test_no_double_take() -> None:
    words = explain_cube("no_double", {"no_double": 0.3, "double_take": 0.25, "double_pass": 1.0})
    assert words["en"] == "No double, take: too early, doubling now would cost 0.050."
    assert words["pt"] == "Sem dobra, aceita: ainda é cedo, dobrar agora custaria 0,050."
    assert words["take"] == "take"


def test_double_pass_and_the_answer() -> None:
    words = explain_cube("double_pass", {"no_double": 0.7, "double_take": 1.3, "double_pass": 1.0})
    assert words["en"] == "Double, pass: doubling gains 0.300."
    assert words["answer_en"] == "The opponent should pass: a take would leave the doubler 1.300, a pass only 1.000."
    assert words["answer_pt"].startswith("O adversário deve recusar")


def test_too_good() -> None:
    line = cube_sentences("too_good_pass", {"no_double": 1.2, "double_take": 1.6, "double_pass": 1.0})
    assert line["en"].startswith("Too good to double, pass: playing on is worth 1.200, more than the 1.000 of a double")
    assert "Bom demais para dobrar, recusa" in line["pt"]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_has_words_without_equities(action: str) -> None:
    words = explain_cube(action, {})
    assert words["en"].endswith(".") and words["pt"].endswith(".") and words["take"] == ""


def test_unknown_action_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown cube action 'beaver'"):
        explain_cube("beaver", {})
