// Words on the screen, Portuguese and English. Verdict names follow core/referee.py; an unknown name
// still shows (amber, with the referee's own explanation) rather than a blank banner.
export const TEXT = {
  pt: {
    title: "Gamão", light: "Claras", dark: "Escuras", score: "Marcador", matchTo: (n) => `Partida a ${n} pontos`,
    money: "Jogo a dinheiro", game: (n) => `Jogo ${n}`, crawford: "Crawford", postCrawford: "Pós-Crawford",
    dice: "Dados", cube: "Cubo", centred: "centrado", owns: (p) => `de ${p}`, offered: (p, v) => `${p} dobra para ${v}`,
    noCube: "sem cubo (Crawford)", pips: "Pips", moves: "Jogadas", export: "Exportar",
    toPlay: (p) => `Joga: ${p}`, cocked: "Dado inclinado: lance de novo", noRoll: "—",
    connecting: "A ligar…", offline: "Sem ligação ao árbitro; a tentar de novo…",
    tournament: "Modo torneio", calibrate: "Calibrar câmara", controls: "Controlo",
    phase: {
      opening: "Lançamento inicial: cada jogador lança um dado", awaiting_roll: "À espera dos dados",
      moving: "Jogada em curso", cube_offered: "Cubo oferecido: aceitar ou recusar?",
      game_over: "Fim do jogo", match_over: "Fim da partida",
    },
    verdicts: {
      legal: "Jogada legal", illegal: "Jogada ilegal", in_progress: "Jogada em curso",
      incomplete: "Jogada incompleta", unplayed_die: "Falta jogar um dado", must_use_both: "Têm de ser jogados os dois dados",
      must_play_larger: "Tem de ser jogado o dado maior", reroll: "Lance de novo", cocked: "Dado inclinado: lance de novo",
      cocked_die: "Dado inclinado: lance de novo", opening_reroll: "Dados iguais: lance de novo",
      no_move: "Sem jogada possível: perde a vez", dance: "Não entra: perde a vez",
      double: "Dobra oferecida", take: "Dobra aceite", drop: "Dobra recusada",
      game_over: "Fim do jogo", match_over: "Fim da partida", new_match: "Nova partida", new_game: "Novo jogo",
      hand_seen: "Mão sobre o tabuleiro…", unstable: "A observar o tabuleiro…", undo: "Jogada desfeita",
    },
    pinTitle: "PIN de controlo", pinSet: "Definir PIN (4 a 12 algarismos)", pinEnter: "Introduza o PIN",
    doubleBtn: "Dobrar", takeBtn: "Aceitar", dropBtn: "Recusar", undoBtn: "Desfazer", endTurnBtn: "Fim da jogada",
    ackBtn: "Dado inclinado visto", newMatchBtn: "Nova partida", lengthLbl: "Pontos", close: "Fechar",
  },
  en: {
    title: "Gamão", light: "Light", dark: "Dark", score: "Score", matchTo: (n) => `Match to ${n} points`,
    money: "Money game", game: (n) => `Game ${n}`, crawford: "Crawford", postCrawford: "Post-Crawford",
    dice: "Dice", cube: "Cube", centred: "centred", owns: (p) => `${p}'s`, offered: (p, v) => `${p} doubles to ${v}`,
    noCube: "no cube (Crawford)", pips: "Pips", moves: "Moves", export: "Export",
    toPlay: (p) => `${p} to play`, cocked: "Cocked die: roll again", noRoll: "—",
    connecting: "Connecting…", offline: "No connection to the referee; retrying…",
    tournament: "Tournament mode", calibrate: "Calibrate camera", controls: "Control",
    phase: {
      opening: "Opening roll: each player rolls one die", awaiting_roll: "Waiting for the dice",
      moving: "Play in progress", cube_offered: "Cube offered: take or drop?",
      game_over: "Game over", match_over: "Match over",
    },
    verdicts: {
      legal: "Legal play", illegal: "Illegal play", in_progress: "Play in progress",
      incomplete: "Play not finished", unplayed_die: "A die is still to be played", must_use_both: "Both dice must be played",
      must_play_larger: "The larger die must be played", reroll: "Roll again", cocked: "Cocked die: roll again",
      cocked_die: "Cocked die: roll again", opening_reroll: "Equal dice: roll again",
      no_move: "No legal play: turn passes", dance: "Cannot enter: turn passes",
      double: "Double offered", take: "Double taken", drop: "Double dropped",
      game_over: "Game over", match_over: "Match over", new_match: "New match", new_game: "New game",
      hand_seen: "Hand over the board…", unstable: "Watching the board…", undo: "Play undone",
    },
    pinTitle: "Control PIN", pinSet: "Set a PIN (4 to 12 digits)", pinEnter: "Enter the PIN",
    doubleBtn: "Double", takeBtn: "Take", dropBtn: "Drop", undoBtn: "Undo", endTurnBtn: "End turn",
    ackBtn: "Cocked die seen", newMatchBtn: "New match", lengthLbl: "Points", close: "Close",
  },
};

const GREEN = /^(legal|ok|accepted|take|new_match|new_game)$|_ok$|^legal_/;
const RED = /illegal|wrong|invalid|forbidden|must_|unplayed|extra_/;

// green: the play stands; red: against the rules; amber: wait, finish or roll again.
export function severity(verdict) {
  if (verdict.severity) return verdict.severity;
  const name = String(verdict.verdict || "");
  if (RED.test(name)) return "illegal";
  if (GREEN.test(name)) return "legal";
  return "pending";
}

export function verdictText(t, verdict) {
  const name = String(verdict.verdict || "");
  const known = t.verdicts[name];
  const extra = verdict.explanation || verdict.message || verdict.reason || "";
  const head = known || name.replaceAll("_", " ");
  const play = verdict.play ? ` — ${verdict.play}` : "";
  return { head: head + play, detail: typeof extra === "object" ? (extra[t === TEXT.pt ? "pt" : "en"] || "") : extra };
}
