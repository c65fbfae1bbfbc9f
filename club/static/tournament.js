// The big screen of a tournament night (club/tournament_web.py): polls GET /api/tournaments/{name} every second.
"use strict";
// Each word in Brazilian Portuguese and English side by side (as core/messages.py keeps the referee's words).
const BOTH = {
  playing: ["Em jogo", "In play"], next: ["A seguir", "Up next"], standings: ["Classificação", "Standings"],
  none: ["Nenhuma partida em jogo.", "No match in play."],
  nonext: ["Nenhuma partida esperando.", "No match waiting."], waitBoard: ["aguarda mesa", "waits for a table"],
  table: ["Mesa", "Table"], points: ["pontos", "points"], point: ["ponto", "point"],
  champion: ["Campeão", "Champion"], player: ["Jogador", "Player"], wins: ["V", "W"], losses: ["D", "L"],
  round: ["Rodada", "Round"], starting: ["começando…", "starting…"], offline: ["sem sinal", "offline"],
  noTournament: ["Nenhum torneio ainda.", "No tournament yet."], assign: ["Enviar para a mesa", "Send to the table"],
  unassign: ["Tirar da mesa", "Take off the table"], feature: ["Transmitir esta mesa", "Feature on the broadcast"],
  result: ["Gravar resultado", "Save the result"], close: ["Fechar", "Close"],
  askPin: ["PIN do diretor:", "Director's PIN:"], winner: ["vencedor", "winner"],
  brackets: {
    main: ["Chave principal", "Main"], consolation: ["Consolação", "Consolation"],
    last_chance: ["Última chance", "Last chance"], final: ["Final", "Final"],
  },
  formats: {
    double_elimination: ["dupla eliminação", "double elimination"],
    consolation: ["com consolação", "with consolation"], last_chance: ["com última chance", "with last chance"],
    progressive: ["consolação progressiva", "progressive consolation"], swiss: ["suíço modificado", "modified Swiss"],
    round_robin: ["todos contra todos", "round robin"],
  },
};
const pick = (table, i) => Object.fromEntries(Object.entries(table).map(([k, v]) => [k, Array.isArray(v) ? v[i] : pick(v, i)]));
const WORDS = { pt: pick(BOTH, 0), en: pick(BOTH, 1) };
const params = new URLSearchParams(location.search);
let lang = params.get("lang") === "en" ? "en" : (localStorage.getItem("gamao-lang") === "en" ? "en" : "pt");
let name = params.get("name");
let last = null;
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
function clock(sec) { if (sec == null) return ""; const s = Math.max(0, Math.round(sec)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }
function pts(n) { const w = WORDS[lang]; return `${n} ${n === 1 ? w.point : w.points}`; }

function card(m, tables) {
  const w = WORDS[lang], live = m.live || {};
  const c = el("div", "card" + (live.started ? "" : " waiting") + (live.online === false ? " offline" : ""));
  const head = el("div", "table");
  head.append(el("span", "", `${w.table} ${live.table || tables[m.board] || m.board}`), el("small", "", `${m.id} · ${pts(m.length)}`));
  c.append(head);
  for (const side of ["light", "dark"]) {
    const row = el("div", "side");
    row.append(el("span", "who", m[side]));
    const clk = live.clock;
    if (clk) row.append(el("span", "clock" + (clk.running === side ? " running" : ""), clock(clk[side])));
    row.append(el("span", "pts", live.started && live.score ? String(live.score[side]) : ""));
    c.append(row);
  }
  c.append(el("div", "info", live.online === false ? w.offline : (live.started ? "" : w.starting)));
  return c;
}

function bracketBox(m) {
  const b = el("div", "m " + (m.status || ""));
  b.dataset.id = m.id;
  if (CONTROL) b.addEventListener("click", () => openControl(m.id));
  const sc = m.score ? m.score.split("-") : ["", ""];
  const tags = [m.id, m.board || ""];
  ["light", "dark"].forEach((side, k) => {
    const won = m.winner && m.winner === m[side] ? " w" : "";
    b.append(el("span", "id", tags[k]), el("span", "who" + won, m[side] || "—"), el("span", "pts" + won, sc[k] || ""));
  });
  return b;
}

// The brackets take the room left under the matches in play; a big field is scaled down to fit, never cut.
function fit() {
  const box = $("brackets"), room = box.parentElement;
  box.style.transform = "";
  const h = room.clientHeight, w = room.clientWidth;
  const scale = Math.min(1, h / Math.max(1, box.scrollHeight), w / Math.max(1, box.scrollWidth));
  box.style.transform = scale < 1 ? `scale(${scale})` : "";
}

function render(t) {
  const w = WORDS[lang];
  document.documentElement.lang = lang === "en" ? "en" : "pt-BR";
  for (const a of document.querySelectorAll(".lang a")) a.classList.toggle("on", a.dataset.lang === lang);
  $("playing-title").textContent = w.playing; $("next-title").textContent = w.next;
  $("standings-title").textContent = w.standings;
  if (!t) { $("title").textContent = w.noTournament; return; }
  $("title").replaceChildren(document.createTextNode(t.name + " "), el("small", "", w.formats[t.format] || t.format));
  const champ = $("champion"); champ.hidden = !t.champion; champ.textContent = t.champion ? `${w.champion}: ${t.champion}` : "";
  const tables = t.tables || {};
  const playing = t.matches.filter((m) => m.status === "playing");
  $("playing").replaceChildren(...playing.map((m) => card(m, tables)));
  $("noplaying").textContent = playing.length ? "" : w.none;
  const ready = t.matches.filter((m) => m.status === "ready").sort((a, b) => a.round - b.round);
  const free = (t.free_boards || []).map((b) => tables[b.board] || b.board);
  $("next").replaceChildren(...ready.slice(0, 12).map((m, i) => {
    const li = el("li");
    li.append(document.createTextNode(`${m.light} x ${m.dark} · ${pts(m.length)} → `),
              el("span", "where", i < free.length ? `${w.table} ${free[i]}` : w.waitBoard));
    return li;
  }));
  $("nonext").textContent = ready.length ? "" : w.nonext;
  const bands = {};
  for (const m of t.matches) ((bands[m.bracket] ||= {})[m.round] ||= []).push(m);
  $("brackets").replaceChildren(...Object.entries(bands).map(([br, rounds]) => {
    const box = el("div", "bracket");
    if (Object.keys(bands).length > 1 || !["swiss", "round_robin"].includes(t.format)) box.append(el("h3", "", w.brackets[br] || br));
    const row = el("div", "rounds");
    // a long Swiss or round robin: its last rounds, the ones being played
    const keys = Object.keys(rounds).map(Number).sort((a, b) => a - b);
    const shown = ["swiss", "round_robin"].includes(t.format) ? keys.slice(-4) : keys;
    for (const r of shown) {
      const col = el("div", "round");
      col.append(el("div", "label", `${w.round} ${r}`), ...rounds[r].map(bracketBox));
      row.append(col);
    }
    box.append(row);
    return box;
  }));
  fit();
  const head = $("standings").tHead.rows[0];
  head.replaceChildren(el("th", "", w.player), el("th", "n", w.wins), el("th", "n", w.losses));
  $("standings").tBodies[0].replaceChildren(...t.standings.map((r) => {
    const tr = el("tr", r.player === t.champion ? "champ" : (r.withdrawn ? "out" : ""));
    tr.append(el("td", "", r.player), el("td", "n", String(r.wins)), el("td", "n", String(r.losses)));
    return tr;
  }));
}

async function poll() {
  try {
    if (!name) {
      const list = await (await fetch("/api/tournaments")).json();
      name = list.tournaments.length ? list.tournaments[list.tournaments.length - 1] : null;
    }
    if (name) {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(name)}`);
      if (r.ok) last = await r.json();
    }
    render(last);
  } catch (e) { /* the director is restarting: keep the last picture */ }
  setTimeout(poll, 1000);
}
for (const a of document.querySelectorAll(".lang a")) {
  a.addEventListener("click", (ev) => { ev.preventDefault(); lang = a.dataset.lang; localStorage.setItem("gamao-lang", lang); render(last); });
}
// ----- ?control=1: the director assigns, takes off and enters results by hand (the PIN; club/tournament_web.py)
const CONTROL = params.get("control") === "1";
let chosen = null;
async function act(path, body) {
  for (let tries = 0; tries < 3; tries++) {
    let pin = sessionStorage.getItem("gamao-director-pin");
    if (!pin) { pin = prompt(WORDS[lang].askPin) || ""; sessionStorage.setItem("gamao-director-pin", pin); }
    const r = await fetch(`/api/tournaments/${encodeURIComponent(name)}/${path}`, {method: "POST",
      headers: {"Content-Type": "application/json", "X-Gamao-PIN": pin}, body: JSON.stringify(body)});
    if (r.status === 401) { sessionStorage.removeItem("gamao-director-pin"); continue; }
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { $("control-error").textContent = data.message || `${r.status}`; return; }
    last = data; render(last); $("control").close(); return;
  }
}
function openControl(id) {
  const m = last && last.matches.find((x) => x.id === id);
  if (!m) return;
  chosen = m;
  const w = WORDS[lang];
  $("control-title").textContent = `${m.id}: ${m.light || "—"} x ${m.dark || "—"}`;
  $("control-error").textContent = "";
  $("control-board").hidden = m.status !== "ready" || !(last.free_boards || []).length;
  $("board-choice").replaceChildren(...(last.free_boards || []).map((b) => {
    const o = el("option", "", `${w.table} ${(last.tables || {})[b.board] || b.board}`); o.value = `${b.club}/${b.board}`; return o; }));
  $("control-off").hidden = m.status !== "playing";
  $("winner-choice").replaceChildren(...["light", "dark"].filter((s) => m[s]).map((s) => {
    const o = el("option", "", m[s]); o.value = m[s]; return o; }));
  $("score").value = m.score || "";
  for (const [id, key] of [["do-assign", "assign"], ["do-unassign", "unassign"], ["do-result", "result"], ["do-close", "close"], ["do-feature", "feature"]]) $(id).textContent = w[key];
  $("control").showModal();
}
if (CONTROL) {
  document.body.classList.add("control");
  $("do-assign").addEventListener("click", () => { const [club, board] = $("board-choice").value.split("/"); act("assign", {match: chosen.id, club, board}); });
  $("do-unassign").addEventListener("click", () => act("unassign", {match: chosen.id}));
  $("do-result").addEventListener("click", () => act("result", {match: chosen.id, winner: $("winner-choice").value, score: $("score").value}));
  // the broadcast's featured board (club/broadcast.py: overlay?board=featured follows it; issue 40)
  $("do-feature").addEventListener("click", async () => {
    let pin = sessionStorage.getItem("gamao-director-pin");
    if (!pin) { pin = prompt(WORDS[lang].askPin) || ""; sessionStorage.setItem("gamao-director-pin", pin); }
    const body = chosen.club ? {club: chosen.club, board: chosen.board} : {board: chosen.board};
    const r = await fetch("/api/feature", {method: "POST", headers: {"Content-Type": "application/json", "X-Gamao-PIN": pin},
      body: JSON.stringify(body)});
    if (r.status === 401) sessionStorage.removeItem("gamao-director-pin");
    if (!r.ok) { $("control-error").textContent = (await r.json().catch(() => ({}))).message || `${r.status}`; return; }
    $("control").close();
  });
}
window.addEventListener("resize", fit);
poll();
