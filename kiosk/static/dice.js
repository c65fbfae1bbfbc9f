// The dice statistics page (issue 21): GET /api/dice-stats (kiosk/routers/dice.py, core/match/dicestats.py).
// One scope at a time (this match, today, the unit's life): counts per die as bars with the chi-square test,
// the 36 ordered pairs as a grid, the doubles against 1 in 6, and the cocked and re-rolled counts apart.
import { CLOCK_TEXT, number } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let lang = params.get("lang") || localStorage.getItem("gamao.lang") || "pt";
let scope = params.get("scope") || "life";
let data = null;

const t = () => CLOCK_TEXT[lang] || CLOCK_TEXT.pt;
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
const verdict = (p) => (p < 0.001 ? ["unfair", t().unfair] : p < 0.01 ? ["doubtful", t().doubtful] : ["fair", t().fair]);
// Numbers in the page's one locale (0,0673 beside 0,287 in Portuguese).
const pText = (p) => (p < 0.0001 ? `p < ${number(lang, 0.0001, 4)}` : `p = ${number(lang, p, 4)}`);
// The unit's name without the word "unit" (English on the Portuguese page): "unit-A" -> "dados A".
const unitName = (id) => `${lang === "en" ? "unit" : "dados"} ${String(id).replace(/^unit[-_ ]?/i, "")}`;

function test(p, chi2) {
  const [cls, words] = verdict(p);
  const s = el("div", `test ${cls}`);
  s.append(el("b", "", words), el("span", "", ` ${chi2 !== undefined ? `χ² ${number(lang, chi2, 1)}, ` : ""}${pText(p)}`));
  return s;
}

function dieCard(n, d, rolls) {
  const card = el("section", "card die-card");
  card.dataset.testid = `die-${n}`;
  card.append(el("h2", "", t().die(n)));
  const bars = el("div", "bars");
  const top = Math.max(1, ...d.counts);
  d.counts.forEach((c, i) => {
    const col = el("div", "bar");
    const fill = el("i");
    fill.style.height = `${Math.round((c / top) * 100)}%`;
    const exp = el("s");
    exp.style.bottom = `${Math.round(((rolls / 6) / top) * 100)}%`;
    col.append(el("span", "count", String(c)), fill, exp, el("span", "face", String(i + 1)));
    bars.append(col);
  });
  card.append(bars, test(d.p, d.chi2));
  return card;
}

function pairsCard(pairs, doubles) {
  const card = el("section", "card pairs-card");
  card.append(el("h2", "", t().pairs));
  const grid = el("div", "grid");
  const n = pairs.counts.reduce((a, b) => a + b, 0), e = n / 36 || 1;
  pairs.counts.forEach((c, k) => {
    const cell = el("span", k % 7 === 0 ? "double" : "", String(c));
    const dev = Math.max(-1, Math.min(1, (c - e) / (2 * Math.sqrt(e))));
    cell.style.background = dev >= 0 ? `rgba(224, 80, 60, ${dev * 0.8})` : `rgba(70, 130, 230, ${-dev * 0.8})`;
    cell.title = `${Math.floor(k / 6) + 1}-${(k % 6) + 1}`;
    grid.append(cell);
  });
  card.append(grid, test(pairs.p, pairs.chi2));
  const dbl = el("div", "doubles");
  dbl.append(el("span", "", `${t().doubles}: ${doubles.count} (${t().expected} ${number(lang, doubles.expected, 1)})`), test(doubles.p));
  card.append(dbl);
  return card;
}

function render() {
  const tt = t();
  document.documentElement.lang = lang === "pt" ? "pt-BR" : "en";
  $("title").textContent = tt.diceTitle;
  $("back").textContent = tt.back;
  $("lang").textContent = lang === "pt" ? "English" : "Português";
  for (const b of document.querySelectorAll("[data-scope]")) {
    b.textContent = tt[b.dataset.scope];
    b.classList.toggle("on", b.dataset.scope === scope);
  }
  const box = $("stats");
  box.replaceChildren();
  const s = data?.[scope];
  if (!s) return;
  const summary = el("p", "summary");
  summary.dataset.testid = "dice-summary";
  summary.textContent = s.rolls || s.cocked ? `${tt.rolls(s.rolls)} · ${tt.cocked(s.cocked)} · ${tt.rerolls(s.rerolls)}`
    + (data.units?.length ? ` · ${data.units.map(unitName).join(", ")}` : "") : tt.none;
  box.append(summary);
  if (!s.rolls) return;
  if (s.rolls < 600) box.append(el("p", "note", tt.few));
  const row = el("div", "cards");
  row.append(dieCard(1, s.dice[0], s.rolls), dieCard(2, s.dice[1], s.rolls), pairsCard(s.pairs, s.doubles));
  box.append(row);
  document.body.dataset.ready = "true";
}

async function load() {
  try { data = await (await fetch("/api/dice-stats")).json(); } catch { data = null; }
  render();
}

for (const b of document.querySelectorAll("[data-scope]")) {
  b.addEventListener("click", () => { scope = b.dataset.scope; render(); });
}
$("lang").addEventListener("click", () => { lang = lang === "pt" ? "en" : "pt"; localStorage.setItem("gamao.lang", lang); render(); });
load();
setInterval(load, 10000);
