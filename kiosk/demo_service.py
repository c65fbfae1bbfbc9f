"""A small in-memory referee service for `gamao demo` while kiosk/service.py (journal, hardware) is not
available: the real core.referee.Referee behind the KioskService protocol, nothing stored on disk."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from core.formats.mat import write_mat
from core.formats.sgf import write_sgf
from core.notation import Play
from core.position import Side
from core.record import Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.referee import Referee

State = dict[str, Any]


class MemoryService:
    def __init__(self) -> None:
        self.referee = Referee()
        self._lock = threading.RLock()
        self._subs: list[Callable[[State], None]] = []

    def state(self) -> State:
        with self._lock:
            return self.referee.public_state()

    def subscribe(self, callback: Callable[[State], None]) -> Callable[[], None]:
        with self._lock:
            self._subs.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subs:
                    self._subs.remove(callback)
        return unsubscribe

    def submit(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        with self._lock:
            if event.get("event") == "new_match":
                self.referee = Referee(event.get("rules"), event.get("length", 0), event.get("players"))
            verdicts = self.referee.feed(event)
            state = self.referee.public_state()
            subs = list(self._subs)
        for callback in subs:
            callback(state)
        return verdicts

    def export(self, match_id: str, fmt: str) -> str:
        if match_id != "current":
            raise KeyError(match_id)
        with self._lock:
            record = to_record(self.referee)
        return write_mat(record) if fmt == "mat" else write_sgf(record)


def to_record(ref: Referee) -> MatchRecord:
    """The referee's games as a MatchRecord for the .mat / SGF writers."""
    rules = ref.rules
    record = MatchRecord(length=ref.length, players={Side(k): v for k, v in ref.players.items()},
                         rules=MatchRules(crawford=bool(rules.get("crawford", True))), source="kiosk")
    for game in ref.games:
        g = GameRecord(number=int(game["number"]), score={Side(k): v for k, v in game["score"].items()})
        for a in game["actions"]:
            dice = tuple(a["dice"]) if a.get("dice") else None
            text = a.get("play")
            play = Play.from_text(text) if text else None
            g.actions.append(Action(a["kind"], Side(a["side"]) if a.get("side") else None, dice,  # type: ignore[arg-type]
                                    text=text, play=play, value=a.get("value")))
        if game.get("result"):
            res = game["result"]
            g.result = GameResult(Side(res["winner"]), int(res["points"]), str(res["how"]))
        record.games.append(g)
    return record
