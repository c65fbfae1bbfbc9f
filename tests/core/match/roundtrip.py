"""What the .mat and SGF writers' round-trip tests share."""

from __future__ import annotations

from collections.abc import Callable

from core.match.record import MatchRecord
from core.match.replay import replay


def reads_back_the_same(rec: MatchRecord, write: Callable[[MatchRecord], str], read: Callable[[str], MatchRecord],
                        name: str) -> MatchRecord:
    """Replay `rec`, write it, read the text back and replay the copy: no problem, and the same final score, games,
    plays and cube actions (`name` says which file failed). Returns the copy."""
    first = replay(rec)
    again = read(write(rec))
    second = replay(again)
    assert second.problems == [], name
    assert (second.final_score, second.games, second.plays, second.cube_actions) == (
        first.final_score, first.games, first.plays, first.cube_actions,
    ), name
    return again
