"""The chouette on the kiosk (R26-R29): one journal match is one chouette session.

core.match.chouette keeps the chouette's books (roles, each member's cube, the ledger, rotation); this module
ties them to the board game the referee follows and to the journal:

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

import copy
import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.match.chouette import BOX, Chouette, ChouetteError, ChouetteSettings, order_by_dice
from core.match.formats.mat import write_mat
from core.match.record import DOUBLE, DROP, TAKE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.referee import Referee
from core.referee.events import RULE_DEFAULTS, CheckedEvent, parse_event
from core.referee.machine import KEEP_VERDICTS
from core.referee.record import _action
from core.rules.position import Side
from kiosk.archive import file_stem, write_atomic

CHOUETTE = "chouette"
ACTIONS = ("box_double", "team_double", "answer", "consult")
NAME_MAX = 40
KEEP_LOG = 12
LEDGER_FORMAT = "gamao-chouette-ledger"


class ChouetteInputError(ValueError):
    """Bad chouette input; ``field`` names what was wrong (for a 422 that names it)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


# ----- set-up --------------------------------------------------------------------------------------------------
def check_setup(obj: Any) -> dict[str, Any]:
    """The ``"chouette"`` object of a new_match event, checked and normalised (``order`` computed, R26).

    ``{"players": [{"name": str, "rolls": [die, ...]}, ...], "box_side": "light"|"dark", "consult": bool,
    "cube_cap": int}``; a tie without its re-rolls is refused (``players``: each rolls again).
    """
    if not isinstance(obj, Mapping):
        raise ChouetteInputError("chouette", "must be an object with players, box_side, consult, cube_cap")
    players = obj.get("players")
    if not isinstance(players, list) or not 3 <= len(players) <= 12:
        raise ChouetteInputError("players", "a chouette needs 3 to 12 players, each {\"name\", \"rolls\"}")
    rolls: dict[str, list[int]] = {}
    for i, p in enumerate(players):
        if not isinstance(p, Mapping):
            raise ChouetteInputError(f"players[{i}]", 'must be {"name": text, "rolls": [one die, ...]}')
        name = p.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX:
            raise ChouetteInputError(f"players[{i}].name", f"a name of 1 to {NAME_MAX} characters")
        name = name.strip()
        if name in rolls:
            raise ChouetteInputError(f"players[{i}].name", f"{name!r} is there twice: each player once")
        r = p.get("rolls")
        r = [r] if isinstance(r, int) and not isinstance(r, bool) else r
        if (not isinstance(r, list) or not 1 <= len(r) <= 10
                or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in r)):
            raise ChouetteInputError(f"players[{i}].rolls", "one die each, 1 to 6 (and the re-rolls of a tie, in order)")
        rolls[name] = list(r)
    try:
        order = order_by_dice(rolls)
    except ChouetteError as exc:
        raise ChouetteInputError("players", str(exc)) from None
    box_side = obj.get("box_side", "light")
    if box_side not in ("light", "dark"):
        raise ChouetteInputError("box_side", f'"light" or "dark" (the side of the box), not {box_side!r}')
    consult = obj.get("consult", True)
    if not isinstance(consult, bool):
        raise ChouetteInputError("consult", "true or false (may crew members advise the captain, R27)")
    cap = obj.get("cube_cap", 64)
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 2 or cap > 4096 or cap & (cap - 1):
        raise ChouetteInputError("cube_cap", "a power of two from 2 to 4096 (the highest cube)")
    return {"players": [{"name": n, "rolls": r} for n, r in rolls.items()], "order": order,
            "box_side": box_side, "consult": consult, "cube_cap": cap}


def new_match_event(setup: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The new_match event that starts a chouette: money play, the box against the captain, the referee's own
    cube off (each member's cube is the chouette's)."""
    checked = check_setup(setup)
    box_side = checked["box_side"]
    other = "dark" if box_side == "light" else "light"
    order = checked["order"]
    return {"event": "new_match", "length": 0, "players": {box_side: order[0], other: order[1]},
            "rules": {**RULE_DEFAULTS, **(rules or {}), "crawford": False, "jacoby": False, "beavers": False,
                      "holland": False, "cube_cap": 1, "tournament": False},
            CHOUETTE: checked}


# ----- the session -----------------------------------------------------------------------------------------------
def _msg(pt: str, en: str) -> dict[str, str]:
    return {"pt": pt, "en": en}


def _pts(n: int) -> tuple[str, str]:
    return (f"{n} ponto" if n == 1 else f"{n} pontos"), (f"{n} point" if n == 1 else f"{n} points")


class ChouetteSession:
    """core's Chouette plus what the kiosk needs beside it: the box's side, which board games each chouette game
    was played on, the captain's cube actions for the .mat, and the recent messages."""

    def __init__(self, setup: Mapping[str, Any]) -> None:
        self.setup = dict(setup)
        self.box_side = Side(setup["box_side"])
        self.ch = Chouette(setup["order"], ChouetteSettings(consult=bool(setup["consult"]),
                                                            cube_cap=int(setup["cube_cap"])))
        self.bound: dict[int, int] = {}  # referee game index -> chouette game number
        self.marks: list[dict[str, Any]] = []  # the captain's cube on the board: {"board", "at", "kind", "side", "value"}
        self.log: list[dict[str, Any]] = []
        self.offer_by: str | None = None  # "box" | "team" while a double waits for answers
        self.offer_values: dict[str, int] = {}
        self.offer_at: tuple[int, int] = (0, 0)  # (referee game index, its action count) when the double was made
        self.after_game: list[dict[str, int]] = []  # the ledger after each finished game

    @property
    def captain_side(self) -> Side:
        return self.box_side.other

    def say(self, at: int, kind: str, pt: str, en: str, **extra: Any) -> dict[str, Any]:
        v = {"at": at, "verdict": CHOUETTE, "action": kind, "message": _msg(pt, en), **extra}
        self.log.append(v)
        del self.log[:-KEEP_LOG]
        return v

    def may_double(self) -> dict[str, Any]:
        ch = self.ch
        if ch.pending:
            return {"box": [], "team": []}
        cap = ch.settings.cube_cap
        live = ch.live()
        return {"box": [m for m in live if ch.cubes[m].owner in (None, BOX) and ch.cubes[m].value * 2 <= cap],
                "team": [m for m in live if ch.cubes[m].owner in (None, m) and ch.cubes[m].value * 2 <= cap]}

    def public(self, referee: Referee) -> dict[str, Any]:
        ch = self.ch
        roles = {ch.box: "box", ch.captain: "captain", **{m: "crew" for m in ch.crew}}
        turn = None
        if referee.phase == "awaiting_roll":
            turn = "box" if referee.turn is self.box_side else "team"
        elif referee.phase == "moving":  # the doubler's opponent is moving: a double commits the play first
            turn = "team" if referee.turn is self.box_side else "box"
        pending = None
        if ch.pending:
            pending = {"by": self.offer_by,
                       "answers": [{"member": m, "value": self.offer_values.get(m),
                                    "answer": None if a is None else ("take" if a else "drop")}
                                   for m, a in ch.pending.items()],
                       "waiting": [m for m, a in ch.pending.items() if a is None]}
        return {
            "players": [p["name"] for p in self.setup["players"]],
            "rolls": {p["name"]: p["rolls"] for p in self.setup["players"]},
            "order": list(self.setup["order"]),
            "box": ch.box, "captain": ch.captain, "crew": list(ch.crew),
            "box_side": self.box_side.value, "captain_side": self.captain_side.value,
            "consult": ch.settings.consult, "cube_cap": ch.settings.cube_cap,
            "game": ch.game.number,
            "cubes": [{"member": m, "role": roles[m], "value": ch.cubes[m].value,
                       "owner": None if ch.cubes[m].owner is None else ("box" if ch.cubes[m].owner == BOX else m),
                       "live": ch.cubes[m].live} for m in ch.team],
            "pending": pending,
            "may_double": self.may_double(),
            "doubling": turn,
            "ledger": [{"name": n, "points": ch.ledger[n], "role": roles[n]} for n in self.setup["order"]],
            "games": [_game_summary(g) for g in ch.games[:-1]],
            "log": [dict(v) for v in self.log],
        }


def _game_summary(g: Any) -> dict[str, Any]:
    return {"number": g.number, "box": g.box, "captain": g.captain, "crew": list(g.crew), "captains": list(g.captains),
            "box_won": g.box_won, "points": g.points,
            "payments": [{"payer": p.payer, "payee": p.payee, "points": p.points, "why": p.why} for p in g.payments]}


class TableReferee:
    """The referee as the service holds it: chouette events go to the session, the rest to the referee.

    Every attribute it does not define is the referee's (``phase``, ``index``, ``games``, ...), so the service and
    the record writers use it as they use a Referee. Deterministic, like the referee: the same events give the
    same state, which is how the journal restores a chouette after a power cut.
    """

    def __init__(self, referee: Referee | None = None) -> None:
        self.referee = referee or Referee()
        self.session: ChouetteSession | None = None

    def __getattr__(self, name: str) -> Any:
        referee = self.__dict__.get("referee")
        if referee is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(referee, name)

    # ----- checking before the journal -----------------------------------------------------------------------
    def check(self, event: Mapping[str, Any]) -> CheckedEvent | None:
        """The event as the journal must store it when the chouette decides it, or None to let the referee's own
        check decide. Raises ValueError (naming the field) for what a chouette does not allow now."""
        kind = event.get("event") if isinstance(event, Mapping) else None
        s = self.session
        if kind == "new_match":
            if event.get(CHOUETTE) is None:
                return None
            ev = parse_event({k: v for k, v in event.items() if k != CHOUETTE}, self.referee.index)
            ev[CHOUETTE] = check_setup(event[CHOUETTE])
            ChouetteSession(ev[CHOUETTE])
            return ev
        if kind == CHOUETTE:
            if s is None:
                raise ValueError("no chouette is being played: start one first (POST /api/chouette)")
            ev = CheckedEvent(self._check_action(event))
        elif s is None:
            return None
        elif kind == "cube":
            raise ValueError("in a chouette each member has their own cube: use the chouette's double, take and drop "
                             "(R29), not the board's cube")
        elif kind == "button" and event.get("name") in ("double", "take", "drop"):
            ev = CheckedEvent(self._from_button(event))
        elif kind in ("roll", "resign", "resign_reply") and s.ch.pending:
            waiting = ", ".join(m for m, a in s.ch.pending.items() if a is None)
            raise ValueError(f"a double is waiting for answers from {waiting}: answer it first (R29)")
        else:
            return None
        trial = copy.deepcopy(self)
        trial.feed(ev)  # raises ChouetteError (a ValueError) when the chouette does not allow it now
        return ev

    def _check_action(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.session
        assert s is not None
        action = event.get("action")
        if action not in ACTIONS:
            raise ChouetteInputError("action", f"one of {', '.join(ACTIONS)}, not {json.dumps(action)}")
        ev: dict[str, Any] = {"event": CHOUETTE, "action": action}
        if action == "team_double":
            members = event.get("members")
            if members is not None:
                if not isinstance(members, list) or not all(isinstance(m, str) for m in members) or not members:
                    raise ChouetteInputError("members", "a list of the team members who double (or leave it out: "
                                                        "every member who may)")
                unknown = [m for m in members if m not in s.ch.ledger]
                if unknown:
                    raise ChouetteInputError("members", f"not in this chouette: {', '.join(unknown)}")
                ev["members"] = list(dict.fromkeys(members))
        elif action == "answer":
            member = event.get("member")
            if not isinstance(member, str) or member not in s.ch.ledger:
                raise ChouetteInputError("member", f"a player of this chouette ({', '.join(s.ch.ledger)}), "
                                                   f"not {json.dumps(member)}")
            take = event.get("take")
            if not isinstance(take, bool):
                raise ChouetteInputError("take", "true (takes the double) or false (drops it)")
            ev.update(member=member, take=take)
        elif action == "consult":
            value = event.get("value")
            if not isinstance(value, bool):
                raise ChouetteInputError("value", "true or false (may crew members advise the captain, R27)")
            ev["value"] = value
        return ev

    def _from_button(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A physical double / take / drop button in a chouette: the double of whoever is to roll; an answer for
        the first member (or cube) still waiting, in order."""
        s = self.session
        assert s is not None
        name = event["name"]
        if name == "double":
            side = event.get("side")
            if side is None:
                side = self.referee.turn.value if self.referee.phase == "awaiting_roll" else self.referee.turn.other.value
            if side == s.box_side.value:
                return {"event": CHOUETTE, "action": "box_double"}
            return {"event": CHOUETTE, "action": "team_double", "members": [s.ch.captain]}
        waiting = [m for m, a in s.ch.pending.items() if a is None]
        if not waiting:
            raise ValueError("no double is waiting for an answer")
        return {"event": CHOUETTE, "action": "answer", "member": waiting[0], "take": name == "take"}

    # ----- feeding --------------------------------------------------------------------------------------------
    def feed(self, event: Mapping[str, Any]) -> list[dict[str, Any]]:
        kind = event.get("event")
        if kind == CHOUETTE:
            return self._chouette(event)
        if kind == "new_match":
            setup = event.get(CHOUETTE)
            self.session = ChouetteSession(setup) if setup else None
        out = self.referee.feed(event)
        if kind == "new_match" and self.session is not None:
            ch = self.session.ch
            out.append(self.session.say(
                self.referee.index, "start",
                f"Chouette: banqueiro {ch.box}, capitão {ch.captain}, apostadores {', '.join(ch.crew)}.",
                f"Chouette: box {ch.box}, captain {ch.captain}, crew {', '.join(ch.crew)}."))
        elif self.session is not None:
            out += self._board_games()
        return out

    def public_state(self) -> dict[str, Any]:
        st = self.referee.public_state()
        s = self.session
        if s is not None:
            st[CHOUETTE] = s.public(self.referee)
            # The chouette's messages take their turn in the verdicts (the banner shows the latest).
            merged = sorted([*st["verdicts"], *s.log], key=lambda v: v.get("at") or 0)
            st["verdicts"] = [dict(v) for v in merged[-KEEP_VERDICTS:]]
            st["match"]["players"] = {s.box_side.value: s.ch.box, s.captain_side.value: s.ch.captain}
        return st

    def _ready(self, side: Side) -> None:
        """A double is made before the doubler's own roll; the opponent's finished play is committed first (R23)."""
        ref = self.referee
        if ref.phase == "moving" and ref.turn is side.other:
            ref.feed({"event": "button", "name": "end_turn"})
        if ref.phase != "awaiting_roll" or ref.turn is not side:
            who = "the box" if side is self.session.box_side else "the team"  # type: ignore[union-attr]
            raise ChouetteError(f"{who} may double only before its own roll (the board is at: {ref.phase})")

    def _chouette(self, event: Mapping[str, Any]) -> list[dict[str, Any]]:
        s = self.session
        if s is None:
            raise ChouetteError("no chouette is being played")
        ch = s.ch
        at = self.referee.index
        action = event["action"]
        out: list[dict[str, Any]] = []
        game_before = ch.game
        if action == "consult":
            ch.settings = replace(ch.settings, consult=bool(event["value"]))
            out.append(s.say(at, action, "Os apostadores podem sugerir ao capitão como jogar." if event["value"] else
                             "Os apostadores não podem aconselhar o capitão.",
                             "Crew members may advise the captain." if event["value"] else
                             "Crew members may not advise the captain.", value=event["value"]))
            return out
        if action in ("box_double", "team_double"):
            by_box = action == "box_double"
            offered = ch.box_doubles() if by_box else ch.team_doubles(event.get("members"))
            self._ready(s.box_side if by_box else s.captain_side)  # after core's own checks: their words come first
            s.offer_by = "box" if by_box else "team"
            s.offer_values = {m: ch.cubes[m].value * 2 for m in offered}
            board = len(self.referee.games) - 1
            s.offer_at = (board, len(self.referee.games[board]["actions"]))
            names = ", ".join(f"{m} ({s.offer_values[m]})" for m in offered)
            if by_box:
                out.append(s.say(at, action, f"O banqueiro ({ch.box}) dobra: cada um aceita ou desiste do repique: {names}.",
                                 f"The box ({ch.box}) doubles: each member takes or drops alone: {names}.",
                                 members=offered))
            else:
                out.append(s.say(at, action, f"O time dobra: {names}. O banqueiro ({ch.box}) aceita ou desiste de cada "
                                 "cubo.", f"The team doubles: {names}. The box ({ch.box}) answers each cube alone.",
                                 members=offered))
            return out
        # answer
        member, take = event["member"], bool(event["take"])
        by, captain = s.offer_by, ch.captain
        value = ch.cubes[member].value if member in ch.cubes else 1
        answers = {**ch.pending, member: take}
        settled = ch.answer(member, take)
        if by == "box":
            pt_pay, en_pay = _pts(value)
            out.append(s.say(at, action, f"{member} aceita o repique: o cubo de {member} vale {value * 2}." if take else
                             f"{member} desiste e paga {pt_pay} ao banqueiro ({ch.box}).",
                             f"{member} takes: {member}'s cube is now {value * 2}." if take else
                             f"{member} drops and pays the box ({ch.box}) {en_pay}.", member=member, take=take))
        else:
            pt_pay, en_pay = _pts(value)
            out.append(s.say(at, action, f"O banqueiro aceita o cubo de {member}: vale {value * 2}." if take else
                             f"O banqueiro desiste do cubo de {member} e paga {pt_pay} a {member}.",
                             f"The box takes {member}'s cube: it is now {value * 2}." if take else
                             f"The box drops {member}'s cube and pays {member} {en_pay}.", member=member, take=take))
        if not settled:
            return out
        self._mark_settled(by, captain, game_before, answers)
        s.offer_by, s.offer_values = None, {}
        if ch.game is game_before and ch.captain != captain:
            out.append(s.say(at, "captain", f"{captain} desistiu: {ch.captain} aceitou e passa a ser o capitão; "
                             f"{captain} passa a ser o último apostador.",
                             f"{captain} dropped: {ch.captain} took and is the captain now; {captain} goes to the "
                             "end of the crew.", captain=ch.captain, old=captain))
        if ch.game is not game_before:
            out += self._drops_ended(game_before)
        return out

    def _mark_settled(self, by: str | None, captain: str, game: Any, answers: Mapping[str, bool | None]) -> None:
        """The captain's cube on the board, for the .mat: the double and its answer where the board game shows one."""
        s = self.session
        assert s is not None
        board, at = s.offer_at
        if captain not in s.offer_values:
            return
        value = s.offer_values[captain]
        ended = s.ch.game is not game
        dropped = answers.get(captain) is False
        if by == "box" and dropped and not ended:  # a crew member took and is captain: the board goes on at their cube
            value = s.ch.cubes[s.ch.captain].value
            dropped = False
        doubler, answerer = (s.box_side, s.captain_side) if by == "box" else (s.captain_side, s.box_side)
        if dropped and not ended and by == "team":
            return  # the box dropped the captain's cube but plays on against the others' cubes: no .mat cube here
        marks = [{"board": board, "at": at, "kind": DOUBLE, "side": doubler.value, "value": value},
                 {"board": board, "at": at, "kind": DROP if dropped and ended else TAKE, "side": answerer.value,
                  "value": value}]
        s.marks += marks

    def _drops_ended(self, game: Any) -> list[dict[str, Any]]:
        """Every cube was dropped: the chouette game is over; the board game is left unfinished (no points)."""
        s = self.session
        assert s is not None
        j = len(self.referee.games) - 1
        g = self.referee.games[j]
        if g["result"] is None and not g.get("abandoned") and g["actions"]:
            s.bound[j] = game.number
            self.referee.feed({"event": "button", "name": "new_game"})
        s.after_game.append(dict(s.ch.ledger))
        return [self._rotated(game)]

    def _board_games(self) -> list[dict[str, Any]]:
        """Settle the chouette game whose board game just ended (each live cube: 1, 2 or 3 times its value)."""
        s = self.session
        assert s is not None
        out = []
        for j, g in enumerate(self.referee.games):
            if j in s.bound:
                continue
            if g.get("abandoned"):
                s.bound[j] = s.ch.game.number  # restarted on the board: the chouette game goes on
            elif g["result"] is not None:
                game = s.ch.game
                s.bound[j] = game.number
                res = g["result"]
                try:
                    s.ch.end_game(box_wins=res["winner"] == s.box_side.value, points=min(3, max(1, int(res["points"]))))
                except ChouetteError as exc:  # cannot happen through check(); never stop the kiosk over it
                    out.append(s.say(self.referee.index, "error", f"Chouette: {exc}", f"Chouette: {exc}"))
                    continue
                s.after_game.append(dict(s.ch.ledger))
                out.append(self._rotated(game))
        return out

    def _rotated(self, game: Any) -> dict[str, Any]:
        s = self.session
        assert s is not None
        ch = s.ch
        won = "o banqueiro ganha" if game.box_won else "o banqueiro perde"
        won_en = "the box wins" if game.box_won else "the box loses"
        how = (f" ({game.points} por cubo)" if game.points else " (todos desistiram)" if game.box_won
               else " (o banqueiro desistiu de todos os cubos)")
        how_en = (f" ({game.points} a cube)" if game.points else " (every cube dropped)" if game.box_won
                  else " (the box dropped every cube)")
        return s.say(self.referee.index, "game_over",
                     f"Fim do jogo {game.number}: {won}{how}. Rodízio: banqueiro {ch.box}, capitão {ch.captain}, "
                     f"apostadores {', '.join(ch.crew)}.",
                     f"Game {game.number} over: {won_en}{how_en}. Rotation: box {ch.box}, captain {ch.captain}, "
                     f"crew {', '.join(ch.crew)}.", game=game.number, box_won=game.box_won)


def table_event(referee: Any, event: Any) -> CheckedEvent | None:
    """The service's hook: the checked event when the chouette decides it, None when the referee's own check does."""
    if isinstance(referee, TableReferee) and isinstance(event, Mapping):
        return referee.check(event)
    if isinstance(event, Mapping) and event.get("event") == CHOUETTE:
        raise ValueError("no chouette is being played: start one first (POST /api/chouette)")
    return None


# ----- exports --------------------------------------------------------------------------------------------------
def game_record(table: TableReferee, number: int) -> MatchRecord:
    """Chouette game ``number``'s board play: the box against the captain, with the captain's cube."""
    s = table.session
    if s is None:
        raise KeyError("not a chouette")
    games = s.ch.games
    if not 1 <= number <= len(games):
        raise KeyError(str(number))
    game = games[number - 1]
    captain = game.captains[-1]
    record = MatchRecord(length=0, players={s.box_side: game.box, s.captain_side: captain},
                         rules=MatchRules(crawford=False), source="kiosk")
    record.headers = {"Event": f"Chouette game {number}", "Transcriber": "Gamão kiosk",
                      "Comment": f"box {game.box}, captains {', '.join(game.captains)}, crew {', '.join(game.crew)}"}
    boards = sorted(j for j, n in s.bound.items() if n == number)
    if number == games[-1].number and table.referee.games:
        j = len(table.referee.games) - 1
        if j not in s.bound:
            boards.append(j)  # the game being played
    cube = 1
    for k, j in enumerate(boards, start=1):
        g = table.referee.games[j]
        marks = [m for m in s.marks if m["board"] == j]
        actions: list[Action] = []
        for i, a in enumerate(g["actions"]):
            actions += [Action(m["kind"], Side(m["side"]), value=m["value"] if m["kind"] == DOUBLE else None)
                        for m in marks if m["at"] == i]
            actions.append(_action(a))
        actions += [Action(m["kind"], Side(m["side"]), value=m["value"] if m["kind"] == DOUBLE else None)
                    for m in marks if m["at"] >= len(g["actions"])]
        for m in marks:
            if m["kind"] == TAKE:
                cube = m["value"]
        rec = GameRecord(number=k, score={Side.LIGHT: 0, Side.DARK: 0})
        rec.actions = actions
        res = g["result"]
        if res is not None:
            mult = min(3, max(1, int(res["points"])))
            how = res["how"] if res["how"] in ("single", "gammon", "backgammon", "resign") else "single"
            rec.result = GameResult(Side(res["winner"]), mult * cube, how, mult, cube)
        elif k == len(boards) and any(m["kind"] == DROP for m in marks):
            dropped = next(m for m in marks if m["kind"] == DROP)
            rec.result = GameResult(Side(dropped["side"]).other, dropped["value"] // 2, "drop", 1, dropped["value"] // 2)
        record.games.append(rec)
    return record


def game_mat(table: TableReferee, number: int) -> str:
    return write_mat(game_record(table, number))


def ledger(table: TableReferee) -> dict[str, Any]:
    """Every player's points, game by game (the JSON export, docs/CONTRACTS.md)."""
    s = table.session
    if s is None:
        raise KeyError("not a chouette")
    ch = s.ch
    games = []
    for g, after in zip(ch.games, s.after_game, strict=False):
        games.append({**_game_summary(g), "ledger": after})
    return {"format": LEDGER_FORMAT, "version": 1, "players": list(s.setup["order"]),
            "rolls": {p["name"]: p["rolls"] for p in s.setup["players"]},
            "settings": {"consult": ch.settings.consult, "cube_cap": ch.settings.cube_cap,
                         "box_side": s.box_side.value},
            "games": games, "ledger": dict(ch.ledger), "total": sum(ch.ledger.values()),
            "next": {"box": ch.box, "captain": ch.captain, "crew": list(ch.crew)}}


def ledger_text(table: TableReferee) -> str:
    """The ledger as a plain table: one line per finished game, one column per player, then the totals."""
    data = ledger(table)
    names = data["players"]
    width = max(8, *(len(n) for n in names))
    head = f"{'game':>4}  {'box':<{width}} {'captain':<{width}} " + " ".join(f"{n:>{width}}" for n in names)
    lines = ["; Gamão chouette ledger (R26-R29): running totals after each game; they always sum to zero", head]
    for g in data["games"]:
        cap = "/".join(g["captains"])
        lines.append(f"{g['number']:>4}  {g['box']:<{width}} {cap:<{width}} "
                     + " ".join(f"{g['ledger'][n]:>{width}}" for n in names))
    lines.append(f"{'':>4}  {'total':<{width}} {'':<{width}} " + " ".join(f"{data['ledger'][n]:>{width}}" for n in names))
    return "\n".join(lines) + "\n"


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
