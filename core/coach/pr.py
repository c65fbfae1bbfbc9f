"""Performance Rating (PR) as eXtreme Gammon defines it, and the BMAB level it reaches.

PR = 500 x (the sum of the absolute normalised equity errors) / (the number of decisions), where the
decisions are counted as XG counts them (``counts_no_double`` for the cube; a checker play counts when it
had more than one legal play). Lower is better: 0 is a perfect match.

>>> performance_rating(0.1, 10)
5.0
>>> level(5.0), words(level(5.0))["pt"]
('master', 'mestre')
"""

from __future__ import annotations

# BMAB (the Backgammon Masters Awards Board) bands, best first: a PR at or under the bound reaches the level.
LEVELS: tuple[tuple[str, float], ...] = (
    ("super_grand_master", 2.5), ("grand_master", 4.0), ("master", 6.5), ("advanced", 10.0),
    ("intermediate", 16.0),
)
BEGINNER = "beginner"  # over 16: below BMAB's levels
WORDS = {
    "super_grand_master": ("super grão-mestre", "super grand master"),
    "grand_master": ("grão-mestre", "grand master"),
    "master": ("mestre", "master"),
    "advanced": ("avançado", "advanced"),
    "intermediate": ("intermediário", "intermediate"),
    "beginner": ("iniciante", "beginner"),
}
# XG counts a "no double" only when the player was ahead (ND > 0) and doubling was near: ND - min(D/T, D/P)
# under 0.200 (a missed double is always under it).
NO_DOUBLE_WINDOW = 0.200


def performance_rating(error: float, decisions: int) -> float:
    """500 x total absolute normalised equity error / decisions (0.0 when there was no decision)."""
    return 500.0 * abs(error) / decisions if decisions else 0.0


def level(pr: float) -> str:
    """The BMAB level a PR reaches (``beginner`` over 16)."""
    for name, bound in LEVELS:
        if pr <= bound:
            return name
    return BEGINNER


def words(name: str) -> dict[str, str]:
    pt, en = WORDS[name]
    return {"pt": pt, "en": en}


def counts_no_double(no_double: float, double_take: float, double_pass: float) -> bool:
    """Whether XG counts a player's not doubling (the roll taken without a double) as a decision."""
    return no_double > 0 and no_double - min(double_take, double_pass) < NO_DOUBLE_WINDOW


def cube_errors(no_double: float, double_take: float, double_pass: float) -> dict[str, float]:
    """Each cube action's error (normalised equity, from the doubler's equities): ``no_double`` and ``double``
    for the player on roll, ``take`` and ``pass`` for the opponent's answer."""
    doubled = min(double_take, double_pass)  # the opponent answers in their best way
    best = max(no_double, doubled)
    answer = min(double_take, double_pass)
    return {"no_double": best - no_double, "double": best - doubled,
            "take": double_take - answer, "pass": double_pass - answer}
