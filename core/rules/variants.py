"""Variants as subclasses that override class-level facts (start position, routes, landing rules).

The generator in ``core.rules.movegen`` works on each side's own numbering with a cross table derived from the
routes, so a variant with other routes needs no change there. Their own special rules (Plakoto's pinning,
Russian doubles chains, Jacquet's messenger and six-prime limit) are not implemented yet: asking one of them
for legal plays says so instead of answering with the standard game's rules.

Physical points are numbered as light counts them (light = the seeds' white, dark = red). The seed's
"white's casa n" is physical n; "red's casa n" is physical 25 - n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from core.errors import GamaoError
from core.rules.position import LegalPlays, Position, Side


class VariantRulesNotImplemented(GamaoError, NotImplementedError):
    """The variant's board is modelled but its special rules are not."""


class _PendingRules(Position):
    rule: ClassVar[str] = ""

    def legal_plays(self, dice: Sequence[int]) -> LegalPlays:
        raise VariantRulesNotImplemented(
            f"legal plays for {self.variant} are not implemented yet ({self.rule} of ../shared/RULES.md); "
            "the board, start position and routes are"
        )


class PlakotoPosition(_PendingRules):
    """R30: all 15 on the side's own 24-point; a blot is pinned, not hit."""

    variant = "plakoto"
    rule = "R30"
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {Side.LIGHT: {24: 15}, Side.DARK: {24: 15}}
    capture = "pin"


class RussianPosition(_PendingRules):
    """R31: all checkers start off the board (waiting at the entry), both sides enter through the same home
    board and move the same way round."""

    variant = "russian"
    rule = "R31"
    routes: ClassVar[Mapping[Side, tuple[int, ...]]] = {
        Side.LIGHT: tuple(range(24, 0, -1)),
        Side.DARK: tuple(range(24, 0, -1)),
    }
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {Side.LIGHT: {25: 15}, Side.DARK: {25: 15}}


class JacquetPosition(_PendingRules):
    """R32: dark (red) starts with 15 on white's 1-point, light (white) with 15 on red's 12-point; both
    move anticlockwise; one checker holds a point."""

    variant = "jacquet"
    rule = "R32"
    routes: ClassVar[Mapping[Side, tuple[int, ...]]] = {
        # Light starts on red's casa 12 (physical 13), runs 13..24 then 1..12 and bears off from its 12.
        Side.LIGHT: (*range(13, 25), *range(1, 13)),
        Side.DARK: tuple(range(1, 25)),
    }
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {Side.LIGHT: {24: 15}, Side.DARK: {24: 15}}
    block_at = 1
    capture = None


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


def variant(name: str) -> type[Position]:
    """Find a variant class by name (``standard``, ``plakoto``, ``russian``, ``jacquet``)."""
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None
