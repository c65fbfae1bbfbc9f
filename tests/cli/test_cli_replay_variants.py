"""`gamao replay` and `gamao demo --mat` on Gamão's variant records (R30-R32), run as real processes: the kiosk's
archive of a finished Plakoto match replays clean (every play checked), a damaged record is one line naming the
line, the play and the rules' reason, with exit 2 and no traceback; --export writes the variant text back and
refuses SGF."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.match.formats.variant import read_variant
from core.referee.selfplay import random_game
from core.rules.variants import PlakotoPosition, RussianPosition
from kiosk.service import RefereeService
from tests.cli_run import gamao
from tests.core.referee.variant_streams import game_events

GAMAO = [sys.executable, "-m", "cli"]
KEYS = ["file", "match_length", "games", "plays", "cube_actions", "final_score", "problems", "variant"]




def archived_match(tmp_path: Path, cls: type, seed: int) -> Path:
    """A one-point match of the variant played through the kiosk's service: the archive's file of it."""
    service = RefereeService(tmp_path / "journal.sqlite", archive=tmp_path / "archive")
    try:
        for ev, _ in game_events(random_game(cls, seed)):
            service.submit({**ev, "length": 1} if ev["event"] == "new_match" else ev)
        assert service.state()["phase"] == "match_over"
    finally:
        service.close()
    (path,) = sorted((tmp_path / "archive").glob("*.mat"))
    return path


@pytest.fixture(scope="module")
def plakoto(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return archived_match(tmp_path_factory.mktemp("plakoto"), PlakotoPosition, 1)


def test_the_archive_of_a_variant_match_replays_clean(plakoto: Path) -> None:
    """R30: the kiosk's own record is read with every play checked, and nothing of it is lost."""
    record = read_variant(plakoto.read_text(encoding="utf-8"))
    plays = sum(len(g.actions) for g in record.games)
    out = gamao("replay", str(plakoto), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data) == KEYS
    assert data["variant"] == "plakoto" and data["games"] == 1 and data["plays"] == plays and data["problems"] == []
    human = gamao("replay", str(plakoto))
    assert human.returncode == 0 and human.stdout.strip().endswith("every play legal, no problems")
    assert human.stdout.startswith(f"{plakoto}: plakoto (R30) 1-point match, 1 game, {plays} plays")


def test_a_russian_archive_with_chains_replays_clean(tmp_path: Path) -> None:
    """R31: the referee's chain links (a double played in full, then its complementary double) replay link by link."""
    path = archived_match(tmp_path, RussianPosition, 3)
    assert " chain\n" in path.read_text(encoding="utf-8")
    out = gamao("replay", str(path))
    assert out.returncode == 0, out.stderr


def test_a_damaged_record_is_one_line_and_exit_2(plakoto: Path, tmp_path: Path) -> None:
    """R30: the first play's dice changed by hand: one line on stderr naming the line, the play and why; exit 2."""
    lines = plakoto.read_text(encoding="utf-8").split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("  1) "))
    side, rest = lines[k][5:].split(" ", 1)
    dice, play = rest.split(": ", 1)
    wrong = "21" if dice not in ("21", "12") else "64"
    lines[k] = f"  1) {side} {wrong}: {play}"
    damaged = tmp_path / "damaged.mat"
    damaged.write_text("\n".join(lines), encoding="utf-8")
    out = gamao("replay", str(damaged))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert out.stderr.startswith(f"gamao replay: {damaged}: line {k + 1}: game 1, play 1 ({side} {wrong}: {play}): "
                                 f"illegal play '{play}' with {wrong} in this plakoto position (R30)")
    as_json = gamao("replay", str(damaged), "--json")
    assert as_json.returncode == 2
    problem = json.loads(as_json.stdout)["problems"][0]
    assert problem["kind"] == "unreadable_file" and problem["line"] == k + 1


def test_export_writes_the_variant_text_and_refuses_sgf(plakoto: Path, tmp_path: Path) -> None:
    out = gamao("replay", str(plakoto), "--export", str(tmp_path / "again.mat"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "again.mat").read_text(encoding="utf-8") == plakoto.read_text(encoding="utf-8")
    sgf = gamao("replay", str(plakoto), "--export", str(tmp_path / "again.sgf"))
    assert sgf.returncode == 2 and not (tmp_path / "again.sgf").exists()
    assert "SGF has no game type for it" in sgf.stderr and sgf.stderr.count("\n") == 1


def test_demo_mat_refuses_a_variant_record(plakoto: Path) -> None:
    """Read as a .mat, a variant record would be played as garbage backgammon: refused in one line, exit 2."""
    out = subprocess.run([*GAMAO, "demo", "--no-browser", "--mat", str(plakoto)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "a Gamão variant record, not a .mat" in out.stderr


def test_the_directors_copy_of_a_variant_match_reads_back(tmp_path: Path) -> None:
    """R31: a club director's .mat of a board's Russian match is the variant text, every play checked on reading
    (it was backgammon's .mat, with entering checkers written as 26/23 that nothing could read back)."""
    from club.director import Director

    director = Director(None, tmp_path)
    try:
        for index, (ev, _) in enumerate(game_events(random_game(RussianPosition, 3))):
            director.archive.add("club", "mesa01", 1, index, ev, None)
        text = director.mat("club", "mesa01", 1)
    finally:
        director.archive.close()
    record = read_variant(text)
    assert record.rules.variation == "russian" and record.games[0].result is not None
