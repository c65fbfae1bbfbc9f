"""Our own record format for the seeds' other games (Plakoto, Russian backgammon, Jacquet; R30-R32).

.mat files have no standard for these games, so a game is written in a small, clearly marked text format that
reads back identically (``write_variant_game(read_variant_game(text)) == text`` for any text this module wrote):

    ; Gamão variant game record 1 (not a .mat file: .mat has no standard for this game)
    Variant: plakoto
    Settings: {"bear_off_while_pinned": false, "mother": "loss", "gammon": true}
    Light: Ana
    Dark: Bruno
    Position: start
    1 light 65: 24/18/13
    2 dark 31: 24/21 24/23
    3 light 33: reroll
    4 dark 21: -
    Result: light 2

``Position`` is ``start`` (light on roll) / ``start dark``, or the ``--position`` JSON of docs/CONTRACTS.md. Each
turn line gives the side on roll, the dice and the play in the variant's notation (``-``: no legal play;
``reroll``: a Russian first-roll double, rolled again). A Russian chain is one line (the double rolled), and the
same side's next roll follows when the chain was complete. ``Result`` is ``light N``, ``dark N``, ``draw`` or
``none`` (unfinished). Reading replays every play against the rules and refuses an illegal one, naming its line.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from core.errors import IllegalPlayError
from core.match.formats import MatchFileError
from core.rules.position import Side, check_dice
from core.rules.variants import VariantPosition, variant

HEADER = "; Gamão variant game record 1 (not a .mat file: .mat has no standard for this game)"


@dataclass
class VariantTurn:
    side: Side
    dice: tuple[int, int]
    play: str  # the variant's notation; "" for no legal play
    reroll: bool = False


@dataclass
class VariantGame:
    """A game of one of the variants: the start, each turn, and the result the rules give at the end."""

    variant: str
    start: VariantPosition
    players: dict[Side, str] = field(default_factory=lambda: {Side.LIGHT: "", Side.DARK: ""})
    turns: list[VariantTurn] = field(default_factory=list)

    def positions(self) -> list[VariantPosition]:
        """The position before each turn, then the final one (every play replayed against the rules)."""
        pos = self.start
        out = [pos]
        for number, turn in enumerate(self.turns, start=1):
            pos = _apply(pos, turn, number)
            out.append(pos)
        return out

    @property
    def final(self) -> VariantPosition:
        return self.positions()[-1]

    def result_text(self) -> str:
        res = self.final.result()
        if res is None:
            return "none"
        winner, points = res
        return "draw" if winner is None else f"{winner.value} {points}"


def _apply(pos: VariantPosition, turn: VariantTurn, number: int | None) -> VariantPosition:
    where = f"turn {number}: " if number is not None else ""
    if turn.side is not pos.turn:
        raise IllegalPlayError(f"{where}{turn.side.value} is written on roll but it is {pos.turn.value}'s turn")
    legal = pos.legal_plays(turn.dice)
    if legal.reroll or turn.reroll:
        if not (legal.reroll and turn.reroll):
            raise IllegalPlayError(f"{where}{turn.dice[0]}{turn.dice[1]} is " + ("rolled again, not played" if legal.reroll else "played, not rolled again"))
        return pos
    if not turn.play:
        if len(legal):
            raise IllegalPlayError(f"{where}no play is written but {legal[0].text()} (and others) can be played")
        return pos.with_turn(pos.turn.other)
    return pos.parse_play(turn.play, turn.dice).result


def write_variant_game(game: VariantGame) -> str:
    """The record's text (see the module's docstring)."""
    start = game.start
    fresh = type(start).start(start.turn, start.settings)
    position = ("start" if start.turn is Side.LIGHT else "start dark") if start == fresh else json.dumps(start.to_json())
    lines = [
        HEADER,
        f"Variant: {game.variant}",
        f"Settings: {json.dumps(asdict(start.settings))}",
        f"Light: {game.players.get(Side.LIGHT, '')}".rstrip(),
        f"Dark: {game.players.get(Side.DARK, '')}".rstrip(),
        f"Position: {position}",
    ]
    for number, turn in enumerate(game.turns, start=1):
        text = "reroll" if turn.reroll else (turn.play or "-")
        lines.append(f"{number} {turn.side.value} {turn.dice[0]}{turn.dice[1]}: {text}")
    lines.append(f"Result: {game.result_text()}")
    return "\n".join(lines) + "\n"


def read_variant_game(text: str) -> VariantGame:
    """Read a record; MatchFileError names the line at fault (a bad header, an illegal play, a wrong result)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != HEADER:
        raise MatchFileError(f"not a Gamão variant record: the first line must be {HEADER!r}", 1)
    fields: dict[str, tuple[int, str]] = {}
    body: list[tuple[int, str]] = []
    for n, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if sep and key in ("Variant", "Settings", "Light", "Dark", "Position", "Result"):
            if key in fields:
                raise MatchFileError(f"{key} is given twice", n)
            fields[key] = (n, value.strip())
        else:
            body.append((n, line))
    for key in ("Variant", "Settings", "Position", "Result"):
        if key not in fields:
            raise MatchFileError(f"the record has no {key} line")
    n, name = fields["Variant"]
    try:
        cls = variant(name)
    except ValueError as exc:
        raise MatchFileError(str(exc), n) from None
    if not issubclass(cls, VariantPosition):
        raise MatchFileError(f"{name} is not one of plakoto, russian, jacquet: write it as .mat or SGF", n)
    n, raw_settings = fields["Settings"]
    try:
        settings = cls.settings_class(**json.loads(raw_settings))
    except (ValueError, TypeError) as exc:
        raise MatchFileError(f"Settings: {exc}", n) from None
    n, raw_position = fields["Position"]
    try:
        if raw_position in ("start", "start light", "start dark"):
            start = cls.start(Side.DARK if raw_position.endswith("dark") else Side.LIGHT, settings)
        else:
            start = cls.from_json(raw_position, settings)
    except ValueError as exc:
        raise MatchFileError(f"Position: {exc}", n) from None
    game = VariantGame(cls.variant, start, {Side.LIGHT: fields.get("Light", (0, ""))[1], Side.DARK: fields.get("Dark", (0, ""))[1]})
    pos = start
    for n, line in body:
        head, sep, play = line.partition(":")
        words = head.split()
        if not sep or len(words) != 3 or words[0] != str(len(game.turns) + 1) or words[1] not in ("light", "dark"):
            raise MatchFileError(f"expected 'N SIDE DICE: PLAY' (turn {len(game.turns) + 1}), got {line!r}", n)
        try:
            dice = check_dice(words[2])
        except ValueError as exc:
            raise MatchFileError(str(exc), n) from None
        play = play.strip()
        turn = VariantTurn(Side(words[1]), dice, "" if play == "-" else ("" if play == "reroll" else play), play == "reroll")
        try:
            if turn.play and turn.side is pos.turn:
                chosen = pos.parse_play(turn.play, dice)
                turn.play = chosen.text()  # the canonical text: a record read back writes the same
                pos = chosen.result
            else:
                pos = _apply(pos, turn, None)
        except ValueError as exc:
            raise MatchFileError(str(exc), n) from None
        game.turns.append(turn)
    n, stated = fields["Result"]
    got = game.result_text()
    if stated != got:
        raise MatchFileError(f"Result: {stated!r} is written but the plays give {got!r}", n)
    return game


def game_from_selfplay(cls: type[VariantPosition], seed: int, settings: Any = None, quick: bool = True) -> VariantGame:
    """A generated game (``core.rules.variants.selfplay``) as a record."""
    from core.rules.variants.selfplay import play_random_game

    random_game = play_random_game(cls, seed, settings, quick=quick, check=False)
    first = Side(random_game.turns[0][0]) if random_game.turns else Side.LIGHT
    game = VariantGame(cls.variant, cls.start(first, settings))
    pos = game.start
    for side, dice, text in random_game.turns:
        if text:
            chosen = pos.parse_play(text, dice)
            text, pos = chosen.text(), chosen.result  # the canonical text of its result
        else:
            pos = pos.with_turn(pos.turn.other)
        game.turns.append(VariantTurn(Side(side), dice, text))
    return game
