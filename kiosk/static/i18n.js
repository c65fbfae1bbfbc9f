// Every word on the players' screen, Brazilian Portuguese and English, in one table. Portuguese in the seeds'
// words (shared/seeds; core/messages.py): casa, peça, setor interno, barra, retirar, fora, dobradinha, cubo, and the
// results "simples", "gamão" (the double game) and "gamão triplo" (the triple game). Verdict names follow
// core/referee; an unknown name still shows (amber, with the referee's own explanation) rather than a blank
// banner. No rule code (R01-R32) ever reaches the players' screen: noRuleCodes() takes them out of the referee's
// sentences, and a rule's own words are one touch away (the "Regras" card).
const dice = (d) => (d || []).join("-");

// A play as written on the Portuguese page: the seeds' "barra" and "fora" for the bar and borne off ("barra/23",
// "6/fora"), and Russian backgammon's entry from off the board "fora/23" ("in/23"); English keeps the notation
// ("bar/23", "6/off", "in/23"). core.messages.pt_play does the same for the server's sentences.
export function playText(lang, play) {
  const text = String(play ?? "");
  return lang === "en" ? text
    : text.replace(/\bbar(?=\/)/g, "barra").replace(/\bin(?=\/)/g, "fora").replace(/\/off\b/g, "/fora");
}

// Numbers as the language writes them (0,026 in Portuguese, 0.026 in English).
export function number(lang, x, digits) {
  if (x === null || x === undefined || x === "") return "";
  const opts = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang === "en" ? "en-GB" : "pt-BR", opts).format(x);
}

// The referee's sentences name their rule for the docs ("(R31)", "(Plakoto, R30)"): never on the players' screen.
export function noRuleCodes(text) {
  return String(text || "").replace(/,\s*R\d\d\b\)/g, ")").replace(/\s*\(R\d\d\)/g, "").replace(/\s*\bR\d\d\b/g, "");
}

const HOW = {
  pt: { single: "simples", gammon: "gamão", backgammon: "gamão triplo", drop: "dobra recusada", resign: "desistência",
        mother: "mãe presa", draw: "empate", time_out: "tempo esgotado" },
  en: { single: "single game", gammon: "gammon", backgammon: "backgammon", drop: "double dropped", resign: "resigned",
        mother: "mother pinned", draw: "draw", time_out: "out of time" },
};

export const TEXT = {
  pt: {
    title: "Gamão", light: "Claras", dark: "Escuras", score: "Placar", matchTo: (n) => `Partida de ${n} ${n === 1 ? "ponto" : "pontos"}`,
    money: "Jogo valendo dinheiro", game: (n) => `Jogo ${n}`, crawford: "Crawford", postCrawford: "Pós-Crawford",
    dice: "Dados", cube: "Cubo", centred: "no centro", owns: (p) => `de ${p}`, offered: (p, v) => `${p} dobra para ${v}`,
    noCube: "sem cubo (Crawford)", pips: "Contagem", moves: "Jogadas", export: "Exportar", noPlay: "não joga",
    toPlay: (p) => `Joga: ${p}`, rollAgain: (p) => `Lança de novo: ${p}`, unknown: "Aviso do árbitro",
    resigns: (p, v) => `${p} desiste (${["", "simples", "gamão", "gamão triplo"][v] || v}): aceita?`,
    cocked: "Dado inclinado: lance de novo", noRoll: "—",
    connecting: "Conectando…", offline: "Sem conexão com o árbitro; tentando de novo…",
    tournament: "Modo torneio", calibrate: "Calibrar câmera", controls: "Controle", coach: "Treinador",
    rules: "Regras", review: "Revisão", language: "English", chouette: "Chouette", newChouette: "Nova chouette…",
    voiceMissing: "Sem voz: o espeak-ng não está instalado. O jogo continua só na tela.",
    phase: {
      opening: "Lançamento inicial: cada jogador lança um dado", awaiting_roll: "Esperando os dados",
      moving: "Jogada em andamento", cube_offered: "Cubo oferecido: aceitar ou recusar?",
      game_over: "Fim do jogo", match_over: "Fim da partida",
    },
    verdicts: {
      legal: (v) => `Jogada legal${v.play ? ": " + v.play : ""}`,
      in_progress: (v) => `Jogada em andamento${v.play ? ": " + v.play : ""}`,
      illegal: (v) => (v.reason === "new_setup_mid_game" ? "Tabuleiro montado para um novo jogo?"
        : `Jogada ilegal${v.play ? ": " + v.play : ""}`),
      abandoned: () => "Jogo deixado inacabado, sem pontos",
      unplayed_die: (v) => ((v.unplayed || []).length > 1 ? "Faltou jogar os dados" : "Faltou jogar um dado"),
      reroll: (v) => ({ cocked_die: "Dado inclinado: lance de novo", tied_opening: "Dados iguais: lance de novo",
                        roll_out_of_turn: "Lançamento fora de hora" })[v.reason] || "Lance de novo",
      opening: (v, n) => `${n(v.side)} começa com ${dice(v.dice)}`,
      roll: (v, n) => `${n(v.side)} lançou ${dice(v.dice)}`,
      play: (v, n) => (v.legal === false ? `${n(v.side)} jogou ${v.play || "nada"}: jogada ilegal, mas fica`
        : v.play ? `${n(v.side)} jogou ${v.play}` : `${n(v.side)} não pode jogar ${dice(v.dice)}: perde a vez`),
      uncertain: (v) => (v.pending ? "Jogada a confirmar pelos próximos tabuleiros: o jogo continua"
        : "Não vejo bem o tabuleiro: acertem as peças"),
      cube: (v, n) => ({ double: `${n(v.side)} dobra para ${v.value}`, take: `${n(v.side)} aceita: o cubo vale ${v.value}`,
                         drop: `${n(v.side)} recusa a dobra`, beaver: `${n(v.side)} castor: ${v.value}`,
                         raccoon: `${n(v.side)} guaxinim: ${v.value}` })[v.action] || "Cubo",
      game_over: (v, n) => (v.how === "draw" ? "Fim do jogo: empate, nenhum ponto"
        : `${n(v.winner)} ganha ${v.points} ${v.points === 1 ? "ponto" : "pontos"}${HOW.pt[v.how] ? ` (${HOW.pt[v.how]})` : ""}`),
      match_over: (v, n) => `${n(v.winner)} ganha a partida!`,
      error: () => "O árbitro não conseguiu avaliar este evento (veja o log)",
    },
    // Why a game ended, in a sentence under the result (who won what and why).
    why: (v, n, other) => ({
      single: `${n(v.winner)} retirou todas as peças; ${n(other)} já tinha retirado alguma: vitória simples.`,
      gammon: `${n(v.winner)} retirou todas as peças antes de ${n(other)} retirar alguma: gamão, vale o dobro.`,
      backgammon: `${n(other)} não retirou nenhuma peça e ainda tinha peça na barra ou no setor interno de ${n(v.winner)}: gamão triplo, vale o triplo.`,
      drop: `${n(other)} recusou a dobra e perdeu o valor do cubo.`,
      resign: `${n(other)} desistiu e ${n(v.winner)} aceitou.`,
      mother: `${n(v.winner)} prendeu a mãe (a última peça da casa de partida) de ${n(other)}.`,
      draw: "As duas mães estão presas: ninguém ganha.",
      time_out: `${n(other)} ficou sem tempo (a bandeira caiu).`,
    })[v.how] || "",
    nextGame: "Arrumem as peças para o próximo jogo.",
    summaryTitle: "Fim da partida", summaryBtn: "Resumo", gamesPlayed: (n) => `${n} ${n === 1 ? "jogo" : "jogos"}`,
    summaryLinks: "A revisão (com o treinador) e os arquivos da partida:",
    pinTitle: "PIN de controle", pinSet: "Definir PIN (4 a 12 dígitos)", pinEnter: "Digite o PIN",
    doubleBtn: "Dobrar", takeBtn: "Aceitar", dropBtn: "Recusar", undoBtn: "Desfazer", endTurnBtn: "Fim da jogada",
    ackBtn: "Dado visto", newMatchBtn: "Nova partida", lengthLbl: "Pontos", close: "Fechar", variantLbl: "Jogo",
    playersLbl: "Jogadores", lightName: "Claras (nome)", darkName: "Escuras (nome)", newMatchOpen: "Nova partida…",
    confirm: (what) => `Confirmar: ${what}?`, cancel: "Cancelar", nothingNow: "Nada a fazer agora: joguem.",
    matchOverNow: "A partida acabou: para jogar de novo, comece uma nova partida.",
    gameNames: { backgammon: "Gamão", plakoto: "Plakoto", russian: "Gamão russo", jacquet: "Jacquet" },
    resignBtn: ["Desistir (simples)", "Desistir (gamão)", "Desistir (gamão triplo)"], acceptBtn: "Aceita a desistência",
    rejectBtn: "Recusa a desistência", newGameBtn: "Novo jogo",
    variants: { plakoto: "Plakoto", russian: "Gamão russo", jacquet: "Jacquet" },
    // Two lines of the panel at 800x480 (the doubles already played are in the move list).
    chain: (c) => (c.link === "complement" ? `Complementar: o ${c.dice[0]} quatro vezes, sem lançar`
      : c.link === "double" ? `Dobradinha ${c.dice.join("-")}: quatro vezes o ${c.dice[0]}, depois o ${7 - c.dice[0]}`
      : "Cadeia completa: lance de novo"),
    pinned: (list) => `Presas: ${list}`, waiting: (l, d) => `Por entrar: ${l}, ${d}`,
    messenger: (who) => `Mensageiro chegou, todas as peças andam: ${who}`,
    messengerNone: "Mensageiros a caminho: só eles andam",
    rulesTitle: "Regras deste jogo",
    rulesCard: {
      backgammon: ["Cada jogador move 15 peças da casa 24 para a casa 1, com os dois dados.",
        "Uma casa com duas ou mais peças do adversário está fechada. Uma peça sozinha pode ser capturada: vai para a barra e precisa entrar no setor interno do adversário antes de qualquer outra jogada.",
        "Dobradinha (dados iguais): joga-se quatro vezes o número.", "É obrigatório jogar os dois dados quando possível; se só um dá, o maior.",
        "Com todas as peças no setor interno, retire-as. Quem retira todas primeiro ganha: simples (1), gamão (2) se o outro não retirou nenhuma, gamão triplo (3) se ele ainda tem peça na barra ou no seu setor interno.",
        "O cubo dobra o valor do jogo: quem recusa a dobra perde o valor atual."],
      plakoto: ["Todas as 15 peças começam na casa 24 de cada jogador; andam em sentidos opostos.",
        "Ninguém captura: parar sobre uma peça sozinha do adversário a prende. A peça presa não anda até a de cima sair.",
        "Prender a mãe (a última peça que ficou na casa de partida) ganha o jogo; se as duas mães estão presas, é empate.",
        "Não há barra nem entrada; retira-se como no gamão."],
      russian: ["As peças começam fora do tabuleiro e entram pelo mesmo setor; os dois andam no mesmo sentido.",
        "É preciso entrar pelo menos duas peças antes de mover uma que já entrou.",
        "Dobradinha: joga-se quatro vezes o número, depois a dobradinha complementar (o 7 menos o número), e lança-se de novo.",
        "Dobradinha no primeiro lance de cada um não vale: lance de novo."],
      jacquet: ["As 15 peças começam numa só casa; os dois andam no mesmo sentido, em lados opostos.",
        "Uma peça sozinha já fecha a casa: não há captura.",
        "Só o mensageiro (a primeira peça) anda até chegar à última parte do percurso; depois as outras podem sair.",
        "Não se pode ocupar seis casas seguidas antes de ocupar as duas últimas do percurso."],
    },
  },
  en: {
    title: "Gamão", light: "Light", dark: "Dark", score: "Score", matchTo: (n) => `Match to ${n} ${n === 1 ? "point" : "points"}`,
    money: "Money game", game: (n) => `Game ${n}`, crawford: "Crawford", postCrawford: "Post-Crawford",
    dice: "Dice", cube: "Cube", centred: "centred", owns: (p) => `${p}'s`, offered: (p, v) => `${p} doubles to ${v}`,
    noCube: "no cube (Crawford)", pips: "Pips", moves: "Moves", export: "Export", noPlay: "no play",
    toPlay: (p) => `${p} to play`, rollAgain: (p) => `${p} rolls again`, unknown: "The referee says",
    resigns: (p, v) => `${p} resigns (${["", "single", "gammon", "backgammon"][v] || v}): accept?`,
    cocked: "Cocked die: roll again", noRoll: "—",
    connecting: "Connecting…", offline: "No connection to the referee; retrying…",
    tournament: "Tournament mode", calibrate: "Calibrate camera", controls: "Control", coach: "Coach",
    rules: "Rules", review: "Review", language: "Português", chouette: "Chouette", newChouette: "New chouette…",
    voiceMissing: "No voice: espeak-ng is not installed. Play goes on, on the screen only.",
    phase: {
      opening: "Opening roll: each player rolls one die", awaiting_roll: "Waiting for the dice",
      moving: "Play in progress", cube_offered: "Cube offered: take or drop?",
      game_over: "Game over", match_over: "Match over",
    },
    verdicts: {
      legal: (v) => `Legal play${v.play ? ": " + v.play : ""}`,
      in_progress: (v) => `Play in progress${v.play ? ": " + v.play : ""}`,
      illegal: (v) => (v.reason === "new_setup_mid_game" ? "Board set up for a new game?"
        : `Illegal play${v.play ? ": " + v.play : ""}`),
      abandoned: () => "Game left unfinished, with no points",
      unplayed_die: (v) => ((v.unplayed || []).length > 1 ? "The dice were left unplayed" : "A die is left unplayed"),
      reroll: (v) => ({ cocked_die: "Cocked die: roll again", tied_opening: "Equal dice: roll again",
                        roll_out_of_turn: "Roll out of turn" })[v.reason] || "Roll again",
      opening: (v, n) => `${n(v.side)} starts with ${dice(v.dice)}`,
      roll: (v, n) => `${n(v.side)} rolled ${dice(v.dice)}`,
      play: (v, n) => (v.legal === false ? `${n(v.side)} played ${v.play || "nothing"}: illegal, but it stands`
        : v.play ? `${n(v.side)} played ${v.play}` : `${n(v.side)} cannot play ${dice(v.dice)}: turn lost`),
      uncertain: (v) => (v.pending ? "Play to be confirmed by the next boards: play goes on"
        : "I cannot see the board clearly: straighten the checkers"),
      cube: (v, n) => ({ double: `${n(v.side)} doubles to ${v.value}`, take: `${n(v.side)} takes: the cube is on ${v.value}`,
                         drop: `${n(v.side)} drops`, beaver: `${n(v.side)} beavers: ${v.value}`,
                         raccoon: `${n(v.side)} raccoons: ${v.value}` })[v.action] || "Cube",
      game_over: (v, n) => (v.how === "draw" ? "Game over: a draw, no points"
        : `${n(v.winner)} wins ${v.points} ${v.points === 1 ? "point" : "points"}${HOW.en[v.how] ? ` (${HOW.en[v.how]})` : ""}`),
      match_over: (v, n) => `${n(v.winner)} wins the match!`,
      error: () => "The referee could not rule on this event (see the log)",
    },
    why: (v, n, other) => ({
      single: `${n(v.winner)} bore off every checker; ${n(other)} had borne some off: a single game.`,
      gammon: `${n(v.winner)} bore off every checker before ${n(other)} bore any off: a gammon, worth double.`,
      backgammon: `${n(other)} bore none off and still had a checker on the bar or in ${n(v.winner)}'s home board: a backgammon, worth triple.`,
      drop: `${n(other)} dropped the double and lost the cube's value.`,
      resign: `${n(other)} resigned and ${n(v.winner)} accepted.`,
      mother: `${n(v.winner)} pinned ${n(other)}'s mother (the last checker on the starting point).`,
      draw: "Both mothers are pinned: nobody wins.",
      time_out: `${n(other)} ran out of time (the flag fell).`,
    })[v.how] || "",
    nextGame: "Set the checkers up for the next game.",
    summaryTitle: "Match over", summaryBtn: "Summary", gamesPlayed: (n) => `${n} ${n === 1 ? "game" : "games"}`,
    summaryLinks: "The review (with the coach) and the match's files:",
    pinTitle: "Control PIN", pinSet: "Set a PIN (4 to 12 digits)", pinEnter: "Enter the PIN",
    doubleBtn: "Double", takeBtn: "Take", dropBtn: "Drop", undoBtn: "Undo", endTurnBtn: "End turn",
    ackBtn: "Die seen", newMatchBtn: "New match", lengthLbl: "Points", close: "Close", variantLbl: "Game",
    playersLbl: "Players", lightName: "Light (name)", darkName: "Dark (name)", newMatchOpen: "New match…",
    confirm: (what) => `Confirm: ${what}?`, cancel: "Cancel", nothingNow: "Nothing to do now: play on.",
    matchOverNow: "The match is over: to play again, start a new match.",
    gameNames: { backgammon: "Backgammon", plakoto: "Plakoto", russian: "Russian backgammon", jacquet: "Jacquet" },
    resignBtn: ["Resign (single)", "Resign (gammon)", "Resign (backgammon)"], acceptBtn: "Accept the resignation",
    rejectBtn: "Reject the resignation", newGameBtn: "New game",
    variants: { plakoto: "Plakoto", russian: "Russian backgammon", jacquet: "Jacquet" },
    chain: (c) => (c.link === "complement" ? `Complementary double: ${c.dice[0]} four times, no roll`
      : c.link === "double" ? `Double ${c.dice.join("-")}: ${c.dice[0]} four times, then ${7 - c.dice[0]}`
      : "Chain complete: roll again"),
    pinned: (list) => `Pinned: ${list}`, waiting: (l, d) => `To enter: ${l}, ${d}`,
    messenger: (who) => `Messenger arrived, every checker moves: ${who}`,
    messengerNone: "Messengers on their way: only they move",
    rulesTitle: "Rules of this game",
    rulesCard: {
      backgammon: ["Each player moves 15 checkers from point 24 to point 1, with both dice.",
        "A point with two or more opposing checkers is closed. A lone checker can be hit: it goes to the bar and must enter in the opponent's home board before any other move.",
        "Doubles: the number is played four times.", "Both dice must be played when possible; if only one can be, the larger.",
        "With every checker in the home board, bear them off. The first to bear off all wins: single (1), gammon (2) if the other bore none off, backgammon (3) if they still have a checker on the bar or in your home board.",
        "The cube doubles the game's value: whoever drops a double loses the current value."],
      plakoto: ["All 15 checkers start on each player's point 24; they move in opposite directions.",
        "Nobody hits: landing on a lone opposing checker pins it. A pinned checker cannot move until the one on top leaves.",
        "Pinning the mother (the last checker left on the starting point) wins the game; both mothers pinned is a draw.",
        "No bar, no entering; bearing off as in backgammon."],
      russian: ["Checkers start off the board and enter through the same quarter; both sides move the same way.",
        "At least two checkers must be entered before an entered one moves on.",
        "Doubles: the number four times, then the complementary double (7 minus the number), then roll again.",
        "A double on each player's first roll does not count: roll again."],
      jacquet: ["All 15 checkers start on one point; both sides move the same way, from opposite sides.",
        "A single checker closes a point: there is no hitting.",
        "Only the messenger (the first checker) moves until it reaches the last quarter of its route; then the others may leave.",
        "No six points in a row before holding the last two points of the route."],
    },
  },
};

// The server's refusals come from Python in English (kiosk/coach.py, kiosk/pin.py, the API's checks); on the
// Portuguese page they are said in Portuguese from this table (matched by their beginning).
export const SERVER_SENTENCES = [
  [/^cube advice is given before a roll or after a double, not now/, "O conselho de cubo é dado antes de lançar os dados ou depois de uma dobra, não agora."],
  [/^there is no roll to show plays for/, "Não há dados lançados para mostrar jogadas: lancem os dados primeiro."],
  [/^no player is on roll yet/, "Ainda não há jogador da vez."],
  [/^the coach is off in tournament mode/, "O treinador fica desligado no modo torneio: sem dicas, avaliações nem revisão até o fim da partida."],
  [/^the coach knows backgammon only/, "O treinador só conhece o gamão: o GNU Backgammon não tem este jogo; o árbitro continua julgando cada jogada."],
  [/^there is no play to take back now.*/, "Não há jogada para voltar agora: só uma jogada que o treinador avisou ou chamou de erro, enquanto o adversário só lançou, com a volta combinada."],
  [/^the coach is switched off in this kiosk's settings.*/, "O treinador está desligado na configuração do quiosque (coach = false): ponha coach = true e reinicie o quiosque."],
  [/^the coach is not running$/, "O treinador não está funcionando."],
  [/^GNU Backgammon is not installed.*/, "O GNU Backgammon não está instalado: instale com 'sudo apt install gnubg' e tente de novo."],
  [/^the guide \(docs\/guia-do-professor\.md\) is not in this installation$/, "O guia do professor não está nesta instalação."],
  [/^wrong PIN$/, "PIN errado."],
  [/^no PIN has been set yet.*/, "Ainda não há PIN: defina um primeiro."],
  [/^this action needs the PIN.*/, "Esta ação precisa do PIN: digite-o."],
  [/^too many wrong PINs from this device: try again in (\d+) s$/, "Muitos PINs errados neste aparelho: tente de novo em $1 s."],
  [/^one PIN at a time from this device.*/, "Um PIN de cada vez: aguarde a resposta."],
  [/^pin: String should match pattern.*/, "O PIN precisa ter de 4 a 12 dígitos."],
  [/^GNU Backgammon has not doubled.*/, "O GNU Backgammon não dobrou: não há dobra dele para responder agora."],
];

export function serverWords(lang, text) {
  if (lang !== "pt") return text;
  const hit = SERVER_SENTENCES.find(([pattern]) => pattern.test(text));
  return hit ? text.replace(hit[0], hit[1]) : text;
}

// The referee's verdict names (core/referee.py) -> banner colour. Green: the play stands; red: against
// the rules, with the referee's explanation; amber: wait, finish, or roll again.
const COLOUR = { play: (v) => (v.legal === false ? "illegal" : "legal"), in_progress: (v) => (v.complete ? "legal" : "pending"),
  illegal: () => "illegal", unplayed_die: () => "illegal", game_over: () => "legal", match_over: () => "legal" };

export function severity(verdict) {
  const rule = COLOUR[verdict.verdict];
  return rule ? rule(verdict) : "pending";
}

const other = (side) => (side === "light" ? "dark" : "light");

// {head, detail} for the banner. `name(side)` gives the player's name; an unknown verdict still shows.
// `game`: the game_over verdict that came with a match_over (the match's last game: what it was won by, and why).
export function describe(lang, verdict, name, game = null) {
  const t = TEXT[lang];
  let kind = verdict.verdict;
  if (kind === "in_progress" && verdict.complete) kind = "legal";
  const f = t.verdicts[kind];
  // An unknown verdict: the referee's own sentence says what it is; its name (a code) never reaches the screen.
  const head = f ? f(verdict, name) : t.unknown;
  const m = verdict.message;
  let detail = m && typeof m === "object" ? m[lang] || m.en || "" : m || "";
  if (verdict.reason === "point_covered" && detail.includes(": ")) {
    // "Tire o copo da casa 15: não consigo ver ..." (core/messages.py): what to take away, large; why, below.
    const cut = detail.indexOf(": ");
    const rest = detail.slice(cut + 2);
    return { head: detail.slice(0, cut), detail: rest.charAt(0).toUpperCase() + rest.slice(1) };
  }
  if (kind === "game_over") detail = `${t.why(verdict, name, other(verdict.winner))} ${t.nextGame}`.trim();
  if (kind === "match_over") {
    const why = game ? t.why(game, name, other(game.winner)) : "";
    detail = game ? (why ? `${t.verdicts.game_over(game, name)}: ${why}` : t.verdicts.game_over(game, name)) : "";
  }
  // The referee's own sentences say "as claras" where the players have names.
  detail = withNames(lang, noRuleCodes(detail), name);
  return { head: playText(lang, noRuleCodes(head)), detail };
}

// "as claras" / "Light" in the referee's sentences -> with the players' names, when they have names. Portuguese
// keeps the plural its verbs agree with and adds the name ("as claras (Ana) têm"); English says the name.
export function withNames(lang, text, name) {
  const names = { light: name("light"), dark: name("dark") };
  const plain = { light: TEXT[lang].light, dark: TEXT[lang].dark };
  for (const side of ["light", "dark"]) {
    if (!names[side] || names[side] === plain[side]) continue;
    if (lang === "pt") {
      const word = side === "light" ? "claras" : "escuras";
      text = text.replace(new RegExp(`\\b([Aa]s|[DdNn]as) ${word}\\b(?! \\()`, "g"), `$1 ${word} (${names[side]})`);
    } else {
      text = text.replace(new RegExp(`\\b${side}(?=['\\s.,:;]|$)`, "gi"), names[side]);
    }
  }
  return text;
}

// The clock, the illegal-play answer and the dice statistics page (issue 21; kiosk/static/clock.js, dice.js).
export const CLOCK_TEXT = {
  pt: {
    clock: "Relógio", delay: (s) => `atraso ${s} s`, flag: "Bandeira caiu", press: "Apertar o relógio",
    pressHint: (p) => `${p}: toque no seu relógio ao terminar a jogada`,
    accept: "Aceitar a jogada", correct: "Pedir correção", answerBy: (p) => `${p}: aceitar a jogada ilegal ou pedir correção?`,
    correctOnly: (p) => `${p}: peça a correção da jogada ilegal`,
    ruleSet: "Regras", ruleSets: { "": "padrão (sem relógio)", casual: "Casual (sem relógio)",
      tournament_usbgf: "Torneio EUA (2 min/ponto + 12 s)",
      tournament_ukbgf: "Torneio Reino Unido (2 min/ponto + 12 s)", lesson: "Aula (sem relógio)" },
    clockLbl: "Relógio", clocks: { "": "o das regras", 60: "1 min/ponto + 12 s", 120: "2 min/ponto + 12 s",
      180: "3 min/ponto + 12 s" },
    diceTitle: "Os dados são justos?", life: "Desde sempre", day: "Hoje", match: "Esta partida",
    rolls: "lançamentos", cocked: "inclinados", rerolls: "relançados", die: (n) => `Dado ${n}`,
    doubles: "Duplas", expected: "esperado", pairs: "Pares (36)", fair: "como dados justos",
    doubtful: "duvidoso", unfair: "NÃO parecem justos", few: "Poucos lançamentos: só um dado muito viciado aparece.",
    back: "Voltar", none: "Nenhum lançamento registrado ainda.",
    verdicts: {
      time_out: (v, n) => `Bandeira caiu: acabou o tempo de ${n(v.side)}`,
      clock_warning: (v, n) => `${n(v.side)}: ${v.level >= 60 ? "um minuto" : "dez segundos"} no relógio`,
      clock_press_refused: (v) => (v.reason === "roll_first" ? "Relógio: lance os dados primeiro"
        : "Relógio não aceito: jogada incompleta ou ilegal"),
      illegal_play_answer: (v, n) => (v.answer === "accept" ? (v.accepted ? `${n(v.side)} aceita a jogada ilegal`
        : "Jogada ilegal: precisa ser corrigida") : `${n(v.side)} pede a correção`),
      answer_not_expected: () => "Não há jogada ilegal esperando resposta",
    },
  },
  en: {
    clock: "Clock", delay: (s) => `delay ${s} s`, flag: "Flag fell", press: "Press the clock",
    pressHint: (p) => `${p}: touch your clock when your play is done`,
    accept: "Accept the play", correct: "Ask for a correction", answerBy: (p) => `${p}: accept the illegal play or have it corrected?`,
    correctOnly: (p) => `${p}: ask for the illegal play to be corrected`,
    ruleSet: "Rules", ruleSets: { "": "default (no clock)", casual: "Casual (no clock)",
      tournament_usbgf: "US tournament (2 min/point + 12 s)",
      tournament_ukbgf: "UK tournament (2 min/point + 12 s)", lesson: "Lesson (no clock)" },
    clockLbl: "Clock", clocks: { "": "the rules' own", 60: "1 min/point + 12 s", 120: "2 min/point + 12 s",
      180: "3 min/point + 12 s" },
    diceTitle: "Are the dice fair?", life: "All time", day: "Today", match: "This match",
    rolls: "rolls", cocked: "cocked", rerolls: "re-rolled", die: (n) => `Die ${n}`,
    doubles: "Doubles", expected: "expected", pairs: "Pairs (36)", fair: "like fair dice",
    doubtful: "doubtful", unfair: "NOT like fair dice", few: "Few rolls: only a grossly unfair unit shows.",
    back: "Back", none: "No rolls recorded yet.",
    verdicts: {
      time_out: (v, n) => `Flag fall: ${n(v.side)} is out of time`,
      clock_warning: (v, n) => `${n(v.side)}: ${v.level >= 60 ? "one minute" : "ten seconds"} on the clock`,
      clock_press_refused: (v) => (v.reason === "roll_first" ? "Clock: roll the dice first"
        : "Clock not taken: the play is unfinished or illegal"),
      illegal_play_answer: (v, n) => (v.answer === "accept" ? (v.accepted ? `${n(v.side)} accepts the illegal play`
        : "Illegal play: it must be corrected") : `${n(v.side)} asks for a correction`),
      answer_not_expected: () => "No illegal play is waiting for an answer",
    },
  },
};
for (const l of ["pt", "en"]) Object.assign(TEXT[l].verdicts, CLOCK_TEXT[l].verdicts);
Object.assign(COLOUR, { time_out: () => "illegal", clock_press_refused: () => "illegal",
  illegal_play_answer: (v) => (v.accepted ? "legal" : "pending") });

// The table's conventions (R19-R22, issue 36; kiosk/static/conventions.js): the verdicts' heads, the claim's
// confirmation and the Regras card's lines, Portuguese from the seed on moving the checkers (003).
export const CONVENTIONS_TEXT = {
  pt: {
    ask: (by, mover, n) => `${by}: ${mover} tocou uma peça da casa ${n}? Pela regra, ela precisa ser jogada, se possível.`,
    claim: "Peça tocada: pedir", cancel: "Cancelar", cardTitle: "À mesa (as convenções)",
    card: (r) => [
      r.touch_move ? "Peça tocada: se o jogador tocar numa peça ela deve ser movida, se possível; se for impossível uma jogada, não há penalidade. O adversário pede tocando a casa no tabuleiro da tela."
        : "Peça tocada: não vale nestas regras. Pode-se tocar as peças e pensar; só a jogada terminada conta.",
      r.steps === "in_progress" ? "Um jogador não conclui sua jogada até que coloque sua peça numa casa e a deixe lá: o árbitro julga a jogada quando a vez termina (o adversário lança, o relógio, Fim da jogada), não antes."
        : "O árbitro julga cada tabuleiro parado.",
      r.forgotten_checker === "hint" ? "Se o jogador deixa uma peça esquecida fora do jogo, não há penalidade: a tela diz onde ela vai."
        : "Uma peça fora do tabuleiro é chamada de peça faltando.",
      r.bar_first === "hint" ? `Se o jogador move peças antes de entrar uma peça capturada, ele pode voltá-las: a tela lembra "Entre primeiro a peça da barra"${r.point_out === "players_director" ? ", só para ele, e nada vai ao adversário nem ao diretor enquanto a vez está aberta" : ""}.`
        : "Mover antes de entrar a peça da barra é chamado de jogada ilegal na hora.",
    ],
    verdicts: {
      touch_move_upheld: (v, n) => `Peça tocada: ${n(v.side)} joga uma peça da casa ${v.point}`,
      touch_move_no_penalty: (v) => `Peça tocada na casa ${v.point}: não dá para jogá-la, sem penalidade`,
      touch_move_ignored: (v, n) => `Peça tocada não jogada: ${n(v.side)}, casa ${v.point}`,
      touch_move_not_in_rules: () => "Peça tocada: não vale nestas regras",
      touch_move_not_expected: () => "Peça tocada: só o adversário pede, durante a jogada",
      touch_move_seen: (v, n) => `Uma peça de ${n(v.side)} saiu da casa ${v.point} e voltou`,
      bar_first_hint: () => "Entre primeiro a peça da barra",
      checker_off_board: (v) => (v.point === "bar" ? "Peça fora do tabuleiro: vai para a barra"
        : Number.isInteger(v.point) ? `Peça fora do tabuleiro: volta para a casa ${v.point}` : "Peça fora do tabuleiro: ponha de volta"),
    },
  },
  en: {
    ask: (by, mover, n) => `${by}: did ${mover} touch a checker on point ${n}? By the rule it must be played, if possible.`,
    claim: "Claim touch-move", cancel: "Cancel", cardTitle: "At the table (the conventions)",
    card: (r) => [
      r.touch_move ? "Touch-move: a checker touched must be moved, if possible; when it cannot be played there is no penalty. The opponent claims by touching the point on the screen's board."
        : "Touch-move is not in these rules: players may touch checkers while thinking; only the finished play counts.",
      r.steps === "in_progress" ? "A play is not complete until the checker is placed and released: the referee judges it when the turn ends (the opponent's roll, the clock, End turn), not before."
        : "The referee judges every settled board.",
      r.forgotten_checker === "hint" ? "A checker forgotten off the board carries no penalty: the screen says where it goes."
        : "A checker off the board is called missing.",
      r.bar_first === "hint" ? `Checkers moved before the one on the bar entered may be moved back: the screen reminds "Enter the checker on the bar first"${r.point_out === "players_director" ? ", to the mover alone; nothing goes to the opponent or the director while the turn is open" : ""}.`
        : "Moving before entering from the bar is called illegal at once.",
    ],
    verdicts: {
      touch_move_upheld: (v, n) => `Touch-move: ${n(v.side)} must play from point ${v.point}`,
      touch_move_no_penalty: (v) => `Touched checker on point ${v.point}: it cannot be played, no penalty`,
      touch_move_ignored: (v, n) => `Touch-move ignored: ${n(v.side)}, point ${v.point}`,
      touch_move_not_in_rules: () => "Touch-move is not in these rules",
      touch_move_not_expected: () => "Touch-move: only the opponent claims, during the play",
      touch_move_seen: (v, n) => `A checker of ${n(v.side)} left point ${v.point} and came back`,
      bar_first_hint: () => "Enter the checker on the bar first",
      checker_off_board: (v) => (v.point === "bar" ? "Checker off the board: it goes on the bar"
        : Number.isInteger(v.point) ? `Checker off the board: it goes back on point ${v.point}` : "Checker off the board: put it back"),
    },
  },
};
for (const l of ["pt", "en"]) {
  // A hit half made (R20) is a play in progress that says where the hit is landing.
  const inProgress = TEXT[l].verdicts.in_progress;
  const hitting = l === "pt" ? (v) => `Captura em andamento na casa ${v.point}` : (v) => `Hit in progress on point ${v.point}`;
  Object.assign(TEXT[l].verdicts, CONVENTIONS_TEXT[l].verdicts,
    { in_progress: (v, n) => (v.step === "hit" ? hitting(v) : inProgress(v, n)) });
}
Object.assign(COLOUR, { touch_move_ignored: () => "illegal", touch_move_no_penalty: () => "legal" });
