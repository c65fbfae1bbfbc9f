"""Reason codes -> plain sentences in Brazilian Portuguese and English.

Every ``illegal`` or ``unplayed_die`` verdict carries a reason code and ``message(code, ...)``: what is
wrong and how to put it right, with the dice and points filled in.

Which Portuguese, and which words. "Gamão" is played mostly in Brazil, and the rule texts in
shared/seeds are Brazilian, so the Portuguese is Brazilian (pt-BR), in the seeds' own words:
*peça* (checker), *casa* (point), *setor interno* (home board; not "casa interior" or "tabuleiro
interior"), *barra* (the bar: the seeds say "barra" most, and "linha bar"), *retirar* (bear off), *fora*
(borne off: a play to the tray is written "6/fora", from the bar "barra/23", ``pt_play``), *dobradinha* (doubles),
*cubo* (the doubling cube), *capturar* (hit); *claras/escuras* for light/dark. Brazilian forms, not
European ones: gerund ("estão jogando", not "estão a jogar"), "precisa"/"têm que" (not "tem de"),
"apertar" a button (not "carregar em"), "câmera", "tela", "Controle", "placar", "dígitos". A test
(tests/kiosk/test_ptbr.py) keeps European-only forms out of every pt-BR text.

>>> message("closed_point", point=5)["en"]
'Point 5 is closed (two or more opposing checkers): no checker may stop there, not even on the way. Take the checker back and play it to an open point.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

SIDE_PT = {"light": "claras", "dark": "escuras"}
SIDE_EN = {"light": "light", "dark": "dark"}

# code -> (Portuguese, English). Placeholders: {dice} "6-5", {die}, {point}, {move}, {example},
# {side}/{other}/{owner} (translated), {n}, {cap}, {count}.
TEMPLATES: dict[str, tuple[str, str]] = {
    "wrong_distance": (
        "A peça {move} andou {count_pt}, mas os dados são {dice}. Cada dado move uma peça exatamente "
        "esse número de casas: volte a peça e jogue {dice_pt}.",
        "The checker {move} moved {count_en}, but the dice are {dice}. Each die moves a checker exactly "
        "that many points: take it back and play {dice_en}.",
    ),
    "wrong_direction": (
        "A peça {move} andou para trás. As peças só andam para a frente, em direção ao seu setor interno: "
        "volte a peça para o lugar e jogue {dice_pt}.",
        "The checker {move} moved backwards. Checkers only move forwards, towards their home board: "
        "put it back and play {dice_en}.",
    ),
    "closed_point": (
        "A casa {point} está fechada (duas ou mais peças do adversário): nenhuma peça pode parar lá, nem de "
        "passagem. Volte a peça e jogue-a para uma casa aberta.",
        "Point {point} is closed (two or more opposing checkers): no checker may stop there, not even on the "
        "way. Take the checker back and play it to an open point.",
    ),
    "bar_first": (
        "As {side} têm uma peça na barra: ela precisa entrar primeiro, no setor interno do adversário, antes "
        "de mover qualquer outra peça. Volte as peças movidas e entre com a peça da barra.",
        "{side_cap} has a checker on the bar: it must enter first, in the opponent's home board, before any "
        "other checker moves. Take the other checkers back and enter the one on the bar.",
    ),
    "bear_off_too_early": (
        "Só é possível retirar peças quando todas as 15 estiverem no setor interno (casas 1 a 6). Volte a "
        "peça retirada para a casa {point} e jogue {dice_pt} dentro do tabuleiro.",
        "Checkers may be borne off only when all 15 are in the home board (points 1 to 6). Put the checker "
        "back on point {point} and play {dice_en} on the board.",
    ),
    "bear_off_from_highest": (
        "O dado {die} só retira uma peça de uma casa mais baixa quando não há peças em casas mais altas. "
        "Volte a peça para a casa {point} e mova o {die} dentro do tabuleiro, a partir da casa mais alta.",
        "A {die} bears a checker off a lower point only when no checker sits on a higher point. Put the "
        "checker back on point {point} and move the {die} inside the board, from the highest point.",
    ),
    "unplayed_die": (
        "{unplayed_pt}, mas havia uma jogada que usava mais dados (por exemplo {example}). "
        "É obrigatório jogar todos os dados que for possível: complete ou refaça a jogada.",
        "{unplayed_en} left unplayed, but a play using more dice existed (for example {example}). "
        "As many dice as possible must be played: finish or redo the play.",
    ),
    "larger_die_required": (
        "Só um dos dados pode ser jogado e, nesse caso, precisa ser o maior, o {die}. Volte a peça e jogue "
        "o {die} (por exemplo {example}).",
        "Only one die can be played, and then it must be the larger one, the {die}. Take the checker back "
        "and play the {die} (for example {example}).",
    ),
    "illegal_play": (
        "Esta jogada não é permitida com {dice}. Volte as peças e jogue, por exemplo, {example}.",
        "This play is not allowed with {dice}. Take the checkers back and play, for example, {example}.",
    ),
    "wrong_side_moved": (
        "Foram movidas peças das {other}, mas é a vez das {side}. Volte as peças das {other} para onde estavam.",
        "{other_cap} checkers were moved, but it is {side}'s turn. Put the {other} checkers back where they were.",
    ),
    "checker_missing": (
        "Falta uma peça das {side} {where_pt}. Coloque-a de volta no lugar.",
        "A {side} checker is missing from {where_en}. Put it back.",
    ),
    "checker_added": (
        "Há uma peça das {side} a mais {where_pt}. Tire-a do tabuleiro.",
        "There is an extra {side} checker on {where_en}. Take it off the board.",
    ),
    # The seeds' other games (R30-R32): each names the variant's rule.
    "pinned_checker_moved": (
        "A peça das {side} na casa {point} está presa: uma peça do adversário está em cima dela. No Plakoto uma "
        "peça presa não pode se mover enquanto a peça que a prende estiver lá (R30). Volte a peça para a casa "
        "{point} e jogue {dice_pt} com outra peça.",
        "{side_cap}'s checker on point {point} is pinned: an opposing checker sits on top of it. In Plakoto a "
        "pinned checker cannot move while its pinner stays there (R30). Put it back on point {point} and play "
        "{dice_en} with another checker.",
    ),
    "messenger_not_arrived": (
        "No Jacquet só o mensageiro (postilhão) anda até chegar à última parte do seu percurso; as outras "
        "peças das {side} esperam na casa de partida ({point}) até lá (R32). Volte as peças e jogue {dice_pt} "
        "com o mensageiro.",
        "In Jacquet only the messenger moves until it reaches the last quarter of its route; {side}'s other "
        "checkers wait on the start point ({point}) until then (R32). Take them back and play {dice_en} with "
        "the messenger.",
    ),
    "six_block_not_allowed": (
        "No Jacquet só pode ocupar seis ou mais casas seguidas quem já ocupa as duas últimas casas do seu "
        "percurso (R32); as {side} ainda não as ocupam. Volte a peça da casa {point} e jogue {dice_pt} sem "
        "fechar seis casas seguidas.",
        "In Jacquet a player may hold six or more points in a row only once they hold the last two points of "
        "their route (R32); {side} does not yet. Take the checker on point {point} back and play {dice_en} "
        "without holding six points in a row.",
    ),
    "enter_two_first": (
        "No gamão russo é preciso entrar pelo menos {n} peças antes de mover as que já entraram (R31). Volte a "
        "peça da casa {point} e entre outra peça com {dice_pt}.",
        "In Russian backgammon at least {n} checkers must be entered before any entered checker moves on (R31). "
        "Put the checker from point {point} back and enter another one with {dice_en}.",
    ),
    "first_roll_double": (
        "No gamão russo uma dobradinha no primeiro lance de cada jogador não vale: as {side} lançam de novo "
        "(R31).",
        "In Russian backgammon a double on a player's first roll does not count: {side} rolls again (R31).",
    ),
    "new_setup_mid_game": (
        "O tabuleiro está montado para um novo jogo, mas este jogo ainda não acabou. Se acabou, o perdedor "
        "desiste e o resultado fica registrado; “Novo jogo” deixa o jogo inacabado, sem pontos.",
        "The board is set up for a new game, but this game is not over. If it is over, the loser resigns "
        "and the result is recorded; New game leaves it unfinished, with no points.",
    ),
    "point_covered": (
        "Tire {thing_pt} {from_pt}: não consigo ver as peças embaixo. O lançamento vale assim que o tabuleiro "
        "estiver livre.",
        "Take {thing_en} off {from_en}: I cannot see the checkers under it. The roll counts as soon as the board "
        "is clear.",
    ),
    "takeback": (
        "O tabuleiro voltou a uma posição anterior. Uma jogada feita só se desfaz se ambos concordarem: "
        "coloquem as peças de volta como estavam ou apertem “Desfazer”.",
        "The board went back to an earlier position. A finished play is undone only if both players agree: "
        "put the checkers back as they were, or both press undo.",
    ),
    "cocked_die": (
        "O dado {n} ficou inclinado: o lançamento não conta (R24). Confirme e lance os dois dados de novo.",
        "Die {n} is cocked: the roll does not count (R24). Acknowledge and roll both dice again.",
    ),
    "tied_opening": (
        "Na abertura os dois dados deram {die}: empate. Lancem de novo para ver quem começa.",
        "Both opening dice show {die}: a tie. Roll again to see who starts.",
    ),
    "roll_out_of_turn": (
        "Lançamento fora de hora: as {side} ainda estão jogando {dice_prev}. Terminem a jogada (ou apertem "
        "“Fim da jogada”) e só depois lancem.",
        "Roll out of turn: {side} are still playing {dice_prev}. Finish the play (or press end turn) and "
        "only then roll.",
    ),
    "correct_first": (
        "Modo estrito: as {side} precisam corrigir a jogada antes que o adversário lance. Este lançamento não "
        "conta: corrijam a jogada e lancem de novo.",
        "Strict mode: {side} must put the play right before the opponent rolls. This roll does not count: "
        "correct the play, then roll again.",
    ),
    "roll_not_expected": (
        "Agora não é hora de lançar: {why_pt}.",
        "This is not the time to roll: {why_en}.",
    ),
    "cube_not_yours": (
        "O cubo é das {owner}: só quem tem o cubo pode redobrar.",
        "The cube belongs to {owner}: only the cube's owner may redouble.",
    ),
    "cube_after_roll": (
        "Só se pode dobrar na sua vez, antes de lançar os dados.",
        "A double is offered only on your own turn, before rolling.",
    ),
    "crawford_no_cube": (
        "Este é o jogo Crawford: não se usa o cubo neste jogo (R14).",
        "This is the Crawford game: the cube is not used in this game (R14).",
    ),
    "cube_cap": (
        "O cubo já está no valor máximo combinado ({cap}).",
        "The cube is already at the agreed maximum ({cap}).",
    ),
    "holland": (
        "Regra Holland: depois do jogo Crawford, quem vai atrás só pode dobrar depois de cada jogador ter "
        "jogado duas vezes.",
        "Holland rule: after the Crawford game the trailer may double only after each player has played "
        "two rolls.",
    ),
    "beaver_not_allowed": (
        "Não se jogam castores (beaver) nesta partida: aceite ou recuse o cubo.",
        "Beavers are not played in this match: take or drop the cube.",
    ),
    "moved_before_roll": (
        "As peças foram mexidas antes que as {side} lançassem os dados. Coloquem as peças de volta como "
        "estavam e lancem primeiro.",
        "Checkers moved before {side} rolled. Put them back as they were and roll first.",
    ),
    "cube_not_used": (
        "O cubo não é usado nesta partida.",
        "The cube is not used in this match.",
    ),
    "no_cube_offered": (
        "Não há nenhum cubo oferecido para aceitar ou recusar.",
        "No double has been offered, so there is nothing to take or drop.",
    ),
    "cube_answer_wrong_side": (
        "Só as {side} podem responder ao cubo oferecido.",
        "Only {side} may answer the double.",
    ),
}


def pt_play(play: str) -> str:
    """A play as the Portuguese screen writes it, in the seeds' words: "bar/23" -> "barra/23", "6/off" -> "6/fora",
    and Russian backgammon's entry from off the board (the seed: the checkers start "fora do tabuleiro")
    "in/23" -> "fora/23".

    >>> pt_play("bar/22 6/off(2)")
    'barra/22 6/fora(2)'
    >>> pt_play("in/23/21 in/23(2)")
    'fora/23/21 fora/23(2)'
    """
    text = re.sub(r"\bin(?=/)", "fora", re.sub(r"\bbar(?=/)", "barra", str(play)))
    return re.sub(r"(?<=/)off\b", "fora", text)


def count(n: Any, one: str, many: str) -> str:
    """A number and its noun in agreement, in either language: 1 is singular, 0 and 2+ plural.

    >>> count(1, "casa", "casas"), count(0, "casa", "casas"), count(2, "point", "points")
    ('1 casa', '0 casas', '2 points')
    """
    return f"{n} {one if n == 1 else many}"


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _dice_words(dice: Sequence[int], joiner: str, double_word: str) -> str:
    if len(dice) == 2 and dice[0] == dice[1]:
        return f"{double_word} {dice[0]}"
    return f" {joiner} ".join(str(d) for d in dice)


#: A place in words (Portuguese, English) after what stands before it: where something is ("at"), where a
#: checker comes from ("from") and where it goes ("to"); "{p}" is a point's number.
_PLACE_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "at": {"bar": ("na barra", "the bar"), "off": ("entre as peças retiradas", "the borne-off tray"),
           "point": ("na casa {p}", "point {p}")},
    "from": {"bar": ("da barra", "from the bar"), "off": ("das retiradas", "from the borne-off checkers"),
             "point": ("da casa {p}", "from point {p}")},
    "to": {"bar": ("para a barra", "to the bar"), "off": ("para fora (retiradas)", "off the board (borne off)"),
           "point": ("para a casa {p}", "to point {p}")},
}
# Russian backgammon's checkers not yet entered, beside the board (a set-up's place "waiting")
_PLACE_WORDS["from"]["waiting"] = ("das que esperam para entrar", "from those waiting to enter")
_PLACE_WORDS["to"]["waiting"] = ("para fora, com as que esperam para entrar", "off the board, to wait to enter")
_PLACE_WORDS["at"]["waiting"] = ("entre as que esperam para entrar", "among those waiting to enter")


def _place(kind: str, place: Any) -> tuple[str, str]:
    pt, en = _PLACE_WORDS[kind][place if place in ("bar", "off", "waiting") else "point"]
    return pt.format(p=place), en.format(p=place)


#: What covers a point (a board event's ``covered[].by``), in words; anything else is "an object".
COVER_WORDS: dict[str, tuple[str, str]] = {"cup": ("o copo", "the dice cup"), "die": ("o dado", "the die"),
                                           "cube": ("o cubo", "the cube"), "hand": ("a mão", "your hand"),
                                           "phone": ("o celular", "the phone")}


def _covered_words(params: dict[str, Any]) -> tuple[str, str, str, str]:
    """(thing_pt, from_pt, thing_en, from_en) for ``point_covered``: ``covered`` (the points, as the screen numbers
    them) or ``point``, and ``by`` (what covers them)."""
    points = [str(p) for p in params.get("covered") or ([params["point"]] if params.get("point") else [])]
    thing_pt, thing_en = COVER_WORDS.get(str(params.get("by")), ("o objeto", "the object"))
    if len(points) > 1:
        listed_pt = ", ".join(points[:-1]) + " e " + points[-1]
        listed_en = ", ".join(points[:-1]) + " and " + points[-1]
        return thing_pt, f"das casas {listed_pt}", thing_en, f"points {listed_en}"
    if points:
        return thing_pt, f"da casa {points[0]}", thing_en, f"point {points[0]}"
    return thing_pt, "do tabuleiro", thing_en, "the board"


def message(code: str, **params: Any) -> dict[str, str]:
    """The verdict's {"pt": ..., "en": ...} for a reason code; KeyError for an unknown code."""
    if code not in TEMPLATES:
        raise KeyError(f"unknown reason code {code!r} (known: {', '.join(sorted(TEMPLATES))})")
    pt_t, en_t = TEMPLATES[code]
    dice = params.get("dice") or ()
    values: dict[str, Any] = {"example": "", "move": "", "point": "", "die": "", "n": "", "cap": "", "count": ""}
    values.update(params)
    values["dice"] = _dice_text(dice)
    values["dice_pt"] = _dice_words(dice, "e", "a dobradinha: quatro vezes o")
    values["dice_en"] = _dice_words(dice, "and", "four times")
    values["dice_prev"] = _dice_text(params.get("dice_prev") or ())
    pt, en = dict(values), dict(values)
    for key in ("move", "example"):
        pt[key] = pt_play(pt[key])
    for key in ("side", "other", "owner"):
        if key in params:
            pt[key] = SIDE_PT[params[key]]
            en[key] = SIDE_EN[params[key]]
            en[key + "_cap"] = SIDE_EN[params[key]].capitalize()
    unplayed = [str(d) for d in params.get("unplayed") or ()]
    if len(unplayed) == 1:
        pt["unplayed_pt"] = f"Faltou jogar o {unplayed[0]}"
        en["unplayed_en"] = f"The {unplayed[0]} was"
    elif unplayed:
        pt["unplayed_pt"] = "Faltou jogar " + " e ".join(f"o {d}" for d in unplayed)
        en["unplayed_en"] = " and ".join(f"the {d}" for d in unplayed).capitalize() + " were"
    else:
        pt["unplayed_pt"] = "Faltou jogar um dado"
        en["unplayed_en"] = "A die was"
    pt["where_pt"], en["where_en"] = _place("at", params.get("point"))
    pt["thing_pt"], pt["from_pt"], en["thing_en"], en["from_en"] = _covered_words(params)
    if params.get("count") not in (None, ""):
        pt["count_pt"], en["count_en"] = count(params["count"], "casa", "casas"), count(params["count"], "point", "points")
    else:
        pt["count_pt"], en["count_en"] = "", ""
    pt["why_pt"] = params.get("why_pt", "")
    en["why_en"] = params.get("why_en", "")
    return {"pt": pt_t.format(**pt), "en": en_t.format(**en)}


REASONS = tuple(TEMPLATES)

# The same reasons for a play, in one English line naming the rule: what an error about a written play
# says after "illegal play '...' with 65 in position ...:" (core.rules.position.Position.parse_play).
# Placeholders as in TEMPLATES, plus {roll} "65" and {most}, the dice a legal play uses.
SUMMARIES: dict[str, str] = {
    "bar_first": "a checker moves while one waits on the bar; enter it first (R07)",
    "wrong_direction": "{move} moves a checker backwards, away from its home board (R04)",
    "closed_point": "point {point} is closed (two or more opposing checkers) (R05)",
    "bear_off_too_early": "a checker is borne off point {point} while checkers are still outside the home board (R10)",
    "wrong_distance": "{move} moves {count} pips, which no die of {roll} gives (R04)",
    "bear_off_from_highest": "a {die} bears a checker off point {point} only when no checker sits on a higher point (R10)",
    "unplayed_die": "it leaves a die unplayed; a play using {most} dice exists, e.g. {example} (R09)",
    "larger_die_required": "only one die can be played and it must be the larger where possible, e.g. {example} (R09)",
    "illegal_play": "the checkers cannot move so with these dice; legal plays include {example}",
    "pinned_checker_moved": "the checker on point {point} is pinned and cannot move while its pinner stays (R30)",
    "messenger_not_arrived": "only the messenger moves until it reaches the last quarter of its route (R32)",
    "six_block_not_allowed": "six or more points in a row only once the last two points of the route are held (R32)",
    "enter_two_first": "at least {n} checkers must be entered before an entered checker moves on (R31)",
}


def summary(code: str, **params: Any) -> str:
    """One English line for the reason a play is illegal (SUMMARIES); the full words are ``message``.

    >>> summary("wrong_distance", move="13/9", count=4, dice=[6, 5])
    '13/9 moves 4 pips, which no die of 65 gives (R04)'
    """
    if code not in SUMMARIES:
        return message(code, **params)["en"]
    values: dict[str, Any] = {"example": "", "move": "", "point": "", "die": "", "count": "", "most": ""}
    values.update(params)
    values["roll"] = "".join(str(d) for d in params.get("dice") or ())
    return SUMMARIES[code].format(**values)


# Plain sentences for the verdicts that report rather than object (the kiosk shows them as they come).
# How a game was won, in words (never the code: an unknown one says nothing in parentheses).
_HOW_PT = {"single": "simples", "gammon": "gamão", "backgammon": "gamão triplo", "drop": "cubo recusado",
           "mother": "mãe presa", "resign": "desistência", "time_out": "tempo esgotado"}
_HOW_EN = {"single": "single game", "gammon": "gammon", "backgammon": "backgammon", "drop": "double dropped",
           "mother": "mother pinned", "resign": "resigned", "time_out": "out of time"}
_CUBE_PT = {"double": "dobram para {value}", "take": "aceitam o cubo ({value})",
            "drop": "recusam o cubo", "beaver": "fazem castor (beaver) para {value}",
            "raccoon": "respondem com raccoon para {value}"}
_CUBE_EN = {"double": "doubles to {value}", "take": "takes the cube ({value})", "drop": "drops the cube",
            "beaver": "beavers to {value}", "raccoon": "raccoons to {value}"}

# What committed an illegal play that stands (R23), by the event's name.
_COMMITTED_BY = {"roll": ("o adversário já lançou os dados", "the opponent has rolled"),
                 "button": ("a vez foi dada por terminada", "the turn was ended"),
                 "cube": ("o adversário já dobrou", "the opponent has doubled"),
                 "resign": ("houve uma desistência", "a resignation was offered"),
                 "illegal_play_answer": ("o adversário a aceitou", "the opponent accepted it")}


def describe(verdict: dict[str, Any]) -> dict[str, str]:
    """{"pt", "en"} for an informative verdict (opening, roll, in_progress, play, uncertain, cube, ...)."""
    name = verdict["verdict"]
    side = verdict.get("side", "light")
    spt, sen = SIDE_PT.get(side, side), SIDE_EN.get(side, side)
    dice = _dice_text(verdict.get("dice") or ())
    if name == "opening":
        return {"pt": f"As {spt} começam, com {dice}.", "en": f"{sen.capitalize()} starts, with {dice}."}
    if name == "roll":
        return {"pt": f"As {spt} lançaram {dice}.", "en": f"{sen.capitalize()} rolled {dice}."}
    if name == "in_progress":
        play = verdict.get("play") or ""
        pplay = pt_play(play)
        if verdict.get("complete"):
            return {"pt": f"As {spt} jogam {pplay}. A jogada fica feita quando o adversário lançar.",
                    "en": f"{sen.capitalize()} plays {play}. It stands once the opponent rolls."}
        return {"pt": f"As {spt} estão jogando {dice}: até agora {pplay}.",
                "en": f"{sen.capitalize()} is playing {dice}: so far {play}."}
    if name == "play":
        play = verdict.get("play") or ""
        pplay = pt_play(play)
        if verdict.get("legal") is False:
            # Checked before the empty play: an illegal play of no checker is not a turn without a legal move.
            by = verdict.get("committed_by", "roll")
            why_pt, why_en = _COMMITTED_BY.get(by, _COMMITTED_BY["roll"])
            what_pt = f"jogaram {pplay}" if play else "não moveram nenhuma peça"
            what_en = f"played {play}" if play else "moved no checker"
            return {"pt": f"As {spt} {what_pt} com {dice}. A jogada não era permitida, mas fica feita porque "
                          f"{why_pt} (R23).",
                    "en": f"{sen.capitalize()} {what_en} with {dice}. The play was not allowed, but it stands "
                          f"because {why_en} (R23)."}
        if not play:
            return {"pt": f"As {spt} não têm jogada possível com {dice}: passam a vez.",
                    "en": f"{sen.capitalize()} cannot move with {dice} and loses the turn."}
        return {"pt": f"Jogada das {spt} com {dice}: {pplay}.", "en": f"{sen.capitalize()}'s play with {dice}: {play}."}
    if name == "uncertain":
        options = " / ".join(verdict.get("candidates") or ())
        return {"pt": f"Não consigo distinguir a jogada das {spt} ({pt_play(options)}): afastem as mãos do tabuleiro.",
                "en": f"I cannot tell {sen}'s play apart ({options}): keep hands clear of the board."}
    if name == "cube":
        action = verdict.get("action", "double")
        value = verdict.get("value", "")
        return {"pt": f"As {spt} " + _CUBE_PT[action].format(value=value) + ".",
                "en": f"{sen.capitalize()} " + _CUBE_EN[action].format(value=value) + "."}
    if name == "game_over" and verdict.get("how") == "draw":
        return {"pt": "Fim do jogo: empate, as duas mães estão presas (Plakoto, R30). Nenhum ponto.",
                "en": "Game over: a draw, both mothers are pinned (Plakoto, R30). No points."}
    if name == "game_over":
        w = verdict.get("winner", "light")
        pts = verdict.get("points", 1)
        how = verdict.get("how", "single")
        how_pt, how_en = (f" ({_HOW_PT[how]})", f" ({_HOW_EN[how]})") if how in _HOW_PT else ("", "")
        return {"pt": f"Fim do jogo: as {SIDE_PT[w]} ganham {pts} ponto{'s' if pts != 1 else ''}{how_pt}.",
                "en": f"Game over: {SIDE_EN[w]} wins {pts} point{'s' if pts != 1 else ''}{how_en}."}
    if name == "match_over":
        score = verdict.get("score", [0, 0])
        w = verdict.get("winner", "light")
        return {"pt": f"Fim da partida: as {SIDE_PT[w]} ganham, {score[0]}-{score[1]}.",
                "en": f"Match over: {SIDE_EN[w]} wins, {score[0]}-{score[1]}."}
    raise KeyError(f"no description for verdict {name!r}")


def setup_words(move: dict[str, Any]) -> dict[str, str]:
    """One step of setting up a position (a ``gamao setup-moves`` move) in words, each side's own numbering:
    "Claras: leve 2 peças da casa 13 para a casa 8"."""
    n = int(move["count"])
    frm_pt, frm_en = _place("from", move["from"])
    to_pt, to_en = _place("to", move["to"])
    side = str(move["side"])
    pieces_pt = "1 peça" if n == 1 else f"{n} peças"
    pieces_en = "1 checker" if n == 1 else f"{n} checkers"
    if move.get("under"):  # a Plakoto pin: under the other side's checker (lifted and put back on top)
        other_pt, other_en = SIDE_PT["dark" if side == "light" else "light"][:-1], SIDE_EN["dark" if side == "light" else "light"]
        if move["from"] == move["to"]:
            return {"pt": f"{SIDE_PT[side].capitalize()}: ponha a peça {frm_pt} embaixo da peça {other_pt} (presa)",
                    "en": f"{SIDE_EN[side].capitalize()}: put the checker on point {move['to']} under the {other_en} "
                          "checker (pinned)"}
        return {"pt": f"{SIDE_PT[side].capitalize()}: leve {pieces_pt} {frm_pt} {to_pt}, embaixo da peça {other_pt} "
                      "(presa)",
                "en": f"{SIDE_EN[side].capitalize()}: move {pieces_en} {frm_en} {to_en}, under the {other_en} checker "
                      "(pinned)"}
    return {
        "pt": f"{SIDE_PT[side].capitalize()}: leve {pieces_pt} {frm_pt} {to_pt}",
        "en": f"{SIDE_EN[side].capitalize()}: move {pieces_en} {frm_en} {to_en}",
    }
