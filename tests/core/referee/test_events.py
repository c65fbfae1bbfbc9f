"""The event format: every kind parsed, defaults filled, bad events named by index and field."""

from __future__ import annotations

import pytest

from core.referee.events import EventError, dumps, parse_event, parse_line, read_lines, write_lines
from core.rules.position import Position


def board() -> dict:
    return {"event": "board", **Position.start().to_dict(), "stable": True}


def test_every_kind_parses_and_round_trips() -> None:
    events = [
        {"event": "new_match", "length": 7, "players": {"light": "Ana", "dark": "Bruno"},
         "rules": {"crawford": True, "mode": "strict"}},
        {"event": "roll", "dice": [5, 2], "cocked": [False, False], "seq": 7},
        board(),
        {"event": "cube", "action": "double", "side": "light"},
        {"event": "resign", "side": "dark", "value": 2},
        {"event": "resign_reply", "accept": True},
        {"event": "button", "name": "end_turn"},
    ]
    parsed = [parse_event(e, i) for i, e in enumerate(events)]
    assert parsed[0]["rules"]["mode"] == "strict"
    assert parsed[0]["rules"]["jacoby"] is False  # defaults filled in
    assert parsed[1]["seq"] == 7  # extra keys (the dice bridge's seq) are kept
    text = write_lines(parsed)
    assert list(read_lines(text.splitlines())) == parsed


def test_roll_defaults_cocked() -> None:
    assert parse_event({"event": "roll", "dice": [6, 6]})["cocked"] == [False, False]


@pytest.mark.parametrize(("event", "error"), [
    ({"event": "roll", "dice": [5, 9]}, 'event 4: "dice" must be two numbers from 1 to 6, got [5, 9]'),
    ({"event": "roll", "dice": [5]}, 'event 4: "dice" must be two numbers from 1 to 6, got [5]'),
    ({"event": "teleport"}, 'event 4: unknown event kind "teleport" (known: new_match, roll, board, cube, '
                            'resign, resign_reply, button, tick, illegal_play_answer, touch_move)'),
    ({"dice": [1, 2]}, 'event 4: missing "event" (one of: new_match, roll, board, cube, resign, resign_reply, button, tick, illegal_play_answer, touch_move)'),
    ({"event": "cube", "action": "redouble", "side": "light"},
     'event 4: "action" must be one of double, take, drop, beaver, raccoon, got "redouble"'),
    ({"event": "cube", "action": "take", "side": "white"}, 'event 4: "side" must be "light" or "dark", got "white"'),
    ({"event": "button", "name": "panic"},
     'event 4: unknown button "panic" (known: end_turn, undo, ack_cocked, double, take, drop, new_game, clock)'),
    ({"event": "resign", "side": "dark", "value": 4},
     'event 4: "value" must be 1 (single), 2 (gammon) or 3 (backgammon), got 4'),
    ({"event": "new_match", "length": -1}, 'event 4: "length" must be the match length in points (0 = money play), got -1'),
    ({"event": "new_match", "length": 5, "rules": {"mode": "lenient"}},
     'event 4: "rules.mode" must be "casual" or "strict", got "lenient"'),
    ({"event": "new_match", "length": 5, "rules": {"doubling": True}},
     'event 4: unknown rule "doubling" (known: crawford, jacoby, beavers, holland, cube_cap, mode, tournament, premature_roll, rule_set, illegal_play, point_out, coach, clock, touch_move, steps, forgotten_checker, bar_first)'),
    ("roll 5 2", "event 4: an event must be a JSON object, got str"),
])
def test_bad_events_are_named(event: object, error: str) -> None:
    with pytest.raises(EventError) as exc:
        parse_event(event, 4)
    assert str(exc.value) == error
    assert exc.value.index == 4


def test_board_fields_checked() -> None:
    ev = board()
    ev["light"] = ev["light"][:23]
    with pytest.raises(EventError, match=r'^event 2: "light" must be a list of 24 checker counts'):
        parse_event(ev, 2)
    ev = board()
    ev["dark"][5] = -1
    with pytest.raises(EventError) as exc:
        parse_event(ev, 2)
    assert str(exc.value) == 'event 2: "dark"[5] (point 6) must be a count from 0 to 15, got -1'
    ev = board()
    ev["bar"] = {"light": "one"}
    with pytest.raises(EventError) as exc:
        parse_event(ev, 2)
    assert str(exc.value) == 'event 2: "bar.light" must be a count from 0 to 15, got "one"'


def test_uncertainty_tables() -> None:
    ev = board()
    table = [{} for _ in range(24)]
    table[5] = {"5": 0.6, "6": 0.4}
    ev["uncertainty"] = {"light": table}
    parsed = parse_event(ev, 0)
    assert parsed["uncertainty"]["light"][5] == {5: 0.6, 6: 0.4}
    table[5] = {"6": 1.5}
    with pytest.raises(EventError) as exc:
        parse_event(ev, 0)
    assert str(exc.value) == 'event 0: "uncertainty.light"[5] (point 6) probability for 6 must be from 0 to 1, got 1.5'


def test_read_lines_names_the_line() -> None:
    lines = ['{"event": "roll", "dice": [3, 1]}', "", "# a comment", '{"event": "roll", "dice": [3, 1]', ]
    with pytest.raises(EventError) as exc:
        list(read_lines(lines))
    assert str(exc.value) == "event 1: line 4: not valid JSON (Expecting ',' delimiter at column 33)"


def test_dumps_is_one_line() -> None:
    ev = parse_line('{"event": "button", "name": "undo"}')
    assert dumps(ev) == '{"event": "button", "name": "undo"}'


def test_an_event_is_checked_once_on_its_way_to_the_referee(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.referee import Referee, machine

    calls: list[object] = []
    real = machine.parse_event

    def counting(obj: object, index: int | None = None) -> dict:
        calls.append(obj)
        return real(obj, index)

    monkeypatch.setattr(machine, "parse_event", counting)
    ref = Referee()
    checked = list(read_lines(['{"event": "new_match", "length": 3}', '{"event": "roll", "dice": [3, 1]}']))
    assert [v["verdict"] for e in checked for v in ref.feed(e)] == ["opening"]
    assert calls == []  # read_lines checked them: the referee takes them as they are
    ref.feed({"event": "board", **Position.start().play((3, 1), "8/5 6/5").to_dict()})
    assert len(calls) == 1  # a plain dict is checked by the referee
    with pytest.raises(EventError, match=r'^event 3: "dice" must be two numbers from 1 to 6, got \[9, 1\]$'):
        ref.feed({"event": "roll", "dice": [9, 1]})
    assert ref.index == 3  # a malformed event is refused before it counts
