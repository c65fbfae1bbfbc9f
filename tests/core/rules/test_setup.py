"""Setting up a position on a real board (core/rules/setup.py, `gamao setup-moves`; issue 38): the fewest
single-checker moves, checked against a brute-force search over every way of lifting checkers (R01, R02: 15
checkers a side, points, the bar and the borne-off tray)."""

from __future__ import annotations

import random

import pytest

from core.coach.drills import race_position
from core.messages import setup_words
from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side
from core.rules.setup import setup_moves, side_moves
from core.rules.variants import VARIANTS
from tests.soak import soak

PAIRS = 400 if soak() else 30


def _brute(now: tuple[int, ...], target: tuple[int, ...], reach: int = 2) -> int | None:
    """The fewest lifts (any checker, any place to any other place) from ``now`` to ``target`` by a search from both
    ends, ``reach`` lifts from each: exact for answers up to 2 * reach, None beyond."""

    def layers(start: tuple[int, ...]) -> dict[tuple[int, ...], int]:
        seen = {start: 0}
        frontier = [start]
        for depth in range(1, reach + 1):
            nxt = []
            for state in frontier:
                for p in range(26):
                    if not state[p]:
                        continue
                    for q in range(26):
                        if q == p:
                            continue
                        s = list(state)
                        s[p] -= 1
                        s[q] += 1
                        t = tuple(s)
                        if t not in seen:
                            seen[t] = depth
                            nxt.append(t)
            frontier = nxt
        return seen

    ahead, back = layers(now), layers(target)
    met = [d + back[s] for s, d in ahead.items() if s in back]
    return min(met) if met else None


def _small(rng: random.Random) -> Position:
    """A valid position with few checkers on the board (the rest borne off), so the search stays small."""
    while True:
        rel = []
        for _ in range(2):
            counts = [0] * 26
            for _ in range(rng.randint(0, 3)):
                counts[rng.choice((BAR, *range(1, 25)))] += 1
            counts[OFF] = 15 - sum(counts)
            rel.append(tuple(counts))
        if rel[0][OFF] == rel[1][OFF] == 15:
            continue
        pos = Position((rel[0], rel[1]), Side.LIGHT)
        try:
            return Position.from_position_id(pos.position_id(Side.LIGHT))  # the same checks an ID gets
        except ValueError:
            continue  # both sides on one point


def _apply(pos: Position, moves: list[dict[str, object]]) -> tuple[list[int], list[int]]:
    sides = {"light": list(pos.own(Side.LIGHT)), "dark": list(pos.own(Side.DARK))}
    place = {"bar": BAR, "off": OFF}
    for m in moves:
        counts = sides[str(m["side"])]
        frm, to, n = m["from"], m["to"], m["count"]
        assert isinstance(n, int) and n >= 1
        f = place.get(str(frm), frm)
        t = place.get(str(to), to)
        assert isinstance(f, int) and isinstance(t, int) and f != t
        assert counts[f] >= n, "a move lifts checkers that are there"
        counts[f] -= n
        counts[t] += n
    return sides["light"], sides["dark"]


def test_fewest_moves_match_a_brute_force_search_on_random_pairs() -> None:
    rng = random.Random(38)
    compared = 0
    for _ in range(PAIRS):
        now, target = _small(rng), _small(rng)
        plan = setup_moves(now, target)
        light, dark = _apply(now, plan.as_json()["moves"])  # type: ignore[arg-type]
        assert (tuple(light), tuple(dark)) == (target.own(Side.LIGHT), target.own(Side.DARK))
        # each side's lifts never touch the other's checkers, so the fewest is the sum of each side's fewest
        brute = [_brute(now.own(s), target.own(s)) for s in (Side.LIGHT, Side.DARK)]
        assert None not in brute  # at most 3 checkers on the board: never more than 4 lifts a side
        assert plan.checkers_moved == sum(b for b in brute if b is not None)
        compared += 1
    assert compared == PAIRS


def test_a_checker_is_moved_once_and_the_carry_is_shortest() -> None:
    # 24/18 13/11 from the start: the back checker goes 24 -> 18 and one from 13 to 11, not 24 -> 11 and 13 -> 18
    start = Position.start()
    after = start.play((6, 2), "24/18 13/11")
    plan = setup_moves(start, after)
    assert [m.as_json() for m in plan.moves] == [
        {"side": "light", "from": 24, "to": 18, "count": 1},
        {"side": "light", "from": 13, "to": 11, "count": 1},
    ]
    # every checker of both sides from a bear-off finish back to the start: 30 lifts, none twice
    done = Position((tuple([15] + [0] * 25), start.own(Side.DARK)), Side.LIGHT)
    assert setup_moves(done, start).checkers_moved == 15
    assert {m.frm for m in setup_moves(done, start).moves} == {OFF}


def test_bar_and_off_and_words() -> None:
    now = [0] * 26
    target = [0] * 26
    now[BAR], now[13], now[OFF] = 1, 2, 12
    target[8], target[OFF] = 2, 13
    assert side_moves(now, target) == [(BAR, 8, 1), (13, 8, 1), (13, OFF, 1)]
    words = setup_words({"side": "light", "from": 13, "to": 8, "count": 2})
    assert words["pt"] == "Claras: leve 2 peças da casa 13 para a casa 8"
    assert words["en"] == "Light: move 2 checkers from point 13 to point 8"
    assert setup_words({"side": "dark", "from": "bar", "to": "off", "count": 1})["pt"] == (
        "Escuras: leve 1 peça da barra para fora (retiradas)")  # the seeds' barra (issue 37)
    with pytest.raises(ValueError):
        side_moves(now, [0] * 26)


def test_the_variants_positions_set_up_the_same_way() -> None:
    # Nackgammon's start from the standard one: a checker from 13 and one from 6 to 23, for each side
    plan = setup_moves(Position.start(), VARIANTS["nackgammon"].start())
    assert [m.as_json() for m in plan.moves] == [
        {"side": side, "from": frm, "to": 23, "count": 1} for side in ("light", "dark") for frm in (13, 6)]
    for cls in VARIANTS.values():
        assert setup_moves(cls.start(), cls.start()).done


def test_the_moves_can_be_made_one_after_the_other_on_a_real_board() -> None:
    # R01: a point holds one side's checkers. Every move lands on a point free of the other side, except in a swap:
    # when every shortage left, of both sides, is a point the other side holds (the hand holds a checker meanwhile).
    rng = random.Random(7)
    swaps = clean = 0
    for k in range(20):
        race = race_position(random.Random(k))
        for now, target in ((Position.start(), race), (race, Position.start()), (_scramble(rng), race)):
            pos = now
            for move in setup_moves(now, target).as_json()["moves"]:  # type: ignore[union-attr]
                for _ in range(int(move["count"])):  # type: ignore[call-overload]
                    light, dark = _apply(pos, [move | {"count": 1}])
                    after = Position((tuple(light), tuple(dark)), Side.LIGHT)
                    try:
                        after._check_shared_points()
                        clean += 1
                    except ValueError:
                        if _valid(pos):  # the first move of a swap (those after it finish the swap)
                            assert _all_held(pos, target), (pos.position_id(), target.position_id(), move)
                            swaps += 1
                    pos = after
            assert pos.own(Side.LIGHT) == target.own(Side.LIGHT) and pos.own(Side.DARK) == target.own(Side.DARK)
    assert clean > 20 * swaps


def _valid(pos: Position) -> bool:
    try:
        pos._check_shared_points()
    except ValueError:
        return False
    return True


def _all_held(pos: Position, target: Position) -> bool:
    light, dark = pos.light, pos.dark
    for side, other in ((Side.LIGHT, dark), (Side.DARK, light)):
        own, goal = pos.own(side), target.own(side)
        for p in range(26):
            if own[p] < goal[p] and (p in (BAR, OFF) or not other[pos.physical_point(side, p) - 1]):
                return False
    return True


def test_a_swap_cannot_be_ordered_and_keeps_the_fewest_moves() -> None:
    # light's checker on physical 5, dark's on 10; the target swaps them: neither lands free, still 2 moves
    now = Position.from_physical([0] * 4 + [1] + [0] * 19, [0] * 9 + [1] + [0] * 14)
    target = Position.from_physical([0] * 9 + [1] + [0] * 14, [0] * 4 + [1] + [0] * 19)
    assert setup_moves(now, target).checkers_moved == 2


def _scramble(rng: random.Random) -> Position:
    pos = Position.start()
    for _ in range(8):
        side = rng.choice((Side.LIGHT, Side.DARK))
        frm = rng.choice([p for p in range(1, 26) if pos.own(side)[p]])
        to = rng.randrange(0, 25)
        if to == frm:
            continue
        light, dark = _apply(pos, [{"side": side.value, "from": frm, "to": to, "count": 1}])
        moved = Position((tuple(light), tuple(dark)), Side.LIGHT)
        try:
            moved._check_shared_points()
        except ValueError:
            continue
        pos = moved
    return pos
