"""The clock on its own (core.referee.clock), from the clock rules' own examples (docs/tournament.md)."""

from __future__ import annotations

import pytest

from core.referee.clock import Clock, ClockError, ClockSettings


def clock(kind: str = "simple", per_point: float = 120, length: int = 1, delay: float = 12) -> Clock:
    return Clock(ClockSettings(per_point=per_point, delay=delay, delay_kind=kind), length)


@pytest.mark.parametrize("kind", ["simple", "bronstein"])
def test_a_delay_that_covers_the_whole_move_charges_nothing(kind: str) -> None:
    # Woolsey, "Clocks in Backgammon": a move made within the 12 s leaves the reserve bank as it was.
    c = clock(kind)
    c.start("light", 100.0)
    c.switch("dark", 111.5)
    assert c.bank["light"] == 120.0 and c.public()["light"] == 120.0


@pytest.mark.parametrize("kind", ["simple", "bronstein"])
def test_bank_after_a_turn_is_the_bank_less_what_the_delay_did_not_cover(kind: str) -> None:
    # The same example: 25 s on a move with a 12 s delay takes 13 s from the bank, whichever the delay kind.
    c = clock(kind, length=11)
    c.start("dark", 0.0)
    c.switch("light", 25.0)
    assert c.bank["dark"] == 11 * 120 - 13
    assert c.running == "light" and c.delay_left() == 12.0


def test_simple_delay_counts_down_before_the_bank() -> None:
    c = clock("simple")
    c.start("light", 0.0)
    c.advance(5.0)
    assert (c.public()["light"], c.public()["delay_left"], c.public()["running"]) == (120.0, 7.0, "light")
    c.advance(20.0)
    assert c.public()["light"] == 112.0 and c.public()["delay_left"] == 0.0


def test_bronstein_counts_the_bank_down_and_gives_the_delay_back() -> None:
    c = clock("bronstein")
    c.start("light", 0.0)
    c.advance(5.0)
    assert c.public()["light"] == 115.0 and c.public()["delay_left"] == 7.0
    c.switch("dark", 5.0)
    assert c.bank["light"] == 120.0


def test_flag_falls_at_bank_plus_delay_simple_and_at_bank_bronstein() -> None:
    simple, bron = clock("simple", per_point=5), clock("bronstein", per_point=5)
    for c in (simple, bron):
        c.start("dark", 0.0)
    assert simple.falls_at() == 17.0 and bron.falls_at() == 5.0
    assert bron.advance(8.0) == ("dark", [])      # 8 s used of a 5 s bank: fallen under Bronstein
    assert simple.advance(8.0)[0] is None           # the simple delay still covers it
    assert simple.advance(17.0)[0] == "dark" and simple.flag_at == 17.0
    assert simple.public()["dark"] == 0.0 and simple.public()["running"] is None
    assert simple.advance(30.0) == (None, [])       # once


def test_warnings_once_each_at_one_minute_and_ten_seconds() -> None:
    c = clock("simple", per_point=70)
    c.start("light", 0.0)
    assert c.next_deadline() == 12 + 10  # 70 s bank + 12 s delay - 60 s
    assert c.advance(21.0) == (None, [])
    assert c.advance(22.5) == (None, [("light", 60.0)])
    assert c.advance(23.0) == (None, [])
    assert c.next_deadline() == 72.0
    assert c.advance(75.0) == (None, [("light", 10.0)])
    c.switch("dark", 76.0)
    c.switch("light", 77.0)
    assert c.advance(80.0) == (None, [])  # not again on the next turn


def test_time_never_runs_backwards() -> None:
    c = clock()
    c.start("light", 50.0)
    c.advance(40.0)
    assert c.used() == 0.0
    c.switch("dark", 45.0)
    assert c.bank["light"] == 120.0 and c.since == 50.0


def test_per_match_wins_over_per_point_and_length_multiplies() -> None:
    assert ClockSettings(per_point=120).bank(7) == 840
    assert ClockSettings(per_point=120, per_match=600).bank(7) == 600
    assert ClockSettings(per_point=120).bank(0) == 120  # money play counts as one point


@pytest.mark.parametrize("value, error", [
    ("fast", '"clock" must be null or an object'),
    ({"delay_kind": "fischer"}, '"clock.delay_kind" must be "simple" or "bronstein"'),
    ({"per_point": None}, '"clock" needs "per_point" or "per_match"'),
    ({"delay": -1}, '"clock.delay" must be from 0'),
    ({"delay": True}, '"clock.delay" must be a number'),
    ({"per_minute": 3}, 'unknown clock setting "per_minute"'),
    ({"flag_fall": "game"}, '"clock.flag_fall" must be "match"'),
])
def test_bad_settings_are_named(value: object, error: str) -> None:
    with pytest.raises(ClockError, match=error.replace("(", r"\(")):
        ClockSettings.parse(value)


def test_defaults_are_the_us_rules() -> None:
    s = ClockSettings.parse({})
    assert s is not None and s.to_json() == {"per_point": 120.0, "per_match": None, "delay": 12.0,
                                             "delay_kind": "simple", "flag_fall": "match"}
    assert ClockSettings.parse(None) is None
