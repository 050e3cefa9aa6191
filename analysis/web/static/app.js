// The page of `sapsam serve`: every number comes from the API (/api), none is made here.
"use strict";

const RANKS = "AKQJT98765432";
const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const DECK = [...RANKS].flatMap((r) => [..."shdc"].map((s) => r + s));
const ROWS = { front: 3, middle: 5, back: 5 };
const STORE = "sapsam-train";
const $ = (selector, root = document) => root.querySelector(selector);

// --- small helpers ----------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child != null) node.append(child);
  return node;
}

const isRed = (card) => card[1] === "h" || card[1] === "d";
const byRank = (a, b) => RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]) || "shdc".indexOf(a[1]) - "shdc".indexOf(b[1]);
const fmt = (x, digits = 3) => (x == null ? "-" : (x >= 0 ? "+" : "") + x.toFixed(digits));
// an estimate with its 95% interval, as the command line writes it
const evNote = (ev, ci) => `EV ${fmt(ev)} ${interval(ci[0], ci[1])}`;
// a 95% interval "[lo, hi]" in the format of its estimate (fmt's by default)
function interval(low, high, format = fmt) {
  return `[${format(low)}, ${format(high)}]`;
}
const plain = (x) => x.toFixed(3);  // a loss: >= 0, no sign

function cardFace(card, tag = "span", attrs = {}) {
  return el(tag, { class: "card" + (isRed(card) ? " red" : ""), title: card, ...attrs },
    card[0] === "T" ? "10" : card[0], SUITS[card[1]]);
}

function settingFaces(text) {
  if (!text.includes("|")) return el("span", { class: "badge", text });
  return el("span", { class: "setting small" },
    text.split("|").map((row) => el("span", { class: "cards" }, row.trim().split(/\s+/).map((c) => cardFace(c)))));
}

function shuffle(cards) {
  const out = [...cards];
  const random = new Uint32Array(out.length);
  crypto.getRandomValues(random);
  for (let i = out.length - 1; i > 0; i--) {
    const j = random[i] % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function table() {
  return { rules: $("#rules").value, players: Number($("#players").value) };
}

// What the chosen ruleset asks of the analyse form: a second hand (criss-cross), a match's score.
// Whether a player may surrender or declare a natural under it (Train's two declarations).
const ruleset = { hands: 1, match: false, surrender: true, naturals: true };

async function chooseRules() {
  const rules = await api(`/api/rules/${encodeURIComponent($("#rules").value)}`);
  ruleset.hands = rules.table.hands;
  ruleset.match = rules.scoring.game === "match";
  ruleset.surrender = (rules.surrender || {}).mode !== "none";
  ruleset.naturals = ((rules.naturals || {}).hands || []).length > 0;
  $("#players").value = String(rules.players);
  $("#other-controls").hidden = ruleset.hands !== 2;
  $("#score-controls").hidden = !ruleset.match;
  tableChanged();
  if (drill.hand.length && (ruleset.hands === 2) !== (drill.other.length > 0)) deal();
  else renderDrill();
}

// The ruleset or the table changed: every answer on the page was for the old one.
function tableChanged() {
  clearAnalysis();
  reviewRun++;  // a review under way was the old table's: it stops, unshown
  $("#review-out").replaceChildren();
  $("#review-progress").textContent = "";
  showError($("#review-error"), null);
  $("#train-hint").textContent = "";
  if (drill.done) {  // a graded hand: the grade was the old table's; set it again
    drill.done = false;
    $("#train-out").replaceChildren();
  }
  showError($("#train-error"), null);
}

function clearAnalysis() {
  $("#analyse-out").replaceChildren();
  showError($("#analyse-error"), null);
}

// Cards typed as text, each as the deck spells it ("as", "10h", "Q♠" -> "As", "Th", "Qs"), the forms
// the API takes (sapsam.game.cards); an error names the first bad or repeated card.
// `what` starts the message of a wrong count: "a hand is 13 cards", "your other hand: 13 cards".
const SUIT_ALIASES = { "♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h", "♠": "s", "♤": "s" };
const deckSpelling = (c) => {
  const plain = [...c.replace(/\ufe0f/g, "")].map((ch) => SUIT_ALIASES[ch] || ch).join("").replace(/^10/, "T");
  return plain.length === 2 ? plain[0].toUpperCase() + plain[1].toLowerCase() : c;
};

function parseCards(text, count, what = "a hand is") {
  const typed = text.trim().split(/[\s,]+/).filter(Boolean);
  const cards = typed.map(deckSpelling);
  const unknown = typed.filter((c, i) => !DECK.includes(cards[i]));
  if (unknown.length) {
    throw new Error(`unknown card ${unknown[0]}: use a rank (2-9, T or 10, J, Q, K, A) and a suit (s, h, d, c or ` +
      "♠ ♥ ♦ ♣), e.g. As Td 10h Q♠");
  }
  const twice = cards.find((c, i) => cards.indexOf(c) !== i);
  if (twice) throw new Error(`card ${twice} is given twice`);
  if (cards.length !== count) throw new Error(`${what} ${count} cards, got ${cards.length}`);
  return cards;
}

// One line per error, each naming its field, from the API's {detail: [...]} or {detail: "..."}.
async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ detail: response.statusText }));
  if (!response.ok) {
    const detail = Array.isArray(data.detail)
      ? data.detail.map((e) => `${e.loc[e.loc.length - 1]}: ${e.msg}`).join("; ")
      : String(data.detail);
    throw new Error(detail);
  }
  return data;
}

function showError(node, error) {
  node.hidden = !error;
  node.textContent = error ? error.message || String(error) : "";
}

// A button busy while ``work`` runs: disabled, its label counting the seconds of a long request
// (a large hand, many samples). Entered again while busy (a second review started over a first),
// it stays busy until the last work ends, and then is itself again.
const busyWith = new Map();  // button -> { label, clock, count }

async function busy(button, work) {
  let state = busyWith.get(button);
  if (!state) {
    const label = button.textContent;
    const start = Date.now();
    state = { label, count: 0, clock: setInterval(() => {
      button.textContent = `${label}\u2026 ${Math.round((Date.now() - start) / 1000)} s`;
    }, 1000) };
    busyWith.set(button, state);
    button.dataset.busy = "true";
    button.disabled = true;
    button.textContent = label + "\u2026";
    document.body.setAttribute("aria-busy", "true");
  }
  state.count++;
  try {
    return await work();
  } finally {
    if (--state.count === 0) {
      clearInterval(state.clock);
      busyWith.delete(button);
      delete button.dataset.busy;
      button.textContent = state.label;
      button.disabled = false;
      if (!busyWith.size) document.body.removeAttribute("aria-busy");
    }
  }
}

// --- tabs ---------------------------------------------------------------------------------

const TABLE_TABS = ["tab-analyse", "tab-train", "tab-review"];

function setupTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const select = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", on);
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
    }
    // the ruleset and the table size are the 13-card tabs' own: hidden where they do nothing
    $(".table-options").hidden = !TABLE_TABS.includes(tab.id);
    if (tab.id === "tab-charts") loadCharts();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(i + step + tabs.length) % tabs.length];
      next.focus();
      select(next);
    });
  });
}

// --- analyse ------------------------------------------------------------------------------

const picked = new Set();

function setupAnalyse() {
  const grid = $("#grid");
  for (const suit of "shdc") {
    for (const rank of RANKS) {
      const card = rank + suit;
      grid.append(el("button", {
        type: "button", "data-card": card, "data-testid": `card-${card}`, "aria-pressed": "false",
        "aria-label": card, class: isRed(card) ? "red" : "", onclick: () => toggle(card),
      }, el("span", { text: rank === "T" ? "10" : rank }), el("span", { text: SUITS[suit] })));
    }
  }
  $("#analyse-deal").addEventListener("click", () => { $("#paste").value = ""; pick(shuffle(DECK).slice(0, 13)); });
  $("#analyse-clear").addEventListener("click", () => { $("#paste").value = ""; pick([]); });
  $("#paste-form").addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      pick(parseCards($("#paste").value, 13));
    } catch (error) {
      pick([]);  // not the previous hand, analysed as if it were the pasted one
      showError($("#analyse-error"), error);
    }
  });
  $("#players").addEventListener("change", tableChanged);
  // another hand beside it, another score: another question
  $("#other").addEventListener("input", clearAnalysis);
  $("#score").addEventListener("input", clearAnalysis);
  $("#analyse-run").addEventListener("click", analyse);
}

function toggle(card) {
  if (picked.has(card)) picked.delete(card);
  else if (picked.size < 13) picked.add(card);
  else return;
  $("#paste").value = "";
  clearAnalysis();
  refreshGrid();
}

function pick(cards) {
  picked.clear();
  cards.forEach((c) => picked.add(c));
  clearAnalysis();
  refreshGrid();
}

function refreshGrid() {
  for (const button of document.querySelectorAll("#grid button")) {
    button.setAttribute("aria-pressed", picked.has(button.dataset.card));
  }
  $("[data-testid=card-count]").textContent = `${picked.size}/13`;
  if (!$("#analyse-run").dataset.busy) $("#analyse-run").disabled = picked.size !== 13;  // busy: busy() restores it
}

async function analyse() {
  const hand = [...picked].sort(byRank).join(" ");
  const body = { hand, ...table(), samples: Number($("#samples").value), seed: 0 };
  showError($("#analyse-error"), null);
  try {
    if (ruleset.hands === 2) body.other = parseCards($("#other").value, 13, "your other hand:").join(" ");
    const score = $("#score").value.trim();
    if (ruleset.match && score) {
      body.scores = score.split(/[\s,]+/).map((x) => {
        if (!/^\d+$/.test(x)) throw new Error(`a score is a whole number, got ${x}: yours first, e.g. 8,10,3,6`);
        return Number(x);
      });
      if (body.scores.length !== body.players) {
        throw new Error(`give ${body.players} scores, one per player, yours first (got ${body.scores.length}), ` +
          "or change Players");
      }
    }
    $("#analyse-out").replaceChildren();
    const answer = await busy($("#analyse-run"), () => api("/api/best", body));
    if (body.scores) renderMatch(answer);
    else renderRanking(answer);
  } catch (error) {
    showError($("#analyse-error"), error);
  }
}

function ciBar(low, high, ev, min, max) {
  const x = (v) => `${(100 * (v - min)) / (max - min || 1)}%`;
  const bar = el("div", { class: "bar", role: "img", "aria-label": `95% CI ${fmt(low)} to ${fmt(high)}` });
  if (min < 0 && max > 0) bar.append(el("b", { style: `left:${x(0)}` }));
  bar.append(el("span", { style: `left:${x(low)};width:calc(${x(high)} - ${x(low)})` }));
  bar.append(el("i", { style: `left:${x(ev)}` }));
  return bar;
}

const SHOWN_ROWS = 20;  // a ranking's rows shown at first: a hand can have 2,000 candidates

function renderRanking(answer) {
  const out = $("#analyse-out");
  const rows = answer.candidates;
  const min = Math.min(...rows.map((r) => r.ci[0]));
  const max = Math.max(...rows.map((r) => r.ci[1]));
  const best = rows[0];
  const head = el("p", { class: "headline" },
    best.setting.includes("|") ? "Best: " : "Best play: ",
    settingFaces(best.setting), el("span", { "data-testid": "best-ev",
      text: ` EV ${fmt(best.ev)} ${interval(best.ci[0], best.ci[1])} units per hand` }));
  const special = best.setting.includes("|") ? null
    : el("p", { class: "headline", "data-testid": "best-special" },
      best.setting === "surrender" ? "Surrendering is the best play with this hand."
        : `Declaring the ${best.setting.replace(/^natural \((.*)\)$/, "natural ($1)")} is the best play with this hand.`);
  const body = rows.map((r, i) => el("tr", { class: i === 0 ? "best" : "", "data-testid": "ranking-row",
    ...(i >= SHOWN_ROWS ? { hidden: "" } : {}) },
    el("td", { text: String(i + 1) }),
    el("td", { class: "left", "data-testid": "ranking-setting", "data-setting": r.setting }, settingFaces(r.setting)),
    el("td", { "data-testid": "ranking-ev", text: fmt(r.ev) }),
    el("td", { class: "left" }, ciBar(r.ci[0], r.ci[1], r.ev, min, max)),
    el("td", { class: "note", text: `${fmt(r.ci[0])} to ${fmt(r.ci[1])}` }),
    el("td", { class: "note", "data-testid": "ranking-gap", text: i === 0 ? "best"
      : `${fmt(r.gap)} ${interval(r.gap_ci[0], r.gap_ci[1])}` + (r.distinguishable ? "" : " ~") })));
  out.replaceChildren(head, special || "", el("div", { class: "scroll" }, el("table", { "data-testid": "ranking" },
    el("thead", {}, el("tr", {}, ["#", "setting", "EV", "95% CI", "", "gap to best"].map((h, i) =>
      el("th", { class: i === 1 || i === 3 ? "left" : "", text: h })))),
    el("tbody", {}, body))),
  rows.length > SHOWN_ROWS ? el("button", { "data-testid": "ranking-all", onclick: (event) => {
    body.forEach((tr) => { tr.hidden = false; });
    event.target.remove();
  }, text: `Show all ${rows.length.toLocaleString("en")} (the best ${SHOWN_ROWS} are shown)` }) : "",
  el("p", { class: "note", text: `${answer.rules}, ${answer.players} players, ${answer.opponents} opponents, ` +
    `${answer.samples.toLocaleString("en")} sampled tables (seed ${answer.seed}). EV in units per hand; ` +
    "gap to best with its paired 95% CI; ~: not distinguishable from the best at 95%." }));
}

const percent = (x) => (x == null ? "-" : `${(100 * x).toFixed(1)}%`);

// A match's ranking (best --score): the chance of winning the match, beside the deal's points.
function renderMatch(answer) {
  const rows = answer.candidates;
  const head = el("p", { class: "headline" }, "Best for the match: ", settingFaces(answer.match_best),
    el("span", { "data-testid": "match-best-win", text: ` wins it ${percent(rows[0].win)} ` +
      `${interval(rows[0].win_ci_low, rows[0].win_ci_high, percent)} of the time (${percent(answer.win_now)} before this deal)` }));
  const points = answer.match_best === answer.points_best ? null
    : el("p", { class: "headline", "data-testid": "points-best" }, "For this deal's points alone: ",
      settingFaces(answer.points_best));
  const body = rows.map((r, i) => el("tr", { class: i === 0 ? "best" : "", "data-testid": "match-row" },
    el("td", { text: String(i + 1) }),
    el("td", { class: "left", "data-testid": "match-setting", "data-setting": r.setting }, settingFaces(r.setting)),
    el("td", { "data-testid": "match-win", text: percent(r.win) }),
    el("td", { class: "note", text: `${percent(r.win_ci_low)} to ${percent(r.win_ci_high)}` }),
    el("td", { class: "note", "data-testid": "match-gap", text: i === 0 ? "best"
      : `${fmt(100 * r.win_gap, 2)} ${interval(100 * r.win_gap_ci_low, 100 * r.win_gap_ci_high, (x) => fmt(x, 2))}` }),
    el("td", { class: "note", "data-testid": "match-points",
      text: `${fmt(r.points)} ${interval(r.points_ci_low, r.points_ci_high)}` })));
  $("#analyse-out").replaceChildren(head, points || "", el("div", { class: "scroll" },
    el("table", { "data-testid": "match-ranking" },
      el("thead", {}, el("tr", {}, ["#", "setting", "wins the match", "95% CI", "gap (% points)", "points"].map((h, i) =>
        el("th", { class: i === 1 ? "left" : "", text: h })))),
      el("tbody", {}, body))),
  el("p", { class: "note", text: `${answer.rules} at ${answer.scores.join("-")}, ${answer.opponents} opponents, ` +
    `${answer.samples.toLocaleString("en")} sampled tables (seed ${answer.seed}); points are this deal's, per hand; [low, high]: 95% CI.` }));
}

// --- train --------------------------------------------------------------------------------

const drill = { hand: [], other: [], rows: { front: [], middle: [], back: [] }, target: "back", done: false };

// A request about the drill's hand: in criss-cross with the other hand dealt beside it.
function drillBody(extra = {}) {
  return { hand: drill.hand.join(" "), ...table(), samples: 2000, seed: 0,
    ...(drill.other.length ? { other: drill.other.join(" ") } : {}), ...extra };
}

function setupTrain() {
  $("#train-deal").addEventListener("click", deal);
  $("#train-suggest").addEventListener("click", suggest);
  $("#train-houseway").addEventListener("click", houseway);
  $("#train-submit").addEventListener("click", submit);
  $("#train-surrender").addEventListener("click", () => declare("surrender"));
  $("#train-natural").addEventListener("click", () => declare("natural"));
  $("#train-export").addEventListener("click", exportStats);
  $("#train-reset").addEventListener("click", () => { localStorage.removeItem(STORE); renderStats(); });
  for (const button of document.querySelectorAll(".target")) {
    button.addEventListener("click", () => { drill.target = button.dataset.row; renderDrill(); });
  }
  renderStats();
}

function deal() {
  const cards = shuffle(DECK);
  drill.hand = cards.slice(0, 13).sort(byRank);
  drill.other = ruleset.hands === 2 ? cards.slice(13, 26).sort(byRank) : [];
  drill.rows = { front: [], middle: [], back: [] };
  drill.target = "back";
  drill.done = false;
  $("#train-out").replaceChildren();
  $("#train-hint").textContent = "";
  showError($("#train-error"), null);
  renderDrill();
}

const placedCards = () => Object.values(drill.rows).flat();

// where cards go once a row is full: the row beside it first (a back filled first, then the middle)
const NEXT_ROWS = { front: ["middle", "back"], middle: ["back", "front"], back: ["middle", "front"] };
const nextRow = (row) => NEXT_ROWS[row].find((r) => drill.rows[r].length < ROWS[r]);

function place(card) {
  if (drill.done) return;
  let row = drill.target;
  if (drill.rows[row].length >= ROWS[row]) {  // full: the next row with room
    row = nextRow(row);
    if (!row) return;
  }
  drill.rows[row].push(card);
  if (drill.rows[row].length === ROWS[row]) drill.target = nextRow(row) || row;
  renderDrill();
}

function unplace(card) {
  if (drill.done) return;
  for (const row of Object.keys(ROWS)) drill.rows[row] = drill.rows[row].filter((c) => c !== card);
  renderDrill();
}

function renderDrill() {
  const used = new Set(placedCards());
  $("#train-hand").replaceChildren(...drill.hand.filter((c) => !used.has(c)).map((c) =>
    cardFace(c, "button", { type: "button", "data-testid": `hand-card-${c}`, "aria-label": `${c}: put in ${drill.target}`, onclick: () => place(c) })));
  for (const button of document.querySelectorAll(".target")) {
    const row = button.dataset.row;
    button.setAttribute("aria-checked", row === drill.target);
    $("span", button).textContent = `${drill.rows[row].length}/${ROWS[row]}`;
    $(`[data-testid=row-${row}]`).replaceChildren(...drill.rows[row].map((c) =>
      cardFace(c, "button", { type: "button", "data-testid": `placed-card-${c}`, "aria-label": `${c}: take back`, onclick: () => unplace(c) })));
  }
  $("#train-other").hidden = !drill.other.length;
  $("#train-other").replaceChildren("Your other hand (criss-cross): ", ...drill.other.map((c) => cardFace(c)));
  const full = Object.keys(ROWS).every((r) => drill.rows[r].length === ROWS[r]);
  $("#train-submit").disabled = !full || drill.done || !drill.hand.length;
  $("#train-suggest").disabled = drill.done || !drill.hand.length;
  $("#train-houseway").disabled = drill.done || !drill.hand.length;
  $("#train-surrender").hidden = !ruleset.surrender;
  $("#train-natural").hidden = !ruleset.naturals;
  $("#train-surrender").disabled = drill.done || !drill.hand.length;
  $("#train-natural").disabled = drill.done || !drill.hand.length;
}

const settingText = (rows) => Object.keys(ROWS).map((r) => [...rows[r]].sort(byRank).join(" ")).join(" | ");

async function suggest() {
  showError($("#train-error"), null);
  try {
    const answer = await busy($("#train-suggest"), () => api("/api/best", drillBody()));
    const best = answer.candidates[0];  // whatever it is: a setting, a surrender or a natural
    const setting = best.setting.includes("|");
    $("#train-hint").textContent = `Best play: ${best.setting}, ${evNote(best.ev, best.ci)}` + (setting
      ? "; placed in the rows." : `: press ${best.setting === "surrender" ? "Surrender" : "Declare natural"} to play it.`);
    if (setting) placeSetting(best.setting);
  } catch (error) {
    showError($("#train-error"), error);
  }
}

const placeSetting = (text) => {
  const [front, middle, back] = text.split("|").map((r) => r.trim().split(/\s+/));
  drill.rows = { front, middle, back };
  renderDrill();
};

async function houseway() {
  showError($("#train-error"), null);
  try {
    const answer = await busy($("#train-houseway"), () => api("/api/houseway", drillBody()));
    const way = answer.houseway;
    $("#train-hint").textContent = `House way: ${way.decision} (rule ${way.rule}: ${way.reason})`
      + (answer.rank === 1 ? "; the best setting found."
        : `; it gives up ${plain(answer.loss)} ${interval(answer.loss_ci[0], answer.loss_ci[1], plain)} units against the best.`);
    if (way.decision.includes("|")) placeSetting(way.decision);
  } catch (error) {
    showError($("#train-error"), error);
  }
}

async function submit() {
  const setting = settingText(drill.rows);
  const body = drillBody({ setting });
  showError($("#train-error"), null);
  let answer;
  try {
    answer = await busy($("#train-submit"), () => api("/api/review", body));
  } catch (error) {
    return showError($("#train-error"), error);
  }
  grade(answer, body.hand, setting);
}

// Surrendering or declaring the hand's natural, graded as /api/review grades a setting: the
// declaration's rank, EV and CI among /api/best's candidates, its loss the best's EV less its
// own (the negated paired gap and its interval, as review_of computes them).
async function declare(kind) {
  const body = drillBody();
  showError($("#train-error"), null);
  let answer;
  try {
    answer = await busy($(`#train-${kind}`), () => api("/api/best", body));
  } catch (error) {
    return showError($("#train-error"), error);
  }
  const rows = answer.candidates;
  const i = rows.findIndex((c) => (kind === "surrender" ? c.setting === "surrender" : c.setting.startsWith("natural")));
  if (i < 0) {
    return showError($("#train-error"), kind === "surrender" ? "this hand cannot surrender under this ruleset"
      : "this hand holds no natural: set it in three rows");
  }
  const [c, best] = [rows[i], rows[0]];
  grade({ setting: c.setting, legal: true, rank: i + 1, candidates: rows.length, ev: c.ev, ci: c.ci,
    best: best.setting, best_ev: best.ev, best_ci: best.ci, loss: 0 - c.gap,
    loss_ci: [0 - c.gap_ci[1], 0 - c.gap_ci[0]], distinguishable: c.distinguishable }, body.hand, c.setting);
}

function grade(answer, hand, setting) {
  drill.done = true;
  renderDrill();
  const bestPlay = answer.rank === 1;
  $("#train-out").replaceChildren(el("div", { class: "verdict" },
    el("div", {},
      el("h2", { text: "EV lost" }),
      el("div", { class: "loss" + (bestPlay ? " zero" : "") },
        el("span", { "data-testid": "train-loss", text: answer.loss.toFixed(3) })),
      el("p", { class: "note", "data-testid": "train-loss-ci",
        text: `95% CI ${answer.loss_ci[0].toFixed(3)} to ${answer.loss_ci[1].toFixed(3)} units per hand` }),
      el("p", { "data-testid": "train-rank", text: bestPlay ? `The best setting (of ${answer.candidates}).`
        : `Rank ${answer.rank} of ${answer.candidates}` + (answer.distinguishable ? "." : "; not distinguishable from the best.") }),
      answer.legal ? null : el("p", { class: "error", text: "Foul: the rows are not in order, so this hand loses every row." })),
    el("div", {},
      el("h2", { text: "Yours" }), el("div", { "data-testid": "train-yours" }, rowsFaces(answer.setting)), el("p", { class: "note", text: evNote(answer.ev, answer.ci) })),
    el("div", {},
      el("h2", { text: "Best" }), el("div", { "data-testid": "train-best" }, rowsFaces(answer.best)), el("p", { class: "note", text: evNote(answer.best_ev, answer.best_ci) }))));
  const log = stats();
  log.push({ hand, setting, best: answer.best, loss: answer.loss,
    loss_lo: answer.loss_ci[0], loss_hi: answer.loss_ci[1], rank: answer.rank });
  localStorage.setItem(STORE, JSON.stringify(log));
  renderStats();
}

function rowsFaces(setting) {
  if (!setting.includes("|")) return el("p", {}, el("span", { class: "badge", text: setting }));
  return el("div", {}, setting.split("|").map((row, i) => el("div", {},
    el("span", { class: "row-label", text: ["front", "middle", "back"][i] }),
    el("span", { class: "cards small" }, row.trim().split(/\s+/).map((c) => cardFace(c))))));
}

function stats() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || [];
  } catch {
    return [];
  }
}

// Student's t 97.5% quantile, as sapsam.base.stats.t95: a table to 9 degrees of freedom, then the
// Cornish-Fisher expansion about the normal's
const Z95 = 1.959963984540054;
const T95 = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157];
function t95(df) {
  if (df < 10) return T95[df - 1];
  const z = Z95;
  return z + (z ** 3 + z) / 4 / df + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96 / df ** 2
    + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384 / df ** 3
    + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160 / df ** 4;
}

// The mean of the hands' losses with its t interval over the hands (the player's expected loss
// on a random hand: the hands' spread includes each estimate's own noise), from two hands on.
function meanLoss(losses) {
  const n = losses.length;
  const mean = losses.reduce((s, x) => s + x, 0) / n;
  if (n < 2) return mean.toFixed(3);
  const sd = Math.sqrt(losses.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const half = t95(n - 1) * sd / Math.sqrt(n);
  return `${mean.toFixed(3)} ${interval(mean - half, mean + half, (x) => x.toFixed(3))}`;
}

// A share with its Wilson 95% interval (sapsam.base.stats.wilson_interval), in whole percents.
function shareNote(count, n) {
  const z = Z95;
  const p = count / n;
  const denominator = 1 + z * z / n;
  const centre = (p + z * z / (2 * n)) / denominator;
  const half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator;
  const pct = (x) => `${Math.round(100 * x)}%`;
  return `${pct(p)} ${interval(count === 0 ? 0 : Math.max(centre - half, 0), Math.min(centre + half, 1), pct)}`;
}

function renderStats() {
  const log = stats();
  $("[data-testid=stats-hands]").textContent = String(log.length);
  $("[data-testid=stats-loss]").textContent = log.length ? meanLoss(log.map((r) => r.loss)) : "-";
  $("[data-testid=stats-best]").textContent = log.length
    ? shareNote(log.filter((r) => r.rank === 1).length, log.length) : "-";
}

function csvCell(value) {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// CSV text: a header of ``columns``, then each record's values in their order
function csvText(columns, records) {
  return [columns, ...records.map((r) => columns.map((c) => r[c] ?? ""))]
    .map((cells) => cells.map(csvCell).join(",")).join("\n") + "\n";
}

function download(name, text) {
  const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

function exportStats() {
  download("sapsam-training.csv", csvText(["hand", "setting", "best", "loss", "loss_lo", "loss_hi", "rank"], stats()));
}

// --- review -------------------------------------------------------------------------------

// Rows of CSV text, each with its ``line`` in the text (a row's last, as Python's csv counts
// them), blank rows left out; cells parted by commas, or by semicolons or tabs where the first
// line has more of those (as sapsam.measure.review.read_played reads a file)
function parseCsv(text) {
  const rows = [];
  const first = text.split(/\r\n|\r|\n/, 1)[0];
  const sep = [",", ";", "\t"].reduce((a, b) => (first.split(b).length > first.split(a).length ? b : a));
  let row = [], cell = "", quoted = false, line = 1;
  const endRow = () => {
    row.push(cell);
    row.line = line;
    rows.push(row);
    row = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else {
        if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
        cell += ch;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === sep) { row.push(cell); cell = ""; }
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRow();
      line++;
    } else cell += ch;
  }
  if (cell || row.length) endRow();
  return rows.filter((r) => r.some((c) => c.trim()));
}

function setupReview() {
  $("#review-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) {  // UTF-8, or UTF-16 by its byte-order mark (a spreadsheet's "Unicode text")
      const bytes = new Uint8Array(await file.arrayBuffer());
      const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le"
        : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
      $("#review-text").value = new TextDecoder(encoding).decode(bytes);
      review();
    }
  });
  $("#review-run").addEventListener("click", review);
}

const REVIEW_SAMPLES = 2000;  // tables a reviewed hand is sampled against

let reviewRun = 0;  // the run the tab shows: a new run, or a new table, leaves an older one unshown

async function review() {
  const run = ++reviewRun;
  showError($("#review-error"), null);
  $("#review-out").replaceChildren();
  const rows = parseCsv($("#review-text").value);
  const header = (rows.shift() || []).map((h) => h.trim().toLowerCase());
  const [h, s, o] = [header.indexOf("hand"), header.indexOf("setting"), header.indexOf("other")];
  if (h < 0 || s < 0) return showError($("#review-error"), "the first line must name the columns hand and setting");
  if (!rows.length) return showError($("#review-error"), "no hands after the header line");
  const results = [];
  const button = $("#review-run");
  const tableNow = table();  // one table for every hand of the run
  await busy(button, async () => {
    for (const [i, row] of rows.entries()) {
      if (run !== reviewRun) return;  // a newer run, or the table changed
      $("#review-progress").textContent = `${i + 1} of ${rows.length}`;
      // each hand its own seed, its line's number: the hands' estimates are independent, so
      // the total's variance is the sum of theirs (renderReview); sapsam review --file's seeds
      const body = { hand: (row[h] || "").trim(), setting: (row[s] || "").trim(), ...tableNow, samples: REVIEW_SAMPLES,
        seed: row.line, held_out: true };
      if (o >= 0 && (row[o] || "").trim()) body.other = row[o].trim();  // criss-cross: the other hand
      try {
        results.push({ line: row.line, body, answer: await api("/api/review", body) });
      } catch (error) {
        results.push({ line: row.line, body, error: error.message });
      }
    }
  });
  if (run !== reviewRun) return;
  $("#review-progress").textContent = reviewCount(results);
  renderReview(results);
}

// "2 reviewed, 6 refused": what the API graded and what it refused (each refusal's reason in its row)
function reviewCount(results) {
  const refused = results.filter((r) => r.error).length;
  return `${results.length - refused} reviewed` + (refused ? `, ${refused} refused` : "");
}

// A review's rows for a spreadsheet, in the file's order: the columns of sapsam review --file's
// JSON (a refused hand: its error)
function reviewCsv(results) {
  const intervals = ["ci", "best_ci", "loss_ci", "held_out_ci"];
  const columns = ["line", "hand", "other", "setting", "legal", "rank", "candidates", "ev", "ci_low", "ci_high",
    "best", "best_ev", "best_ci_low", "best_ci_high", "loss", "loss_ci_low", "loss_ci_high", "distinguishable",
    "samples", "held_out_loss", "held_out_ci_low", "held_out_ci_high", "error"];
  return csvText(columns, results.map((r) => {
    const record = { line: r.line, hand: r.body.hand, other: r.body.other, setting: r.body.setting, error: r.error,
      ...r.answer };
    for (const name of intervals) if (record[name]) [record[`${name}_low`], record[`${name}_high`]] = record[name];
    return record;
  }));
}

function renderReview(results) {
  const good = results.filter((r) => r.answer).sort((a, b) => b.answer.loss - a.answer.loss);
  const bad = results.filter((r) => r.error);
  const n = good.length;
  // a total and a hand's mean with their intervals: independent hands, variances added
  const totalText = (loss, ci) => {
    const total = good.reduce((sum, r) => sum + r.answer[loss], 0);
    const half = Math.sqrt(good.reduce((sum, r) => sum + ((r.answer[ci][1] - r.answer[ci][0]) / 2) ** 2, 0));
    return `${plain(total)} ${interval(total - half, total + half, plain)} units lost in all, ` +
      `${plain(total / n)} ${interval((total - half) / n, (total + half) / n, plain)} per hand`;
  };
  const body = [...good, ...bad].map((r) => el("tr", { "data-testid": r.error ? "review-bad-row" : "review-row" },
    el("td", { text: String(r.line) }),
    el("td", { class: "left" }, r.error ? el("span", { text: r.body.hand }) : settingFaces(r.answer.setting)),
    r.error ? el("td", { class: "left error", colspan: "4", "data-testid": "review-row-error", text: r.error })
      : [el("td", { "data-testid": "review-loss", text: r.answer.loss.toFixed(3) }),
        el("td", { class: "note", text: `${r.answer.loss_ci[0].toFixed(3)} to ${r.answer.loss_ci[1].toFixed(3)}` }),
        el("td", { text: `${r.answer.rank} of ${r.answer.candidates}` + (r.answer.legal ? "" : " (foul)") }),
        el("td", { class: "left" }, r.answer.rank === 1 ? el("span", { class: "note", text: "played" })
          : settingFaces(r.answer.best))]));
  $("#review-out").replaceChildren(
    el("p", { class: "headline", "data-testid": "review-totals",
      text: reviewCount(results) + (n ? `: ${totalText("loss", "loss_ci")} as ranked` : "") }),
    n ? el("p", { class: "headline", "data-testid": "review-held-out",
      text: `Measured apart: ${totalText("held_out_loss", "held_out_ci")}` }) : "",
    el("div", { class: "scroll" }, el("table", { class: "compact", "data-testid": "review-table" },
      el("thead", {}, el("tr", {}, ["line", "played", "EV lost", "95% CI", "rank", "best"].map((t, i) =>
        el("th", { class: i === 1 || i === 5 ? "left" : "", text: t })))),
      el("tbody", {}, body))),
    el("p", { class: "note", text: `EV lost in units per hand against the best setting, with its paired 95% CI; each ` +
      `hand against ${REVIEW_SAMPLES.toLocaleString("en")} sampled tables, its line's number the seed, as sapsam ` +
      "review --file --samples 2000 reviews them. As ranked, a loss is measured on the tables that chose the best " +
      "and leans high where settings are near-tied (an upper estimate); measured apart, the played and the chosen " +
      "best meet tables of their own (a lower one). The hands' estimates are independent, so a total's interval " +
      "adds their variances." }),
    el("button", { "data-testid": "review-export", onclick: () => download("sapsam-review.csv", reviewCsv(results)),
      text: "Export CSV" }));
}

// --- charts -------------------------------------------------------------------------------

const CAPTIONS = {
  rulesets: "What each ruleset is worth: the cost of simple policies against the fitted strategy, by ruleset",
  policies: "What simple policies cost against the fitted strategy",
  rows: "Win chance by hand and row",
  front: "What goes in front",
  declare: "Naturals and surrender",
  match: "Playing for the match or for one deal's points: where they differ, by score",
};

let chartsLoaded = false;

async function loadCharts() {
  if (chartsLoaded) return;
  chartsLoaded = true;
  const out = $("#charts-out");
  try {
    const charts = await api("/api/charts");
    charts.sort((a, b) => (b.name.startsWith("rulesets") - a.name.startsWith("rulesets")) || a.name.localeCompare(b.name));
    if (!charts.length) out.textContent = "No charts are shipped with this install.";
    out.replaceChildren(...charts.map((c) => el("figure", {},
      el("img", { src: c.url, alt: CAPTIONS[c.name.split("-")[0]] || c.name, loading: "lazy", "data-testid": "chart-image" }),
      el("figcaption", { text: `${CAPTIONS[c.name.split("-")[0]] || c.name} (${c.name})` }))));
  } catch (error) {
    chartsLoaded = false;
    out.textContent = error.message;
  }
}

// --- start ----------------------------------------------------------------------------------

async function start() {
  setupTabs();
  setupAnalyse();
  setupTrain();
  setupReview();
  try {
    const rules = await api("/api/rules");
    $("#rules").replaceChildren(...Object.entries(rules).map(([id, text]) =>
      el("option", { value: id, title: text, text: id })));
    $("#rules").value = "standard";
    $("#rules").addEventListener("change", () => chooseRules().catch((error) => showError($("#analyse-error"), error)));
    await chooseRules();
  } catch (error) {
    showError($("#analyse-error"), error);
  }
  document.body.dataset.ready = "true";
}

start();
