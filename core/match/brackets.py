"""A club's tournament night: backgammon's own formats, as pure bookkeeping (no I/O; docs/tournament-formats.md).

A tournament is the list of what happened to it (operations, plain dicts the director journals one by one):
``create``, then ``enter`` (a late entry), ``withdraw``, ``result`` (a match's winner and score, from a board or
by hand; a second one for the same match is a correction), ``assign`` / ``unassign`` (a ready match to a board)
and ``length`` (shorter matches from a round on, when the night runs late). ``Tournament.replay(ops)`` makes the
same state again from the same list, so a director restarted on its journal goes on exactly where it was.
Who meets whom (each format's brackets and pairings, the sources of a match's slots) is core/match/draw.py's.

Formats (the rules, with their sources, in docs/tournament-formats.md):

- ``double_elimination``: a main (winners') bracket and a consolation (losers') bracket; out after two losses;
  the final is the main's winner against the consolation's, played again if the consolation's winner wins it
  (the Durham/Chapel Hill club's "5/3/3": 5 points in the main, 3 in the consolation and the final).
- ``consolation``: single elimination, and a consolation bracket for the players who lose their first match
  (in round 1, or in round 2 after a bye there).
- ``last_chance``: as ``consolation``, and a last-chance bracket for those who lose their first consolation match.
- ``progressive``: single elimination, and a progressive consolation: losers of the main's round 1 start it;
  losers of each later round before the semi-finals come in at a later consolation round.
- ``swiss``: modified Swiss: each round pairs players with the same record where it can, no rematch where it
  can, the bye to the worst record among those who have had the fewest; out after the N-th loss (``losses``,
  3 by default); the last player left wins.
- ``round_robin``: everyone plays everyone (the circle method; a bye each round for an odd number).

>>> t = Tournament.create("Noite", "round_robin", ["Ana", "Bruno", "Carla"], seed=1)
>>> sorted((m["light"], m["dark"]) for m in t.view()["matches"])[:1]
[('Ana', 'Bruno')]
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import GamaoError
from core.match import draw
from core.match.draw import BYE, MatchDef
from core.match.draw import Resolved as _Res
from core.match.draw import seed_positions as seed_positions  # importable here as before

FORMATS = ("double_elimination", "consolation", "last_chance", "progressive", "swiss", "round_robin")
ELIMINATION = ("double_elimination", "consolation", "last_chance", "progressive")
RULE_SETS = ("casual", "tournament_usbgf", "tournament_ukbgf", "lesson")  # core/referee/rulesets.py's names
BRACKETS = ("main", "consolation", "last_chance", "final")
MAX_PLAYERS = 128
MAX_LENGTH = 25
MAX_SCORE = 999
MAX_OPS = 20_000
NAME_RE = re.compile(r"^[^\W_][\w .'-]{0,29}$")  # letters and digits, then spaces, . ' - _ (no ":" or ",")


class TournamentError(GamaoError, ValueError):
    """What cannot be done to the tournament, said plainly (the director shows it; nothing is changed)."""


def check_name(name: Any) -> str:
    """A player's name as kept: 1-30 letters, digits, spaces and . ' - _ (starting with a letter or digit)."""
    if not isinstance(name, str):
        raise TournamentError(f"a player's name must be text, not {name!r}")
    name = " ".join(name.split())
    if not NAME_RE.match(name):
        raise TournamentError(f"player name {name!r}: 1-30 letters, digits, spaces, '.', \"'\", '-' or '_', "
                              "starting with a letter or digit")
    return name


def parse_score(text: Any) -> tuple[int, int]:
    """``"5-3"`` -> (5, 3)."""
    m = re.fullmatch(r"\s*(\d{1,3})\s*[-x:]\s*(\d{1,3})\s*", str(text))
    if m is None:
        raise TournamentError(f"score {text!r}: write it as A-B, e.g. 5-3")
    a, b = int(m.group(1)), int(m.group(2))
    if a == b:
        raise TournamentError(f"score {text!r}: a match has a winner, the two scores cannot be equal")
    return a, b


@dataclass
class _State:
    name: str = ""
    format: str = "round_robin"
    rule_set: str | None = None
    seed: int = 0
    losses: int = 3
    lengths: dict[str, int] = field(default_factory=dict)
    shorter: list[tuple[str, int, int]] = field(default_factory=list)  # (bracket, from round, length)
    players: list[str] = field(default_factory=list)                   # in draw order (seeds for elimination)
    ratings: dict[str, float] = field(default_factory=dict)
    late: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    seeds: list[str | None] = field(default_factory=list)              # elimination: bracket slots of round 1
    defs: list[MatchDef] = field(default_factory=list)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)   # id -> {"winner", "score", "source", ...}
    boards: dict[str, str] = field(default_factory=dict)               # id -> board (assigned, not finished)
    assigned: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> the assign op's club, after, at
    byes: dict[str, int] = field(default_factory=dict)                 # swiss: byes had
    swiss_byes: list[tuple[int, str]] = field(default_factory=list)    # swiss: (round, player)
    rounds: int = 0                                                     # swiss: rounds paired
    corrections: list[dict[str, Any]] = field(default_factory=list)


def _rng_order(players: Sequence[str], seed: int, ratings: Mapping[str, float]) -> list[str]:
    """The draw: shuffled by the seed, then (stable) by rating, best first; unrated players after the rated."""
    order = list(players)
    random.Random(seed).shuffle(order)
    return sorted(order, key=lambda p: -ratings[p] if p in ratings else float("inf"))


class Tournament:
    """One tournament's state, made from its operations. Every method that changes it returns the operation it
    applied (for the journal) and changes nothing when it raises TournamentError."""

    def __init__(self) -> None:
        self.s = _State()
        self.ops: list[dict[str, Any]] = []
        self._res: dict[str, _Res] = {}

    # ----- making one ---------------------------------------------------------------------------------------
    @classmethod
    def create(cls, name: str, fmt: str, players: Iterable[str], *, length: int | None = None, seed: int = 0,
               losses: int = 3, ratings: Mapping[str, float] | None = None, rule_set: str | None = None) -> Tournament:
        t = cls()
        t.apply({"op": "create", "name": name, "format": fmt, "players": list(players), "length": length,
                 "seed": seed, "losses": losses, "ratings": dict(ratings or {}), "rule_set": rule_set})
        return t

    @classmethod
    def replay(cls, ops: Iterable[Mapping[str, Any]]) -> Tournament:
        t = cls()
        for op in ops:
            t.apply(dict(op))
        return t

    def apply(self, op: dict[str, Any]) -> dict[str, Any]:
        """Apply one operation (validated); the state is unchanged when it raises TournamentError."""
        if not isinstance(op, dict) or not isinstance(op.get("op"), str):
            raise TournamentError("an operation is an object with an \"op\"")
        kind = op["op"]
        handler = getattr(self, f"_op_{kind}", None)
        if handler is None:
            raise TournamentError(f"unknown operation {kind!r}")
        if (kind == "create") != (not self.ops):
            raise TournamentError("a tournament is created once, first")
        if len(self.ops) >= MAX_OPS:
            raise TournamentError(f"a tournament holds at most {MAX_OPS} operations")
        saved = copy.deepcopy(self.s)
        before = {k: (r.light, r.dark, r.winner) for k, r in self._res.items()}
        try:
            handler(op)
            self._resolve()
            self._progress()
            self._check_kept(before, kind)
        except TournamentError:
            self.s = saved
            self._resolve()
            raise
        except (KeyError, TypeError, ValueError) as exc:
            self.s = saved
            self._resolve()
            raise TournamentError(f"operation {kind!r}: {exc}") from None
        self.ops.append(op)
        return op

    def _check_kept(self, before: dict[str, tuple[Any, Any, Any]], kind: str) -> None:
        """Nothing already played or on a board may change its players (a late entry or a correction that would
        rewrite the bracket behind play is refused)."""
        for mid, (light, dark, _winner) in before.items():
            r = self._res.get(mid)
            if r is None:
                continue
            started = mid in self.s.results or mid in self.s.boards
            if started and (r.light, r.dark) != (light, dark):
                raise TournamentError(f"that would change the players of match {mid}, already "
                                      f"{'played' if mid in self.s.results else 'on a board'}")

    # ----- operations ---------------------------------------------------------------------------------------
    def _op_create(self, op: dict[str, Any]) -> None:
        s = self.s
        s.name = str(op["name"]).strip()
        if not s.name or len(s.name) > 60 or any(ord(c) < 32 for c in s.name):
            raise TournamentError("a tournament's name is 1-60 characters, no control characters")
        fmt = op["format"]
        if fmt not in FORMATS:
            raise TournamentError(f"format {fmt!r}: one of {', '.join(FORMATS)}")
        s.format = fmt
        if op.get("rule_set") not in (None, *RULE_SETS):
            raise TournamentError(f"rule set {op.get('rule_set')!r}: one of {', '.join(RULE_SETS)}")
        s.rule_set = op.get("rule_set")
        seed = op.get("seed") or 0
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TournamentError("the seed is an integer")
        s.seed = seed
        losses = op.get("losses") or 3
        if not isinstance(losses, int) or not 1 <= losses <= 9:
            raise TournamentError("--losses is 1-9 (a modified Swiss's player is out after that many losses)")
        s.losses = losses
        length = op.get("length") or 5
        if not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
            raise TournamentError(f"the match length is 1-{MAX_LENGTH} points")
        short = max(1, length - 2)
        s.lengths = {"main": length, "consolation": short, "last_chance": short, "final": short}
        players = [check_name(p) for p in op["players"]]
        folded = [p.casefold() for p in players]
        if len(set(folded)) != len(folded):
            raise TournamentError("a player is named twice")
        least = 3 if fmt in ELIMINATION else 2
        if not least <= len(players) <= MAX_PLAYERS:
            raise TournamentError(f"{fmt} needs {least}-{MAX_PLAYERS} players, not {len(players)}")
        ratings = op.get("ratings") or {}
        s.ratings = {p: float(ratings[p]) for p in players if isinstance(ratings.get(p), (int, float))}
        s.players = _rng_order(players, seed, s.ratings)
        if fmt in ELIMINATION:
            s.seeds = draw.elimination(s.defs, fmt, s.players)
        elif fmt == "round_robin":
            draw.round_robin(s.defs, s.players)

    def _op_enter(self, op: dict[str, Any]) -> None:
        s = self.s
        name = check_name(op["player"])
        if name.casefold() in (p.casefold() for p in s.players):
            raise TournamentError(f"{name} is in the tournament already")
        if len(s.players) >= MAX_PLAYERS:
            raise TournamentError(f"at most {MAX_PLAYERS} players")
        if isinstance(op.get("rating"), (int, float)):
            s.ratings[name] = float(op["rating"])
        if s.format in ELIMINATION:
            # the late entry takes the bye of the lowest seed who has one, while that bye's next match is not played
            for slot in range(len(s.seeds) - 1, -1, -1):
                if s.seeds[slot] is None and s.seeds[slot ^ 1] is not None:
                    first = next(d for d in s.defs if d.bracket == "main" and d.round == 1 and d.order == slot // 2)
                    nxt = self._next_of(first.id)
                    if nxt is not None and (nxt in s.results or nxt in s.boards):
                        continue
                    s.seeds[slot] = name
                    break
            else:
                raise TournamentError("no bye left to take in round 1 (a late entry takes a bye whose next match "
                                      "has not started)")
        elif s.format == "swiss":
            if s.rounds >= 2:
                raise TournamentError("late entries join a modified Swiss up to round 2 (two rounds are paired)")
        else:
            if s.results or s.boards:
                raise TournamentError("a round robin takes late entries only before its first match starts")
        s.players.append(name)
        s.late.append(name)
        if s.format == "round_robin":
            s.defs = []
            draw.round_robin(s.defs, s.players)

    def _op_withdraw(self, op: dict[str, Any]) -> None:
        name = self._player(op["player"])
        if name in self.s.withdrawn:
            raise TournamentError(f"{name} has withdrawn already")
        for mid, board in self.s.boards.items():
            r = self._res.get(mid)
            if r is not None and name in (r.light, r.dark):
                raise TournamentError(f"{name}'s match {mid} is on board {board}: enter its result or take it off "
                                      "the board first")
        self.s.withdrawn.append(name)

    def _op_result(self, op: dict[str, Any]) -> None:
        s = self.s
        mid = op["match"]
        r = self._res.get(mid)
        if r is None:
            raise TournamentError(f"no match {mid!r} in {s.name}")
        if r.light in (None, BYE) or r.dark in (None, BYE):
            raise TournamentError(f"match {mid} has no two players yet")
        winner = self._side_name(r, op["winner"])
        a, b = parse_score(op["score"]) if op.get("score") is not None else (None, None)
        if a is not None and b is not None:
            if max(a, b) > MAX_SCORE:
                raise TournamentError(f"a score is at most {MAX_SCORE}")
            hi, lo = max(a, b), min(a, b)
            a, b = (hi, lo) if winner == r.light else (lo, hi)  # the winner has the larger number
        score = f"{a}-{b}" if a is not None else None
        entry = {"winner": winner, "score": score, "source": op.get("source", "hand")}
        for key in ("board", "club", "board_match", "at"):
            if op.get(key) is not None:
                entry[key] = op[key]
        old = s.results.get(mid)
        if old is not None:
            for key in ("board", "club", "board_match"):  # a correction keeps where the match was played
                if key in old and key not in entry:
                    entry[key] = old[key]
            if old["winner"] == winner and old["score"] == score:
                raise TournamentError(f"match {mid} has that result already")
            s.corrections.append({"match": mid, "was": {k: old[k] for k in ("winner", "score", "source")},
                                  "now": {"winner": winner, "score": score}, "by": op.get("source", "hand"),
                                  "at": op.get("at")})
            if old["winner"] != winner:
                for d in s.defs:  # the bracket behind it must not have moved on
                    if any(src[1:2] == (mid,) for src in d.slots) and (d.id in s.results or d.id in s.boards):
                        raise TournamentError(f"match {mid}'s players have gone on to {d.id}: correct that one "
                                              "first")
                if s.format == "swiss" and int(mid[1:].split("-")[0]) < s.rounds:
                    raise TournamentError(f"match {mid}'s round is over and the next one is paired: the winner "
                                          "cannot change now (the score can)")
        s.results[mid] = entry
        s.boards.pop(mid, None)

    def _op_assign(self, op: dict[str, Any]) -> None:
        mid, board = op["match"], str(op["board"])
        r = self._res.get(mid)
        if r is None:
            raise TournamentError(f"no match {mid!r}")
        if self._status(mid, r) != "ready":
            raise TournamentError(f"match {mid} is not ready to play ({self._status(mid, r)})")
        busy = [m for m, b in self.s.boards.items() if b == board]
        if busy:
            raise TournamentError(f"board {board} is playing match {busy[0]}")
        playing = {p for m in self.s.boards for p in (self._res[m].light, self._res[m].dark)}
        if {r.light, r.dark} & playing:
            raise TournamentError(f"a player of match {mid} is playing on another board")
        self.s.boards[mid] = board
        self.s.assigned[mid] = {k: op.get(k) for k in ("club", "after", "at")}

    def _op_unassign(self, op: dict[str, Any]) -> None:
        if self.s.boards.pop(op["match"], None) is None:
            raise TournamentError(f"match {op['match']!r} is on no board")

    def _op_length(self, op: dict[str, Any]) -> None:
        bracket, length, start = op["bracket"], op["length"], int(op.get("from_round") or 1)
        if bracket not in self.s.lengths:
            raise TournamentError(f"bracket {bracket!r}: one of {', '.join(self.s.lengths)}")
        if not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
            raise TournamentError(f"the match length is 1-{MAX_LENGTH} points")
        self.s.shorter.append((bracket, start, length))

    # ----- the draw (core/match/draw.py) ----------------------------------------------------------------------
    def _next_of(self, mid: str) -> str | None:
        for d in self.s.defs:
            if d.bracket == "main" and any(src == ("winner", mid) for src in d.slots):
                return d.id
        return None

    # ----- the modified Swiss --------------------------------------------------------------------------------
    def _record(self, name: str) -> tuple[int, int]:
        wins = losses = 0
        for r in self._res.values():
            if r.winner == name:
                wins += 1
            elif r.loser == name and not (r.walkover and name in self.s.withdrawn):
                losses += 1
        return wins, losses

    def _swiss_active(self) -> list[str]:
        return [p for p in self.s.players if p not in self.s.withdrawn and self._record(p)[1] < self.s.losses]

    def _pair_swiss(self) -> None:
        s = self.s
        active = self._swiss_active()
        if len(active) < 2:
            return
        records = {p: self._record(p) for p in active}
        bye, pairs = draw.swiss_round(active, records, {p: i for i, p in enumerate(s.players)}, s.byes, self._met())
        s.rounds += 1
        if bye is not None:
            s.byes[bye] = s.byes.get(bye, 0) + 1
            s.swiss_byes.append((s.rounds, bye))
        for a, b in pairs:
            draw.add(s.defs, "main", s.rounds, ("player", a), ("player", b))

    def _met(self) -> set[frozenset[str]]:
        return {frozenset((r.light, r.dark)) for r in self._res.values() if r.light and r.dark}

    # ----- resolving ------------------------------------------------------------------------------------------
    def _resolve(self) -> None:
        s = self.s
        self._res = {}
        for d in s.defs:
            r = _Res(draw.who(d.slots[0], s.seeds, self._res), draw.who(d.slots[1], s.seeds, self._res))
            self._res[d.id] = r
            a, b = r.light, r.dark
            if a is None or b is None:
                continue
            if a == BYE or b == BYE:
                r.winner = b if a == BYE else a
                r.loser = BYE
                continue
            got = s.results.get(d.id)
            if got is not None:
                r.winner = got["winner"]
                r.loser = b if r.winner == a else a
                continue
            wa, wb = a in s.withdrawn, b in s.withdrawn
            if wa or wb:
                r.walkover = True
                r.winner = BYE if wa and wb else (b if wa else a)
                r.loser = a if wa else b

    def _progress(self) -> None:
        if self.s.format != "swiss":
            return
        while True:
            open_ = [d.id for d in self.s.defs if self._res[d.id].winner is None]
            if open_:
                return
            before = len(self.s.defs)
            rounds = self.s.rounds
            self._pair_swiss()
            self._resolve()
            if len(self.s.defs) == before and self.s.rounds == rounds:
                return
            if len(self.s.defs) == before:  # a round of a bye only (two players cannot be left with one active)
                return

    # ----- reading ----------------------------------------------------------------------------------------
    def _player(self, name: Any) -> str:
        want = str(name).strip().casefold()
        for p in self.s.players:
            if p.casefold() == want:
                return p
        raise TournamentError(f"no player {name!r} in {self.s.name}")

    def _side_name(self, r: _Res, who: Any) -> str:
        if who in ("light", "dark"):
            return str(r.light if who == "light" else r.dark)
        want = str(who).strip().casefold()
        for p in (r.light, r.dark):
            if p is not None and p.casefold() == want:
                return p
        raise TournamentError(f"{who!r} does not play this match ({r.light} x {r.dark})")

    def _status(self, mid: str, r: _Res) -> str:
        if r.light is None or r.dark is None:
            return "waiting"
        if BYE in (r.light, r.dark):
            return "bye"
        if r.walkover and mid not in self.s.results:
            return "walkover"
        if r.winner is not None:
            return "done"
        return "playing" if mid in self.s.boards else "ready"

    def length_of(self, d: MatchDef) -> int:
        length = self.s.lengths.get(d.bracket, self.s.lengths["main"])
        for bracket, start, short in self.s.shorter:
            if bracket == d.bracket and d.round >= start:
                length = short
        return length

    @property
    def name(self) -> str:
        return self.s.name

    @property
    def format(self) -> str:
        return self.s.format

    def match(self, mid: str) -> dict[str, Any]:
        for m in self.view()["matches"]:
            if m["id"] == mid:
                return m
        raise TournamentError(f"no match {mid!r} in {self.s.name}")

    def assignment(self, mid: str) -> dict[str, Any]:
        """Where and since when a match is on a board: board, club, after (the board's last match before), at."""
        if mid not in self.s.boards:
            raise TournamentError(f"match {mid!r} is on no board")
        return {"board": self.s.boards[mid], **self.s.assigned.get(mid, {})}

    def ready(self) -> list[dict[str, Any]]:
        """Matches with both players, no winner and no board, in the order they should be played."""
        ready = [m for m in self.view()["matches"] if m["status"] == "ready"]
        return sorted(ready, key=lambda m: m["round"])  # stable: within a round, the main bracket first

    def champion(self) -> str | None:
        s = self.s
        if s.format == "double_elimination":
            f1, f2 = self._res["F1"], self._res["F2"]
            if f2.light == BYE:
                return _name(f1.winner)
            return _name(f2.winner)
        if s.format in ELIMINATION:
            last = [d for d in s.defs if d.bracket == "main"][-1]
            return _name(self._res[last.id].winner)
        if any(r.winner is None for r in self._res.values()):
            return None
        if s.format == "swiss":
            left = self._swiss_active()
            return left[0] if len(left) == 1 else None
        table = self.standings()
        return table[0]["player"] if table else None

    def bracket_winner(self, bracket: str) -> str | None:
        last = [d for d in self.s.defs if d.bracket == bracket]
        return _name(self._res[last[-1].id].winner) if last else None

    def standings(self) -> list[dict[str, Any]]:
        s = self.s
        rows: dict[str, dict[str, Any]] = {p: {"player": p, "wins": 0, "losses": 0, "points_for": 0, "points_against": 0} for p in s.players}
        for d in s.defs:
            r = self._res[d.id]
            if r.winner in (None, BYE) or r.loser in (None, BYE) or BYE in (r.light, r.dark):
                continue
            rows[r.winner]["wins"] += 1
            if not (r.walkover and r.loser in s.withdrawn and d.id not in s.results):
                rows[r.loser]["losses"] += 1
            score = s.results.get(d.id, {}).get("score")
            if score:
                a, b = (int(x) for x in score.split("-"))
                for side, mine, theirs in ((r.light, a, b), (r.dark, b, a)):
                    rows[str(side)]["points_for"] += mine
                    rows[str(side)]["points_against"] += theirs
        draw = {p: i for i, p in enumerate(s.players)}
        if s.format == "round_robin":
            def h2h(p: str, group: set[str]) -> int:
                return sum(1 for d in s.defs if self._res[d.id].winner == p
                           and {self._res[d.id].light, self._res[d.id].dark} <= group)
            wins: dict[int, set[str]] = {}
            for p, row in rows.items():
                wins.setdefault(int(row["wins"]), set()).add(p)

            def key(p: str) -> tuple[Any, ...]:
                row = rows[p]
                return (-row["wins"], -h2h(p, wins[int(row["wins"])]),
                        -(row["points_for"] - row["points_against"]), -row["points_for"], draw[p])
        else:
            alive = set(self._swiss_active()) if s.format == "swiss" else set()

            def key(p: str) -> tuple[Any, ...]:
                row = rows[p]
                return (p not in alive, -row["wins"], row["losses"], draw[p])
        table = [rows[p] for p in sorted(rows, key=key)]
        champion = self.champion() if s.format != "round_robin" else None
        if champion is not None:
            table.sort(key=lambda row: row["player"] != champion)
        for row in table:
            row["withdrawn"] = row["player"] in s.withdrawn
        return table

    def view(self) -> dict[str, Any]:
        """The tournament as docs/CONTRACTS.md gives it: name, format, matches, standings, champion (and more)."""
        s = self.s
        matches = []
        byes = []
        for d in s.defs:
            r = self._res[d.id]
            status = self._status(d.id, r)
            if status == "bye":
                if _name(r.winner) is not None:
                    byes.append({"round": d.round, "bracket": d.bracket, "player": r.winner})
                continue
            result = s.results.get(d.id, {})
            matches.append({"id": d.id, "round": d.round, "bracket": d.bracket, "light": _name(r.light),
                            "dark": _name(r.dark), "board": s.boards.get(d.id) or result.get("board"),
                            "winner": _name(r.winner), "score": result.get("score"), "length": self.length_of(d),
                            "status": status, "source": result.get("source")})
        byes += [{"round": rnd, "bracket": "main", "player": p} for rnd, p in s.swiss_byes]
        table = self.standings()
        out: dict[str, Any] = {
            "name": s.name, "format": s.format, "matches": matches,
            "standings": [{k: row[k] for k in ("player", "wins", "losses", "withdrawn")} for row in table],
            "champion": self.champion(), "byes": byes, "players": list(s.players), "late": list(s.late),
            "withdrawn": list(s.withdrawn), "lengths": dict(s.lengths), "seed": s.seed, "rule_set": s.rule_set,
            "corrections": list(s.corrections)}
        if s.format == "swiss":
            out["losses"] = s.losses
        if s.format in ("consolation", "last_chance", "progressive"):
            out["winners"] = {b: self.bracket_winner(b) for b in ("main", "consolation", "last_chance")
                              if any(d.bracket == b for d in s.defs)}
        return out


def _name(who: str | None) -> str | None:
    return None if who in (None, BYE) else who
