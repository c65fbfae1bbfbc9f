"""Plakoto (R30): hand-made positions where the seed's rules bite, each citing the sentence it checks.

Light (white) counts its points physically (24 -> 1); dark (red) travels 1 -> 24, its own point n is physical
25 - n. Checkers a case does not place are borne off.
"""

from __future__ import annotations

import pytest

from core.rules.variants import PlakotoPosition, PlakotoSettings
from tests.core.rules.variants.cases import Case, ids, position, run_case

START = "as 15 peças vermelhas são colocadas na casa 1 das brancas, e as 15 peças brancas na casa 1 das vermelhas"
PIN = ("as peças isoladas não são capturadas como acontece no gamão, mas sim imobilizadas, colocando-se a peça "
       "imobilizadora acima da peça do adversário")
NO_REPIN = "a peça imobilizadora não poderá, por sua vez, ser imobilizada, pois a casa é considerada como já bloqueada"
STUCK = ("A peça isolada que foi imobilizada não pode se mover enquanto a peça do adversário, que a imobilizou, "
         "permanecer na mesma casa, acima dela")
ADD = ("o jogador que imobilizou uma peça do adversário pode ir colocando mais peças suas nessa casa, pois ela é "
       "considerada como sua")
AS_GAMAO = "essa variante apresenta as seguintes diferenças em relação ao gamão"
BEAR = "Assim que um jogador estiver com suas 15 peças no seu setor interno, poderá começar a retirá-las do tabuleiro"
GAMMON = "Vitória dupla: quando o perdedor não consegue retirar nenhuma de suas peças do tabuleiro"

P = PlakotoPosition
ALLOW_OFF = PlakotoSettings(bear_off_while_pinned=True)


def pin(point: int, side: str) -> dict[str, object]:
    return {"point": point, "side": side}


CASES = [
    Case("start", START, "R30", position(light={24: 15}, dark={1: 15}), (6, 5), plays={"24/19 24/18", "24/18/13"}),
    Case("start-11", START, "R30", position(light={24: 15}, dark={1: 15}), (1, 1), count=5,
         has=["24/23(4)", "24/23/22/21/20"]),
    Case("dark-start", START, "R30", position("dark", light={24: 15}, dark={1: 15}), (6, 5),
         after={"24/18/13": {"dark": {1: 14, 12: 1}, "turn": "light"}}),
    Case("pin", PIN, "R30", position(light={13: 1, 6: 2}, dark={10: 1}), (3, 1),
         after={"13/10* 6/5": {"pinned": [pin(10, "dark")], "light": {10: 1, 6: 1, 5: 1}, "dark": {10: 1}, "bar": {"light": 0, "dark": 0}}}),
    Case("pin-with-second-die", PIN, "R30", position(light={13: 1}, dark={8: 1}), (3, 2),
         after={"13/10/8*": {"pinned": [pin(8, "dark")]}}, count=1),
    Case("pin-released", STUCK, "R30", position(light={10: 1, 6: 1}, dark={10: 1}, pinned=[pin(10, "dark")]), (4, 1),
         after={"10/6 6/5": {"pinned": [], "light": {6: 1, 5: 1}, "dark": {10: 1}}}),
    Case("pinner-passes-on", STUCK, "R30", position(light={13: 1}, dark={10: 1}), (3, 1),
         after={"13/10*/9": {"pinned": [], "dark": {10: 1}}}),
    Case("trapped-under-pin", STUCK, "R30", position("dark", light={10: 1}, dark={10: 1, 5: 2}, pinned=[pin(10, "dark")]), (2, 1),
         lacks=["15/13 15/14", "15/14", "15/13"], has=["20/18 20/19"]),
    Case("only-checker-pinned", STUCK, "R30", position("dark", light={10: 1}, dark={10: 1}, pinned=[pin(10, "dark")]), (6, 5), count=0),
    Case("pinner-not-pinned", NO_REPIN, "R30", position("dark", light={10: 1}, dark={10: 1, 7: 1}, pinned=[pin(10, "dark")]), (3, 3), count=0),
    Case("pinners-point-closed", NO_REPIN, "R30", position(light={13: 1, 10: 1}, dark={10: 1}, pinned=[pin(10, "light")]), (3, 1),
         plays={"13/12/9"}),
    Case("owner-adds", ADD, "R30", position(light={20: 1, 13: 1, 10: 1}, dark={10: 1}, pinned=[pin(10, "dark")]), (6, 3),
         after={"20/14 13/10": {"light": {14: 1, 10: 2}, "pinned": [pin(10, "dark")]}}),
    Case("owner-lands-via-pin-point", ADD, "R30", position(light={13: 1, 10: 1}, dark={10: 1}, pinned=[pin(10, "dark")]), (3, 3),
         has=["13/10/7/4/1"]),
    Case("two-block", AS_GAMAO, "R30", position(light={13: 1}, dark={10: 2}), (3, 3), count=0),
    Case("larger-die", AS_GAMAO, "R30", position(light={10: 1}, dark={7: 2, 1: 2}), (6, 3), plays={"10/4"}),
    Case("no-bear-off-while-pinned", BEAR, "R30", position(light={5: 1, 3: 1}, dark={3: 1}, pinned=[pin(3, "light")]), (6, 5), count=0),
    Case("bear-off-while-pinned-setting", BEAR, "R30", position(light={5: 1, 3: 1}, dark={3: 1}, pinned=[pin(3, "light")]), (6, 5),
         settings=ALLOW_OFF, plays={"5/off"}),
    Case("pinned-checker-is-highest", BEAR, "R30", position(light={6: 1, 2: 1}, dark={6: 1}, pinned=[pin(6, "light")]), (6, 1),
         settings=ALLOW_OFF, plays={"2/1"}),
    Case("mother-pinned-loses", PIN, "R30", position(light={24: 1, 6: 14}, dark={24: 1}, pinned=[pin(24, "light")]), (3, 1),
         result=("dark", 2), count=0),
    Case("pinning-the-mother", PIN, "R30", position("dark", light={24: 1, 6: 14}, dark={21: 1, 2: 1}), (3, 1),
         after={"4/1* 23/22": {"pinned": [pin(24, "light")]}}, check=lambda legal: _mother_win(legal)),
    Case("mother-rule-off", PIN, "R30", position(light={24: 1, 6: 14}, dark={24: 1}, pinned=[pin(24, "light")]), (3, 1),
         settings=PlakotoSettings(mother="none"), result=None, has=["6/3 6/5"]),
    Case("both-mothers-draw", PIN, "R30",
         position(light={24: 1, 1: 1, 6: 13}, dark={24: 1, 1: 1, 19: 13}, pinned=[pin(24, "light"), pin(1, "dark")]),
         settings=PlakotoSettings(mother="draw_if_both"), result=(None, 0)),
    Case("mother-answer-pending", PIN, "R30", position(light={24: 1, 6: 14}, dark={24: 1}, pinned=[pin(24, "light")]),
         settings=PlakotoSettings(mother="draw_if_both"), result=None),
    Case("mother-not-answered", PIN, "R30", position("dark", light={24: 1, 6: 14}, dark={24: 1}, pinned=[pin(24, "light")]),
         settings=PlakotoSettings(mother="draw_if_both"), result=("dark", 2)),
    Case("gammon", GAMMON, "R30", position(dark={20: 15}), result=("light", 2)),
    Case("single", GAMMON, "R30", position(dark={20: 12}), result=("light", 1)),
    Case("gammon-not-double", GAMMON, "R30", position(dark={20: 15}), settings=PlakotoSettings(gammon=False), result=("light", 1)),
    Case("bad-pin-under-empty", PIN, "R30", position(light={5: 1}, pinned=[pin(5, "light")]), error="pinned[0]: no dark checker on point 5"),
    Case("bad-two-colours", NO_REPIN, "R30", position(light={10: 1}, dark={10: 1}), error="point 10 holds both colours"),
    Case("bad-bar", PIN, "R30", position(light={10: 1}, bar={"light": 1, "dark": 0}), error="bar.light: Plakoto has no bar"),
    Case("bad-16", START, "R30", position(light={24: 16}), error="light: 16 checkers"),
    Case("bad-pinned-stack", STUCK, "R30", position(light={10: 1}, dark={10: 2}, pinned=[pin(10, "dark")]), error="pinned[0]: dark has 2 checkers"),
]


def _mother_win(legal: object) -> None:
    pinned = [lp for lp in legal if lp.result.mother_pinned("light")]  # type: ignore[attr-defined]
    assert pinned and all(lp.result.result()[0].value == "dark" for lp in pinned)  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_plakoto_case(case: Case) -> None:
    run_case(P, case)


def test_at_least_25_cases() -> None:
    assert len(CASES) >= 25
