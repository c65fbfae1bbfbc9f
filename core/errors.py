"""The two layers of errors, in the python-chess manner: malformed text versus a well-formed play the
position forbids. Both are `ValueError`s so callers that only care about "bad input" catch one thing."""

from __future__ import annotations


class GamaoError(Exception):
    """Root of the project's own errors."""


class InvalidPlayError(GamaoError, ValueError):
    """The play text is malformed (cannot be read as backgammon notation at all)."""


class IllegalPlayError(GamaoError, ValueError):
    """The play is well formed but the position and roll do not allow it.

    ``reason`` and ``params``, when the rules say why: a reason code of core.messages and its values, so
    ``core.messages.message(err.reason, **err.params)`` gives the words the referee says for the same play
    seen on the board."""

    def __init__(self, *args: object, reason: str | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(*args)
        self.reason = reason
        self.params = params or {}


class AmbiguousPlayError(IllegalPlayError):
    """The text fits more than one legal play (e.g. a combined move that may or may not hit on the way)."""


class InvalidPositionError(GamaoError, ValueError):
    """A Position ID, XGID or board description that cannot describe a backgammon position."""


class InvalidRollError(GamaoError, ValueError):
    """A roll that is not two dice of 1-6."""
