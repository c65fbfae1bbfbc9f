"""Cube and match rules as the referee applies them: beavers, raccoons (R17, R18), Jacoby (R15),
Holland (R16), the cube cap (R12) and resignations, with the sentences in both languages."""

from __future__ import annotations

from typing import Any

from core.referee import Referee
from core.rules.position import Position

START = Position.start()


def bd(pos: Position) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True}


def cube(action: str, side: str) -> dict[str, Any]:
    return {"event": "cube", "action": action, "side": side}


def money(**rules: Any) -> Referee:
    ref = Referee()
    ref.feed({"event": "new_match", "length": 0, "rules": rules})
    ref.feed({"event": "roll", "dice": [3, 1]})
    ref.feed(bd(START.play((3, 1), "8/5 6/5")))
    return ref


def test_r17_r18_beaver_and_raccoon() -> None:
    ref = money(beavers=True)
    ref.feed(cube("double", "dark"))
    (v,) = ref.feed(cube("beaver", "light"))
    assert (v["verdict"], v["value"]) == ("cube", 4)
    assert v["message"] == {"pt": "As claras fazem castor (beaver) para 4.", "en": "Light beavers to 4."}
    assert ref.public_state()["cube"] == {"value": 2, "owner": "light", "offered_by": "light", "offered": 4}
    (v,) = ref.feed(cube("raccoon", "dark"))
    assert (v["verdict"], v["value"]) == ("cube", 8)
    ref.feed(cube("take", "light"))
    assert ref.public_state()["cube"]["value"] == 8
    assert ref.public_state()["cube"]["owner"] == "light"  # the cube stays with the beaver's side (R18)


def test_r17_no_beaver_in_match_play() -> None:
    ref = Referee()
    ref.feed({"event": "new_match", "length": 5, "rules": {"beavers": True}})
    ref.feed({"event": "roll", "dice": [3, 1]})
    ref.feed(bd(START.play((3, 1), "8/5 6/5")))
    ref.feed(cube("double", "dark"))
    (v,) = ref.feed(cube("beaver", "light"))
    assert v["verdict"] == "illegal" and v["reason"] == "beaver_not_allowed"
    assert v["message"] == {"pt": "Não se jogam castores (beaver) nesta partida: aceite ou recuse o cubo.",
                            "en": "Beavers are not played in this match: take or drop the cube."}


def test_r15_jacoby_gammon_counts_single_without_cube() -> None:
    ref = money(jacoby=True)
    ref.feed({"event": "roll", "dice": [6, 4]})
    ref.feed({"event": "resign", "side": "dark", "value": 2})
    (v,) = ref.feed({"event": "resign_reply", "accept": True})
    assert (v["verdict"], v["winner"], v["points"], v["how"]) == ("game_over", "light", 1, "resign")


def test_resign_rejected_game_goes_on() -> None:
    ref = money()
    ref.feed({"event": "resign", "side": "dark", "value": 1})
    assert ref.public_state()["resignation"] == {"side": "dark", "value": 1}
    assert ref.feed({"event": "resign_reply", "accept": False}) == []
    assert ref.public_state()["resignation"] is None and ref.public_state()["phase"] == "awaiting_roll"


def test_r12_cube_cap() -> None:
    ref = money(cube_cap=2)
    ref.feed(cube("double", "dark"))
    ref.feed(cube("take", "light"))
    ref.feed({"event": "roll", "dice": [6, 4]})
    p = START.play((3, 1), "8/5 6/5").play((6, 4), "24/14")
    ref.feed(bd(p))
    (play, v) = ref.feed(cube("double", "light"))
    assert v["reason"] == "cube_cap"
    assert v["message"] == {"pt": "O cubo já está no valor máximo combinado (2).",
                            "en": "The cube is already at the agreed maximum (2)."}


def test_answering_own_double_refused() -> None:
    ref = money()
    ref.feed(cube("double", "dark"))
    (v,) = ref.feed(cube("take", "dark"))
    assert v["reason"] == "cube_answer_wrong_side"
    assert v["message"]["en"] == "Only light may answer the double."
    (v,) = money().feed(cube("take", "light"))
    assert v["reason"] == "no_cube_offered"


def test_r16_holland_trailer_waits_two_rolls() -> None:
    ref = Referee()
    ref.feed({"event": "new_match", "length": 3, "rules": {"holland": True}})
    for winner_resigns in ("dark", "dark", "light"):  # light 2-0 (Crawford next), then dark wins the Crawford game
        ref.feed({"event": "roll", "dice": [3, 1]})
        ref.feed({"event": "resign", "side": winner_resigns, "value": 1})
        ref.feed({"event": "resign_reply", "accept": True})
    state = ref.public_state()
    assert state["match"]["score"] == {"light": 2, "dark": 1} and state["match"]["post_crawford"] is True
    ref.feed({"event": "roll", "dice": [3, 1]})
    ref.feed(bd(START.play((3, 1), "8/5 6/5")))
    (play, v) = ref.feed(cube("double", "dark"))  # dark trails and has not rolled twice yet
    assert v["reason"] == "holland"
    assert v["message"]["en"].startswith("Holland rule: after the Crawford game the trailer may double only")


def test_duplicate_roll_from_the_dice_unit_ignored() -> None:
    ref = money()
    out = ref.feed({"event": "roll", "dice": [6, 4], "seq": 12})
    assert [v["verdict"] for v in out] == ["play", "roll"]
    assert ref.feed({"event": "roll", "dice": [6, 4], "seq": 12}) == []
