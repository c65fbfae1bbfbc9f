"""The club's rating: the FIBS formula, kept across nights in the director's archive (club/archive.py).

For a match of length N between players whose ratings differ by D, the underdog's chance is
P = 1 / (10^(D * sqrt(N) / 2000) + 1). The winner gains and the loser loses 4 * sqrt(N) times the chance of the
result that did not happen, each times their own K = max(1, 5 - experience / 100), where experience is the sum of
the lengths of the matches they played before (a new player's rating moves faster). Everyone starts at 1500.

>>> round(underdog_chance(0, 5), 3)
0.5
>>> a, b = change(1500, 1500, 5, 0, 0)   # two new players, a 5-point match: the winner gains 4*sqrt(5)*0.5*5
>>> round(a, 2), round(b, 2)
(22.36, -22.36)
>>> a, b = change(1800, 1500, 1, 1000, 1000)  # the favourite wins a 1-pointer: little to gain
>>> round(a, 2), round(b, 2)
(1.66, -1.66)
"""

from __future__ import annotations

import math

START = 1500.0


def underdog_chance(diff: float, length: int) -> float:
    """The lower-rated player's chance to win a `length`-point match against one `diff` points above."""
    return 1.0 / (10 ** (abs(diff) * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(experience: int) -> float:
    return max(1.0, 5.0 - experience / 100.0)


def change(winner: float, loser: float, length: int, winner_exp: int, loser_exp: int) -> tuple[float, float]:
    """(the winner's change, the loser's change) for a finished match of `length` points."""
    length = max(1, int(length))
    under = underdog_chance(winner - loser, length)
    # the chance of the result that did not happen: the loser winning
    loser_would = under if winner >= loser else 1.0 - under
    base = 4.0 * math.sqrt(length) * loser_would
    return base * k_factor(winner_exp), -base * k_factor(loser_exp)
