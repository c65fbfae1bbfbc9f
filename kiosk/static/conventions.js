// The table's conventions (R19-R22, issue 36; core/referee/conventions.py): the opponent claims touch-move by
// touching the point on the drawn board (a confirmation first, POST /api/touch-move: at the board without the
// PIN, as the illegal-play answer; remotely with it); the drawn board marks the point a convention verdict is
// about; the Regras card says which conventions this rule set keeps, in the seed's words.
import { postAtBoard as post } from "./controls.js";
import { CONVENTIONS_TEXT } from "./i18n.js";
import { physical } from "./board.js";

const CLAIMS = ["touch_move_upheld", "touch_move_no_penalty", "touch_move_ignored", "touch_move_seen"];
let current = null;   // the last state rendered, for the board's touch
let lang = "pt";
let names = (side) => side;

function tt() { return CONVENTIONS_TEXT[lang] || CONVENTIONS_TEXT.pt; }
const other = (side) => (side === "light" ? "dark" : "light");

function dialog() {
  let box = document.getElementById("touch-claim");
  if (box) return box;
  box = document.createElement("div");
  box.id = "touch-claim"; box.className = "touch-claim"; box.dataset.testid = "touch-claim"; box.hidden = true;
  box.setAttribute("role", "dialog");
  const text = document.createElement("p");
  const ok = document.createElement("button"), no = document.createElement("button");
  ok.type = no.type = "button"; ok.dataset.testid = "touch-claim-ok"; no.dataset.testid = "touch-claim-cancel";
  ok.className = "claim";
  ok.addEventListener("click", () => {
    const { by, point } = box.dataset;
    box.hidden = true;
    post("/api/touch-move", { by, point: Number(point) });
  });
  no.addEventListener("click", () => { box.hidden = true; });
  const row = document.createElement("div"); row.className = "buttons"; row.append(ok, no);
  box.append(text, row);
  (document.querySelector(".board-wrap") || document.body).append(box);
  return box;
}

// A touch on a point of the drawn board while a play is being made: the opponent's claim, confirmed first.
// The point under a touch: its triangle, or the column (a checker's stack reaches past the triangle's tip).
function pointAt(svg, x, y) {
  const mid = svg.getBoundingClientRect().top + svg.getBoundingClientRect().height / 2;
  for (const poly of svg.querySelectorAll("polygon[data-own]")) {
    const r = poly.getBoundingClientRect();
    const top = r.top < mid;
    if (x >= r.left && x <= r.right && (top ? y < mid : y >= mid)) return poly;
  }
  return null;
}

function touched(event) {
  const s = current;
  const target = pointAt(event.currentTarget, event.clientX, event.clientY);
  if (!s || s.phase !== "moving" || !target) return;
  const point = Number(target.dataset.own), mover = s.turn, by = other(mover);
  const box = dialog(), t = tt();
  box.dataset.by = by; box.dataset.point = String(point);
  box.querySelector("p").textContent = t.ask(names(by), names(mover), point);
  box.querySelector(".claim").textContent = t.claim;
  box.querySelector("[data-testid=touch-claim-cancel]").textContent = t.cancel;
  box.hidden = false;
}

export function startConventions(svg) {
  svg.addEventListener("click", touched);
}

export function renderConventions(state, language, name) {
  current = state; lang = language; names = name;
  if (state?.phase !== "moving") { const box = document.getElementById("touch-claim"); if (box) box.hidden = true; }
}

// The drawn board's marks for a convention's verdict: the point touched, or where a checker left off goes.
export function conventionMarks(state) {
  const last = (state?.verdicts || []).at(-1);
  if (!last) return null;
  const side = last.side || state.turn;
  if (CLAIMS.includes(last.verdict) || (last.verdict === "checker_off_board" && Number.isInteger(last.point))
      || (last.verdict === "in_progress" && last.step === "hit")) {
    const p = physical(state, side, last.point);
    return p ? { side, from: [], to: [p], bad: last.verdict === "touch_move_ignored" } : null;
  }
  return null;
}

// The Regras card's lines for the rule set being played (after the game's own rules).
export function conventionsCard(state, language) {
  const t = CONVENTIONS_TEXT[language] || CONVENTIONS_TEXT.pt;
  const rules = state?.match?.rules || {};
  if (!rules.rule_set) return null;
  return { title: t.cardTitle, lines: t.card(rules) };
}
