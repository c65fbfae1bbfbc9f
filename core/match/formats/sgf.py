"""GNU Backgammon's SGF (``GM[6]``, as ``save match`` writes it): reader and writer.

One game tree per backgammon game. The root node carries ``MI[length:L][game:i][ws:s0][bs:s1]``, the
players (``PW`` = player 0 = left = ``Side.LIGHT``, ``PB`` = player 1), ``RU`` (Crawford, CrawfordGame,
Jacoby, Nackgammon, NoCube) and ``RE`` (``W+2``, ``B+1R`` with R for a resignation). Each further node is
one action: ``W[62mgxv]`` (dice then letter pairs from/to), ``B[double]``, ``W[take]``, ``B[drop]``;
``PL[W]DI[52]`` sets dice without a play. Letters ``a``..``x`` are points 0..23 counted from player 0's
side, ``y`` the bar and ``z`` off: for player 0 own point = index + 1, for player 1 own point = 24 - index.
Analysis properties (``A``, ``DA``, ``GS``, ``LU``, ``MR``, ``GW``, ``BM``, ...) are read and ignored.

>>> rec = read_sgf("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b];B[41lpab])")
>>> rec.games[0].actions[0].text
'13/9 24/23'
"""

from __future__ import annotations

import re

from core.match.formats import MatchFileError
from core.match.names import one_line
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
    StatedResult,
)
from core.rules.notation import BAR, OFF, Play
from core.rules.position import Side

Node = dict[str, list[str]]
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _parse_trees(text: str) -> list[tuple[list[Node], int]]:
    """The main line of each game tree as a list of nodes, with the line the tree starts on."""
    trees: list[tuple[list[Node], int]] = []
    i, n, line = 0, len(text), 1
    depth = 0
    current: list[Node] | None = None
    node: Node | None = None
    main_done = False  # the main line ended inside a variation: the rest of this tree is off it
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif c == "(":
            depth += 1
            if depth == 1:
                current, node, main_done = [], None, False
                trees.append((current, line))
            i += 1
        elif c == ")":
            if depth == 0:
                raise MatchFileError("unbalanced ')' in SGF", line)
            if depth >= 2:
                main_done = True
            depth -= 1
            i += 1
        elif c == ";":
            if depth == 0:
                raise MatchFileError("SGF node outside a game tree: the file should start with '(;'", line)
            node = {"_line": [str(line)]}
            if not main_done and current is not None:
                current.append(node)
            i += 1
        elif c.isalpha():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            key = text[i:j]
            values: list[str] = []
            i = j
            while True:
                while i < n and text[i] in " \t\r\n":
                    line += text[i] == "\n"
                    i += 1
                if i >= n or text[i] != "[":
                    break
                i += 1
                buf = []
                while i < n and text[i] != "]":
                    if text[i] == "\\" and i + 1 < n:
                        i += 1
                    if text[i] == "\n":
                        line += 1
                    buf.append(text[i])
                    i += 1
                if i >= n:
                    raise MatchFileError(f"property {key} is not closed with ']' (the file is truncated)", line)
                i += 1
                values.append("".join(buf))
            if not values:
                raise MatchFileError(f"property {key} has no value in brackets", line)
            if node is None:
                raise MatchFileError(f"property {key} outside a node", line)
            node.setdefault(key, []).extend(values)
        else:
            raise MatchFileError(f"unexpected character {c!r} in SGF", line)
    if depth != 0:
        raise MatchFileError("the SGF ends inside a game tree: the file is truncated", line)
    return trees


def _point(letter: str, side: Side) -> int:
    k = _LETTERS.index(letter)
    if k == 24:
        return BAR
    if k == 25:
        return OFF
    return k + 1 if side == Side.LIGHT else 24 - k


def _letter(point: int, side: Side) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return _LETTERS[point - 1] if side == Side.LIGHT else _LETTERS[24 - point]


def _move_text(body: str, side: Side, line: int) -> tuple[tuple[int, int], str]:
    if len(body) < 2 or not body[:2].isdigit() or not all(c in "123456" for c in body[:2]):
        raise MatchFileError(f"cannot read the move {body!r}: expected two dice 1-6 then letter pairs", line)
    dice = (int(body[0]), int(body[1]))
    letters = body[2:]
    if len(letters) % 2 or any(c not in _LETTERS for c in letters):
        raise MatchFileError(f"cannot read the move {body!r}: the letters must come in from/to pairs a-z", line)
    moves = [f"{_point(letters[k], side)}/{_point(letters[k + 1], side)}" for k in range(0, len(letters), 2)]
    return dice, " ".join(moves)


def read_sgf(text: str) -> MatchRecord:
    """Read a gnubg SGF match (analysed or not). Raises MatchFileError when it is not such a file."""
    trees = _parse_trees(text.lstrip("\ufeff"))
    if not trees:
        raise MatchFileError("no SGF game tree found: the file should start with '(;FF[4]GM[6]'", 1)
    record: MatchRecord | None = None
    for index, (nodes, tree_line) in enumerate(trees, start=1):
        if not nodes:
            raise MatchFileError("empty game tree", tree_line)
        root = nodes[0]
        if root.get("GM", ["6"])[0] != "6":
            raise MatchFileError(f"GM[{root['GM'][0]}] is not backgammon (GM[6])", tree_line)
        mi: dict[str, str] = {}
        for v in root.get("MI", []):
            key, _, value = v.partition(":")
            mi[key] = value
        try:
            length = int(mi.get("length", "0"))
            number = int(mi.get("game", str(index - 1))) + 1
            score = {Side.LIGHT: int(mi.get("ws", "0")), Side.DARK: int(mi.get("bs", "0"))}
        except ValueError:
            raise MatchFileError(f"cannot read MI{root.get('MI')}: expected numbers", tree_line) from None
        rules_words = [w.lower() for w in root.get("RU", [""])[0].split(":") if w]
        if any(w.startswith("hypergammon") for w in rules_words):
            raise MatchFileError("Hypergammon matches cannot be replayed: only backgammon and nackgammon", tree_line)
        if record is None:
            rules = MatchRules(
                crawford="crawford" in rules_words,
                jacoby="jacoby" in rules_words,
                beavers=length == 0,
                raccoons=length == 0,
                cube_use="nocube" not in rules_words,
                variation="nackgammon" if "nackgammon" in rules_words else "standard",
            )
            date = root.get("DT", [None])[0]
            record = MatchRecord(
                length=length,
                players={Side.LIGHT: root.get("PW", [""])[0], Side.DARK: root.get("PB", [""])[0]},
                rules=rules,
                date=date,
                source="sgf",
            )
            for key in ("PC", "EV", "RO", "GC"):
                if key in root:
                    record.headers[key] = root[key][0]
        game = GameRecord(number=number, score=score, line=tree_line, score_line=tree_line)
        _read_game(game, nodes, tree_line)
        result = root.get("RE", [""])[0]
        m = re.match(r"^([WB])\+(\d+)(R?)", result)
        if m:
            game.stated = StatedResult(Side.LIGHT if m.group(1) == "W" else Side.DARK, int(m.group(2)), tree_line)
        record.games.append(game)
    assert record is not None
    return record


def _read_game(game: GameRecord, nodes: list[Node], line: int) -> None:
    pending: Side | None = None  # side whose offer awaits an answer
    chain = 0  # doubles in the current offer: 1 double, 2 beaver, 3 raccoon
    for number, node in enumerate(nodes[1:], start=1):
        line = int(node["_line"][0])
        for key in ("W", "B"):
            if key not in node:
                continue
            side = Side.LIGHT if key == "W" else Side.DARK
            body = node[key][0].strip()
            low = body.lower()
            if low == "double":
                chain = chain + 1 if pending is not None and pending != side else 1
                kind = {1: DOUBLE, 2: BEAVER}.get(chain, RACCOON)
                game.actions.append(Action(kind, side, line=line, note=f"node {number}"))
                pending = side
            elif low == "take":
                game.actions.append(Action(TAKE, side, line=line, note=f"node {number}"))
                pending, chain = None, 0
            elif low in ("drop", "pass"):
                game.actions.append(Action(DROP, side, line=line, note=f"node {number}"))
                pending, chain = None, 0
            elif low.startswith("resign"):
                game.actions.append(Action(RESIGN, side, line=line, note=f"node {number}"))
            else:
                try:
                    dice, text = _move_text(body, side, line)
                except MatchFileError as exc:
                    raise MatchFileError(f"node {number}: {exc.reason}", line) from None
                last = game.actions[-1] if game.actions else None
                if last is not None and last.note == "dice set" and last.side == side and last.dice == dice:
                    game.actions.pop()  # gnubg's PL/DI node set the dice this move was then played with
                game.actions.append(Action(MOVE, side, dice, text, line=line, note=f"node {number}"))
        if "DI" in node and "W" not in node and "B" not in node:
            side = Side.LIGHT if node.get("PL", ["W"])[0] == "W" else Side.DARK
            di = node["DI"][0]
            if len(di) == 2 and all(c in "123456" for c in di):
                game.actions.append(Action(MOVE, side, (int(di[0]), int(di[1])), None, line=line, note="dice set"))


# ----------------------------------------------------------------------------------------------------------
# Writer


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def play_letters(play: Play | None, side: Side) -> str:
    """gnubg's SGF letters of a play's moves, from and to (a-x the mover's points, y the bar, z off)."""
    if play is None:
        return ""
    return "".join(_letter(m.frm, side) + _letter(m.to, side) for m in play.moves)


def write_sgf(record: MatchRecord, app: str = "Gamao:0.1") -> str:
    """Write a replayed record as gnubg's SGF, one game tree per game (plays must be resolved)."""
    out: list[str] = []
    rules = record.rules
    for i, game in enumerate(record.games):
        ru = []
        if rules.crawford and record.length > 0:
            ru.append("Crawford")
            if game.crawford:
                ru.append("CrawfordGame")
        if rules.jacoby and record.length == 0:
            ru.append("Jacoby")
        if rules.variation == "nackgammon":
            ru.append("Nackgammon")
        if not rules.cube_use:
            ru.append("NoCube")
        root = (
            f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(app)}]"
            f"MI[length:{record.length}][game:{i}][ws:{game.score[Side.LIGHT]}][bs:{game.score[Side.DARK]}]"
            f"PW[{_escape(one_line(record.players[Side.LIGHT]))}]PB[{_escape(one_line(record.players[Side.DARK]))}]"
        )
        if i == 0 and record.date:
            root += f"DT[{_escape(record.date)}]"
        if ru:
            root += f"RU[{':'.join(ru)}]"
        res = game.result
        if res is not None:
            root += f"RE[{'W' if res.winner == Side.LIGHT else 'B'}+{res.points}{'R' if res.how == 'resign' else ''}]"
        lines = [root]
        for a in game.actions:
            if a.side is None:
                continue
            key = "W" if a.side == Side.LIGHT else "B"
            if a.kind == MOVE:
                assert a.dice is not None
                lines.append(f";{key}[{a.dice[0]}{a.dice[1]}{play_letters(a.play, a.side)}]")
            elif a.kind in (DOUBLE, BEAVER, RACCOON):
                lines.append(f";{key}[double]")
            elif a.kind == TAKE:
                lines.append(f";{key}[take]")
            elif a.kind == DROP:
                lines.append(f";{key}[drop]")
        out.append("\n".join(lines) + ")")
    return "\n".join(out) + "\n"
