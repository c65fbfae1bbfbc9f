// The director's page: a card per board (mini-board, players, score, phase, last verdict), highlighted when
// the board's referee waits on a human; a click opens the board's own page. Live from /ws.
import { drawBoard } from "/kiosk/board.js";

const $ = (id) => document.getElementById(id);
const boards = new Map();          // "club/board" -> detail from the director
const PHASE = {
  opening: "saída / opening", awaiting_roll: "aguardando dados / awaiting roll", moving: "jogando / moving",
  cube_offered: "cubo oferecido / cube offered", game_over: "fim do jogo / game over",
  match_over: "fim da partida / match over", waiting: "sem partida / no match",
};
const WHY = {
  illegal: "jogada ilegal / illegal play", uncertain: "jogada incerta / uncertain play",
  cocked_die: "dado inclinado / cocked die", dice_lost: "dados desligados / dice unit lost",
  camera_bumped: "câmera mexida / camera bumped",
};
const single = document.body.classList.contains("single");
const here = single ? decodeURIComponent(location.pathname).split("/").slice(2, 4).join("/") : null;
window.gamaoLatency = [];          // [when, seconds from a board's verdict to this page] (bench/bench_club.py)
const seenRuled = new Map();

function text(tag, cls, value) { const e = document.createElement(tag); if (cls) e.className = cls; e.textContent = value; return e; }
function verdictText(v) {
  if (!v) return "";
  const m = v.message || {};
  return m.pt && m.en ? `${m.pt} / ${m.en}` : (m.pt || m.en || v.verdict);
}
function players(b) { const p = b.players || {}; return `${p.light || "claras"} × ${p.dark || "escuras"}`; }
function score(b) { const s = b.score || {}; return `${s.light ?? 0}–${s.dark ?? 0}` + (b.length ? ` / ${b.length}` : ""); }

function card(b) {
  const key = `${b.club}/${b.board}`;
  let el = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (!el) {
    el = document.createElement("article");
    el.className = "card"; el.dataset.key = key; el.tabIndex = 0;
    el.addEventListener("click", () => { location.href = `/board/${encodeURIComponent(b.club)}/${encodeURIComponent(b.board)}`; });
    const list = [...boards.keys()].sort();
    const grid = $("grid");
    const after = list.indexOf(key) + 1 < list.length ? document.querySelector(`[data-key="${CSS.escape(list[list.indexOf(key) + 1])}"]`) : null;
    grid.insertBefore(el, after);
  }
  el.classList.toggle("attention", (b.attention || []).length > 0);
  el.classList.toggle("offline", !b.online);
  const top = document.createElement("div"); top.className = "top";
  top.append(text("span", "name", b.label || b.board), text("span", "score", score(b)));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  if (b.state) drawBoard(svg, b.state);
  el.replaceChildren(top, text("div", "players", players(b)), svg,
    text("div", "line", `${PHASE[b.phase] || b.phase}${b.online ? "" : " · desligada / offline"}`),
    text("div", "why", (b.attention || []).map((w) => WHY[w] || w).join(" · ")),
    text("div", "verdict", verdictText(b.last_verdict)));
  el.dataset.phase = b.phase; el.dataset.score = score(b);
}

function one(b) {
  $("title").textContent = `${b.label || b.board} · ${players(b)} · ${score(b)}`;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  if (b.state) drawBoard(svg, b.state);
  const side = document.createElement("div");
  side.append(text("p", "score", score(b)), text("p", "", PHASE[b.phase] || b.phase),
    text("p", "why", (b.attention || []).map((w) => WHY[w] || w).join(" · ")), text("p", "verdict", verdictText(b.last_verdict)));
  $("one").replaceChildren(svg, side);
  $("one").classList.toggle("attention", (b.attention || []).length > 0);
  fetch(`/api/boards/${encodeURIComponent(b.club)}/${encodeURIComponent(b.board)}`).then((r) => r.json()).then((d) => {
    $("moves").replaceChildren(...(d.state?.moves || []).map((m) => text("li", "", `${m.side} ${(m.roll || []).join("")}: ${m.play}`)));
  }).catch(() => {});
}

async function results() {
  if (single) return;
  const rows = await (await fetch("/api/results")).json();
  $("results").tBodies[0].replaceChildren(...rows.map((r) => {
    const tr = document.createElement("tr");
    const games = (r.games || []).map((g) => `${g.winner === "light" ? "C" : "E"}+${g.points}`).join(" ");
    const a = document.createElement("a");
    a.href = `/api/results/${encodeURIComponent(r.club)}/${encodeURIComponent(r.board)}/${r.match}.mat`; a.textContent = ".mat";
    const td = document.createElement("td"); td.append(a);
    tr.append(text("td", "", r.board), text("td", "", r.players.light || ""), text("td", "", r.players.dark || ""),
      text("td", "", `${r.score.light}–${r.score.dark}`), text("td", "", r.length), text("td", "", games),
      text("td", "", r.status === "closed" ? "encerrada / closed" : "terminada / finished"), td);
    return tr;
  }));
}

let resultsVersion = -1;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { $("status").textContent = "ao vivo / live"; $("status").classList.remove("off"); };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    const now = Date.now() / 1000;
    for (const b of data.boards) {
      const key = `${b.club}/${b.board}`;
      boards.set(key, b);
      if (b.ruled && seenRuled.get(key) !== b.ruled) { seenRuled.set(key, b.ruled); window.gamaoLatency.push([now, now - b.ruled]); }
      if (single) { if (key === here) one(b); } else card(b);
    }
    document.body.dataset.boards = String(boards.size);
    if (data.results !== resultsVersion) { resultsVersion = data.results; results(); }
  };
  ws.onclose = () => { $("status").textContent = "sem conexão com o diretor; tentando de novo… / reconnecting…"; $("status").classList.add("off"); setTimeout(connect, 1000); };
}
connect();
