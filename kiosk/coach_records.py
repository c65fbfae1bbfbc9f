"""The plays the coach keeps for the review: one record per committed play, read live or back from a match
record, and the review's summary (per player: error rate in thousandths of equity per play, label counts)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from core.coach.pr import level, performance_rating, words
from core.errors import IllegalPlayError
from core.match.record import DOUBLE, MOVE, TAKE, MatchRecord
from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side
from engine.base import LABELS


def position_of(pid: str, side: Side) -> Position:
    return Position.from_position_id(pid, turn=side)


def layout(pos: Position) -> dict[str, Any]:
    return pos.to_dict()



@dataclass
class PlayRecord:
    """One committed play as the coach saw it, and its rating once the engine answered."""

    key: str
    match: str
    game: int
    number: int
    side: str
    dice: tuple[int, int]
    play: str
    before: str  # Position ID, mover on roll
    after: str  # Position ID of the result, encoded for the mover (as `gamao plays` writes results)
    match_id: str | None
    legal: bool = True
    status: str = "pending"  # pending | rated | unranked | illegal | forced
    best: str | None = None
    best_after: str | None = None
    equity: float | None = None
    loss: float | None = None
    label: str | None = None
    choices: int = 0
    explanation: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        side = Side(self.side)
        before = position_of(self.before, side)
        after = position_of(self.after, side)
        out = {k: v for k, v in asdict(self).items() if k not in ("before", "after", "best_after")}
        out["dice"] = list(self.dice)
        out["position_id"] = self.before
        out["before"] = layout(before)
        out["board"] = layout(after)
        out["best_board"] = layout(position_of(self.best_after, side)) if self.best_after else None
        return out


def completed(live: list[PlayRecord], recorded: list[PlayRecord]) -> tuple[list[PlayRecord], list[PlayRecord]]:
    """The plays the coach saw live completed from the match's record (those it did not see: the second list),
    in the record's order; a play seen live keeps its record (and rating)."""
    seen = {(r.game, r.side, r.dice, r.before): r for r in live}
    merged, new = [], []
    for r in recorded:
        same = seen.get((r.game, r.side, r.dice, r.before))
        merged.append(same if same is not None else r)
        if same is None:
            new.append(r)
    return merged, new


def plays_of(record: MatchRecord, key: str) -> list[PlayRecord]:
    """The checker plays of a replayed match record, with each play's Match ID (score, cube, Crawford)."""
    out: list[PlayRecord] = []
    number = 0
    for g, game in enumerate(record.games, start=1):
        cube, owner, offered = 1, None, 0
        for a in game.actions:
            if a.kind == DOUBLE:
                offered = a.value or cube * 2
            elif a.kind == TAKE and a.side is not None:
                cube, owner = offered or cube * 2, (0 if a.side is Side.LIGHT else 1)
            if a.kind != MOVE:
                continue
            number += 1
            if not a.play or a.position is None or a.dice is None or a.side is None:
                continue
            side, before = a.side, a.position.with_turn(a.side)
            legal = True
            try:
                after = before.play(a.dice, a.play)
            except (IllegalPlayError, ValueError):
                legal = False
                try:
                    after = before.apply_unchecked(a.play)
                except ValueError:
                    continue
            match_id = MatchIdState(
                cube=cube, cube_owner=owner, on_roll=0 if side is Side.LIGHT else 1, crawford=game.crawford,
                match_length=record.length, jacoby=bool(record.rules.jacoby),
                score=(game.score[Side.LIGHT], game.score[Side.DARK])).encode()
            out.append(PlayRecord(key=f"{key}:{g}:{number}", match=key, game=g, number=number, side=side.value,
                                  dice=(a.dice[0], a.dice[1]), play=a.play.text(), before=before.position_id(side),
                                  after=after.position_id(side), match_id=match_id, legal=legal,
                                  status="pending" if legal else "illegal"))
    return out


def review_of(records: list[PlayRecord], key: str, game: int | None) -> dict[str, Any]:
    """One game's plays (the last game when ``game`` is None) and the whole match's summary per player.

    The error rate counts rated plays with a choice (more than one legal play), as gnubg counts unforced moves.
    """
    games = sorted({r.game for r in records})
    if game is None:
        game = games[-1] if games else 0
    rows = [r for r in records if r.game == game]
    summary = _summary([r for r in records])
    return {"match": key, "game": game, "games": games, "plays": [r.as_json() for r in rows],
            "pending": sum(1 for r in records if r.status == "pending"), "summary": summary,
            "game_summary": _summary(rows)}


def _summary(records: list[PlayRecord]) -> dict[str, dict[str, Any]]:
    """Per player: rated plays with a choice, gnubg's error rate, the label counts, and XG's PR over those
    decisions (the live review rates checker plays only: ``cube_decisions`` is 0) with its BMAB level."""
    summary: dict[str, dict[str, Any]] = {}
    for side in ("light", "dark"):
        mine = [r for r in records if r.side == side and r.status == "rated" and r.choices > 1]
        total = sum(r.loss or 0.0 for r in mine)
        pr = performance_rating(total, len(mine))
        summary[side] = {"plays": len(mine), "error_rate": round(1000 * total / len(mine), 1) if mine else 0.0,
                         **{label: sum(1 for r in mine if r.label == label) for label in LABELS},
                         "error": round(total, 6), "pr": round(pr, 2), "decisions": len(mine), "cube_decisions": 0,
                         "level": level(pr) if mine else None, "level_words": words(level(pr)) if mine else None}
    return summary


def merge_cube(summary: dict[str, dict[str, Any]], cube: dict[Any, Any]) -> None:
    """Add a match analysis' cube decisions (engine.analysis.SideSummary per Side) to a review summary's PR."""
    for side, row in summary.items():
        theirs = next((v for k, v in cube.items() if getattr(k, "value", k) == side), None)
        if theirs is None or not theirs.cube_decisions:
            continue
        checker_error = row["error"]
        row["cube_decisions"] = theirs.cube_decisions
        row["decisions"] = row["plays"] + theirs.cube_decisions
        pr = performance_rating(checker_error + theirs.cube_error, row["decisions"])
        row["pr"], row["level"], row["level_words"] = round(pr, 2), level(pr), words(level(pr))
