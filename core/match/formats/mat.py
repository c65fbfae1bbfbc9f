"""Jellyfish / GNU Backgammon ``.mat`` match files: a reader for every dialect and a writer in gnubg's.

The grammar and the dialects (gnubg, Backgammon Galaxy, XG / Backgammon Studio) are described in
../shared/formats/MAT.md. The reader is line oriented like gnubg's: it keeps every action with its line
number and leaves the rules to ``core.match.replay``. Lines it cannot read become problems of kind
``unreadable_line``; only a file without a match line or without any game is refused (MatchFileError).

>>> rec = read_mat(" 1 point match\\n\\n Game 1\\n a : 0   b : 0\\n  1) 31: 8/5 6/5\\n")
>>> rec.length, rec.players[Side.LIGHT], rec.games[0].actions[0].text
(1, 'a', '8/5 6/5')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from core.match.formats import MatchFileError
from core.match.names import mat_name, one_line
from core.match.record import (
    BEAVER,
    DOUBLE,
    DROP,
    MOVE,
    RACCOON,
    RESIGN,
    TAKE,
    Action,
    GameRecord,
    MatchRecord,
    MatchRules,
    Problem,
    StatedResult,
)
from core.rules.position import Side

_MATCH_LINE = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME_LINE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE_LINE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_MOVE_LINE = re.compile(r"^(\s*)(\d+)\)(.*)$")
_GLUED = re.compile(r"\s(\d+)\)\s")
_HEADER = re.compile(r'^\s*[;#]\s*\[\s*([^"\]]+?)\s*"(.*)"\s*\]\s*$')
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_ROLL_BAD = re.compile(r"^(\d+):")
_DOUBLE = re.compile(r"^doubles\s*=>\s*(\d{1,9})$", re.IGNORECASE)
_BEAVER = re.compile(r"^(beavers?|raccoons?)\s*(?:=>\s*(\d{1,9}))?$", re.IGNORECASE)
_WINS = re.compile(r"^wins\s+(\d{1,9})\s+points?(\s+and\s+the\s+match)?\s*$", re.IGNORECASE)
_LOSSES = re.compile(r"^losses\s+(\d{1,9})\s+points?\s*$", re.IGNORECASE)
_QUESTION = re.compile(r"^\?{3,4}$")

# An unnumbered "Wins" indented this far or more belongs to the right column (gnubg writes 34 spaces).
_RIGHT_INDENT = 15


def _split_cells(line: str, start: int) -> tuple[str, str]:
    """Split a move line into its left and right cells with gnubg's rule (see MAT.md §2)."""
    rest = line[start:]
    first = rest.find(":")
    second = rest.find(":", first + 1) if first >= 0 else -1
    if second >= 0:
        cut = start + second - 2
    elif len(line) > 15:
        cut = line.find("  ", max(15, start))
        if cut < 0:
            cut = len(line)
    else:
        cut = len(line)
    left, right = line[start:cut].strip(), line[cut:].strip()
    # A cell filled to its full width can leave one space before a cube word of the other column.
    m = re.search(r"\s(Doubles\s*=>|Takes$|Drops$|Beavers|Raccoons|Wins\s|Losses\s)", left)
    if m and not right:
        left, right = left[: m.start()].strip(), left[m.start() :].strip()
    return left, right


class _Reader:
    """Reads line by line; ``stream()`` yields each game as soon as the next begins (or the file ends)."""

    def __init__(self, lines: Iterable[str], keep_games: bool = True) -> None:
        self.lines = lines
        self.keep_games = keep_games
        self.count = 0  # lines read so far
        self.games_seen = 0
        self.done: GameRecord | None = None  # a game just completed by the next "Game" line
        self.record: MatchRecord | None = None
        self.game: GameRecord | None = None
        self.game_over_line: int | None = None
        self.problems: list[Problem] = []
        self.headers: dict[str, str] = {}
        self.comments: list[str] = []

    def problem(self, line: int, kind: str, message: str) -> None:
        number = self.game.number if self.game is not None else 0
        self.problems.append(Problem(line, number, kind, message))

    def read(self) -> MatchRecord:
        for _game in self.stream():
            pass
        assert self.record is not None
        return self.record

    def stream(self) -> Iterator[GameRecord]:
        for index, raw in enumerate(self.lines, start=1):
            self.count = index
            line = raw.rstrip("\r\n").replace("\t", "    ")
            if index == 1 and line.startswith("\ufeff"):
                line = line[1:]
            if not line.strip():
                continue
            self.read_line(index, line)
            if self.done is not None:
                done, self.done = self.done, None
                yield done
        if self.record is None:
            raise MatchFileError(
                "no match line found: a .mat file starts with a line such as ' 7 point match' "
                "(0 point match for a money session)",
                None,
            )
        if not self.games_seen:
            raise MatchFileError("the file has a match line but no 'Game 1' section", self.count or None)
        self.record.problems = self.problems
        if self.game is not None:
            yield self.game

    def read_line(self, n: int, line: str) -> None:
        stripped = line.strip()
        if self.record is None:
            if stripped[0] in ";#":
                self.header(stripped)
                return
            m = _MATCH_LINE.match(line)
            if not m:
                raise MatchFileError(
                    f"expected the match line (such as ' 7 point match') but found {stripped[:40]!r}", n
                )
            if len(m.group(1)) > 6:
                raise MatchFileError(f"a {len(m.group(1))}-digit match length is not a match", n)
            self.start_match(int(m.group(1)))
            return
        if stripped[0] in ";#":
            if "set pos" in stripped.lower():
                self.problem(n, "unreadable_line", "XG 'Set Pos' lines (a set-up position) are not supported")
            return
        m = _GAME_LINE.match(line)
        if m and len(m.group(1)) <= 9:
            self.start_game(n, int(m.group(1)))
            return
        if self.game is None:
            self.problem(n, "unreadable_line", f"expected 'Game 1' but found {stripped[:40]!r}")
            return
        if self.game.score_line is None:
            self.score_line(n, line)
            return
        m = _MOVE_LINE.match(line)
        if m:
            start = m.end(2) + 1
            glued = _GLUED.search(line, start)
            if glued and not _GLUED.match(line, start - 1):
                # Galaxy sometimes loses a newline: "24) 43: 21/18 18/14   24)  Losses 2 point ... Wins ...".
                cut = glued.start() + 1
                self.move_line(n, line[:cut].rstrip(), start)
                second = " " + line[cut:]
                m2 = _MOVE_LINE.match(second)
                if m2:
                    self.move_line(n, second, m2.end(2) + 1)
                return
            self.move_line(n, line, start)
            return
        indent = len(line) - len(line.lstrip())
        self.cell(n, stripped, Side.DARK if indent >= _RIGHT_INDENT else Side.LIGHT, unnumbered=True)

    def header(self, stripped: str) -> None:
        m = _HEADER.match(stripped)
        if m:
            self.headers[m.group(1)] = m.group(2)
        else:
            self.comments.append(stripped[1:].strip())

    def start_match(self, length: int) -> None:
        h = {k.lower(): v for k, v in self.headers.items()}
        money = length == 0
        variation = h.get("variation", "Backgammon").lower()
        if variation.startswith("hyper"):
            raise MatchFileError(
                f"{h['variation']!r} matches cannot be replayed: only backgammon and nackgammon are supported", None
            )
        # gnubg's own .mat export does not say which money rules were in force: unless a header says, allow
        # beavers and raccoons and accept a result counted with or without Jacoby.
        jacoby = {"on": True, "off": False}.get(h.get("jacoby", "").lower()) if money else False
        beavers = money and h.get("beaver", "on").lower() == "on"
        rules = MatchRules(
            crawford=not money,
            jacoby=jacoby,
            beavers=beavers,
            raccoons=beavers,
            cube_use=h.get("cubelimit", "") != "1",
            variation="nackgammon" if variation.startswith("nack") else "standard",
        )
        date = None
        d = re.match(r"^(\d{4})\.(\d{1,2})\.(\d{1,2})$", h.get("eventdate", ""))
        if d:
            date = f"{int(d.group(1)):04d}-{int(d.group(2)):02d}-{int(d.group(3)):02d}"
        site = h.get("site", "").lower()
        source = "galaxy" if "galaxy" in site else "studio" if "studio" in site else "mat"
        self.record = MatchRecord(
            length=length, rules=rules, headers=dict(self.headers), comments=self.comments, date=date, source=source
        )
        self.record.problems = self.problems  # shared: complete once the games are

    def start_game(self, n: int, number: int) -> None:
        assert self.record is not None
        if self.game is not None:
            self.done = self.game
        self.game = GameRecord(number=number, line=n)
        self.game_over_line = None
        self.pending_beaver = False
        self.games_seen += 1
        if self.keep_games:
            self.record.games.append(self.game)

    def score_line(self, n: int, line: str) -> None:
        assert self.record is not None and self.game is not None
        m = _SCORE_LINE.match(line)
        if not m:
            self.problem(n, "unreadable_line", "expected the score line 'NAME : SCORE    NAME : SCORE'")
            self.game.score_line = n
            return
        self.game.score_line = n
        if len(m.group(2)) > 9 or len(m.group(4)) > 9:
            self.problem(n, "unreadable_line", "a score of more than 9 digits")
            return
        self.game.score = {Side.LIGHT: int(m.group(2)), Side.DARK: int(m.group(4))}
        if self.games_seen == 1:
            self.record.players = {Side.LIGHT: m.group(1), Side.DARK: m.group(3)}

    def move_line(self, n: int, line: str, start: int) -> None:
        left, right = _split_cells(line, start)
        if left:
            self.cell(n, left, Side.LIGHT)
        if right:
            self.cell(n, right, Side.DARK)

    def cell(self, n: int, text: str, side: Side, unnumbered: bool = False) -> None:
        assert self.game is not None
        game = self.game
        last = game.actions[-1] if game.actions else None
        if last is not None and last.kind in (BEAVER, RACCOON) and last.side is not None:
            low = text.lower()
            if not low.startswith(("takes", "drops", "passes", "beaver", "raccoon")):
                # Jellyfish convention: the take of a beaver or raccoon is a blank filler, not written.
                game.actions.append(Action(TAKE, last.side.other, line=last.line, note="implicit take"))
        m = _WINS.match(text)
        if m:
            if game.stated is not None:
                self.problem(n, "unreadable_line", f"a second result line {text!r} in game {game.number}")
                return
            game.stated = StatedResult(side, int(m.group(1)), n, bool(m.group(2)))
            for a in game.actions:
                if a.kind == RESIGN and a.side is None:
                    a.side = side.other
            return
        if game.stated is not None:
            self.problem(n, "action_after_result", f"{text!r} comes after the game's result line")
            return
        m = _LOSSES.match(text)
        if m:
            # Galaxy: the player who resigns writes "Losses N point"; a free-standing line has no column.
            game.actions.append(
                Action(RESIGN, None if unnumbered else side, value=int(m.group(1)), line=n, note="losses")
            )
            return
        if unnumbered:
            self.problem(n, "unreadable_line", f"cannot read {text[:60]!r}: expected a numbered move line or 'Wins'")
            return
        m = _ROLL.match(text)
        if m:
            dice = (int(m.group(1)), int(m.group(2)))
            body = m.group(3).strip()
            low = body.lower()
            if low == "cannot move":
                game.actions.append(Action(MOVE, side, dice, "", line=n, note="cannot move"))
            elif _QUESTION.match(body):
                game.actions.append(Action(MOVE, side, dice, None, line=n, note="rolled then resigned"))
            elif low.startswith("illegal play"):
                game.actions.append(Action(MOVE, side, dice, None, line=n, note="illegal play"))
                self.problem(n, "illegal_play", f"the file marks this play as illegal: {body[:60]!r}")
            else:
                game.actions.append(Action(MOVE, side, dice, body, line=n))
            return
        if _ROLL_BAD.match(text):
            self.problem(n, "unreadable_line", f"{text.split(':')[0]!r} is not a roll of two dice 1-6")
            return
        m = _DOUBLE.match(text)
        if m:
            game.actions.append(Action(DOUBLE, side, value=int(m.group(1)), line=n))
            return
        low = text.lower()
        if low == "takes":
            game.actions.append(Action(TAKE, side, line=n))
            return
        if low in ("drops", "passes"):
            game.actions.append(Action(DROP, side, line=n))
            return
        m = _BEAVER.match(text)
        if m:
            value = int(m.group(2)) if m.group(2) else None
            prev = next((a for a in reversed(game.actions) if a.kind != MOVE), None)
            kind = RACCOON if low.startswith("raccoon") or (prev is not None and prev.kind == BEAVER) else BEAVER
            game.actions.append(Action(kind, side, value=value, line=n))
            return
        if low.startswith("resign"):
            return  # gnubg ignores these too; the Wins line carries the result
        self.problem(n, "unreadable_line", f"cannot read {text[:60]!r}")


MAX_LINE = 1024 * 1024  # bytes; a .mat line is under a hundred


def decode_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """The lines of a match file given as byte lines (the caller reads the file), decoded one at a time
    with the same refusals as ``decode_text``; a line longer than ``MAX_LINE`` bytes is refused too, so
    memory stays bounded whatever the file's size."""
    for number, raw in enumerate(chunks, start=1):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if len(raw) > MAX_LINE:
            raise MatchFileError(f"the line is longer than {MAX_LINE // 1024} KiB: not a match file line", number)
        if b"\x00" in raw:
            raise MatchFileError("this is binary data, not a match text file (it contains a NUL byte)", number)
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MatchFileError(
                f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1} is not UTF-8 text; "
                "save the file as UTF-8 (gnubg, Galaxy and XG all write UTF-8)",
                number,
            ) from None


def read_mat(text: str) -> MatchRecord:
    """Read a .mat file's text (any dialect). Raises MatchFileError when it is not a match file at all."""
    return _Reader(text.splitlines()).read()


class MatStream:
    """A .mat file read as it goes, for files of any size: ``for game, last in stream.games()`` yields each
    game as soon as it is complete (``last`` is True for the final one), and keeps none of them;
    ``stream.record`` is the match (length, players, rules, headers; its ``games`` stay empty) once the
    first game is out, and its ``problems`` (reading problems) are complete once the games are.

    >>> s = MatStream([" 1 point match", "", " Game 1", " a : 0   b : 0", "  1) 31: 8/5 6/5"])
    >>> [(g.number, last) for g, last in s.games()], s.record.players[Side.DARK]
    ([(1, True)], 'b')
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self._reader = _Reader(lines, keep_games=False)

    @property
    def record(self) -> MatchRecord:
        if self._reader.record is None:
            raise MatchFileError("no match line read yet", None)
        return self._reader.record

    @property
    def problems(self) -> list[Problem]:
        return self._reader.problems

    @property
    def lines_read(self) -> int:
        return self._reader.count

    def games(self) -> Iterator[tuple[GameRecord, bool]]:
        pending: GameRecord | None = None
        for game in self._reader.stream():
            if pending is not None:
                yield pending, False
            pending = game
        if pending is not None:
            yield pending, True


# ----------------------------------------------------------------------------------------------------------
# Writer (gnubg's dialect)


def _cell(action: Action) -> str:
    if action.kind == MOVE:
        assert action.dice is not None
        roll = f"{action.dice[0]}{action.dice[1]}:"
        if action.play is not None and action.play:
            return f"{roll} {action.play.text(style='gnubg')}"
        return roll
    if action.kind == DOUBLE:
        return f" Doubles => {action.value}"
    if action.kind == TAKE:
        return " Takes"
    if action.kind == DROP:
        return " Drops"
    if action.kind in (BEAVER, RACCOON):
        return f" Beavers => {action.value}"
    return ""


def write_mat(record: MatchRecord) -> str:
    """Write a replayed record in gnubg's dialect (``export match mat``): plays must be resolved."""
    out: list[str] = []
    for key, value in record.headers.items():
        out.append(f'; [{one_line(key)} "{one_line(value).replace(chr(34), chr(39))}"]')
    if record.date and not any(k.lower() == "eventdate" for k in record.headers):
        out.append(f'; [EventDate "{record.date.replace("-", ".")}"]')
    out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    names = {side: mat_name(name) for side, name in record.players.items()}  # no ':' a reader could split on
    for game in record.games:
        out.append(f" Game {game.number}")
        left = f" {names[Side.LIGHT]} : {game.score[Side.LIGHT]}"
        out.append(f"{left:<31} {names[Side.DARK]} : {game.score[Side.DARK]}")
        rows: list[list[str | None]] = []
        previous = ""
        for action in game.actions:
            if action.side is None or action.kind == RESIGN:
                continue
            blank_take = action.kind == TAKE and previous in (BEAVER, RACCOON)
            previous = action.kind
            if blank_take:
                continue  # Jellyfish convention: the take after a beaver is not written
            text = _cell(action)
            if not text:
                continue
            if action.side == Side.LIGHT:
                rows.append([text, None])
            elif rows and rows[-1][1] is None:
                rows[-1][1] = text
            else:
                rows.append([None, text])
        res = game.result
        wins = ""
        if res is not None:
            wins = f"Wins {res.points} {'point' if res.points == 1 else 'points'}"
            if res.winner == Side.DARK and rows and rows[-1][1] is None:
                # gnubg writes the right player's win in the empty right cell ("  5)  Drops   Wins 1 point"):
                # on a line of its own it would be read as the left player's cell after a left drop.
                rows[-1][1], wins = " " + wins, ""
        for i, (lcell, rcell) in enumerate(rows, start=1):
            # Unstripped, as gnubg writes it: its reader splits a short line differently from a padded one.
            out.append(f"{i:3d}) {lcell or '':<27} {rcell or ''}")
        if wins:
            pad = 6 if res is not None and res.winner == Side.LIGHT else 34
            out.append(" " * pad + wins)
        out.append("")
    return "\n".join(out) + "\n"
