"""Dice statistics (core.match.dicestats): the chi-square tail against known values, the shape of the contract,
and a deliberately biased unit caught while fair dice are flagged only as often as chance says."""

from __future__ import annotations

import math
import random

import pytest

from core.match.dicestats import chi2_sf, dice_stats, flagged, gamma_q
from firmware_bridge.sim import load_dicecore


@pytest.mark.parametrize("chi2, dof, p", [
    (11.0705, 5, 0.05), (15.0863, 5, 0.01), (20.5150, 5, 0.001),      # the usual table's critical values
    (49.8018, 35, 0.05), (57.3421, 35, 0.01), (66.6188, 35, 0.001),
    (3.841459, 1, 0.05), (10.827566, 1, 0.001), (4.35146, 5, 0.5),
])
def test_chi2_tail_matches_the_tables(chi2: float, dof: int, p: float) -> None:
    assert chi2_sf(chi2, dof) == pytest.approx(p, rel=1e-4)


def test_gamma_q_closed_forms() -> None:
    for x in (0.1, 1.0, 3.0, 10.0, 40.0):
        assert gamma_q(1.0, x) == pytest.approx(math.exp(-x), rel=1e-12)          # chi-square, 2 d.f.
        assert gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10)  # chi-square, 1 d.f.
    assert gamma_q(2.5, 0.0) == 1.0 and chi2_sf(1e4, 35) < 1e-300 + 1e-200


def test_scipy_agrees_when_installed() -> None:
    stats = pytest.importorskip("scipy.stats", reason="scipy is only an oracle, not a dependency")
    for chi2, dof in ((3.0, 5), (40.0, 35), (80.0, 35), (0.2, 1)):
        assert chi2_sf(chi2, dof) == pytest.approx(stats.chi2.sf(chi2, dof), rel=1e-9)


def test_contract_shape_cocked_rerolls_and_duplicates() -> None:
    rolls = [
        {"event": "hello", "unit": "GAMAO1"},
        {"event": "roll", "seq": 1, "dice": [6, 3], "cocked": [False, False]},
        {"event": "roll", "seq": 1, "dice": [6, 3], "cocked": [False, False]},   # re-sent: once
        {"event": "roll", "seq": 2, "dice": [2, 2], "cocked": [False, True]},    # cocked: apart
        {"event": "roll", "seq": 3, "dice": [2, 2], "cocked": [False, False]},   # its re-roll
        {"event": "heartbeat"},
    ]
    s = dice_stats(rolls)
    assert set(s) >= {"rolls", "cocked", "dice", "pairs", "doubles"}
    assert (s["rolls"], s["cocked"], s["rerolls"], s["duplicates"]) == (2, 1, 1, 1)
    assert s["dice"][0]["counts"] == [0, 1, 0, 0, 0, 1] and s["dice"][1]["counts"] == [0, 1, 1, 0, 0, 0]
    assert len(s["pairs"]["counts"]) == 36 and s["pairs"]["counts"][5 * 6 + 2] == 1 and s["pairs"]["counts"][7] == 1
    assert s["doubles"] == {"count": 1, "expected": 2 / 6, "p": s["doubles"]["p"]}
    for d in s["dice"]:
        assert set(d) == {"counts", "chi2", "p"} and 0 <= d["p"] <= 1
    empty = dice_stats([])
    assert empty["rolls"] == 0 and empty["dice"][0]["p"] == 1.0 and empty["doubles"]["expected"] == 0
    with pytest.raises(ValueError, match="two dice from 1 to 6"):
        dice_stats([{"event": "roll", "dice": [7, 1]}])


def _unit_rolls(n: int, seed: int, debiased: bool) -> list[list[int]]:
    """Rolls from the Pico firmware's own die logic (hardware/firmware/dicecore.py) over a raw random bit
    that is 1 in 55% of draws, as an RP2040's ring oscillator can be: with the firmware's Von Neumann step
    (a sound unit) or with it left out (a deliberately faulty one)."""
    core = load_dicecore()
    rng = random.Random(seed)

    def raw() -> int:
        return 1 if rng.random() < 0.55 else 0

    if debiased:
        bits = core.VonNeumann(raw).bits
    else:
        def bits(n: int) -> int:
            value = 0
            for _ in range(n):
                value = (value << 1) | raw()
            return value
    return [[core.fair_die(bits), core.fair_die(bits)] for _ in range(n)]


def test_a_biased_unit_is_flagged_over_6000_rolls() -> None:
    s = dice_stats(_unit_rolls(6000, seed=21, debiased=False))
    assert s["rolls"] == 6000
    assert s["dice"][0]["p"] < 0.001 and s["dice"][1]["p"] < 0.001 and s["pairs"]["p"] < 0.001
    assert flagged(s)


def test_the_same_unit_with_its_debiasing_is_not_flagged() -> None:
    s = dice_stats(_unit_rolls(6000, seed=21, debiased=True))
    assert not flagged(s), s


def test_fair_dice_are_flagged_at_about_the_chance_rate() -> None:
    # 400 fair sessions of 600 rolls: at p < 0.01 each test should fire in about 1% of them (4 of 400).
    seeds, hits = 400, {"die1": 0, "die2": 0, "pairs": 0, "doubles": 0}
    ps = []
    for seed in range(seeds):
        rng = random.Random(seed)
        s = dice_stats([[rng.randint(1, 6), rng.randint(1, 6)] for _ in range(600)])
        for name, p in (("die1", s["dice"][0]["p"]), ("die2", s["dice"][1]["p"]), ("pairs", s["pairs"]["p"]),
                        ("doubles", s["doubles"]["p"])):
            hits[name] += p < 0.01
        ps.append(s["dice"][0]["p"])
    for name, n in hits.items():
        assert n <= 14, (name, n)  # binomial(400, 0.01): mean 4; 14 or more has a chance under 1 in 10^4
    assert sum(hits.values()) >= 4  # and the tests do fire sometimes (they are not stuck at p = 1)
    assert 0.45 < sum(ps) / len(ps) < 0.55  # p-values of fair dice are uniform: mean 1/2
