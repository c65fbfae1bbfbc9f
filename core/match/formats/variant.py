"""Our own text format for games and matches of the seeds' other games: Plakoto (R30), Russian backgammon (R31)
and Jacquet (R32). Neither .mat nor SGF has a standard for them (SGF's GM[6] is backgammon and no other GM
number names these games), so this format is clearly marked as Gamão's own, and .mat-like: a header naming
the variant and its settings, then each game's plays in the variant's notation (core.rules.variants:
``in`` for a Russian checker entering, ``*`` on a hit or a pin).

    ; Gamao variant record 1 -- not a .mat file: .mat has no standard for this game
    ; [Variant "plakoto"]
    ; [Rule "R30"]
    ; [Settings "{"bear_off_while_pinned": false, "mother": "loss", "gammon": true}"]
    ; [Player 1 "Ana"]
    ; [Player 2 "Bia"]
    0 point match

     Game 1
     Light : 0                      Dark : 0
      1) light 61: 24/18/17
      2) dark 55: 24/19(2) 24/19(2)
      3) light 33: 24/21(4) chain
      4) light 44: 21/17(4)
      5) dark 21: 24/22 24/23
      ...
      Light wins 2 points (mother)

Each play is one line: its number, the side, the dice, a colon, the play ("" when the roll had no legal play).
A trailing ``chain`` marks a Russian double played in full whose complementary double, the next line, was
recorded as its own link (as the referee records a chain); a play of a whole chain in one line is also
allowed (as ``gamao plays --variant russian`` lists it). ``cannot move`` is written for an empty play. The
result line is ``Light wins N points (how)`` or ``Draw (both mothers pinned)``. Lines starting with ``;``
after the header are comments. ``read_variant(write_variant(record))`` gives the same record back.

Reading replays every game from the variant's start position with the recorded dice (``check_plays``): the side
of the first play starts, each play must be legal for its roll (the rules' own IllegalPlayError message, with
the line), a Russian double on a side's first roll is not written (it is rolled again, R31), a ``chain`` line is
a Russian double played in full followed, on the next line, by the same player's complementary double played as
its own link (as the referee records it), and a game whose plays end it must not go on nor state another
winner. A damaged or hand-edited file is refused with a MatchFileError naming the line, the play and why.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from core.match.formats import MatchFileError
from core.match.names import one_line
from core.match.record import MOVE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.rules.notation import Play
from core.rules.position import Side
from core.rules.variants import VariantPlay, VariantPosition, play_from_text, variant
from core.rules.variants.base import Settings

MAGIC = "; Gamao variant record 1"
VARIANT_GAMES = ("plakoto", "russian", "jacquet")
CHAIN = "chain"
NO_PLAY = "cannot move"
_HEADER = re.compile(r'^;\s*\[(\w+(?: \d)?)\s+"(.*)"\]\s*$')
_PLAY = re.compile(r"^(\d+)\)\s+(light|dark)\s+([1-6])([1-6]):\s*(.*?)\s*$")
_RESULT = re.compile(r"^(Light|Dark) wins (\d+) points? \((\w+)\)$")
_SCORE = re.compile(r"^Light\s*:\s*(\d+)\s+Dark\s*:\s*(\d+)$")


def is_variant_record(record: MatchRecord) -> bool:
    return record.rules.variation in VARIANT_GAMES


def write_variant(record: MatchRecord) -> str:
    """The record as Gamão's variant text (``record.rules.variation`` names the variant, the ``Settings``
    header its settings as JSON)."""
    name = record.rules.variation
    if name not in VARIANT_GAMES:
        raise ValueError(f"write_variant: {name!r} is not one of {', '.join(VARIANT_GAMES)} (use write_mat)")
    cls = variant(name)
    assert issubclass(cls, VariantPosition)
    settings = record.headers.get("Settings") or json.dumps(_default_settings(name), sort_keys=True)
    out = [f"{MAGIC} -- not a .mat file: .mat has no standard for this game",
           f'; [Variant "{name}"]', f'; [Rule "{cls.rule}"]', f'; [Settings "{settings}"]',
           f'; [Player 1 "{_clean(record.players[Side.LIGHT])}"]', f'; [Player 2 "{_clean(record.players[Side.DARK])}"]']
    if record.date:
        out.append(f'; [Date "{record.date}"]')
    out += [f"{record.length} point match", ""]
    for game in record.games:
        out.append(f" Game {game.number}")
        out.append(f" Light : {game.score[Side.LIGHT]:<22} Dark : {game.score[Side.DARK]}")
        n = 0
        for a in game.actions:
            if a.kind != MOVE or a.side is None or a.dice is None:
                continue
            n += 1
            text = a.text or NO_PLAY
            mark = f" {CHAIN}" if a.note == CHAIN else ""
            out.append(f"  {n}) {a.side.value} {a.dice[0]}{a.dice[1]}: {text}{mark}")
        res = game.result
        if res is not None:
            if res.winner is None:
                out.append("  Draw (both mothers pinned)")
            else:
                out.append(f"  {res.winner.value.capitalize()} wins {res.points} point{'s' if res.points != 1 else ''} ({res.how})")
        out.append("")
    return "\n".join(out)


def read_variant(text: str, check: bool = True) -> MatchRecord:
    """Read Gamão's variant text and check every play against the variant's rules (``check_plays``; ``check=False``
    reads it as written); MatchFileError names the line at fault."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith(MAGIC):
        raise MatchFileError(f"not a Gamão variant record: the first line must start with {MAGIC!r}", 1)
    headers: dict[str, str] = {}
    record = MatchRecord(length=0, source="gamao-variant")
    game: GameRecord | None = None
    result_lines: dict[int, int] = {}  # game index -> its result line
    length_seen = False
    for no, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        m = _HEADER.match(line)
        if m and game is None:
            headers[m.group(1)] = m.group(2)
            continue
        if line.startswith(";"):
            record.comments.append(line[1:].strip())
            continue
        if not length_seen:
            m2 = re.match(r"^(\d+) point match$", line)
            if not m2:
                raise MatchFileError(f"expected 'N point match' after the header, got {line!r}", no)
            record.length = int(m2.group(1))
            length_seen = True
            continue
        m = re.match(r"^Game (\d+)$", line)
        if m:
            game = GameRecord(number=int(m.group(1)), line=no)
            record.games.append(game)
            continue
        if game is None:
            raise MatchFileError(f"expected 'Game N', got {line!r}", no)
        m = _SCORE.match(line)
        if m:
            game.score = {Side.LIGHT: int(m.group(1)), Side.DARK: int(m.group(2))}
            game.score_line = no
            continue
        m = _PLAY.match(line)
        if m:
            body = m.group(5)
            note = ""
            if body.endswith(" " + CHAIN) or body == CHAIN:
                body, note = body[: -len(CHAIN)].strip(), CHAIN
            play_text = "" if body == NO_PLAY else body
            try:
                play = play_from_text(play_text) if play_text else None
            except ValueError as exc:
                raise MatchFileError(str(exc), no) from None
            dice = (int(m.group(3)), int(m.group(4)))
            game.actions.append(Action(MOVE, Side(m.group(2)), dice=dice, text=play_text, play=play, line=no, note=note))
            continue
        m = _RESULT.match(line)
        if m:
            game.result = GameResult(Side(m.group(1).lower()), int(m.group(2)), m.group(3),
                                     {"gammon": 2, "backgammon": 3}.get(m.group(3), 1))
            result_lines[len(record.games) - 1] = no
            continue
        if line.startswith("Draw"):
            game.result = GameResult(None, 0, "draw", 0)
            result_lines[len(record.games) - 1] = no
            continue
        raise MatchFileError(f"not a play ('N) light 61: 24/18/17'), a score or a result line: {line!r}", no)
    name = headers.get("Variant", "")
    if name not in VARIANT_GAMES:
        raise MatchFileError(f'[Variant "..."] must be one of {", ".join(VARIANT_GAMES)}, got {name!r}', 2)
    settings = headers.get("Settings")
    if settings is not None:
        try:
            parsed = json.loads(settings)
        except json.JSONDecodeError:
            raise MatchFileError(f"[Settings] is not a JSON object: {settings!r}", None) from None
        fields = _default_settings(name)
        if not isinstance(parsed, dict) or set(parsed) - set(fields):
            raise MatchFileError(f"[Settings] must be an object of {name}'s settings ({', '.join(fields)})", None)
    record.rules = MatchRules(crawford=False, variation=name)
    record.players = {Side.LIGHT: headers.get("Player 1", ""), Side.DARK: headers.get("Player 2", "")}
    record.date = headers.get("Date")
    record.headers = {k: v for k, v in headers.items() if k in ("Variant", "Rule", "Settings")}
    if check:
        check_plays(record, result_lines)
    return record


def settings_of_record(record: MatchRecord) -> Settings:
    """The variant's settings the record's ``Settings`` header names (the seed's defaults for those left out)."""
    cls = variant(record.rules.variation)
    assert issubclass(cls, VariantPosition)
    raw = record.headers.get("Settings")
    try:
        values = json.loads(raw) if raw else {}
        return cls.settings_class(**values)
    except (TypeError, ValueError) as exc:
        raise MatchFileError(f"[Settings] are not {record.rules.variation}'s settings: {exc}", None) from None


def check_plays(record: MatchRecord, result_lines: dict[int, int] | None = None) -> None:
    """Replay every game of a variant record from the variant's start position with its recorded dice (R30-R32);
    MatchFileError naming the line, the play and the rules' reason at the first play that is not legal."""
    cls = variant(record.rules.variation)
    assert issubclass(cls, VariantPosition)
    settings = settings_of_record(record)
    for k, game in enumerate(record.games):
        _check_game(cls, settings, game, (result_lines or {}).get(k))


def _check_game(cls: type[VariantPosition], settings: Settings, game: GameRecord, result_line: int | None) -> None:
    moves = [a for a in game.actions if a.kind == MOVE and a.side is not None and a.dice is not None]
    if not moves:
        return
    pos: VariantPosition = cls.start(moves[0].side, settings)  # type: ignore[arg-type]
    chain: Action | None = None  # a double played in full: its complementary double is the next line
    for number, a in enumerate(moves, start=1):
        assert a.side is not None and a.dice is not None
        mark = f" {CHAIN}" if a.note == CHAIN else ""

        def fail(why: str, a: Action = a, number: int = number, mark: str = mark) -> MatchFileError:
            assert a.side is not None and a.dice is not None
            return MatchFileError(f"game {game.number}, play {number} ({a.side.value} {a.dice[0]}{a.dice[1]}: "
                                  f"{a.text or NO_PLAY}{mark}): {why}", a.line)

        if pos.is_game_over():
            raise fail(f"the game is already over ({_result_words(pos)}): no play follows")
        if a.side is not pos.turn:
            raise fail(f"{pos.turn.value} is on roll, not {a.side.value}")
        try:
            pos, chain = _play(pos, a, chain, fail)
        except ValueError as exc:  # the rules' IllegalPlayError / AmbiguousPlayError / InvalidPlayError
            if isinstance(exc, MatchFileError):
                raise
            raise fail(str(exc)) from None
    res = pos.result() if pos.is_game_over() else None
    stated = game.result
    if res is not None and stated is not None and stated.how in ("single", "gammon", "backgammon", "mother", "draw") \
            and res[0] != stated.winner:
        said = "a draw" if stated.winner is None else f"{stated.winner.value} wins"
        raise MatchFileError(f"game {game.number}: the plays end it with {_result_words(pos)}, but the result line "
                             f"says {said}", result_line)


def _play(pos: VariantPosition, a: Action, chain: Action | None, fail: Any) -> tuple[VariantPosition, Action | None]:
    """The position after the play of line ``a`` (and the chain's double whose complement comes next, if any)."""
    assert a.dice is not None
    played: str | Play = a.text or Play(())  # as written, so the rules' message quotes the file
    dice = a.dice
    if chain is not None:  # R31: the complementary double of the double just played in full, as its own link
        assert chain.dice is not None and pos.chains
        n = 7 - chain.dice[0]
        if dice != (n, n):
            raise fail(f"after the double {chain.dice[0]}{chain.dice[0]} played in full (line {chain.line}, "
                       f"'{CHAIN}') comes its complementary double {n}{n}, without a roll (R31)")
        return _after(pos.parse_link(played, dice, complement=True)), None
    if a.note == CHAIN:
        if not pos.chains or dice[0] != dice[1]:
            raise fail(f"'{CHAIN}' marks a Russian backgammon double played in full (R31)")
        lp = pos.parse_link(played, dice)
        if len(lp.play) != 4 or lp.result.turn is not pos.turn or lp.result.is_game_over():
            raise fail(f"'{CHAIN}' marks a double played in full after which the complementary double follows (R31)")
        return _after(lp), a
    steps = len(a.play) if a.play is not None else 0
    if pos.chains and dice[0] == dice[1] and steps <= 4 and not pos._reroll(dice):
        # R31: a double the referee recorded as one link that ended the chain (the double not played in full, or
        # in full with nothing of the complement playable, or the game over).
        lp = pos.parse_link(played, dice)
        after = _after(lp)
        if after.turn is pos.turn and not after.is_game_over():
            n = 7 - dice[0]
            if after.link_plays((n, n), complement=True):
                raise fail(f"the double was played in full: the complementary double {n}{n} follows, on this line or "
                           f"on the next after '{CHAIN}' (R31)")
            after = after.with_turn(pos.turn.other)
        return after, None
    return _after(pos.parse_play(played, dice)), None


def _after(lp: VariantPlay) -> VariantPosition:
    return lp.result


def _result_words(pos: VariantPosition) -> str:
    res = pos.result()
    if res is None:
        return "no result"
    winner, points = res
    return "a draw" if winner is None else f"{winner.value} winning {points} point{'s' if points != 1 else ''}"


def _default_settings(name: str) -> dict[str, object]:
    cls = variant(name)
    assert issubclass(cls, VariantPosition)
    return dataclasses.asdict(cls.settings_class())


def _clean(text: str) -> str:
    return one_line(text).replace('"', "'")


__all__ = ["CHAIN", "MAGIC", "VARIANT_GAMES", "check_plays", "is_variant_record", "read_variant", "settings_of_record",
           "write_variant"]
