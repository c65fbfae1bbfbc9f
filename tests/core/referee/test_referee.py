"""Scenario tests: one or more for every verdict kind, with the Portuguese and English sentences."""

from __future__ import annotations

from typing import Any

from core.referee import SUSPECT_BOARDS, Referee
from core.rules.position import Position, Side
from tests.core.referee.scenarios import (
    START,
    after,
    at_position,
    bd,
    kinds,
    light_on_bar,
    moved,
    referee,
    roll,
    unclear_31,
)


# ----- opening, roll, reroll (R03, R24) ----------------------------------------------------------------------
def test_r03_opening_roll_die_one_is_lights() -> None:
    ref = referee()
    (v,) = ref.feed(roll(5, 2))
    assert v == {"at": 1, "verdict": "opening", "side": "light", "dice": [5, 2],
                 "message": {"pt": "As claras começam, com 5-2.", "en": "Light starts, with 5-2."}}
    (v,) = referee().feed(roll(2, 5))
    assert v["side"] == "dark"


def test_r03_tied_opening_rerolled() -> None:
    ref = referee()
    (v,) = ref.feed(roll(4, 4))
    assert v["verdict"] == "reroll" and v["reason"] == "tied_opening"
    assert v["message"] == {"pt": "Na abertura os dois dados deram 4: empate. Lancem de novo para ver quem começa.",
                            "en": "Both opening dice show 4: a tie. Roll again to see who starts."}
    assert ref.public_state()["phase"] == "opening"
    assert kinds(ref.feed(roll(6, 1))) == ["opening"]


def test_r24_cocked_die_needs_ack_before_reroll() -> None:
    ref = referee()
    (v,) = ref.feed(roll(6, 1, (False, True)))
    assert v["verdict"] == "reroll" and v["reason"] == "cocked_die"
    assert v["message"] == {
        "pt": "O dado 2 ficou inclinado: o lançamento não conta (R24). Confirme e lance os dois dados de novo.",
        "en": "Die 2 is cocked: the roll does not count (R24). Acknowledge and roll both dice again."}
    assert ref.public_state()["dice"]["cocked"] == [False, True]
    (v,) = ref.feed(roll(3, 1))  # re-rolled before the acknowledgement: still refused
    assert v["reason"] == "cocked_die"
    assert ref.feed({"event": "button", "name": "ack_cocked"}) == []
    assert kinds(ref.feed(roll(3, 1))) == ["opening"]


def test_roll_verdict_after_commit() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    ref.feed(bd(after(START, (3, 1), "8/5 6/5")))
    out = ref.feed(roll(6, 4))
    assert kinds(out) == ["play", "roll"]
    assert out[0]["play"] == "8/5 6/5" and out[0]["legal"] is True
    assert out[0]["message"] == {"pt": "Jogada das claras com 3-1: 8/5 6/5.", "en": "Light's play with 3-1: 8/5 6/5."}
    assert out[0]["position_id"] == after(START, (3, 1), "8/5 6/5").position_id(Side.DARK)
    assert len(out[0]["match_id"]) == 12
    assert out[1]["message"] == {"pt": "As escuras lançaram 6-4.", "en": "Dark rolled 6-4."}
    state = ref.public_state()
    assert state["turn"] == "dark" and state["phase"] == "moving"
    assert state["moves"] == [{"game": 1, "number": 1, "side": "light", "roll": [3, 1], "play": "8/5 6/5"}]


# ----- in progress, play, uncertain --------------------------------------------------------------------------
def test_in_progress_partial_and_complete() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    half = moved(START, Side.LIGHT, 8, 5)
    (v,) = ref.feed(bd(half))
    assert v["verdict"] == "in_progress" and v["play"] == "8/5" and v["complete"] is False
    assert v["message"] == {"pt": "As claras estão jogando 3-1: até agora 8/5.", "en": "Light is playing 3-1: so far 8/5."}
    assert ref.feed(bd(half)) == []  # the same board again says nothing new
    (v,) = ref.feed(bd(after(START, (3, 1), "8/5 6/5")))
    assert v["complete"] is True
    assert v["message"]["en"] == "Light plays 8/5 6/5. It stands once the opponent rolls."


def test_unstable_boards_never_ruled_on() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    chaos = moved(moved(START, Side.LIGHT, 13, 2), Side.DARK, 13, 1)
    assert ref.feed(bd(chaos, stable=False)) == []


def test_uncertain_when_camera_cannot_tell() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    ev = unclear_31()
    (v,) = ref.feed(ev)
    assert v["verdict"] == "uncertain"
    assert {"13/10 6/5", "13/10/9"} <= set(v["candidates"])
    assert v["message"]["en"].startswith("I cannot tell light's play apart (")
    assert v["message"]["pt"].startswith("Não consigo distinguir a jogada das claras (")
    assert v["message"]["pt"].endswith("): afastem as mãos do tabuleiro.")
    # The opponent rolls while it is still unclear: the game goes on and the next boards decide.
    out = ref.feed(roll(6, 4))
    assert kinds(out) == ["uncertain", "roll"] and out[0]["committing"] is True and out[0]["pending"] is True
    assert out[0]["message"] == {
        "pt": "Não consigo ver qual destas jogadas foi feita; as próximas imagens do tabuleiro vão dizê-lo. "
              "O jogo continua.",
        "en": "I cannot see which of these plays was made; the next views of the board will tell. Play on."}
    played = after(START, (3, 1), "13/10 6/5")
    out = ref.feed(bd(played))
    assert kinds(out) == ["play"] and out[0]["play"] == "13/10 6/5" and out[0]["at"] == 4
    assert out[0]["position_id"] == played.position_id(Side.DARK)
    out = ref.feed(bd(after(played, (6, 4), "24/14")))
    assert kinds(out) == ["in_progress"] and out[0]["side"] == "dark"
    assert ref.public_state()["moves"][0]["play"] == "13/10 6/5"


def test_uncertain_play_decided_by_the_opponents_boards() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    ev = unclear_31()
    ref.feed(ev)
    ref.feed(roll(6, 4))
    out = ref.feed(bd(after(after(START, (3, 1), "13/10 6/5"), (6, 4), "24/18 13/9")))  # dark half-way through
    assert kinds(out) == ["play", "in_progress"]
    assert out[0]["play"] == "13/10 6/5" and out[1]["side"] == "dark"


def test_r25_no_legal_play_passes_at_once() -> None:
    ref, p2 = light_on_bar()
    out = ref.feed(roll(6, 6))  # light's only entry point for a 6 is dark's 6-point: closed
    assert kinds(out) == ["play", "roll", "play"]
    assert out[2]["side"] == "light" and out[2]["play"] == ""
    assert out[2]["message"] == {"pt": "As claras não têm jogada possível com 6-6: passam a vez.",
                                 "en": "Light cannot move with 6-6 and loses the turn."}
    state = ref.public_state()
    assert state["turn"] == "dark" and state["phase"] == "awaiting_roll"
    assert kinds(ref.feed(roll(2, 1))) == ["roll"]


# ----- illegal plays and their reasons -------------------------------------------------------------------------
def test_r04_wrong_distance() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    (v,) = ref.feed(bd(moved(moved(START, Side.LIGHT, 13, 9), Side.LIGHT, 13, 7)))
    assert v["verdict"] == "illegal" and v["reason"] == "wrong_distance" and v["move"] == "13/9"
    assert v["message"] == {
        "pt": "A peça 13/9 andou 4 casas, mas os dados são 6-5. Cada dado move uma peça exatamente esse número "
              "de casas: volte a peça e jogue 6 e 5.",
        "en": "The checker 13/9 moved 4 points, but the dice are 6-5. Each die moves a checker exactly that many "
              "points: take it back and play 6 and 5."}


def test_r05_closed_point() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    board = moved(moved(START, Side.LIGHT, 24, 19), Side.LIGHT, 13, 7)
    # A hand would also have to take dark's checkers off 19 to place it there; the camera then sees both.
    (v,) = ref.feed(bd(board))
    assert v["reason"] == "closed_point" and v["point"] == 19
    assert v["message"]["pt"] == ("A casa 19 está fechada (duas ou mais peças do adversário): nenhuma peça pode "
                                  "parar lá, nem de passagem. Volte a peça e jogue-a para uma casa aberta.")


def test_r07_bar_first() -> None:
    ref, p2 = light_on_bar()
    out = ref.feed(roll(5, 3))
    assert kinds(out) == ["play", "roll"]
    (v,) = ref.feed(bd(moved(moved(p2, Side.LIGHT, 13, 8), Side.LIGHT, 13, 10)))
    assert v["reason"] == "bar_first"
    assert v["message"] == {
        # the seeds' "barra" (issue 37)
        "pt": "As claras têm uma peça na barra: ela precisa entrar primeiro, no setor interno do adversário, antes "
              "de mover qualquer outra peça. Volte as peças movidas e entre com a peça da barra.",
        "en": "Light has a checker on the bar: it must enter first, in the opponent's home board, before any other "
              "checker moves. Take the other checkers back and enter the one on the bar."}
    (v,) = ref.feed(bd(after(p2, (5, 3), "bar/20 13/10")))  # put right
    assert v["verdict"] == "in_progress" and v["complete"] is True


def test_r10_bear_off_too_early() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    (v,) = ref.feed(bd(moved(moved(START, Side.LIGHT, 6, 0), Side.LIGHT, 13, 8)))
    assert v["reason"] == "bear_off_too_early" and v["point"] == 6
    assert v["message"]["en"] == ("Checkers may be borne off only when all 15 are in the home board (points 1 to 6). "
                                  "Put the checker back on point 6 and play 6 and 5 on the board.")


def test_r10_checker_gone_seen_by_a_camera() -> None:
    # A camera cannot tell a checker put in the tray from one that fell off the table (it derives the
    # borne-off count), so a single vanished checker is first taken for camera noise; when it stays
    # gone on several stable boards the referee asks for it back. While the camera itself is in doubt
    # (a fifth checker not ruled out), the same reading again is no more evidence (issue 15): only boards
    # it is sure of, or boards read afresh, count.
    ref = referee()
    ref.feed(roll(6, 5))
    ev = bd(moved(moved(START, Side.LIGHT, 6, 0), Side.LIGHT, 13, 8))
    table = [{str(n): 1.0} for n in ev["light"]]
    table[5] = {"4": 0.55, "5": 0.45}  # the 6-point: four checkers seen, a fifth not ruled out
    ev["uncertainty"] = {"light": table}
    assert kinds(ref.feed(ev)) == ["in_progress"]
    for _ in range(SUSPECT_BOARDS):
        assert ref.feed(dict(ev)) == []
    sure = {**ev, "uncertainty": {"light": [{str(n): 1.0} for n in ev["light"]]}, "off_seen": False}
    for _ in range(SUSPECT_BOARDS - 2):
        assert ref.feed(dict(sure)) == []
    (v,) = ref.feed(dict(sure))
    assert v["reason"] == "checker_missing" and v["point"] == 6
    assert v["message"]["en"] == "A light checker is missing from point 6. Put it back."


def test_r10_bear_off_too_early_with_another_fault() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    (v,) = ref.feed(bd(moved(moved(START, Side.LIGHT, 6, 0), Side.LIGHT, 13, 0)))
    assert v["reason"] == "bear_off_too_early"


def test_wrong_side_moved() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    (v,) = ref.feed(bd(moved(moved(START, Side.DARK, 8, 5), Side.DARK, 6, 5)))
    assert v["reason"] == "wrong_side_moved"
    assert v["message"] == {
        "pt": "Foram movidas peças das escuras, mas é a vez das claras. Volte as peças das escuras para onde estavam.",
        "en": "Dark checkers were moved, but it is light's turn. Put the dark checkers back where they were."}


def test_checker_knocked_off_flagged_when_it_stays_missing() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    missing = moved(after(START, (3, 1), "8/5 6/5"), Side.LIGHT, 24, 0)  # "off" = gone from the board
    ev = bd(missing)
    ev["off"]["light"] = 0
    first = ref.feed(ev)
    assert kinds(first) == ["in_progress"]  # one count off may be the camera
    for _ in range(SUSPECT_BOARDS - 2):
        assert ref.feed(dict(ev)) == []
    (v,) = ref.feed(dict(ev))
    assert v["verdict"] == "illegal" and v["reason"] == "checker_missing" and v["point"] == 24
    assert v["message"] == {"pt": "Falta uma peça das claras na casa 24. Coloque-a de volta no lugar.",
                            "en": "A light checker is missing from point 24. Put it back."}


def test_checkers_added() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    ev = bd(START)
    ev["light"][2] = 2  # two strange checkers on point 3
    (v,) = ref.feed(ev)
    assert v["reason"] == "checker_added" and v["point"] == 3
    assert v["message"]["en"] == "There is an extra light checker on point 3. Take it off the board."


def test_r23_takeback_flagged() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    ref.feed(bd(after(START, (3, 1), "8/5 6/5")))
    ref.feed(roll(6, 4))
    (v,) = ref.feed(bd(START))
    assert v["reason"] == "takeback"
    assert v["message"]["pt"].startswith("O tabuleiro voltou a uma posição anterior.")


def test_r09_unplayed_die_at_end_turn() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(START, Side.LIGHT, 24, 18)))
    (v, p) = ref.feed({"event": "button", "name": "end_turn"})
    assert v["verdict"] == "unplayed_die" and v["reason"] == "unplayed_die" and v["unplayed"] == [5]
    assert v["message"]["en"].startswith("The 5 was left unplayed, but a play using more dice existed (for example ")
    assert v["message"]["pt"].startswith("Faltou jogar o 5, mas havia uma jogada que usava mais dados")
    assert p["verdict"] == "play" and p["legal"] is False and p["play"] == "24/18"  # casual: it stands


def test_premature_roll_rejected_by_default() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(START, Side.LIGHT, 24, 18)))
    (v,) = ref.feed(roll(2, 1))
    assert v["verdict"] == "reroll" and v["reason"] == "roll_out_of_turn"
    assert v["message"]["en"] == ("Roll out of turn: light are still playing 6-5. Finish the play (or press end turn) "
                                  "and only then roll.")


def test_premature_roll_commits_when_set() -> None:
    ref = referee(premature_roll="commit")
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(START, Side.LIGHT, 24, 18)))
    out = ref.feed(roll(2, 1))
    assert kinds(out) == ["unplayed_die", "play", "roll"]


def test_r23_casual_illegal_play_stands_once_opponent_rolls() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    wrong = moved(moved(START, Side.LIGHT, 13, 9), Side.LIGHT, 13, 7)
    ref.feed(bd(wrong))
    out = ref.feed(roll(2, 1))
    assert kinds(out) == ["play", "roll"]
    assert out[0]["legal"] is False and out[0]["reason"] == "wrong_distance" and out[0]["play"] == "13/9 13/7"
    assert ref.public_state()["position"]["light"] == list(wrong.light)


def test_strict_mode_asks_for_correction_first() -> None:
    ref = referee(mode="strict")
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(moved(START, Side.LIGHT, 13, 9), Side.LIGHT, 13, 7)))
    (v, r) = ref.feed(roll(2, 1))
    assert v["verdict"] == "illegal" and v["reason"] == "wrong_distance" and v["at"] == 3
    assert r["verdict"] == "reroll" and r["reason"] == "correct_first"
    assert r["message"] == {
        "pt": "Modo estrito: as claras precisam corrigir a jogada antes que o adversário lance. Este lançamento "
              "não conta: corrijam a jogada e lancem de novo.",
        "en": "Strict mode: light must put the play right before the opponent rolls. This roll does not count: "
              "correct the play, then roll again."}
    assert ref.public_state()["turn"] == "light"  # the roll did not count
    ref.feed(bd(after(START, (6, 5), "24/13")))
    assert kinds(ref.feed(roll(2, 1))) == ["play", "roll"]


def test_undo_takes_back_the_last_play() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    ref.feed(bd(after(START, (3, 1), "8/5 6/5")))
    ref.feed(roll(6, 4))
    assert ref.feed({"event": "button", "name": "undo"}) == []
    state = ref.public_state()
    assert state["turn"] == "light" and state["phase"] == "moving" and state["moves"] == []
    assert state["dice"]["values"] == [3, 1]
    ref.feed(bd(after(START, (3, 1), "13/10 6/5")))
    out = ref.feed(roll(6, 4))
    assert out[0]["play"] == "13/10 6/5"


# ----- cube, game over, match over (R11-R14) ------------------------------------------------------------------
def _first_play(ref: Referee) -> None:
    ref.feed(roll(3, 1))
    ref.feed(bd(after(START, (3, 1), "8/5 6/5")))


def test_cube_double_take_and_owner() -> None:
    ref = referee()
    _first_play(ref)
    out = ref.feed({"event": "cube", "action": "double", "side": "dark"})
    assert kinds(out) == ["play", "cube"]
    assert out[1]["message"] == {"pt": "As escuras dobram para 2.", "en": "Dark doubles to 2."}
    (v,) = ref.feed({"event": "cube", "action": "take", "side": "light"})
    assert v == {"at": 4, "verdict": "cube", "action": "take", "side": "light", "value": 2,
                 "message": {"pt": "As claras aceitam o cubo (2).", "en": "Light takes the cube (2)."}}
    assert ref.public_state()["cube"] == {"value": 2, "owner": "light", "offered_by": None, "offered": None}
    assert kinds(ref.feed(roll(6, 4))) == ["roll"]


def _light_took_the_cube() -> Referee:
    """Light played 3-1; dark doubled and light took (light owns the cube at 2); dark rolled 6-4 and played 24/14."""
    ref = referee()
    _first_play(ref)
    ref.feed({"event": "cube", "action": "double", "side": "dark"})
    ref.feed({"event": "cube", "action": "take", "side": "light"})
    ref.feed(roll(6, 4))
    ref.feed(bd(after(after(START, (3, 1), "8/5 6/5"), (6, 4), "24/14")))
    return ref


def test_r12_cube_not_yours() -> None:
    ref = _light_took_the_cube()
    out = ref.feed({"event": "cube", "action": "double", "side": "light"})  # light owns it: fine
    assert kinds(out) == ["play", "cube"]
    ref.feed({"event": "cube", "action": "take", "side": "dark"})
    ref2 = _light_took_the_cube()
    ref2.feed(roll(2, 1))  # light commits... no: light rolls, the cube stays with light
    out = ref2.feed({"event": "cube", "action": "double", "side": "dark"})
    assert out[-1]["verdict"] == "illegal"
    assert out[-1]["reason"] in ("cube_after_roll", "cube_not_yours")


def test_r12_only_owner_redoubles() -> None:
    ref = referee()
    _first_play(ref)
    ref.feed({"event": "cube", "action": "double", "side": "dark"})
    ref.feed({"event": "cube", "action": "take", "side": "light"})  # light owns the cube; dark on roll
    ref.feed(roll(6, 4))
    p = after(after(START, (3, 1), "8/5 6/5"), (6, 4), "24/14")
    ref.feed(bd(p))
    ref.feed(roll(2, 1))
    ref.feed(bd(after(p, (2, 1), "13/11 6/5")))
    (v, c) = ref.feed({"event": "cube", "action": "double", "side": "dark"})
    assert v["verdict"] == "play" and c["verdict"] == "illegal" and c["reason"] == "cube_not_yours"
    assert c["message"] == {"pt": "O cubo é das claras: só quem tem o cubo pode redobrar.",
                            "en": "The cube belongs to light: only the cube's owner may redouble."}


def test_drop_ends_game_and_match() -> None:
    ref = referee(length=1)
    _first_play(ref)
    out = ref.feed({"event": "cube", "action": "double", "side": "dark"})
    out = ref.feed({"event": "cube", "action": "drop", "side": "light"})
    assert kinds(out) == ["cube", "game_over", "match_over"]
    assert out[1]["winner"] == "dark" and out[1]["points"] == 1
    assert out[1]["message"] == {"pt": "Fim do jogo: as escuras ganham 1 ponto (cubo recusado).",
                                 "en": "Game over: dark wins 1 point (double dropped)."}  # words, not the code
    assert out[2]["score"] == [0, 1]
    assert out[2]["message"] == {"pt": "Fim da partida: as escuras ganham, 0-1.", "en": "Match over: dark wins, 0-1."}
    assert ref.public_state()["phase"] == "match_over"


def test_r14_crawford_no_cube() -> None:
    ref = referee(length=3)
    _first_play(ref)
    ref.feed({"event": "cube", "action": "double", "side": "dark"})
    ref.feed({"event": "cube", "action": "drop", "side": "light"})  # dark 1-0... then 2-0 = 3-away? use resign
    ref.feed(roll(5, 2))
    ref.feed({"event": "resign", "side": "dark", "value": 1})
    ref.feed({"event": "resign_reply", "accept": True})
    assert ref.public_state()["match"]["score"] == {"light": 1, "dark": 1}
    ref.feed(roll(5, 2))
    ref.feed({"event": "resign", "side": "dark", "value": 1})
    out = ref.feed({"event": "resign_reply", "accept": True})
    assert kinds(out) == ["game_over"]
    assert ref.public_state()["match"]["score"] == {"light": 2, "dark": 1}
    ref.feed(roll(3, 1))  # the Crawford game
    assert ref.public_state()["match"]["crawford"] is True
    ref.feed(bd(after(START, (3, 1), "8/5 6/5")))
    (p, v) = ref.feed({"event": "cube", "action": "double", "side": "dark"})
    assert v["reason"] == "crawford_no_cube"
    assert v["message"] == {"pt": "Este é o jogo Crawford: não se usa o cubo neste jogo (R14).",
                            "en": "This is the Crawford game: the cube is not used in this game (R14)."}


def test_same_events_same_state() -> None:
    events = [{"event": "new_match", "length": 3}, roll(3, 1), bd(after(START, (3, 1), "8/5 6/5")),
              {"event": "cube", "action": "double", "side": "dark"}, {"event": "cube", "action": "take", "side": "light"},
              roll(6, 4)]
    a, b = Referee(), Referee()
    va = [a.feed(e) for e in events]
    vb = [b.feed(e) for e in events]
    assert va == vb and a.public_state() == b.public_state()


# ----- the end of a game (R10, R11) ------------------------------------------------------------------------------
def _nearly_done() -> Position:
    light = [2] + [0] * 23  # two checkers left on the 1-point, thirteen off
    dark = [0] * 24
    dark[18] = 15  # dark all on its 6-point: a gammon if light finishes now
    return Position.from_physical(light, dark, turn=Side.LIGHT)


def test_r11_last_checker_off_ends_the_game_at_once() -> None:
    ref = at_position(_nearly_done())
    ref.feed(roll(2, 1))
    done = _nearly_done().play((2, 1), "1/off(2)")
    out = ref.feed(bd(done))
    assert kinds(out) == ["in_progress", "play", "game_over"]
    assert (out[2]["winner"], out[2]["points"], out[2]["how"]) == ("light", 2, "gammon")
    assert out[2]["message"] == {"pt": "Fim do jogo: as claras ganham 2 pontos (gamão).",
                                 "en": "Game over: light wins 2 points (gammon)."}
    assert ref.public_state()["match"]["score"] == {"light": 2, "dark": 0}
    assert kinds(ref.feed(bd(START))) == []  # the board set up again: nothing to rule on
    assert kinds(ref.feed(roll(4, 2))) == ["opening"]  # the next game's opening roll
    assert ref.public_state()["match"]["game"] == 2


def test_unclear_last_bear_off_decided_when_the_board_is_set_up_again() -> None:
    ref = at_position(_nearly_done())
    ref.feed(roll(2, 1))
    ev = bd(_nearly_done().play((2, 1), "1/off(2)"))
    table = [{"0": 1.0} for _ in range(24)]
    table[0] = {str(n): 0.25 for n in range(4)}  # a hand over the 1-point
    ev["uncertainty"] = {"light": table}
    assert kinds(ref.feed(ev)) == ["uncertain"]
    out = ref.feed(bd(START))
    assert kinds(out) == ["play", "game_over"] and out[0]["play"] == "1/off(2)"


def test_r23_open_play_and_held_roll_settled_by_the_game_ending_board() -> None:
    # From a rendered real match: a bear-off read one count from another play, committed as open (pending);
    # the opponent's play and the next roll wait on it, and the board where that roll bears off the last
    # checkers fits only one of the open plays: all three are ruled on and the game ends.
    light = [1, 1, 0, 1, 1] + [0] * 19
    dark = [0] * 24
    dark[10], dark[15], dark[18], dark[19], dark[20] = 1, 1, 7, 3, 3
    pos = Position.from_physical(light, dark, turn=Side.LIGHT)
    table: list[dict[str, float]] = [{} for _ in range(24)]
    table[18] = {"6": 0.15, "7": 0.6, "8": 0.2, "9": 0.05}  # a tall stack the camera is unsure of

    def seen(p: Position) -> dict[str, Any]:
        return {**bd(p), "uncertainty": {"light": [{} for _ in range(24)], "dark": table}}

    ref = at_position(pos, length=7)
    ref.feed(roll(6, 4))
    played = after(pos, (6, 4), "5/off 4/off")
    assert kinds(ref.feed(seen(played))) == ["uncertain"]  # 5/1 4/off is one count away, the tray uncounted
    assert kinds(ref.feed(roll(3, 2))) == ["uncertain", "roll"]
    dark_played = after(played.with_turn(Side.DARK), (3, 2), "14/11/9")
    assert kinds(ref.feed(seen(dark_played))) == ["in_progress"]
    assert kinds(ref.feed(roll(5, 4))) == ["uncertain"]  # light's roll waits on the open play
    out = ref.feed(seen(after(dark_played.with_turn(Side.LIGHT), (5, 4), "2/off 1/off")))
    assert [(v["verdict"], v.get("play")) for v in out] == [
        ("play", "5/off 4/off"), ("play", "14/11/9"), ("roll", None), ("in_progress", "2/off 1/off"),
        ("play", "2/off 1/off"), ("game_over", None)]
    assert ref.public_state()["phase"] == "game_over"


# ----- a new set-up in the middle of a game ---------------------------------------------------------------------
def test_r23_new_setup_mid_game_is_said_and_new_game_leaves_the_game_unfinished() -> None:
    """The players set the board up again while the game is not over (the referee lost track, or they gave
    it up): the referee says so instead of calling every board a wrong move; New game leaves the game in the
    record unfinished, with no points, and the next roll is an opening roll."""
    from core.match.formats.mat import read_mat, write_mat
    from core.referee.record import to_match_record

    ref = referee(length=5)
    ref.feed(roll(5, 2))
    p1 = after(START, (5, 2), "13/8 13/11")
    ref.feed(bd(p1))
    ref.feed(roll(6, 4))  # dark's roll commits light's play
    p2 = after(p1.with_turn(Side.DARK), (6, 4), "24/18 13/9")
    ref.feed(bd(p2))
    ref.feed(roll(3, 1))
    p3 = after(p2.with_turn(Side.LIGHT), (3, 1), "8/5 6/5")
    ref.feed(bd(p3))
    ref.feed(roll(2, 1))
    ref.feed(bd(after(p3.with_turn(Side.DARK), (2, 1), "13/11 6/5")))
    out = ref.feed(bd(START))
    assert [(v["verdict"], v.get("reason")) for v in out] == [("illegal", "new_setup_mid_game")]
    assert "this game is not over" in out[0]["message"]["en"] and "não acabou" in out[0]["message"]["pt"]
    assert ref.feed(bd(START)) == []  # said once
    out = ref.feed({"event": "button", "name": "new_game"})
    assert [v["verdict"] for v in out] == ["abandoned"]
    assert ref.public_state()["phase"] == "opening"
    assert kinds(ref.feed(roll(4, 1))) == ["opening"]
    ref.feed(bd(after(START, (4, 1), "24/23 13/9")))
    assert [v["play"] for v in ref.feed(roll(3, 2)) if v["verdict"] == "play"] == ["24/23 13/9"]
    record = to_match_record(ref)
    assert [g.number for g in record.games] == [1, 2] and record.games[0].result is None
    assert [a.text for a in record.games[0].actions if a.text] == ["13/11 13/8", "24/18 13/9", "8/5 6/5"]
    again = read_mat(write_mat(record))
    assert len(again.games) == 2 and again.games[0].result is None


def test_r23_takeback_to_the_start_is_still_a_takeback() -> None:
    ref = referee()
    ref.feed(roll(5, 2))
    p1 = after(START, (5, 2), "13/8 13/11")
    ref.feed(bd(p1))
    ref.feed(roll(6, 4))
    out = ref.feed(bd(START))
    assert [v.get("reason") for v in out if v["verdict"] == "illegal"] != ["new_setup_mid_game"]
