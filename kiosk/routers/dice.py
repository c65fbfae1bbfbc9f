"""The dice statistics (issue 21): ``GET /api/dice-stats`` for the /dice page (read-only, like the state).

The report is ``kiosk.dicelog.report``: ``{"life": dice_stats, "day": {"day", ...dice_stats}, "match": {"match",
...dice_stats}, "units": [ids]}`` over the data folder's dice log (core.match.dicestats). It is computed again
only when the log changed (its size and time), so a page left open costs nothing.
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter

from kiosk.dependencies import ServiceDep, SettingsDep
from kiosk.dicelog import DICE_LOG, DiceLogError, read_rolls, report

router = APIRouter(prefix="/api", tags=["display"])
_cache: dict[str, Any] = {}
_lock = threading.Lock()


@router.get("/dice-stats", summary="Dice statistics for the unit's life, today and the current match")
def dice_stats_route(settings: SettingsDep, service: ServiceDep) -> dict[str, Any]:
    path = settings.data_dir / DICE_LOG
    if not path.is_file() and (settings.data_dir / "journal.sqlite").is_file():
        # No dice log (the demo, a kiosk from before the log): the journal's rolls, as `gamao dice-stats` reads
        # that folder (issue 37: the demo's dice page said no roll was recorded). Keyed on the journal's WAL too.
        path = settings.data_dir
    try:
        if path.is_dir():
            files = [path / "journal.sqlite", path / "journal.sqlite-wal"]
            stats = [f.stat() for f in files if f.exists()]
            key = (str(path), sum(st.st_size for st in stats), max(st.st_mtime_ns for st in stats))
        else:
            st = path.stat()
            key = (str(path), st.st_size, st.st_mtime_ns)
    except (OSError, ValueError):
        key = (str(path), 0, 0)
    match = getattr(service, "current_match", None)
    with _lock:
        if _cache.get("key") != (key, match):
            try:
                rolls = read_rolls(path) if key[1] else []
            except DiceLogError as exc:
                return {**report([], match=match), "error": str(exc)}
            _cache["key"], _cache["report"] = (key, match), report(rolls, match=match)
        return dict(_cache["report"])
