"""Variants as subclasses of ``Position`` found by name: the standard game, Nackgammon and the seeds' three
other games, Plakoto (R30), Russian backgammon (R31) and Jacquet (R32), one module each.

Physical points are numbered as light counts them (light = the seeds' white, dark = red). The seed's
"white's casa n" is physical n; "red's casa n" is physical 25 - n. Each variant's routes, settings and
position format are in docs/variants.md and docs/CONTRACTS.md.

>>> sorted(lp.text() for lp in variant("plakoto").start().legal_plays((6, 5)))
['24/18/13', '24/19 24/18']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from core.errors import InvalidPositionError
from core.rules.position import Position, Side
from core.rules.variants.base import (
    WAITING,
    Settings,
    VariantPlay,
    VariantPlays,
    VariantPosition,
    load_json,
    play_from_text,
    play_text,
    read_board,
)
from core.rules.variants.jacquet import JacquetPosition, JacquetSettings
from core.rules.variants.plakoto import PlakotoPosition, PlakotoSettings
from core.rules.variants.russian import RussianPosition, RussianSettings


class NackgammonPosition(Position):
    """Nackgammon (gnubg's ``NackGammon`` variation): standard rules from 24:2, 23:2, 13:4, 8:3, 6:4."""

    variant = "nackgammon"
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {
        Side.LIGHT: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
        Side.DARK: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    }


VARIANTS: dict[str, type[Position]] = {
    cls.variant: cls for cls in (Position, NackgammonPosition, PlakotoPosition, RussianPosition, JacquetPosition)
}

#: Other names a variant is asked for by (``gamao plays --variant backgammon``).
ALIASES = {"backgammon": "standard", "plakato": "plakoto", "tavli": "plakoto", "russo": "russian"}


def variant(name: str) -> type[Position]:
    """Find a variant class by name (``standard`` or ``backgammon``, ``nackgammon``, ``plakoto``, ``russian``,
    ``jacquet``)."""
    key = name.lower()
    try:
        return VARIANTS[ALIASES.get(key, key)]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None


def position_from_json(cls: type[Position], data: Mapping[str, Any] | str, settings: Settings | None = None) -> Position:
    """Read a ``--position`` JSON object for any variant (the standard game: the board-event layout plus turn)."""
    if issubclass(cls, VariantPosition):
        return cls.from_json(data, settings)
    raw = load_json(data)
    turn, points, bar, off = read_board(raw, set())
    try:
        return cls.from_physical(
            points[Side.LIGHT], points[Side.DARK], {s.value: bar[s] for s in Side}, {s.value: off[s] for s in Side}, turn
        )
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"light/dark: {exc}") from None


def position_to_json(pos: Position) -> dict[str, Any]:
    """The ``--position`` JSON of a position of any variant."""
    if isinstance(pos, VariantPosition):
        return pos.to_json()
    return {"turn": pos.turn.value, **pos.to_dict()}


__all__ = [
    "ALIASES", "VARIANTS", "WAITING", "JacquetPosition", "JacquetSettings", "NackgammonPosition", "PlakotoPosition",
    "PlakotoSettings", "RussianPosition", "RussianSettings", "Settings", "VariantPlay", "VariantPlays",
    "VariantPosition", "play_from_text", "play_text", "position_from_json",
    "position_to_json", "variant",
]
