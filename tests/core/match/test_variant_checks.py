"""Reading Gamão's variant record replays every game with its recorded dice against the variant's rules
(core.match.formats.variant.check_plays): a damaged or hand-edited file is refused with the line, the play and
the rules' own reason; random self-play games and the referee's own records (Russian chain links included) read
back identically."""

from __future__ import annotations

import json
import re

import pytest

from core.match.formats import MatchFileError
from core.match.formats.variant import CHAIN, MAGIC, read_variant, write_variant
from core.match.record import MOVE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.referee import Referee
from core.referee.record import to_match_record
from core.referee.selfplay import Game, random_game
from core.rules.position import Side
from core.rules.variants import (
    JacquetPosition,
    PlakotoPosition,
    RussianPosition,
    VariantPosition,
    play_from_text,
)
from core.rules.variants.jacquet import JacquetSettings
from core.rules.variants.plakoto import PlakotoSettings
from core.rules.variants.russian import RussianSettings
from tests.core.referee.variant_streams import game_events

CLASSES: dict[str, type[VariantPosition]] = {"plakoto": PlakotoPosition, "russian": RussianPosition,
                                             "jacquet": JacquetPosition}


def record_of(games: list[Game], settings: object | None = None) -> MatchRecord:
    """A money session of games drawn by core.referee.selfplay: one line per turn, a Russian chain whole on its
    line (as `gamao plays --variant russian` lists it), a first-roll double rolled again not written (R31)."""
    name = games[0].variant
    record = MatchRecord(length=0, players={Side.LIGHT: "Ana", Side.DARK: "Bia"},
                         rules=MatchRules(crawford=False, variation=name))
    record.headers["Settings"] = json.dumps(vars(settings or CLASSES[name].settings_class()), sort_keys=True)
    score = {Side.LIGHT: 0, Side.DARK: 0}
    for number, game in enumerate(games, start=1):
        rec = GameRecord(number=number, score=dict(score))
        for turn in game.turns:
            if turn.reroll:
                continue
            rec.actions.append(Action(MOVE, turn.side, dice=turn.dice, text=turn.text,
                                      play=play_from_text(turn.text) if turn.text else None))
        assert game.final is not None
        res = game.final.result()
        if res is not None:
            winner, points = res
            how = {1: "single", 2: "gammon", 3: "backgammon"}[points] if winner else "draw"
            rec.result = GameResult(winner, points, how, points)
            if winner:
                score[winner] += points
        record.games.append(rec)
    return record


def shape(record: MatchRecord) -> list[object]:
    return [record.length, record.rules.variation, record.players, record.headers.get("Settings"),
            [(g.number, g.score, [(a.side, a.dice, a.text, a.note) for a in g.actions],
              None if g.result is None else (g.result.winner, g.result.points, g.result.how)) for g in record.games]]


SETTINGS = [
    ("plakoto", None), ("plakoto", PlakotoSettings(mother="draw_if_both", bear_off_while_pinned=True)),
    ("russian", None), ("russian", RussianSettings(roll_again=False)),
    ("russian", RussianSettings(complement_while_entering=False, entered_before_moving=3)),
    ("jacquet", None), ("jacquet", JacquetSettings(hitting=True, prime_quarter=1)),
]


@pytest.mark.parametrize(("name", "settings"), SETTINGS, ids=[f"{n}-{k}" for k, (n, _) in enumerate(SETTINGS)])
def test_random_selfplay_games_replay_and_read_back_identically(name: str, settings: object | None) -> None:
    """R30-R32: 8 random games of core.referee.selfplay per variant and settings: every play replays legally from
    the start with its dice (Russian first-roll doubles rolled again are not written, chains whole on a line)."""
    games = [random_game(CLASSES[name], seed, settings) for seed in range(8)]  # type: ignore[arg-type]
    record = record_of(games, settings)
    text = write_variant(record)
    again = read_variant(text)
    assert shape(again) == shape(record) and write_variant(again) == text
    if name == "russian":
        assert any(t.reroll for g in games for t in g.turns)  # a first-roll double was rolled again (R31)


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_referee_records_of_russian_chains_replay_link_by_link(seed: int) -> None:
    """R31: the referee records a chain's double played in full (``chain``) and its complementary double as the
    next line; the record replays link by link and reads back identically."""
    ref = Referee(players={"light": "Ana", "dark": "Bia"})
    for ev, _ in game_events(random_game(RussianPosition, seed)):
        ref.feed(ev)
    text = write_variant(to_match_record(ref))
    assert f" {CHAIN}\n" in text
    assert write_variant(read_variant(text)) == text


# ----- damaged and hand-edited records ----------------------------------------------------------------------------
def variant_text(name: str, plays: list[str], result: str = "") -> str:
    lines = [f"{MAGIC} -- not a .mat file", f'; [Variant "{name}"]', "0 point match", "", " Game 1",
             " Light : 0                      Dark : 0"]
    lines += [f"  {k}) {play}" for k, play in enumerate(plays, start=1)] + ([f"  {result}"] if result else [])
    return "\n".join(lines) + "\n"


PINNED = ["light 65: 24/18/13", "dark 66: 24/18/12* 24/18(2)"]  # R30: dark pins light's lone checker on light's 13


def refused(text: str) -> MatchFileError:
    with pytest.raises(MatchFileError) as info:
        read_variant(text)
    assert "\n" not in str(info.value)
    return info.value


def test_a_hand_made_game_reads_back() -> None:
    """R30: the lines the damaged records below start from are legal: light's 13 is pinned, light plays on."""
    record = read_variant(variant_text("plakoto", [*PINNED, "light 21: 24/23 24/22"]))
    assert [a.text for a in record.games[0].actions] == ["24/18/13", "24/18/12* 24/18(2)", "24/23 24/22"]


def test_moving_a_pinned_plakoto_checker_is_refused() -> None:
    """R30: a pinned checker cannot move while the pinner stays (light's 13 is pinned: 13/11 is refused, with the
    rules' own message)."""
    err = refused(variant_text("plakoto", [*PINNED, "light 21: 13/11 24/23"]))
    assert err.line == 9
    assert str(err) == ("line 9: game 1, play 3 (light 21: 13/11 24/23): illegal play '13/11 24/23' with 21 in this "
                        "plakoto position (R30); legal plays include 24/23 24/22")


def test_wrong_dice_are_refused() -> None:
    """R30: the play of the first line does not go with the dice written (52 instead of 65)."""
    err = refused(variant_text("plakoto", ["light 52: 24/18/13", "dark 66: 24/18/12* 24/18(2)"]))
    assert err.line == 7 and err.reason.startswith(
        "game 1, play 1 (light 52: 24/18/13): illegal play '24/18/13' with 52 in this plakoto position (R30)")


@pytest.mark.parametrize(("cut", "words"), [
    ("light 21: 24/2", "game 1, play 3 (light 21: 24/2): illegal play '24/2' with 21 in this plakoto position (R30)"),
    ("light 21: 24/23 2", "invalid play '24/23 2': '2' is not a move (write FROM/TO, e.g. 24/18, in/22, 6/off)"),
    ("light 2", "not a play ('N) light 61: 24/18/17'), a score or a result line: '3) light 2'"),
])
def test_a_truncated_line_is_refused(cut: str, words: str) -> None:
    """A file cut short in its last line: the rules refuse what is left of the play, or the line is not a play."""
    err = refused(variant_text("plakoto", [*PINNED, cut]))
    assert err.line == 9 and words in err.reason


def test_a_play_out_of_turn_is_refused() -> None:
    err = refused(variant_text("plakoto", ["light 65: 24/18/13", "light 21: 24/23 24/22"]))
    assert err.line == 8 and err.reason == "game 1, play 2 (light 21: 24/23 24/22): dark is on roll, not light"


def test_cannot_move_when_a_play_exists_is_refused() -> None:
    err = refused(variant_text("plakoto", ["light 65: cannot move"]))
    assert err.line == 7 and "illegal play '' with 65 in this plakoto position (R30)" in err.reason


def test_jacquet_messenger_first() -> None:
    """R32: until the messenger reaches the last quarter, only it moves (a second checker off the start is refused)."""
    assert read_variant(variant_text("jacquet", ["light 31: 24/21/20"]))
    err = refused(variant_text("jacquet", ["light 31: 24/21 24/23"]))
    assert err.reason == ("game 1, play 1 (light 31: 24/21 24/23): illegal play '24/21 24/23' with 31 in this jacquet "
                          "position (R32); legal plays include 24/21/20")


def test_russian_first_roll_double_is_rolled_again_not_written() -> None:
    """R31: a double on a side's first roll is rolled again: written as a play, it is refused."""
    err = refused(variant_text("russian", ["light 33: in/22(2)"]))
    assert err.reason == "game 1, play 1 (light 33: in/22(2)): 33 on a first roll is rolled again, not played (R31)"


def _referee_russian_text() -> str:
    ref = Referee(players={"light": "Ana", "dark": "Bia"})
    for ev, _ in game_events(random_game(RussianPosition, 3)):
        ref.feed(ev)
    return write_variant(to_match_record(ref))


def test_russian_chain_damaged() -> None:
    """R31: after a double played in full (``chain``) comes its complementary double as the same player's next line;
    a chain line whose next line has other dice, or a double played in full without its complement, is refused."""
    text = _referee_russian_text()
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line.endswith(f" {CHAIN}"))
    n = int(re.search(r"(\d)\1:", lines[k]).group(1))  # type: ignore[union-attr]
    m = 7 - n
    assert f"{m}{m}:" in lines[k + 1]
    other = next(d for d in range(1, 7) if d not in (n, m))
    damaged = lines.copy()
    damaged[k + 1] = damaged[k + 1].replace(f"{m}{m}:", f"{other}{other}:")
    err = refused("\n".join(damaged))
    assert err.line == k + 2
    assert f"after the double {n}{n} played in full (line {k + 1}, 'chain') comes its complementary double {m}{m}, " \
           "without a roll (R31)" in err.reason
    unmarked = lines.copy()
    unmarked[k] = unmarked[k][: -len(f" {CHAIN}")]
    err = refused("\n".join(unmarked))
    assert err.line == k + 1
    assert f"the double was played in full: the complementary double {m}{m} follows" in err.reason


def test_a_result_the_plays_contradict_is_refused() -> None:
    """The plays of a game end it (a random Plakoto game played out); a result line naming the other winner is
    refused, naming that line."""
    game = random_game(PlakotoPosition, 2)
    text = write_variant(record_of([game]))
    assert game.final is not None
    winner = game.final.result()[0]  # type: ignore[index]
    assert winner is not None
    loser = winner.other.value.capitalize()
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if " wins " in line)
    lines[k] = re.sub(r"(Light|Dark) wins", f"{loser} wins", lines[k])
    err = refused("\n".join(lines))
    assert err.line == k + 1 and "the result line says" in err.reason


def test_a_play_after_the_game_ended_is_refused() -> None:
    game = random_game(PlakotoPosition, 2)
    lines = write_variant(record_of([game])).split("\n")
    k = next(i for i, line in enumerate(lines) if " wins " in line)
    lines.insert(k, f"  {len(game.turns) + 1}) {game.final.turn.value} 21: 24/23 24/22")  # type: ignore[union-attr]
    err = refused("\n".join(lines))
    assert err.line == k + 1 and "the game is already over" in err.reason


def test_bad_settings_are_refused() -> None:
    text = variant_text("plakoto", PINNED).replace('; [Variant "plakoto"]',
                                                   '; [Variant "plakoto"]\n; [Settings "{"mother": "maybe"}"]')
    assert "[Settings] are not plakoto's settings: mother: choose one of" in refused(text).reason


def test_unchecked_read_keeps_the_text() -> None:
    """``check=False`` reads what is written, for tools that want to look at a damaged file."""
    record = read_variant(variant_text("plakoto", [*PINNED, "light 21: 13/11 24/23"]), check=False)
    assert record.games[0].actions[-1].text == "13/11 24/23"
