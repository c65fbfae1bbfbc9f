"""GNU Backgammon as the coach's engine: an edge like the camera and the dice.

``engine.base`` is the interface the kiosk and the commands use; ``engine.fake`` a deterministic stand-in
for unit tests; ``engine.gnubg`` drives the Debian package ``gnubg`` as one long-lived separate process
(its GPL stays on its side of the pipe), with ``engine/gnubg_worker.py`` the script gnubg runs;
``engine.analysis`` rates a whole match play by play. Nothing here is imported by ``core``.
"""

from engine.base import (
    LABELS,
    CubeAdvice,
    Engine,
    EngineError,
    EngineTimeout,
    EngineUnavailable,
    RankedPlay,
    Thresholds,
)

__all__ = [
    "LABELS", "CubeAdvice", "Engine", "EngineError", "EngineTimeout", "EngineUnavailable", "RankedPlay",
    "Thresholds",
]
