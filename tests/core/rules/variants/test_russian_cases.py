"""Russian backgammon (R31): hand-made positions where the seed's rules bite, each citing the sentence it checks.

Both sides enter at physical 19-24 (own 24..19, "in/NN" in the notation) and travel 24 -> 1; own point n is
physical n for both. Checkers a case does not place are borne off unless ``waiting`` says otherwise.
"""

from __future__ import annotations

import pytest

from core.rules.variants import WAITING, RussianPosition, RussianSettings
from tests.core.rules.variants.cases import Case, ids, position, run_case

START = "cada jogador inicia a partida com suas 15 peças fora do tabuleiro"
SAME = ("As peças de ambos entram no tabuleiro pelo mesmo setor interno (que pode ser tanto o das vermelhas como o "
        "das brancas) e se movimentam no mesmo sentido")
TWO = "antes de poder movimentar suas peças, cada jogador precisa ter introduzido pelo menos duas peças no tabuleiro"
FIRST = "com exceção da primeira jogada (caso em que os dados devem ser relançados)"
DOUBLE = "execute os movimentos correspondentes à dobradinha"
COMP = ("depois execute os movimentos da dobradinha complementar (isto é, a dobradinha correspondente aos números que "
        "estão nas faces opostas aos números obtidos no lançamento dos dados, cujo valor corresponde a 7 menos o valor "
        "do número obtido)")
AGAIN = "feito tudo isso, lance os dados novamente"
STOP = ("A sequência das dobradinhas é interrompida quando o resultado de um dos dados não permitir que o jogador "
        "realize um movimento com suas peças. Nesse caso, a vez de jogar passa ao adversário.")
BAR = "Quando uma peça é capturada vai para a linha bar, tal como no gamão."
AS_GAMAO = "Essa variante apresenta as seguintes diferenças em relação ao gamão"
GAMMON = "Vitória dupla: quando o perdedor não consegue retirar nenhuma de suas peças do tabuleiro"

R = RussianPosition
W15 = {"light": 15, "dark": 15}


def fresh(turn: str = "light") -> dict[str, object]:
    return position(turn, waiting=W15)


def waiting(light: int, dark: int = 15) -> dict[str, int]:
    return {"light": light, "dark": dark}


def _all(pred: str):  # type: ignore[no-untyped-def]
    def check(legal: object) -> None:
        assert len(legal) > 0  # type: ignore[arg-type]
        for lp in legal:  # type: ignore[attr-defined]
            assert eval(pred, {"WAITING": WAITING}, {"lp": lp, "r": lp.result}), pred
    return check


def _first_step_enters(legal: object) -> None:
    assert len(legal) > 0  # type: ignore[arg-type]
    for lp in legal:  # type: ignore[attr-defined]
        for way in lp.ways():
            assert way.moves[0].frm == WAITING


CASES = [
    Case("first-roll", START, "R31", fresh(), (3, 1), plays={"in/24 in/22"}),
    Case("first-roll-65", START, "R31", fresh(), (6, 5), plays={"in/20 in/19"}),
    Case("first-roll-double-rerolled", FIRST, "R31", fresh(), (3, 3), count=0, reroll=True),
    Case("dark-first-roll-double", FIRST, "R31", position("dark", light={22: 1, 24: 1}, waiting=waiting(13, 15)), (4, 4),
         count=0, reroll=True),
    Case("first-roll-flag-clears", FIRST, "R31", fresh(), (2, 1),
         after={"in/24 in/23": {"first_roll": {"light": False, "dark": True}, "waiting": waiting(13, 15), "turn": "dark"}}),
    Case("blocked-first-roll-then-double", FIRST, "R31",
         position(dark={22: 2}, waiting=waiting(15, 13), first_roll={"light": False, "dark": False}), (3, 3), count=0),
    Case("one-checker-in", TWO, "R31", position(light={22: 1}, waiting=waiting(14)), (3, 1), count=3,
         has=["in/24 in/22", "in/22 22/21", "in/24 22/19"], lacks=["22/19/18", "22/21/18"]),
    Case("one-checker-in-double", TWO, "R31", position(light={22: 1}, waiting=waiting(14)), (6, 6), check=_first_step_enters),
    Case("two-in-may-move", TWO, "R31", position(light={22: 1, 24: 1}, waiting=waiting(13)), (2, 1), has=["24/23/21", "22/20 24/23"]),
    Case("entering-optional", TWO, "R31", position(light={10: 2}, waiting=waiting(13)), (2, 1), has=["10/8 10/9", "in/24 in/23"]),
    Case("dark-same-way", SAME, "R31", position("dark", dark={10: 2}, waiting=waiting(15, 13)), (2, 1), has=["10/8 10/9", "in/23 in/24"]),
    Case("same-entry-board", SAME, "R31", position("dark", waiting=waiting(15, 15), first_roll={"light": False, "dark": True}), (6, 4),
         after={"in/21 in/19": {"dark": {21: 1, 19: 1}}}),
    Case("bar-first", BAR, "R31", position(light={10: 2}, dark={22: 2}, bar={"light": 1, "dark": 0}), (3, 1),
         plays={"bar/24 10/7", "bar/24/21"}),
    Case("bar-closed", BAR, "R31", position(light={10: 2}, dark={22: 2, 24: 2}, bar={"light": 1, "dark": 0}), (3, 1), count=0),
    Case("hit-to-bar", BAR, "R31", position(light={10: 1, 14: 1}, dark={7: 1}, waiting=waiting(13, 14)), (3, 1),
         after={"14/13 10/7*": {"dark": {}, "bar": {"light": 0, "dark": 1}}}),
    Case("entering-hits", BAR, "R31", position(light={10: 2}, dark={22: 1}, waiting=waiting(13, 14)), (3, 2),
         after={"in/22* 10/8": {"bar": {"light": 0, "dark": 1}, "light": {22: 1, 10: 1, 8: 1}}}),
    Case("chain-stops-at-complement", STOP, "R31", position(light={20: 1}, dark={10: 2}), (1, 1),
         plays={"20/19/18/17/16"}, check=_all("r.turn.value == 'dark'")),
    Case("chain-stops-halfway-complement", STOP, "R31", position(light={20: 1}, dark={4: 2}), (1, 1),
         plays={"20/19/18/17/16/10"}, check=_all("r.turn.value == 'dark'")),
    Case("chain-complement-is-seven-minus", COMP, "R31", position(light={24: 1}, waiting=waiting(0)), (3, 3),
         plays={"24/21/18/15/12/8/4/off"}),
    Case("complete-chain-rolls-again", AGAIN, "R31", position(light={24: 2}, waiting=waiting(0)), (1, 1),
         check=_all("len(lp.play) == 8 and r.turn.value == 'light'")),
    Case("complete-chain-setting", AGAIN, "R31", position(light={24: 2}, waiting=waiting(0)), (1, 1), settings=RussianSettings(roll_again=False),
         check=_all("len(lp.play) == 8 and r.turn.value == 'dark'")),
    Case("double-played-four-times", DOUBLE, "R31", position(light={24: 2}, dark={18: 2, 15: 2}, waiting=waiting(0, 0)), (2, 2),
         plays={"24/22/20(2)"}, check=_all("len(lp.play) == 4 and r.turn.value == 'dark'")),
    Case("complement-while-entering", COMP, "R31", position(light={24: 2}, waiting=waiting(13)), (1, 1),
         check=_all("len(lp.play) == 8")),
    Case("no-complement-while-entering-setting", COMP, "R31", position(light={24: 2}, waiting=waiting(13)), (1, 1),
         settings=RussianSettings(complement_while_entering=False), check=_all("len(lp.play) == 4 and r.turn.value == 'dark'")),
    Case("no-bear-off-while-waiting", AS_GAMAO, "R31", position(light={3: 2}, waiting=waiting(1)), (6, 5), count=1,
         has=["in/19/14"], lacks=["3/off in/20"]),
    Case("bear-off", AS_GAMAO, "R31", position(light={3: 2}, waiting=waiting(0)), (6, 5), plays={"3/off(2)"}),
    Case("gammon", GAMMON, "R31", position(dark={20: 15}), result=("light", 2)),
    Case("single", GAMMON, "R31", position(dark={20: 3}), result=("light", 1)),
    Case("never-entered", GAMMON, "R31", position(dark={20: 13}, waiting=waiting(0, 2)), result=("light", 3)),
    Case("bad-16", START, "R31", position(light={20: 2}, waiting=waiting(14)), error="light: 16 checkers"),
    Case("bad-two-colours", SAME, "R31", position(light={10: 1}, dark={10: 1}), error="point 10 holds both light and dark"),
    Case("bad-first-roll", FIRST, "R31", position(light={10: 2}, waiting=waiting(13), first_roll={"light": True, "dark": False}),
         error="first_roll.light"),
]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_russian_case(case: Case) -> None:
    run_case(R, case)


def test_at_least_25_cases() -> None:
    assert len(CASES) >= 25
