"""The referee: board events in, verdicts out (events, move inference, faults, the state machine).

Layer: the top of ``core``. Modules here may import ``core.match``, ``core.rules`` and the base modules;
nothing in ``core`` imports the referee except ``core/__init__.py``'s re-exports
(tests/core/test_layers.py checks it).

Parts, each with one owner of its state:

- ``events``: the event format, checked once (``parse_event``).
- ``inference``: a roll's candidates (``TurnModel``) scored against a board; ``faults``: why a board is
  no legal play.
- ``state.MatchState``: the match's state (position between plays, rolls, committed plays, cube, games,
  undo).
- ``turn.TurnState``: one turn's view (the roll's candidates, the boards, the reading so far, a held
  commit, the open play); ``pending``: the open play and the evidence the boards give about it.
- ``machine.Referee``: composes a MatchState and a TurnState, reads each event (``HANDLERS``, one line per
  kind) and says its verdicts through its parts: ``reading`` (boards), ``held`` (the held roll), ``commit``
  (the commit and the open play), ``turns``, ``ending`` (game end), ``doubling`` (the cube); ``verdicts``
  builds them.
- ``games``: each game's behaviour (backgammon, Plakoto, Russian, Jacquet) behind one interface, by the
  position's class; nothing else here names a particular game.
- ``table.TableReferee``: the referee at a chouette's board (R26-R29), for the kiosk and the club alike.
- ``record``: what the referee saw, as a match record.
"""

from core.referee.machine import Referee
from core.referee.turn import SUSPECT_BOARDS

__all__ = ["SUSPECT_BOARDS", "Referee"]
