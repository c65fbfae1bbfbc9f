"""Our record format for the variants (R30-R32): written and read back identically, every play replayed against
the rules, and a bad record refused with the line at fault."""

from __future__ import annotations

import pytest

from core.match.formats import MatchFileError
from core.match.formats.variant import HEADER, game_from_selfplay, read_variant_game, write_variant_game
from core.rules.variants import JacquetPosition, JacquetSettings, PlakotoPosition, RussianPosition


@pytest.mark.parametrize("cls", [PlakotoPosition, RussianPosition, JacquetPosition])
def test_generated_games_read_back_identically(cls: type) -> None:
    for seed in range(2 if cls is RussianPosition else 10):
        game = game_from_selfplay(cls, seed)
        text = write_variant_game(game)
        assert text.startswith(HEADER + "\n")
        again = read_variant_game(text)
        assert write_variant_game(again) == text
        assert again.final == game.final and again.final.is_game_over()
        assert again.result_text() != "none"


def test_settings_and_set_position_round_trip() -> None:
    settings = JacquetSettings(hitting=True, prime_quarter=1)
    game = game_from_selfplay(JacquetPosition, 3, settings)
    text = write_variant_game(game)
    assert '"hitting": true' in text and '"prime_quarter": 1' in text
    assert read_variant_game(text).start.settings == settings
    middle = read_variant_game(text).positions()[10]
    game.start, game.turns = middle, game.turns[10:]
    text = write_variant_game(game)
    assert "Position: {" in text
    assert write_variant_game(read_variant_game(text)) == text


RUSSIAN = """{header}
Variant: russian
Settings: {{"complement_while_entering": true, "roll_again": true, "entered_before_moving": 2}}
Light: Ana
Dark: Bruno
Position: start
1 light 33: reroll
2 light 31: in/24 in/22
3 dark 65: in/20 in/19
4 light 22: {chain}
Result: none
"""


def test_russian_reroll_and_chain_lines() -> None:
    game = read_variant_game(RUSSIAN.format(header=HEADER, chain="in/23(4) in/20(4)"))
    assert [t.reroll for t in game.turns] == [True, False, False, False]
    assert game.final.turn.value == "light"  # the chain was complete: light rolls again (R31)
    assert game.final.bar[game.final.turn.other] == 1  # the 5-5 entered on dark's blot on 20
    # Written back with the hit marked: the canonical text of the play.
    assert write_variant_game(game) == RUSSIAN.format(header=HEADER, chain="in/23(4) in/20* in/20(3)")


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace("1 light 33: reroll", "1 light 33: in/22(2)"), "line 7: 33 on a first roll is rolled again"),
    (lambda t: t.replace("3 dark 65", "3 light 65"), "line 9: light is written on roll but it is dark's turn"),
    (lambda t: t.replace("in/20 in/19", "in/20 20/15"), "line 9: illegal play"),
    (lambda t: t.replace("Result: none", "Result: light 1"), "line 11: Result: 'light 1' is written but the plays give 'none'"),
    (lambda t: t.replace("Variant: russian", "Variant: standard"), "line 2: standard is not one of plakoto"),
    (lambda t: t.replace(HEADER, "; Backgammon"), "line 1: not a Gamão variant record"),
    (lambda t: t.replace('"roll_again": true', '"roll_again": true, "x": 1'), "line 3: Settings:"),
])
def test_bad_records_name_the_line(change, message) -> None:  # type: ignore[no-untyped-def]
    text = change(RUSSIAN.format(header=HEADER, chain="in/23(4) in/20(4)"))
    with pytest.raises(MatchFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_variant_game(text)
