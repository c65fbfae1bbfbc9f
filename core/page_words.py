"""The players' screen's own words: key -> (Brazilian Portuguese, English), beside the referee's sentences of
core/messages.py, in the same words and the same shape (issue 37: "English beside it through the same table").

The kiosk's page (kiosk/static/i18n.js, and through it the chouette's panel, the coach's, the review's and the camera's
calibration) builds
every label, head and line from this table; the kiosk serves it
as /static/words.js and the club's director as /kiosk/words.js (``page_words_js``, with its ``page_words_etag``
so a browser keeps it until it changes). tests/core/test_page_words.py checks that every key the page asks for is
here, that every entry is said in both languages with the same placeholders, and that no entry is left unused.

Placeholders, filled by ``fill`` here and by i18n.js's ``fill`` on the page: ``{name}`` is the value; ``{n:one|many}``
is the noun agreeing with the number ``n`` ("Partida de {n} {n:ponto|pontos}": 1 is singular, 0 and 2+ plural, in
both languages). Portuguese in the seeds' words (core/messages.py says which): casa, peça, setor interno, barra,
retirar, fora, dobradinha, cubo; the results "simples", "gamão" and "gamão triplo". No rule code (R01-R32) is ever
in a word for the screen.

>>> fill(PAGE_WORDS["matchTo"][0], n=1), fill(PAGE_WORDS["matchTo"][1], n=3)
('Partida de 1 ponto', 'Match to 3 points')
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from typing import Any

PLACEHOLDER = re.compile(r"\{(\w+)(?::([^|{}]*)\|([^{}]*))?\}")

# The rules card: one line each (rulesCard.<game>.<n>), as many in both languages.
_RULES: dict[str, list[tuple[str, str]]] = {
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

PAGE_WORDS: dict[str, tuple[str, str]] = {
    # The main page (kiosk/static/index.html, app.js, controls.js): the score, the dice, the cube, the toolbar.
    "title": ("Gamão", "Gamão"),
    "light": ("Claras", "Light"),
    "dark": ("Escuras", "Dark"),
    "score": ("Placar", "Score"),
    "matchTo": ("Partida de {n} {n:ponto|pontos}", "Match to {n} {n:point|points}"),
    "money": ("Jogo valendo dinheiro", "Money game"),
    "game": ("Jogo {n}", "Game {n}"),
    "crawford": ("Crawford", "Crawford"),
    "postCrawford": ("Pós-Crawford", "Post-Crawford"),
    "dice": ("Dados", "Dice"),
    "cube": ("Cubo", "Cube"),
    "centred": ("no centro", "centred"),
    "owns": ("de {p}", "{p}'s"),
    "offered": ("{p} dobra para {v}", "{p} doubles to {v}"),
    "noCube": ("sem cubo (Crawford)", "no cube (Crawford)"),
    "pips": ("Contagem", "Pips"),
    "moves": ("Jogadas", "Moves"),
    "export": ("Exportar", "Export"),
    "noPlay": ("não joga", "no play"),
    "toPlay": ("Joga: {p}", "{p} to play"),
    "rollAgain": ("Lança de novo: {p}", "{p} rolls again"),
    "unknown": ("Aviso do árbitro", "The referee says"),
    "resigns": ("{p} desiste ({how}): aceita?", "{p} resigns ({how}): accept?"),
    "resignHow.1": ("simples", "single"),
    "resignHow.2": ("gamão", "gammon"),
    "resignHow.3": ("gamão triplo", "backgammon"),
    "cocked": ("Dado inclinado: lance de novo", "Cocked die: roll again"),
    "noRoll": ("—", "—"),
    "connecting": ("Conectando…", "Connecting…"),
    "offline": ("Sem conexão com o árbitro; tentando de novo…", "No connection to the referee; retrying…"),
    "tournament": ("Modo torneio", "Tournament mode"),
    "calibrate": ("Calibrar câmera", "Calibrate camera"),
    "controls": ("Controle", "Control"),
    "coach": ("Treinador", "Coach"),
    "rules": ("Regras", "Rules"),
    "review": ("Revisão", "Review"),
    "language": ("English", "Português"),
    "chouette": ("Chouette", "Chouette"),
    "newChouette": ("Nova chouette…", "New chouette…"),
    "voiceMissing": ("Sem voz: o espeak-ng não está instalado. O jogo continua só na tela.",
                     "No voice: espeak-ng is not installed. Play goes on, on the screen only."),
    "phase.opening": ("Lançamento inicial: cada jogador lança um dado", "Opening roll: each player rolls one die"),
    "phase.awaiting_roll": ("Esperando os dados", "Waiting for the dice"),
    "phase.moving": ("Jogada em andamento", "Play in progress"),
    "phase.cube_offered": ("Cubo oferecido: aceitar ou recusar?", "Cube offered: take or drop?"),
    "phase.game_over": ("Fim do jogo", "Game over"),
    "phase.match_over": ("Fim da partida", "Match over"),
    # The banner's head for each verdict of the referee (core/referee), the players' names filled in.
    "verdict.legal": ("Jogada legal", "Legal play"),
    "verdict.legalPlay": ("Jogada legal: {play}", "Legal play: {play}"),
    "verdict.inProgress": ("Jogada em andamento", "Play in progress"),
    "verdict.inProgressPlay": ("Jogada em andamento: {play}", "Play in progress: {play}"),
    "verdict.hitting": ("Captura em andamento na casa {point}", "Hit in progress on point {point}"),
    "verdict.newSetup": ("Tabuleiro montado para um novo jogo?", "Board set up for a new game?"),
    "verdict.illegal": ("Jogada ilegal", "Illegal play"),
    "verdict.illegalPlay": ("Jogada ilegal: {play}", "Illegal play: {play}"),
    "verdict.abandoned": ("Jogo deixado inacabado, sem pontos", "Game left unfinished, with no points"),
    "verdict.unplayedDice": ("Faltou jogar os dados", "The dice were left unplayed"),
    "verdict.unplayedDie": ("Faltou jogar um dado", "A die is left unplayed"),
    "verdict.reroll": ("Lance de novo", "Roll again"),
    "verdict.rerollTied": ("Dados iguais: lance de novo", "Equal dice: roll again"),
    "verdict.rerollOutOfTurn": ("Lançamento fora de hora", "Roll out of turn"),
    "verdict.opening": ("{p} começa com {dice}", "{p} starts with {dice}"),
    "verdict.roll": ("{p} lançou {dice}", "{p} rolled {dice}"),
    "verdict.play": ("{p} jogou {play}", "{p} played {play}"),
    "verdict.playIllegalStands": ("{p} jogou {play}: jogada ilegal, mas fica", "{p} played {play}: illegal, but it stands"),
    "verdict.nothing": ("nada", "nothing"),
    "verdict.noPlay": ("{p} não pode jogar {dice}: perde a vez", "{p} cannot play {dice}: turn lost"),
    "verdict.uncertainPending": ("Jogada a confirmar pelos próximos tabuleiros: o jogo continua",
                                 "Play to be confirmed by the next boards: play goes on"),
    "verdict.uncertain": ("Não vejo bem o tabuleiro: acertem as peças",
                          "I cannot see the board clearly: straighten the checkers"),
    "verdict.cubeTake": ("{p} aceita: o cubo vale {v}", "{p} takes: the cube is on {v}"),
    "verdict.cubeDrop": ("{p} recusa a dobra", "{p} drops"),
    "verdict.cubeBeaver": ("{p} castor: {v}", "{p} beavers: {v}"),
    "verdict.cubeRaccoon": ("{p} guaxinim: {v}", "{p} raccoons: {v}"),
    "verdict.gameDraw": ("Fim do jogo: empate, nenhum ponto", "Game over: a draw, no points"),
    "verdict.gameWon": ("{p} ganha {n} {n:ponto|pontos}", "{p} wins {n} {n:point|points}"),
    "verdict.gameWonHow": ("{p} ganha {n} {n:ponto|pontos} ({how})", "{p} wins {n} {n:point|points} ({how})"),
    "verdict.matchOver": ("{p} ganha a partida!", "{p} wins the match!"),
    "verdict.error": ("O árbitro não conseguiu avaliar este evento (veja o log)",
                      "The referee could not rule on this event (see the log)"),
    # What a game was won by, in the head, and why, in a sentence under it.
    "how.single": ("simples", "single game"),
    "how.gammon": ("gamão", "gammon"),
    "how.backgammon": ("gamão triplo", "backgammon"),
    "how.drop": ("dobra recusada", "double dropped"),
    "how.resign": ("desistência", "resigned"),
    "how.mother": ("mãe presa", "mother pinned"),
    "how.draw": ("empate", "draw"),
    "how.time_out": ("tempo esgotado", "out of time"),
    "why.single": ("{winner} retirou todas as peças; {other} já tinha retirado alguma: vitória simples.",
                   "{winner} bore off every checker; {other} had borne some off: a single game."),
    "why.gammon": ("{winner} retirou todas as peças antes de {other} retirar alguma: gamão, vale o dobro.",
                   "{winner} bore off every checker before {other} bore any off: a gammon, worth double."),
    "why.backgammon": ("{other} não retirou nenhuma peça e ainda tinha peça na barra ou no setor interno de "
                       "{winner}: gamão triplo, vale o triplo.",
                       "{other} bore none off and still had a checker on the bar or in {winner}'s home board: a "
                       "backgammon, worth triple."),
    "why.drop": ("{other} recusou a dobra e perdeu o valor do cubo.", "{other} dropped the double and lost the cube's value."),
    "why.resign": ("{other} desistiu e {winner} aceitou.", "{other} resigned and {winner} accepted."),
    "why.mother": ("{winner} prendeu a mãe (a última peça da casa de partida) de {other}.",
                   "{winner} pinned {other}'s mother (the last checker on the starting point)."),
    "why.draw": ("As duas mães estão presas: ninguém ganha.", "Both mothers are pinned: nobody wins."),
    "why.time_out": ("{other} ficou sem tempo (a bandeira caiu).", "{other} ran out of time (the flag fell)."),
    "nextGame": ("Arrumem as peças para o próximo jogo.", "Set the checkers up for the next game."),
    "summaryTitle": ("Fim da partida", "Match over"),
    "summaryBtn": ("Resumo", "Summary"),
    "gamesPlayed": ("{n} {n:jogo|jogos}", "{n} {n:game|games}"),
    "summaryLinks": ("A revisão (com o treinador) e os arquivos da partida:", "The review (with the coach) and the match's files:"),
    # The control dialog (controls.js): the PIN, the cube and play buttons, a new match.
    "pinTitle": ("PIN de controle", "Control PIN"),
    "pinSet": ("Definir PIN (4 a 12 dígitos)", "Set a PIN (4 to 12 digits)"),
    "pinEnter": ("Digite o PIN", "Enter the PIN"),
    "doubleBtn": ("Dobrar", "Double"),
    "takeBtn": ("Aceitar", "Take"),
    "dropBtn": ("Recusar", "Drop"),
    "undoBtn": ("Desfazer", "Undo"),
    "endTurnBtn": ("Fim da jogada", "End turn"),
    "ackBtn": ("Dado visto", "Die seen"),
    "newMatchBtn": ("Nova partida", "New match"),
    "lengthLbl": ("Pontos", "Points"),
    "close": ("Fechar", "Close"),
    "variantLbl": ("Jogo", "Game"),
    "playersLbl": ("Jogadores", "Players"),
    "lightName": ("Claras (nome)", "Light (name)"),
    "darkName": ("Escuras (nome)", "Dark (name)"),
    "newMatchOpen": ("Nova partida…", "New match…"),
    "confirm": ("Confirmar: {what}?", "Confirm: {what}?"),
    "cancel": ("Cancelar", "Cancel"),
    "nothingNow": ("Nada a fazer agora: joguem.", "Nothing to do now: play on."),
    "matchOverNow": ("A partida acabou: para jogar de novo, comece uma nova partida.",
                     "The match is over: to play again, start a new match."),
    "gameNames.backgammon": ("Gamão", "Backgammon"),
    "gameNames.plakoto": ("Plakoto", "Plakoto"),
    "gameNames.russian": ("Gamão russo", "Russian backgammon"),
    "gameNames.jacquet": ("Jacquet", "Jacquet"),
    "resignBtn.1": ("Desistir (simples)", "Resign (single)"),
    "resignBtn.2": ("Desistir (gamão)", "Resign (gammon)"),
    "resignBtn.3": ("Desistir (gamão triplo)", "Resign (backgammon)"),
    "acceptBtn": ("Aceita a desistência", "Accept the resignation"),
    "rejectBtn": ("Recusa a desistência", "Reject the resignation"),
    "newGameBtn": ("Novo jogo", "New game"),
    # The seeds' other games (R30-R32) in the panel: two lines of it at 800x480 each.
    "chain.complement": ("Complementar: o {d} quatro vezes, sem lançar", "Complementary double: {d} four times, no roll"),
    "chain.double": ("Dobradinha {dice}: quatro vezes o {d}, depois o {c}", "Double {dice}: {d} four times, then {c}"),
    "chain.complete": ("Cadeia completa: lance de novo", "Chain complete: roll again"),
    "pinned": ("Presas: {list}", "Pinned: {list}"),
    "waiting": ("Por entrar: {light}, {dark}", "To enter: {light}, {dark}"),
    "messenger": ("Mensageiro chegou, todas as peças andam: {who}", "Messenger arrived, every checker moves: {who}"),
    "messengerNone": ("Mensageiros a caminho: só eles andam", "Messengers on their way: only they move"),
    "rulesTitle": ("Regras deste jogo", "Rules of this game"),
    **{f"rulesCard.{game}.{k}": words for game, lines in _RULES.items() for k, words in enumerate(lines, start=1)},
    # The chouette (R26-R29; chouette.js) in the seed's words: banqueiro, capitão, apostadores, repique, aceita, desiste.
    "chouette.title": ("Chouette · jogo {n}", "Chouette · game {n}"),
    "chouette.box": ("Banqueiro", "Box"),
    "chouette.captain": ("Capitão", "Captain"),
    "chouette.crew": ("Apostadores", "Crew"),
    "chouette.consultYes": ("Os apostadores podem sugerir ao capitão como jogar", "Crew members may advise the captain"),
    "chouette.consultNo": ("Os apostadores não podem aconselhar o capitão", "Crew members may not advise the captain"),
    "chouette.member": ("Jogador", "Player"),
    "chouette.totals": ("Saldo", "Totals"),
    "chouette.live": ("em jogo", "in"),
    "chouette.dropped": ("desistiu", "dropped"),
    "chouette.ofBox": ("do banqueiro", "box's"),
    "chouette.own": ("dele", "own"),
    "chouette.roleBox": ("banqueiro", "box"),
    "chouette.roleCaptain": ("capitão", "captain"),
    "chouette.roleCrew": ("apostador", "crew"),
    "chouette.waiting": ("Repique: aguardando {names}", "Double: waiting for {names}"),
    "chouette.boxAnswers": ("banqueiro responde pelo cubo de {m}", "the box answers on {m}'s cube"),
    "chouette.take": ("Aceita", "Take"),
    "chouette.drop": ("Desiste", "Drop"),
    "chouette.took": ("aceitou", "took"),
    "chouette.boxDouble": ("Repique do banqueiro", "Box doubles"),
    "chouette.teamDouble": ("Repique do capitão", "Team doubles"),
    "chouette.setup": ("Nova chouette: cada jogador lança um dado (empate: lançam de novo)",
                       "New chouette: each player rolls one die (a tie rolls again)"),
    "chouette.name": ("Nome", "Name"),
    "chouette.dice": ("Dado(s)", "Die (dice)"),
    "chouette.addPlayer": ("+ jogador", "+ player"),
    "chouette.start": ("Começar a chouette", "Start the chouette"),
    "chouette.boxSide": ("O banqueiro joga com", "The box plays"),
    "chouette.light": ("as claras", "light"),
    "chouette.dark": ("as escuras", "dark"),
    "chouette.consult": ("Apostadores podem aconselhar", "Crew may advise"),
    "chouette.export": ("Saldo (.json)", "Ledger (.json)"),
    "chouette.exportTxt": ("Saldo (.txt)", "Ledger (.txt)"),
    # The review page (review.js): a game's plays by their size, the best play beside, PR and error rate per player.
    "review.title": ("Revisão do jogo", "Game review"),
    "review.game": ("Jogo", "Game"),
    "review.played": ("Jogada feita: {p}", "Play made: {p}"),
    "review.best": ("Melhor jogada: {p}", "Best play: {p}"),
    "review.same": ("A jogada feita foi a melhor.", "The play made was the best."),
    "review.none": ("Nenhuma jogada avaliada neste jogo ainda.", "No play rated in this game yet."),
    "review.light": ("Claras", "Light"),
    "review.dark": ("Escuras", "Dark"),
    "review.plays": ("jogadas", "plays"),
    "review.rate": ("erro (milésimos/jogada)", "error rate (thousandths/play)"),
    "review.doubtful": ("duvidosas", "doubtful"),
    "review.bad": ("ruins", "bad"),
    "review.very_bad": ("muito ruins", "very bad"),
    "review.label.doubtful": ("duvidosa", "doubtful"),
    "review.label.bad": ("ruim", "bad"),
    "review.label.very_bad": ("muito ruim", "very bad"),
    "review.loses": ("perde {l}", "loses {l}"),
    "review.status.pending": ("avaliando…", "rating…"),
    "review.status.unranked": ("sem avaliação", "not rated"),
    "review.status.illegal": ("ilegal", "illegal"),
    "review.status.forced": ("forçada", "forced"),
    "review.size.best": ("a melhor", "the best"),
    "review.size.good": ("boa", "good"),
    "review.size.doubtful": ("duvidosa", "doubtful"),
    "review.size.error": ("erro", "error"),
    "review.size.blunder": ("erro grave", "blunder"),
    "review.pr": ("PR (XG)", "PR (XG)"),
    "review.level": ("nível", "level"),
    "review.match": ("Partida", "Match"),
    "review.thisGame": ("Este jogo", "This game"),
    "review.numbers": ("Números", "Numbers"),
    "review.back": ("← Voltar", "← Back"),
    "review.setup": ("Montar no tabuleiro", "Set up on the board"),
    "review.levels.super_grand_master": ("super grão-mestre", "super grand master"),
    "review.levels.grand_master": ("grão-mestre", "grand master"),
    "review.levels.master": ("mestre", "master"),
    "review.levels.advanced": ("avançado", "advanced"),
    "review.levels.intermediate": ("intermediário", "intermediate"),
    "review.levels.beginner": ("iniciante", "beginner"),
    # The coach's panel (coach.js): the tutor, the top plays, cube advice, GNU Backgammon as the opponent.
    "coach.plays": ("Melhores jogadas", "Best plays"),
    "coach.all": ("Todas as {n} jogadas", "All {n} plays"),
    "coach.allOne": ("A única jogada", "The only play"),
    "coach.cube": ("Conselho de cubo", "Cube advice"),
    "coach.review": ("Revisão", "Review"),
    "coach.tutor": ("Tutor", "Tutor"),
    "coach.close": ("Fechar", "Close"),
    "coach.numbers": ("Números", "Numbers"),
    "coach.settings": ("⚙ Treinador", "⚙ Coach"),
    "coach.guide": ("Guia do professor", "Teacher's guide"),
    "coach.marks": ("Marcas", "Marks"),
    "coach.prev": ("◀", "◀"),
    "coach.next": ("▶", "▶"),
    "coach.best": ("Melhor jogada", "Best play"),
    "coach.bestIs": ("Melhor: {p}", "Best: {p}"),
    "coach.levels.off": ("desligado", "off"),
    "coach.levels.very_bad": ("só erros graves", "blunders only"),
    "coach.levels.bad": ("erros", "errors"),
    "coach.levels.doubtful": ("tudo", "everything"),
    "coach.wait": ("Aguarde: o treinador está olhando a jogada…", "Wait: the coach is looking at the play…"),
    "coach.bestPlay": ("{p}: a melhor jogada.", "{p}: the best play."),
    "coach.pending": ("{p}: avaliando…", "{p}: rating…"),
    "coach.unranked": ("{p}: sem avaliação (sem motor de análise)", "{p}: not rated (no engine)"),
    "coach.illegal": ("{p}: jogada ilegal, sem avaliação", "{p}: illegal play, not rated"),
    "coach.forced": ("{p}: jogada forçada", "{p}: forced play"),
    "coach.ranked": ("{i}/{n}: {p}", "{i}/{n}: {p}"),
    "coach.unrankedList": ("sem motor de análise: jogadas sem ordem", "no engine: plays not ranked"),
    "coach.equity": ("equidade {e}, perde {l}", "equity {e}, loses {l}"),
    "coach.noEngine": ("Sem motor de análise", "No engine"),
    "coach.thinking": ("Pensando…", "Thinking…"),
    "coach.withdrawn": ("Olhando melhor: a jogada está boa.", "On a closer look: the play is fine."),
    "coach.deeper": ("olhando mais fundo…", "looking deeper…"),
    "coach.takeback": ("Voltar {p} (combinado antes da partida)", "Take {p} back (agreed before the match)"),
    "coach.engineRoll": ("{n}: lance os dados por ele", "{n}: roll the dice for it"),
    "coach.enginePlays": ("{n} joga {p}", "{n} plays {p}"),
    "coach.engineMove": ("Mova as peças dele como as setas mostram no tabuleiro.",
                         "Move its checkers as the arrows show on the board."),
    "coach.engineNone": ("{n} não tem jogada", "{n} has no play"),
    "coach.engineDoubles": ("{n} dobra para {v}", "{n} doubles to {v}"),
    "coach.answerDouble": ("{p}: aceita ou recusa? Toque em Aceitar ou Recusar, ao lado.",
                           "{p}: take or drop? Touch Take or Drop, beside."),
    "coach.take": ("Aceitar", "Take"),
    "coach.drop": ("Recusar", "Drop"),
    "coach.against": ("Contra o GNU Backgammon ({l})", "Against GNU Backgammon ({l})"),
    "coach.takebackSetting": ("Os dois combinaram: um erro pode voltar depois do lance",
                              "Both agreed: a mistake may be taken back after the roll"),
    "coach.versusGo": ("Jogar contra o GNU Backgammon", "Play against GNU Backgammon"),
    "coach.versusStop": ("Parar o jogo contra o GNU Backgammon", "Stop playing against GNU Backgammon"),
    "coach.versusSides.dark": ("ele com as escuras", "it plays dark"),
    "coach.versusSides.light": ("ele com as claras", "it plays light"),
    "coach.versusLevels.beginner": ("iniciante", "beginner"),
    "coach.versusLevels.casual": ("casual", "casual"),
    "coach.versusLevels.intermediate": ("intermediário", "intermediate"),
    "coach.versusLevels.advanced": ("avançado", "advanced"),
    "coach.versusLevels.expert": ("especialista", "expert"),
    "coach.versusLevels.worldclass": ("classe mundial", "world class"),
    "coach.versusLevels.supremo": ("supremo", "supremo"),
    "coach.versusLevels.grandmaster": ("grande mestre", "grandmaster"),
    "coach.pin": ("PIN", "PIN"),
    "coach.pinLabel": ("PIN (para mudar)", "PIN (to change them)"),
    # The camera's calibration page (calibrate.js): the corners, the markers, what the camera learnt (issue 33).
    "calibrate.title": ("Calibração da câmera", "Camera calibration"),
    "calibrate.hint": ("Toque nos cantos do tabuleiro: {corner}", "Tap the board's corners: {corner}"),
    "calibrate.corners.0": ("superior esquerdo", "top left"),
    "calibrate.corners.1": ("superior direito", "top right"),
    "calibrate.corners.2": ("inferior direito", "bottom right"),
    "calibrate.corners.3": ("inferior esquerdo", "bottom left"),
    "calibrate.done": ("pronto", "done"),
    "calibrate.found": ("marcador encontrado", "marker found"),
    "calibrate.missing": ("marcador faltando", "marker missing"),
    "calibrate.saved": ("Salvo.", "Saved."),
    "calibrate.none": ("Nenhuma câmera conectada.", "No camera connected."),
    "calibrate.learnt": ("Peças", "Checkers"),
    "calibrate.nothing": ("Nada aprendido ainda: mostre a posição inicial.", "Nothing learnt yet: show the starting position."),
    "calibrate.from.start": ("posição inicial", "starting position"),
    "calibrate.from.empty": ("tabuleiro vazio", "empty board"),
    "calibrate.fromWord": ("Aprendido:", "Learnt:"),
    "calibrate.empty": ("{n} {n:casa vazia|casas vazias}", "{n} empty {n:point|points}"),
    "calibrate.reading": ("Certeza por casa (%): {s} de 24 {s:segura|seguras}", "Sureness per point (%): {s} of 24 sure"),
    "calibrate.doubt": ("{d} em dúvida", "{d} in doubt"),
    "calibrate.unsure": ("{u} {u:incerta|incertas}", "{u} unsure"),
    "calibrate.advice": ("Veja a luz e o ângulo da câmera.", "Check the light and the camera's angle."),
    "calibrate.learnStart": ("Aprender: posição inicial", "Learn: starting position"),
    "calibrate.learnEmpty": ("Aprender: tabuleiro vazio", "Learn: empty board"),
    "calibrate.learning": ("Aprendendo…", "Learning…"),
    "calibrate.learntOk": ("Aprendido.", "Learnt."),
    "calibrate.pin": ("PIN", "PIN"),
    "calibrate.back": ("← quiosque", "← kiosk"),
    "calibrate.notes.clicked": ("Tabuleiro encontrado pelos cantos tocados.", "Board found by the tapped corners."),
    "calibrate.notes.markers": ("Tabuleiro encontrado pelos marcadores ArUco.", "Board found by the ArUco markers."),
    "calibrate.notes.not_found": ("Tabuleiro não encontrado: toque nos seus quatro cantos.",
                                  "Board not found: tap its four corners."),
    "calibrate.notes.simulated": ("Câmera simulada: os cantos vêm do desenho.", "Simulated camera: corners from the drawing."),
    # The broadcast's overlay (club/static/overlay.js, for a stream), besides the match's own words above.
    "overlay.table": ("Mesa {t}", "Table {t}"),
    "overlay.pips": ("{n} {n:casa|casas}", "{n} {n:pip|pips}"),
    "overlay.waiting": ("aguardando a partida", "waiting for the match"),
    "overlay.over": ("fim da partida", "match over"),
    # The teacher's table (drills.js, issue 38): students, drills set up on the board, the pip count's pad, the cards.
    "drills.title": ("Aula", "Lesson"),
    "drills.create": ("Novo aluno", "New student"),
    "drills.namePh": ("Nome do aluno", "Student's name"),
    "drills.pips": ("Contagem de casas", "Pip count"),
    "drills.mistakes": ("Meus erros ({n} para hoje)", "My mistakes ({n} due today)"),
    "drills.mistakesTitle": ("Meus erros", "My mistakes"),
    "drills.setup": ("Montar posição", "Set up a position"),
    "drills.answers": ("{n} {n:resposta|respostas}", "{n} {n:answer|answers}"),
    "drills.due": ("{n} para hoje", "{n} due today"),
    "drills.setupStage": ("Monte a posição: {n} {n:peça|peças} a mover", "Set up the position: {n} {n:checker|checkers} to move"),
    "drills.noCamera": ("Esperando a câmera ver o tabuleiro…", "Waiting for the camera to see the board…"),
    "drills.pipsStage": ("Conte as casas que faltam: claras e escuras", "Count the pips: light and dark"),
    "drills.playStage": ("Jogue {dice} no tabuleiro (as {side} jogam)", "Play {dice} on the board ({side} to play)"),
    "drills.done": ("Pronto", "Done"),
    "drills.light": ("Claras", "Light"),
    "drills.dark": ("Escuras", "Dark"),
    "drills.ok": ("OK", "OK"),
    "drills.del": ("⌫", "⌫"),
    "drills.again": ("Outro", "Another"),
    "drills.right": ("Certo!", "Right!"),
    "drills.wrong": ("Ainda não", "Not yet"),
    "drills.counts": ("Contagem certa: claras {l}, escuras {d}", "The counts: light {l}, dark {d}"),
    "drills.given": ("Você disse: {l} e {d}", "You said: {l} and {d}"),
    "drills.seconds": ("Tempo: {s} s", "Time: {s} s"),
    "drills.method": ("{side}, casa × peças:", "{side}, point × checkers:"),
    "drills.keith": ("Contagem de Keith: claras {l}, escuras {d}. As claras {double}; as escuras {take}.",
                     "Keith count: light {l}, dark {d}. Light {double}; dark {take}."),
    "drills.doubles.yes": ("dobram", "doubles"),
    "drills.doubles.no": ("não dobram", "does not double"),
    "drills.takes.yes": ("aceitam", "takes"),
    "drills.takes.no": ("recusam", "drops"),
    "drills.by.gnubg": ("O GNU Backgammon", "GNU Backgammon"),
    "drills.by.keith": ("A regra de Keith", "Keith's rule"),
    "drills.truth": ("{by}: as claras {double}; as escuras {take}.", "{by}: light {double}; dark {take}."),
    "drills.keithRule": ("Regra de Keith: some 1/7 à contagem de quem rola; dobre se ela passar a do adversário em até "
                         "4, aceite se passar em 2 ou mais.",
                         "Keith's rule: add 1/7 to the roller's count; double if it exceeds the opponent's by 4 or "
                         "less, take if it exceeds it by 2 or more."),
    "drills.cardRight": ("Certo! {played} é a melhor jogada. A carta vai para a caixa {box}.",
                         "Right! {played} is the best play. The card moves to box {box}."),
    "drills.cardWrong": ("Ainda não: a melhor jogada é {best} (você jogou {played}; na partida, {was}). A carta volta à "
                         "caixa 1 e aparece amanhã.",
                         "Not yet: the best play is {best} (you played {played}; in the match, {was}). The card goes "
                         "back to box 1, due tomorrow."),
    "drills.learnt": ("Aprendida: não volta mais.", "Learnt: it will not come back."),
    "drills.more": ("… e mais {n} {n:passo|passos}", "… and {n} more {n:step|steps}"),
    "drills.setupDone": ("A posição está montada.", "The position is set up."),
    "drills.side.light": ("claras", "light"),
    "drills.side.dark": ("escuras", "dark"),
    "drills.opening": ("Aberturas", "Openings"),
    "drills.reply": ("As escuras abriram com {dice}: {play}.", "Dark opened with {dice}: {play}."),
    "drills.openingBest": ("A melhor jogada do treinador: {b}.", "The coach's best play: {b}."),
    "drills.bearoff": ("Retiradas", "Bear-offs"),
    "drills.cube": ("Cubo nas corridas", "Cube in races"),
    "drills.cubeStage": ("Decida o cubo nesta corrida", "Decide the cube in this race"),
    "drills.qDouble": ("As claras dobram?", "Does light double?"),
    "drills.qTake": ("As escuras aceitam?", "Does dark take?"),
    "drills.double": ("Dobrar", "Double"),
    "drills.noDouble": ("Não dobrar", "No double"),
    "drills.take": ("Aceitar", "Take"),
    "drills.drop": ("Recusar", "Drop"),
    "drills.recorded": ("partida {m}, lance {n}", "match {m}, move {n}"),
    "drills.cardDouble": ("As {side} dobram?", "Does {side} double?"),
    "drills.cardTake": ("As {side} aceitam a dobra?", "Does {side} take the double?"),
    "drills.cubeAt": ("Cubo em {v}", "Cube at {v}"),
    "drills.cubeAtScore": ("; placar claras {l}, escuras {d}, partida de {n} {n:ponto|pontos}",
                           "; score light {l}, dark {d}, {n}-point match"),
    "drills.decision.double": ("dobrar", "double"),
    "drills.decision.no_double": ("não dobrar", "no double"),
    "drills.decision.take": ("aceitar", "take"),
    "drills.decision.pass": ("recusar", "pass"),
    "drills.cubeCardRight": ("Certo! {best} é o certo. A carta vai para a caixa {box}.",
                             "Right! {best} is right. The card moves to box {box}."),
    "drills.cubeCardWrong": ("Ainda não: o certo é {best} (na partida: {was}). A carta volta à caixa 1 e aparece "
                             "amanhã.",
                             "Not yet: the right answer is {best} (in the match: {was}). The card goes back to box "
                             "1, due tomorrow."),
    # The clock, the illegal play's answer and the dice statistics page (clock.js, dice.js; issue 21).
    "clock.clock": ("Relógio", "Clock"),
    "clock.delay": ("atraso {s} s", "delay {s} s"),
    "clock.flag": ("Bandeira caiu", "Flag fell"),
    "clock.press": ("Apertar o relógio", "Press the clock"),
    "clock.pressHint": ("{p}: toque no seu relógio ao terminar a jogada", "{p}: touch your clock when your play is done"),
    "clock.accept": ("Aceitar a jogada", "Accept the play"),
    "clock.correct": ("Pedir correção", "Ask for a correction"),
    "clock.answerBy": ("{p}: aceitar a jogada ilegal ou pedir correção?", "{p}: accept the illegal play or have it corrected?"),
    "clock.correctOnly": ("{p}: peça a correção da jogada ilegal", "{p}: ask for the illegal play to be corrected"),
    "clock.ruleSet": ("Regras", "Rules"),
    "clock.ruleSets.default": ("padrão (sem relógio)", "default (no clock)"),
    "clock.ruleSets.casual": ("Casual (sem relógio)", "Casual (no clock)"),
    "clock.ruleSets.tournament_usbgf": ("Torneio EUA (2 min/ponto + 12 s)", "US tournament (2 min/point + 12 s)"),
    "clock.ruleSets.tournament_ukbgf": ("Torneio Reino Unido (2 min/ponto + 12 s)", "UK tournament (2 min/point + 12 s)"),
    "clock.ruleSets.lesson": ("Aula (sem relógio)", "Lesson (no clock)"),
    "clock.clockLbl": ("Relógio", "Clock"),
    "clock.clocks.default": ("o das regras", "the rules' own"),
    "clock.clocks.60": ("1 min/ponto + 12 s", "1 min/point + 12 s"),
    "clock.clocks.120": ("2 min/ponto + 12 s", "2 min/point + 12 s"),
    "clock.clocks.180": ("3 min/ponto + 12 s", "3 min/point + 12 s"),
    "clock.diceTitle": ("Os dados são justos?", "Are the dice fair?"),
    "clock.life": ("Desde sempre", "All time"),
    "clock.day": ("Hoje", "Today"),
    "clock.match": ("Esta partida", "This match"),
    "clock.rolls": ("{n} {n:lançamento|lançamentos}", "{n} {n:roll|rolls}"),
    "clock.cocked": ("{n} {n:inclinado|inclinados}", "{n} cocked"),
    "clock.rerolls": ("{n} {n:relançado|relançados}", "{n} re-rolled"),
    "clock.die": ("Dado {n}", "Die {n}"),
    "clock.doubles": ("Duplas", "Doubles"),
    "clock.expected": ("esperado", "expected"),
    "clock.pairs": ("Pares (36)", "Pairs (36)"),
    "clock.fair": ("como dados justos", "like fair dice"),
    "clock.doubtful": ("duvidoso", "doubtful"),
    "clock.unfair": ("NÃO parecem justos", "NOT like fair dice"),
    "clock.few": ("Poucos lançamentos: só um dado muito viciado aparece.", "Few rolls: only a grossly unfair unit shows."),
    "clock.back": ("Voltar", "Back"),
    "clock.none": ("Nenhum lançamento registrado ainda.", "No rolls recorded yet."),
    "clock.verdict.timeOut": ("Bandeira caiu: acabou o tempo de {p}", "Flag fall: {p} is out of time"),
    "clock.verdict.minuteLeft": ("{p}: um minuto no relógio", "{p}: one minute on the clock"),
    "clock.verdict.secondsLeft": ("{p}: dez segundos no relógio", "{p}: ten seconds on the clock"),
    "clock.verdict.rollFirst": ("Relógio: lance os dados primeiro", "Clock: roll the dice first"),
    "clock.verdict.pressRefused": ("Relógio não aceito: jogada incompleta ou ilegal",
                                   "Clock not taken: the play is unfinished or illegal"),
    "clock.verdict.acceptsIllegal": ("{p} aceita a jogada ilegal", "{p} accepts the illegal play"),
    "clock.verdict.mustCorrect": ("Jogada ilegal: precisa ser corrigida", "Illegal play: it must be corrected"),
    "clock.verdict.asksCorrection": ("{p} pede a correção", "{p} asks for a correction"),
    "clock.verdict.answerNotExpected": ("Não há jogada ilegal esperando resposta", "No illegal play is waiting for an answer"),
    # The table's conventions (R19-R22, issue 36; conventions.js): the claim, the card's lines, the verdicts' heads,
    # Portuguese from the seed on moving the checkers (003).
    "conv.ask": ("{by}: {mover} tocou uma peça da casa {n}? Pela regra, ela precisa ser jogada, se possível.",
                 "{by}: did {mover} touch a checker on point {n}? By the rule it must be played, if possible."),
    "conv.claim": ("Peça tocada: pedir", "Claim touch-move"),
    "conv.cardTitle": ("À mesa (as convenções)", "At the table (the conventions)"),
    "conv.card.touchMove": ("Peça tocada: se o jogador tocar numa peça ela deve ser movida, se possível; se for impossível "
                            "uma jogada, não há penalidade. O adversário pede tocando a casa no tabuleiro da tela.",
                            "Touch-move: a checker touched must be moved, if possible; when it cannot be played there is "
                            "no penalty. The opponent claims by touching the point on the screen's board."),
    "conv.card.touchFree": ("Peça tocada: não vale nestas regras. Pode-se tocar as peças e pensar; só a jogada terminada "
                            "conta.",
                            "Touch-move is not in these rules: players may touch checkers while thinking; only the "
                            "finished play counts."),
    "conv.card.inProgress": ("Um jogador não conclui sua jogada até que coloque sua peça numa casa e a deixe lá: o árbitro "
                             "julga a jogada quando a vez termina (o adversário lança, o relógio, Fim da jogada), não "
                             "antes.",
                             "A play is not complete until the checker is placed and released: the referee judges it "
                             "when the turn ends (the opponent's roll, the clock, End turn), not before."),
    "conv.card.settled": ("O árbitro julga cada tabuleiro parado.", "The referee judges every settled board."),
    "conv.card.forgottenHint": ("Se o jogador deixa uma peça esquecida fora do jogo, não há penalidade: a tela diz onde ela "
                                "vai.",
                                "A checker forgotten off the board carries no penalty: the screen says where it goes."),
    "conv.card.forgottenMissing": ("Uma peça fora do tabuleiro é chamada de peça faltando.",
                                   "A checker off the board is called missing."),
    "conv.card.barFirstHint": ("Se o jogador move peças antes de entrar uma peça capturada, ele pode voltá-las: a tela "
                               "lembra “Entre primeiro a peça da barra”.",
                               "Checkers moved before the one on the bar entered may be moved back: the screen reminds "
                               "“Enter the checker on the bar first”."),
    "conv.card.barFirstAlone": ("Se o jogador move peças antes de entrar uma peça capturada, ele pode voltá-las: a tela "
                                "lembra “Entre primeiro a peça da barra”, só para ele, e nada vai ao adversário nem ao "
                                "diretor enquanto a vez está aberta.",
                                "Checkers moved before the one on the bar entered may be moved back: the screen reminds "
                                "“Enter the checker on the bar first”, to the mover alone; nothing goes to the opponent "
                                "or the director while the turn is open."),
    "conv.card.barFirstIllegal": ("Mover antes de entrar a peça da barra é chamado de jogada ilegal na hora.",
                                  "Moving before entering from the bar is called illegal at once."),
    "conv.verdict.upheld": ("Peça tocada: {p} joga uma peça da casa {point}", "Touch-move: {p} must play from point {point}"),
    "conv.verdict.noPenalty": ("Peça tocada na casa {point}: não dá para jogá-la, sem penalidade",
                               "Touched checker on point {point}: it cannot be played, no penalty"),
    "conv.verdict.ignored": ("Peça tocada não jogada: {p}, casa {point}", "Touch-move ignored: {p}, point {point}"),
    "conv.verdict.notInRules": ("Peça tocada: não vale nestas regras", "Touch-move is not in these rules"),
    "conv.verdict.notExpected": ("Peça tocada: só o adversário pede, durante a jogada",
                                 "Touch-move: only the opponent claims, during the play"),
    "conv.verdict.seen": ("Uma peça de {p} saiu da casa {point} e voltou", "A checker of {p} left point {point} and came back"),
    "conv.verdict.barFirst": ("Entre primeiro a peça da barra", "Enter the checker on the bar first"),
    "conv.verdict.offToBar": ("Peça fora do tabuleiro: vai para a barra", "Checker off the board: it goes on the bar"),
    "conv.verdict.offToPoint": ("Peça fora do tabuleiro: volta para a casa {point}",
                                "Checker off the board: it goes back on point {point}"),
    "conv.verdict.offPutBack": ("Peça fora do tabuleiro: ponha de volta", "Checker off the board: put it back"),
    # the club director's page (club/static/director.js): the league's link through the bridge it watches (issue 40)
    "director.league.connected": ("liga: conectada", "league: connected"),
    "director.league.reconnecting": ("liga: reconectando desde {t}", "league: reconnecting since {t}"),
    "director.league.restarted": ("ponte reiniciada {n} {n:vez|vezes}", "bridge restarted {n} {n:time|times}"),
}

# The server's refusals come from Python in English (kiosk/coach.py, kiosk/pin.py, the API's checks); the
# Portuguese page says them from here, matched by their beginning (a JavaScript pattern; $1 is its first group).
SERVER_SENTENCES: tuple[tuple[str, str], ...] = (
    (r"^cube advice is given before a roll or after a double, not now",
     "O conselho de cubo é dado antes de lançar os dados ou depois de uma dobra, não agora."),
    (r"^there is no roll to show plays for", "Não há dados lançados para mostrar jogadas: lancem os dados primeiro."),
    (r"^no player is on roll yet", "Ainda não há jogador da vez."),
    (r"^the coach is off in tournament mode",
     "O treinador fica desligado no modo torneio: sem dicas, avaliações nem revisão até o fim da partida."),
    (r"^the coach knows backgammon only",
     "O treinador só conhece o gamão: o GNU Backgammon não tem este jogo; o árbitro continua julgando cada jogada."),
    (r"^there is no play to take back now.*",
     "Não há jogada para voltar agora: só uma jogada que o treinador avisou ou chamou de erro, enquanto o "
     "adversário só lançou, com a volta combinada."),
    (r"^the coach is switched off in this kiosk's settings.*",
     "O treinador está desligado na configuração do quiosque (coach = false): ponha coach = true e reinicie o "
     "quiosque."),
    (r"^the coach is not running$", "O treinador não está funcionando."),
    (r"^GNU Backgammon is not installed.*",
     "O GNU Backgammon não está instalado: instale com 'sudo apt install gnubg' e tente de novo."),
    (r"^the guide \(docs\/guia-do-professor\.md\) is not in this installation$",
     "O guia do professor não está nesta instalação."),
    (r"^wrong PIN$", "PIN errado."),
    (r"^no PIN has been set yet.*", "Ainda não há PIN: defina um primeiro."),
    (r"^this action needs the PIN.*", "Esta ação precisa do PIN: digite-o."),
    (r"^too many wrong PINs from this device: try again in (\d+) s$",
     "Muitos PINs errados neste aparelho: tente de novo em $1 s."),
    (r"^one PIN at a time from this device.*", "Um PIN de cada vez: aguarde a resposta."),
    (r"^pin: String should match pattern.*", "O PIN precisa ter de 4 a 12 dígitos."),
    (r"^GNU Backgammon has not doubled.*", "O GNU Backgammon não dobrou: não há dobra dele para responder agora."),
)


def fill(text: str, **params: Any) -> str:
    """The entry with its placeholders filled, as the page fills them: ``{name}`` the value (left as it is when
    not given), ``{n:one|many}`` the noun agreeing with ``n``.

    >>> fill("{n} {n:jogo|jogos}", n=0), fill("Joga: {p}", p="Ana"), fill("{x}")
    ('0 jogos', 'Joga: Ana', '{x}')
    """
    def one(m: re.Match[str]) -> str:
        key, single, many = m.group(1), m.group(2), m.group(3)
        if single is None:
            return str(params[key]) if key in params else m.group(0)
        return single if params.get(key) == 1 else many
    return PLACEHOLDER.sub(one, text)


def placeholders(text: str) -> set[str]:
    """The names an entry fills in ("{p} ganha {n} {n:ponto|pontos}" -> {"p", "n"})."""
    return {m.group(1) for m in PLACEHOLDER.finditer(text)}


def page_words() -> dict[str, Any]:
    """The table as the page reads it: {"pt": {key: words}, "en": {...}, "server": [[pattern, pt], ...]}."""
    return {"pt": {k: pt for k, (pt, _) in PAGE_WORDS.items()}, "en": {k: en for k, (_, en) in PAGE_WORDS.items()},
            "server": [list(pair) for pair in SERVER_SENTENCES]}


@functools.cache
def page_words_js() -> str:
    """The table as a JavaScript module (served as words.js, imported by kiosk/static/i18n.js)."""
    return ("// Generated from core/page_words.py (the players' screen's words, pt and en): edit them there.\n"
            f"export const WORDS = {json.dumps(page_words(), ensure_ascii=False, indent=0, sort_keys=True)};\n")


def page_words_etag() -> str:
    """The served module's entity tag: the same words, the same tag (a browser keeps the module until it changes)."""
    return '"' + hashlib.sha256(page_words_js().encode("utf-8")).hexdigest()[:20] + '"'


def words_reply(if_none_match: str | None) -> tuple[int, str, dict[str, str]]:
    """GET words.js for both servers (the kiosk's /static/words.js, the director's /kiosk/words.js): (status, body,
    headers). Cacheable: the browser asks again at each load (no-cache) and is told 304, without the body, while
    its copy's tag is the table's."""
    tag = page_words_etag()
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if if_none_match and tag in [t.strip() for t in if_none_match.split(",")]:
        return 304, "", headers
    return 200, page_words_js(), headers


__all__ = ["PAGE_WORDS", "SERVER_SENTENCES", "fill", "page_words", "page_words_etag", "page_words_js", "placeholders",
           "words_reply"]
