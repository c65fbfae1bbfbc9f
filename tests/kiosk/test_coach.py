"""The coach service beside the real referee service and journal, with the fake engine (issue 12).

The tutor warns before a play is committed (R23: committed by the opponent's roll) and only while the
board shows it; ratings follow the commit; a slow or failing engine never delays a verdict."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from core.rules.position import Position, Side
from engine.base import EngineUnavailable
from engine.fake import FakeEngine
from kiosk.coach import CoachRefused, CoachService, CoachSettings
from kiosk.service import RefereeService
from tests.kiosk.coach_game import (
    START,
    after,
    board,
    fake_engine,
    loss_of,
    opening,
    play_with_label,
    ranked_opening,
)


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[RefereeService]:
    service = RefereeService(tmp_path / "journal.sqlite")
    yield service
    service.close()


def _coach(referee: RefereeService, engine: FakeEngine | None, tmp_path: Path, **settings: object) -> CoachService:
    factory = (lambda: engine) if engine is not None else None
    settings.setdefault("marks", "gnubg")  # the engine's own marks (these tests name its labels)
    return CoachService(referee, factory, CoachSettings(**settings), data_dir=tmp_path).start()  # type: ignore[arg-type]


@contextmanager
def _coached(referee: RefereeService, engine: FakeEngine | None, tmp_path: Path,
             **settings: object) -> Iterator[CoachService]:
    """A started coach (see _coach), closed when the block ends."""
    coach = _coach(referee, engine, tmp_path, **settings)
    try:
        yield coach
    finally:
        coach.close()


def test_r23_tutor_warns_before_the_commit_and_goes_when_the_checkers_are_put_back(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path, tutor="bad") as coach:
        opening(referee)
        bad = play_with_label("bad")
        referee.submit(board(after(bad)))
        assert coach.idle()
        warning = coach.snapshot()["tutor"]
        assert warning is not None and warning["play"] == bad and warning["label"] == "bad"
        assert warning["best"]["play"] == ranked_opening()[0].play
        # Words first: the size, no number; the numbers apart, for the "números" touch.
        assert warning["message"]["en"] == "Wait! This play is an error: put the checkers back and think again?"
        assert warning["message"]["pt"] == "Espere! Esta jogada é um erro: volte as peças e pense de novo?"
        assert "0" not in warning["message"]["pt"] and f"{warning['loss']:.3f}".replace(".", ",") in warning["numbers"]["pt"]
        assert warning["final"] and warning["plies"] == 2 and coach.snapshot()["wait"] is False  # confirmed deeper
        referee.submit(board(START))  # the checkers put back
        assert coach.idle()
        assert coach.snapshot()["tutor"] is None
        best = ranked_opening()[0].play
        referee.submit(board(after(best)))
        assert coach.idle()
        assert coach.snapshot()["tutor"] is None  # the best play gets no warning


@pytest.mark.parametrize(("setting", "label", "warned"), [
    ("off", "very_bad", False), ("very_bad", "bad", False), ("very_bad", "very_bad", True),
    ("bad", "doubtful", False), ("doubtful", "doubtful", True), ("bad", "very_bad", True),
])
def test_tutor_threshold_settings(referee, tmp_path, setting: str, label: str, warned: bool) -> None:
    with _coached(referee, fake_engine(), tmp_path, tutor=setting) as coach:
        opening(referee)
        referee.submit(board(after(play_with_label(label))))
        assert coach.idle()
        assert (coach.snapshot()["tutor"] is not None) is warned


def test_rating_and_explanation_after_the_commit(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path) as coach:
        opening(referee)
        bad = play_with_label("very_bad")
        referee.submit(board(after(bad)))
        referee.submit({"event": "roll", "dice": [6, 4]})  # dark's roll commits light's play (R23)
        assert coach.idle()
        snap = coach.snapshot()
        assert snap["tutor"] is None
        rating = snap["rating"]
        assert rating["play"] == bad and rating["status"] == "rated" and rating["label"] == "very_bad"
        assert rating["best"] == ranked_opening()[0].play
        assert rating["loss"] == loss_of(bad)
        assert rating["explanation"]["sentences"]["en"] and rating["explanation"]["sentences"]["pt"]
        assert rating["best_board"]["light"] != rating.get("board")
        review = coach.review()
        assert [p["play"] for p in review["plays"]] == [bad]
        summary = review["summary"]["light"]
        assert summary["plays"] == 1 and summary["very_bad"] == 1 and summary["error_rate"] == round(1000 * rating["loss"], 1)
        assert review["summary"]["dark"]["plays"] == 0


class HeldEngine(FakeEngine):
    """An engine that answers only when the test lets it: it shows the referee never waits on it."""

    def __init__(self) -> None:
        super().__init__(thresholds=fake_engine().thresholds())
        self.entered = threading.Event()
        self.release = threading.Event()

    def rank_plays(self, position_id, dice, match_id=None, plies=0, timeout=None):  # type: ignore[no-untyped-def]
        self.entered.set()
        self.release.wait(30)
        return super().rank_plays(position_id, dice, match_id, plies, timeout)


def test_a_slow_engine_delays_no_verdict(referee, tmp_path) -> None:
    engine = HeldEngine()
    coach = _coach(referee, engine, tmp_path, tutor="doubtful", tutor_plies=0)
    try:
        opening(referee)
        verdicts = referee.submit(board(after(play_with_label("very_bad"))))
        # The verdict is back while the engine is still held inside its call.
        assert verdicts[0]["verdict"] == "in_progress" and verdicts[0]["complete"] is True
        assert engine.entered.wait(10) and not engine.release.is_set()
        verdicts = referee.submit({"event": "roll", "dice": [6, 4]})  # and the commit too (R23)
        assert [v["verdict"] for v in verdicts] == ["play", "roll"]
        assert coach.snapshot()["tutor"] is None
        engine.release.set()
        assert coach.idle()
        assert coach.snapshot()["rating"]["status"] == "rated"
        assert coach.snapshot()["tutor"] is None  # the play was committed before the engine answered
    finally:
        engine.release.set()
        coach.close()


def test_a_timeout_falls_back_to_the_live_depth(referee, tmp_path) -> None:
    class SlowDeep(FakeEngine):  # answers at once at 0 plies, in 1 s at 2 plies
        def rank_plays(self, position_id, dice, match_id=None, plies=0, timeout=None):  # type: ignore[no-untyped-def]
            self.delay = 1.0 if plies else 0.0
            return super().rank_plays(position_id, dice, match_id, plies, timeout)

    with _coached(referee, SlowDeep(thresholds=fake_engine().thresholds()), tmp_path, tutor="bad", tutor_plies=2, tutor_budget=0.2) as coach:
        opening(referee)
        referee.submit(board(after(play_with_label("very_bad"))))
        assert coach.idle()
        assert coach.snapshot()["tutor"]["plies"] == 0


def test_a_failing_engine_leaves_plays_unranked(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(fail=True), tmp_path) as coach:
        opening(referee)
        referee.submit(board(after(play_with_label("bad"))))
        referee.submit({"event": "roll", "dice": [6, 4]})
        assert coach.idle()
        snap = coach.snapshot()
        assert snap["tutor"] is None and snap["rating"]["status"] == "unranked"
        assert "told to fail" in snap["engine"]["message"]


def test_without_an_engine_every_legal_play_is_listed_unranked(referee, tmp_path) -> None:
    def missing() -> FakeEngine:
        raise EngineUnavailable("GNU Backgammon is not installed: apt install gnubg")

    coach = CoachService(referee, missing, data_dir=tmp_path).start()
    try:
        opening(referee)
        plays = coach.request_plays()
        assert plays["ranked"] is False and len(plays["plays"]) == 16  # the 16 distinct 3-1 plays
        assert all(p["equity"] is None and p["board"]["light"] for p in plays["plays"])
        assert coach.idle()
        snap = coach.snapshot()
        assert snap["engine"] == {"name": None, "available": False,
                                  "message": "GNU Backgammon is not installed: apt install gnubg"}
        assert snap["plays"]["ranked"] is False
    finally:
        coach.close()


def test_ranked_plays_on_request(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path) as coach:
        with pytest.raises(CoachRefused, match="roll the dice first"):
            coach.request_plays()
        opening(referee)
        coach.request_plays()
        assert coach.idle()
        plays = coach.snapshot()["plays"]
        assert plays["ranked"] is True
        assert [p["play"] for p in plays["plays"]] == [rp.play for rp in ranked_opening()]


def _light_then_dark(referee: RefereeService, dice: tuple[int, int], dark_play: str) -> Position:
    """The opening 3-1 played 8/5 6/5 by light, then dark's `dice` rolled and `dark_play` on the board."""
    opening(referee)
    light = after("8/5 6/5")
    referee.submit(board(light))
    referee.submit({"event": "roll", "dice": list(dice)})
    dark = light.play(dice, dark_play)
    referee.submit(board(dark))
    return dark


def test_cube_advice_after_a_double(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path) as coach:
        _light_then_dark(referee, (6, 4), "24/14")
        referee.submit({"event": "cube", "action": "double", "side": "light"})
        assert coach.idle()
        cube = coach.snapshot()["cube"]
        assert cube["side"] == "light" and cube["stage"] == "offered" and cube["action"] in (
            "no_double", "double_take", "double_pass", "too_good_pass")
        assert cube["message"]["en"] and cube["message"]["pt"]


def test_tournament_mode_refuses_and_shows_nothing(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path, tutor="doubtful") as coach:
        opening(referee, tournament=True)
        referee.submit(board(after(play_with_label("very_bad"))))
        assert coach.idle()
        snap = coach.snapshot()
        assert snap["enabled"] is False and "tutor" not in snap
        for ask in (coach.request_plays, coach.request_cube, coach.review):
            with pytest.raises(CoachRefused, match="tournament mode") as refused:
                ask()
            assert refused.value.status == 403


def test_settings_per_match_survive_a_restart(referee, tmp_path) -> None:
    coach = _coach(referee, fake_engine(), tmp_path)
    opening(referee)
    assert coach.idle()
    coach.update_settings({"tutor": "very_bad", "live_plies": 1})
    coach.close()
    again = _coach(referee, fake_engine(), tmp_path)
    try:
        assert again.settings_for().tutor == "very_bad" and again.settings_for().live_plies == 1
        with pytest.raises(ValueError, match="unknown tutor setting 'sometimes'"):
            again.update_settings({"tutor": "sometimes"})
    finally:
        again.close()


def test_review_reads_back_plays_the_coach_did_not_see(referee, tmp_path) -> None:
    # The kiosk restarted mid-match: the plays before are in the journal only.
    opening(referee)
    light = after("24/21 6/5")
    referee.submit(board(light))
    referee.submit({"event": "roll", "dice": [6, 4]})
    referee.submit(board(light.play((6, 4), "24/14")))
    referee.submit({"event": "roll", "dice": [3, 1]})
    with _coached(referee, fake_engine(), tmp_path) as coach:
        first = coach.review()
        assert [(p["side"], p["dice"]) for p in first["plays"]] == [("light", [3, 1]), ("dark", [6, 4])]
        assert first["plays"][0]["play"] == "24/21 6/5" and first["plays"][1]["play"] in ("24/14", "24/18/14")
        assert first["pending"] == 2
        assert coach.idle()
        review = coach.review()
        made = review["plays"][0]
        assert made["status"] == "rated" and made["best"] == ranked_opening()[0].play
        assert made["loss"] == loss_of("24/21 6/5")
        assert made["match_id"] and made["explanation"]["sentences"]["en"]
        assert review["summary"]["light"]["plays"] == 1 and review["summary"]["dark"]["plays"] == 1
        with pytest.raises(KeyError):
            coach.review("99")


def test_the_tutor_says_when_to_double_before_a_roll(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path, tutor="bad") as coach:
        dark = _light_then_dark(referee, (6, 6), "24/18(2) 13/7(2)")
        referee.submit({"event": "button", "name": "end_turn"})  # light to roll: 163 pips against 143
        assert coach.idle()
        assert coach.snapshot()["cube"] is None  # no double for light: nothing said
        referee.submit({"event": "roll", "dice": [2, 1]})
        referee.submit(board(dark.play((2, 1), "13/11 6/5")))
        referee.submit({"event": "button", "name": "end_turn"})  # dark to roll, 17 pips ahead
        assert coach.idle()
        cube = coach.snapshot()["cube"]
        assert cube["side"] == "dark" and cube["tutor"] is True and cube["action"] == "double_take"
        assert cube["message"]["en"] == "Double, take: it is time to double. The opponent should take."
        assert cube["numbers"]["en"].startswith("Double, take: doubling gains")  # the numbers on request
        referee.submit({"event": "roll", "dice": [4, 3]})
        assert coach.idle()
        assert coach.snapshot()["cube"] is None  # rolled: the advice is gone


def test_a_variant_game_turns_the_coach_off(referee, tmp_path) -> None:
    """GNU Backgammon knows backgammon only: in Plakoto (R30) the coach asks its engine nothing and says why."""
    engine = fake_engine()
    with _coached(referee, engine, tmp_path, tutor="doubtful") as coach:
        referee.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"},
                        "variant": "plakoto"})
        referee.submit({"event": "roll", "dice": [6, 5], "cocked": [False, False]})
        assert coach.idle()
        snap = coach.snapshot()
        assert snap["enabled"] is False and "backgammon only" in snap["message"]["en"]
        assert engine.calls == []
        with pytest.raises(CoachRefused, match="knows backgammon only") as refused:
            coach.request_plays()
        assert refused.value.status == 403


class DeepDisagrees(FakeEngine):
    """At 0 plies the fake engine's ranking; deeper, the play made is the best (the deeper look withdraws the
    warning), answering only when ``release`` is set so a test can look at the board meanwhile."""

    def __init__(self, made: str, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.made = made
        self.release = threading.Event()

    def rank_plays(self, position_id, dice, match_id=None, plies=0, timeout=None):  # type: ignore[no-untyped-def]
        ranked = super().rank_plays(position_id, dice, match_id, plies, timeout)
        if not plies:
            return ranked
        self.release.wait(5)
        mine = next(rp for rp in ranked if rp.play == self.made)
        return [type(mine)(play=mine.play, result=mine.result, equity=1.0, loss=0.0, label=None)] + [
            type(rp)(play=rp.play, result=rp.result, equity=0.0, loss=1.0, label="very_bad")
            for rp in ranked if rp.play != self.made]


def _wait_for(coach: CoachService, check, seconds: float = 5.0) -> dict:  # type: ignore[no-untyped-def]
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        snap = coach.snapshot()
        if check(snap):
            return snap
        time.sleep(0.01)
    raise AssertionError(f"not seen within {seconds} s: {coach.snapshot()}")


@contextmanager
def _deeper_look_held(referee: RefereeService, tmp_path: Path) -> Iterator[tuple[CoachService, DeepDisagrees, str]]:
    """Light's very bad opening play on the board, the tutor's 2-ply look held until `engine.release` is set."""
    bad = play_with_label("very_bad")
    engine = DeepDisagrees(bad, thresholds=fake_engine().thresholds())
    with _coached(referee, engine, tmp_path, tutor="bad", tutor_plies=2, tutor_budget=5.0) as coach:
        try:
            opening(referee)
            referee.submit(board(after(bad)))
            yield coach, engine, bad
        finally:
            engine.release.set()


def test_r23_the_first_verdict_comes_at_0_plies_and_the_deeper_look_withdraws_it(referee, tmp_path) -> None:
    """Issue 24: the tutor warns at once from the fastest look, says "wait" while it looks deeper, and the
    deeper look withdraws the warning (the play made is the best at 2 plies)."""
    with _deeper_look_held(referee, tmp_path) as (coach, engine, bad):
        first = _wait_for(coach, lambda s: s["tutor"] is not None)
        assert first["tutor"]["plies"] == 0 and first["tutor"]["final"] is False
        assert first["wait"] is True and first["tutor_check"]["final"] is False  # still judging: "wait"
        engine.release.set()
        last = _wait_for(coach, lambda s: (s["tutor_check"] or {}).get("final"))
        assert last["tutor"] is None and last["tutor_check"]["withdrawn"] is True and last["wait"] is False
        assert last["tutor_check"]["plies"] == 2


def test_r23_the_roll_during_the_deeper_look_leaves_the_first_verdict(referee, tmp_path) -> None:
    """The opponent rolls while the tutor looks deeper: the play is committed (R23), the deeper answer is
    dropped, nothing is left waiting."""
    with _deeper_look_held(referee, tmp_path) as (coach, engine, bad):
        _wait_for(coach, lambda s: s["tutor"] is not None)
        referee.submit({"event": "roll", "dice": [5, 2]})
        engine.release.set()
        assert coach.idle()
        snap = coach.snapshot()
        assert snap["tutor"] is None and snap["wait"] is False and snap["rating"]["play"] == bad


def test_xg_marks_call_a_play_by_its_size(referee, tmp_path) -> None:
    """The default marks are Galaxy's and XG's: an error above 0.020, a blunder above 0.080."""
    with _coached(referee, fake_engine(), tmp_path, tutor="bad", marks="xg", tutor_plies=0) as coach:
        opening(referee)
        ranked = ranked_opening()
        play = next(rp for rp in ranked if 0.02 < (rp.loss or 0) <= 0.08)
        referee.submit(board(after(play.play)))
        assert coach.idle()
        warning = coach.snapshot()["tutor"]
        assert warning["size"] == "error" and warning["label"] == "bad"
        referee.submit({"event": "roll", "dice": [5, 2]})
        assert coach.idle()
        rating = coach.snapshot()["rating"]
        assert rating["size"] == "error" and rating["headline"]["pt"] == f"{play.play}: um erro."
        assert "," not in rating["headline"]["pt"] and rating["numbers"]["pt"].startswith("perde 0,0")


def test_r23_unless_both_agree_a_warned_play_is_taken_back_after_the_roll_and_the_record_keeps_what_stood(
        referee, tmp_path) -> None:
    """The teaching setting: both players agreed before the match that a mistake may be taken back after the
    roll (R23's "unless both agree"). The warned play is committed by the roll, taken back (the referee's
    undo), played again; the record has only the play that stood."""
    with _coached(referee, fake_engine(), tmp_path, tutor="bad", tutor_plies=0, takeback=True) as coach:
        opening(referee)
        bad = play_with_label("very_bad")
        best = ranked_opening()[0].play
        referee.submit(board(after(bad)))
        assert coach.idle() and coach.snapshot()["tutor"] is not None
        referee.submit({"event": "roll", "dice": [6, 4]})  # dark rolls: the play stands (R23)...
        assert coach.idle()
        assert coach.snapshot()["takeback"] == {"side": "light", "play": bad}
        assert coach.request_takeback()["taken_back"]["play"] == bad  # ...unless both agree
        state = referee.state()
        assert state["phase"] == "moving" and state["turn"] == "light" and state["moves"] == []
        assert coach.snapshot()["takeback"] is None
        referee.submit(board(after(best)))
        referee.submit({"event": "roll", "dice": [6, 4]})
        assert coach.idle()
        assert [m["play"] for m in referee.state()["moves"]] == [best]
        record = referee.export("current", "mat")
        assert f"31: {best}" in record and bad not in record  # the record keeps what stood
        with pytest.raises(CoachRefused) as refused:
            coach.request_takeback()
        assert refused.value.status == 409


def test_no_takeback_without_the_agreement(referee, tmp_path) -> None:
    with _coached(referee, fake_engine(), tmp_path, tutor="bad", tutor_plies=0) as coach:
        opening(referee)
        referee.submit(board(after(play_with_label("very_bad"))))
        assert coach.idle()
        referee.submit({"event": "roll", "dice": [6, 4]})
        assert coach.idle() and coach.snapshot()["takeback"] is None
        with pytest.raises(CoachRefused):
            coach.request_takeback()
        assert referee.state()["turn"] == "dark"


def test_the_coach_switched_off_in_the_kiosk_settings(referee, tmp_path) -> None:
    """The `coach` setting apart from tournament mode: off, the coach says so and refuses (403)."""
    coach = CoachService(referee, lambda: fake_engine(), CoachSettings(), data_dir=tmp_path, enabled=False).start()
    try:
        opening(referee)
        snap = coach.snapshot()
        assert snap["enabled"] is False and "desligado nas configurações" in snap["message"]["pt"]
        with pytest.raises(CoachRefused) as refused:
            coach.request_plays()
        assert refused.value.status == 403 and "coach = false" in refused.value.message
    finally:
        coach.close()


def test_the_reviews_pr_counts_the_cube_decisions_as_xg_does(referee, tmp_path) -> None:
    """Issue 24: the review's PR per player adds every double, take and pass (and the no-doubles XG counts),
    rated in the background from the match's record; PR = 500 x (checker + cube errors) / decisions."""
    with _coached(referee, fake_engine(), tmp_path, tutor="off") as coach:
        opening(referee)
        referee.submit(board(after("8/5 6/5")))
        referee.submit({"event": "button", "name": "end_turn"})
        referee.submit({"event": "cube", "action": "double", "side": "dark"})
        referee.submit({"event": "cube", "action": "take", "side": "light"})
        referee.submit({"event": "roll", "dice": [6, 4]})
        dark = START.play((3, 1), "8/5 6/5").with_turn(Side.DARK)
        referee.submit(board(dark.play((6, 4), "24/14")))
        referee.submit({"event": "roll", "dice": [2, 1]})
        assert coach.idle()
        first = coach.review()
        assert coach.idle(30)
        review = coach.review()
        assert first["cube_pending"] is True and review["cube_pending"] is False
        for side, decided in (("dark", "double"), ("light", "take")):
            s = review["summary"][side]
            assert s["cube_decisions"] >= 1, (side, decided, s)
            assert s["decisions"] == s["plays"] + s["cube_decisions"]
        analysis = coach.reviews.cube[referee.state()["match"]["id"]][1]
        for side in (Side.LIGHT, Side.DARK):
            s, a = review["summary"][side.value], analysis.summary[side]
            assert abs(s["pr"] - 500 * (s["error"] + a.cube_error) / s["decisions"]) <= 0.01
        assert review["game_summary"]["dark"]["cube_decisions"] >= 1


def test_r23_a_new_board_gets_its_first_verdict_while_the_deeper_look_of_the_last_one_runs(referee, tmp_path) -> None:
    """The deeper look has a thread (and an engine) of its own: the player puts the checkers back and plays
    another bad play; its warning comes from the fast look at once, without waiting for the deep one."""
    bad = play_with_label("very_bad")
    other = next(rp.play for rp in ranked_opening() if rp.label == "very_bad" and rp.play != bad)
    engine = DeepDisagrees(bad, thresholds=fake_engine().thresholds())
    coach = _coach(referee, engine, tmp_path, tutor="bad", tutor_plies=2, tutor_budget=5.0)
    try:
        opening(referee)
        referee.submit(board(after(bad)))
        _wait_for(coach, lambda s: (s["tutor"] or {}).get("play") == bad)
        referee.submit(board(START))
        referee.submit(board(after(other)))  # the deep look of the first board is still held
        snap = _wait_for(coach, lambda s: (s["tutor"] or {}).get("play") == other, seconds=3)
        assert snap["tutor"]["plies"] == 0 and not engine.release.is_set()
    finally:
        engine.release.set()
        coach.close()
