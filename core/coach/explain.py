"""Why the better play is better, in plain words, from the two resulting positions.

``explain_play(before, dice, played, best)`` compares the position after the play made with the position
after the better play (both as results: the Positions after the play, the opponent on roll) and returns
structured claims plus sentences in Brazilian Portuguese and English. Every claim is a fact about one of
the two results that can be checked against the position (tests/core/coach/test_explain.py does, over
random positions): the blots it leaves and the rolls of 36 that hit them, the points made or broken, the
home board points, the longest prime, the anchors, the checkers hit and borne off, race or contact, pips.
Only what differs between the two plays is said. Points are in the mover's numbering, as the notation
writes them.

>>> from core.rules.position import Position
>>> start = Position.start()
>>> played = start.play((3, 1), "24/21 6/5")
>>> best = start.play((3, 1), "8/5 6/5")
>>> why = explain_play(start, (3, 1), played, best)
>>> print(why.sentences["en"][0])
Your play leaves blots on 24, 21 and 5 (36 of 36 rolls hit); the better play leaves no blot.
>>> print(why.sentences["pt"][1])
Sua jogada não fecha nenhuma casa nova; a melhor jogada fecha a casa 5.
>>> why.headline["kind"], why.headline["favours"]
('shots', 'best')

The decisive reason comes first: each pair of claims is weighed (``weigh``: a rough size in equity of what
differs, e.g. a point made by its value, shots by the share of 36 rolls) and given the play it favours
(``favours``). The sentences list the claims that favour the better play, heaviest first, then the others;
``headline`` is the first one. When no counted claim favours the better play, the headline says the
difference is in the long run (what the engine sees further ahead). When the play made looks better on a
count (it leaves fewer shots, say), one more sentence says what the better play gains all the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.coach.features import Features
from core.messages import count
from core.rules.position import Position, Side, check_dice

KINDS = ("hit", "shots", "blot", "made", "broke", "home_board", "prime", "anchor", "off", "contact", "pips",
         "alike")
WHICH = ("played", "best")


@dataclass(frozen=True)
class Claim:
    """One checkable fact about the result of the play made (``which="played"``) or the better play.

    kind        points                          numbers
    hit         opposing blots hit (exactly)    count
    shots       the mover's blots (exactly)     shots: rolls of 36 that hit at least one of them
    blot        one blot                        shots: rolls of 36 that hit it
    made        points made by the play         -
    broke       points broken by the play       -
    home_board  made points in the home board   count
    prime       the longest run of made points  length
    anchor      made points on 19-24            -
    off         -                               count: checkers borne off by the play
    contact     -                               contact: 1 contact, 0 race
    pips        -                               mover, opponent: pip counts after the play
    alike       -                               - (no counted difference)
    """

    kind: str
    which: str
    side: str
    points: tuple[int, ...] = ()
    numbers: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "which": self.which, "side": self.side, "points": list(self.points),
                "numbers": dict(self.numbers)}


@dataclass(frozen=True)
class Explanation:
    claims: list[Claim]
    sentences: dict[str, list[str]]  # "pt" and "en", the same facts in the same order
    # The decisive reason: {"kind", "favours": "best"|"played"|None, "weight", "long_run": bool}
    headline: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"claims": [c.as_json() for c in self.claims], "sentences": {k: list(v) for k, v in self.sentences.items()},
                "headline": dict(self.headline)}


# ----- weighing -----------------------------------------------------------------------------------------
# A point's rough worth when made (mover's numbering): the 5 and 4 points first, then the bar and the 6 and
# the golden anchors; the others less. Rough sizes in normalised equity, only to order the reasons.
POINT_VALUE = {5: 0.12, 4: 0.10, 7: 0.08, 6: 0.08, 3: 0.06, 20: 0.08, 21: 0.06, 18: 0.05, 2: 0.04}


def _value(points: Sequence[int]) -> float:
    return sum(POINT_VALUE.get(p, 0.04) for p in points)


def favours(p: Claim, b: Claim) -> str | None:
    """Which play a pair of claims (the play made's, the better play's) favours: "played", "best" or None."""
    def pick(x: float, y: float, more_is_better: bool = True) -> str | None:
        if x == y:
            return None
        return ("played" if x > y else "best") if more_is_better else ("played" if x < y else "best")

    kind = p.kind
    if kind == "hit":
        return pick(p.numbers["count"], b.numbers["count"])
    if kind == "shots":
        return pick(p.numbers["shots"], b.numbers["shots"], more_is_better=False)
    if kind == "made":
        return pick(_value(p.points), _value(b.points))
    if kind == "broke":
        return pick(_value(p.points), _value(b.points), more_is_better=False)
    if kind == "home_board":
        return pick(p.numbers["count"], b.numbers["count"])
    if kind == "prime":
        return pick(p.numbers["length"], b.numbers["length"])
    if kind == "anchor":
        return pick(len(p.points), len(b.points))
    if kind == "off":
        return pick(p.numbers["count"], b.numbers["count"])
    if kind == "pips":
        return pick(p.numbers["opponent"] - p.numbers["mover"], b.numbers["opponent"] - b.numbers["mover"])
    return None  # contact: a race is good or bad by the pips


def weigh(p: Claim, b: Claim) -> float:
    """A rough size (normalised equity) of the difference a pair of claims describes, to order them."""
    kind = p.kind
    if kind in ("hit", "home_board", "off"):
        per = {"hit": 0.12, "home_board": 0.04, "off": 0.05}[kind]
        return per * abs(p.numbers["count"] - b.numbers["count"])
    if kind == "shots":
        return 0.35 * abs(p.numbers["shots"] - b.numbers["shots"]) / 36
    if kind in ("made", "broke"):
        return abs(_value(p.points) - _value(b.points))
    if kind == "prime":
        return 0.05 * abs(p.numbers["length"] - b.numbers["length"])
    if kind == "anchor":
        return 0.06 * max(1, abs(len(p.points) - len(b.points)))
    if kind == "pips":
        return 0.005 * abs((p.numbers["opponent"] - p.numbers["mover"]) - (b.numbers["opponent"] - b.numbers["mover"]))
    return 0.02


def _gain(c: Claim, other: Claim, lang: str) -> str:
    """What claim ``c`` (about one play) has over ``other``, as a short phrase."""
    pt = lang == "pt"
    kind = c.kind
    if kind == "hit":
        n = c.numbers["count"]
        return (f"captura {n} peça{'s' if n > 1 else ''}" if pt else f"hits {n} checker{'s' if n > 1 else ''}")
    if kind == "shots":
        mine, theirs = c.numbers["shots"], other.numbers["shots"]
        if mine == 0:
            return (f"não deixa nenhum lance que capture, em vez de {theirs} de 36" if pt else
                    f"leaves no hitting roll, instead of {theirs} of 36")
        return (f"deixa só {mine} de 36 lances que capturam, em vez de {theirs}" if pt else
                f"leaves only {mine} of 36 hitting rolls, instead of {theirs}")
    if kind == "made":
        return f"fecha {_points(c.points, 'pt', '')}" if pt else f"makes {_points(c.points, 'en', '')}"
    if kind == "broke":
        what = _points(other.points, lang, "")
        return f"não abre {what}" if pt else f"does not break {what}"
    if kind == "home_board":
        n = c.numbers["count"]
        return (f"fecha {count(n, 'casa', 'casas')} no setor interno, contra {other.numbers['count']}" if pt else
                f"holds {count(n, 'home board point', 'home board points')}, against {other.numbers['count']}")
    if kind == "prime":
        return (f"forma um bloqueio de {c.numbers['length']} casas, contra {other.numbers['length']}" if pt else
                f"builds a prime of {c.numbers['length']}, against {other.numbers['length']}")
    if kind == "anchor":
        return (f"segura uma âncora {_on(c.points, lang)}" if pt else f"holds an anchor {_on(c.points, lang)}")
    if kind == "off":
        n = c.numbers["count"]
        return (f"retira {count(n, 'peça', 'peças')}, contra {other.numbers['count']}" if pt else
                f"bears off {count(n, 'checker', 'checkers')}, against {other.numbers['count']}")
    if kind == "pips":
        lead = c.numbers["opponent"] - c.numbers["mover"]
        # Portuguese counts the race in casas (the page's "Contagem"), never the English "pips" (issue 37).
        return (f"fica {count(lead, 'casa', 'casas')} à frente na corrida" if pt else
                f"leads the race by {count(lead, 'pip', 'pips')}")
    return "muda o tipo de jogo" if pt else "changes the kind of game"


LONG_RUN = {
    "pt": "Nenhuma conta simples mostra a vantagem da melhor jogada: a diferença está no longo prazo, nos lances "
          "seguintes que o motor enxerga.",
    "en": "No simple count shows the better play's edge: the difference is in the long run, in the rolls to come "
          "that the engine sees.",
}


def gain_words(why: Explanation) -> dict[str, str]:
    """What the better play gains, as a short phrase (its decisive reason), or that it gains in the long run."""
    head = why.headline
    if head.get("long_run"):
        return {"pt": "ganha no longo prazo", "en": "wins in the long run"}
    p = next(c for c in why.claims if c.kind == head["kind"] and c.which == "played")
    b = next(c for c in why.claims if c.kind == head["kind"] and c.which == "best")
    return {"pt": _gain(b, p, "pt"), "en": _gain(b, p, "en")}


def _despite(p: Claim, b: Claim, gain: tuple[Claim, Claim] | None, lang: str) -> str:
    """The play made looks better on one count: why the better play is better all the same."""
    looks = _gain(p, b, lang)
    if gain is None:
        return (f"Sua jogada parece melhor numa conta simples ({looks}), mas a melhor ganha no longo prazo: o motor "
                "vê, lances à frente, o que essa conta não mostra." if lang == "pt" else
                f"Your play looks better on one simple count ({looks}), but the better play wins in the long run: "
                "the engine sees, rolls ahead, what that count does not show.")
    wins = _gain(gain[1], gain[0], lang)
    safer = p.kind in ("shots", "broke", "anchor")
    if lang == "pt":
        return f"Sua jogada parece {'mais segura' if safer else 'melhor num ponto'} ({looks}), mas a melhor vale mais porque {wins}."
    return f"Your play looks {'safer' if safer else 'better on one count'} ({looks}), but the better play is worth more because it {wins}."


def hits(before: Position, after: Position, mover: Side) -> tuple[int, ...]:
    """Points (mover's numbering) where the play hit a blot: one opposing checker before, none after."""
    b, a = before.own(mover.other), after.own(mover.other)
    return tuple(p for p in range(24, 0, -1) if b[25 - p] == 1 and a[25 - p] == 0)


# ----- words ---------------------------------------------------------------------------------------------
def _join(items: Sequence[object], lang: str) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {'e' if lang == 'pt' else 'and'} {words[-1]}"


def _points(points: Sequence[int], lang: str, none: str) -> str:
    if not points:
        return none
    if lang == "pt":
        return f"a casa {points[0]}" if len(points) == 1 else f"as casas {_join(points, lang)}"
    return f"the {points[0]} point" if len(points) == 1 else f"points {_join(points, lang)}"


def _on(points: Sequence[int], lang: str) -> str:
    if lang == "pt":
        return f"na casa {points[0]}" if len(points) == 1 else f"nas casas {_join(points, lang)}"
    return f"on {_join(points, lang)}"


def _list(points: Sequence[int], lang: str) -> str:
    return f" ({_join(points, lang)})" if points else ""


def _run(points: Sequence[int], lang: str) -> str:
    if not points:
        return "—"
    return f"{points[0]}-{points[-1]}" if len(points) > 1 else str(points[0])


def _hit_text(c: Claim, lang: str) -> str | None:
    n = c.numbers["count"]
    if n == 0:
        return None
    return f"{n} {'peça' if lang == 'pt' else 'checker'}{'s' if n > 1 else ''} {_on(c.points, lang)}"


def _shots_text(c: Claim, lang: str) -> str | None:
    s = c.numbers["shots"]
    if not c.points:
        return None
    if lang == "pt":
        what = (f"uma peça sozinha {_on(c.points, lang)}" if len(c.points) == 1
                else f"peças sozinhas {_on(c.points, lang)}")
        return f"{what} ({s} dos 36 lances a{'s' if len(c.points) > 1 else ''} capturam)"
    what = f"a blot {_on(c.points, lang)}" if len(c.points) == 1 else f"blots {_on(c.points, lang)}"
    return f"{what} ({s} of 36 rolls hit)"


# kind -> (Portuguese verb, its object when there is nothing, English verb, its object when nothing)
VERBS = {
    "hit": ("captura", "nenhuma peça", "hits", "nothing"),
    "shots": ("deixa", "nenhuma peça sozinha", "leaves", "no blot"),
    "made": ("fecha", "nenhuma casa nova", "makes", "no new point"),
    "broke": ("abre", "nenhuma casa", "breaks", "no point"),
}


def _both(kind: str, p: Claim, b: Claim, lang: str) -> str:
    """"Your play <verb> <what>; the better play <verb> <what>.", with "não <verb> nenhuma ..." in Portuguese."""
    verb_pt, none_pt, verb_en, none_en = VERBS[kind]
    parts = []
    for c in (p, b):
        if kind == "hit":
            what = _hit_text(c, lang)
        elif kind == "shots":
            what = _shots_text(c, lang)
        else:
            what = _points(c.points, lang, "") or None
        if lang == "pt":
            parts.append(f"{verb_pt} {what}" if what else f"não {verb_pt} {none_pt}")
        else:
            parts.append(f"{verb_en} {what or none_en}")
    if lang == "pt":
        return f"Sua jogada {parts[0]}; a melhor jogada {parts[1]}."
    return f"Your play {parts[0]}; the better play {parts[1]}."


def _sentence(kind: str, p: Claim, b: Claim, lang: str) -> str:
    pt = lang == "pt"
    if kind in VERBS:
        return _both(kind, p, b, lang)
    if kind == "home_board":
        return (f"Casas fechadas no setor interno: {p.numbers['count']}{_list(p.points, lang)} com a sua jogada, "
                f"{b.numbers['count']}{_list(b.points, lang)} com a melhor."
                if pt else
                f"Home board points made: {p.numbers['count']}{_list(p.points, lang)} after your play, "
                f"{b.numbers['count']}{_list(b.points, lang)} after the better play.")
    if kind == "prime":
        return (f"Maior bloqueio (casas fechadas seguidas): {p.numbers['length']} ({_run(p.points, lang)}) com a sua "
                f"jogada, {b.numbers['length']} ({_run(b.points, lang)}) com a melhor." if pt else
                f"Longest prime (made points in a row): {p.numbers['length']} ({_run(p.points, lang)}) after your play, "
                f"{b.numbers['length']} ({_run(b.points, lang)}) after the better play.")
    if kind == "anchor":
        none = "nenhuma" if pt else "none"
        ps = _join(p.points, lang) or none
        bs = _join(b.points, lang) or none
        return (f"Âncoras (casas fechadas no setor interno do adversário): {ps} com a sua jogada, {bs} com a melhor."
                if pt else
                f"Anchors (points held in the opponent's home board): {ps} after your play, {bs} after the better play.")
    if kind == "off":
        return (f"Peças retiradas: {p.numbers['count']} com a sua jogada, {b.numbers['count']} com a melhor." if pt else
                f"Checkers borne off: {p.numbers['count']} by your play, {b.numbers['count']} by the better play.")
    if kind == "contact":
        def state(c: Claim) -> str:
            if pt:
                return "ainda há contato" if c.numbers["contact"] else "o jogo vira uma corrida"
            return "the checkers are still in contact" if c.numbers["contact"] else "the game becomes a race"
        return (f"Depois da sua jogada {state(p)}; depois da melhor, {state(b)}." if pt else
                f"After your play {state(p)}; after the better play {state(b)}.")
    if kind == "pips":
        return (f"Pips depois da sua jogada: você {p.numbers['mover']}, o adversário {p.numbers['opponent']}; "
                f"depois da melhor: você {b.numbers['mover']}, o adversário {b.numbers['opponent']}." if pt else
                f"Pip count after your play: you {p.numbers['mover']}, the opponent {p.numbers['opponent']}; after the "
                f"better play: you {b.numbers['mover']}, the opponent {b.numbers['opponent']}.")
    raise ValueError(f"no sentence for claim kind {kind!r}")


ALIKE = {
    "pt": "Pelas contas simples (peças sozinhas, casas, bloqueios, pips) as duas jogadas se parecem; a diferença "
          "está em detalhes da posição.",
    "en": "By the simple counts (blots, points, primes, pips) the two plays look alike; the difference is in "
          "finer details of the position.",
}


# ----- the comparison ------------------------------------------------------------------------------------
def _pair(kind: str, side: str, p: tuple[tuple[int, ...], dict[str, int]],
          b: tuple[tuple[int, ...], dict[str, int]]) -> tuple[Claim, Claim]:
    return (Claim(kind, "played", side, p[0], p[1]), Claim(kind, "best", side, b[0], b[1]))


def explain_play(before: Position, dice: Sequence[int], played: Position, best: Position) -> Explanation:
    """Compare the result of the play made with the result of the better play, for the side on roll in
    ``before``. ``played`` and ``best`` are the positions after each play (either side on roll)."""
    check_dice(dice)
    mover = before.turn
    side = mover.value
    start = Features(before, mover)
    fp, fb = Features(played, mover), Features(best, mover)
    pairs: list[tuple[Claim, Claim]] = []

    hp, hb = hits(before, played, mover), hits(before, best, mover)
    if hp != hb:
        pairs.append(_pair("hit", side, (hp, {"count": len(hp)}), (hb, {"count": len(hb)})))
    if (fp.contact or fb.contact) and (fp.blots, fp.shots[0]) != (fb.blots, fb.shots[0]):
        pairs.append(_pair("shots", side, (fp.blots, {"shots": fp.shots[0]}), (fb.blots, {"shots": fb.shots[0]})))
    made_p = tuple(sorted(fp.made - start.made, reverse=True))
    made_b = tuple(sorted(fb.made - start.made, reverse=True))
    if made_p != made_b:
        pairs.append(_pair("made", side, (made_p, {}), (made_b, {})))
    broke_p = tuple(sorted(start.made - fp.made, reverse=True))
    broke_b = tuple(sorted(start.made - fb.made, reverse=True))
    if broke_p != broke_b:
        pairs.append(_pair("broke", side, (broke_p, {}), (broke_b, {})))
    if len(fp.home_points) != len(fb.home_points):
        pairs.append(_pair("home_board", side, (fp.home_points, {"count": len(fp.home_points)}),
                           (fb.home_points, {"count": len(fb.home_points)})))
    if len(fp.prime) != len(fb.prime) and max(len(fp.prime), len(fb.prime)) >= 3:
        pairs.append(_pair("prime", side, (fp.prime, {"length": len(fp.prime)}), (fb.prime, {"length": len(fb.prime)})))
    if fp.anchors != fb.anchors:
        pairs.append(_pair("anchor", side, (fp.anchors, {}), (fb.anchors, {})))
    off_p, off_b = fp.off - start.off, fb.off - start.off
    if off_p != off_b:
        pairs.append(_pair("off", side, ((), {"count": off_p}), ((), {"count": off_b})))
    if fp.contact != fb.contact:
        pairs.append(_pair("contact", side, ((), {"contact": int(fp.contact)}), ((), {"contact": int(fb.contact)})))
    if (fp.pips, fp.opp_pips) != (fb.pips, fb.opp_pips):
        pairs.append(_pair("pips", side, ((), {"mover": fp.pips, "opponent": fp.opp_pips}),
                           ((), {"mover": fb.pips, "opponent": fb.opp_pips})))

    # The decisive reason first: what favours the better play, heaviest first; then the rest.
    rank = {"best": 0, None: 1, "played": 2}
    pairs.sort(key=lambda pb: (rank[favours(*pb)], -weigh(*pb)))
    claims: list[Claim] = []
    sentences: dict[str, list[str]] = {"pt": [], "en": []}
    for p, b in pairs:
        claims += [p, b]
        for lang in sentences:
            sentences[lang].append(_sentence(p.kind, p, b, lang))
    headline: dict[str, Any] = {"kind": "alike", "favours": None, "weight": 0.0, "long_run": True}
    gain = pairs[0] if pairs and favours(*pairs[0]) == "best" else None
    if gain is not None:
        headline = {"kind": gain[0].kind, "favours": "best", "weight": round(weigh(*gain), 4), "long_run": False}
    elif pairs:
        headline = {"kind": "long_run", "favours": None, "weight": 0.0, "long_run": True}
        for lang in sentences:
            sentences[lang].insert(0, LONG_RUN[lang])
    against = [pb for pb in pairs if favours(*pb) == "played"]
    if against:
        worst = max(against, key=lambda pb: weigh(*pb))
        for lang in sentences:
            sentences[lang].insert(1, _despite(worst[0], worst[1], gain, lang))
    for c in [c for c in claims if c.kind == "shots"]:
        per_blot = (fp if c.which == "played" else fb).shots[1]
        claims += [Claim("blot", c.which, side, (point,), {"shots": per_blot[point]}) for point in c.points]
    if not pairs:
        claims.append(Claim("alike", "played", side))
        for lang in sentences:
            sentences[lang].append(ALIKE[lang])
    return Explanation(claims, sentences, headline)
