"""The referee's event format: one JSON object per line (docs/CONTRACTS.md).

The same format is the journal on disk, the demo's input and what ``gamao referee`` reads, so it is
checked here once, with errors that name the event index and the field at fault:

>>> parse_event({"event": "roll", "dice": [5, 2]}, 3)["cocked"]
[False, False]
>>> parse_event({"event": "roll", "dice": [5, 9]}, 3)
Traceback (most recent call last):
...
core.referee.events.EventError: event 3: "dice" must be two numbers from 1 to 6, got [5, 9]

Validated events stay plain dicts (normalised: defaults filled in, extra keys kept), because the journal
stores and replays exactly what came in. They are ``CheckedEvent``s, a dict that says it was checked, so
an event is parsed once on its way (the kiosk's service checks it before journaling it; the referee then
takes it as it is):

>>> ev = parse_event({"event": "button", "name": "undo"})
>>> isinstance(ev, CheckedEvent) and ev == {"event": "button", "name": "undo"}
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, Literal, NotRequired, TypedDict

from core.match.names import name_problem
from core.referee.clock import ClockError, ClockSettings
from core.referee.games import settings_json, settings_of, variant_name
from core.referee.json_limits import MAX_LINE as MAX_LINE  # importable here as before
from core.referee.json_limits import JSONRefused, loads
from core.referee.json_limits import bounded_lines as bounded_lines  # importable here as before
from core.referee.rulesets import HINTS, ILLEGAL_PLAY, NEW_RULES, POINT_OUT, RULE_SETS, STEPS, rule_set

Event = dict[str, Any]


# ----- the shapes of the checked events (docs/CONTRACTS.md); a CheckedEvent is one of these at run time ----------
class NewMatchEvent(TypedDict):
    event: Literal["new_match"]
    length: int
    players: dict[str, str]  # {"light": name, "dark": name}
    rules: dict[str, Any]  # RULE_DEFAULTS' keys, and "variant"/"variant_settings" for the seeds' other games
    chouette: NotRequired[dict[str, Any]]  # a chouette's set-up (core.match.chouette.check_setup)
    t: NotRequired[float]  # when it happened, seconds (any origin): the clock's time (issue 21)


class RollEvent(TypedDict):
    event: Literal["roll"]
    dice: list[int]  # two dice, 1-6
    cocked: list[bool]  # two flags (R24)
    seq: NotRequired[int]  # the dice unit's roll number: the same roll sent again is one roll
    t: NotRequired[float]  # when it happened, seconds (any origin): the clock's time (issue 21)


class BoardEvent(TypedDict):
    event: Literal["board"]
    light: list[int]  # 24 counts, physical points 1-24
    dark: list[int]
    bar: dict[str, int]
    off: dict[str, int]
    stable: bool  # False: hands or motion, never ruled on
    uncertainty: NotRequired[dict[str, Any]]  # the camera's probabilities per point
    covered: NotRequired[list[dict[str, Any]]]  # [{"point": 1-24, "by": "object"|"cup"|...}]: unseen points
    pinned: NotRequired[list[dict[str, Any]]]  # Plakoto (R30): [{"point", "side"}]
    waiting: NotRequired[dict[str, int]]  # Russian (R31): checkers not yet entered
    first_roll: NotRequired[dict[str, bool]]
    messenger: NotRequired[dict[str, bool]]  # Jacquet (R32)
    t: NotRequired[float]  # when it happened, seconds (any origin): the clock's time (issue 21)


class CubeEvent(TypedDict):
    event: Literal["cube"]
    action: str  # CUBE_ACTIONS
    side: str  # who acts
    t: NotRequired[float]  # when it happened, seconds (any origin): the clock's time (issue 21)


class ResignEvent(TypedDict):
    event: Literal["resign"]
    side: str
    value: int  # 1 single, 2 gammon, 3 backgammon
    t: NotRequired[float]  # when it happened, seconds (any origin): the clock's time (issue 21)


class ResignReplyEvent(TypedDict):
    event: Literal["resign_reply"]
    accept: bool
    t: NotRequired[float]  # when it happened, seconds (any origin): the clock's time (issue 21)


class ButtonEvent(TypedDict):
    event: Literal["button"]
    name: str  # BUTTONS ("clock": the tournament clock's press, which names its side)
    side: NotRequired[str]
    t: NotRequired[float]


class TickEvent(TypedDict):
    """Time passing and nothing else (issue 21: the kiosk sends one when the clock's warning or flag is due)."""

    event: Literal["tick"]
    t: NotRequired[float]


class IllegalPlayAnswerEvent(TypedDict):
    """The opponent's answer to a flagged illegal play under a tournament rule set (core.referee.rulesets)."""

    event: Literal["illegal_play_answer"]
    side: str  # who answers: the mover's opponent
    answer: str  # ANSWERS: "accept" (it stands) or "correct"
    t: NotRequired[float]


class TouchMoveEvent(TypedDict):
    """The opponent's claim that the mover touched a checker (R19, issue 36; core.referee.conventions)."""

    event: Literal["touch_move"]
    by: str  # who claims: the mover's opponent
    point: int  # 1-24 in the mover's own numbering
    t: NotRequired[float]


class ChouetteEvent(TypedDict):
    """A chouette's action (R26-R29), ruled by core.referee.table.TableReferee."""

    event: Literal["chouette"]
    action: str  # box_double | team_double | answer | consult
    members: NotRequired[list[str]]
    member: NotRequired[str]
    take: NotRequired[bool]
    value: NotRequired[bool]


#: Any checked event, by its ``"event"`` kind.
TypedEvent = (NewMatchEvent | RollEvent | BoardEvent | CubeEvent | ResignEvent | ResignReplyEvent | ButtonEvent
              | TickEvent | IllegalPlayAnswerEvent | TouchMoveEvent | ChouetteEvent)

KINDS = ("new_match", "roll", "board", "cube", "resign", "resign_reply", "button", "tick", "illegal_play_answer",
         "touch_move")
CUBE_ACTIONS = ("double", "take", "drop", "beaver", "raccoon")
BUTTONS = ("end_turn", "undo", "ack_cocked", "double", "take", "drop", "new_game", "clock")
#: Answers to an illegal play flagged in a tournament rule set (core.referee.rulesets).
ANSWERS = ("accept", "correct")
SIDES = ("light", "dark")
MODES = ("casual", "strict")
RULE_DEFAULTS: dict[str, Any] = {
    "crawford": True,
    "jacoby": False,
    "beavers": False,
    "holland": False,
    "cube_cap": None,
    "mode": "casual",
    "tournament": False,
    "premature_roll": "reject",
}
PREMATURE = ("reject", "commit")
#: Rules a match has only when it names a rule set or sets them (core.referee.rulesets, core.referee.clock).
OPTIONAL_RULES = ("rule_set", *NEW_RULES)
#: A match of one of the seeds' variants (R30-R32) names it and its settings (core.referee.games).
VARIANT_KEYS = ("variant", "variant_settings")


class CheckedEvent(dict[str, Any]):
    """An event as ``parse_event`` returns it: checked and normalised. Still a plain dict to JSON and the
    journal; whoever receives one need not check it again (``Referee.feed`` does not)."""

    __slots__ = ()


class EventError(ValueError):
    """An event that does not follow the format; the message names the event index and the field."""

    def __init__(self, index: int | None, message: str) -> None:
        self.index = index
        self.detail = message
        super().__init__(f"event {index}: {message}" if index is not None else message)


def _fail(index: int | None, message: str) -> EventError:
    return EventError(index, message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _side(obj: Event, key: str, index: int | None) -> str:
    value = obj.get(key)
    if value not in SIDES:
        raise _fail(index, f'"{key}" must be "light" or "dark", got {json.dumps(value)}')
    return str(value)


def _counts(obj: Event, key: str, index: int | None) -> list[int]:
    value = obj.get(key)
    if not isinstance(value, list) or len(value) != 24:
        raise _fail(index, f'"{key}" must be a list of 24 checker counts (points 1-24 as light counts them)')
    for i, n in enumerate(value):
        if not _is_int(n) or not 0 <= n <= 15:
            raise _fail(index, f'"{key}"[{i}] (point {i + 1}) must be a count from 0 to 15, got {json.dumps(n)}')
    return list(value)


def _pair(obj: Event, key: str, index: int | None) -> dict[str, int]:
    value = obj.get(key, {"light": 0, "dark": 0})
    if not isinstance(value, dict):
        raise _fail(index, f'"{key}" must be an object like {{"light": 0, "dark": 0}}')
    out = {}
    for side in SIDES:
        n = value.get(side, 0)
        if not _is_int(n) or not 0 <= n <= 15:
            raise _fail(index, f'"{key}.{side}" must be a count from 0 to 15, got {json.dumps(n)}')
        out[side] = n
    return out


def _table(dist: object, field: str, index: int | None) -> dict[int, float]:
    """One {count: probability} table, checked."""
    if dist is None:
        return {}
    if not isinstance(dist, dict):
        raise _fail(index, f"{field} must be an object {{count: probability}}")
    clean: dict[int, float] = {}
    for k, p in dist.items():
        try:
            count = int(k)
        except (TypeError, ValueError):
            raise _fail(index, f"{field} has a count that is not a number: {json.dumps(k)}") from None
        if not 0 <= count <= 15:
            raise _fail(index, f"{field} has a count out of range 0-15: {count}")
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 <= p <= 1.0:
            raise _fail(index, f"{field} probability for {count} must be from 0 to 1, got {json.dumps(p)}")
        clean[count] = float(p)
    return clean


def _uncertainty(obj: Event, index: int | None) -> dict[str, Any] | None:
    value = obj.get("uncertainty")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _fail(index, '"uncertainty" must be an object {"light": [24 x {count: prob}], "dark": [...], '
                           '"bar": {"light": {count: prob}, "dark": {...}}}')
    out: dict[str, Any] = {}
    for side in SIDES:
        points = value.get(side)
        if points is None:
            continue
        if not isinstance(points, list) or len(points) != 24:
            raise _fail(index, f'"uncertainty.{side}" must be a list of 24 objects {{count: probability}}')
        out[side] = [_table(dist, f'"uncertainty.{side}"[{i}] (point {i + 1})', index)
                     for i, dist in enumerate(points)]
    bar = value.get("bar")
    if bar is not None:
        if not isinstance(bar, dict):
            raise _fail(index, '"uncertainty.bar" must be an object {"light": {count: prob}, "dark": {...}}')
        out["bar"] = {side: _table(bar.get(side), f'"uncertainty.bar.{side}"', index) for side in SIDES}
    return out


#: The longest word a board event's ``covered`` gives for what covers a point ("object", "cup", "die", ...).
MAX_COVER_WORD = 32


def _covered(obj: Event, index: int | None) -> list[dict[str, Any]] | None:
    """``"covered"``: the points an object (a dice cup, a die, the cube, a hand...) stands on, which the camera
    cannot see; sorted by point, each point once."""
    value = obj.get("covered")
    if value is None:
        return None
    shape = '{"point": 1-24, "by": "object"}'
    if not isinstance(value, list) or len(value) > 24:
        raise _fail(index, f'"covered" must be a list of at most 24 {shape}')
    seen: dict[int, str] = {}
    for k, item in enumerate(value):
        if (not isinstance(item, dict) or set(item) != {"point", "by"} or not _is_int(item["point"])
                or not 1 <= item["point"] <= 24 or not isinstance(item["by"], str)
                or not 0 < len(item["by"]) <= MAX_COVER_WORD):
            raise _fail(index, f'"covered"[{k}] must be {shape} (a word of 1-{MAX_COVER_WORD} letters), '
                               f'got {json.dumps(item)[:200]}')
        if item["point"] in seen:
            raise _fail(index, f'"covered" names point {item["point"]} twice')
        seen[item["point"]] = item["by"]
    return [{"point": p, "by": seen[p]} for p in sorted(seen)]


def _dice(obj: Event, index: int | None) -> list[int]:
    dice = obj.get("dice")
    if (not isinstance(dice, list) or len(dice) != 2
            or not all(_is_int(d) and 1 <= d <= 6 for d in dice)):
        raise _fail(index, f'"dice" must be two numbers from 1 to 6, got {json.dumps(dice)}')
    return list(dice)


def _rules(obj: Event, index: int | None) -> dict[str, Any]:
    given = obj.get("rules", {})
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise _fail(index, '"rules" must be an object')
    unknown = sorted(set(given) - set(RULE_DEFAULTS) - set(VARIANT_KEYS) - set(OPTIONAL_RULES))
    if unknown:
        raise _fail(index, f'unknown rule "{unknown[0]}" (known: {", ".join((*RULE_DEFAULTS, *OPTIONAL_RULES))})')
    rules = dict(RULE_DEFAULTS)
    name = given.get("rule_set")
    if name is not None:
        if name not in RULE_SETS:
            raise _fail(index, f'"rules.rule_set" must be one of {", ".join(RULE_SETS)}, got {json.dumps(name)}')
        rules.update(rule_set(name))
    rules.update(given)
    _new_rules(rules, index)
    for key in ("crawford", "jacoby", "beavers", "holland", "tournament"):
        if not isinstance(rules[key], bool):
            raise _fail(index, f'"rules.{key}" must be true or false, got {json.dumps(rules[key])}')
    cap = rules["cube_cap"]
    if cap is not None and (not _is_int(cap) or cap < 1):
        raise _fail(index, f'"rules.cube_cap" must be null or a cube value such as 64, got {json.dumps(cap)}')
    if rules["mode"] not in MODES:
        raise _fail(index, f'"rules.mode" must be "casual" or "strict", got {json.dumps(rules["mode"])}')
    if rules["premature_roll"] not in PREMATURE:
        raise _fail(index, f'"rules.premature_roll" must be "reject" or "commit", got {json.dumps(rules["premature_roll"])}')
    return rules


def _new_rules(rules: dict[str, Any], index: int | None) -> None:
    """The rule sets' settings (core.referee.rulesets) and the clock (core.referee.clock), when present."""
    if "illegal_play" in rules and rules["illegal_play"] not in ILLEGAL_PLAY:
        raise _fail(index, f'"rules.illegal_play" must be one of {", ".join(ILLEGAL_PLAY)}, '
                           f'got {json.dumps(rules["illegal_play"])}')
    if "point_out" in rules and rules["point_out"] not in POINT_OUT:
        raise _fail(index, f'"rules.point_out" must be one of {", ".join(POINT_OUT)}, got {json.dumps(rules["point_out"])}')
    for key in ("coach", "touch_move"):
        if key in rules and not isinstance(rules[key], bool):
            raise _fail(index, f'"rules.{key}" must be true or false, got {json.dumps(rules[key])}')
    for key, allowed in (("steps", STEPS), ("forgotten_checker", HINTS), ("bar_first", HINTS)):
        if key in rules and rules[key] not in allowed:
            raise _fail(index, f'"rules.{key}" must be one of {", ".join(allowed)}, got {json.dumps(rules[key])}')
    if "clock" in rules:
        try:
            settings = ClockSettings.parse(rules["clock"])
        except ClockError as exc:
            raise _fail(index, str(exc).replace('"clock', '"rules.clock', 1)) from None
        rules["clock"] = settings.to_json() if settings is not None else None


def _time(obj: Event, index: int | None) -> None:
    """``"t"``: when the event happened, seconds (any origin; the clock counts differences)."""
    t = obj.get("t")
    if t is None:
        return
    if isinstance(t, bool) or not isinstance(t, int | float) or t != t or t in (float("inf"), float("-inf")) or t < 0:
        raise _fail(index, f'"t" must be a time in seconds (a number from 0), got {json.dumps(t)}')


def _variant(obj: Event, ev: Event, index: int | None) -> None:
    """``"variant"`` and ``"variant_settings"`` of a new_match (top level, or in ``rules``): kept in the rules."""
    rules = ev["rules"]
    name = obj.get("variant", rules.get("variant"))
    raw = obj.get("variant_settings", rules.get("variant_settings"))
    rules.pop("variant", None)
    rules.pop("variant_settings", None)
    if name is None:
        if raw is not None:
            raise _fail(index, '"variant_settings" given without "variant"')
        return
    try:
        canonical = variant_name(name)
        settings = settings_of(canonical, raw)
    except ValueError as exc:
        raise _fail(index, str(exc)) from None
    if canonical != "standard":
        rules["variant"] = canonical
        rules["variant_settings"] = settings_json(settings)
        ev["variant"] = canonical
        ev["variant_settings"] = rules["variant_settings"]


def _variant_board(obj: Event, ev: Event, index: int | None) -> None:
    """A variant's board fields, as ``gamao plays --position`` has them: Plakoto's ``pinned`` (the pinned
    checker's point and side), Russian ``waiting`` (not yet entered) and ``first_roll``, Jacquet's
    ``messenger`` (arrived). The referee knows these from the plays; they are checked for shape here."""
    pinned = obj.get("pinned")
    if pinned is not None:
        if not isinstance(pinned, list):
            raise _fail(index, '"pinned" must be a list of {"point": 1-24, "side": "light"|"dark"}')
        for k, pin in enumerate(pinned):
            if (not isinstance(pin, dict) or set(pin) != {"point", "side"} or not _is_int(pin["point"])
                    or not 1 <= pin["point"] <= 24 or pin["side"] not in SIDES):
                raise _fail(index, f'"pinned"[{k}] must be {{"point": 1-24, "side": "light"|"dark"}}, got {json.dumps(pin)}')
    for key, kind in (("waiting", int), ("messenger", bool), ("first_roll", bool)):
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, dict) or set(value) - set(SIDES):
            raise _fail(index, f'"{key}" must be an object like {{"light": ..., "dark": ...}}')
        for side in SIDES:
            v = value.get(side, 0 if kind is int else False)
            ok = (_is_int(v) and 0 <= v <= 15) if kind is int else isinstance(v, bool)
            if not ok:
                want = "a count from 0 to 15" if kind is int else "true or false"
                raise _fail(index, f'"{key}.{side}" must be {want}, got {json.dumps(v)}')
    waiting = obj.get("waiting")
    if waiting:
        for side in SIDES:
            total = sum(ev[side]) + ev["bar"][side] + ev["off"][side] + waiting.get(side, 0)
            if total > 15:
                raise _fail(index, f'{side} has {total} checkers on the board, bar, off and waiting; a side has 15')


def parse_event(obj: object, index: int | None = None) -> CheckedEvent:
    """Check one event and return it normalised (a new dict); EventError names what is wrong."""
    if not isinstance(obj, dict):
        raise _fail(index, f"an event must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("event")
    if kind not in KINDS:
        if kind is None:
            raise _fail(index, f'missing "event" (one of: {", ".join(KINDS)})')
        raise _fail(index, f'unknown event kind {json.dumps(kind)} (known: {", ".join(KINDS)})')
    ev = CheckedEvent(obj)
    _time(obj, index)
    if kind == "new_match":
        length = obj.get("length", 0)
        if not _is_int(length) or length < 0:
            raise _fail(index, f'"length" must be the match length in points (0 = money play), got {json.dumps(length)}')
        players = obj.get("players", {"light": "Light", "dark": "Dark"})
        if not isinstance(players, dict) or not all(isinstance(players.get(s, ""), str) for s in SIDES):
            raise _fail(index, '"players" must be an object {"light": name, "dark": name}')
        ev["length"] = length
        ev["players"] = {s: players.get(s) or s.capitalize() for s in SIDES}
        for side, name in ev["players"].items():  # names go into .mat/SGF lines (core/match/names.py)
            problem = name_problem(name)
            if problem is not None:
                raise _fail(index, f'"players.{side}": {problem}')
        ev["rules"] = _rules(obj, index)
        _variant(obj, ev, index)
    elif kind == "roll":
        ev["dice"] = _dice(obj, index)
        cocked = obj.get("cocked", [False, False])
        if not isinstance(cocked, list) or len(cocked) != 2 or not all(isinstance(c, bool) for c in cocked):
            raise _fail(index, f'"cocked" must be two true/false values, got {json.dumps(cocked)}')
        ev["cocked"] = list(cocked)
    elif kind == "board":
        ev["light"] = _counts(obj, "light", index)
        ev["dark"] = _counts(obj, "dark", index)
        ev["bar"] = _pair(obj, "bar", index)
        ev["off"] = _pair(obj, "off", index)
        stable = obj.get("stable", True)
        if not isinstance(stable, bool):
            raise _fail(index, f'"stable" must be true or false, got {json.dumps(stable)}')
        ev["stable"] = stable
        off_seen = obj.get("off_seen", True)
        if not isinstance(off_seen, bool):
            raise _fail(index, f'"off_seen" must be true or false (false: the borne-off counts were derived, '
                               f'not seen), got {json.dumps(off_seen)}')
        _variant_board(obj, ev, index)
        covered = _covered(obj, index)
        if covered is not None:
            ev["covered"] = covered
        unc = _uncertainty(obj, index)
        if unc is not None:
            ev["uncertainty"] = unc
    elif kind == "cube":
        action = obj.get("action")
        if action not in CUBE_ACTIONS:
            raise _fail(index, f'"action" must be one of {", ".join(CUBE_ACTIONS)}, got {json.dumps(action)}')
        ev["side"] = _side(obj, "side", index)
    elif kind == "resign":
        ev["side"] = _side(obj, "side", index)
        value = obj.get("value", 1)
        if value not in (1, 2, 3):
            raise _fail(index, f'"value" must be 1 (single), 2 (gammon) or 3 (backgammon), got {json.dumps(value)}')
        ev["value"] = value
    elif kind == "resign_reply":
        accept = obj.get("accept")
        if not isinstance(accept, bool):
            raise _fail(index, f'"accept" must be true or false, got {json.dumps(accept)}')
    elif kind == "button":
        name = obj.get("name")
        if name not in BUTTONS:
            raise _fail(index, f'unknown button {json.dumps(name)} (known: {", ".join(BUTTONS)})')
        if "side" in obj or name == "clock":
            ev["side"] = _side(obj, "side", index)
    elif kind == "illegal_play_answer":
        ev["side"] = _side(obj, "side", index)
        if obj.get("answer") not in ANSWERS:
            raise _fail(index, f'"answer" must be "accept" or "correct", got {json.dumps(obj.get("answer"))}')
    elif kind == "touch_move":
        ev["by"] = _side(obj, "by", index)
        point: Any = obj.get("point")
        if not _is_int(point) or not 1 <= point <= 24:
            raise _fail(index, f'"point" must be a point 1-24 in the mover\'s own numbering, got {json.dumps(point)}')
    return ev


def parse_line(line: str, index: int | None = None) -> CheckedEvent:
    """One line of JSON text -> a checked event (EventError for bad JSON or a line beyond the limits of
    core/referee/json_limits.py)."""
    try:
        obj = loads(line)
    except JSONRefused as exc:
        raise _fail(index, str(exc)) from None
    return parse_event(obj, index)


def read_lines(lines: Iterable[str]) -> Iterator[CheckedEvent]:
    """Checked events from JSON lines; blank lines and lines starting with # are skipped but counted.

    The index of an event is its position among the events (0-based), which is what verdicts cite;
    errors also give the 1-based line number so an editor can jump to it.
    """
    index = 0
    for lineno, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield parse_line(text, index)
        except EventError as exc:
            raise EventError(index, f"line {lineno}: {exc.detail}") from None
        index += 1


def dumps(event: Event) -> str:
    """One event as a single JSON line (no newline), keys in a stable order."""
    return json.dumps(event, separators=(", ", ": "), ensure_ascii=False)


def write_lines(events: Iterable[Event]) -> str:
    return "".join(dumps(e) + "\n" for e in events)
