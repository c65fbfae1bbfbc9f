"""The clock in the referee and the named rule sets (core.referee.tournament, core.referee.rulesets; R23).

The clock examples follow the clock rules (docs/tournament.md): a delay that covers the whole move charges
nothing; a cube decision charges the decider; a flag falls while the opponent rolls.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.referee import Referee
from core.referee.events import EventError, parse_event
from core.referee.rulesets import RULE_SETS
from core.rules.position import Position, Side

START = Position.start()
CLOCK = {"per_point": 120, "per_match": None, "delay": 12, "delay_kind": "simple"}


def bd(pos: Position, t: float | None = None) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True, **({"t": t} if t is not None else {})}


def roll(a: int, b: int, t: float) -> dict[str, Any]:
    return {"event": "roll", "dice": [a, b], "t": t}


def press(side: str, t: float) -> dict[str, Any]:
    return {"event": "button", "name": "clock", "side": side, "t": t}


def timed(length: int = 1, clock: dict[str, Any] | None = None, **rules: Any) -> Referee:
    ref = Referee()
    ref.feed({"event": "new_match", "length": length, "t": 0.0,
              "rules": {"clock": clock or CLOCK, "premature_roll": "commit", **rules}})
    return ref


def moved(pos: Position, side: Side, frm: int, to: int) -> Position:
    """One checker of ``side`` moved (own numbering), rules or not, as a hand would."""
    counts = {s: list(pos.own(s)) for s in Side}
    counts[side][frm] -= 1
    counts[side][to] += 1
    return Position((tuple(counts[Side.LIGHT]), tuple(counts[Side.DARK])), pos.turn)


def kinds(verdicts: list[dict[str, Any]]) -> list[str]:
    return [v["verdict"] for v in verdicts]


def opened(ref: Referee) -> Position:
    """Light opens 3-1 at t=1, plays 8/5 6/5 and presses at t=8: dark's time runs from 8."""
    assert kinds(ref.feed(roll(3, 1, 1.0))) == ["opening"]
    pos = START.play((3, 1), "8/5 6/5")
    ref.feed(bd(pos, 5.0))
    assert kinds(ref.feed(press("light", 8.0))) == ["play"]
    return pos


def test_no_clock_is_null_in_the_public_state() -> None:
    ref = Referee()
    ref.feed({"event": "new_match", "length": 3})
    assert ref.public_state()["clock"] is None


def test_clock_stopped_until_the_opening_roll_then_the_starter_runs() -> None:
    ref = timed(length=3)
    assert ref.public_state()["clock"]["running"] is None
    ref.feed(roll(3, 1, 30.0))  # half a minute setting up: nobody's time
    clock = ref.public_state()["clock"]
    assert clock["running"] == "light" and clock["light"] == 360.0 and clock["delay_left"] == 12.0


def test_a_delay_that_covers_the_whole_move_charges_nothing() -> None:
    ref = timed()
    opened(ref)
    clock = ref.public_state()["clock"]
    assert clock["light"] == 120.0 and clock["running"] == "dark" and clock["at"] == 8.0


def test_a_cube_decision_charges_the_decider() -> None:
    ref = timed(length=3)
    opened(ref)
    ref.feed({"event": "cube", "action": "double", "side": "dark", "t": 20.0})   # dark: 12 s, all delay
    assert ref.public_state()["clock"]["running"] == "light"
    ref.feed({"event": "tick", "t": 40.0})
    assert ref.public_state()["clock"]["light"] == 360.0 - 8.0  # light's delay ran out at 32
    ref.feed({"event": "cube", "action": "take", "side": "light", "t": 50.0})
    clock = ref.public_state()["clock"]
    assert clock["light"] == 360.0 - 18.0 and clock["dark"] == 360.0
    assert clock["running"] == "dark" and clock["delay_left"] == 12.0


def test_a_flag_falls_during_the_opponents_roll() -> None:
    # Light finished but forgot the clock; light's bank (5 s + 12 s delay) ran out before dark's roll came.
    ref = timed(clock={**CLOCK, "per_point": 5})
    ref.feed(roll(3, 1, 1.0))
    ref.feed(bd(START.play((3, 1), "8/5 6/5"), 5.0))
    out = ref.feed(roll(6, 4, 19.0))
    assert kinds(out) == ["time_out", "game_over", "match_over"]
    assert out[0]["side"] == "light" and out[0]["winner"] == "dark" and out[0]["flag_at"] == 18.0
    assert out[0]["message"]["en"] == "Flag fall: light is out of time. Dark wins the match."
    st = ref.public_state()
    assert st["phase"] == "match_over" and st["clock"]["light"] == 0.0 and st["clock"]["flag"] == "light"
    assert st["match"]["score"] == {"light": 0, "dark": 1}
    assert kinds(ref.feed(roll(5, 2, 25.0))) == ["reroll"]  # nothing runs after the match


def test_the_opponents_roll_before_the_flag_commits_the_play_and_starts_their_time() -> None:
    ref = timed(clock={**CLOCK, "per_point": 5})
    ref.feed(roll(3, 1, 1.0))
    ref.feed(bd(START.play((3, 1), "8/5 6/5"), 5.0))
    assert kinds(ref.feed(roll(6, 4, 17.5))) == ["play", "roll"]
    clock = ref.public_state()["clock"]
    assert clock["running"] == "dark" and clock["light"] == pytest.approx(0.5)


def test_a_tick_lets_the_flag_fall_with_no_other_event() -> None:
    ref = timed(clock={**CLOCK, "per_point": 5})
    ref.feed(roll(3, 1, 1.0))
    assert ref.tournament.next_deadline() == 18.0
    assert kinds(ref.feed({"event": "tick", "t": 18.0})) == ["time_out", "game_over", "match_over"]


def test_warnings_at_one_minute_and_ten_seconds() -> None:
    ref = timed(clock={**CLOCK, "per_point": 70})
    ref.feed(roll(3, 1, 0.0))
    out = ref.feed({"event": "tick", "t": 22.0})
    assert kinds(out) == ["clock_warning"] and out[0]["side"] == "light" and out[0]["level"] == 60.0
    assert out[0]["message"] == {"pt": "Relógio: as claras têm 1:00 restantes.", "en": "Clock: light has 1:00 left."}
    assert kinds(ref.feed({"event": "tick", "t": 72.5})) == ["clock_warning"]


def test_a_press_on_an_unfinished_play_is_answered_and_the_clock_keeps_running() -> None:
    ref = timed()
    ref.feed(roll(3, 1, 1.0))
    ref.feed(bd(moved(START, Side.LIGHT, 8, 5), 4.0))  # the 1 not played yet
    out = ref.feed(press("light", 6.0))
    assert "clock_press_refused" in kinds(out)
    assert ref.public_state()["clock"]["running"] == "light" and ref.public_state()["phase"] == "moving"
    ref.feed(bd(START.play((3, 1), "8/5 6/5"), 9.0))
    assert kinds(ref.feed(press("light", 20.0))) == ["play"]
    assert ref.public_state()["clock"]["light"] == 120.0 - 7.0  # one turn: 19 s used from the opening roll


def test_a_press_before_rolling_is_refused_and_the_wrong_sides_press_does_nothing() -> None:
    ref = timed()
    opened(ref)
    assert kinds(ref.feed(press("dark", 9.0))) == ["clock_press_refused"]
    assert ref.feed(press("light", 10.0)) == []
    assert ref.public_state()["clock"]["running"] == "dark"


def test_per_side_end_turn_button_is_the_press_in_a_timed_match() -> None:
    ref = timed()
    ref.feed(roll(3, 1, 1.0))
    ref.feed(bd(START.play((3, 1), "8/5 6/5"), 5.0))
    assert ref.feed({"event": "button", "name": "end_turn", "side": "dark", "t": 6.0}) == []  # not dark's turn
    assert kinds(ref.feed({"event": "button", "name": "end_turn", "side": "light", "t": 7.0})) == ["play"]
    assert ref.public_state()["clock"]["running"] == "dark"


def test_a_dance_hands_the_time_straight_back() -> None:
    # R25: a player with no legal play passes at once; the clock goes back to the other side, fresh delay.
    closed = Position(((2, 2, 2, 2, 2, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                       (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 1)), Side.LIGHT)
    ref = timed()
    ref.feed(roll(3, 1, 1.0))
    ref.match_state.pos = closed.with_turn(Side.DARK)
    ref.match_state.turn = Side.DARK
    ref.match_state.phase = "awaiting_roll"
    ref.tournament.clock.switch("dark", 10.0)  # type: ignore[union-attr]
    out = ref.feed(roll(6, 5, 15.0))
    assert kinds(out) == ["roll", "play"] and out[1]["play"] == ""
    clock = ref.public_state()["clock"]
    assert clock["running"] == "light" and clock["delay_left"] == 12.0 and clock["dark"] == 120.0


def test_events_carry_t_checked() -> None:
    with pytest.raises(EventError, match='"t" must be a time in seconds'):
        parse_event({"event": "roll", "dice": [3, 1], "t": "now"}, 0)
    with pytest.raises(EventError, match='"t" must be a time'):
        parse_event({"event": "roll", "dice": [3, 1], "t": -1}, 0)
    with pytest.raises(EventError, match='"side" must be "light" or "dark"'):
        parse_event({"event": "button", "name": "clock"}, 0)
    with pytest.raises(EventError, match=r"\"rules\.clock\.delay_kind\" must be"):
        parse_event({"event": "new_match", "rules": {"clock": {"delay_kind": "x"}}}, 0)


# ----- the named rule sets ---------------------------------------------------------------------------------
def rule_set(name: str, **over: Any) -> Referee:
    ref = Referee()
    ref.feed({"event": "new_match", "length": 3, "t": 0.0, "rules": {"rule_set": name, **over}})
    return ref


ILLEGAL = moved(START, Side.LIGHT, 8, 5).play((3, 1), "6/5") if False else None


def illegal_board() -> Position:
    """Light rolled 3-1 and played 8/4 (a 4 it did not roll) and 6/5."""
    return moved(moved(START, Side.LIGHT, 8, 4), Side.LIGHT, 6, 5)


def test_rule_sets_expand_into_todays_settings_and_the_new_ones() -> None:
    st = rule_set("tournament_usbgf").public_state()
    rules = st["match"]["rules"]
    assert rules["rule_set"] == "tournament_usbgf" and rules["tournament"] is True and rules["coach"] is False
    assert rules["clock"]["per_point"] == 120 and st["clock"]["light"] == 360.0
    assert rule_set("casual").public_state()["clock"] is None
    assert rule_set("tournament_ukbgf", clock=None).public_state()["clock"] is None  # one setting overridden
    with pytest.raises(EventError, match='"rules.rule_set" must be one of casual, tournament_usbgf'):
        parse_event({"event": "new_match", "rules": {"rule_set": "chess"}}, 0)
    for name, settings in RULE_SETS.items():
        assert {"mode", "tournament", "premature_roll", "illegal_play", "point_out", "coach", "clock"} <= set(settings), name


def flagged(name: str) -> tuple[Referee, list[dict[str, Any]]]:
    ref = rule_set(name)
    ref.feed(roll(3, 1, 1.0))
    out = ref.feed(bd(illegal_board(), 4.0))
    out += ref.feed(press("light", 6.0))
    return ref, out


def test_casual_an_illegal_play_stands_when_the_turn_ends() -> None:
    ref, out = flagged("casual")
    plays = [v for v in out if v["verdict"] == "play"]
    assert plays and plays[0]["legal"] is False  # it stands (R23, casual)
    assert all("to" not in v for v in out)       # anyone may point it out: no addressees


def test_usbgf_flags_to_both_players_and_the_director_and_the_opponent_may_accept() -> None:
    ref, out = flagged("tournament_usbgf")
    faults = [v for v in out if v["verdict"] == "illegal"]
    assert faults and faults[-1]["to"] == ["light", "dark", "director"]
    assert faults[-1]["answer_by"] == "dark" and faults[-1]["answers"] == ["accept", "correct"]
    assert "clock_press_refused" in kinds(out) and ref.public_state()["clock"]["running"] == "light"
    out = ref.feed({"event": "illegal_play_answer", "side": "dark", "answer": "accept", "t": 9.0})
    assert kinds(out) == ["illegal_play_answer", "play"]
    assert out[1]["legal"] is False and out[1]["committed_by"] == "illegal_play_answer"
    assert "the opponent accepted it" in out[1]["message"]["en"]
    assert ref.public_state()["clock"]["running"] == "dark"
    assert ref.games[-1]["answers"][0]["answer"] == "accept"
    assert ref.games[-1]["actions"][-1].get("illegal") is True  # the record keeps it


def test_usbgf_rolling_on_a_flagged_play_accepts_it() -> None:
    ref, _ = flagged("tournament_usbgf")
    out = ref.feed(roll(6, 4, 12.0))
    assert kinds(out)[:2] == ["play", "roll"] and out[0]["legal"] is False
    assert ref.games[-1]["answers"][-1]["by"] == "roll" and ref.games[-1]["actions"][0]["accepted_by"] == "dark"
    assert ref.public_state()["clock"]["running"] == "dark"


def test_ukbgf_an_illegal_play_must_be_corrected() -> None:
    ref, out = flagged("tournament_ukbgf")
    assert [v for v in out if v["verdict"] == "illegal"][-1]["answers"] == ["correct"]
    out = ref.feed({"event": "illegal_play_answer", "side": "dark", "answer": "accept", "t": 9.0})
    assert kinds(out) == ["illegal_play_answer"] and out[0]["accepted"] is False
    assert ref.public_state()["phase"] == "moving"
    out = ref.feed(roll(6, 4, 12.0))  # rolling on it does not make it stand: corrected first
    assert "play" not in kinds(out)
    ref.feed({"event": "illegal_play_answer", "side": "dark", "answer": "correct", "t": 13.0})
    ref.feed(bd(START.play((3, 1), "8/5 6/5"), 15.0))
    assert kinds(ref.feed(press("light", 16.0))) == ["play"]
    assert [a["answer"] for a in ref.games[-1]["answers"]] == ["accept", "correct"]


def test_lesson_corrects_and_lets_the_coach_speak_without_a_clock() -> None:
    ref, out = flagged("lesson")
    rules = ref.public_state()["match"]["rules"]
    assert rules["coach"] is True and rules["tournament"] is False and ref.public_state()["clock"] is None
    assert "play" not in kinds(out) and ref.public_state()["phase"] == "moving"
    assert all("to" not in v for v in out)
    assert kinds(ref.feed({"event": "illegal_play_answer", "side": "dark", "answer": "accept"})) == ["illegal_play_answer"]


def test_premature_roll_rejected_in_casual_and_lesson_and_stands_in_tournaments() -> None:
    for name, stands in (("casual", False), ("lesson", False), ("tournament_usbgf", True), ("tournament_ukbgf", True)):
        ref = rule_set(name)
        ref.feed(roll(3, 1, 1.0))
        ref.feed(bd(moved(START, Side.LIGHT, 8, 5), 3.0))  # half played
        out = ref.feed(roll(6, 4, 4.0))
        refused = any(v.get("reason") == "roll_out_of_turn" for v in out)
        assert refused is (not stands), name


def test_the_record_keeps_the_rule_set_the_clock_and_an_accepted_illegal_play() -> None:
    from core.match.formats.mat import read_mat, write_mat
    from core.referee.record import to_match_record

    ref, _ = flagged("tournament_usbgf")
    ref.feed({"event": "illegal_play_answer", "side": "dark", "answer": "accept", "t": 9.0})
    text = write_mat(to_match_record(ref))
    assert '; [RuleSet "tournament_usbgf"]' in text and '; [Clock "120 s a point, 12 s simple delay"]' in text
    record = read_mat(text)
    assert record.headers["RuleSet"] == "tournament_usbgf" and record.length == 3
    action = to_match_record(ref).games[0].actions[0]
    assert action.note == "illegal, accepted by the opponent (R23)"


def test_a_flag_fall_is_recorded_as_the_games_end() -> None:
    from core.match.formats.mat import write_mat
    from core.referee.record import to_match_record

    ref = timed(length=3, clock={**CLOCK, "per_point": 5})
    ref.feed(roll(3, 1, 1.0))
    ref.feed({"event": "tick", "t": 40.0})
    record = to_match_record(ref)
    assert record.games[0].result is not None and record.games[0].result.points == 3
    assert "Wins 3 point" in write_mat(record)
