"""Each game's referee behaviour behind one interface (``base.Game``), chosen by the position's class.

``game_of(pos)`` is the game of a position: the standard game (backgammon, and Nackgammon's start) or one of
the seeds' other games, Plakoto (R30), Russian backgammon (R31) and Jacquet (R32), one module each. The machine
(core.referee.machine) calls the game's hooks and applies what they return; nothing else in the referee names
a particular game. A match declares its game in ``new_match`` (``"variant"``, ``"variant_settings"``):
``variant_name``, ``settings_of`` and ``start_position`` read them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from core.referee.games.base import STANDARD, Game, Link, Result
from core.referee.games.jacquet import JACQUET
from core.referee.games.plakoto import PLAKOTO
from core.referee.games.russian import RUSSIAN
from core.referee.games.variant import VariantTurnModel
from core.rules.position import Position
from core.rules.variants import JacquetPosition, PlakotoPosition, RussianPosition, VariantPosition, variant

#: The games a match may declare (``standard`` is backgammon).
MATCH_VARIANTS = ("standard", "plakoto", "russian", "jacquet")
#: Each position class's game; a subclass has its nearest ancestor's.
GAMES: dict[type[Position], Game] = {Position: STANDARD, PlakotoPosition: PLAKOTO, RussianPosition: RUSSIAN,
                                     JacquetPosition: JACQUET}
_FOUND: dict[type[Position], Game] = {}


def game_of(pos: Position | type[Position]) -> Game:
    """The referee behaviour of a position's game, by its class."""
    cls = pos if isinstance(pos, type) else type(pos)
    game = _FOUND.get(cls)
    if game is None:
        game = next(GAMES[k] for k in cls.__mro__ if k in GAMES)
        _FOUND[cls] = game
    return game


# ----- the match's game ----------------------------------------------------------------------------------------
def variant_name(name: Any) -> str:
    """The canonical name of a declared variant; ValueError naming the choices."""
    if not isinstance(name, str):
        raise ValueError(f"\"variant\" must be one of {', '.join(MATCH_VARIANTS)}, got {json.dumps(name)}")
    try:
        canonical = variant(name).variant
    except ValueError:
        canonical = ""
    if canonical not in MATCH_VARIANTS:
        raise ValueError(f"\"variant\" must be one of {', '.join(MATCH_VARIANTS)}, got {json.dumps(name)}")
    return canonical


def settings_of(name: str, raw: Any) -> Any:
    """The variant's settings object from the ``variant_settings`` JSON object (None: the defaults);
    ValueError naming the field."""
    cls = variant(name)
    if not issubclass(cls, VariantPosition):
        if raw:
            raise ValueError("\"variant_settings\": the standard game has no variant settings")
        return None
    if raw is None:
        return cls.settings_class()
    if not isinstance(raw, Mapping):
        raise ValueError("\"variant_settings\" must be an object of the variant's settings (docs/variants.md)")
    fields = {f.name: f for f in dataclasses.fields(cls.settings_class)}
    for key, value in raw.items():
        if key not in fields:
            raise ValueError(f"\"variant_settings.{key}\": not a setting of {name} (known: {', '.join(fields)})")
        default = fields[key].default
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"\"variant_settings.{key}\" must be true or false, got {json.dumps(value)}")
        if isinstance(default, int) and not isinstance(default, bool) and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"\"variant_settings.{key}\" must be a whole number, got {json.dumps(value)}")
    try:
        return cls.settings_class(**raw)
    except (TypeError, ValueError) as exc:
        key, _, why = str(exc).partition(": ")
        if key in fields and why:  # the settings' own check names its field ("mother: choose one of ...")
            raise ValueError(f"\"variant_settings.{key}\": {why}") from None
        raise ValueError(f"\"variant_settings\": {exc}") from None


def settings_json(settings: Any) -> dict[str, Any]:
    return {} if settings is None else dataclasses.asdict(settings)


def start_position(rules: Mapping[str, Any]) -> Position:
    """The start of a game of the match's variant (``rules["variant"]``, default the standard game)."""
    name = rules.get("variant") or "standard"
    if name == "standard":
        return Position.start()
    cls = variant(name)
    assert issubclass(cls, VariantPosition)
    return cls.start(settings=settings_of(name, rules.get("variant_settings")))


def game_result(pos: Position) -> Result | None:
    """(winner, multiplier, how) when the game is over, else None, by the position's game."""
    return game_of(pos).result(pos)


__all__ = ["GAMES", "MATCH_VARIANTS", "Game", "Link", "Result", "VariantTurnModel", "game_of", "game_result",
           "settings_json", "settings_of", "start_position", "variant_name"]
