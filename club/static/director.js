// The director's page for a club night, in one language per page (its switch, or ?lang=pt|en; Brazilian
// Portuguese by default): a card per table (players, who is on roll, score and length, dice, the clocks when the
// board has them, time since the last move, what needs a person), results, tonight's standings and the club
// rating. ?public=1 is the screen for the room: no controls, and it runs the director's broadcast delay behind.
import { drawBoard } from "/kiosk/board.js";
import { TEXT, describe, fill, playText, section } from "/kiosk/i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const stored = (() => { try { return localStorage.getItem("gamao-director-lang"); } catch { return null; } })();
const LANG = ["pt", "en"].includes(params.get("lang")) ? params.get("lang") : (["pt", "en"].includes(stored) ? stored : "pt");
const PUBLIC = params.get("public") === "1";
const CLASS_ONLY = params.get("view") === "class";  // the class view alone (a teacher's tablet, 800x480)
if (params.get("lang") === LANG) { try { localStorage.setItem("gamao-director-lang", LANG); } catch { /* private window */ } }
const T = {
  pt: {
    title: "Gamão · diretor do clube", board: "Mesa", connecting: "conectando…", live: "ao vivo",
    reconnecting: "sem conexão com o diretor; tentando de novo…", light: "claras", dark: "escuras",
    phase: { opening: "saída", awaiting_roll: "aguardando os dados", moving: "jogando", cube_offered: "cubo oferecido",
      game_over: "fim do jogo", match_over: "fim da partida", waiting: "sem partida" },
    why: { illegal: "jogada ilegal", uncertain: "jogada incerta", cocked_die: "dado inclinado",
      dice_lost: "dados desligados", camera_bumped: "câmera mexida" },
    offline: "desligada", onRoll: "na vez", ago: (s) => (s < 60 ? `há ${s} s` : s < 3600 ? `há ${Math.floor(s / 60)} min` : `há ${Math.floor(s / 3600)} h`),
    lastMove: "último lance", results: "Resultados", standings: "Classificação da noite", rating: "Índice do clube",
    cols: { board: "mesa", winner: "vencedor", players: "jogadores", score: "placar", length: "pontos", started: "início",
      finished: "fim", rating: "índice", record: "registro" },
    scols: { name: "jogador", played: "partidas", won: "vitórias", lost: "derrotas", points: "pontos", rating: "índice",
      experience: "experiência" },
    closed: "encerrada", none: "nenhuma partida terminada ainda", refused: (n) => `${n} ${n === 1 ? "mensagem recusada" : "mensagens recusadas"}`,
    delay: (s) => `atraso da tela pública: ${s} s`, setDelay: "mudar", askDelay: "Segundos de atraso da tela pública (0 a 3600):",
    askPin: "PIN do diretor:", publicScreen: "tela pública", tournament: "torneio", moves: "Lances", clock: "relógio", dice: "dados",
    rolls: (n) => `${n} ${n === 1 ? "lance" : "lances"} de dados`, diceStats: "estatística dos dados", back: "voltar", feature: "transmitir esta mesa", featured: "mesa transmitida", overlay: "página da transmissão",
    // the class view (issue 38): the boards running a lesson
    classTitle: (n) => `Aula: ${n} ${n === 1 ? "mesa" : "mesas"}`, classOnly: "só a aula", allBoards: "todas as mesas",
    lcols: { board: "mesa", student: "aluno", drill: "exercício", today: "hoje", due: "cartas de hoje" },
    drill: { pips: "Contagem de casas", mistake: "Erros das partidas", opening: "Aberturas", bearoff: "Retiradas",
      cube: "Cubo nas corridas", setup: "Montar posição" },
    stage: { setup: "montando a posição", answer: "respondendo", play: "jogando no tabuleiro", grading: "corrigindo",
      done: "terminou", menu: "escolhendo o exercício" },
    today: (done, right) => (done ? `${done} ${done === 1 ? "resposta" : "respostas"}, ${num(Math.round((100 * right) / done), 0)}% certas` : "nenhuma resposta"),
  },
  en: {
    title: "Gamão · club director", board: "Board", connecting: "connecting…", live: "live",
    reconnecting: "no connection to the director; trying again…", light: "light", dark: "dark",
    phase: { opening: "opening roll", awaiting_roll: "awaiting the roll", moving: "moving", cube_offered: "cube offered",
      game_over: "game over", match_over: "match over", waiting: "no match" },
    why: { illegal: "illegal play", uncertain: "uncertain play", cocked_die: "cocked die", dice_lost: "dice unit lost",
      camera_bumped: "camera bumped" },
    offline: "offline", onRoll: "on roll", ago: (s) => (s < 60 ? `${s} s ago` : s < 3600 ? `${Math.floor(s / 60)} min ago` : `${Math.floor(s / 3600)} h ago`),
    lastMove: "last move", results: "Results", standings: "Tonight's standings", rating: "Club rating",
    cols: { board: "board", winner: "winner", players: "players", score: "score", length: "length", started: "started",
      finished: "finished", rating: "rating", record: "record" },
    scols: { name: "player", played: "played", won: "won", lost: "lost", points: "points", rating: "rating",
      experience: "experience" },
    closed: "closed", none: "no finished match yet", refused: (n) => `${n} ${n === 1 ? "message" : "messages"} refused`,
    delay: (s) => `public screen delay: ${s} s`, setDelay: "change", askDelay: "Seconds the public screen runs behind (0 to 3600):",
    askPin: "Director's PIN:", publicScreen: "public screen", tournament: "tournament", moves: "Moves", clock: "clock", dice: "dice",
    rolls: (n) => `${n} ${n === 1 ? "roll" : "rolls"}`, diceStats: "dice statistics", back: "back", feature: "feature on the broadcast", featured: "featured on the broadcast", overlay: "overlay",
    classTitle: (n) => `Lesson: ${n} ${n === 1 ? "board" : "boards"}`, classOnly: "the lesson only", allBoards: "every board",
    lcols: { board: "board", student: "student", drill: "drill", today: "today", due: "cards due" },
    drill: { pips: "Pip count", mistake: "Mistakes from matches", opening: "Openings", bearoff: "Bear-offs",
      cube: "Cube in races", setup: "Set up a position" },
    stage: { setup: "setting up", answer: "answering", play: "playing on the board", grading: "grading", done: "done",
      menu: "choosing a drill" },
    today: (done, right) => (done ? `${done} ${done === 1 ? "answer" : "answers"}, ${num(Math.round((100 * right) / done), 0)}% right` : "no answer yet"),
  },
}[LANG];
document.documentElement.lang = LANG === "pt" ? "pt-BR" : "en";

const boards = new Map();          // "club/board" -> detail from the director
const single = document.body.classList.contains("single");
const here = single ? decodeURIComponent(location.pathname).split("/").slice(2, 4).join("/") : null;
window.gamaoLatency = [];          // [when, seconds from a board's verdict to this page] (bench/bench_club.py)
const seenRuled = new Map();
let delay = 0;

// Numbers in the page's one locale (1.523,4 in Portuguese, 1,523.4 in English).
const num = (x, digits) => new Intl.NumberFormat(LANG === "en" ? "en-GB" : "pt-BR",
  { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);

function text(tag, cls, value) { const e = document.createElement(tag); if (cls) e.className = cls; e.textContent = value ?? ""; return e; }
// The last verdict as the kiosk's banner says it, with the players' names (issue 37: "as claras" where they have names):
// its head on a card ("bb2106 ganha a partida!", "Jogada ilegal: 13/7"), head and sentence on a board's own page.
// No rule code (the referee's sentences name theirs for the docs), never the verdict's code.
function verdictText(v, b, whole = false) {
  if (!v) return "";
  const players = (b && b.players) || {};
  const said = describe(LANG, v, (side) => players[side] || TEXT[LANG][side]);
  return whole && said.detail ? `${said.head}${/[.!?]$/.test(said.head) ? "" : "."} ${said.detail}` : said.head;
}
function name(b, side) { const p = b.players || {}; return p[side] || T[side]; }
function score(b) { const s = b.score || {}; return `${s.light ?? 0}–${s.dark ?? 0}` + (b.length ? ` / ${b.length}` : ""); }
function clock(sec) { if (sec == null) return ""; const s = Math.max(0, Math.round(sec)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }
function when(t) { return t ? new Date(t * 1000).toLocaleTimeString(LANG === "pt" ? "pt-BR" : "en-GB", { hour: "2-digit", minute: "2-digit" }) : ""; }
const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function sideLine(b, side) {
  const st = b.state || {};
  const row = document.createElement("div");
  row.className = `side ${side}` + (st.turn === side && !["match_over", "waiting"].includes(b.phase) ? " turn" : "");
  row.append(text("span", "dot", side === "light" ? "○" : "●"), text("span", "who", name(b, side)));
  const c = st.clock;
  if (c) row.append(text("span", "clock" + (c.running === side ? " running" : ""), clock(c[side])));
  return row;
}

function card(b) {
  const key = `${b.club}/${b.board}`;
  let el = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (!el) {
    el = document.createElement("article");
    el.className = "card"; el.dataset.key = key; el.tabIndex = 0;
    if (!PUBLIC) el.addEventListener("click", () => { location.href = `/board/${encodeURIComponent(b.club)}/${encodeURIComponent(b.board)}`; });  // the language is remembered
    const list = [...boards.keys()].sort();
    const next = list[list.indexOf(key) + 1];
    $("grid").insertBefore(el, next ? document.querySelector(`[data-key="${CSS.escape(next)}"]`) : null);
  }
  const attention = b.attention || [];
  el.classList.toggle("attention", attention.length > 0);
  el.classList.toggle("offline", !b.online);
  const top = document.createElement("div"); top.className = "top";
  top.append(text("span", "name", b.label || b.board), text("span", "score", score(b)));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  if (b.state) drawBoard(svg, b.state);
  const st = b.state || {};
  const d = st.dice && st.dice.values ? st.dice.values.map((v) => DIE[v] || v).join(" ") : "";
  const moved = b.moved ? Math.round(Date.now() / 1000 - b.moved) : null;
  const line = text("div", "line", `${T.phase[b.phase] || b.phase}${b.online ? "" : " · " + T.offline}`);
  line.append(text("span", "dice", d));
  el.replaceChildren(top, sideLine(b, "light"), sideLine(b, "dark"), svg, line,
    text("div", "why", attention.map((w) => T.why[w] || w).join(" · ")),
    text("div", "verdict", verdictText(b.last_verdict, b)),
    text("div", "ago", moved != null && b.phase !== "match_over" ? `${T.lastMove} ${T.ago(moved)}` : ""));
  el.dataset.phase = b.phase; el.dataset.score = score(b);
}

function one(b) {
  $("title").textContent = `${b.label || b.board} · ${name(b, "light")} × ${name(b, "dark")} · ${score(b)}`;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  if (b.state) drawBoard(svg, b.state);
  const side = document.createElement("div");
  side.append(sideLine(b, "light"), sideLine(b, "dark"), text("p", "score", score(b)), text("p", "", T.phase[b.phase] || b.phase),
    text("p", "why", (b.attention || []).map((w) => T.why[w] || w).join(" · ")), text("p", "verdict", verdictText(b.last_verdict, b, true)),
    text("p", "rolls", ""));
  $("one").replaceChildren(svg, side);
  $("one").classList.toggle("attention", (b.attention || []).length > 0);
  const base = `/api/boards/${encodeURIComponent(b.club)}/${encodeURIComponent(b.board)}`;
  fetch(base).then((r) => r.json()).then((d) => {
    $("moves").replaceChildren(...(d.state?.moves || []).map((m) =>
      text("li", "", `${name(b, m.side)} ${(m.roll || []).join("")}: ${playText(LANG, m.play)}`)));
  }).catch(() => {});
  fetch(`${base}/dice`).then((r) => (r.ok ? r.json() : null)).then((d) => {
    if (!d) return;
    const el = side.querySelector(".rolls");
    el.textContent = T.rolls(d.rolls);
    if (d.stats && d.stats.dice) el.textContent += ` · ${T.diceStats}: ` + d.stats.dice.map((x, i) => `${i + 1}: χ² ${num(Number(x.chi2), 1)}, p = ${num(Number(x.p), 2)}`).join(" · ");
  }).catch(() => {});
}

function cell(tr, value, cls) { tr.append(text("td", cls || "", value)); }

// The class view (issue 38): each online board whose teacher's table runs a lesson: the student, the drill and
// where it is, today's answers and accuracy, the cards due. Read-only, like the grid.
function lessons() {
  if (single) return;
  const rows = [...boards.values()].filter((b) => b.online && b.lesson).sort((a, b) =>
    `${a.club}/${a.board}`.localeCompare(`${b.club}/${b.board}`));
  $("class").hidden = rows.length === 0 && !CLASS_ONLY;
  $("class-title").textContent = T.classTitle(rows.length);
  $("lessons").tBodies[0].replaceChildren(...rows.map((b) => {
    const l = b.lesson, tr = document.createElement("tr");
    tr.dataset.key = `${b.club}/${b.board}`;
    cell(tr, b.label || b.board); cell(tr, l.student, "student");
    cell(tr, l.kind ? `${T.drill[l.kind] || ""} · ${T.stage[l.stage] || ""}` : T.stage.menu);
    cell(tr, T.today(l.done, l.right)); cell(tr, num(l.due, 0));
    return tr;
  }));
}

async function night() {
  if (single) return;
  const n = await (await fetch("/api/night")).json();
  const all = await (await fetch("/api/results")).json();
  const rows = all.map((r) => {
    const tr = document.createElement("tr");
    const a = document.createElement("a");
    a.href = `/api/results/${encodeURIComponent(r.club)}/${encodeURIComponent(r.board)}/${r.match}.mat`; a.textContent = ".mat";
    const winner = r.status === "closed" ? T.closed : (r.winner_name || T[r.winner] || "");
    cell(tr, r.board); cell(tr, winner, "winner");
    cell(tr, `${r.players.light || T.light} × ${r.players.dark || T.dark}`); cell(tr, `${r.score.light}–${r.score.dark}`);
    cell(tr, r.length); cell(tr, when(r.started)); cell(tr, when(r.finished));
    cell(tr, r.rating_change ? `+${num(r.rating_change.winner, 1)} / ${num(r.rating_change.loser, 1)}` : "");
    const td = document.createElement("td"); td.append(a); tr.append(td);
    return tr;
  });
  $("results").tBodies[0].replaceChildren(...rows);
  $("noresults").hidden = rows.length > 0;
  $("standings").tBodies[0].replaceChildren(...n.standings.map((s) => {
    const tr = document.createElement("tr");
    cell(tr, s.name); cell(tr, s.played); cell(tr, s.won); cell(tr, s.lost); cell(tr, `${s.points_for}–${s.points_against}`);
    cell(tr, s.rating != null ? num(s.rating, 0) : "");
    return tr;
  }));
  $("ratings").tBodies[0].replaceChildren(...n.ratings.map((s) => {
    const tr = document.createElement("tr");
    cell(tr, s.name); cell(tr, num(s.rating, 1)); cell(tr, s.experience); cell(tr, s.matches);
    return tr;
  }));
}

// The league's link (issue 40, /api/status "league_link": the league bridge this director watches, or null): the
// words from the page's table (core/page_words.py, "director.league.*").
const LEAGUE = ((lang) => section(lang, "director.league"))(LANG);
function leagueLine(link) {
  const el = $("league");
  if (!link) { el.textContent = ""; return; }
  const at = new Date(link.since * 1000).toLocaleTimeString(LANG === "en" ? "en-GB" : "pt-BR", { hour: "2-digit", minute: "2-digit" });
  const state = link.state === "connected" ? LEAGUE.connected : fill(LEAGUE.reconnecting, { t: at });
  el.textContent = link.restarts ? `${state} · ${fill(LEAGUE.restarted, { n: link.restarts })}` : state;
  el.classList.toggle("off", link.state !== "connected");
}

async function status() {
  try {
    const s = await (await fetch("/api/status")).json();
    delay = s.delay || 0;
    if (!single) {
      $("refused").textContent = s.refused_total ? T.refused(s.refused_total) : "";
      $("delay").textContent = T.delay(delay);
      leagueLine(s.league_link);
    }
  } catch { /* the director is restarting */ }
}

function labels() {
  document.title = T.title;
  if (single) {
    $("back").title = T.back; $("moves-title").textContent = T.moves;
    // the broadcast (club/broadcast.py): this board's overlay, and the PIN-guarded "feature" that puts it on
    // overlay?board=featured (the stream follows without anyone touching OBS)
    $("overlaylink").textContent = T.overlay; $("overlaylink").href = `/overlay?board=${encodeURIComponent(here)}&layout=side&lang=${LANG}`;
    const mark = (f) => { const on = f && `${f.club}/${f.board}` === here; $("feature").textContent = on ? T.featured : T.feature; $("feature").disabled = on; };
    fetch("/api/feature").then((r) => r.json()).then((s) => mark(s.featured)).catch(() => {});
    $("feature").addEventListener("click", async () => {
      const pin = prompt(T.askPin); if (!pin) return;
      const [club, board] = here.split("/");
      const r = await fetch("/api/feature", { method: "POST", headers: { "Content-Type": "application/json", "X-Gamao-PIN": pin },
        body: JSON.stringify({ club, board }) });
      if (!r.ok) alert((await r.json()).message); else mark((await r.json()).featured);
    });
    return;
  }
  $("h1").textContent = T.title;
  $("results-title").textContent = T.results; $("standings-title").textContent = T.standings; $("rating-title").textContent = T.rating;
  $("noresults").textContent = T.none;
  $("results").tHead.rows[0].replaceChildren(...["board", "winner", "players", "score", "length", "started", "finished", "rating", "record"].map((k) => text("th", "", T.cols[k])));
  $("standings").tHead.rows[0].replaceChildren(...["name", "played", "won", "lost", "points", "rating"].map((k) => text("th", "", T.scols[k])));
  $("ratings").tHead.rows[0].replaceChildren(...["name", "rating", "experience", "played"].map((k) => text("th", "", T.scols[k])));
  $("lessons").tHead.rows[0].replaceChildren(...["board", "student", "drill", "today", "due"].map((k) => text("th", "", T.lcols[k])));
  $("classlink").textContent = CLASS_ONLY ? T.allBoards : T.classOnly;
  $("classlink").href = CLASS_ONLY ? `/?lang=${LANG}` : `/?view=class&lang=${LANG}`;
  document.body.classList.toggle("class-only", CLASS_ONLY);
  $("setdelay").textContent = T.setDelay;
  $("publiclink").textContent = T.publicScreen; $("publiclink").href = `/?public=1&lang=${LANG}`;
  const tl = $("tournamentlink");  // the tournament night's big screen (club/tournament_web.py)
  if (tl) { tl.textContent = T.tournament; tl.href = `/tournament?lang=${LANG}`; }
  document.body.classList.toggle("public", PUBLIC);
  $("setdelay").addEventListener("click", async () => {
    const seconds = prompt(T.askDelay, String(delay)); if (seconds == null) return;
    const pin = prompt(T.askPin); if (!pin) return;
    const r = await fetch("/api/settings", { method: "POST", headers: { "Content-Type": "application/json", "X-Gamao-PIN": pin },
      body: JSON.stringify({ delay: Number(seconds) }) });
    if (!r.ok) alert((await r.json()).message); status();
  });
}
for (const a of document.querySelectorAll("[data-lang]")) {
  a.classList.toggle("on", a.dataset.lang === LANG);
  a.addEventListener("click", (e) => {
    e.preventDefault();
    try { localStorage.setItem("gamao-director-lang", a.dataset.lang); } catch { /* private window */ }
    const p = new URLSearchParams(location.search); p.set("lang", a.dataset.lang); location.search = p.toString();
  });
}

function show(data) {
  const now = Date.now() / 1000;
  for (const b of data.boards) {
    const key = `${b.club}/${b.board}`;
    boards.set(key, b);
    if (b.ruled && seenRuled.get(key) !== b.ruled) { seenRuled.set(key, b.ruled); window.gamaoLatency.push([now, now - b.ruled]); }
    if (single) { if (key === here) one(b); } else card(b);
  }
  lessons();
  document.body.dataset.boards = String(boards.size);
  if (data.results !== resultsVersion) { resultsVersion = data.results; night(); }
}

let resultsVersion = -1;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { $("status").textContent = T.live; $("status").classList.remove("off"); };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    // the public screen runs `delay` seconds behind (no help for a player glancing at it mid-game)
    if (PUBLIC && delay > 0) setTimeout(() => show(data), delay * 1000); else show(data);
  };
  ws.onclose = () => { $("status").textContent = T.reconnecting; $("status").classList.add("off"); setTimeout(connect, 1000); };
}
labels();
$("status").textContent = T.connecting;
status().then(connect);
setInterval(status, 10_000);
setInterval(() => { if (!single) for (const b of boards.values()) card(b); }, 15_000);  // "há 2 min" moves on
