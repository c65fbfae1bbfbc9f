"""Russian backgammon (R31), the seed's "Gamão russo".

"cada jogador inicia a partida com suas 15 peças fora do tabuleiro. As peças de ambos entram no tabuleiro pelo
mesmo setor interno ... e se movimentam no mesmo sentido": both sides enter through dark's home board (physical
19-24, each side's own 24..19) and travel physical 24 -> 1, bearing off from physical 1-6. Own point n is
physical n for both sides.

"antes de poder movimentar suas peças, cada jogador precisa ter introduzido pelo menos duas peças": a checker on
the board moves on only once two of its side have entered (counted at each step, so a roll may enter the second
checker with one die and move with the other). Entering a waiting checker is never compulsory; a hit checker on
the bar is, as in backgammon ("tal como no gamão").

Doubles, except on a side's first roll ("caso em que os dados devem ser relançados": ``legal_plays`` answers
``reroll``): the double four times, then the complementary double (7 - n) four times, then the same player rolls
again; "a sequência das dobradinhas é interrompida quando o resultado de um dos dados não permitir que o jogador
realize um movimento", and the turn passes. ``legal_plays`` of a double lists the whole chain as far as it goes;
a result whose chain is complete keeps the turn with the mover (a new roll).

Not yet entered checkers ("waiting") are the checkers a side has neither on the board, nor on the bar, nor off.
``extra`` is the first-roll flags ``(light, dark)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from core.errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError
from core.rules.notation import BAR, OFF, Play
from core.rules.position import Side, check_dice
from core.rules.variants.base import (
    WAITING,
    Searched,
    Settings,
    State,
    Step,
    VariantPlay,
    VariantPosition,
    bears_off,
    load_json,
    moved,
    own_counts,
    play_from_text,
    play_text,
    read_board,
    read_side_map,
    sent_to_bar,
)


@dataclass(frozen=True)
class RussianSettings(Settings):
    #: Is the complementary double played by a side that still has checkers waiting to enter when it rolls
    #: the double? The seed makes no exception: yes. If not, the double alone is played and the turn passes.
    complement_while_entering: bool = True
    #: After a complete chain (double and complementary double) the player rolls again (the seed: "lance os
    #: dados novamente"). If not, the turn passes.
    roll_again: bool = True
    #: Checkers a side must have entered before any checker on the board moves on (the seed: two).
    entered_before_moving: int = 2

    def __post_init__(self) -> None:
        if not 0 <= self.entered_before_moving <= 15:  # above 15 no checker could ever move on: a game without end
            raise ValueError(f"entered_before_moving: a count of checkers from 0 to 15, not {self.entered_before_moving!r}")


class RussianPosition(VariantPosition):
    """R31: all checkers start off the board, both sides enter through the same home board and move the same way."""

    variant = "russian"
    rule = "R31"
    settings_class: ClassVar[type[Settings]] = RussianSettings
    chains: ClassVar[bool] = True  # a double is one link of a chain (R31)
    routes = {
        Side.LIGHT: tuple(range(24, 0, -1)),
        Side.DARK: tuple(range(24, 0, -1)),
    }
    start_layout: ClassVar[Mapping[Side, Mapping[int, int]]] = {Side.LIGHT: {}, Side.DARK: {}}
    settings: RussianSettings

    @classmethod
    def _default_extra(cls, rel: tuple[tuple[int, ...], tuple[int, ...]]) -> Any:
        return tuple(sum(own) == 0 for own in rel)

    def waiting(self, side: Side) -> int:
        """Checkers of the side not yet entered."""
        return 15 - sum(self._rel[Side(side).index])

    def first_roll(self, side: Side) -> bool:
        return bool(self.extra[Side(side).index])

    def pips(self, side: Side) -> int:
        return super().pips(side) + 25 * self.waiting(side)

    def _reroll(self, dice: tuple[int, int]) -> bool:
        return dice[0] == dice[1] and self.first_roll(self.turn)

    def _dice_sequence(self, dice: tuple[int, int]) -> tuple[int, ...]:
        if dice[0] != dice[1]:
            return dice
        n = dice[0]
        if self.waiting(self.turn) and not self.settings.complement_while_entering:
            return (n,) * 4
        return (n,) * 4 + (7 - n,) * 4

    def _turn_after(self, dice: tuple[int, int], used: int) -> Side:
        if dice[0] == dice[1] and used == 8 and self.settings.roll_again:
            return self.turn
        return self.turn.other

    # ----- a chain one link at a time (as the referee rules it and records it) --------------------------------
    def link_plays(self, dice: Sequence[int], complement: bool = False) -> list[VariantPlay]:
        """The legal plays of one link of a chain: the double ``dice`` four times, or as many as can be played
        (the chain stops there and the turn passes). ``complement``: this link is the complementary double that
        follows a double played in full. A link played in full keeps the turn with the mover when the chain goes
        on (the complementary double next, or a new roll after a complete chain; ``chain_goes_on``)."""
        dice = check_dice(dice)
        if dice[0] != dice[1]:
            raise IllegalPlayError(f"{dice[0]}{dice[1]} is not a double: a chain's link is a double ({self.rule})")
        seq = (dice[0],) * 4
        frontier, depth = self._as_far_as_possible(self._state(), seq)
        if depth == 0:
            return []
        turn = self.turn if depth == 4 and self.chain_goes_on(complement) else self.turn.other
        searched: Searched = {}  # one search behind every link's ways
        return [VariantPlay(self, dice, path, {"state": st, "orders": [seq[:depth]], "turn": turn, "searched": searched})
                for st, path in frontier.items()]

    def chain_goes_on(self, complement: bool = False) -> bool:
        """After a link played in full from this position: does the same player go on (the complementary double
        after the double, a new roll after the complement)?"""
        if not complement:
            return bool(self.settings.complement_while_entering or not self.waiting(self.turn))
        return bool(self.settings.roll_again)

    def parse_link(self, text: str | Play, dice: Sequence[int], complement: bool = False) -> VariantPlay:
        """The play of one link the text describes (every step written, in any order); IllegalPlayError when no
        legal play of the link fits it, naming the link."""
        dice = check_dice(dice)
        play = text if isinstance(text, Play) else play_from_text(text)
        label = text if isinstance(text, str) else play_text(play)
        what = "complementary double" if complement else "double"
        if self._reroll(dice) and not complement:
            raise IllegalPlayError(f"{dice[0]}{dice[1]} on a first roll is rolled again, not played ({self.rule})")
        legal = self.link_plays(dice, complement)
        wanted = sorted((m.frm, m.to) for m in play.moves)
        if not legal:
            if not wanted:
                return VariantPlay(self, dice, (), {})
        elif len(wanted) == len(legal[0].play):
            ends: set[State] = set()
            self._walk_steps(self._state(), legal[0]._orders[0], 0, Counter(wanted), ends)
            found = [lp for lp in legal if lp._state in ends]
            if len(found) == 1:
                return found[0]
            if found:
                raise AmbiguousPlayError(f"ambiguous play {label!r}: it can be {' or '.join(lp.text() for lp in found)}")
        example = legal[0].text() if legal else "no move"
        raise IllegalPlayError(f"illegal play {label!r} as the {what} {dice[0]}{dice[1]} of a chain in this "
                               f"{self.variant} position ({self.rule}); legal plays include {example}")

    def _position_of(self, state: State, turn: Side) -> VariantPosition:
        me, opp, x = state
        flags = list(x)
        flags[self.turn.index] = False
        return super()._position_of((me, opp, tuple(flags)), turn)

    def _moves(self, state: State, die: int) -> list[tuple[Step, State]]:
        me, opp, x = state
        waiting = 15 - sum(me)
        if me[BAR]:
            sources = [BAR]
        else:
            sources = [WAITING] if waiting else []
            if 15 - waiting >= self.settings.entered_before_moving:
                sources += [i for i in range(24, 0, -1) if me[i]]
        bear_off = not waiting and not any(me[7:26])
        out: list[tuple[Step, State]] = []
        for i in sources:
            t = (25 if i in (BAR, WAITING) else i) - die
            hit = False
            if t >= 1:
                if opp[t] >= 2:
                    continue
                hit = opp[t] == 1
            elif bears_off(me, i, t, bear_off):
                t = OFF
            else:
                continue
            out.append(((i, t, hit), (moved(me, i, t), sent_to_bar(opp, t) if hit else opp, x)))
        return out

    # ----- game results -------------------------------------------------------------------------------------
    def result(self) -> tuple[Side | None, int] | None:  # type: ignore[override]
        """(winner, 1 | 2 gammon: the loser bore off nothing | 3: and still has a checker on the bar or waiting)."""
        for winner in Side:
            if self._rel[winner.index][OFF] == 15:
                loser = winner.other
                if self._rel[loser.index][OFF]:
                    return winner, 1
                return winner, 3 if self._rel[loser.index][BAR] or self.waiting(loser) else 2
        return None

    def is_game_over(self) -> bool:
        return self.result() is not None

    # ----- JSON -----------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        out["waiting"] = {side.value: self.waiting(side) for side in Side}
        out["first_roll"] = {side.value: self.first_roll(side) for side in Side}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, settings: Settings | None = None) -> RussianPosition:
        data = load_json(data)
        waiting = read_side_map(data, "waiting", int, 0)
        for side in Side:
            if waiting[side] > 15:
                raise InvalidPositionError(f"waiting.{side.value}: {waiting[side]} checkers; a side has 15")
        turn, points, bar, off = read_board(data, {"waiting", "first_roll"}, waiting)
        for p in range(1, 25):
            if points[Side.LIGHT][p - 1] and points[Side.DARK][p - 1]:
                raise InvalidPositionError(f"light/dark: point {p} holds both light and dark checkers")
        first = read_side_map(data, "first_roll", bool, None)
        flags = []
        for side in Side:
            fresh = waiting[side] == 15
            if first[side] is None:
                first[side] = fresh
            if first[side] and not fresh:
                raise InvalidPositionError(f"first_roll.{side.value}: true, but {side.value} has already entered checkers")
            flags.append(bool(first[side]))
        rel = tuple(own_counts(cls, side, points[side], bar[side], off[side]) for side in Side)
        return cls((rel[0], rel[1]), turn, (flags[0], flags[1]), settings)


__all__ = ["RussianPosition", "RussianSettings"]
