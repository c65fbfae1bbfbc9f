"""What the referee saw, as a match record (core.match.record) ready for the .mat and SGF writers."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from core.match.formats.variant import CHAIN
from core.match.record import KINDS, MOVE, Action, GameRecord, GameResult, MatchRecord, MatchRules
from core.rules.notation import Play
from core.rules.position import Side
from core.rules.variants import play_from_text


def record_action(a: dict[str, Any], variant: bool = False) -> Action:
    """One action of the referee's game record as a match record's Action."""
    kind = a["kind"]
    if kind not in KINDS:  # the referee's kinds are the record's (core.match.record KINDS)
        raise KeyError(kind)
    side = Side(a["side"])
    if kind == MOVE:
        dice = (a["dice"][0], a["dice"][1])
        text = a.get("play") or ""
        if variant:  # the variant's notation (``in`` for a Russian checker entering); a chain's double link
            return Action(MOVE, side, dice=dice, text=text, play=play_from_text(text) if text else Play(()),
                          note=CHAIN if a.get("chain") else ("illegal, let stand (R23)" if a.get("illegal") else ""))
        note = ("illegal, accepted by the opponent (R23)" if a.get("accepted_by") else
                "illegal, let stand (R23)" if a.get("illegal") else "")
        return Action(MOVE, side, dice=dice, text=text, play=Play.from_text(text) if text else Play(()), note=note)
    return Action(kind, side, value=a.get("value"))


def to_match_record(referee: Any) -> MatchRecord:
    """The games the referee has seen (finished or not) as a MatchRecord; ``source`` is "kiosk"."""
    rules = referee.rules
    cap = rules.get("cube_cap")
    record = MatchRecord(
        length=referee.length,
        players={Side.LIGHT: referee.players["light"], Side.DARK: referee.players["dark"]},
        rules=MatchRules(crawford=bool(rules.get("crawford")) and referee.length > 0, jacoby=bool(rules.get("jacoby")),
                         beavers=bool(rules.get("beavers")), raccoons=bool(rules.get("beavers")),
                         holland=bool(rules.get("holland")), cube_cap=cap if cap and cap > 1 else None,
                         cube_use=cap != 1),
        source="kiosk",
    )
    if rules.get("rule_set"):  # issue 21: the rule set and the clock, as .mat header lines (; [RuleSet "..."])
        record.headers["RuleSet"] = str(rules["rule_set"])
    clock = rules.get("clock")
    if clock:
        bank = f'{clock["per_match"]:g} s a match' if clock.get("per_match") is not None else f'{clock["per_point"]:g} s a point'
        record.headers["Clock"] = f'{bank}, {clock["delay"]:g} s {clock["delay_kind"]} delay'
    name = rules.get("variant")
    if name:  # one of the seeds' variants (R30-R32): exported as Gamão's variant text (core.match.formats.variant)
        record.rules = replace(record.rules, crawford=False, variation=name)
        record.headers["Settings"] = json.dumps(rules.get("variant_settings") or {}, sort_keys=True)
    for g in referee.games:
        if not g["actions"] and g["result"] is None:
            continue  # a game that has not started
        game = GameRecord(number=g["number"], score={Side(k): v for k, v in g["score"].items()},
                          crawford=g["crawford"])
        game.actions = [record_action(a, bool(name)) for a in g["actions"]]
        res = g["result"]
        if res is not None:
            cube = max([1] + [a.get("value", 1) for a in g["actions"] if a["kind"] in ("take", "beaver", "raccoon")
                              and a.get("value")])
            how = res["how"]
            value = {"single": 1, "gammon": 2, "backgammon": 3}.get(how, 1)
            winner = Side(res["winner"]) if res["winner"] else None  # None: a draw (Plakoto, R30)
            game.result = GameResult(winner, res["points"], how, value, cube)
        record.games.append(game)
    return record
