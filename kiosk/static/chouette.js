// The chouette on the kiosk (R26-R29): roles, each team member's cube, the pending double, the running totals
// (state.chouette, docs/CONTRACTS.md), and its touch-screen controls behind the PIN (POST /api/chouette...).
// Words in Brazilian Portuguese are the seed's: banqueiro, capitão, apostadores, repique, aceita, desiste.
import { post } from "./controls.js";
import { serverWords, wordsOf } from "./i18n.js";

// The panel's words, from the page's one table (core/page_words.py, "chouette.*").
function chouetteWords(lang) {
  const w = wordsOf(lang);
  const c = (key, params) => w(`chouette.${key}`, params);
  const dropped = c("dropped");
  return {
    title: (n) => c("title", { n }), box: c("box"), captain: c("captain"), crew: c("crew"),
    consultYes: c("consultYes"), consultNo: c("consultNo"), member: c("member"), cube: w("cube"),
    totals: c("totals"), live: c("live"), dropped, centred: w("centred"), ofBox: c("ofBox"), own: c("own"),
    role: { box: c("roleBox"), captain: c("roleCaptain"), crew: c("roleCrew") },
    waiting: (names) => c("waiting", { names }), boxAnswers: (m) => c("boxAnswers", { m }),
    take: c("take"), drop: c("drop"), answered: { take: c("took"), drop: dropped }, boxDouble: c("boxDouble"),
    teamDouble: c("teamDouble"), button: w("chouette"), pinEnter: w("pinEnter"), close: w("close"),
    setup: c("setup"), name: c("name"), dice: c("dice"), addPlayer: c("addPlayer"), start: c("start"),
    boxSide: c("boxSide"), light: c("light"), dark: c("dark"), consult: c("consult"), answerFor: (m) => m,
    export: c("export"), exportTxt: c("exportTxt"),
  };
}
const TEXT = { pt: chouetteWords("pt"), en: chouetteWords("en") };

const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(e.dataset, v); else if (k in e) e[k] = v; else e.setAttribute(k, v);
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
};

function words(lang) { return TEXT[lang] || TEXT.pt; }

function owner(c, w) { return c.owner === null ? w.centred : c.owner === "box" ? w.ofBox : w.own; }

// The panel beside the board: shown only during a chouette.
export function renderChouette(box, state, lang) {
  const ch = state?.chouette, w = words(lang);
  box.hidden = !ch;
  document.body.classList.toggle("chouette", Boolean(ch));
  if (!ch) { box.replaceChildren(); return; }
  // The chouette's own messages (kiosk/chouette.py puts them among the verdicts) are the banner's head in full
  // (i18n.js describe), at every render of the banner.
  const roles = el("div", { className: "ch-roles" },
    el("div", { dataset: { testid: "chouette-box" } }, el("span", { className: "label" }, `${w.box} `),
       el("b", {}, ch.box), ` (${w[ch.box_side]})`),
    el("div", { dataset: { testid: "chouette-captain" } }, el("span", { className: "label" }, `${w.captain} `),
       el("b", {}, ch.captain), ` (${w[ch.captain_side]})`),
    el("div", { dataset: { testid: "chouette-crew" } }, el("span", { className: "label" }, `${w.crew} `),
       ch.crew.join(", ")),
    el("div", { className: "ch-consult", dataset: { testid: "chouette-consult", consult: String(ch.consult) } },
       ch.consult ? w.consultYes : w.consultNo));
  const waiting = ch.pending ? new Set(ch.pending.waiting) : new Set();
  const answered = Object.fromEntries((ch.pending?.answers || []).filter((a) => a.answer).map((a) => [a.member, a.answer]));
  const status = (c) => (waiting.has(c.member) ? "?" : answered[c.member] ? w.answered[answered[c.member]]
    : c.live ? w.live : w.dropped);
  // One table: the box, then each team member's cube (value, owner, in or out of this game), and everyone's total.
  // Three columns at 800x480 (18 px letters, no word cut in two): the name over its role, the cube over its state
  // (said only when it is news: the answer, out of the game, waiting), the total.
  const points = Object.fromEntries(ch.ledger.map((r) => [r.name, r.points]));
  const total = (n) => { const p = points[n] ?? 0; return el("td", { className: `ch-total ${p > 0 ? "plus" : p < 0 ? "minus" : ""}` },
    p > 0 ? `+${p}` : String(p)); };
  const who = (n, role) => el("td", { className: "ch-who" }, el("b", {}, n), el("small", {}, w.role[role]));
  const boxRow = el("tr", { className: "box", dataset: { name: ch.box, points: String(points[ch.box] ?? 0) } },
    who(ch.box, "box"), el("td", {}, "—"), total(ch.box));
  const cubes = el("tbody", { dataset: { testid: "chouette-cubes" } },
    ...ch.cubes.map((c) => el("tr", { className: `${c.live ? "live" : "dropped"}${waiting.has(c.member) ? " waiting" : ""}`,
                                      dataset: { member: c.member, value: String(c.value), owner: c.owner ?? "", live: String(c.live),
                                                 answer: answered[c.member] || "", name: c.member, points: String(points[c.member] ?? 0) } },
      who(c.member, c.role),
      el("td", { className: "ch-cube" }, el("span", {}, `${c.value} `, el("small", {}, owner(c, w))),
         el("small", { className: "ch-status" }, status(c) === w.live ? "" : status(c))), total(c.member))));
  const pending = ch.pending ? el("div", { className: "ch-pending", dataset: { testid: "chouette-pending" } },
    ch.pending.by === "team" ? `${w.waiting(w.box)} (${ch.pending.waiting.join(", ")})`
      : w.waiting(ch.pending.waiting.join(", "))) : null;
  const ledger = el("table", { className: "ch-ledger", dataset: { testid: "chouette-ledger" } },
    el("thead", {}, el("tr", {}, el("th", {}, w.member), el("th", {}, w.cube), el("th", {}, w.totals))),
    el("tbody", {}, boxRow), cubes);
  const id = encodeURIComponent(state.match?.id ?? "current");
  const links = el("div", { className: "ch-links" },
    el("a", { href: `/api/chouette/${id}/ledger.json`, download: "" }, w.export),
    el("a", { href: `/api/chouette/${id}/ledger.txt`, download: "" }, w.exportTxt),
    ...Array.from({ length: ch.game }, (_, i) => el("a", { href: `/api/chouette/${id}/games/${i + 1}.mat`, download: "" }, `${i + 1}`)));
  // Who must answer a double first (above the table, which scrolls when the members outgrow the panel).
  box.replaceChildren(...[el("div", { className: "label" }, w.title(ch.game)), roles, pending, ledger, links]
    .filter(Boolean));
}

// The chouette's controls: the PIN stays in this dialog while it is open, so several members answer in a row.
export function openChouette(dialog, getState, lang) {
  const w = words(lang);
  dialog.replaceChildren();
  const pin = el("input", { type: "password", inputMode: "numeric", autocomplete: "off", placeholder: w.pinEnter,
                            dataset: { testid: "chouette-pin" } });
  const error = el("p", { className: "error", dataset: { testid: "chouette-error" } });
  const actions = el("div", { className: "ch-actions" });
  const act = (path, body) => async () => {
    error.textContent = serverWords(lang, await post(path, body, pin.value));
  };
  const button = (label, onClick, testid) => el("button", { type: "button", onclick: onClick, dataset: { testid } }, label);

  function drawActions() {
    const ch = getState()?.chouette;
    actions.replaceChildren();
    if (!ch) return;
    if (ch.pending) {
      for (const m of ch.pending.waiting) {
        actions.append(el("div", { className: "ch-answer" },
          el("b", {}, ch.pending.by === "team" ? w.boxAnswers(m) : w.answerFor(m)),
          button(w.take, act("/api/chouette/answer", { member: m, take: true }), `take-${m}`),
          button(w.drop, act("/api/chouette/answer", { member: m, take: false }), `drop-${m}`)));
      }
      return;
    }
    const row = el("div", { className: "ch-row" });
    if (ch.may_double.box.length) row.append(button(w.boxDouble, act("/api/chouette/double", { by: "box" }), "box-double"));
    const picks = ch.may_double.team.map((m) => el("label", {}, el("input", { type: "checkbox", value: m, checked: m === ch.captain }), m));
    if (picks.length) {
      row.append(button(w.teamDouble, () => {
        const members = picks.map((p) => p.firstChild).filter((c) => c.checked).map((c) => c.value);
        return act("/api/chouette/double", { by: "team", members })();
      }, "team-double"), ...picks);
    }
    const consult = el("label", {}, el("input", { type: "checkbox", checked: ch.consult,
      onchange: (e) => act("/api/chouette/consult", { value: e.target.checked })() }), w.consult);
    actions.append(row, el("div", {}, consult));
  }

  const players = el("div", { className: "ch-setup-players" });
  const addPlayer = () => players.append(el("div", {},
    el("input", { placeholder: w.name, maxLength: 40, className: "ch-name" }),
    el("input", { placeholder: w.dice, inputMode: "numeric", className: "ch-rolls", size: 6 })));
  for (let i = 0; i < 4; i += 1) addPlayer();
  const side = el("select", { className: "ch-side" }, el("option", { value: "light" }, w.light), el("option", { value: "dark" }, w.dark));
  const consult = el("input", { type: "checkbox", checked: true, className: "ch-consult-new" });
  const setup = el("details", { open: !getState()?.chouette, className: "ch-setup" }, el("summary", {}, w.setup), players,
    el("div", {}, button(w.addPlayer, addPlayer, "add-player"), `${w.boxSide} `, side, el("label", {}, consult, w.consult)),
    button(w.start, async () => {
      const list = [...players.children].map((d) => ({ name: d.children[0].value.trim(),
        rolls: d.children[1].value.split(/[^0-9]+/).filter(Boolean).map(Number) })).filter((p) => p.name || p.rolls.length);
      error.textContent = serverWords(lang, await post("/api/chouette", { players: list, box_side: side.value,
                                                                       consult: consult.checked }, pin.value));
      if (!error.textContent) setup.open = false;
    }, "chouette-start"));
  dialog.append(el("h2", {}, w.button), el("div", {}, pin), error, actions, setup,
                el("div", {}, button(w.close, () => dialog.close(), "chouette-close")));
  dialog.redraw = drawActions;
  drawActions();
  dialog.showModal();
  pin.focus();
}
