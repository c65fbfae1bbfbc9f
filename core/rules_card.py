"""The rules card beside the board: each game's rules in a few lines, from the seeds' rule texts (../shared/seeds,
digested in RULES.md), in Brazilian Portuguese and English. core/page_words.py gives them to the page as
rulesCard.<game>.<n>; no rule code (R01-R32) is ever in a line for the screen."""

from __future__ import annotations

# The rules card: one line each (rulesCard.<game>.<n>), as many in both languages.
RULES_CARD: dict[str, list[tuple[str, str]]] = {
    "backgammon": [
        ("Cada jogador move 15 peças da casa 24 para a casa 1, com os dois dados.",
         "Each player moves 15 checkers from point 24 to point 1, with both dice."),
        ("Uma casa com duas ou mais peças do adversário está fechada. Uma peça sozinha pode ser capturada: vai para "
         "a barra e precisa entrar no setor interno do adversário antes de qualquer outra jogada.",
         "A point with two or more opposing checkers is closed. A lone checker can be hit: it goes to the bar and "
         "must enter in the opponent's home board before any other move."),
        ("Dobradinha (dados iguais): joga-se quatro vezes o número.", "Doubles: the number is played four times."),
        ("É obrigatório jogar os dois dados quando possível; se só um dá, o maior.",
         "Both dice must be played when possible; if only one can be, the larger."),
        ("Com todas as peças no setor interno, retire-as. Quem retira todas primeiro ganha: simples (1), gamão (2) "
         "se o outro não retirou nenhuma, gamão triplo (3) se ele ainda tem peça na barra ou no seu setor interno.",
         "With every checker in the home board, bear them off. The first to bear off all wins: single (1), gammon "
         "(2) if the other bore none off, backgammon (3) if they still have a checker on the bar or in your home "
         "board."),
        ("O cubo dobra o valor do jogo: quem recusa a dobra perde o valor atual.",
         "The cube doubles the game's value: whoever drops a double loses the current value."),
    ],
    "plakoto": [
        ("Todas as 15 peças começam na casa 24 de cada jogador; andam em sentidos opostos.",
         "All 15 checkers start on each player's point 24; they move in opposite directions."),
        ("Ninguém captura: parar sobre uma peça sozinha do adversário a prende. A peça presa não anda até a de cima "
         "sair.",
         "Nobody hits: landing on a lone opposing checker pins it. A pinned checker cannot move until the one on "
         "top leaves."),
        ("Prender a mãe (a última peça que ficou na casa de partida) ganha o jogo; se as duas mães estão presas, é "
         "empate.",
         "Pinning the mother (the last checker left on the starting point) wins the game; both mothers pinned is a "
         "draw."),
        ("Não há barra nem entrada; retira-se como no gamão.", "No bar, no entering; bearing off as in backgammon."),
    ],
    "russian": [
        ("As peças começam fora do tabuleiro e entram pelo mesmo setor; os dois andam no mesmo sentido.",
         "Checkers start off the board and enter through the same quarter; both sides move the same way."),
        ("É preciso entrar pelo menos duas peças antes de mover uma que já entrou.",
         "At least two checkers must be entered before an entered one moves on."),
        ("Dobradinha: joga-se quatro vezes o número, depois a dobradinha complementar (o 7 menos o número), e "
         "lança-se de novo.",
         "Doubles: the number four times, then the complementary double (7 minus the number), then roll again."),
        ("Dobradinha no primeiro lance de cada um não vale: lance de novo.",
         "A double on each player's first roll does not count: roll again."),
    ],
    "jacquet": [
        ("As 15 peças começam numa só casa; os dois andam no mesmo sentido, em lados opostos.",
         "All 15 checkers start on one point; both sides move the same way, from opposite sides."),
        ("Uma peça sozinha já fecha a casa: não há captura.", "A single checker closes a point: there is no hitting."),
        ("Só o mensageiro (a primeira peça) anda até chegar à última parte do percurso; depois as outras podem sair.",
         "Only the messenger (the first checker) moves until it reaches the last quarter of its route; then the "
         "others may leave."),
        ("Não se pode ocupar seis casas seguidas antes de ocupar as duas últimas do percurso.",
         "No six points in a row before holding the last two points of the route."),
    ],
}

__all__ = ["RULES_CARD"]
