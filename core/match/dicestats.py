"""Are the dice fair? Counts and chi-square tests over a dice unit's rolls (standard library only).

``dice_stats(rolls)`` takes roll events as the dice bridge emits them (``{"event": "roll", "seq": 7, "dice":
[6, 3], "cocked": [false, false]}``, other events ignored) or plain ``[a, b]`` pairs, and returns (docs/CONTRACTS.md,
issue 21)::

    {"rolls": n, "cocked": k, "rerolls": r, "refused": f, "duplicates": d,
     "dice": [{"counts": [6], "chi2": x, "p": p}, {...}],          # the first die, the second die (5 d.f.)
     "pairs": {"counts": [36], "chi2": x, "p": p},                  # ordered pairs 1-1, 1-2, ..., 6-6 (35 d.f.)
     "doubles": {"count": c, "expected": n / 6, "p": p}}            # doubles against 1 in 6 (1 d.f.)

``rolls`` counts the rolls the tests use; a roll with a cocked die is counted in ``cocked`` and left out of the
tests (a unit that cocks often is a unit to fix); ``rerolls`` counts the rolls made again after a cocked one
(they are ordinary rolls and are tested); ``refused`` the rolls the referee had made again for the game's sake
(``"refused": reason`` in the dice log: a tie at the opening, a roll out of turn; fair throws, tested too);
``duplicates`` the unit's re-sent rolls (the same sequence number of
the same unit and boot), counted once. A p-value is the chance that fair dice give a chi-square at least this
large: small means "not like fair dice" (p < 0.001 over thousands of rolls is strong evidence).

>>> s = dice_stats([[1, 2], [3, 4], [5, 6], [6, 6]])
>>> s["rolls"], s["dice"][0]["counts"], s["doubles"]["count"]
(4, [1, 0, 1, 0, 1, 1], 1)
>>> round(chi2_sf(11.0705, 5), 4)   # the 5% point of chi-square with 5 degrees of freedom
0.05
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

FACES = 6


# ----- the chi-square distribution ---------------------------------------------------------------------------
def _gamma_p_series(a: float, x: float) -> float:
    """Regularised lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(10000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) by its continued fraction (modified Lentz; x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x >= 0."""
    if a <= 0:
        raise ValueError(f"gamma_q needs a > 0, got {a}")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_p_series(a, x))
    return min(1.0, _gamma_q_fraction(a, x))


def chi2_sf(chi2: float, dof: int) -> float:
    """P(X >= chi2) for X chi-square with ``dof`` degrees of freedom: Q(dof / 2, chi2 / 2)."""
    return gamma_q(dof / 2.0, chi2 / 2.0)


def chi_square(counts: list[int], expected: list[float]) -> tuple[float, float]:
    """Pearson's chi-square of observed ``counts`` against ``expected`` and its p-value (len - 1 d.f.)."""
    n = sum(counts)
    if n == 0:
        return 0.0, 1.0
    chi2 = sum((o - e) ** 2 / e for o, e in zip(counts, expected, strict=True) if e > 0)
    return chi2, chi2_sf(chi2, len(counts) - 1)


# ----- rolls --------------------------------------------------------------------------------------------------
def _roll_of(item: Any) -> tuple[tuple[int, int], bool, Any] | None:
    """(dice, cocked, key) of one roll, or None for what is not a roll (hello, heartbeat, ...)."""
    if isinstance(item, Mapping):
        if item.get("event", "roll") != "roll":
            return None
        dice, cocked = item.get("dice"), item.get("cocked") or [False, False]
        seq = item.get("seq")
        key = (item.get("unit"), item.get("boot"), seq) if seq is not None else None
    else:
        dice, cocked, key = item, [False, False], None
    if (not isinstance(dice, list | tuple) or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= FACES for d in dice)):
        raise ValueError(f"a roll needs two dice from 1 to 6, got {_short(dice)}")
    if not isinstance(cocked, list | tuple) or not all(isinstance(c, bool) for c in cocked):
        raise ValueError(f"a roll's cocked dice are true/false values, got {_short(cocked)}")
    if key is not None and not all(part is None or isinstance(part, str | int) for part in key):
        raise ValueError(f"a roll's unit, boot and seq are texts or numbers, got {_short(list(key))}")
    return (dice[0], dice[1]), any(cocked), key


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def dice_stats(rolls: Iterable[Any]) -> dict[str, Any]:
    """Counts and tests over ``rolls`` (see the module's doc for the shape). ValueError for a malformed roll."""
    first, second = [0] * FACES, [0] * FACES
    pairs = [0] * (FACES * FACES)
    n = cocked = rerolls = refused = duplicates = 0
    seen: set[Any] = set()
    after_cocked = False
    for item in rolls:
        roll = _roll_of(item)
        if roll is None:
            continue
        (a, b), is_cocked, key = roll
        if key is not None:
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
        if is_cocked:
            cocked += 1
            after_cocked = True
            continue
        if after_cocked:
            rerolls += 1
            after_cocked = False
        n += 1
        if isinstance(item, Mapping) and item.get("refused"):
            refused += 1
        first[a - 1] += 1
        second[b - 1] += 1
        pairs[(a - 1) * FACES + (b - 1)] += 1
    dice = []
    for counts in (first, second):
        chi2, p = chi_square(counts, [n / FACES] * FACES)
        dice.append({"counts": counts, "chi2": round(chi2, 6), "p": p})
    chi2, p = chi_square(pairs, [n / FACES ** 2] * FACES ** 2)
    doubles = sum(pairs[k * FACES + k] for k in range(FACES))
    _, p_doubles = chi_square([doubles, n - doubles], [n / FACES, n * (FACES - 1) / FACES])
    return {"rolls": n, "cocked": cocked, "rerolls": rerolls, "refused": refused, "duplicates": duplicates, "dice": dice,
            "pairs": {"counts": pairs, "chi2": round(chi2, 6), "p": p},
            "doubles": {"count": doubles, "expected": n / FACES, "p": p_doubles}}


def flagged(stats: Mapping[str, Any], alpha: float = 0.001) -> bool:
    """True when any of the tests says "not like fair dice" at level ``alpha``."""
    ps = [d["p"] for d in stats["dice"]] + [stats["pairs"]["p"], stats["doubles"]["p"]]
    return min(ps) < alpha
