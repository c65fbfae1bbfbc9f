"""`gamao director --data-dir DIR tournament create|result|show ... --json` (docs/CONTRACTS.md, "The club's
tournament night"): the contract as real processes, and whole tournaments run by hand-entered results in process.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from cli.main import main as gamao_main
from club.tournament import Journal
from webguard.pin import PinStore

GAMAO = [sys.executable, "-m", "cli"]
PLAYERS16 = ",".join(f"Jogador {i:02d}" for i in range(1, 17))
PLAYERS12 = ",".join(["Ana", "Bruno", "Carla", "Duda", "Eva", "Fábio", "Gil", "Hugo", "Iara", "João", "Kátia",
                      "Lia"])


def gamao(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMAO, *args], capture_output=True, text=True, timeout=120)


def in_process(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    capsys.readouterr()
    code = gamao_main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    lines = out.out.strip().splitlines()
    assert len(lines) == 1  # one JSON object
    return dict(json.loads(lines[0]))


def check_contract(view: dict[str, Any]) -> None:
    assert set(view) >= {"name", "format", "matches", "standings", "champion"}
    for m in view["matches"]:
        assert set(m) >= {"id", "round", "bracket", "light", "dark", "board", "winner", "score"}
        assert m["bracket"] in ("main", "consolation", "last_chance", "final")
        if m["light"] and m["dark"] and m["winner"] is None and m["status"] == "ready":
            assert m["board"] is None
    for row in view["standings"]:
        assert set(row) >= {"player", "wins", "losses"}


def test_the_contract_as_processes(tmp_path: Path) -> None:
    data = str(tmp_path / "dir")
    out = gamao("director", "--data-dir", data, "tournament", "create", "Quinta", "--format", "double_elimination",
                "--players", PLAYERS16, "--length", "5", "--seed", "7", "--json")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    check_contract(view)
    assert view["name"] == "Quinta" and view["format"] == "double_elimination" and view["champion"] is None
    ready = [m for m in view["matches"] if m["light"] and m["dark"] and m["winner"] is None]
    assert len(ready) == 8 and {m["round"] for m in ready} == {1}
    m = ready[0]
    out = gamao("director", "--data-dir", data, "tournament", "result", "Quinta", m["id"], "--winner", m["dark"],
                "--score", "5-3", "--json")
    assert out.returncode == 0, out.stderr
    done = next(x for x in json.loads(out.stdout)["matches"] if x["id"] == m["id"])
    assert done["winner"] == m["dark"] and done["score"] == "3-5"
    shown = json.loads(gamao("director", "--data-dir", data, "tournament", "show", "Quinta", "--json").stdout)
    assert shown["matches"] == json.loads(out.stdout)["matches"]  # another process reads the same journal
    # bad input: one line on stderr, exit 2, nothing changed
    for argv, words in ((["result", "Quinta", "M9-9", "--winner", "x", "--score", "5-1"], "no match"),
                        (["result", "Quinta", ready[1]["id"], "--winner", "Ninguém", "--score", "5-1"], "does not play"),
                        (["result", "Quinta", ready[1]["id"], "--winner", ready[1]["light"], "--score", "5-5"],
                         "cannot be equal"),
                        (["show", "Nope"], "no tournament"),
                        (["create", "Quinta", "--format", "swiss", "--players", "A,B"], "exists already")):
        out = gamao("director", "--data-dir", data, "tournament", *argv, "--json")
        assert out.returncode == 2 and words in out.stderr and out.stdout == "", (argv, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    assert json.loads(gamao("director", "--data-dir", data, "tournament", "show", "Quinta", "--json").stdout) == shown


def test_a_result_by_hand_needs_the_pin_where_one_is_set(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "dir"
    view = in_process(capsys, "director", "--data-dir", str(data), "tournament", "create", "P", "--format",
                      "round_robin", "--players", "Ana,Bruno,Carla,Duda", "--json")
    PinStore(data).set("2468")
    m = view["matches"][0]
    base = ["director", "--data-dir", str(data), "tournament", "result", "P", m["id"], "--winner", m["light"],
            "--score", "3-1", "--json"]
    assert gamao_main(base) == 1 and "PIN is set" in capsys.readouterr().err
    assert gamao_main([*base, "--pin", "1111"]) == 1 and "wrong PIN" in capsys.readouterr().err
    after = in_process(capsys, *base, "--pin", "2468")
    assert next(x for x in after["matches"] if x["id"] == m["id"])["winner"] == m["light"]
    # a correction: logged with what it was
    fixed = in_process(capsys, *base[:-5], "--winner", m["dark"], "--score", "1-3", "--json", "--pin", "2468")
    assert fixed["corrections"][0]["was"]["winner"] == m["light"] and fixed["corrections"][0]["by"] == "director"
    ops = [json.loads(r[0]) for r in sqlite3.connect(data / "tournament.sqlite").execute("SELECT op FROM ops")]
    assert [o["op"] for o in ops] == ["create", "result", "result"] and all(o["at"] > 0 for o in ops)


def run_by_hand(capsys: pytest.CaptureFixture[str], data: Path, name: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    view = in_process(capsys, "director", "--data-dir", str(data), "tournament", "show", name, "--json")
    while True:
        ready = [m for m in view["matches"] if m["light"] and m["dark"] and m["winner"] is None]
        if not ready:
            return view
        m = ready[0]
        winner = rng.choice([m["light"], m["dark"]])
        view = in_process(capsys, "director", "--data-dir", str(data), "tournament", "result", name, m["id"],
                          "--winner", winner, "--score", f"{m['length']}-{rng.randrange(m['length'])}", "--json")
        check_contract(view)


def test_double_elimination_16_and_swiss_12_and_round_robin_8_by_hand(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "dir"
    for name, fmt, players, extra in (("DE16", "double_elimination", PLAYERS16, []),
                                      ("Suíço12", "swiss", PLAYERS12, ["--losses", "3"]),
                                      ("RR8", "round_robin", ",".join(PLAYERS12.split(",")[:8]), ["--length", "3"])):
        in_process(capsys, "director", "--data-dir", str(data), "tournament", "create", name, "--format", fmt,
                   "--players", players, "--seed", "5", *extra, "--json")
        view = run_by_hand(capsys, data, name, seed=3)
        assert view["champion"] is not None and view["standings"][0]["player"] == view["champion"]
        assert all(m["winner"] for m in view["matches"])
        played = len(view["matches"])
        if fmt == "double_elimination":
            assert played in (30, 31)  # 15 main, 14 consolation, 1-2 finals
        elif fmt == "swiss":
            champion_losses = next(r["losses"] for r in view["standings"] if r["player"] == view["champion"])
            assert played == 33 + champion_losses and champion_losses < 3
        else:
            assert played == 28 and view["standings"][0]["wins"] >= 4
    listed = in_process(capsys, "director", "--data-dir", str(data), "tournament", "show", "--json")
    assert listed["tournaments"] == ["DE16", "Suíço12", "RR8"]
    # the night's end: results, the archive of .mat files (none here: every result was typed), ratings, bracket
    out = in_process(capsys, "director", "--data-dir", str(data), "tournament", "export", "DE16",
                     str(tmp_path / "end"), "--json")
    assert sorted(Path(f).name for f in out["files"]) == ["DE16-bracket.svg", "DE16-matches.zip",
                                                          "DE16-ratings.json", "DE16-results.csv",
                                                          "DE16-results.json"]
    with zipfile.ZipFile(tmp_path / "end" / "DE16-matches.zip") as z:
        assert z.namelist() == ["README.txt"] and "no board record" in z.read("README.txt").decode()
    rows = (tmp_path / "end" / "DE16-results.csv").read_text().splitlines()
    assert rows[0] == "id,bracket,round,light,dark,winner,score,board,source" and len(rows) == 1 + len(out["matches"])
    ratings = json.loads((tmp_path / "end" / "DE16-ratings.json").read_text())
    champion = next(r for r in ratings["players"] if r["player"] == out["champion"])
    assert champion["change"] > 0 and all(r["before"] == 1500.0 for r in ratings["players"])


def test_a_match_taken_off_its_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "dir"
    view = in_process(capsys, "director", "--data-dir", str(data), "tournament", "create", "U", "--format",
                      "swiss", "--players", "Ana,Bruno,Carla,Duda", "--json")
    m = view["matches"][0]
    journal = Journal(data)
    journal.apply("U", {"op": "assign", "match": m["id"], "board": "mesa01", "club": "porto", "after": -1})
    journal.close()
    shown = in_process(capsys, "director", "--data-dir", str(data), "tournament", "show", "U", "--json")
    assert next(x for x in shown["matches"] if x["id"] == m["id"])["status"] == "playing"
    back = in_process(capsys, "director", "--data-dir", str(data), "tournament", "unassign", "U", m["id"], "--json")
    assert next(x for x in back["matches"] if x["id"] == m["id"])["status"] == "ready"
    assert gamao_main(["director", "--data-dir", str(data), "tournament", "unassign", "U", m["id"], "--json"]) == 2
    assert "is on no board" in capsys.readouterr().err
