"""The referee for Plakoto (R30), Russian backgammon (R31) and Jacquet (R32), from boards alone.

Whole random games replayed on exact boards (a board after every die and after every play) give the same
plays and results; each variant's own faults are flagged with their reason codes; hand-made scenarios check
the seed's sentences (quoted from the rules' case tables). bench/bench_referee_variants.py replays 100 games
per variant.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.messages import message
from core.referee import Referee
from core.referee.events import EventError, parse_event
from core.referee.games import VariantTurnModel, game_result
from core.rules.position import Side
from core.rules.variants import (
    JacquetPosition,
    PlakotoPosition,
    PlakotoSettings,
    RussianPosition,
    VariantPosition,
    variant,
)
from tests.core.referee.variant_streams import board_event, game_events, random_game
from tests.core.rules.variants.test_jacquet_cases import MESSENGER, SIX
from tests.core.rules.variants.test_plakoto_cases import PIN, STUCK
from tests.core.rules.variants.test_russian_cases import AGAIN, COMP, FIRST, STOP, TWO

MOTHER = "a mãe"  # the seed is silent on the mother: docs/variants.md's setting, default "loss"
GAMES = 12  # per variant in the default run; bench/bench_referee_variants.py replays 100


def replay(game: Any) -> tuple[Referee, list[dict[str, Any]], list[str]]:
    """Feed a game's stream; returns the referee, its verdicts and what went wrong."""
    ref = Referee()
    verdicts: list[dict[str, Any]] = []
    problems: list[str] = []
    for ev, turn in game_events(game):
        verdicts += ref.feed(ev)
        if ev["event"] == "roll" and turn is not None:
            want = turn.before.with_turn(turn.side) if (turn.boards or turn.reroll) else turn.after
            if ref.match_state.pos != want:
                problems.append(f"seed {game.seed}: before {turn.side.value}'s {turn.dice} the referee has "
                                f"{ref.match_state.pos!r}, the game {want!r}")
                break
    problems += [f"seed {game.seed}: {v['verdict']} {v.get('reason')} {v.get('candidates')}" for v in verdicts
                 if v["verdict"] in ("illegal", "unplayed_die", "uncertain")]
    return ref, verdicts, problems


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_random_games_replayed_on_exact_boards(name: str) -> None:
    """R30-R32: every play of a random game is read from the boards, in the same position, to the same result."""
    cls = variant(name)
    chains = rerolls = ended = 0
    for seed in range(GAMES):
        game = random_game(cls, seed)
        ref, verdicts, problems = replay(game)
        assert not problems, problems[:3]
        chains += sum(1 for v in verdicts if v.get("chain") == "double")
        rerolls += sum(1 for v in verdicts if v.get("reason") == "first_roll_double")
        assert game.final is not None
        res = game_result(game.final)
        over = [v for v in verdicts if v["verdict"] == "game_over"]
        if res is not None:
            ended += 1
            assert len(over) == 1
            assert (over[0]["winner"], over[0]["how"]) == (res[0].value if res[0] else None, res[2])
            assert ref.match_state.games[-1]["result"]["how"] == res[2]
        # the referee's record: one row per play (a Russian chain: one per link), each of the game's dice
        rows = [(r["side"], tuple(r["roll"])) for r in ref.match_state.moves]
        played = [(t.side.value, t.dice) for t in game.turns if not t.reroll]
        assert [r for r in rows if r in played or not r[1][0] == r[1][1]] or not played
    assert ended >= GAMES - 1
    if name == "russian":
        assert chains and rerolls  # the chains of doubles and the first-roll doubles were both exercised


def referee_at(pos: VariantPosition, settings: dict[str, Any] | None = None) -> Referee:
    """A referee in the middle of a game of ``pos``'s variant, its side on roll about to roll."""
    ref = Referee()
    ref.feed({"event": "new_match", "variant": pos.variant, **({"variant_settings": settings} if settings else {})})
    ref.match_state.pos = pos
    ref.match_state.turn = pos.turn
    ref.match_state.phase = "awaiting_roll"
    ref.feed(board_event(pos))
    return ref


def feed_all(ref: Referee, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for ev in events:
        out += ref.feed(ev)
    return out


def moved(pos: VariantPosition, side: str, changes: dict[int, int]) -> dict[str, Any]:
    """The board event of ``pos`` with the side's checkers changed by ``changes`` (physical point -> +/-n)."""
    ev = board_event(pos)
    for p, d in changes.items():
        ev[side][p - 1] += d
    if "waiting" in ev:  # Russian: checkers that came onto the board came from those waiting
        ev["waiting"] = {**ev["waiting"], side: ev["waiting"][side] - sum(changes.values())}
    return ev


def phys(cls: type[VariantPosition], side: str, **extra: Any) -> Any:
    def build(light: dict[int, int], dark: dict[int, int], turn: str = "light") -> Any:
        arr = {"light": [0] * 24, "dark": [0] * 24}
        for s, points in (("light", light), ("dark", dark)):
            for p, n in points.items():
                arr[s][p - 1] = n
        return cls.from_json({"turn": turn, **arr, **extra})
    return build


# ----- Plakoto (R30) -------------------------------------------------------------------------------------------
PINNED = PlakotoPosition.from_json({
    "turn": "light",
    "light": [0] * 9 + [1] + [0] * 13 + [14],
    "dark": [14] + [0] * 8 + [1] + [0] * 14,
    "pinned": [{"point": 10, "side": "light"}]})


def test_plakoto_pinned_checker_cannot_move() -> None:
    """R30, STUCK: a checker under its pinner cannot move; the board showing it moved is refused with the rule."""
    assert STUCK
    ref = referee_at(PINNED)
    out = feed_all(ref, [{"event": "roll", "dice": [6, 3]}, moved(PINNED, "light", {10: -1, 4: 1, 24: -1, 21: 1})])
    faults = [v for v in out if v["verdict"] == "illegal"]
    assert [(v["reason"], v["point"]) for v in faults] == [("pinned_checker_moved", 10)]
    assert "presa" in faults[0]["message"]["pt"] and "Plakoto" in faults[0]["message"]["en"]
    assert "R30" in faults[0]["message"]["en"]


def test_plakoto_pin_and_release() -> None:
    """R30, PIN then STUCK: light lands on dark's lone checker and pins it (the kiosk's state lists the pin);
    dark's pinned checker may not move while the pinner stays; once the pinner leaves it is free again."""
    assert PIN and STUCK
    pos = PlakotoPosition.from_json({"turn": "light", "light": [0] * 12 + [1] + [0] * 10 + [14],
                                     "dark": [14] + [0] * 8 + [1] + [0] * 14})
    ref = referee_at(pos)
    after = next(lp.result for lp in pos.legal_plays((3, 1)) if lp.text() == "24/23 13/10*")
    out = feed_all(ref, [{"event": "roll", "dice": [3, 1]}, board_event(after)])
    assert [v["verdict"] for v in out] == ["roll", "in_progress"] and out[1]["complete"]
    assert ref.public_state()["position"]["pinned"] == [{"point": 10, "side": "dark"}]
    out = ref.feed({"event": "roll", "dice": [4, 2]})
    assert [v["verdict"] for v in out] == ["play", "roll"] and ref.match_state.pos == after.with_turn(Side.DARK)
    assert all(lp.result.own(Side.DARK)[15] == 1 for lp in ref.turn_state.model.legal)  # own 15 = physical 10
    out = ref.feed(moved(after, "dark", {10: -1, 16: 1}))
    # dark's own 15 (physical 10): the mover's numbering, as its plays are written and the screen labels the board
    assert [(v["reason"], v["point"]) for v in out if v["verdict"] == "illegal"] == [("pinned_checker_moved", 15)]
    # the pinner leaves (light 10/4 with the 6): the dark checker is free again
    pos = after.with_turn(Side.LIGHT)
    ref = referee_at(pos)
    free = next(lp.result for lp in pos.legal_plays((6, 1)) if "10/4" in lp.text())
    out = feed_all(ref, [{"event": "roll", "dice": [6, 1]}, board_event(free)])
    assert out[-1]["verdict"] == "in_progress" and out[-1]["complete"]
    assert ref.public_state()["position"]["pinned"] == []


def camera_board(pos: VariantPosition) -> dict[str, Any]:
    """``pos`` as a camera sees it (R30): each pinned checker hidden under its pinner, the borne-off counts
    derived (15 - board - bar), no pin list."""
    ev = board_event(pos)
    for pin in ev.pop("pinned", ()):
        ev[pin["side"]][pin["point"] - 1] -= 1
    for side in ("light", "dark"):
        ev["off"][side] = 15 - sum(ev[side]) - ev["bar"][side]
    return {**ev, "off_seen": False}


def test_plakoto_camera_sees_only_the_pinner() -> None:
    """R30, PIN: "uma peça que para sobre uma peça solitária adversária a prende" -- and a camera sees only the
    pinner on top. The referee knows the pin from the play: the board showing light alone where dark's lone
    checker stood is the pin (not a dark checker gone), the pin stays known on later camera boards, and a
    camera board of the release shows the dark checker again."""
    assert PIN
    pos = PlakotoPosition.from_json({"turn": "light", "light": [0] * 12 + [1] + [0] * 10 + [14],
                                     "dark": [14] + [0] * 8 + [1] + [0] * 14})
    ref = referee_at(pos)
    after = next(lp.result for lp in pos.legal_plays((3, 1)) if lp.text() == "24/23 13/10*")
    seen = camera_board(after)
    assert seen["dark"][9] == 0 and seen["light"][9] == 1 and seen["off"]["dark"] == 1
    out = feed_all(ref, [{"event": "roll", "dice": [3, 1]}, seen])
    assert [v["verdict"] for v in out] == ["roll", "in_progress"] and out[1]["complete"], out
    out = feed_all(ref, [{"event": "roll", "dice": [4, 2]}, camera_board(after.with_turn(Side.DARK))])
    assert [v["verdict"] for v in out][:2] == ["play", "roll"] and ref.match_state.pos == after.with_turn(Side.DARK)
    assert not [v for v in out if v["verdict"] in ("illegal", "uncertain")]
    # dark plays on; its pinned checker stays hidden and is not taken for gone
    dark_play = next(lp for lp in ref.turn_state.model.legal if lp.result.own(Side.DARK)[15] == 1)
    out = ref.feed(camera_board(dark_play.result))
    assert out[-1]["verdict"] == "in_progress" and out[-1]["complete"], out
    # a light checker really taken away (not under a pinner, not from a pile) is still missing
    gone = camera_board(dark_play.result)
    lone = next(i for i, n in enumerate(gone["light"]) if 0 < n < 6)
    gone["light"][lone] -= 1
    gone["off"]["light"] += 1
    out = ref.feed(gone)
    assert [(v["verdict"], v.get("reason")) for v in out] == [("illegal", "checker_missing")], out


def test_plakoto_mother_pinned_ends_the_game() -> None:
    """R30 (setting ``mother``, default "loss"): dark pins light's mother (its last checker on its start
    point): the game ends on that board, dark winning, said as a lost mother."""
    pos = PlakotoPosition.from_json({"turn": "dark", "light": [0, 0, 0, 4, 5, 5] + [0] * 17 + [1],
                                     "dark": [0] * 18 + [13, 2, 0, 0, 0, 0]})
    ref = referee_at(pos)
    lp = next(lp for lp in pos.legal_plays((4, 1)) if lp.result.mother_pinned(Side.LIGHT))
    out = feed_all(ref, [{"event": "roll", "dice": [4, 1]}, board_event(lp.result)])
    over = [v for v in out if v["verdict"] == "game_over"]
    assert over and (over[0]["winner"], over[0]["how"]) == ("dark", "mother")
    assert "mãe presa" in over[0]["message"]["pt"]


def test_plakoto_both_mothers_pinned_is_a_draw() -> None:
    """R30 (setting ``mother`` = "draw_if_both"): a side whose mother is pinned pins the other mother back:
    a draw, no points."""
    pos = PlakotoPosition.from_json({"turn": "light", "light": [0, 0, 1, 0, 0, 13] + [0] * 17 + [1],
                                     "dark": [1] + [0] * 17 + [13] + [0] * 4 + [1],
                                     "pinned": [{"point": 24, "side": "light"}]},
                                    PlakotoSettings(mother="draw_if_both"))
    assert not pos.is_game_over()
    ref = referee_at(pos, {"mother": "draw_if_both"})
    lp = next(lp for lp in pos.legal_plays((2, 1)) if lp.result.mother_pinned(Side.DARK))
    out = feed_all(ref, [{"event": "roll", "dice": [2, 1]}, board_event(lp.result)])
    over = [v for v in out if v["verdict"] == "game_over"]
    assert over and over[0]["how"] == "draw" and over[0]["winner"] is None and over[0]["points"] == 0
    assert ref.match_state.match.score == {Side.LIGHT: 0, Side.DARK: 0}


# ----- Russian backgammon (R31) --------------------------------------------------------------------------------
def test_russian_first_roll_double_is_rolled_again() -> None:
    """R31, FIRST: a double on a side's first roll is not played but rolled again."""
    assert FIRST
    ref = Referee()
    ref.feed({"event": "new_match", "variant": "russian"})
    start = RussianPosition.start()
    lp = start.legal_plays((5, 3))[0]
    out = feed_all(ref, [{"event": "roll", "dice": [5, 3]}, board_event(lp.result)])
    assert out[0]["verdict"] == "opening"
    out = ref.feed({"event": "roll", "dice": [4, 4]})
    assert [(v["verdict"], v.get("reason")) for v in out] == [("play", None), ("reroll", "first_roll_double")]
    assert "R31" in out[-1]["message"]["en"]
    assert ref.match_state.turn is Side.DARK and ref.match_state.phase == "awaiting_roll"
    out = ref.feed({"event": "roll", "dice": [2, 1]})
    assert [v["verdict"] for v in out] == ["roll"]


def test_russian_two_checkers_entered_first() -> None:
    """R31, TWO: with one checker entered, it may not move on before a second one enters."""
    assert TWO
    pos = RussianPosition.from_json({"turn": "light", "light": [0] * 21 + [1, 0, 0], "dark": [0] * 24,
                                     "waiting": {"light": 14, "dark": 15}})
    ref = referee_at(pos)
    out = feed_all(ref, [{"event": "roll", "dice": [5, 3]}, moved(pos, "light", {22: -1, 14: 1})])
    faults = [v for v in out if v["verdict"] == "illegal"]
    assert [(v["reason"], v["point"]) for v in faults] == [("enter_two_first", 22)]
    assert "duas peças" in faults[0]["message"]["pt"] or "2 peças" in faults[0]["message"]["pt"]
    # entering one with the 5 makes two: then the other may move with the 3 (a legal play)
    lp = next(lp for lp in pos.legal_plays((5, 3)) if lp.text() in ("in/20 22/19", "22/19 in/20"))
    out = ref.feed(board_event(lp.result))
    assert [v["verdict"] for v in out] == ["in_progress"] and out[0]["complete"]


def test_russian_a_first_checker_entered_and_moved_on() -> None:
    """R31, TWO: a player's first checker enters with one die and moves on with the other: refused (the board
    shows it further in than any die enters)."""
    ref = Referee()
    ref.feed({"event": "new_match", "variant": "russian"})
    start = RussianPosition.start()
    first = start.legal_plays((5, 3))[0]
    feed_all(ref, [{"event": "roll", "dice": [5, 3]}, board_event(first.result)])
    out = feed_all(ref, [{"event": "roll", "dice": [6, 2]}, moved(first.result, "dark", {17: 1})])
    faults = [v for v in out if v["verdict"] == "illegal"]
    assert [(v["reason"], v["point"]) for v in faults] == [("enter_two_first", 17)]


def _chain_turn(stop: bool) -> Any:
    """A turn of a random Russian game that plays a double: one whose chain stops in the complementary double
    (``stop``), or one played in full."""
    for seed in range(60):
        game = random_game(RussianPosition, seed)
        for k, turn in enumerate(game.turns):
            n = len(turn.boards)
            if turn.dice[0] == turn.dice[1] and (4 < n < 8 if stop else n == 8) and k + 1 < len(game.turns):
                return turn, game.turns[k + 1]
    raise AssertionError("no such turn in 60 games")


def test_russian_chain_stops_halfway_through_the_complement() -> None:
    """R31, COMP and STOP: the double four times, then the complementary double without a roll; a die that
    cannot be played ends the chain and the turn passes. The kiosk's state says where in the chain it is."""
    assert COMP and STOP
    turn, nxt = _chain_turn(stop=True)
    ref = referee_at(turn.before)
    n = turn.dice[0]
    out = feed_all(ref, [{"event": "roll", "dice": list(turn.dice)}] + [board_event(b) for b in turn.boards[:4]])
    link = [v for v in out if v.get("chain") == "double"]
    assert link and link[0]["next_dice"] == [7 - n, 7 - n]
    assert "R31" in link[0]["message"]["en"]
    chain = ref.public_state()["chain"]
    assert chain == {"link": "complement", "dice": [7 - n, 7 - n], "played": [[n, n]]}
    assert isinstance(ref.turn_state.model, VariantTurnModel)
    out = feed_all(ref, [board_event(b) for b in turn.boards[4:]])
    assert [v["verdict"] for v in out] == ["in_progress"] * (len(turn.boards) - 4)
    assert out[-1]["complete"]
    out = ref.feed({"event": "roll", "dice": list(nxt.dice)})
    plays = [v for v in out if v["verdict"] == "play"]
    assert plays[0]["dice"] == [7 - n, 7 - n] and plays[0]["side"] == turn.side.value
    assert ref.match_state.turn is turn.side.other  # the chain stopped: the other side rolled
    assert ref.match_state.pos.with_turn(turn.after.turn) == turn.after or ref.match_state.phase == "moving"


def test_russian_complete_chain_rolls_again() -> None:
    """R31, AGAIN: after the double and the complementary double played in full the same player rolls again."""
    assert AGAIN
    turn, nxt = _chain_turn(stop=False)
    assert nxt.side is turn.side
    ref = referee_at(turn.before)
    out = feed_all(ref, [{"event": "roll", "dice": list(turn.dice)}] + [board_event(b) for b in turn.boards])
    assert sum(1 for v in out if v.get("chain") == "double") == 1
    ref.feed({"event": "button", "name": "end_turn"})
    n = turn.dice[0]
    assert ref.public_state()["chain"] == {"link": "roll", "dice": [], "played": [[n, n], [7 - n, 7 - n]]}
    out = ref.feed({"event": "roll", "dice": list(nxt.dice)})
    assert [v["verdict"] for v in out][0] == "roll"
    assert out[0]["side"] == turn.side.value


# ----- Jacquet (R32) ---------------------------------------------------------------------------------------------
def test_jacquet_messenger_moves_alone() -> None:
    """R32, MESSENGER: until the messenger reaches the last quarter only it moves; a second checker leaving
    the start point is refused with the rule."""
    assert MESSENGER
    ref = Referee()
    ref.feed({"event": "new_match", "variant": "jacquet"})
    start = JacquetPosition.start(Side.LIGHT)
    ref.feed(board_event(start))
    first = start.legal_plays((6, 5))[0]
    feed_all(ref, [{"event": "roll", "dice": [6, 5]}, board_event(first.result)])
    reply = first.result.legal_plays((3, 1))[0]
    feed_all(ref, [{"event": "roll", "dice": [3, 1]}, board_event(reply.result)])
    out = feed_all(ref, [{"event": "roll", "dice": [4, 2]}, moved(reply.result, "light", {13: -2, 17: 1, 15: 1})])
    faults = [v for v in out if v["verdict"] == "illegal"]
    # light's own 24 (physical 13): the mover's numbering, as its plays are written and the screen labels the board
    assert [(v["reason"], v["point"]) for v in faults] == [("messenger_not_arrived", 24)]
    assert "mensageiro" in faults[0]["message"]["pt"] and "R32" in faults[0]["message"]["en"]


def _jacquet_run(hold_last_two: bool) -> Any:
    """Light (route physical 13..24 then 1..12; own n is physical route[24 - n]) holds its own 22..18
    (physical 15-19) and its start point, own 24 (physical 13); its messenger has arrived (own 6, physical 7)."""
    light = {13: 7 if hold_last_two else 9, 15: 1, 16: 1, 17: 1, 18: 1, 19: 1, 7: 1}
    if hold_last_two:
        light.update({12: 1, 11: 1})  # own 1 and 2: the last two points of the route
    return phys(JacquetPosition, "light")(light, {1: 15})


def test_jacquet_six_point_block_refused_then_allowed() -> None:
    """R32, SIX: six points in a row only for a player already holding the last two points of the route:
    refused without them (the referee names the rule), a legal play with them."""
    assert SIX
    pos = _jacquet_run(False)
    ref = referee_at(pos)
    out = feed_all(ref, [{"event": "roll", "dice": [1, 3]}, moved(pos, "light", {13: -2, 14: 1, 16: 1})])
    faults = [v for v in out if v["verdict"] == "illegal"]
    assert [(v["reason"], v["point"]) for v in faults] == [("six_block_not_allowed", 23)]  # own 23 = physical 14
    assert "seis" in faults[0]["message"]["pt"]
    pos = _jacquet_run(True)
    ref = referee_at(pos)
    out = feed_all(ref, [{"event": "roll", "dice": [1, 3]}, moved(pos, "light", {13: -2, 14: 1, 16: 1})])
    assert [v["verdict"] for v in out] == ["roll", "in_progress"] and out[1]["complete"]


# ----- the match's declaration and the kiosk's state -----------------------------------------------------------
def test_new_match_declares_the_variant() -> None:
    ev = parse_event({"event": "new_match", "variant": "plakoto", "variant_settings": {"mother": "draw_if_both"}})
    assert ev["rules"]["variant"] == "plakoto" and ev["rules"]["variant_settings"]["mother"] == "draw_if_both"
    assert parse_event({"event": "new_match", "variant": "backgammon"})["rules"].get("variant") is None
    for bad, words in (({"variant": "chess"}, '"variant" must be one of'),
                       ({"variant": "plakoto", "variant_settings": {"pins": 1}}, "variant_settings.pins"),
                       ({"variant": "russian", "variant_settings": {"roll_again": "yes"}}, "true or false"),
                       ({"variant": "plakoto", "variant_settings": {"mother": "maybe"}}, "mother"),
                       ({"variant_settings": {}}, "without")):
        with pytest.raises(EventError, match=words):
            parse_event({"event": "new_match", **bad}, 0)
    with pytest.raises(EventError, match="pinned"):
        parse_event({"event": "board", "light": [0] * 24, "dark": [0] * 24, "pinned": [{"point": 30, "side": "light"}]})
    with pytest.raises(EventError, match="waiting"):
        parse_event({"event": "board", "light": [1] + [0] * 23, "dark": [0] * 24, "waiting": {"light": 15}})


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_public_state_names_the_variant(name: str) -> None:
    ref = Referee()
    ref.feed({"event": "new_match", "variant": name})
    state = ref.public_state()
    assert state["variant"]["name"] == name and state["variant"]["rule"] in ("R30", "R31", "R32")
    field = {"plakoto": "pinned", "russian": "waiting", "jacquet": "messenger"}[name]
    assert field in state["position"]
    assert ("chain" in state) is (name == "russian")


def test_standard_public_state_unchanged() -> None:
    state = Referee().public_state()
    assert "variant" not in state and "chain" not in state


@pytest.mark.parametrize("code", ["pinned_checker_moved", "messenger_not_arrived", "six_block_not_allowed",
                                  "enter_two_first", "first_roll_double"])
def test_variant_messages_name_the_rule(code: str) -> None:
    text = message(code, side="light", point=10, dice=[6, 3], n=2)
    assert any(r in text["en"] for r in ("R30", "R31", "R32")) and text["pt"] != text["en"]
    assert "{" not in text["pt"] + text["en"]


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_variant_faults_in_random_positions(name: str) -> None:
    """R30-R32: in positions of random games where the variant's rule can be broken (a pinned checker, a side
    that has entered no checker yet, a messenger still on its way), a board breaking it is refused with the
    variant's reason code, and the right board after it is read as the play in progress."""
    from kiosk.demo_script import VARIANT_FAULTS, variant_fault

    cls = variant(name)
    checked = 0
    for seed in range(40):
        game = random_game(cls, seed)
        for turn in game.turns:
            wrong = variant_fault(turn)
            if wrong is None:
                continue
            ref = referee_at(turn.before)
            out = feed_all(ref, [{"event": "roll", "dice": list(turn.dice)}, wrong])
            faults = [(v["verdict"], v.get("reason")) for v in out if v["verdict"] != "roll"]
            assert faults == [("illegal", VARIANT_FAULTS[name][0])], (seed, turn.dice, wrong)
            out = ref.feed(board_event(turn.boards[0]))
            assert [v["verdict"] for v in out] in (["in_progress"], ["in_progress", "play"], ["play"]), (seed, out)
            checked += 1
            if checked >= 25:
                return
    assert checked >= 10


@pytest.mark.parametrize("stop", [False, True])
def test_russian_double_and_complement_seen_in_one_board(stop: bool) -> None:
    """R31, COMP (and STOP): the camera saw no still board between the double and its complement: the board
    after the whole chain is read as the double (recorded) and the complement played on from it."""
    turn, nxt = _chain_turn(stop=stop)
    ref = referee_at(turn.before)
    n = turn.dice[0]
    out = feed_all(ref, [{"event": "roll", "dice": list(turn.dice)}, board_event(turn.boards[-1])])
    assert [v["verdict"] for v in out if v["verdict"] in ("illegal", "unplayed_die", "uncertain")] == []
    assert [v.get("chain") for v in out if v["verdict"] == "play"] == ["double"]
    assert out[-1]["verdict"] == "in_progress" and out[-1]["complete"] and out[-1]["dice"] == [7 - n, 7 - n]
    ref.feed({"event": "button", "name": "end_turn"})
    assert ref.match_state.pos == turn.after
