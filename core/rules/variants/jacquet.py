"""Jacquet (R32).

"as 15 peças vermelhas são colocadas na casa 1 das brancas, e as 15 peças brancas na casa 12 das vermelhas":
dark (red) starts on physical 1, light (white) on physical 13. "o movimento das peças, tanto brancas como
vermelhas, faz-se no sentido ... anti-horário": dark travels physical 1 -> 24 and bears off from red's casa 1
(physical 24); light travels 13 -> 24, then 1 -> 12 and bears off from white's casa 12 (physical 12).

The messenger ("postilhão" or "mensageiro"): "cada jogador movimenta apenas uma de suas peças ... até atingir a
última parte do seu percurso": until one checker has reached the last quarter of the route (own points 1-6:
physical 7-12 for light, 19-24 for dark), only that checker moves. The first checker to leave the start point
is the messenger; once it arrives, every checker may move, the rest of that roll included. ``extra`` is the
arrival flags ``(light, dark)``: without hitting (the seed) a side's messenger has arrived exactly when the side has
a checker in its last quarter or off; with the hitting setting an arrived messenger may be hit back to the bar,
and the flag stays.

"considera-se que uma casa está bloqueada ... quando estiver ocupada por uma ou mais peças de um jogador": one
checker holds a point; "nesse jogo não há captura ou imobilização". "Só é permitida a ocupação de 6 ou mais casas
consecutivas ao jogador que já houver ocupado a penúltima e a última casas do seu percurso": a step that makes a
run of six or more consecutive held points is legal only when the mover already (before that step) holds its own
points 2 and 1. One die when only one can be played (R09, the larger when either can); bear-off as in backgammon
once all 15 are in the last quarter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from core.errors import InvalidPositionError
from core.rules.notation import BAR, OFF
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
    read_side_map,
    sent_to_bar,
)

#: Own points of each quarter of a route: 1 = the start quarter (24..19) ... 4 = the last quarter (6..1).
QUARTERS = {1: range(19, 25), 2: range(13, 19), 3: range(7, 13), 4: range(1, 7)}


@dataclass(frozen=True)
class JacquetSettings(Settings):
    #: May a lone checker be hit (sent to the bar, re-entering in the start quarter)? The seed: no ("não há
    #: captura"); other books (e.g. 1on1backgammon.com, French compendia) let blots be hit, and then a point
    #: is held by two checkers.
    hitting: bool = False
    #: Which part of the route the six-point rule restricts: None (the seed) = a run of six or more anywhere;
    #: 1-4 = only runs touching that quarter of the mover's route (other books restrict the start quarter, 1).
    prime_quarter: int | None = None

    def __post_init__(self) -> None:
        if self.prime_quarter is not None and self.prime_quarter not in QUARTERS:
            raise ValueError(f"prime_quarter: None or 1-4, not {self.prime_quarter!r}")


class JacquetPosition(VariantPosition):
    """R32: dark starts with 15 on physical 1, light with 15 on physical 13; both move anticlockwise."""

    variant = "jacquet"
    rule = "R32"
    settings_class: ClassVar[type[Settings]] = JacquetSettings
    routes = {
        # Light starts on red's casa 12 (physical 13), runs 13..24 then 1..12 and bears off from its 12.
        Side.LIGHT: (*range(13, 25), *range(1, 13)),
        Side.DARK: tuple(range(1, 25)),
    }
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {Side.LIGHT: {24: 15}, Side.DARK: {24: 15}}
    block_at = 1
    capture = None
    settings: JacquetSettings

    @classmethod
    def _default_extra(cls, rel: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
        return tuple(any(own[0:7]) for own in rel)

    def messenger_arrived(self, side: Side) -> bool:
        return bool(self.extra[Side(side).index])

    def _x(self) -> Any:
        return self.extra[self.turn.index]

    def _extra_of(self, x: Any) -> Any:
        flags = list(self.extra)
        flags[self.turn.index] = x
        return tuple(flags)

    def _moves(self, state: State, die: int) -> list[tuple[Step, State]]:
        me, opp, arrived = state
        s = self.settings
        cross = self._cross(self.turn)
        blocked_at = 2 if s.hitting else 1
        if me[BAR]:
            sources = [BAR]
        elif arrived:
            sources = [i for i in range(24, 0, -1) if me[i]]
        elif me[24] == 15:
            sources = [24]
        else:
            sources = [i for i in range(23, 0, -1) if me[i]]  # the messenger alone
        bear_off = not any(me[7:26])
        out: list[tuple[Step, State]] = []
        for i in sources:
            t = i - die
            hit = False
            if t >= 1:
                c = cross[t]
                if opp[c] >= blocked_at:
                    continue
                hit = opp[c] == 1
                if not (me[1] and me[2]) and self._makes_block(me, t, blocked_at, i):
                    continue
            elif bears_off(me, i, t, bear_off):
                t = OFF
            else:
                continue
            out.append(((i, t, hit), (moved(me, i, t), sent_to_bar(opp, c) if hit else opp, arrived or t <= 6)))
        return out

    def _makes_block(self, me: tuple[int, ...], t: int, held_at: int, frm: int) -> bool:
        """Would landing on ``t`` (coming from ``frm``) make a run of six or more held points that the settings
        restrict?"""

        def held(p: int) -> bool:
            n = me[p] - (1 if p == frm else 0) + (1 if p == t else 0)
            return n >= held_at

        if me[t] >= held_at or not held(t):
            return False  # the point was held already, or is not held yet: no new run
        lo = hi = t
        while lo > 1 and held(lo - 1):
            lo -= 1
        while hi < 24 and held(hi + 1):
            hi += 1
        if hi - lo + 1 < 6:
            return False
        q = self.settings.prime_quarter
        return q is None or any(lo <= p <= hi for p in QUARTERS[q])

    # ----- game results -------------------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self.result() is not None

    # ----- JSON -----------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        out["messenger"] = {side.value: self.messenger_arrived(side) for side in Side}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, settings: Settings | None = None) -> JacquetPosition:
        data = load_json(data)
        settings = settings if settings is not None else JacquetSettings()
        assert isinstance(settings, JacquetSettings)
        turn, points, bar, off = read_board(data, {"messenger"})
        for side in Side:
            if bar[side] and not settings.hitting:
                raise InvalidPositionError(f"bar.{side.value}: nothing is hit in Jacquet (\"não há captura\"; R32)")
        for p in range(1, 25):
            if points[Side.LIGHT][p - 1] and points[Side.DARK][p - 1]:
                raise InvalidPositionError(f"light/dark: point {p} holds both colours; one checker holds a point in Jacquet (R32)")
        rel = tuple(own_counts(cls, side, points[side], bar[side], off[side]) for side in Side)
        given = read_side_map(data, "messenger", bool, None)
        flags = []
        for side in Side:
            own = rel[side.index]
            seen = any(own[0:7])
            arrived = seen if given[side] is None else given[side]
            if seen and not arrived:
                raise InvalidPositionError(f"messenger.{side.value}: false, but {side.value} has a checker in its last quarter or off")
            if arrived and not seen and not settings.hitting:
                raise InvalidPositionError(f"messenger.{side.value}: true, but {side.value} has no checker in its last quarter yet")
            if not arrived and own[24] < 14:
                raise InvalidPositionError(
                    f"{side.value}: {15 - own[24]} checkers have left the start point before the messenger arrived; "
                    "only the messenger moves until then (R32)"
                )
            flags.append(arrived)
        return cls((rel[0], rel[1]), turn, (flags[0], flags[1]), settings)


__all__ = ["JacquetPosition", "JacquetSettings"]
