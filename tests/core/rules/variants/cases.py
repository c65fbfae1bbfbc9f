"""The hand-made case tables' machinery: a case is a position (physical numbering, as ``--position`` JSON),
a roll, the seed sentence it checks (quoted in Portuguese) with its rule number, and what must hold."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from core.errors import InvalidPositionError
from core.rules.position import Side
from core.rules.variants import Settings, VariantPosition, play_from_text


def board(counts: Mapping[int, int]) -> list[int]:
    """24 physical counts from ``{physical point: checkers}``."""
    out = [0] * 24
    for p, n in counts.items():
        out[p - 1] += n
    return out


def phys(cls: type[VariantPosition], side: str, own: int) -> int:
    """The physical point of the side's own point number."""
    return cls.routes[Side(side)][24 - own]


def position(turn: str = "light", light: Mapping[int, int] | None = None, dark: Mapping[int, int] | None = None, **extra: Any) -> dict[str, Any]:
    """A ``--position`` JSON object; checkers not placed are borne off unless ``off`` or ``waiting`` say otherwise."""
    return {"turn": turn, "light": board(light or {}), "dark": board(dark or {}), **extra}


@dataclass
class Case:
    name: str
    seed: str  # the seed sentence, in Portuguese, that the case checks
    rule: str  # R30, R31, R32
    pos: dict[str, Any]
    dice: tuple[int, int] | None = None
    settings: Settings | None = None
    plays: set[str] | None = None  # exactly these results, by play text
    count: int | None = None
    has: list[str] = field(default_factory=list)  # play texts that must be legal
    lacks: list[str] = field(default_factory=list)  # play texts that must not be legal
    after: dict[str, Mapping[str, Any]] = field(default_factory=dict)  # play -> fields of the result's JSON
    check: Callable[[Any], None] | None = None  # extra check on the VariantPlays
    result: tuple[str | None, int] | None | str = "-"  # the position's game result ("-": not checked)
    error: str | None = None  # InvalidPositionError text expected from the JSON
    reroll: bool = False


def run_case(cls: type[VariantPosition], case: Case) -> None:
    assert case.seed.strip() and case.rule in ("R30", "R31", "R32")
    if case.error is not None:
        with pytest.raises(InvalidPositionError) as info:
            cls.from_json(case.pos, case.settings)
        assert case.error in str(info.value)
        assert "\n" not in str(info.value)
        return
    pos = cls.from_json(case.pos, case.settings)
    assert cls.from_json(pos.to_json(), case.settings) == pos
    if case.result != "-":
        res = pos.result()
        got = None if res is None else (None if res[0] is None else res[0].value, res[1])
        assert got == case.result
    if case.dice is None:
        return
    legal = pos.legal_plays(case.dice)
    assert legal.reroll is case.reroll
    texts = {lp.text() for lp in legal}
    assert len(texts) == len(legal)
    if case.plays is not None:
        assert texts == case.plays
    if case.count is not None:
        assert len(legal) == case.count
    for text in case.has:
        assert text in legal, f"{text} should be legal; legal: {sorted(texts)[:20]}"
    for text in case.lacks:
        assert text not in legal, f"{text} should not be legal"
    for text, fields in case.after.items():
        result = pos.parse_play(play_from_text(text), case.dice).result.to_json()
        for key, want in fields.items():
            if key in ("light", "dark") and isinstance(want, Mapping):
                want = board(want)
            assert result[key] == want, f"after {text}: {key} is {result[key]}, expected {want}"
    if case.check is not None:
        case.check(legal)


def ids(cases: list[Case]) -> list[str]:
    return [c.name for c in cases]
