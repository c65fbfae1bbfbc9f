"""The coach's engine interface: ranked plays, cube advice, error thresholds.

Positions and results are GNU Backgammon Position IDs exactly as ``gamao plays`` writes them; the match
state is a Match ID (score, cube, Crawford), or None for a money game. Equities and losses are cubeful,
in the units gnubg's ``hint`` prints (normalised money equity, in match play too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

# Labels of a play's loss, worst last; None when the loss is under the doubtful threshold.
LABELS = ("doubtful", "bad", "very_bad")
CUBE_ACTIONS = ("no_double", "double_take", "double_pass", "too_good_take", "too_good_pass")


class EngineError(RuntimeError):
    """The engine failed; the message says what happened and what to do."""


class EngineUnavailable(EngineError):
    """No engine is installed or it cannot start (the message says how to install it)."""


class EngineTimeout(EngineError):
    """The engine did not answer in time; the request was abandoned (the engine is restarted)."""


@dataclass(frozen=True)
class Thresholds:
    """Loss thresholds (normalised equity) from which a play is doubtful, bad and very bad."""

    doubtful: float
    bad: float
    very_bad: float

    def label(self, loss: float) -> str | None:
        """The label of a play that loses ``loss`` against the best play, or None. As gnubg's ``Skill()``
        (analysis.c), a loss must pass a threshold, not just reach it."""
        if loss > self.very_bad:
            return "very_bad"
        if loss > self.bad:
            return "bad"
        if loss > self.doubtful:
            return "doubtful"
        return None


@dataclass(frozen=True)
class RankedPlay:
    """One legal play with the engine's cubeful equity and its loss against the best play."""

    play: str  # standard notation, as ``gamao plays`` writes it ("24/18 13/11")
    result: str  # Position ID after the play, as ``gamao plays`` writes it
    equity: float | None  # None when ranked by no engine
    loss: float | None
    label: str | None  # None | "doubtful" | "bad" | "very_bad"
    # The engine's cubeless probabilities after the play, for the mover (win, win gammon, win backgammon,
    # lose gammon, lose backgammon) when it gives them: what gnubg's SGF carries beside the equity.
    probs: tuple[float, ...] | None = None

    def as_json(self) -> dict[str, object]:
        return {"play": self.play, "result": self.result, "equity": self.equity, "loss": self.loss,
                "label": self.label}


@dataclass(frozen=True)
class CubeAdvice:
    """The engine's cube decision for the player on roll, before the roll."""

    action: str  # one of CUBE_ACTIONS
    equities: dict[str, float] = field(default_factory=dict)  # no_double, double_take, double_pass

    def as_json(self) -> dict[str, object]:
        return {"action": self.action, "equities": dict(self.equities)}


@runtime_checkable
class Engine(Protocol):
    """What the coach asks of an engine. Implementations: engine.gnubg.GnubgEngine, engine.fake.FakeEngine."""

    name: str

    def rank_plays(
        self, position_id: str, dice: tuple[int, int], match_id: str | None = None, plies: int = 0,
        timeout: float | None = None,
    ) -> list[RankedPlay]:
        """Every legal play of the roll, best first, with equity, loss and label."""
        ...

    def cube_advice(
        self, position_id: str, match_id: str | None = None, plies: int = 0, timeout: float | None = None
    ) -> CubeAdvice:
        """Whether the player on roll should double, and whether the opponent should take."""
        ...

    def thresholds(self) -> Thresholds:
        """The installed engine's doubtful / bad / very bad thresholds."""
        ...

    def close(self) -> None:
        """Stop the engine's process, if any."""
        ...
