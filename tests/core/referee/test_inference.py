"""Inference: candidates per roll, scoring under camera noise, and explanations of illegal boards."""

from __future__ import annotations

from core.referee.faults import classify
from core.referee.inference import Observation, TurnModel, vec_of_position
from core.rules.position import Position, Side

START = Position.start()


def obs(pos: Position, **changes: int) -> Observation:
    """An observation of ``pos`` with some counts changed: l5=+1 means one more light checker on point 5."""
    v = list(vec_of_position(pos))
    for key, delta in changes.items():
        base = 0 if key[0] == "l" else 24
        v[base + int(key[1:]) - 1] += delta
    return Observation(tuple(v))


def test_candidates_cover_results_prefixes_and_start() -> None:
    model = TurnModel(START, (3, 1))
    kinds = [c.kind for c in model.candidates]
    assert kinds.count("legal") == len(START.legal_plays((3, 1))) == 16
    assert kinds.count("start") == 1
    assert kinds.count("prefix") >= 7  # every single 3 or 1 that some full play continues
    for c in model.candidates:
        if c.kind == "legal":
            assert c.vec == vec_of_position(c.legal.result)


def test_exact_board_is_the_play() -> None:
    model = TurnModel(START, (6, 5))
    inf = model.explain(Observation(vec_of_position(START.play((6, 5), "24/13"))))
    assert inf.kind == "play" and inf.best.legal.play.text() == "24/18/13" and inf.cost == 0


def test_half_played_board_is_in_progress() -> None:
    model = TurnModel(START, (6, 5))
    half = Position.from_physical([0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
                                  list(START.dark))
    inf = model.explain(Observation(vec_of_position(half)))
    assert inf.kind == "in_progress" and inf.best.used == (6,)


def test_one_count_off_still_finds_the_play() -> None:
    model = TurnModel(START, (3, 1))
    played = START.play((3, 1), "8/5 6/5")
    for change in ({"l13": -1}, {"l13": +1}, {"d12": -1}, {"l24": -1}):
        inf = model.explain(obs(played, **change))
        assert inf.kind == "play" and inf.best.legal.result == played, change


def test_hidden_sixth_checker_under_a_stack() -> None:
    model = TurnModel(START, (1, 1))
    played = START.play((1, 1), "8/7(2) 8/6")  # six checkers on the 6-point, one hidden
    assert played.light[5] == 6
    # On the board the camera cannot yet tell it from 8/7(2) with a checker missing from 8...
    assert model.explain(obs(played, l6=-1)).kind in ("play", "uncertain")
    # ...but once the play is committed, the finished play is the explanation.
    inf = model.explain(obs(played, l6=-1), committing=True)
    assert inf.kind == "play" and inf.best.legal.result == played


def test_occluded_points_resolved_by_the_rules() -> None:
    model = TurnModel(START, (6, 4))
    played = START.play((6, 4), "24/14")
    o = obs(played)
    flat = {n: 1 / 16 for n in range(16)}
    dists = {i: flat for i in (13, 23, 12)}  # light points 14, 24 and 13 hidden by a hand
    inf = model.explain(Observation(o.vec, dists))
    assert inf.kind in ("play", "uncertain")
    if inf.kind == "play":
        assert inf.best.legal.result == played


def test_two_plays_equally_likely_is_uncertain() -> None:
    model = TurnModel(START, (3, 1))
    played = START.play((3, 1), "13/10 6/5")
    flat = {n: 1 / 6 for n in range(6)}
    inf = model.explain(Observation(vec_of_position(played), {i: flat for i in (4, 5, 8, 9)}))
    assert inf.kind == "uncertain" and len(inf.rivals) >= 2


def test_far_board_is_unexplained() -> None:
    model = TurnModel(START, (6, 5))
    assert model.explain(obs(START, l13=-2, l9=+2)).kind == "unexplained"


def test_commit_prefers_a_finished_play_over_a_half_one_under_noise() -> None:
    model = TurnModel(START, (6, 5))
    played = START.play((6, 5), "24/18 13/8")
    noisy = obs(played, l8=-1)  # looks like 24/18 with the 5 not yet played
    assert model.explain(noisy).kind in ("uncertain", "in_progress", "play")
    inf = model.explain(noisy, committing=True)
    assert inf.kind in ("play", "uncertain") and inf.best.legal.result == played


# ----- explanations --------------------------------------------------------------------------------------------
def test_r09_larger_die_required() -> None:
    pos = Position.from_position_id("MIAxMwAABQAAAA", turn=Side.LIGHT)
    model = TurnModel(pos, (6, 3))
    assert [lp.play.text() for lp in model.legal] == ["15/9"]
    smaller = Position((tuple(_moved(pos.own(Side.LIGHT), 15, 12)), pos.own(Side.DARK)), Side.LIGHT)
    assert model.explain(Observation(vec_of_position(smaller))).kind == "unexplained"
    fault = classify(model, vec_of_position(smaller))
    assert (fault.verdict, fault.reason, fault.params["die"]) == ("unplayed_die", "larger_die_required", 6)


def _moved(counts: tuple[int, ...], frm: int, to: int) -> list[int]:
    out = list(counts)
    out[frm] -= 1
    out[to] += 1
    return out


def test_classify_reasons() -> None:
    model = TurnModel(START, (6, 5))

    def reason(light: dict[int, int], dark: dict[int, int] | None = None) -> str:
        me = list(START.own(Side.LIGHT))
        for k, d in light.items():
            me[k] += d
        opp = list(START.own(Side.DARK))
        for k, d in (dark or {}).items():
            opp[k] += d
        return classify(model, vec_of_position(Position((tuple(me), tuple(opp)), Side.LIGHT))).reason

    assert reason({13: -1, 9: +1, 8: 0}) == "wrong_distance"
    assert reason({13: -1, 14: +1}) == "wrong_direction"
    assert reason({24: -1, 19: +1, 13: -1, 7: +1}) == "closed_point"
    assert reason({6: -1, 0: +1, 13: -1, 8: +1}) == "bear_off_too_early"
    assert reason({}, {24: -1, 18: +1, 13: -1, 8: +1}) == "wrong_side_moved"
    assert reason({24: -1}) == "checker_missing"
    assert reason({3: +1}) == "checker_added"


def test_classify_takeback() -> None:
    later = START.play((3, 1), "8/5 6/5").with_turn(Side.DARK)
    model = TurnModel(later, (6, 4))
    assert classify(model, vec_of_position(START), [vec_of_position(START)]).reason == "takeback"


def test_classify_blocked_intermediate_point() -> None:
    # 6-5 from light's 24: both 18 (dark's 7... empty) and 19 (dark's 6-point) — 24/13 via 18 is fine,
    # but with 18 also closed the combined move 24/13 has no open stop.
    dark = list(START.dark)
    dark[17] = 2  # physical 18
    dark[11] -= 2
    pos = Position.from_physical(list(START.light), dark)
    model = TurnModel(pos, (6, 5))
    moved = Position((tuple(_moved(pos.own(Side.LIGHT), 24, 13)), pos.own(Side.DARK)), Side.LIGHT)
    fault = classify(model, vec_of_position(moved))
    assert fault.reason == "closed_point" and fault.params["point"] in (18, 19)


def test_candidates_precomputed_fast_enough_for_doubles() -> None:
    # Not a timing assertion (bench/ measures): the candidate list stays a few hundred entries.
    model = TurnModel(START, (1, 1))
    assert len(model.candidates) < 500


def test_a_probability_table_sure_of_the_stated_count_is_no_uncertainty() -> None:
    from core.referee.inference import Observation

    board = {"light": [0] * 5 + [5] + [0] + [3] + [0] * 4 + [5] + [0] * 10 + [2],
             "dark": [2] + [0] * 10 + [5] + [0] * 4 + [3] + [0] + [5] + [0] * 5,
             "bar": {"light": 0, "dark": 0}, "off": {"light": 0, "dark": 0}, "stable": True}
    sure = {"light": [{str(n): 1.0} for n in board["light"]], "dark": [{str(n): 1.0} for n in board["dark"]]}
    assert Observation.from_event({**board, "uncertainty": sure}).dists == {}
    doubtful = {"light": [{}] * 5 + [{"5": 0.6, "6": 0.4}] + [{}] * 18, "dark": []}
    assert Observation.from_event({**board, "uncertainty": doubtful}).dists == {5: {5: 0.6, 6: 0.4}}
