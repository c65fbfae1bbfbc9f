// Every word on the players' screen, Brazilian Portuguese and English, from one table: core/page_words.py (served as
// ./words.js), beside the referee's sentences of core/messages.py, in the seeds' words (shared/seeds): casa, peça,
// setor interno, barra, retirar, fora, dobradinha, cubo, and the results "simples", "gamão" (the double game) and
// "gamão triplo" (the triple game). This module builds the page's labels and heads from it, the same for both
// languages. Verdict names follow core/referee; an unknown name still shows (amber, with the referee's own
// explanation) rather than a blank banner. No rule code (R01-R32) ever reaches the players' screen: noRuleCodes()
// takes them out of the referee's sentences, and a rule's own words are one touch away (the "Regras" card).
import { WORDS } from "./words.js";

const dice = (d) => (d || []).join("-");

// An entry with its placeholders filled: {name} the value, {n:one|many} the noun agreeing with n (core/page_words.fill).
export function fill(text, params = {}) {
  return String(text).replace(/\{(\w+)(?::([^|{}]*)\|([^{}]*))?\}/g, (all, key, one, many) => (one === undefined
    ? (key in params ? String(params[key]) : all) : (Number(params[key]) === 1 ? one : many)));
}

// The table's words in one language: w(key) or w(key, {placeholders}); a key the table lacks says so in the console
// and shows nothing (tests/core/test_page_words.py keeps every key this page asks for in the table).
export function wordsOf(lang) {
  const table = WORDS[lang] || WORDS.pt;
  return (key, params) => {
    const text = table[key];
    if (text === undefined) { console.error(`i18n: no words for ${key}`); return ""; }
    return params ? fill(text, params) : text;
  };
}

// The plain words under a prefix as nested objects ("review.size.best" -> section(lang, "review").size.best): a
// panel's words (review.js, coach.js) with its sentences' functions added by the panel (fill).
export function section(lang, prefix) {
  const out = {};
  for (const [key, text] of Object.entries(WORDS[lang] || WORDS.pt)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const path = key.slice(prefix.length + 1).split(".");
    let at = out;
    for (const part of path.slice(0, -1)) at = at[part] ??= {};
    at[path.at(-1)] = text;
  }
  return out;
}

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

const RULES = { backgammon: 6, plakoto: 4, russian: 4, jacquet: 4 };
const lines = (w, prefix, n) => Array.from({ length: n }, (_, i) => w(`${prefix}.${i + 1}`));

// The main page's words in one language (the same shape in both: tests/kiosk/test_page_words.py).
function mainText(lang) {
  const w = wordsOf(lang);
  const how = (v) => (v.how && WORDS[lang]?.[`how.${v.how}`] !== undefined ? w(`how.${v.how}`) : "");
  const gameOver = (v, n) => (v.how === "draw" ? w("verdict.gameDraw")
    : how(v) ? w("verdict.gameWonHow", { p: n(v.winner), n: v.points, how: how(v) })
    : w("verdict.gameWon", { p: n(v.winner), n: v.points }));
  const withPlay = (key, keyPlay, v) => (v.play ? w(keyPlay, { play: v.play }) : w(key));
  const gameNames = Object.fromEntries(Object.keys(RULES).map((g) => [g, w(`gameNames.${g}`)]));
  return {
    title: w("title"), light: w("light"), dark: w("dark"), score: w("score"), matchTo: (n) => w("matchTo", { n }),
    money: w("money"), game: (n) => w("game", { n }), crawford: w("crawford"), postCrawford: w("postCrawford"),
    dice: w("dice"), cube: w("cube"), centred: w("centred"), owns: (p) => w("owns", { p }),
    offered: (p, v) => w("offered", { p, v }), noCube: w("noCube"), pips: w("pips"), moves: w("moves"),
    export: w("export"), noPlay: w("noPlay"), studyPlay: w("studyPlay"), toPlay: (p) => w("toPlay", { p }), rollAgain: (p) => w("rollAgain", { p }),
    unknown: w("unknown"), resigns: (p, v) => w("resigns", { p, how: [1, 2, 3].includes(v) ? w(`resignHow.${v}`) : v }),
    cocked: w("cocked"), noRoll: w("noRoll"), connecting: w("connecting"), offline: w("offline"),
    tournament: w("tournament"), calibrate: w("calibrate"), controls: w("controls"), coach: w("coach"),
    rules: w("rules"), review: w("review"), language: w("language"), chouette: w("chouette"),
    newChouette: w("newChouette"), voiceMissing: w("voiceMissing"),
    phase: Object.fromEntries(["opening", "awaiting_roll", "moving", "cube_offered", "game_over", "match_over"]
      .map((p) => [p, w(`phase.${p}`)])),
    verdicts: {
      legal: (v) => withPlay("verdict.legal", "verdict.legalPlay", v),
      // A hit half made (R20) is a play in progress that says where the hit is landing.
      in_progress: (v) => (v.step === "hit" ? w("verdict.hitting", { point: v.point })
        : withPlay("verdict.inProgress", "verdict.inProgressPlay", v)),
      illegal: (v) => (v.reason === "new_setup_mid_game" ? w("verdict.newSetup")
        : withPlay("verdict.illegal", "verdict.illegalPlay", v)),
      abandoned: () => w("verdict.abandoned"),
      unplayed_die: (v) => ((v.unplayed || []).length > 1 ? w("verdict.unplayedDice") : w("verdict.unplayedDie")),
      reroll: (v) => ({ cocked_die: w("cocked"), tied_opening: w("verdict.rerollTied"),
                        roll_out_of_turn: w("verdict.rerollOutOfTurn") })[v.reason] || w("verdict.reroll"),
      opening: (v, n) => w("verdict.opening", { p: n(v.side), dice: dice(v.dice) }),
      roll: (v, n) => w("verdict.roll", { p: n(v.side), dice: dice(v.dice) }),
      play: (v, n) => (v.legal === false ? w("verdict.playIllegalStands", { p: n(v.side), play: v.play || w("verdict.nothing") })
        : v.play ? w("verdict.play", { p: n(v.side), play: v.play }) : w("verdict.noPlay", { p: n(v.side), dice: dice(v.dice) })),
      uncertain: (v) => (v.pending ? w("verdict.uncertainPending") : w("verdict.uncertain")),
      cube: (v, n) => {
        const p = n(v.side), key = { double: "offered", take: "verdict.cubeTake", drop: "verdict.cubeDrop",
                                     beaver: "verdict.cubeBeaver", raccoon: "verdict.cubeRaccoon" }[v.action];
        return key ? w(key, { p, v: v.value }) : w("cube");
      },
      game_over: gameOver,
      match_over: (v, n) => w("verdict.matchOver", { p: n(v.winner) }),
      error: () => w("verdict.error"),
    },
    // Why a game ended, in a sentence under the result (who won what and why).
    why: (v, n, other) => (v.how && WORDS[lang]?.[`why.${v.how}`] !== undefined
      ? w(`why.${v.how}`, { winner: n(v.winner), other: n(other) }) : ""),
    nextGame: w("nextGame"), summaryTitle: w("summaryTitle"), summaryBtn: w("summaryBtn"),
    gamesPlayed: (n) => w("gamesPlayed", { n }), summaryLinks: w("summaryLinks"),
    pinTitle: w("pinTitle"), pinSet: w("pinSet"), pinEnter: w("pinEnter"), doubleBtn: w("doubleBtn"),
    takeBtn: w("takeBtn"), dropBtn: w("dropBtn"), undoBtn: w("undoBtn"), endTurnBtn: w("endTurnBtn"), ackBtn: w("ackBtn"),
    newMatchBtn: w("newMatchBtn"), lengthLbl: w("lengthLbl"), close: w("close"), variantLbl: w("variantLbl"),
    playersLbl: w("playersLbl"), lightName: w("lightName"), darkName: w("darkName"), newMatchOpen: w("newMatchOpen"),
    confirm: (what) => w("confirm", { what }), cancel: w("cancel"), nothingNow: w("nothingNow"),
    matchOverNow: w("matchOverNow"), gameNames, resignBtn: lines(w, "resignBtn", 3), acceptBtn: w("acceptBtn"),
    rejectBtn: w("rejectBtn"), newGameBtn: w("newGameBtn"),
    variants: Object.fromEntries(["plakoto", "russian", "jacquet"].map((g) => [g, gameNames[g]])),
    // Two lines of the panel at 800x480 (the doubles already played are in the move list).
    chain: (c) => (c.link === "complement" ? w("chain.complement", { d: c.dice[0] })
      : c.link === "double" ? w("chain.double", { dice: c.dice.join("-"), d: c.dice[0], c: 7 - c.dice[0] })
      : w("chain.complete")),
    pinnedBy: (p, list) => w("pinnedBy", { p, list }),
    pinnedAlso: (p, list) => w("pinnedAlso", { p, list }), waiting: (light, dark) => w("waiting", { light, dark }),
    messenger: (who) => w("messenger", { who }), messengerNone: w("messengerNone"),
    rulesTitle: w("rulesTitle"),
    rulesCard: Object.fromEntries(Object.entries(RULES).map(([g, n]) => [g, lines(w, `rulesCard.${g}`, n)])),
  };
}

// The clock, the illegal-play answer and the dice statistics page (issue 21; kiosk/static/clock.js, dice.js).
function clockText(lang) {
  const w = wordsOf(lang);
  return {
    clock: w("clock.clock"), delay: (s) => w("clock.delay", { s }), flag: w("clock.flag"), press: w("clock.press"),
    pressHint: (p) => w("clock.pressHint", { p }), accept: w("clock.accept"), correct: w("clock.correct"),
    answerBy: (p) => w("clock.answerBy", { p }), correctOnly: (p) => w("clock.correctOnly", { p }),
    ruleSet: w("clock.ruleSet"),
    ruleSets: { "": w("clock.ruleSets.default"), ...Object.fromEntries(["casual", "tournament_usbgf", "tournament_ukbgf",
      "lesson"].map((r) => [r, w(`clock.ruleSets.${r}`)])) },
    clockLbl: w("clock.clockLbl"),
    clocks: { "": w("clock.clocks.default"), 60: w("clock.clocks.60"), 120: w("clock.clocks.120"), 180: w("clock.clocks.180") },
    diceTitle: w("clock.diceTitle"), life: w("clock.life"), day: w("clock.day"), match: w("clock.match"),
    rolls: (n) => w("clock.rolls", { n }), cocked: (n) => w("clock.cocked", { n }), rerolls: (n) => w("clock.rerolls", { n }),
    die: (n) => w("clock.die", { n }), doubles: w("clock.doubles"), expected: w("clock.expected"), pairs: w("clock.pairs"),
    fair: w("clock.fair"), doubtful: w("clock.doubtful"), unfair: w("clock.unfair"), few: w("clock.few"),
    back: w("clock.back"), none: w("clock.none"),
    verdicts: {
      time_out: (v, n) => w("clock.verdict.timeOut", { p: n(v.side) }),
      clock_warning: (v, n) => w(v.level >= 60 ? "clock.verdict.minuteLeft" : "clock.verdict.secondsLeft", { p: n(v.side) }),
      clock_press_refused: (v) => w(v.reason === "roll_first" ? "clock.verdict.rollFirst" : "clock.verdict.pressRefused"),
      illegal_play_answer: (v, n) => (v.answer === "accept"
        ? (v.accepted ? w("clock.verdict.acceptsIllegal", { p: n(v.side) }) : w("clock.verdict.mustCorrect"))
        : w("clock.verdict.asksCorrection", { p: n(v.side) })),
      answer_not_expected: () => w("clock.verdict.answerNotExpected"),
    },
  };
}

// The table's conventions (R19-R22, issue 36; kiosk/static/conventions.js): the verdicts' heads, the claim's
// confirmation and the Regras card's lines.
function conventionsText(lang) {
  const w = wordsOf(lang);
  return {
    ask: (by, mover, n) => w("conv.ask", { by, mover, n }), claim: w("conv.claim"), cancel: w("cancel"),
    cardTitle: w("conv.cardTitle"),
    card: (r) => [
      w(r.touch_move ? "conv.card.touchMove" : "conv.card.touchFree"),
      w(r.steps === "in_progress" ? "conv.card.inProgress" : "conv.card.settled"),
      w(r.forgotten_checker === "hint" ? "conv.card.forgottenHint" : "conv.card.forgottenMissing"),
      w(r.bar_first !== "hint" ? "conv.card.barFirstIllegal"
        : r.point_out === "players_director" ? "conv.card.barFirstAlone" : "conv.card.barFirstHint"),
    ],
    verdicts: {
      touch_move_upheld: (v, n) => w("conv.verdict.upheld", { p: n(v.side), point: v.point }),
      touch_move_no_penalty: (v) => w("conv.verdict.noPenalty", { point: v.point }),
      touch_move_ignored: (v, n) => w("conv.verdict.ignored", { p: n(v.side), point: v.point }),
      touch_move_not_in_rules: () => w("conv.verdict.notInRules"),
      touch_move_not_expected: () => w("conv.verdict.notExpected"),
      touch_move_seen: (v, n) => w("conv.verdict.seen", { p: n(v.side), point: v.point }),
      bar_first_hint: () => w("conv.verdict.barFirst"),
      checker_off_board: (v) => (v.point === "bar" ? w("conv.verdict.offToBar")
        : Number.isInteger(v.point) ? w("conv.verdict.offToPoint", { point: v.point }) : w("conv.verdict.offPutBack")),
    },
  };
}

export const TEXT = { pt: mainText("pt"), en: mainText("en") };
export const CLOCK_TEXT = { pt: clockText("pt"), en: clockText("en") };
export const CONVENTIONS_TEXT = { pt: conventionsText("pt"), en: conventionsText("en") };
for (const l of ["pt", "en"]) Object.assign(TEXT[l].verdicts, CLOCK_TEXT[l].verdicts, CONVENTIONS_TEXT[l].verdicts);

// The server's refusals come from Python in English (kiosk/coach.py, kiosk/pin.py, the API's checks); on the
// Portuguese page they are said in Portuguese from the table (core/page_words.SERVER_SENTENCES, by their beginning).
export const SERVER_SENTENCES = (WORDS.server || []).map(([pattern, pt]) => [new RegExp(pattern), pt]);

export function serverWords(lang, text) {
  if (lang !== "pt") return text;
  const hit = SERVER_SENTENCES.find(([pattern]) => pattern.test(text));
  return hit ? text.replace(hit[0], hit[1]) : text;
}

// The referee's verdict names (core/referee.py) -> banner colour. Green: the play stands; red: against
// the rules, with the referee's explanation; amber: wait, finish, or roll again.
const COLOUR = { play: (v) => (v.legal === false ? "illegal" : "legal"), in_progress: (v) => (v.complete ? "legal" : "pending"),
  illegal: () => "illegal", unplayed_die: () => "illegal", game_over: () => "legal", match_over: () => "legal",
  time_out: () => "illegal", clock_press_refused: () => "illegal", illegal_play_answer: (v) => (v.accepted ? "legal" : "pending"),
  touch_move_ignored: () => "illegal", touch_move_no_penalty: () => "legal" };

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
  if (kind === "chouette") {
    // The chouette's own sentences (kiosk/chouette.py) are short and name the members: the head, in full.
    const m = verdict.message || {};
    return { head: noRuleCodes(m[lang] || m.pt || m.en || t.unknown), detail: "" };
  }
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
  // A roll or an opening: the head says it all with the players' names ("Bia lançou 1-1"); the referee's sentence
  // ("As escuras (Bia) lançaram 1-1.") would only say it again, smaller (issue 37).
  if (kind === "roll" || kind === "opening") detail = "";
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
