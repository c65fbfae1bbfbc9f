"""Named rule sets: how a club night, a US or UK tournament and a lesson referee the same game.

Each set is today's settings (``mode``, ``tournament``, ``premature_roll``, the cube's) plus the new ones; a
``new_match`` names one in ``rules.rule_set`` and may still override any single setting. Where each comes from
is in docs/tournament.md; the keys are in docs/CONTRACTS.md (issue 21).

- ``illegal_play``: what happens to an illegal play once its player ends the turn: ``"stands"`` (it is flagged
  and stands, today's casual mode), ``"answer"`` (flagged to both players and the director; the opponent
  answers ``accept``, and it stands, or ``correct``, and it is put right; rolling on it accepts it: the US
  tournament rules' "illegal moves rule"), ``"correct"`` (it must be put right before the turn ends: the UK
  "legal moves" rule and a lesson).
- ``point_out``: who may point out an illegal play: ``"anyone"`` or ``"players_director"`` (tournaments:
  spectators stay silent). The referee is the director's monitor, so it always says so; in the tournament
  sets the verdict says it is for both players and the director (``to``).
- ``coach``: whether the coach may speak (tournaments: no aids; the kiosk's coach reads ``tournament``).
- ``clock``: the clock's defaults (core.referee.clock), or None.
- the table's conventions (R19-R22, issue 36; core.referee.conventions): ``touch_move`` (a touched checker must be
  played: the opponent's claim is ruled on), ``steps`` (``"in_progress"``: a board that is a hit half made is a
  play in progress, not a fault, until the turn ends), ``forgotten_checker`` (``"hint"``: a checker left off the
  board is told where it goes, no penalty) and ``bar_first`` (``"hint"``: checkers moved before the one on the
  bar entered get a hint, for the mover alone, while the turn is open). ``"fault"``: today's call.

>>> RULE_SETS["tournament_ukbgf"]["illegal_play"]
'correct'
"""

from __future__ import annotations

from typing import Any

USBGF_CLOCK = {"per_point": 120, "per_match": None, "delay": 12, "delay_kind": "simple", "flag_fall": "match"}
UKBGF_CLOCK = {"per_point": 120, "per_match": None, "delay": 12, "delay_kind": "simple", "flag_fall": "match"}

ILLEGAL_PLAY = ("stands", "answer", "correct")
POINT_OUT = ("anyone", "players_director")
#: The settings a rule set adds to today's rules (absent from a match that names no rule set and sets none).
NEW_RULES: dict[str, Any] = {"illegal_play": "stands", "point_out": "anyone", "coach": True, "clock": None,
                             "touch_move": False, "steps": "fault", "forgotten_checker": "fault", "bar_first": "fault"}
#: The table's conventions (issue 36): R20's boards on the way, R21's forgotten checker, R22's bar first.
STEPS = ("fault", "in_progress")
HINTS = ("fault", "hint")
#: Every rule set says the same for R20-R22; touch-move (R19) is the casual table's only (docs/tournament.md).
CONVENTIONS: dict[str, Any] = {"steps": "in_progress", "forgotten_checker": "hint", "bar_first": "hint"}

RULE_SETS: dict[str, dict[str, Any]] = {
    "casual": {
        "mode": "casual", "tournament": False, "premature_roll": "reject",
        "illegal_play": "stands", "point_out": "anyone", "coach": True, "clock": None,
        "touch_move": True, **CONVENTIONS,
    },
    "tournament_usbgf": {
        "mode": "strict", "tournament": True, "premature_roll": "commit", "crawford": True,
        "illegal_play": "answer", "point_out": "players_director", "coach": False, "clock": dict(USBGF_CLOCK),
        "touch_move": False, **CONVENTIONS,
    },
    "tournament_ukbgf": {
        "mode": "strict", "tournament": True, "premature_roll": "commit", "crawford": True,
        "illegal_play": "correct", "point_out": "players_director", "coach": False, "clock": dict(UKBGF_CLOCK),
        "touch_move": False, **CONVENTIONS,
    },
    "lesson": {
        "mode": "strict", "tournament": False, "premature_roll": "reject",
        "illegal_play": "correct", "point_out": "anyone", "coach": True, "clock": None,
        "touch_move": False, **CONVENTIONS,
    },
}
NAMES = tuple(RULE_SETS)


def rule_set(name: str) -> dict[str, Any]:
    """A copy of the named set's settings; KeyError names the known ones."""
    if name not in RULE_SETS:
        raise KeyError(f'unknown rule set {name!r} (known: {", ".join(NAMES)})')
    found = RULE_SETS[name]
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in found.items()}


def illegal_play(rules: dict[str, Any]) -> str:
    """What an illegal play gets under these rules (a match with no rule set: by ``mode``)."""
    value = rules.get("illegal_play")
    if value in ILLEGAL_PLAY:
        return str(value)
    return "correct" if rules.get("mode") == "strict" else "stands"
