"""The referee at a chouette's board (R26-R29): ``TableReferee`` routes chouette events to the session
(core.match.chouette) and the rest to the referee, the same everywhere a chouette is followed (the kiosk's
service, the club's director, ``gamao referee``).

- The session starts with a ``new_match`` event (money play, the referee's own cube off: ``cube_cap`` 1) that
  carries a ``"chouette"`` object: the players, their one-die rolls (R26), the order they give, the box's side
  on the board and the settings (``consult``, ``cube_cap``). ``new_match_event`` builds it; ``check_setup``
  refuses bad input naming the field.
- Every chouette action is one event ``{"event": "chouette", "action": ...}``: ``box_double``, ``team_double``
  (``members``), ``answer`` (``member``, ``take``), ``consult`` (``value``). The physical buttons
  double/take/drop become these events (``check``), so a journal holds what happened.
- It settles a chouette game when the board game ends (the box's result, 1, 2 or 3 per cube), abandons the board
  game when a chouette game ends because every cube was dropped, and adds ``"chouette"`` to the public state.
  Deterministic, like the referee: the same events give the same state.
- Exports: each game's board play as a match record (the box against the captain, with the captain's cube) and
  the ledger of every player's points (docs/CONTRACTS.md).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from core.match.chouette import (
    BOX,
    CHOUETTE,
    KEEP_LOG,
    ChouetteError,
    ChouetteGame,
    ChouetteInputError,
    ChouetteSession,
    check_setup,
    ledger_text_of,
    session_ledger,
)
from core.match.formats.mat import write_mat
from core.match.record import DOUBLE, DROP, TAKE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.referee.events import RULE_DEFAULTS, CheckedEvent, parse_event
from core.referee.machine import Referee
from core.referee.record import record_action
from core.referee.verdicts import KEEP_VERDICTS
from core.rules.position import Side

ACTIONS = ("box_double", "team_double", "answer", "consult")


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



def _pts(n: int) -> tuple[str, str]:
    return (f"{n} ponto" if n == 1 else f"{n} pontos"), (f"{n} point" if n == 1 else f"{n} points")


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
        out = cast(list[dict[str, Any]], self.referee.feed(event))
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
            st[CHOUETTE] = s.public(str(self.referee.phase), self.referee.turn)
            # The chouette's messages take their turn in the verdicts (the banner shows the latest).
            merged = sorted([*st["verdicts"], *s.log], key=lambda v: v.get("at") or 0)
            st["verdicts"] = [dict(v) for v in merged[-KEEP_VERDICTS:]]
            st["match"]["players"] = {s.box_side.value: s.ch.box, s.captain_side.value: s.ch.captain}
        return st

    def _ready(self, side: Side) -> None:
        """A double is made before the doubler's own roll; the opponent's finished play is committed first (R23)."""
        ref, s = self.referee, self.session
        assert s is not None
        if ref.phase == "moving" and ref.turn is side.other:
            ref.feed({"event": "button", "name": "end_turn"})
        if ref.phase != "awaiting_roll" or ref.turn is not side:
            who = "the box" if side is s.box_side else "the team"
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

    def _mark_settled(self, by: str | None, captain: str, game: ChouetteGame, answers: Mapping[str, bool | None]) -> None:
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

    def _drops_ended(self, game: ChouetteGame) -> list[dict[str, Any]]:
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

    def _rotated(self, game: ChouetteGame) -> dict[str, Any]:
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
            actions.append(record_action(a))
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
    if table.session is None:
        raise KeyError("not a chouette")
    return session_ledger(table.session)


def ledger_text(table: TableReferee) -> str:
    """The ledger as a plain table: one line per finished game, one column per player, then the totals."""
    return ledger_text_of(ledger(table))


__all__ = ["ACTIONS", "BOX", "CHOUETTE", "KEEP_LOG", "ChouetteInputError", "TableReferee", "check_setup", "game_mat",
           "game_record", "ledger", "ledger_text", "new_match_event", "table_event"]
