"""A whole match analysed by an engine, play by play, as gnubg's ``analyse match`` rates it.

``analyse_record(record, engine, plies)`` replays the record with ``core.match.replay`` (so positions,
scores, cubes and Crawford are ours), asks the engine to rank every checker play's roll from the position
before it with the match state of that moment (a Match ID), and rates the play made: its loss against the
best play and gnubg's label. Per side: the unforced plays (more than one legal play, the plays gnubg
counts), the error rate in thousandths of normalised equity per unforced play (gnubg's "Error rate
mEMG" of its chequer play statistics, given as a positive number), and the counts of each label.

With ``cube=True`` the cube decisions are rated too (``CubeRating``) and each side gets XG's Performance
Rating (core.coach.pr): PR = 500 x (checker losses of the unforced plays + cube errors) / decisions, where
the decisions are the unforced checker plays (more than one legal play, gnubg's count), every double, every
take and pass, and every roll taken without a double when the player could double and XG counts it (ahead,
ND > 0, and ND - min(D/T, D/P) < 0.200). A player can double when the cube is used, it is not the Crawford
game, the cube is centred or theirs, and in a match the double is not dead (their score + the cube below
the length).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from core.coach.pr import counts_no_double, cube_errors, level, performance_rating
from core.errors import GamaoError
from core.match.formats.sgf import play_letters, write_sgf
from core.match.record import BEAVER, DOUBLE, DROP, MOVE, RACCOON, TAKE, MatchRecord, player_index
from core.match.replay import replay
from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side
from engine.base import LABELS, Engine, RankedPlay


@dataclass(frozen=True)
class PlayRating:
    """One checker play of a match and its rating."""

    game: int
    number: int  # the roll's number in the game (1 = the opening roll), as GameRecord.move_list counts
    side: Side
    dice: tuple[int, int]
    played: str
    best: str
    loss: float
    label: str | None
    position_id: str  # before the play, the mover on roll
    match_id: str
    result: str  # Position ID after the play made (the mover's side, not turned round)
    ranked: tuple[RankedPlay, ...] = ()
    index: int = -1  # of the action in its game's ``actions``
    plies: int = 0

    @property
    def forced(self) -> bool:
        return len(self.ranked) <= 1

    def as_json(self) -> dict[str, object]:
        """The line ``gamao analyse --json`` writes."""
        return {"game": self.game, "number": self.number, "side": self.side.value, "dice": list(self.dice),
                "played": self.played, "best": self.best, "loss": self.loss, "label": self.label}


@dataclass(frozen=True)
class CubeRating:
    """One cube decision (XG's count) and its error: ``action`` is what the player did (no_double, double,
    take, pass), ``best`` what the engine says (no_double, double_take, ...), equities from the doubler's side."""

    game: int
    number: int  # the roll's number in the game the decision came before (0: no roll followed)
    side: Side  # who decided: the player on roll (no_double, double) or the opponent (take, pass)
    action: str
    best: str
    loss: float
    equities: dict[str, float]
    position_id: str
    match_id: str

    def as_json(self) -> dict[str, object]:
        return {"game": self.game, "number": self.number, "side": self.side.value, "action": self.action,
                "best": self.best, "loss": round(self.loss, 6)}


@dataclass
class SideSummary:
    plays: int = 0  # unforced checker plays
    error: float = 0.0  # total loss, normalised equity
    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    cube_decisions: int = 0  # counted as XG counts them
    cube_error: float = 0.0

    @property
    def error_rate(self) -> float:
        """Thousandths of normalised equity lost per unforced play."""
        return 1000.0 * self.error / self.plays if self.plays else 0.0

    @property
    def decisions(self) -> int:
        return self.plays + self.cube_decisions

    @property
    def pr(self) -> float:
        return performance_rating(self.error + self.cube_error, self.decisions)

    def as_json(self) -> dict[str, object]:
        return {"plays": self.plays, "error_rate": round(self.error_rate, 3), **self.labels,
                "pr": round(self.pr, 2), "level": level(self.pr), "decisions": self.decisions,
                "cube_decisions": self.cube_decisions, "cube_error": round(self.cube_error, 6)}


def _sides() -> dict[Side, SideSummary]:
    return {Side.LIGHT: SideSummary(), Side.DARK: SideSummary()}


@dataclass
class MatchAnalysis:
    plays: list[PlayRating] = field(default_factory=list)
    summary: dict[Side, SideSummary] = field(default_factory=_sides)
    skipped: list[str] = field(default_factory=list)  # plays that could not be rated, and why
    cube: list[CubeRating] = field(default_factory=list)  # the counted cube decisions (cube=True)
    games: dict[int, dict[Side, SideSummary]] = field(default_factory=dict)  # the same summary per game

    def _add_play(self, rating: PlayRating) -> None:
        for summary in (self.summary[rating.side], self.games.setdefault(rating.game, _sides())[rating.side]):
            summary.plays += 1
            summary.error += rating.loss
            if rating.label is not None:
                summary.labels[rating.label] += 1

    def _add_cube(self, rating: CubeRating) -> None:
        self.cube.append(rating)
        for summary in (self.summary[rating.side], self.games.setdefault(rating.game, _sides())[rating.side]):
            summary.cube_decisions += 1
            summary.cube_error += rating.loss

    def summary_json(self) -> dict[str, object]:
        return {"summary": {side.value: s.as_json() for side, s in self.summary.items()},
                "games": {str(g): {side.value: s.as_json() for side, s in sides.items()}
                          for g, sides in sorted(self.games.items())},
                "cube": [c.as_json() for c in self.cube]}


class _Turns:
    """One game's match state for the engine's questions (the cube's value and owner are passed in)."""

    def __init__(self, record: MatchRecord, game: object, engine: Engine, plies: int, timeout: float | None,
                 cube_used: bool, jacoby: bool) -> None:
        self.record, self.game, self.engine = record, game, engine
        self.plies, self.timeout, self.cube_used, self.jacoby = plies, timeout, cube_used, jacoby

    def state(self, side: Side, value: int, owner: int | None, dice: tuple[int, int] = (0, 0)) -> MatchIdState:
        game = self.game
        return MatchIdState(cube=value, cube_owner=owner, on_roll=player_index(side), crawford=game.crawford,  # type: ignore[attr-defined]
                            dice=dice, match_length=self.record.length,
                            score=(game.score[Side.LIGHT], game.score[Side.DARK]), jacoby=self.jacoby)  # type: ignore[attr-defined]

    def may_double(self, side: Side, value: int, owner: int | None) -> bool:
        game, length = self.game, self.record.length
        return bool(self.cube_used and not game.crawford and owner in (None, player_index(side))  # type: ignore[attr-defined]
                    and (not length or game.score[side] + value < length))  # type: ignore[attr-defined]

    def ask(self, side: Side, board: Position, value: int,
            owner: int | None) -> tuple[dict[str, float], str, str, str] | None:
        pid, mid = board.with_turn(side).position_id(side), self.state(side, value, owner).encode()
        try:
            got = self.engine.cube_advice(pid, mid, plies=self.plies, timeout=self.timeout)
        except ValueError:
            return None
        return dict(got.equities), got.action, pid, mid


def analyse_record(
    record: MatchRecord, engine: Engine, plies: int = 0, timeout: float | None = None,
    progress: Callable[[PlayRating], None] | None = None, cube: bool = False,
) -> MatchAnalysis:
    """Rate every checker play of ``record`` (replayed here) with ``engine`` at ``plies``; with ``cube``
    the cube decisions too (XG's count, for the PR)."""
    replay(record)
    out = MatchAnalysis()
    jacoby = record.rules.jacoby if record.rules.jacoby is not None else True
    cube_used = record.rules.cube_use and cube
    for game in record.games:
        g = _Turns(record, game, engine, plies, timeout, cube_used, jacoby)
        value, owner, offered = 1, None, 1
        number = 0  # the roll's number in the game, as the kiosk's move list counts them
        board = Position.start()  # the board before the next roll
        doubled = False  # the player on roll doubled this turn
        advice: tuple[dict[str, float], str, str, str] | None = None  # the double on offer's equities

        for index, action in enumerate(game.actions):
            side = action.side
            if action.kind == DOUBLE and side is not None:
                if g.may_double(side, value, owner) and number > 0:
                    advice = g.ask(side, board, value, owner)
                    if advice is not None:
                        eq = advice[0]
                        loss = cube_errors(eq["no_double"], eq["double_take"], eq["double_pass"])["double"]
                        out._add_cube(CubeRating(game.number, number + 1, side, "double", advice[1], loss, eq,
                                                 advice[2], advice[3]))
                doubled = True
            if action.kind in (TAKE, DROP, BEAVER) and side is not None and advice is not None:
                eq = advice[0]
                answer = "pass" if action.kind == DROP else "take"
                loss = cube_errors(eq["no_double"], eq["double_take"], eq["double_pass"])[answer]
                out._add_cube(CubeRating(game.number, number + 1, side, answer, advice[1], loss, eq,
                                         advice[2], advice[3]))
                advice = None
            if action.kind in (DOUBLE, BEAVER, RACCOON) and side is not None:
                offered = action.value or value * 2
                if action.kind != DOUBLE:  # the one who beavers (or raccoons) keeps the cube
                    value, owner = offered, player_index(side)
                continue
            if action.kind == TAKE and side is not None:
                value, owner = offered, player_index(side)
                continue
            if action.kind != MOVE or side is None or action.dice is None:
                continue
            if action.position is not None:
                board = action.position
            if not doubled and number > 0 and g.may_double(side, value, owner):
                got = g.ask(side, board, value, owner)
                if got is not None:
                    eq = got[0]
                    if counts_no_double(eq["no_double"], eq["double_take"], eq["double_pass"]):
                        loss = cube_errors(eq["no_double"], eq["double_take"], eq["double_pass"])["no_double"]
                        out._add_cube(CubeRating(game.number, number + 1, side, "no_double", got[1], loss, eq,
                                                 got[2], got[3]))
            doubled = False
            number += 1
            pos, play = action.position, action.play
            if pos is not None and play is not None and action.dice is not None:
                try:
                    board = pos.parse_play(play, action.dice, marks_hits=False).result if play.moves else pos
                except GamaoError:
                    pass
            if pos is None or play is None or not play.moves:
                continue
            state = g.state(side, value, owner, action.dice)
            position_id = pos.position_id(side)
            try:
                made = pos.parse_play(play, action.dice, marks_hits=False)
            except GamaoError as exc:
                out.skipped.append(f"game {game.number} move {number} ({action.describe()}): {exc}")
                continue
            result = made.result.position_id(side)
            ranked = engine.rank_plays(position_id, action.dice, state.encode(), plies=plies, timeout=timeout)
            mine = next((r for r in ranked if r.result == result), None)
            if mine is None or not ranked:
                out.skipped.append(f"game {game.number} move {number} ({action.describe()}): the engine did "
                                   "not rank the play made")
                continue
            rating = PlayRating(
                game=game.number, number=number, side=side, dice=action.dice, played=mine.play,
                best=ranked[0].play, loss=mine.loss or 0.0, label=mine.label, position_id=position_id,
                match_id=state.encode(), result=result, ranked=tuple(ranked), index=index, plies=plies,
            )
            out.plays.append(rating)
            if not rating.forced:
                out._add_play(rating)
            if progress is not None:
                progress(rating)
    return out


# ----- the analysis in gnubg's SGF --------------------------------------------------------------------------
_MARKS = {"doubtful": "DO[]", "bad": "BM[1]", "very_bad": "BM[2]"}


def _analysis_property(rating: PlayRating) -> str:
    """``A[played][alternative]...`` as gnubg 1.07's SGF writes a checker play's analysis, then its mark."""
    pos = Position.from_position_id(rating.position_id, turn=Side.LIGHT)
    steps = {lp.result.position_id(Side.LIGHT): lp.play for lp in pos.legal_plays(rating.dice)}
    played = next(i for i, r in enumerate(rating.ranked) if r.result == rating.result)
    parts = [f"A[{played}]"]
    for r in rating.ranked:
        letters = play_letters(steps[r.result], rating.side)
        probs = " ".join(f"{x:.6f}" for x in (r.probs or (0.0,) * 5))
        parts.append(f"[{letters} E ver 3 {probs} {r.equity:.6f} {rating.plies}C 0 1 0.000000 1]")
    if rating.label is not None:
        parts.append(_MARKS[rating.label])
    return "".join(parts)


def export_sgf(record: MatchRecord, analysis: MatchAnalysis) -> str:
    """The record (replayed by analyse_record) as gnubg's SGF with each rated checker play's analysis in
    gnubg's own properties (``A[]`` ranked plays with probabilities and equity, ``DO[]``/``BM[1]``/``BM[2]``
    for doubtful, bad and very bad plays), so gnubg loads it with its analysis."""
    ratings = {(r.game, r.index): r for r in analysis.plays}
    trees = write_sgf(record).rstrip("\n").split("\n(;")
    out = []
    for number, (tree, game) in enumerate(zip(trees, record.games, strict=True)):
        lines = (tree if number == 0 else "(;" + tree).split("\n")
        nodes = [i for i, a in enumerate(game.actions)
                 if a.side is not None and a.kind in (MOVE, DOUBLE, BEAVER, RACCOON, TAKE, DROP)]
        assert len(nodes) == len(lines) - 1, "write_sgf wrote a node per action"
        for line_no, index in enumerate(nodes, start=1):
            rating = ratings.get((game.number, index))
            if rating is None:
                continue
            line = lines[line_no]
            closing = line.endswith(")")
            body = line[:-1] if closing else line
            lines[line_no] = body + _analysis_property(rating) + (")" if closing else "")
        out.append("\n".join(lines))
    return "\n".join(out) + "\n"
