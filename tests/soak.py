"""The long versions: ``--soak`` (tests/conftest.py sets GAMAO_SOAK=1 from it before any test module is imported)
or GAMAO_SOAK=1. The default run keeps a shorter version of each; docs/CONTRACTS.md lists them."""

from __future__ import annotations

import os

HOW = "run with --soak or GAMAO_SOAK=1"


def soak() -> bool:
    """True in a --soak run (read when called: a module's constant made at import is set by then)."""
    return os.environ.get("GAMAO_SOAK") == "1"
