"""The chouette (R26-R29): five players over twelve games, against a table computed by hand.

Hand computation (1 point a cube; A Ana, B Bruno, C Carla, D Davi, E Eva). Rolls: A 6, B 5, C 4 then 2, D 4 then
5, E 1 -> box A, captain B, crew D, C, E (R26: the 4s roll again).
 1  box A, capt B [D C E]: no double, box wins 1: B D C E pay A 1.                      A 4 B -1 C -1 D -1 E -1
 2  box A, capt D [C E B]: team wins a gammon: A pays D C E B 2 each.                  A -4 B 1 C 1 D 1 E 1
 3  box D, capt C [E B A]: D doubles; C takes, E drops (1), B takes, A drops (1); box wins 1:
    C, B pay 2.                                                                         A -5 B -1 C -1 D 7 E 0
 4  box D, capt E [B A C]: D doubles; E drops, B drops (1 each), A takes, C takes -> A captain (first crew
    member in order who took), E to the end: crew [B C E]. A and C redouble to 4: D takes A's, drops C's
    (pays C 2). Team wins 1: D pays A 4.                                                A -1 B -2 C 1 D 3 E -1
 5  box A, capt B [C E D]: A doubles; E drops alone (1); B C D take; box wins a gammon: B C D pay 4.
                                                                                        A 12 B -6 C -3 D -1 E -2
 6  box A, capt C [E D B]: C and E double; A takes C's, drops E's (pays E 1). A redoubles C (4), doubles D and B
    (2): C takes, D drops (1), B takes. Team wins 1: A pays C 4, B 2.                  A 6 B -4 C 1 D -2 E -1
 7  box C, capt E [D B A]: no double, box wins a backgammon: E D B A pay 3.            A 3 B -7 C 13 D -5 E -4
 8  box C, capt D [B A E]: C doubles; everyone drops (1 each): the box wins.           A 2 B -8 C 17 D -6 E -5
 9  box C, capt B [A E D]: the whole team doubles; C drops every cube (pays 1 each): the box loses.
                                                                                        A 3 B -7 C 13 D -5 E -4
10  box B, capt A [E D C]: B doubles; A drops, E drops (1 each), D and C take -> D captain, crew [E C A]. D
    redoubles to 4, B takes; box wins 1: D pays 4, C 2.                                A 2 B 1 C 11 D -9 E -5
11  box B, capt E [C A D]: no double, team wins 1: B pays 1 each.                      A 3 B -3 C 12 D -8 E -4
12  box E, capt C [A D B]: E doubles; A drops (1), C D B take; C and D redouble to 4, E takes both; team wins
    a gammon: E pays C 8, D 8, B 4.                                                     A 2 B 1 C 20 D 0 E -23
After game 12: box C, captain A, crew [D B E].
"""

from __future__ import annotations

import pytest

from core.match.chouette import Chouette, ChouetteError, ChouetteSettings, order_by_dice

ROLLS = {"Ana": [6], "Bruno": [5], "Carla": [4, 2], "Davi": [4, 5], "Eva": [1]}

# (box, captain, crew) at each game's start, and the ledger after it (A, B, C, D, E), computed by hand above.
TABLE = [
    (("Ana", "Bruno", ["Davi", "Carla", "Eva"]), (4, -1, -1, -1, -1)),
    (("Ana", "Davi", ["Carla", "Eva", "Bruno"]), (-4, 1, 1, 1, 1)),
    (("Davi", "Carla", ["Eva", "Bruno", "Ana"]), (-5, -1, -1, 7, 0)),
    (("Davi", "Eva", ["Bruno", "Ana", "Carla"]), (-1, -2, 1, 3, -1)),
    (("Ana", "Bruno", ["Carla", "Eva", "Davi"]), (12, -6, -3, -1, -2)),
    (("Ana", "Carla", ["Eva", "Davi", "Bruno"]), (6, -4, 1, -2, -1)),
    (("Carla", "Eva", ["Davi", "Bruno", "Ana"]), (3, -7, 13, -5, -4)),
    (("Carla", "Davi", ["Bruno", "Ana", "Eva"]), (2, -8, 17, -6, -5)),
    (("Carla", "Bruno", ["Ana", "Eva", "Davi"]), (3, -7, 13, -5, -4)),
    (("Bruno", "Ana", ["Eva", "Davi", "Carla"]), (2, 1, 11, -9, -5)),
    (("Bruno", "Eva", ["Carla", "Ana", "Davi"]), (3, -3, 12, -8, -4)),
    (("Eva", "Carla", ["Ana", "Davi", "Bruno"]), (2, 1, 20, 0, -23)),
]


def game_1(ch: Chouette) -> None:
    ch.end_game(box_wins=True, points=1)


def game_2(ch: Chouette) -> None:
    ch.end_game(box_wins=False, points=2)


def game_3(ch: Chouette) -> None:
    ch.box_doubles()
    ch.answers({"Carla": True, "Eva": False, "Bruno": True, "Ana": False})
    ch.end_game(box_wins=True, points=1)


def game_4(ch: Chouette) -> None:
    ch.box_doubles()
    ch.answers({"Eva": False, "Bruno": False, "Ana": True, "Carla": True})
    assert (ch.captain, ch.crew) == ("Ana", ["Bruno", "Carla", "Eva"])  # R29: the first crew member who took
    assert ch.team_doubles(["Ana", "Carla"]) == ["Ana", "Carla"]
    ch.answers({"Ana": True, "Carla": False})  # the box answers each cube alone
    ch.end_game(box_wins=False, points=1)


def game_5(ch: Chouette) -> None:
    ch.box_doubles()
    ch.answers({"Bruno": True, "Carla": True, "Eva": False, "Davi": True})  # Eva drops alone
    ch.end_game(box_wins=True, points=2)


def game_6(ch: Chouette) -> None:
    ch.team_doubles(["Carla", "Eva"])
    ch.answers({"Carla": True, "Eva": False})
    assert ch.box_doubles() == ["Carla", "Davi", "Bruno"]  # the box's own cube and the centred ones
    ch.answers({"Carla": True, "Davi": False, "Bruno": True})
    ch.end_game(box_wins=False, points=1)


def game_7(ch: Chouette) -> None:
    ch.end_game(box_wins=True, points=3)


def game_8(ch: Chouette) -> None:
    ch.box_doubles()
    ch.answers({"Davi": False, "Bruno": False, "Ana": False, "Eva": False})  # the game ends: the box wins


def game_9(ch: Chouette) -> None:
    ch.team_doubles()
    ch.answers({"Bruno": False, "Ana": False, "Eva": False, "Davi": False})  # the box drops: it loses


def game_10(ch: Chouette) -> None:
    ch.box_doubles()
    ch.answers({"Ana": False, "Eva": False, "Davi": True, "Carla": True})
    assert (ch.captain, ch.crew) == ("Davi", ["Eva", "Carla", "Ana"])
    ch.team_doubles(["Davi"])
    ch.answer("Davi", True)
    ch.end_game(box_wins=True, points=1)


def game_11(ch: Chouette) -> None:
    ch.end_game(box_wins=False, points=1)


def game_12(ch: Chouette) -> None:
    ch.box_doubles()
    ch.answers({"Carla": True, "Ana": False, "Davi": True, "Bruno": True})
    ch.team_doubles(["Carla", "Davi"])
    ch.answers({"Carla": True, "Davi": True})
    ch.end_game(box_wins=False, points=2)


GAMES = [game_1, game_2, game_3, game_4, game_5, game_6, game_7, game_8, game_9, game_10, game_11, game_12]


def test_r26_r29_five_players_twelve_games_match_the_hand_table() -> None:
    ch = Chouette.from_rolls(ROLLS)
    names = ["Ana", "Bruno", "Carla", "Davi", "Eva"]
    for number, (play, (roles, ledger)) in enumerate(zip(GAMES, TABLE, strict=True), start=1):
        assert (ch.box, ch.captain, ch.crew) == roles, f"roles at the start of game {number}"
        play(ch)
        assert tuple(ch.ledger[n] for n in names) == ledger, f"ledger after game {number}"
        assert sum(ch.ledger.values()) == 0
    assert (ch.box, ch.captain, ch.crew) == ("Carla", "Ana", ["Davi", "Bruno", "Eva"])
    assert ch.table()[0] == ("Carla", 20) and ch.table()[-1] == ("Eva", -23)
    assert len(ch.games) == 13 and ch.games[3].captains == ["Eva", "Ana"]
    drops = [p for g in ch.games for p in g.payments if p.why == "drop"]
    assert sum(p.points for p in drops) == 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 4 + 4 + 1 + 1 + 1
    assert all(sum(p.points * ((p.payee == n) - (p.payer == n)) for g in ch.games for p in g.payments) == ch.ledger[n] for n in names)


def test_r26_order_by_one_die_ties_roll_again() -> None:
    with pytest.raises(ChouetteError, match="B, C tie on roll 1: each rolls again"):
        order_by_dice({"A": 2, "B": [5], "C": [5], "D": 6})
    with pytest.raises(ChouetteError, match="B, C tie on roll 1: each rolls again"):
        order_by_dice({"A": 2, "B": [5], "C": [5, 1], "D": 6})
    assert order_by_dice({"A": 2, "B": [5, 6], "C": [5, 1], "D": 6}) == ["D", "B", "C", "A"]
    with pytest.raises(ChouetteError, match="three players or more"):
        order_by_dice({"A": 2, "B": 3})


def test_r29_cube_rules() -> None:
    ch = Chouette(["Box", "Cap", "Crew1", "Crew2"])
    with pytest.raises(ChouetteError, match="no double of Crew1's cube"):
        ch.answer("Crew1", True)
    ch.box_doubles()
    with pytest.raises(ChouetteError, match="waiting for answers from Cap, Crew1, Crew2"):
        ch.end_game(box_wins=True, points=1)
    ch.answers({"Cap": True, "Crew1": True, "Crew2": True})
    with pytest.raises(ChouetteError, match="the box may not double"):
        ch.box_doubles()  # every cube is its member's now
    ch.team_doubles(["Crew2"])
    ch.answer("Crew2", True)
    assert ch.box_doubles() == ["Crew2"]
    with pytest.raises(ChouetteError, match="Crew1 may not double"):
        Chouette(["a", "b", "c"]).team_doubles(["Crew1"])


def test_r27_consult_setting() -> None:
    assert Chouette(["a", "b", "c"]).may_consult()
    assert not Chouette(["a", "b", "c"], ChouetteSettings(consult=False)).may_consult()
