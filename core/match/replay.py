"""Replay a match record against the rules: every play, cube action and result.

``replay(record)`` walks each game from the start position, resolves every written play against the
roll with the rules core, checks every cube action against the cube's state and the match (Crawford,
Holland), recomputes each game's result and compares it with the one the file states. It fills in
``Action.play`` / ``Action.position`` and ``GameRecord.result`` and returns a ``ReplayReport``.

A play that breaks the rules is reported at its line and the game goes on from the position as played
(R23: on a real board a mistaken play stands once the opponent has rolled).

Problem kinds: ``illegal_play``, ``unplayed_die``, ``ambiguous_play``, ``unreadable_line``,
``out_of_turn`` (a roll by the wrong player), ``cube_out_of_turn``, ``cube_value``, ``result_differs``,
``score_differs``, ``missing_result``, ``action_after_result``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from core.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from core.match.cube import Cube, CubeError
from core.match.record import (
    ACCEPT,
    BEAVER,
    DOUBLE,
    DROP,
    MOVE,
    RACCOON,
    REJECT,
    RESIGN,
    TAKE,
    Action,
    GameRecord,
    GameResult,
    MatchRecord,
    Problem,
)
from core.match.score import Match
from core.rules.notation import Move, Play
from core.rules.position import Position, Side
from core.rules.variants import NackgammonPosition

CUBE_KINDS = (DOUBLE, TAKE, DROP, BEAVER, RACCOON)


@dataclass
class ReplayReport:
    """What ``gamao replay`` reports. ``plays`` counts every roll that was played, a forced empty play
    (no legal move, R25) included; a roll followed by a resignation is not a play."""

    match_length: int
    games: int = 0
    plays: int = 0
    cube_actions: int = 0
    checker_plays: int = 0  # plays that moved at least one checker (gnubg's moves with a non-empty move)
    final_score: dict[Side, int] = field(default_factory=lambda: {Side.LIGHT: 0, Side.DARK: 0})
    problems: list[Problem] = field(default_factory=list)

    def as_dict(self, file: str) -> dict[str, object]:
        """The object ``gamao replay --json`` writes for one file."""
        return {
            "file": file,
            "match_length": self.match_length,
            "games": self.games,
            "plays": self.plays,
            "cube_actions": self.cube_actions,
            "final_score": [self.final_score[Side.LIGHT], self.final_score[Side.DARK]],
            "problems": [p.as_dict() for p in self.problems],
        }


def _partial_play_fits(pos: Position, dice: tuple[int, int], play: Play) -> bool:
    """True when the written play stops part-way along some legal play (only dice were left unplayed).

    Uses only the public API: the written play's result must equal the position after a proper prefix of
    one of the ways of some legal play. Runs on the error path only.
    """
    try:
        after = pos.apply_unchecked(play).own(pos.turn)
    except (IllegalPlayError, InvalidPlayError):
        return False
    for lp in pos.legal_plays(dice):
        for way in lp.ways():
            for k in range(1, len(way.moves)):
                try:
                    if pos.apply_unchecked(Play(way.moves[:k])).own(pos.turn) == after:
                        return True
                except (IllegalPlayError, InvalidPlayError):
                    break
    return False


@lru_cache(maxsize=65536)
def _parse_text(text: str) -> Play:
    """Play.from_text, memoised: real files repeat the same play texts thousands of times (Play is immutable)."""
    return Play.from_text(text)


def _as_written(written: Play, resolved: Play) -> Play:
    """The play in the order and with the steps the file wrote, hits taken from the resolved play.

    Falls back to the resolved play when the text was compressed (combined moves, fewer sub-moves).
    """
    if len(written.moves) != len(resolved.moves):
        return resolved
    hits = {m.to for m in resolved.moves if m.hit}
    if not hits <= {m.to for m in written.moves}:
        return resolved
    seen: set[int] = set()
    moves = []
    for m in written.moves:
        hit = m.to in hits and m.to not in seen
        if hit:
            seen.add(m.to)
        moves.append(Move(m.frm, m.to, hit))
    return Play(tuple(moves))


def _resign_level(points: int, cube: int) -> int:
    """The 1-3 level of a resignation stated in points; capped counts round up, as gnubg reads them."""
    return 1 if points <= cube else 2 if points <= 2 * cube else 3


class _GameReplay:
    def __init__(self, replayer: Replayer, game: GameRecord, match: Match) -> None:
        self.r = replayer
        self.game = game
        self.match = match
        self.cube = Cube(match.cube_settings())
        self.pos: Position = replayer.position_class.start()
        self.started = False
        self.rolls = {Side.LIGHT: 0, Side.DARK: 0}
        self.result: GameResult | None = None
        self.resigned: tuple[Side, int, int | None] | None = None  # (side, value, line)
        self.blank_roll: Action | None = None  # a roll written without a play while plays existed

    def problem(self, line: int | None, kind: str, message: str) -> None:
        self.r.report.problems.append(Problem(line, self.game.number, kind, message))

    def run(self) -> None:
        game = self.game
        game.crawford = self.match.crawford
        for action in game.actions:
            if self.result is not None:
                if action.kind in (RESIGN, ACCEPT, REJECT):
                    continue
                self.problem(action.line, "action_after_result", f"{action.describe()} comes after the game ended")
                continue
            action.position = self.pos
            if action.kind != RESIGN:
                self.settle_blank_roll(followed=True)
            if action.kind == MOVE:
                self.move(action)
            elif action.kind in CUBE_KINDS:
                self.r.report.cube_actions += 1
                self.cube_action(action)
            elif action.kind == RESIGN:
                side = action.side if action.side is not None else self.pos.turn
                value = action.value or 1
                if action.note == "losses":  # Galaxy's "Losses N point" counts points, not the 1-3 level
                    value = _resign_level(value, self.cube.value)
                self.resigned = (side, value, action.line)
            elif action.kind == REJECT:
                self.resigned = None
            elif action.kind == ACCEPT and self.resigned is not None:
                self.finish_resignation(self.resigned[0], self.resigned[1], self.resigned[2])
        game.final_position = self.pos
        self.finish()

    # ----- plays --------------------------------------------------------------------------------------
    def move(self, action: Action) -> None:
        side = action.side
        assert side is not None and action.dice is not None
        if not self.started:
            self.started = True
            self.pos = self.pos.with_turn(side)
            action.position = self.pos
        elif side != self.pos.turn:
            self.problem(action.line, "out_of_turn", f"{side.value} rolls but it is {self.pos.turn.value}'s turn")
            self.pos = self.pos.with_turn(side)
            action.position = self.pos
        if self.cube.offered_by is not None:
            self.problem(
                action.line, "cube_out_of_turn", f"{side.value} rolls while a {self.cube.stage} awaits an answer"
            )
            self.cube.offered_by, self.cube.stage, self.cube.offered = None, None, 0
        self.rolls[side] += 1
        dice = action.dice
        if action.text is None:
            # Rolled, then resigned (XG's ????) or marked illegal by the file: nothing moves.
            self.blank_roll = action if action.note == "rolled then resigned" else None
            action.play = Play(())
            self.pos = self.pos.with_turn(side.other)
            return
        try:
            play = _parse_text(action.text)
        except InvalidPlayError as exc:
            self.problem(action.line, "unreadable_line", str(exc))
            self.pos = self.pos.with_turn(side.other)
            return
        if play:
            self.r.report.plays += 1
            self.r.report.checker_plays += 1
        try:
            lp = self.pos.parse_play(play, dice, marks_hits=self.r.marks_hits)
        except AmbiguousPlayError as exc:
            # parse_play already follows every written stop; what is left could be either play.
            self.problem(action.line, "ambiguous_play", str(exc))
            self.apply_as_played(action, play)
            return
        except IllegalPlayError as exc:
            if not play:
                # Written without a play although one existed: a resignation if the game ends here.
                self.blank_roll = action
                action.play = play
                self.pos = self.pos.with_turn(side.other)
                return
            kind = "unplayed_die" if _partial_play_fits(self.pos, dice, play) else "illegal_play"
            self.problem(action.line, kind, str(exc))
            self.apply_as_played(action, play)
            return
        if not play:
            self.r.report.plays += 1  # no legal play: the roll is played by not moving (R25)
        action.play = _as_written(play, lp.play) if play else play
        self.pos = lp.result
        if self.pos.is_game_over():
            self.finish_bear_off()

    def apply_as_played(self, action: Action, play: Play) -> None:
        action.play = play
        try:
            self.pos = self.pos.apply_unchecked(play)
        except (IllegalPlayError, InvalidPlayError):
            # Cannot even be set up on a board: keep the checkers where they were.
            self.pos = self.pos.with_turn(self.pos.turn.other)
        if self.pos.is_game_over():
            self.finish_bear_off()

    def settle_blank_roll(self, followed: bool) -> None:
        """A roll left unplayed is fine only when a resignation follows at once."""
        action, self.blank_roll = self.blank_roll, None
        if action is None or not followed:
            return
        assert action.position is not None and action.dice is not None
        best = action.position.legal_plays(action.dice)
        example = best[0].play.text() if len(best) else ""
        self.problem(
            action.line,
            "unplayed_die",
            f"{action.side.value if action.side else '?'} rolled {action.dice[0]}{action.dice[1]} and played nothing, "
            f"but {example} was possible",
        )

    # ----- cube ---------------------------------------------------------------------------------------
    def cube_action(self, action: Action) -> None:
        side = action.side
        assert side is not None
        cube = self.cube
        try:
            if action.kind == DOUBLE:
                if self.started and side != self.pos.turn:
                    raise CubeError(f"{side.value} doubles but it is {self.pos.turn.value}'s turn to roll (R12)")
                if not self.started:
                    raise CubeError(f"{side.value} doubles before the opening roll; the cube comes into play after it (R03, R12)")
                reason = self.match.why_not_double(side, cube, self.rolls)
                if reason:
                    raise CubeError(f"{side.value} cannot double: {reason}")
                offered = cube.double(side)
            elif action.kind == TAKE:
                cube.take(side)
                return
            elif action.kind == DROP:
                winner, points = cube.drop(side)
                self.result = GameResult(winner, points, "drop", 1, points)
                return
            elif action.kind == BEAVER:
                offered = cube.beaver(side)
            else:
                offered = cube.raccoon(side)
        except CubeError as exc:
            self.problem(action.line, "cube_out_of_turn", str(exc))
            self.force_cube(action)
            return
        if action.value is not None and action.value != offered:
            self.problem(
                action.line, "cube_value", f"{action.kind} to {action.value}, but the cube at {cube.value} goes to {offered}"
            )

    def force_cube(self, action: Action) -> None:
        """Carry on after a cube problem with the state the file describes."""
        cube, side = self.cube, action.side
        assert side is not None
        if action.kind in (DOUBLE, BEAVER, RACCOON):
            cube.offered_by, cube.stage = side, action.kind
            cube.offered = action.value or cube.value * 2
        elif action.kind == TAKE and cube.offered_by is not None:
            cube.value, cube.owner, cube.turned = cube.offered, side, True
            cube.offered_by, cube.offered, cube.stage = None, 0, None
        elif action.kind == DROP:
            winner = cube.offered_by or side.other
            self.result = GameResult(winner, max(cube.offered // 2, cube.value), "drop", 1, cube.value)

    # ----- results ------------------------------------------------------------------------------------
    def finish_bear_off(self) -> None:
        res = self.pos.result()
        assert res is not None
        winner, value = res
        points = self.match.game_points(value, self.cube)
        how = {1: "single", 2: "gammon", 3: "backgammon"}[value]
        self.result = GameResult(winner, points, how, value, self.cube.value)

    def finish_resignation(self, side: Side, value: int, line: int | None) -> None:
        value = min(max(value, 1), 3)
        points = self.match.game_points(value, self.cube)
        self.result = GameResult(side.other, points, "resign", value, self.cube.value)

    def finish(self) -> None:
        game = self.game
        stated = game.stated
        cube = self.cube.value
        if self.result is None and self.resigned is not None and stated is None:
            self.finish_resignation(*self.resigned)
        if self.result is None and stated is not None:
            # The game is still on when the file states a winner: the loser resigned (gnubg reads it so).
            loser = stated.winner.other
            if self.resigned is not None and self.resigned[0] != loser:
                self.problem(
                    stated.line, "result_differs", f"{self.resigned[0].value} resigned but the file says {loser.value} lost"
                )
            self.finish_resignation(loser, _resign_level(stated.points, cube), stated.line)
            assert self.result is not None
            needed = self.match.length - self.match.score[stated.winner]
            gave_up_match = stated.and_the_match and self.match.length > 0 and stated.points >= needed
            if stated.points != self.result.points and not (self.capped(stated.points, self.result) or gave_up_match):
                self.problem(
                    stated.line,
                    "result_differs",
                    f"the file says {stated.points} point{'s' if stated.points != 1 else ''} for a resignation, "
                    f"but a resignation at cube {cube} is worth {cube}, {2 * cube} or {3 * cube}",
                )
            self.settle_blank_roll(followed=False)
            game.result = self.result
            return
        self.settle_blank_roll(followed=self.result is not None or stated is None)
        game.result = self.result
        if self.result is None:
            return
        if stated is None:
            if not self.r.last_game(game):
                self.problem(game.line, "missing_result", f"game {game.number} ends without a 'Wins' line")
            return
        res = self.result
        jacoby_alternative = self.r.jacoby_unknown and not self.cube.turned and res.how != "drop"
        if stated.winner != res.winner:
            assert stated.winner is not None and res.winner is not None  # backgammon has no draw
            self.problem(
                stated.line, "result_differs", f"the file says {stated.winner.value} wins but {res.winner.value} won"
            )
        elif stated.points != res.points and not (
            (jacoby_alternative and stated.points == cube) or self.capped(stated.points, res)
        ):
            self.problem(
                stated.line,
                "result_differs",
                f"the file says {stated.points} point{'s' if stated.points != 1 else ''} "
                f"but the game is worth {res.points} ({res.how}, cube {res.cube})",
            )


    def capped(self, stated: int, res: GameResult) -> bool:
        """Both counts win the match: Galaxy writes no more points than the winner needed, XG/Studio
        writes a huge number (``Wins 4016 point``) when the loser gives up the whole match."""
        assert res.winner is not None  # backgammon has no draw
        needed = self.match.length - self.match.score[res.winner]
        return self.match.length > 0 and stated >= needed and res.points >= needed


class Replayer:
    def __init__(self, record: MatchRecord) -> None:
        self.record = record
        self.report = ReplayReport(record.length)
        self.position_class: type[Position] = (
            NackgammonPosition if record.rules.variation == "nackgammon" else Position
        )
        # Galaxy files never mark hits; XG/Studio and gnubg mark every one.
        self.marks_hits = record.source != "galaxy"
        # A stated result may count an uncubed gammon as a single when the Jacoby rule may have been on:
        # money sessions whose file does not say, and Galaxy's money games, which it exports as one-game
        # "16 point match" files. The score is still counted as gnubg counts it (no Jacoby in a match).
        self.jacoby_unknown = record.length == 0 and record.rules.jacoby is None
        self._last: GameRecord | None = None

    def last_game(self, game: GameRecord) -> bool:
        return game is self._last

    def run(self) -> ReplayReport:
        games = self.record.games
        return self.run_games((g, g is games[-1]) for g in games)

    def run_games(self, games: Iterable[tuple[GameRecord, bool]]) -> ReplayReport:
        """Replay games as they come, each with whether it is the last: a streamed file (``MatStream``) is
        replayed one game at a time, none kept once done. The record's problems are read at the end."""
        record = self.record
        report = self.report
        match: Match | None = None
        for game, last in games:
            self._last = game if last else None
            first = match is None
            if match is None:
                match = Match(record.length, record.rules, game.score)
                # Galaxy's money games come as one-game "16 point match" files (see __init__).
                self.jacoby_unknown = self.jacoby_unknown or (
                    record.source == "galaxy" and record.length == 16 and last)
            if match.over:
                report.problems.append(
                    Problem(game.line, game.number, "action_after_result", f"game {game.number} comes after the match was won")
                )
                break
            if game.score != match.score and not first:
                report.problems.append(
                    Problem(
                        game.score_line,
                        game.number,
                        "score_differs",
                        f"the file gives the score {game.score[Side.LIGHT]}-{game.score[Side.DARK]} "
                        f"but the games before make it {match.score[Side.LIGHT]}-{match.score[Side.DARK]}",
                    )
                )
            report.games += 1
            _GameReplay(self, game, match).run()
            if game.result is not None:
                if game.result.winner is not None:  # a draw scores nothing
                    match.record_result(game.result.winner, game.result.points)
            else:
                match.crawford = False
        report.problems[:0] = record.problems
        if match is not None:
            report.final_score = dict(match.score)
        report.problems.sort(key=lambda p: (p.line if p.line is not None else 0))
        return report


def replay(record: MatchRecord) -> ReplayReport:
    """Validate and complete ``record`` in place; the report lists every problem with its line."""
    return Replayer(record).run()
