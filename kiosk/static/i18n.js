// Words on the screen, Brazilian Portuguese (the seeds' words: casa, peça, setor interno, bar, retirar,
// dobradinha, cubo; see core/messages.py) and English. Verdict names follow core/referee.py; an unknown name
// still shows (amber, with the referee's own explanation) rather than a blank banner.
const dice = (d) => (d || []).join("-");
const HOW_PT = { gammon: " (gammon)", backgammon: " (backgammon)", drop: " (dobra recusada)", resign: " (desistência)" };
const HOW_EN = { gammon: " (gammon)", backgammon: " (backgammon)", drop: " (double dropped)", resign: " (resigned)" };

export const TEXT = {
  pt: {
    title: "Gamão", light: "Claras", dark: "Escuras", score: "Placar", matchTo: (n) => `Partida de ${n} pontos`,
    money: "Jogo valendo dinheiro", game: (n) => `Jogo ${n}`, crawford: "Crawford", postCrawford: "Pós-Crawford",
    dice: "Dados", cube: "Cubo", centred: "no centro", owns: (p) => `de ${p}`, offered: (p, v) => `${p} dobra para ${v}`,
    noCube: "sem cubo (Crawford)", pips: "Pips", moves: "Jogadas", export: "Exportar", noPlay: "não joga",
    toPlay: (p) => `Joga: ${p}`,
    resigns: (p, v) => `${p} desiste (${["", "simples", "gammon", "backgammon"][v] || v}): aceita?`, cocked: "Dado inclinado: lance de novo", noRoll: "—",
    connecting: "Conectando…", offline: "Sem conexão com o árbitro; tentando de novo…",
    tournament: "Modo torneio", calibrate: "Calibrar câmera", controls: "Controle",
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
      opening: (v, n) => `Começam as ${n(v.side)} com ${dice(v.dice)}`,
      roll: (v, n) => `${n(v.side)} lançou ${dice(v.dice)}`,
      play: (v, n) => (v.legal === false ? `${n(v.side)} jogou ${v.play || "nada"}: jogada ilegal, mas fica (R23)`
        : v.play ? `${n(v.side)} jogou ${v.play}` : `${n(v.side)} não pode jogar ${dice(v.dice)}: perde a vez`),
      uncertain: (v) => (v.pending ? "Jogada a confirmar pelos próximos tabuleiros: o jogo continua"
        : "Não vejo bem o tabuleiro: acertem as peças"),
      cube: (v, n) => ({ double: `${n(v.side)} dobra para ${v.value}`, take: `${n(v.side)} aceita: o cubo vale ${v.value}`,
                         drop: `${n(v.side)} recusa a dobra`, beaver: `${n(v.side)} castor: ${v.value}`,
                         raccoon: `${n(v.side)} guaxinim: ${v.value}` })[v.action] || "Cubo",
      game_over: (v, n) => `${n(v.winner)} ganha ${v.points} ${v.points === 1 ? "ponto" : "pontos"}${HOW_PT[v.how] || ""}`,
      match_over: (v, n) => `${n(v.winner)} ganha a partida!`,
      error: () => "O árbitro não conseguiu avaliar este evento (veja o log)",
    },
    pinTitle: "PIN de controle", pinSet: "Definir PIN (4 a 12 dígitos)", pinEnter: "Digite o PIN",
    doubleBtn: "Dobrar", takeBtn: "Aceitar", dropBtn: "Recusar", undoBtn: "Desfazer", endTurnBtn: "Fim da jogada",
    ackBtn: "Dado inclinado visto", newMatchBtn: "Nova partida", lengthLbl: "Pontos", close: "Fechar", variantLbl: "Jogo",
    gameNames: { backgammon: "Gamão", plakoto: "Plakoto", russian: "Gamão russo", jacquet: "Jacquet" },
    resignBtn: ["Desiste (simples)", "Desiste (gamão)", "Desiste (gamão duplo)"], acceptBtn: "Aceita a desistência",
    rejectBtn: "Recusa a desistência", newGameBtn: "Novo jogo",
    variants: { plakoto: "Plakoto", russian: "Gamão russo", jacquet: "Jacquet" },
    chain: (c) => (c.link === "complement"
      ? `Dobradinha complementar: jogue quatro vezes o ${c.dice[0]} (sem lançar)`
      : c.link === "double" ? `Dobradinha ${c.dice.join("-")}: quatro vezes o ${c.dice[0]}, depois o ${7 - c.dice[0]}`
      : "Cadeia completa: lance de novo") + (c.played.length ? ` · já jogadas: ${c.played.map((d) => d.join("-")).join(", ")}` : ""),
    pinned: (list) => `Presas: ${list}`, waiting: (l, d) => `Por entrar: claras ${l}, escuras ${d}`,
    messenger: (l, d) => `Mensageiro chegou: claras ${l ? "sim" : "não"}, escuras ${d ? "sim" : "não"}`,
  },
  en: {
    title: "Gamão", light: "Light", dark: "Dark", score: "Score", matchTo: (n) => `Match to ${n} points`,
    money: "Money game", game: (n) => `Game ${n}`, crawford: "Crawford", postCrawford: "Post-Crawford",
    dice: "Dice", cube: "Cube", centred: "centred", owns: (p) => `${p}'s`, offered: (p, v) => `${p} doubles to ${v}`,
    noCube: "no cube (Crawford)", pips: "Pips", moves: "Moves", export: "Export", noPlay: "no play",
    toPlay: (p) => `${p} to play`,
    resigns: (p, v) => `${p} resigns (${["", "single", "gammon", "backgammon"][v] || v}): accept?`, cocked: "Cocked die: roll again", noRoll: "—",
    connecting: "Connecting…", offline: "No connection to the referee; retrying…",
    tournament: "Tournament mode", calibrate: "Calibrate camera", controls: "Control",
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
      play: (v, n) => (v.legal === false ? `${n(v.side)} played ${v.play || "nothing"}: illegal, but it stands (R23)`
        : v.play ? `${n(v.side)} played ${v.play}` : `${n(v.side)} cannot play ${dice(v.dice)}: turn passes`),
      uncertain: (v) => (v.pending ? "Play to be confirmed by the next boards: play on"
        : "The board is unclear: straighten the checkers"),
      cube: (v, n) => ({ double: `${n(v.side)} doubles to ${v.value}`, take: `${n(v.side)} takes: the cube is ${v.value}`,
                         drop: `${n(v.side)} drops`, beaver: `${n(v.side)} beavers: ${v.value}`,
                         raccoon: `${n(v.side)} raccoons: ${v.value}` })[v.action] || "Cube",
      game_over: (v, n) => `${n(v.winner)} wins ${v.points} ${v.points === 1 ? "point" : "points"}${HOW_EN[v.how] || ""}`,
      match_over: (v, n) => `${n(v.winner)} wins the match!`,
      error: () => "The referee could not rule on this event (see the log)",
    },
    pinTitle: "Control PIN", pinSet: "Set a PIN (4 to 12 digits)", pinEnter: "Enter the PIN",
    doubleBtn: "Double", takeBtn: "Take", dropBtn: "Drop", undoBtn: "Undo", endTurnBtn: "End turn",
    ackBtn: "Cocked die seen", newMatchBtn: "New match", lengthLbl: "Points", close: "Close", variantLbl: "Game",
    gameNames: { backgammon: "Backgammon", plakoto: "Plakoto", russian: "Russian backgammon", jacquet: "Jacquet" },
    resignBtn: ["Resigns (single)", "Resigns (gammon)", "Resigns (backgammon)"], acceptBtn: "Accept resignation",
    rejectBtn: "Reject resignation", newGameBtn: "New game",
    variants: { plakoto: "Plakoto", russian: "Russian backgammon", jacquet: "Jacquet" },
    chain: (c) => (c.link === "complement"
      ? `Complementary double: play ${c.dice[0]} four times (no roll)`
      : c.link === "double" ? `Double ${c.dice.join("-")}: ${c.dice[0]} four times, then ${7 - c.dice[0]}`
      : "Chain complete: roll again") + (c.played.length ? ` · played: ${c.played.map((d) => d.join("-")).join(", ")}` : ""),
    pinned: (list) => `Pinned: ${list}`, waiting: (l, d) => `To enter: light ${l}, dark ${d}`,
    messenger: (l, d) => `Messenger arrived: light ${l ? "yes" : "no"}, dark ${d ? "yes" : "no"}`,
  },
};

// The referee's verdict names (core/referee.py) -> banner colour. Green: the play stands; red: against
// the rules, with the referee's explanation; amber: wait, finish, or roll again.
const COLOUR = { play: (v) => (v.legal === false ? "illegal" : "legal"), in_progress: (v) => (v.complete ? "legal" : "pending"),
  illegal: () => "illegal", unplayed_die: () => "illegal", game_over: () => "legal", match_over: () => "legal" };

export function severity(verdict) {
  const rule = COLOUR[verdict.verdict];
  return rule ? rule(verdict) : "pending";
}

// {head, detail} for the banner. `name(side)` gives the player's name; an unknown verdict still shows.
export function describe(lang, verdict, name) {
  const t = TEXT[lang];
  let kind = verdict.verdict;
  if (kind === "in_progress" && verdict.complete) kind = "legal";
  const f = t.verdicts[kind];
  const head = f ? f(verdict, name) : String(kind || "").replaceAll("_", " ");
  const m = verdict.message;
  const detail = m && typeof m === "object" ? m[lang] || m.en || "" : m || "";
  return { head, detail };
}

// The clock, the illegal-play answer and the dice statistics page (issue 21; kiosk/static/clock.js, dice.js).
export const CLOCK_TEXT = {
  pt: {
    clock: "Relógio", delay: (s) => `atraso ${s} s`, flag: "Bandeira caiu", press: "Apertar o relógio",
    pressHint: (p) => `${p}: toque no seu relógio ao terminar a jogada`,
    accept: "Aceitar a jogada", correct: "Pedir correção", answerBy: (p) => `${p}: aceitar a jogada ilegal ou pedir correção?`,
    correctOnly: (p) => `${p}: peça a correção da jogada ilegal`,
    ruleSet: "Regras", ruleSets: { "": "padrão", casual: "Casual", tournament_usbgf: "Torneio (EUA, USBGF)",
      tournament_ukbgf: "Torneio (Reino Unido, UKBGF)", lesson: "Aula" },
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
    ruleSet: "Rules", ruleSets: { "": "default", casual: "Casual", tournament_usbgf: "Tournament (US, USBGF)",
      tournament_ukbgf: "Tournament (UK, UKBGF)", lesson: "Lesson" },
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
