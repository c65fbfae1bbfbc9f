"""One module per `gamao` subcommand. Each exposes `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`.

Keep heavy imports (cv2, numpy, fastapi) inside `run` so `gamao plays` starts quickly.
"""

import sys

COMMANDS = [
    "plays", "replay", "referee", "detect", "dice", "dice_sim", "demo", "run",
    "hint", "analyse",  # the coach (engine/, GNU Backgammon)
    "journal",  # the journal's health, salvage and backup
    "director",  # a club's boards in one view (club/)
    "dice_stats",  # are the dice fair? (core/match/dicestats.py, kiosk/dicelog.py)
    "setup_moves",  # set up a position on the real board (core/rules/setup.py; drills, issue 38)
]


def fail(command: str, message: str, status: int = 2) -> int:
    """Say on stderr what was wrong, as one line `gamao COMMAND: message`, and give the exit status (2: bad input)."""
    print(f"gamao {command}: {message}", file=sys.stderr)
    return status
