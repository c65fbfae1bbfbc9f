"""Random self-play for the variants: generated games for tests, benchmarks and demos.

Each turn rolls two dice from a seeded ``random.Random``, lists the legal plays and picks one at random; every
position reached is checked by writing it as the ``--position`` JSON and reading it back (which refuses any
state the variant forbids: two colours on a point without a pin, a pin under an empty point, a wrong count).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from core.rules.variants.base import Settings, VariantPosition


@dataclass
class RandomGame:
    """One generated game: each turn's (side, dice, play text) and the final result."""

    variant: str
    seed: int
    turns: list[tuple[str, tuple[int, int], str]] = field(default_factory=list)
    result: tuple[str | None, int] | None = None
    positions: int = 0


def play_random_game(
    cls: type[VariantPosition], seed: int, settings: Settings | None = None, max_turns: int = 2000, check: bool = True,
    quick: bool = False,
) -> RandomGame:
    """Play one random game from the start (the side on roll drawn by the seed); stop at ``max_turns``.

    ``quick`` draws each play with ``random_play`` instead of listing every result first (Russian chains can
    have tens of thousands of results)."""
    rng = random.Random(seed)
    pos = cls.start(rng.choice(("light", "dark")), settings)  # type: ignore[arg-type]
    game = RandomGame(cls.variant, seed)
    while not pos.is_game_over() and len(game.turns) < max_turns:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if pos._reroll(dice):
            continue
        if quick:
            chosen = pos.random_play(dice, rng)
        else:
            plays = pos.legal_plays(dice)
            chosen = plays[rng.randrange(len(plays))] if len(plays) else None
        if chosen is not None:
            text, after = chosen.text(), chosen.result
        else:
            text, after = "", pos.with_turn(pos.turn.other)
        game.turns.append((pos.turn.value, dice, text))
        if check:
            again = cls.from_json(after.to_json(), pos.settings)
            if again != after:
                raise AssertionError(f"{cls.variant} seed {seed}: position does not survive its JSON: {after.to_json()}")
        game.positions += 1
        pos = after
    res = pos.result()
    game.result = None if res is None else (None if res[0] is None else res[0].value, res[1])
    return game
