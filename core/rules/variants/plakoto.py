"""Plakoto (R30), the seed's "Plakato": Greek backgammon, press backgammon.

"as 15 peças vermelhas são colocadas na casa 1 das brancas, e as 15 peças brancas na casa 1 das vermelhas":
each side starts with all 15 on its own 24-point and moves as in backgammon (light 24 -> 1, dark 1 -> 24).
"as peças isoladas não são capturadas ... mas sim imobilizadas": a checker landing on a lone opposing checker
pins it; the pinned checker cannot move while its pinner stays; the point is the pinner's (its owner may add
checkers, the other side may not land there); a pinner cannot be pinned. There is no bar.

``extra`` is ``(light's pinned points, dark's pinned points)``, each a frozenset of that side's own point numbers.
Settings where the seed is silent (docs/variants.md): bearing off while a checker of yours is pinned, the mother
(the last checker on the start point) pinned, and whether a gammon counts double.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from core.errors import InvalidPositionError
from core.rules.notation import OFF
from core.rules.position import Side
from core.rules.variants.base import (
    Settings,
    State,
    Step,
    VariantPosition,
    bears_off,
    load_json,
    moved,
    own_counts,
    read_board,
)

MOTHER_RULES = ("loss", "draw_if_both", "none")


@dataclass(frozen=True)
class PlakotoSettings(Settings):
    #: May a side bear off while one of its checkers is pinned? Common Greek rules: no.
    bear_off_while_pinned: bool = False
    #: The mother (a side's last checker on its start point) pinned: "loss" ends the game at once, the pinned
    #: side losing; "draw_if_both": the pinned side may answer by pinning the other mother in its next turn
    #: (a draw), else it loses; "none": play on.
    mother: str = "loss"
    #: Does a gammon (the loser bore off nothing) count double? A lost mother counts as a gammon.
    gammon: bool = True

    def __post_init__(self) -> None:
        if self.mother not in MOTHER_RULES:
            raise ValueError(f"mother: choose one of {', '.join(MOTHER_RULES)}, not {self.mother!r}")


_EMPTY: frozenset[int] = frozenset()


class PlakotoPosition(VariantPosition):
    """R30: all 15 on the side's own 24-point; a lone checker is pinned, not hit."""

    variant = "plakoto"
    rule = "R30"
    settings_class: ClassVar[type[Settings]] = PlakotoSettings
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {Side.LIGHT: {24: 15}, Side.DARK: {24: 15}}
    capture = "pin"
    settings: PlakotoSettings

    @classmethod
    def _default_extra(cls, rel: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
        return (_EMPTY, _EMPTY)

    def pinned(self, side: Side) -> frozenset[int]:
        """The side's pinned checkers, as its own point numbers."""
        return self.extra[Side(side).index]

    def _x(self) -> Any:
        return self.extra[self.turn.index], self.extra[self.turn.other.index]

    def _extra_of(self, x: Any) -> Any:
        mine, theirs = x
        return (mine, theirs) if self.turn is Side.LIGHT else (theirs, mine)

    def _moves(self, state: State, die: int) -> list[tuple[Step, State]]:
        me, opp, (mine, theirs) = state
        cross = self._cross(self.turn)
        out: list[tuple[Step, State]] = []
        bear_off = not any(me[7:26]) and (self.settings.bear_off_while_pinned or not mine)
        for i in range(24, 0, -1):
            if not me[i] or i in mine:
                continue
            t = i - die
            pin = False
            if t >= 1:
                c = cross[t]
                if c in theirs:
                    pass  # our pin's point: ours to add to
                elif t in mine:
                    continue  # their pinner's point (R30: "a casa é considerada como já bloqueada")
                elif opp[c] >= 2:
                    continue
                elif opp[c] == 1:
                    pin = True
            elif bears_off(me, i, t, bear_off):
                t = OFF
            else:
                continue
            me2 = moved(me, i, t)
            theirs2 = theirs
            if pin:
                theirs2 = theirs | {cross[t]}
            if not me2[i] and cross[i] in theirs2:
                theirs2 = theirs2 - {cross[i]}  # the pinner left: the pinned checker is free again
            out.append(((i, t, pin), (me2, opp, (mine, theirs2))))
        return out

    # ----- game results -------------------------------------------------------------------------------------
    def mother_pinned(self, side: Side) -> bool:
        """The side's last checker on its start point (the mother) is pinned."""
        return 24 in self.extra[Side(side).index]

    def result(self) -> tuple[Side | None, int] | None:  # type: ignore[override]
        """(winner, points) or (None, 0) for a draw (both mothers pinned), None while the game goes on."""
        s = self.settings
        gammon = 2 if s.gammon else 1
        if s.mother != "none":
            lm, dm = self.mother_pinned(Side.LIGHT), self.mother_pinned(Side.DARK)
            if lm and dm:
                return None, 0
            for side, pinned in ((Side.LIGHT, lm), (Side.DARK, dm)):
                if pinned and (s.mother == "loss" or self.turn is side.other):
                    return side.other, gammon
        for winner in Side:
            if self._rel[winner.index][OFF] == 15:
                return winner, gammon if self._rel[winner.other.index][OFF] == 0 else 1
        return None

    def is_game_over(self) -> bool:
        return self.result() is not None

    # ----- JSON -----------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        pins = [
            {"point": self.physical_point(side, p), "side": side.value}
            for side in Side
            for p in self.extra[side.index]
        ]
        out["pinned"] = sorted(pins, key=lambda d: (d["point"], d["side"]))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, settings: Settings | None = None) -> PlakotoPosition:
        data = load_json(data)
        turn, points, bar, off = read_board(data, {"pinned"})
        for side in Side:
            if bar[side]:
                raise InvalidPositionError(f"bar.{side.value}: Plakoto has no bar (a lone checker is pinned, not hit; R30)")
        raw = data.get("pinned") or []
        if not isinstance(raw, list):
            raise InvalidPositionError("pinned: expected a list of {\"point\": 1-24, \"side\": \"light\"|\"dark\"}")
        pins: dict[int, Side] = {}
        for k, pin in enumerate(raw):
            field = f"pinned[{k}]"
            if not isinstance(pin, Mapping) or set(pin) != {"point", "side"}:
                raise InvalidPositionError(f"{field}: expected {{\"point\": 1-24, \"side\": \"light\"|\"dark\"}}, got {pin!r}")
            p, s = pin["point"], pin["side"]
            if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= 24:
                raise InvalidPositionError(f"{field}.point: expected a physical point 1-24, got {p!r}")
            if s not in ("light", "dark"):
                raise InvalidPositionError(f"{field}.side: expected \"light\" or \"dark\", got {s!r}")
            side = Side(s)
            if p in pins:
                raise InvalidPositionError(f"{field}: point {p} already has a pinned checker (a pinner cannot be pinned; R30)")
            if points[side][p - 1] != 1:
                raise InvalidPositionError(
                    f"{field}: {side.value} has {points[side][p - 1]} checkers on point {p}; a pinned checker is alone under its pinner"
                )
            if points[side.other][p - 1] < 1:
                raise InvalidPositionError(f"{field}: no {side.other.value} checker on point {p} pins it (a pin under an empty point)")
            pins[p] = side
        for p in range(1, 25):
            if points[Side.LIGHT][p - 1] and points[Side.DARK][p - 1] and p not in pins:
                raise InvalidPositionError(f"light/dark: point {p} holds both colours but no pin is listed in \"pinned\"")
        rel = tuple(own_counts(cls, side, points[side], 0, off[side]) for side in Side)
        extra = tuple(frozenset(cls._own_of_phys(side)[p] for p, s in pins.items() if s is side) for side in Side)
        return cls((rel[0], rel[1]), turn, extra, settings)


__all__ = ["PlakotoPosition", "PlakotoSettings"]
