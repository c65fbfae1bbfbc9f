// The league's page (club/league_web.py): each club's boards and results under its name, the inter-club
// fixtures with their team scores, and the league table. Read-only: it polls /api/league.
"use strict";
const params = new URLSearchParams(location.search);
const LANG = ["pt", "en"].includes(params.get("lang")) ? params.get("lang") : "pt";
// Each word in Brazilian Portuguese and English side by side (as core/messages.py keeps the referee's words).
const BOTH = {
  title: ["Gamão — liga", "Gamão — league"], table: ["Classificação da liga", "League table"],
  club: ["Clube", "Club"], played: ["J", "P"], won: ["V", "W"], drawn: ["E", "D"], lost: ["D", "L"],
  matches: ["partidas", "matches"], points: ["pontos", "points"], boards: ["Mesas", "Boards"],
  results: ["Resultados", "Results"], noboards: ["nenhuma mesa ouvida ainda", "no board heard yet"],
  noresults: ["nenhum resultado ainda", "no result yet"], playing: ["em jogo", "playing"],
  closed: ["encerrada pelo diretor", "closed by the director"], finished: ["terminada", "finished"],
  over: ["encerrado", "over"], inplay: ["em andamento", "in play"], drawnfx: ["empate", "drawn"],
  board: ["Mesa", "Board"], home: ["Casa", "Home"], away: ["Visitante", "Away"], score: ["Placar", "Score"],
  offline: ["desligada", "offline"], waiting: ["aguardando", "waiting"], wins: ["vence", "wins"], of: ["de", "of"],
  ratings: ["Índice da liga", "League rating"],
  phase: {
    opening: ["saída", "opening roll"], awaiting_roll: ["aguardando os dados", "awaiting the roll"],
    moving: ["jogando", "moving"], cube_offered: ["cubo oferecido", "cube offered"],
    game_over: ["fim do jogo", "game over"], match_over: ["fim da partida", "match over"],
    waiting: ["sem partida", "no match"],
  },
};
const pick = (table, i) => Object.fromEntries(Object.entries(table).map(([k, v]) => [k, Array.isArray(v) ? v[i] : pick(v, i)]));
const T = pick(BOTH, LANG === "pt" ? 0 : 1);
document.documentElement.lang = LANG === "pt" ? "pt-BR" : "en";
document.title = T.title;
document.getElementById("h1").textContent = T.title;
document.getElementById("table-title").textContent = T.table;
for (const a of document.querySelectorAll(".lang a[data-lang]")) a.classList.toggle("on", a.dataset.lang === LANG);

function el(tag, cls, value) { const e = document.createElement(tag); if (cls) e.className = cls; if (value != null) e.textContent = value; return e; }
function row(cells, head) {
  const tr = document.createElement("tr");
  for (const c of cells) { const td = el(head ? "th" : "td", c.cls || "", c.text ?? c); tr.append(td); }
  return tr;
}

function fixture(f) {
  const box = el("article", "fixture");
  const head = el("div", "head");
  const state = f.over ? (f.outcome === "drawn" ? T.drawnfx : `${f.outcome === "home" ? f.home : f.away} ${T.wins}`)
    : `${T.inplay}: ${f.played} ${T.of} ${f.pairings.length}`;
  head.append(el("span", "", `${f.home} × ${f.away}`), el("span", "teamscore", `${f.score.home} – ${f.score.away}`));
  box.append(head, el("div", "state", `${f.id} · ${new Date(f.start * 1000).toLocaleDateString(LANG === "en" ? "en-GB" : "pt-BR")} · ${state}`));
  const t = el("table");
  t.append(row([T.board, `${T.home} (${f.home})`, `${T.away} (${f.away})`, T.score, ""], true));
  for (const p of f.pairings) {
    const status = p.status === "closed" ? T.closed : p.winner ? T.finished : T.playing;
    t.append(row([`${p.club}/${p.board}`, { text: p.home, cls: p.winner === "home" ? "won" : "" },
      { text: p.away, cls: p.winner === "away" ? "won" : "" },
      { text: p.score ? `${p.score.home}–${p.score.away}` : p.live ? `${p.live.home}–${p.live.away} (${p.live.length})` : "",
        cls: p.live ? "num live" : "num" }, status]));
  }
  box.append(t);
  return box;
}

function card(b) {
  const a = el("a", "card" + (b.online ? "" : " offline"));
  a.href = `/board/${encodeURIComponent(b.club)}/${encodeURIComponent(b.board)}`;
  const top = el("div", "top");
  top.append(el("span", "", b.board), el("span", "", b.length ? `${b.score.light}–${b.score.dark} (${b.length})` : ""));
  const names = b.players && (b.players.light || b.players.dark) ? `${b.players.light || "?"} × ${b.players.dark || "?"}` : T.waiting;
  a.append(top, el("div", "line", names), el("div", "line", b.online ? (T.phase[b.phase] || b.phase) : T.offline));
  return a;
}

function club(c) {
  const box = el("section", "club");
  box.dataset.club = c.club;
  box.append(el("h2", "", c.club), el("h3", "", T.boards));
  const grid = el("div", "boards");
  for (const b of c.boards) grid.append(card(b));
  box.append(c.boards.length ? grid : el("p", "muted", T.noboards), el("h3", "", T.results));
  if (!c.results.length) { box.append(el("p", "muted", T.noresults)); return box; }
  const t = el("table", "results");
  for (const r of c.results) {
    const who = `${r.players.light || "?"} × ${r.players.dark || "?"}`;
    t.append(row([r.board, who, { text: `${r.score.light}–${r.score.dark}`, cls: "num" },
      { text: r.winner_name || (r.status === "closed" ? T.closed : ""), cls: "won" }]));
  }
  box.append(t);
  return box;
}

async function refresh() {
  try {
    const res = await fetch("/api/league", { cache: "no-store" });
    if (!res.ok) return;
    const data = await res.json();
    document.getElementById("fixtures").replaceChildren(...data.fixtures.map(fixture));
    const table = document.getElementById("table");
    table.tHead.replaceChildren(row([T.club, { text: T.played, cls: "num" }, { text: T.won, cls: "num" },
      { text: T.drawn, cls: "num" }, { text: T.lost, cls: "num" }, { text: T.matches, cls: "num" },
      { text: T.points, cls: "num" }], true));
    table.tBodies[0].replaceChildren(...data.table.map((r) => row([r.club, { text: r.played, cls: "num" },
      { text: r.won, cls: "num" }, { text: r.drawn, cls: "num" }, { text: r.lost, cls: "num" },
      { text: `${r.matches_won}–${r.matches_lost}`, cls: "num" }, { text: r.points, cls: "num" }])));
    document.getElementById("clubs").replaceChildren(...data.clubs.map(club));
  } catch { /* the next poll tries again */ }
}
refresh();
setInterval(refresh, 2000);
