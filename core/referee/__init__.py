"""The referee: board events in, verdicts out (events, move inference, faults, the state machine).

Layer: the top of ``core``. Modules here may import ``core.match``, ``core.rules`` and the base modules;
nothing in ``core`` imports the referee except ``core/__init__.py``'s re-exports
(tests/core/test_layers.py checks it).
"""

from core.referee.machine import SUSPECT_BOARDS, Referee

__all__ = ["SUSPECT_BOARDS", "Referee"]
