"""One turn's view alone (core.referee.turn.TurnState) and the open play it keeps (core.referee.pending):
the roll's candidates, the boards, counts that stay wrong, the plays an unclear board leaves open (R23),
with no referee and no match."""

from __future__ import annotations

from core.referee.inference import Inference, Observation, vec_of_position
from core.referee.pending import READINGS, Hypothesis, Pending
from core.referee.turn import BOARD_LOG, SUSPECT_BOARDS, TurnState, cand_text, unplayed_dice
from core.rules.position import Position, Side

START = Position.start()


def seen(pos: Position, derived: bool = False, **changes: int) -> Observation:
    """A stable board showing ``pos``; l20=+1 puts one more light checker on point 20."""
    v = list(vec_of_position(pos))
    for key, delta in changes.items():
        v[(0 if key[0] == "l" else 24) + int(key[1:]) - 1] += delta
    return Observation(tuple(v), derived_off=derived)


def test_a_turn_begins_with_every_candidate_and_ends_with_none() -> None:
    ts = TurnState()
    model = ts.begin(START, (3, 1))
    assert ts.model is model and len(model.legal) == 16 and model.mover is Side.LIGHT
    ts.last_kind, ts.used = "in_progress", [3]
    ts.end()
    assert ts.model is None and (ts.last_kind, ts.used, ts.last_key, ts.shown_pos) == ("nothing", [], None, None)


def test_the_board_before_the_roll_is_the_baseline_only_from_a_camera() -> None:
    ts = TurnState()
    ts.see(3, seen(START, derived=True))
    ts.see(5, seen(START))
    assert ts.baseline(4) == seen(START, derived=True)  # the last board before the roll at event 4
    assert ts.baseline(6) is None  # a counted board (borne-off seen) needs no allowance
    for n in range(BOARD_LOG + 5):
        ts.see(10 + n, seen(START))
    assert len(ts.obs_log) == BOARD_LOG and ts.last_obs == seen(START)


def test_a_count_wrong_on_several_boards_in_a_row_is_a_checker_problem() -> None:
    ts = TurnState()
    model = ts.begin(START, (3, 1))
    extra = seen(START.play((3, 1), "8/5 6/5"), l20=1)  # one light checker too many on point 20
    found = []
    for _ in range(SUSPECT_BOARDS):
        inf = model.explain(extra)
        assert inf.kind == "play" and inf.residual == {19: 1}
        found.append(ts.count_suspects(extra, inf))
    assert found == [[]] * (SUSPECT_BOARDS - 1) + [[(19, 1)]]
    clean = seen(START.play((3, 1), "8/5 6/5"))
    assert ts.count_suspects(clean, model.explain(clean)) == [] and ts.suspects == {}


def test_r23_an_unclear_board_leaves_the_plays_it_fits_open() -> None:
    ts = TurnState()
    model = ts.begin(START, (3, 1))
    legal = [c for c in model.candidates if c.kind == "legal"][:2]
    prefix = next(c for c in model.candidates if c.kind == "prefix")
    hyps = ts.hypotheses(Inference("uncertain", legal[0], 0.5, [*legal]), strict=False)
    assert hyps is not None and [h.text for h in hyps] == [cand_text(c) for c in legal]
    assert all(h.legal and h.new_pos.turn is Side.DARK for h in hyps)
    # A half-finished play may stand in casual play (a die left unplayed, R09), never in strict.
    mixed = Inference("uncertain", legal[0], 0.5, [legal[0], prefix])
    assert ts.hypotheses(mixed, strict=True) is None
    open_ = ts.hypotheses(mixed, strict=False)
    assert open_ is not None and not open_[1].legal and open_[1].unplayed == unplayed_dice(model, prefix.used)
    assert len(open_[1].unplayed) == 1
    # Only one play fits: nothing is left open.
    assert ts.hypotheses(Inference("uncertain", legal[0], 0.5, [legal[0]]), strict=False) is None


def test_r23_undo_brings_back_the_reading_and_drops_what_was_held() -> None:
    ts = TurnState()
    ts.begin(START, (3, 1))
    ts.last_kind, ts.used = "play", [3, 1]
    snap = ts.snapshot()
    ts.end()
    ts.held = (7, {"event": "roll", "dice": [2, 2]})
    ts.restore(snap)
    assert ts.model is not None and (ts.last_kind, ts.used) == ("play", [3, 1])
    assert ts.held is None and ts.pending is None and ts.last_key is None


def _open_play() -> Pending:
    a, b = START.play((3, 1), "8/5 6/5"), START.play((3, 1), "24/21 6/5")
    model = TurnState().begin(START, (3, 1))
    by_pos = {c.legal.result: c for c in model.candidates if c.legal is not None}
    hyps = [Hypothesis(by_pos[p], p, t, True) for p, t in ((a, "8/5 6/5"), (b, "24/21 6/5"))]
    return Pending(0, Side.LIGHT, (3, 1), hyps, {}, {})


def test_r23_the_open_play_is_decided_by_the_boards_that_follow() -> None:
    p = _open_play()
    costs, decided, best = p.weigh(seen(p.hyps[1].new_pos), moving=False)
    assert decided and best == 1 and costs[1] == 0.0 and costs[0] > 0


def test_the_same_board_seen_twice_counts_once() -> None:
    p = _open_play()
    # Halfway between the two plays: two counts off from each.
    between = seen(p.hyps[0].new_pos, l24=-1, l21=1)
    costs, decided, _ = p.weigh(between, moving=False)
    assert costs == [2.0, 2.0] and not decided
    totals = list(p.totals)
    p.weigh(between, moving=False)
    assert p.totals == totals  # the same board again replaces its own evidence
    p.weigh(seen(p.hyps[0].new_pos, l24=-1, l21=1), moving=False)  # an equal board, seen anew, adds
    assert p.totals == [2 * t for t in totals]
    assert p.likeliest_here(costs) == 0  # a tie goes to the first (the likeliest when committed)


def test_r23_the_open_play_reads_each_board_once_per_model() -> None:
    # While a roll waits on the open play its boards are read by weigh, HeldRoll.options and pending_board:
    # one reading per model, board and committing, the same as the model's own.
    p = _open_play()
    p.build_models(p.hyps[0].new_pos, None, Side.DARK, (2, 1))
    model = p.models[1]
    assert model is not None
    board = seen(p.hyps[1].new_pos.play((2, 1), "13/11 6/5"))
    costs, _, _ = p.weigh(board, moving=True)
    inf = p.explain(model, board)
    assert inf is p.explain(model, board) and inf == model.explain(board) and inf.cost == costs[1] == 0.0
    assert p.explain(model, board, committing=True) == model.explain(board, committing=True)
    again = seen(p.hyps[1].new_pos.play((2, 1), "13/11 6/5"))  # an equal board, seen anew: read anew
    assert p.explain(model, again) is not inf and p.explain(model, again) == inf
    for n in range(READINGS + 5):
        p.explain(model, seen(START, l24=-(n % 2)))
    assert len(p.readings) == READINGS
