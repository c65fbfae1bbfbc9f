"""One explanation of an illegal play (core.rules.explain): the same play typed in a file (Position.parse_play)
and seen on the board (the referee's faults) gets the same reason code and the same words (R04-R10)."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import IllegalPlayError
from core.messages import REASONS, message
from core.referee import Referee
from core.rules.notation import Play
from core.rules.position import Position, Side

START = Position.start()


def _own(light: dict[int, int], dark: dict[int, int] | None = None) -> Position:
    """Light on roll; each side's own points -> checkers, the rest borne off (dark at the start if not given)."""
    rel = []
    for layout in (light, dark or {24: 2, 13: 5, 8: 3, 6: 5}):
        counts = [0] * 26
        for point, n in layout.items():
            counts[point] = n
        counts[0] = 15 - sum(counts)
        rel.append(tuple(counts))
    return Position((rel[0], rel[1]), Side.LIGHT)


ON_THE_BAR = _own({25: 1, 24: 1, 13: 5, 8: 3, 6: 5})
ONE_OUTSIDE = _own({8: 1, 6: 4, 5: 4, 4: 3, 3: 2, 2: 1})

CASES = [  # position, dice, play as written, the reason both must give
    (START, (5, 5), "24/19", "closed_point"),  # R05
    (START, (6, 5), "13/9", "wrong_distance"),  # R04
    (START, (6, 5), "13/7 13/9", "wrong_distance"),  # R04, the second move
    (START, (3, 1), "8/5", "unplayed_die"),  # R09: a fault once committed
    (ON_THE_BAR, (5, 3), "13/8 13/10", "bar_first"),  # R07
    (ONE_OUTSIDE, (6, 1), "6/off 8/7", "bear_off_too_early"),  # R10
]


def typed(pos: Position, dice: tuple[int, int], text: str) -> tuple[str | None, dict[str, Any]]:
    with pytest.raises(IllegalPlayError) as err:
        pos.play(dice, text)
    return err.value.reason, err.value.params


def seen(pos: Position, dice: tuple[int, int], text: str) -> dict[str, Any]:
    """The referee's verdict on the board the play leaves (committed if need be)."""
    me = list(pos.own(pos.turn))
    for mv in Play.from_text(text).moves:
        me[mv.frm] -= 1
        me[mv.to] += 1
    board = Position((tuple(me), pos.own(Side.DARK)), Side.DARK)
    ref = Referee()
    ref.pos, ref.turn, ref.phase = pos, pos.turn, "awaiting_roll"
    assert [v["verdict"] for v in ref.feed({"event": "roll", "dice": list(dice)})] == ["roll"]
    out = ref.feed({"event": "board", **board.to_dict(), "stable": True})
    faults = [v for v in out if v["verdict"] in ("illegal", "unplayed_die")]
    if not faults:
        # Unfinished, not wrong, until it is committed (R23): the end-turn button.
        out = ref.feed({"event": "button", "name": "end_turn"})
        faults = [v for v in out if v["verdict"] in ("illegal", "unplayed_die")]
    assert len(faults) == 1, out
    return faults[0]


@pytest.mark.parametrize(("pos", "dice", "text", "reason"), CASES, ids=[c[2] for c in CASES])
def test_the_same_play_typed_and_seen_gets_the_same_reason_and_words(pos: Position, dice: tuple[int, int],
                                                                       text: str, reason: str) -> None:
    code, params = typed(pos, dice, text)
    verdict = seen(pos, dice, text)
    assert code == verdict["reason"] == reason and code in REASONS
    assert message(code, **params) == verdict["message"]


def test_the_error_line_keeps_naming_the_rule() -> None:
    with pytest.raises(IllegalPlayError) as err:
        ON_THE_BAR.play((5, 3), "13/8 13/10")
    assert str(err.value).endswith(": a checker moves while one waits on the bar; enter it first (R07)")
    with pytest.raises(IllegalPlayError) as err:
        START.play((6, 5), "13/9")
    assert str(err.value).endswith(": 13/9 moves 4 pips, which no die of 65 gives (R04)")
    assert err.value.reason == "wrong_distance" and err.value.params["count"] == 4
