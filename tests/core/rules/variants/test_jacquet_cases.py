"""Jacquet (R32): hand-made positions where the seed's rules bite, each citing the sentence it checks.

Positions are built from each side's own point numbers (``L(n)``, ``D(n)``: the physical point of light's or
dark's own point n): light travels physical 13 -> 24, 1 -> 12, dark 1 -> 24. Dark's start point (physical 1) is
light's own 12, so dark's 15 at home there close it to light. Checkers a case does not place are borne off.
"""

from __future__ import annotations

from functools import partial

import pytest

from core.rules.variants import JacquetPosition, JacquetSettings
from tests.core.rules.variants.cases import Case, ids, phys, position, run_case

J = JacquetPosition
L = partial(phys, J, "light")
D = partial(phys, J, "dark")

START = ("as 15 peças vermelhas são colocadas na casa 1 das brancas, e as 15 peças brancas na casa 12 das "
         "vermelhas")
WAY = ("o movimento das peças, tanto brancas como vermelhas, faz-se no sentido oposto ao dos ponteiros do relógio "
       "(anti-horário)")
EXIT = "as peças vermelhas saem (são retiradas) do tabuleiro pela casa 1 das vermelhas, e as peças brancas pela casa 12 das brancas"
MESSENGER = ("cada jogador movimenta apenas uma de suas peças, chamada \"postilhão\" ou \"mensageiro\", a partir da casa "
             "de partida, até atingir a última parte do seu percurso")
THEN = "Somente depois de cumprida essa exigência é que os jogadores podem movimentar suas outras peças."
HOLD = ("considera-se que uma casa está bloqueada (ou fechada) para o adversário quando estiver ocupada por uma ou "
        "mais peças de um jogador")
SIX = ("Só é permitida a ocupação de 6 ou mais casas consecutivas ao jogador que já houver ocupado a penúltima e a "
       "última casas do seu percurso.")
ONE_DIE = ("se um jogador só conseguir usar os pontos de um dos dados e não puder usar o resultado do outro, andará só "
           "com o possível esquecendo o outro")
NONE = "Se não puder usar ambos os dados passará então a vez ao outro jogador."
NO_HIT = "nesse jogo não há captura ou imobilização"
OFF = ("cada jogador só poderá iniciar a retirada de suas peças (obedecendo para isso às mesmas regras do gamão), "
       "quando todas as suas peças estiverem na última parte do seu percurso")
GAMMON = "Vitória dupla: quando o perdedor não consegue retirar nenhuma de suas peças do tabuleiro"

DARK_HOME = {D(24): 15}  # dark at its start, its messenger not out yet
DARK_AWAY = {D(6): 15}  # dark all in its last quarter (light's own 18), leaving light's own 12 open
HITTING = JacquetSettings(hitting=True)


def run(*points: int) -> dict[int, int]:
    """Light holding each of its own points given, one checker each."""
    return {L(n): 1 for n in points}


def light(base: dict[int, int], start: int) -> dict[int, int]:
    return {**base, L(24): start}


SIX_BASE = run(20, 19, 18, 17, 16, 5)  # five held in a row (own 20..16) and an arrived messenger on own 5
Q3_BASE = run(12, 11, 10, 9, 8, 14, 5)


def _no_other_checker(legal: object) -> None:
    for lp in legal:  # type: ignore[attr-defined]
        for way in lp.ways():
            assert len({m.frm for m in way.moves} - {m.to for m in way.moves}) == 1, way


CASES = [
    Case("start-layout", START, "R32", position(light={13: 15}, dark={1: 15}), (6, 5), count=1, has=["24/18/13"],
         after={"24/18/13": {"light": {13: 14, 24: 1}, "messenger": {"light": False, "dark": False}}}),
    Case("messenger-alone-at-start", MESSENGER, "R32", position(light={13: 15}, dark={1: 15}), (6, 5), lacks=["24/19 24/18"]),
    Case("start-double", MESSENGER, "R32", position(light={13: 15}, dark={1: 15}), (3, 3), plays={"24/21/18/15"}),
    Case("dark-anticlockwise", WAY, "R32", position("dark", light={13: 15}, dark={1: 15}), (6, 5),
         after={"24/18/13": {"dark": {1: 14, 12: 1}, "turn": "light"}}),
    Case("messenger-only-moves", MESSENGER, "R32", position(light=light(run(20), 14), dark=DARK_HOME), (2, 1), count=1,
         has=["20/18/17"], lacks=["24/22 20/19", "24/23 20/18"], check=_no_other_checker),
    Case("messenger-blocked", HOLD, "R32",
         position(light=light(run(20), 14), dark={L(17): 1, L(15): 1, D(24): 13}), (5, 3), count=0),
    Case("messenger-arrives-mid-roll", THEN, "R32", position(light=light(run(8), 14), dark=DARK_HOME), (6, 2),
         has=["24/18 8/6", "24/22 8/2"], lacks=["24/18 24/22", "24/16"]),
    Case("after-arrival-all-move", THEN, "R32", position(light=light(run(5), 14), dark=DARK_HOME), (2, 1),
         has=["24/22 24/23", "24/22/21"]),
    Case("one-checker-holds", HOLD, "R32", position(light=light(run(5), 14), dark={L(21): 1, D(24): 14}), (3, 1),
         lacks=["24/21 5/4", "24/22/21"], has=["24/23 5/2", "24/23/20"], count=3),
    Case("no-hit", NO_HIT, "R32", position(light=light(run(5), 14), dark={L(21): 1, D(24): 14}), (3, 3),
         check=lambda legal: all(lp.result.to_json()["bar"] == {"light": 0, "dark": 0} for lp in legal)),
    Case("hitting-setting", NO_HIT, "R32", position(light=light(run(5), 14), dark={L(21): 1, D(24): 14}), (3, 1),
         settings=HITTING, after={"24/21* 5/4": {"bar": {"light": 0, "dark": 1}, "dark": {D(24): 14}}}),
    Case("hitting-setting-two-hold", NO_HIT, "R32", position(light=light(run(5), 14), dark={L(21): 2, D(3): 1, D(24): 12}), (3, 3),
         settings=HITTING, lacks=["24/21 5/2"]),
    Case("one-die-larger", ONE_DIE, "R32", position(light=light(run(20), 14), dark=DARK_HOME), (6, 2), plays={"20/14"}),
    Case("one-die-only-smaller", ONE_DIE, "R32", position(light=light(run(18), 14), dark={L(12): 14, L(10): 1}), (6, 2),
         plays={"18/16"}),
    Case("no-die-turn-passes", NONE, "R32", position(light=light(run(18), 14), dark={L(12): 14, L(16): 1}), (6, 2), count=0),
    Case("no-bear-off-before-all-home", OFF, "R32", position(light=run(3, 11), dark=DARK_HOME), (3, 1),
         lacks=["11/10 3/off", "11/8 3/off"], plays={"11/8/7", "11/8 3/2"}),
    Case("bear-off", OFF, "R32", position(light={L(3): 2}, dark=DARK_HOME), (6, 5), plays={"3/off(2)"}),
    Case("bear-off-exit-point", EXIT, "R32", position(light={L(1): 1, L(2): 1}, dark=DARK_HOME), (1, 1),
         after={"2/1/off 1/off": {"off": {"light": 15, "dark": 0}}}, check=lambda legal: len(legal) == 1),
    Case("six-block-refused", SIX, "R32", position(light=light(SIX_BASE, 9), dark=DARK_HOME), (6, 3),
         lacks=["24/18/15", "24/21 24/18"], has=["24/18 5/2"]),
    Case("six-block-allowed", SIX, "R32", position(light=light({**SIX_BASE, L(2): 1, L(1): 1}, 7), dark=DARK_HOME), (6, 3),
         has=["24/18/15", "24/21 24/18"]),
    Case("six-block-needs-1-and-2-before", SIX, "R32",
         position(light=light({**run(20, 19, 18, 17, 16, 22, 2, 4)}, 7), dark=DARK_HOME), (3, 1),
         has=["22/21 4/1"], check=lambda legal: _ways_of(legal, "22/21 4/1", ["4/1 22/21"])),
    Case("seven-block-refused", SIX, "R32", position(light=light(run(21, 20, 19, 18, 17, 16, 5), 8), dark=DARK_HOME), (1, 1),
         lacks=["24/23/22 5/4/3"]),
    Case("six-block-quarter-3-refused", SIX, "R32", position(light=light(Q3_BASE, 8), dark=DARK_AWAY), (4, 3),
         lacks=["14/10/7"]),
    Case("six-block-start-quarter-setting", SIX, "R32", position(light=light(Q3_BASE, 8), dark=DARK_AWAY), (4, 3),
         settings=JacquetSettings(prime_quarter=1), has=["14/10/7"]),
    Case("gammon", GAMMON, "R32", position(dark={D(3): 15}), result=("light", 2)),
    Case("single", GAMMON, "R32", position(dark={D(3): 10}), result=("light", 1)),
    Case("bad-two-colours", HOLD, "R32", position(light={L(5): 1, L(24): 14}, dark={L(5): 1, D(24): 14}),
         error="holds both colours"),
    Case("bad-messenger-flag", MESSENGER, "R32", position(light={L(5): 1, L(24): 14}, dark=DARK_HOME, messenger={"light": False, "dark": False}),
         error="messenger.light"),
    Case("bad-two-out-before-arrival", MESSENGER, "R32", position(light={L(20): 1, L(18): 1, L(24): 13}, dark=DARK_HOME),
         error="light: 2 checkers have left the start point"),
    Case("bad-bar", NO_HIT, "R32", position(light={L(24): 14}, dark=DARK_HOME, bar={"light": 1, "dark": 0}), error="bar.light"),
    Case("bad-16", START, "R32", position(light={L(24): 16}, dark=DARK_HOME), error="light: 16 checkers"),
]


def _ways_of(legal: object, text: str, expected: list[str]) -> None:
    from core.rules.variants import play_text

    lp = legal.position.parse_play(text, legal.dice)  # type: ignore[attr-defined]
    assert sorted(" ".join(f"{m.frm}/{m.to}" for m in w.moves) for w in lp.ways()) == expected, [play_text(w) for w in lp.ways()]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_jacquet_case(case: Case) -> None:
    run_case(J, case)


def test_at_least_25_cases() -> None:
    assert len(CASES) >= 25
