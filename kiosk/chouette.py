"""The chouette on the kiosk (R26-R29): one journal match is one chouette session.

core.match.chouette keeps the chouette's books (roles, each member's cube, the ledger, rotation, the session's
messages); core.referee.table ties them to the board game the referee follows (``TableReferee``, the same one
the club's director replays a chouette with); this module files them beside the kiosk's archive. As the kiosk
uses them:

- The session starts with a ``new_match`` event (money play, the referee's own cube off: ``cube_cap`` 1) that
  carries a ``"chouette"`` object: the players, their one-die rolls (R26), the order they give, the box's side
  on the board and the settings (``consult``, ``cube_cap``). ``new_match_event`` builds it from what the touch
  screen sent; ``check_setup`` refuses bad input naming the field.
- Every chouette action is one journal event ``{"event": "chouette", "action": ...}``: ``box_double``,
  ``team_double`` (``members``), ``answer`` (``member``, ``take``), ``consult`` (``value``). The kiosk's
  physical buttons double/take/drop become these events (``table_event``), so the journal holds what happened.
- ``TableReferee`` wraps the referee: it routes chouette events to the session and the rest to the referee,
  settles a chouette game when the board game ends (the box's result, 1, 2 or 3 per cube), abandons the board
  game when a chouette game ends because every cube was dropped, and adds ``"chouette"`` to the public state.
  The service replays a journal match through it, so a power cut restores the chouette exactly.
- Exports: each game's board play as .mat (the box against the captain, with the captain's cube) and the ledger
  of every player's points (JSON or text), see docs/CONTRACTS.md.

Portuguese words are the seed's: banqueiro (the box), capitão, apostadores (the crew), repique (a double),
aceitar / desistir (take / drop), rodízio (rotation).
"""

from __future__ import annotations

import json
from pathlib import Path

from core.match.chouette import ChouetteInputError, check_setup
from core.referee.table import TableReferee, game_mat, ledger, ledger_text, new_match_event, table_event
from kiosk.archive import file_stem, write_atomic


def archive_chouette(folder: Path, match_id: int, started: float, table: TableReferee) -> list[Path]:
    """After each chouette game, beside the archived matches: the ledger (.json, .txt) and every finished game's
    .mat, named ``chouette-0005-20261124-191230-ledger.json``, ``...-game-03.mat``. OSError when the disk refuses."""
    s = table.session
    if s is None:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    stem = "chouette" + file_stem(match_id, started)[len("match"):]
    files = {f"{stem}-ledger.json": json.dumps(ledger(table), ensure_ascii=False, indent=1),
             f"{stem}-ledger.txt": ledger_text(table)}
    for g in s.ch.games[:-1]:
        files[f"{stem}-game-{g.number:02d}.mat"] = game_mat(table, g.number)
    paths = []
    for name, text in files.items():
        write_atomic(folder / name, text)
        paths.append(folder / name)
    return paths


__all__ = ["ChouetteInputError", "TableReferee", "archive_chouette", "check_setup", "game_mat", "ledger",
           "ledger_text", "new_match_event", "table_event"]
