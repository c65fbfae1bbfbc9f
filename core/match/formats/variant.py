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
"""

from __future__ import annotations

import json
import re

from core.match.formats import MatchFileError
from core.match.record import MOVE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.rules.position import Side
from core.rules.variants import VariantPosition, play_from_text, variant

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


def read_variant(text: str) -> MatchRecord:
    """Read Gamão's variant text; MatchFileError names the line at fault."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith(MAGIC):
        raise MatchFileError(f"not a Gamão variant record: the first line must start with {MAGIC!r}", 1)
    headers: dict[str, str] = {}
    record = MatchRecord(length=0, source="gamao-variant")
    game: GameRecord | None = None
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
            continue
        if line.startswith("Draw"):
            game.result = GameResult(None, 0, "draw", 0)  # type: ignore[arg-type]
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
    return record


def _default_settings(name: str) -> dict[str, object]:
    import dataclasses

    cls = variant(name)
    assert issubclass(cls, VariantPosition)
    return dataclasses.asdict(cls.settings_class())


def _clean(text: str) -> str:
    return text.replace('"', "'").replace("\n", " ")


__all__ = ["CHAIN", "MAGIC", "VARIANT_GAMES", "is_variant_record", "read_variant", "write_variant"]
