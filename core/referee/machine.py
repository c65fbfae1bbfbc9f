"""The referee: a stream of events in, what a good human referee would say out.

``Referee.feed(event)`` takes one event (core.referee.events format) and returns verdicts
``{"at": index, "verdict": name, ...}``. It is deterministic: the same events give the same verdicts and
the same ``public_state()``, which is how the kiosk's journal brings it back after a power cut.

A play is ruled on from the board alone: each stable board is matched against the candidates of the
roll (core.referee.inference); a board that fits no legal play is explained by core.referee.faults. A play is
committed by the opponent's roll or double, or by the end-turn button (R23). In casual mode a flagged
illegal play stands once committed; in strict mode the commit is refused until the board is corrected.

Every verdict has ``at`` (the index of the event that caused it), ``verdict`` and ``message``
({"pt", "en"}); the others, by verdict:

- ``opening``: side (who starts), dice. ``roll``: side, dice.
- ``reroll``: reason (cocked_die, tied_opening, roll_out_of_turn, roll_not_expected), dice; the roll
  does not count.
- ``in_progress``: side, dice, play (so far), complete (a whole legal play is on the board), used.
- ``play``: side, dice, play, legal, position_id and match_id after it; ``reason`` (and ``committed_by``,
  the event that committed it) when a flagged play was let stand (casual), ``guessed`` when the game ended
  (or a cube action, a resignation or the end-turn button came) before the boards could decide it,
  ``corrected`` when it replaces the same side's last play (a later board showed that commit misread).
- ``uncertain``: side, dice, candidates; ``committing`` when it happened at a commit, ``pending`` when
  the game goes on and the following boards will decide; ``reason`` "point_covered" (with ``covered``, the
  points as the mover numbers them, ``point`` the first, ``by`` what covers them) when the opponent's roll
  waits because an object stands on the board.
- ``illegal`` / ``unplayed_die``: side, reason (core.messages.REASONS), point/move/unplayed/die when
  they apply, play (the moves seen); ``late`` on an unplayed die seen only after the end-turn button.
- ``cube``: action, side, value. ``game_over``: winner, points, how. ``match_over``: score [light, dark],
  winner.

The referee is composed of parts, each owning one concern (no part inherits another's):

- the dispatch (this module): each event kind's handler in ``HANDLERS``, one line each; rolls and buttons;
- ``verdicts``: the verdicts' typed shape and how one is built;
- ``reading.BoardReading``: a stable board ruled on, while moving and between turns;
- ``held.HeldRoll``: a roll (or double, resignation) held while the play before it is unclear;
- ``cover.Cover``: a roll held while an object (a dice cup...) covers a point of the board;
- ``commit.Commit``: the commit (R23) and the open play (``pending``);
- ``turns.Turns``: a turn's start and end, a roll with no legal play (R25), a chain's next link;
- ``ending.GameEnd``: resignations and the end of a game or match;
- ``doubling.Doubling``: the cube;
- ``tournament.Tournament``: the tournament clock and the answer to a flagged illegal play (issue 21);
- ``games``: what differs between games (backgammon, Plakoto, Russian, Jacquet), by the position's class.

>>> ref = Referee()
>>> [v["verdict"] for v in ref.feed({"event": "roll", "dice": [5, 2]})]
['opening']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from core.referee.commit import Commit
from core.referee.conventions import Conventions
from core.referee.cover import Cover
from core.referee.doubling import Doubling
from core.referee.ending import GameEnd
from core.referee.events import RULE_DEFAULTS, CheckedEvent, parse_event
from core.referee.games import Game, game_of
from core.referee.held import HeldRoll
from core.referee.inference import position_of_vec
from core.referee.reading import BoardReading
from core.referee.state import MatchState, Phase
from core.referee.tournament import Tournament
from core.referee.turn import TurnState
from core.referee.turns import Turns
from core.referee.verdicts import KEEP_VERDICTS, Verdict, reroll, verdict
from core.rules.matchid import MatchIdState
from core.rules.position import Side


class _MatchField:
    """An attribute of the referee that is its match state's (``Referee.pos`` is ``match_state.pos``)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(obj.match_state, self.name)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(obj.match_state, self.name, value)


class Referee:
    """The referee state machine. ``rules`` as in the new_match event (crawford, mode, ...).

    It owns no game state of its own beyond the event count: the match's state is ``match_state``
    (core.referee.state.MatchState), the current turn's view of the board is ``turn_state``
    (core.referee.turn.TurnState); the referee reads the events, rules on them through its parts and says so.
    """

    def __init__(self, rules: Mapping[str, Any] | None = None, length: int = 0,
                 players: Mapping[str, str] | None = None) -> None:
        self.held_roll = HeldRoll(self)
        self.cover = Cover(self)
        self.reading = BoardReading(self)
        self.committer = Commit(self)
        self.turns = Turns(self)
        self.ending = GameEnd(self)
        self.doubling = Doubling(self)
        self.conventions = Conventions(self)  # the table's conventions, R19-R22 (issue 36)
        self.verdicts: list[Verdict] = []
        self.index = 0
        self.last_seq: Any = None
        self._start_match(length, dict(players or {"light": "Light", "dark": "Dark"}), {**RULE_DEFAULTS, **(rules or {})})

    def _start_match(self, length: int, players: dict[str, str], rules: dict[str, Any]) -> None:
        self.match_state = MatchState(length, players, rules)
        self.turn_state = TurnState()
        self.tournament = Tournament(self, rules, length)  # the clock and illegal-play answers (issue 21)

    # The match's state as attributes of the referee (a test sets a game up through pos, turn and phase).
    pos = _MatchField()
    turn = _MatchField()
    phase = _MatchField()
    dice = _MatchField()
    rules = _MatchField()
    length = _MatchField()
    players = _MatchField()
    games = _MatchField()

    def next_game(self) -> None:
        self.match_state.new_game()
        self.turn_state = TurnState()

    def feed(self, event: Mapping[str, Any]) -> list[Verdict]:
        """Rule on one event. Raises core.referee.events.EventError (a ValueError) for a malformed event.

        An event that ``parse_event`` already checked (a CheckedEvent, as the kiosk's service and
        ``read_lines`` give them) is not checked again."""
        at = self.index
        ev = event if type(event) is CheckedEvent else parse_event(dict(event), at)
        self.index += 1
        out: list[Verdict] = []
        if not self.tournament.before(at, ev, out):  # time passes to ev["t"]: a flag may fall (issue 21)
            self.cover.before(at, ev, out)  # a roll waiting for an object to be taken away goes first
            self.dispatch(at, ev, out)
            self.conventions.after(at, ev, out)  # said as the table's conventions say it (issue 36)
            self.tournament.after(at, ev, out)  # whose time runs now
        self.verdicts.extend(out)
        del self.verdicts[:-KEEP_VERDICTS]
        return out

    def dispatch(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        """Rule on a checked event (``feed``'s, or one a held commit let through) by its kind."""
        HANDLERS[ev["event"]](self, at, ev, out)

    def on_new_match(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        self._start_match(ev["length"], ev["players"], ev["rules"])

    def on_roll(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        dice = (ev["dice"][0], ev["dice"][1])
        seq = ev.get("seq")
        if seq is not None:
            if seq == self.last_seq:
                return  # the dice unit sent the same roll again: one roll, one verdict
            self.last_seq = seq
        if self.match_state.phase == Phase.MATCH_OVER:
            reroll(out, at, "roll_not_expected", why_pt="a partida terminou", why_en="the match is over")
            return
        if self.match_state.phase == Phase.CUBE_OFFERED:
            reroll(out, at, "roll_not_expected", why_pt="há um cubo oferecido esperando resposta",
                         why_en="a double is waiting for an answer")
            return
        # Who rolls again (the screen names them, issue 37): the opponent of a player still moving, else the
        # player on roll; both in the opening.
        phase = self.match_state.phase
        roller = {} if phase == Phase.OPENING else {
            "roller": (self.match_state.turn.other if phase == Phase.MOVING else self.match_state.turn).value}
        if self.match_state.awaiting_ack:
            reroll(out, at, "cocked_die", n=self.match_state.awaiting_ack, **roller)
            return
        if any(ev["cocked"]):
            n = 1 if ev["cocked"][0] else 2
            self.match_state.awaiting_ack = n
            reroll(out, at, "cocked_die", n=n, dice=list(dice), **roller)
            return
        if self.cover.hold(at, ev, out):
            return  # an object covers a point: the mover's play is not ruled on a board the camera cannot see
        self.take_roll(at, ev, out)

    def take_roll(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        """A roll that counts: it commits the mover's play (R23), or opens the game or the turn."""
        dice = (ev["dice"][0], ev["dice"][1])
        if self.match_state.phase == Phase.MOVING and self.turn_state.held is not None and self.turn_state.held[1]["event"] == "roll":
            self.held_roll.release(out)
        if self.match_state.phase == Phase.MOVING:
            if self.premature(dice):
                reroll(out, at, "roll_out_of_turn", side=self.match_state.turn.value, dice_prev=list(self.match_state.dice or ()))
                return
            if not self.committer.commit(at, ev, out):
                return
            if self.match_state.phase == Phase.MATCH_OVER:
                return
            # A commit that ended the game (an unclear last bear-off): this is the next game's opening roll.
        if self.match_state.phase == Phase.GAME_OVER:
            self.next_game()
        if self.match_state.phase == Phase.OPENING:
            if dice[0] == dice[1]:
                reroll(out, at, "tied_opening", die=dice[0], dice=list(dice))
                return
            starter = Side.LIGHT if dice[0] > dice[1] else Side.DARK
            self.match_state.pos = self.match_state.pos.with_turn(starter)
            verdict(out, at, "opening", side=starter.value, dice=list(dice))
            self.turns.begin_turn(at, starter, dice, out)
            return
        if self.match_state.phase != Phase.AWAITING_ROLL:
            return
        if self.game.rerolls(self.match_state.pos.with_turn(self.match_state.turn), dice):
            reroll(out, at, "first_roll_double", side=self.match_state.turn.value, dice=list(dice))
            return
        verdict(out, at, "roll", side=self.match_state.turn.value, dice=list(dice))
        self.turns.begin_turn(at, self.match_state.turn, dice, out)

    def premature(self, dice: tuple[int, int]) -> bool:
        """With rules.premature_roll == "reject", a roll while the play is visibly unfinished is refused."""
        if self.match_state.rules.get("premature_roll") != "reject" or self.turn_state.model is None or self.turn_state.model.max_dice == 0:
            return False
        if self.turn_state.last_fault is not None:
            return False
        if self.turn_state.last_turn_obs is None:
            return True
        # Judged as at commit time: a finished play under a little camera noise is not unfinished.
        return self.turn_state.model.explain(self.turn_state.last_turn_obs, committing=True).kind in ("nothing", "in_progress")

    def on_button(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        name = ev["name"]
        if self.tournament.on_button(at, ev, out):  # the clock's press (core.referee.tournament)
            return
        if name == "ack_cocked":
            self.match_state.awaiting_ack = 0
        elif name == "end_turn":
            self.held_roll.release_first(out)  # a roll waiting on an unclear play: the press is its player's
            if self.match_state.phase == Phase.MOVING:
                self.committer.commit(at, ev, out)
        elif name == "undo":
            if self.match_state.can_undo():
                self.turn_state.restore(self.match_state.undo())
        elif name == "new_game":
            if self.match_state.phase == Phase.MOVING:
                self.reading.settle_game_end(at, out)
            if self.match_state.phase == Phase.GAME_OVER:
                self.next_game()
            elif self.match_state.phase in (Phase.MOVING, Phase.AWAITING_ROLL, Phase.CUBE_OFFERED) and self.match_state.games[-1]["actions"]:
                # The players start again before this game ended (the referee lost track of it, or they
                # gave it up): it stays in the record unfinished, with no points.
                number = self.match_state.abandon_game()
                self.turn_state = TurnState()
                verdict(out, at, "abandoned", number=number,
                        message={"pt": "Jogo deixado inacabado, sem pontos. Novo jogo: lancem para ver quem começa.",
                                 "en": "Game left unfinished, with no points. New game: roll to see who starts."})
        elif name == "double":
            side = self.match_state.turn if self.match_state.phase == Phase.AWAITING_ROLL else self.match_state.turn.other
            self.doubling.cube(at, "double", Side(ev.get("side", side)), out)
        elif name in ("take", "drop"):
            side = self.match_state.cube.offered_by.other if self.match_state.cube.offered_by else self.match_state.turn
            self.doubling.cube(at, name, Side(ev.get("side", side)), out)

    def push_undo(self) -> None:
        """Keep the state before a commit, for the undo button (both players agree, R23)."""
        self.match_state.push_undo(self.turn_state.snapshot())

    @property
    def game(self) -> Game:
        """The game being played (core.referee.games), by the position's class."""
        return game_of(self.match_state.pos)

    def public_state(self) -> dict[str, Any]:
        """GET /api/state and the WebSocket pushes (docs/CONTRACTS.md)."""
        # The board as it stands (the referee's reading of this turn's play so far), and as the turn began.
        shown = self.turn_state.shown_pos if self.match_state.phase == Phase.MOVING and self.turn_state.shown_pos is not None else self.match_state.pos
        ms = self.match_state
        match_id = ms.match_id()
        state_pos, start_pos = ({**p.to_dict(), "position_id": p.position_id(ms.turn), "match_id": match_id}
                                for p in (shown, ms.pos))
        return {
            "match": ms.public_match(),
            "position": state_pos,
            "position_at_turn_start": start_pos,
            "turn": self.match_state.turn.value,
            "phase": str(self.match_state.phase),
            "dice": {"values": list(self.match_state.dice) if self.match_state.dice else [],
                     "cocked": [False, False] if not self.match_state.awaiting_ack else [self.match_state.awaiting_ack == 1, self.match_state.awaiting_ack == 2],
                     "used": list(self.turn_state.used)},
            "cube": ms.public_cube(),
            "pips": {s.value: shown.pips(s) for s in Side},
            "verdicts": [dict(v) for v in self.verdicts],
            "moves": [dict(r) for r in self.match_state.moves],
            "resignation": ({"side": self.match_state.resignation[0].value, "value": self.match_state.resignation[1]}
                            if self.match_state.resignation else None),
            "clock": self.tournament.public(),
            **self.game.public(ms.pos, self.turn_state.model, ms.moves, ms.turn, ms.phase),
        }


Handler = Callable[[Referee, int, Mapping[str, Any], list[Verdict]], None]
#: Each event kind's handler: a new kind of event is one line here (and its check in core.referee.events).
HANDLERS: dict[str, Handler] = {
    "new_match": Referee.on_new_match,
    "roll": Referee.on_roll,
    "board": lambda ref, at, ev, out: ref.reading.on_board(at, ev, out),
    "cube": lambda ref, at, ev, out: ref.doubling.on_cube(at, ev, out),
    "resign": lambda ref, at, ev, out: ref.ending.on_resign(at, ev, out),
    "resign_reply": lambda ref, at, ev, out: ref.ending.on_resign_reply(at, ev, out),
    "button": Referee.on_button,
    "tick": lambda ref, at, ev, out: None,  # time passing and nothing else: the clock's warning or flag (issue 21)
    "illegal_play_answer": lambda ref, at, ev, out: ref.tournament.answer(at, ev, out),
    "touch_move": lambda ref, at, ev, out: ref.conventions.claim(at, ev, out),  # R19 (issue 36)
}

__all__ = ["HANDLERS", "KEEP_VERDICTS", "MatchIdState", "Phase", "Referee", "Verdict", "position_of_vec"]
