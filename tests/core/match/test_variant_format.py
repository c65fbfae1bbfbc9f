"""Gamão's own text format for Plakoto (R30), Russian backgammon (R31) and Jacquet (R32) records: random
self-play games and the referee's own records read back identically; bad files name the line at fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.match.formats import MatchFileError
from core.match.formats.variant import CHAIN, MAGIC, read_variant, write_variant
from core.match.record import MOVE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.referee import Referee
from core.referee.record import to_match_record
from core.rules.position import Side
from core.rules.variants import JacquetPosition, PlakotoPosition, RussianPosition, play_from_text
from core.rules.variants.selfplay import play_random_game
from kiosk.service import RefereeService
from tests.core.referee.variant_streams import game_events, random_game

CLASSES = {"plakoto": PlakotoPosition, "russian": RussianPosition, "jacquet": JacquetPosition}


def selfplay_record(name: str, games: int) -> MatchRecord:
    """A money session of ``games`` random self-play games (core.rules.variants.selfplay) as a record."""
    record = MatchRecord(length=0, players={Side.LIGHT: "Ana", Side.DARK: "Bia"},
                         rules=MatchRules(crawford=False, variation=name))
    score = {Side.LIGHT: 0, Side.DARK: 0}
    for seed in range(games):
        game = play_random_game(CLASSES[name], seed, quick=True, check=False)
        rec = GameRecord(number=seed + 1, score=dict(score))
        for side, dice, text in game.turns:
            rec.actions.append(Action(MOVE, Side(side), dice=dice, text=text,
                                      play=play_from_text(text) if text else None))
        if game.result is not None:
            winner, points = game.result
            how = {1: "single", 2: "gammon", 3: "backgammon"}[points] if winner else "draw"
            rec.result = GameResult(Side(winner) if winner else None, points, how, points)
            if winner:
                score[Side(winner)] += points
        record.games.append(rec)
    return record


def shape(record: MatchRecord) -> list[object]:
    return [record.length, record.rules.variation, record.players,
            [(g.number, g.score, [(a.side, a.dice, a.text, a.note) for a in g.actions],
              None if g.result is None else (g.result.winner, g.result.points, g.result.how)) for g in record.games]]


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_selfplay_games_read_back_identically(name: str) -> None:
    """R30-R32: every play of 20 random games, in the variant's notation, survives the text."""
    record = selfplay_record(name, 20)
    text = write_variant(record)
    assert text.startswith(MAGIC) and f'[Variant "{name}"]' in text and "not a .mat file" in text
    again = read_variant(text)
    assert shape(again) == shape(record)
    assert write_variant(again) == text
    if name == "russian":
        assert " in/" in text or text.count("in/") > 0  # checkers entering from off the board


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_referee_record_carries_the_variant(name: str) -> None:
    """The referee's record of a game names the variant and its settings; a Russian chain's double link is
    marked and its complementary double follows as its own row (R31)."""
    game = random_game(CLASSES[name], 3)
    ref = Referee(players={"light": "Ana", "dark": "Bia"})
    for ev, _ in game_events(game):
        ref.feed(ev)
    record = to_match_record(ref)
    assert record.rules.variation == name and "Settings" in record.headers
    text = write_variant(record)
    again = read_variant(text)
    assert shape(again) == shape(record) and write_variant(again) == text
    rows = [a for g in again.games for a in g.actions]
    assert len(rows) == len(ref.match_state.moves)
    if name == "russian":
        chained = [k for k, a in enumerate(rows) if a.note == CHAIN]
        assert chained
        for k in chained:
            n = rows[k].dice[0]
            assert rows[k + 1].dice == (7 - n, 7 - n) and rows[k + 1].side == rows[k].side
    assert again.games[0].result is not None and again.games[0].result.how == ref.match_state.games[0]["result"]["how"]


def test_kiosk_export_of_a_variant_match(tmp_path: Path) -> None:
    """The kiosk's export writes Gamão's variant text for a variant match; SGF has no game type for it."""
    service = RefereeService(tmp_path / "j.sqlite")
    game = random_game(PlakotoPosition, 1)
    for ev, _ in game_events(game):
        service.submit(ev)
    text = service.export("current", "mat")
    assert read_variant(text).rules.variation == "plakoto"
    with pytest.raises(ValueError, match="SGF has no game type for plakoto"):
        service.export("current", "sgf")


@pytest.mark.parametrize(("text", "line", "words"), [
    ("0 point match\n", 1, "not a Gamão variant record"),
    (MAGIC + '\n; [Variant "plakoto"]\nfive point match\n', 3, "N point match"),
    (MAGIC + '\n; [Variant "plakoto"]\n0 point match\n Game 1\n  1) light 61: 24/30\n', 5, "not a point"),
    (MAGIC + '\n; [Variant "plakoto"]\n0 point match\n Game 1\n  1) green 61: 24/18\n', 5, "not a play"),
    (MAGIC + '\n; [Variant "chess"]\n0 point match\n', 2, "must be one of"),
])
def test_bad_files_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(MatchFileError, match=words) as info:
        read_variant(text)
    assert info.value.line == line
