"""The explainer's claims are true of the positions (issue 12): a property test over random positions and
plays, checked by counting afresh (shots by enumerating the 36 rolls and the opponent's legal plays, R04-R10),
and the sentences say the claims' numbers in both languages."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.coach.explain import ALIKE, KINDS, LONG_RUN, POINT_VALUE, Claim, explain_play, favours
from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side
from engine.fake import FakeEngine


def _walk(seed: int, plies: int) -> Position:
    """A position reached by random legal plays from the start (hits, the bar and bear-offs included)."""
    rng = random.Random(seed)
    pos = Position.start(turn=rng.choice([Side.LIGHT, Side.DARK]))
    for _ in range(plies):
        plays = list(pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6))))
        nxt = rng.choice(plays).result if plays else pos.with_turn(pos.turn.other)
        if nxt.is_game_over():
            break
        pos = nxt
    return pos


def _shots_by_enumeration(pos: Position, side: Side, targets: set[int]) -> tuple[int, dict[int, int]]:
    """Of the 36 ordered rolls, how many let the opponent hit one of ``targets`` (side's own points), and
    each; a hit is read from the plays' own moves (a hitting step lands on the point), not from counts."""
    per = dict.fromkeys(targets, 0)
    total = 0
    opponent = pos.with_turn(side.other)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            hit: set[int] = set()
            for lp in opponent.legal_plays((d1, d2)):
                for mv in lp.play.moves:
                    if mv.hit and mv.to != OFF and 25 - mv.to in targets:
                        hit.add(25 - mv.to)
            for p in hit:
                per[p] += 1
            total += bool(hit)
    return total, per


def _made(pos: Position, side: Side) -> set[int]:
    own = pos.own(side)
    return {p for p in range(1, 25) if own[p] > 1}


def _contact(pos: Position, side: Side) -> bool:
    # Physically: light moves down, dark up; contact while a light checker stands above a dark one.
    light_back = max([p for p in range(1, 25) if pos.light[p - 1]] + ([25] if pos.bar[Side.LIGHT] else []), default=0)
    dark_back = min([p for p in range(1, 25) if pos.dark[p - 1]] + ([0] if pos.bar[Side.DARK] else []), default=25)
    return light_back > dark_back


def check_claim(c: Claim, before: Position, results: dict[str, Position]) -> None:
    side = Side(c.side)
    assert side is before.turn
    after = results[c.which]
    me, opp = after.own(side), after.own(side.other)
    if c.kind == "blot":
        (point,) = c.points
        assert me[point] == 1, f"{point} is no blot"
        assert c.numbers["shots"] == _shots_by_enumeration(after, side, {point})[0]
    elif c.kind == "shots":
        assert set(c.points) == {p for p in range(1, 25) if me[p] == 1}
        assert c.numbers["shots"] == _shots_by_enumeration(after, side, set(c.points))[0]
    elif c.kind == "hit":
        was = before.own(side.other)
        assert c.numbers["count"] == len(c.points) == opp[BAR] - was[BAR]
        for p in c.points:
            assert was[25 - p] == 1 and opp[25 - p] == 0
    elif c.kind == "made":
        assert set(c.points) == _made(after, side) - _made(before, side)
    elif c.kind == "broke":
        assert set(c.points) == _made(before, side) - _made(after, side)
    elif c.kind == "home_board":
        assert set(c.points) == {p for p in range(1, 7) if me[p] >= 2}
        assert c.numbers["count"] == len(c.points)
    elif c.kind == "prime":
        assert c.numbers["length"] == len(c.points)
        assert all(me[p] >= 2 for p in c.points)
        assert list(c.points) == list(range(c.points[0], c.points[0] - len(c.points), -1))
        made = _made(after, side)
        assert not any(all(q in made for q in range(p, p - len(c.points) - 1, -1)) for p in range(1, 25)), "a longer prime exists"
    elif c.kind == "anchor":
        assert set(c.points) == {p for p in range(19, 25) if me[p] >= 2}
    elif c.kind == "off":
        assert c.numbers["count"] == me[OFF] - before.own(side)[OFF]
    elif c.kind == "contact":
        assert bool(c.numbers["contact"]) == _contact(after, side)
    elif c.kind == "pips":
        assert c.numbers["mover"] == sum(i * me[i] for i in range(1, 26))
        assert c.numbers["opponent"] == sum(i * opp[i] for i in range(1, 26))
    else:
        assert c.kind == "alike"


def _check_explanation(before: Position, dice: tuple[int, int], played: Position, best: Position) -> None:
    why = explain_play(before, dice, played, best)
    results = {"played": played, "best": best}
    assert why.claims
    for claim in why.claims:
        assert claim.kind in KINDS
        check_claim(claim, before, results)
    # The played and best claims come in pairs of the same kind, one sentence per pair, in both languages.
    pairs = [c for c in why.claims if c.kind not in ("blot", "alike")]
    # Plus the long-run headline when no claim favours the better play, and the "looks safer, but" sentence
    # when one favours the play made.
    couples = list(zip(pairs[::2], pairs[1::2], strict=True))
    extra = int(bool(couples) and why.headline["long_run"]) + int(any(favours(p, b) == "played" for p, b in couples))
    assert len(why.sentences["pt"]) == len(why.sentences["en"]) == max(1, len(couples)) + extra
    for c in pairs:
        for lang in ("pt", "en"):
            text = " ".join(why.sentences[lang])
            for n in c.numbers.values():
                if c.kind != "contact" and (c.points or c.kind not in ("shots", "hit")):
                    assert str(n) in text
            for p in (c.points[:1] + c.points[-1:]) if c.kind == "prime" else c.points:
                assert str(p) in text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 80), d1=st.integers(1, 6), d2=st.integers(1, 6),
       pick=st.randoms(use_true_random=False))
def test_every_claim_is_true_of_the_positions(seed: int, plies: int, d1: int, d2: int, pick: random.Random) -> None:
    before = _walk(seed, plies)
    plays = list(before.legal_plays((d1, d2)))
    if len(plays) < 2:
        return
    played, best = pick.sample(plays, 2)
    _check_explanation(before, (d1, d2), played.result, best.result)


def test_the_opening_three_one_made_point_and_blots() -> None:
    start = Position.start()
    played, best = start.play((3, 1), "24/21 6/5"), start.play((3, 1), "8/5 6/5")
    why = explain_play(start, (3, 1), played, best)
    kinds = {(c.kind, c.which): c for c in why.claims}
    assert kinds[("made", "best")].points == (5,)
    assert kinds[("made", "played")].points == ()
    assert kinds[("shots", "best")].points == () and kinds[("shots", "best")].numbers["shots"] == 0
    assert "Sua jogada não fecha nenhuma casa nova; a melhor jogada fecha a casa 5." in why.sentences["pt"]
    _check_explanation(start, (3, 1), played, best)


def test_a_hit_and_the_race_are_named() -> None:
    # Light's last checker passes dark's last one by hitting it: the game becomes... no, the hit keeps contact.
    pos = Position.from_physical(light=[0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2],
                                 dark=[0] * 4 + [1] + [0] * 6 + [5, 0, 0, 0, 0, 3, 0, 5] + [0] * 5,
                                 off={"light": 0, "dark": 1})
    hit = pos.play((3, 3), "8/5*(2) 6/3(2)")
    quiet = pos.play((3, 3), "13/7(2)")
    why = explain_play(pos, (3, 3), quiet, hit)
    claims = {(c.kind, c.which): c for c in why.claims}
    assert claims[("hit", "best")].points == (5,) and claims[("hit", "played")].numbers["count"] == 0
    assert why.sentences["en"][0] == "Your play hits nothing; the better play hits 1 checker on 5."
    assert why.sentences["pt"][0] == "Sua jogada não captura nenhuma peça; a melhor jogada captura 1 peça na casa 5."
    _check_explanation(pos, (3, 3), quiet, hit)


def test_same_result_is_alike() -> None:
    start = Position.start()
    result = start.play((6, 5), "24/13")
    why = explain_play(start, (6, 5), result, result)
    assert [c.kind for c in why.claims] == ["alike"]
    assert why.sentences["en"][0].startswith("By the simple counts")


def test_a_bad_roll_is_refused() -> None:
    with pytest.raises(ValueError, match="invalid roll"):
        explain_play(Position.start(), (7, 1), Position.start(), Position.start())


# ----- the decisive reason first (issue 24) -----------------------------------------------------------------
def _blots(pos: Position, side: Side) -> set[int]:
    me = pos.own(side)
    return {p for p in range(1, 25) if me[p] == 1}


def _run(points: set[int]) -> int:
    return max((n for p in points for n in range(1, 25) if all(p - k in points for k in range(n))), default=0)


def _measure(kind: str, before: Position, after: Position, side: Side) -> float:
    """The quantity a headline of ``kind`` is about, counted from the positions (higher: better for the mover)."""
    me, opp = after.own(side), after.own(side.other)
    made_before = _made(before, side)
    made = _made(after, side)
    if kind == "hit":
        return opp[BAR] - before.own(side.other)[BAR]
    if kind == "shots":
        return -_shots_by_enumeration(after, side, _blots(after, side))[0] if _contact(after, side) else 0
    if kind == "made":
        return sum(POINT_VALUE.get(p, 0.04) for p in made - made_before)
    if kind == "broke":
        return -sum(POINT_VALUE.get(p, 0.04) for p in made_before - made)
    if kind == "home_board":
        return len({p for p in made if p <= 6})
    if kind == "prime":
        return _run(made)
    if kind == "anchor":
        return len({p for p in made if p >= 19})
    if kind == "off":
        return me[OFF]
    if kind == "pips":
        return sum(i * opp[i] for i in range(1, 26)) - sum(i * me[i] for i in range(1, 26))
    raise AssertionError(f"no measure for a headline of kind {kind}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 80), d1=st.integers(1, 6), d2=st.integers(1, 6),
       pick=st.randoms(use_true_random=False))
def test_every_headline_favours_the_better_play_or_says_the_long_run(seed: int, plies: int, d1: int, d2: int,
                                                                    pick: random.Random) -> None:
    """The engine's better play (the fake engine's ranking) against a worse one: the explanation's first
    sentence is a claim that favours the better play, counted again here from the two positions, or it
    says the difference is in the long run."""
    before = _walk(seed, plies)
    ranked = FakeEngine().rank_plays(before.position_id(before.turn), (d1, d2))
    if len(ranked) < 2:
        return
    best_rp = ranked[0]
    worse_rp = pick.choice(ranked[1:])
    side = before.turn
    best = Position.from_position_id(best_rp.result, turn=side)
    played = Position.from_position_id(worse_rp.result, turn=side)
    why = explain_play(before, (d1, d2), played, best)
    head = why.headline
    if head["long_run"]:
        assert why.sentences["pt"][0] in (LONG_RUN["pt"], ALIKE["pt"])
        assert why.sentences["en"][0] in (LONG_RUN["en"], ALIKE["en"])
        return
    assert head["favours"] == "best"
    assert _measure(head["kind"], before, best, side) > _measure(head["kind"], before, played, side)


def test_a_safer_looking_play_is_told_what_the_better_play_gains() -> None:
    """The review's case: the play made leaves fewer shots (15 of 36) than the better one (31 of 36); the first
    sentence is the better play's gain (a hit), and a sentence says why it is better all the same."""
    before = Position.from_position_id("Fp/gATCit8QBMA", turn=Side.DARK)
    played, best = before.play((5, 2), "13/11 10/5"), before.play((5, 2), "24/22* 13/8")
    why = explain_play(before, (5, 2), played, best)
    assert why.headline == {"kind": "hit", "favours": "best", "weight": 0.12, "long_run": False}
    assert why.sentences["pt"][0] == "Sua jogada não captura nenhuma peça; a melhor jogada captura 1 peça na casa 22."
    assert why.sentences["pt"][1] == ("Sua jogada parece mais segura (deixa só 15 de 36 lances que capturam, em vez de 31), "
                                      "mas a melhor vale mais porque captura 1 peça.")
    assert why.sentences["en"][1].startswith("Your play looks safer (leaves only 15 of 36 hitting rolls, instead of 31)")


def test_a_safer_play_with_no_counted_gain_for_the_better_one_is_the_long_run() -> None:
    start = Position.start()
    played, best = start.play((6, 4), "8/2 6/2"), start.play((6, 4), "24/18 13/9")
    why = explain_play(start, (6, 4), played, best)
    assert why.headline["long_run"] and why.sentences["pt"][0] == LONG_RUN["pt"]
    assert why.sentences["pt"][1].startswith("Sua jogada parece melhor numa conta simples")
