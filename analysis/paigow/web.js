// The Pai Gow tab of `sapsam serve` (after app.js, whose helpers it uses): four tiles ranked
// exactly by the API, and the house-edge table.
"use strict";

// the 32 tiles by their faces, the larger first, as the API writes them
const TILE_SET = ["6-6", "6-6", "1-1", "1-1", "4-4", "4-4", "3-1", "3-1", "5-5", "5-5", "3-3",
  "3-3", "2-2", "2-2", "6-5", "6-5", "6-4", "6-4", "6-1", "6-1", "5-1", "5-1", "5-4", "6-3",
  "5-3", "6-2", "4-3", "5-2", "4-1", "3-2", "2-1", "4-2"];
const pct = (x) => (100 * x).toFixed(2);

function paigowHalf(half) {
  return el("span", { class: "setting" },
    half.tiles.map((t) => el("span", { class: "tile", title: half.names.join(", "), text: t })),
    el("span", { class: "note", text: ` ${half.hand}` }));
}

function renderPaigow(answer) {
  const marks = (s) => [s.best && "best", s.house_way && "house way"].filter(Boolean).join(", ");
  const body = answer.settings.map((s) => el("tr", { class: s.best ? "best" : "", "data-testid": "paigow-row" },
    el("td", { class: "left" }, paigowHalf(s.low)),
    el("td", { class: "left" }, paigowHalf(s.high)),
    el("td", { text: pct(s.win) }), el("td", { text: pct(s.push) }), el("td", { text: pct(s.loss) }),
    el("td", { "data-testid": "paigow-value", text: fmt(s.value, 4) }),
    el("td", { class: "left", text: marks(s) })));
  $("#paigow-out").replaceChildren(el("div", { class: "scroll" }, el("table", { "data-testid": "paigow-ranking" },
    el("thead", {}, el("tr", {}, ["low hand", "high hand", "win %", "push %", "loss %", "value", ""].map((h, i) =>
      el("th", { class: i < 2 || i === 6 ? "left" : "", text: h })))),
    el("tbody", {}, body))),
  el("p", { class: "note", text: `${answer.banking ? "Banking" : "Not banking"}, ` +
    `${(100 * answer.commission).toFixed(2)}% commission, against ${answer.deals.toLocaleString("en")} ` +
    "banker hands; value per unit bet." }));
}

async function rankTiles(event) {
  event.preventDefault();
  showError($("#paigow-error"), null);
  $("#paigow-out").replaceChildren();  // not the last hand's answer while this one is worked out
  try {
    const answer = await busy($("#paigow-run"), () => api("/api/paigow/best", {
      tiles: $("#paigow-tiles").value, banking: $("#paigow-banking").checked,
      commission: Number($("#paigow-commission").value),
    }));
    renderPaigow(answer);
  } catch (error) {
    $("#paigow-out").replaceChildren();
    showError($("#paigow-error"), error);
  }
}

let paigowTableLoaded = false;

// the table for the chosen line of the house way's "lower than a high 3" (loaded once a line)
async function loadPaigowTable(event) {
  if (paigowTableLoaded && event?.type !== "change") return;
  paigowTableLoaded = true;
  try {
    const line = encodeURIComponent($("#paigow-high-three").value);
    const table = await api(`/api/paigow/table?high_three=${line}`);
    const rows = table.rows.map((r) => el("tr", {},
      el("td", { class: "left", text: r.strategy === "optimal" ? "best against the house way" : r.strategy }),
      el("td", { class: "left", text: r.banking ? "yes" : "no" }),
      el("td", { text: (100 * r.commission).toFixed(2) }),
      el("td", { text: pct(r.win) }), el("td", { text: pct(r.loss) }), el("td", { text: pct(r.push) }),
      el("td", { text: pct(r.house_edge) })));
    $("#paigow-table").replaceChildren(el("div", { class: "scroll" }, el("table", { "data-testid": "paigow-edge" },
      el("thead", {}, el("tr", {}, ["player", "banking", "commission %", "win %", "loss %", "push %", "house edge %"]
        .map((h, i) => el("th", { class: i < 2 ? "left" : "", text: h })))),
      el("tbody", {}, rows))), el("p", { class: "note", text: `The house way's high 3: a 3 topped by the ` +
      `${table.high_three} or better. Published figures: ${table.source}.` }));
  } catch (error) {
    paigowTableLoaded = false;
    $("#paigow-table").textContent = error.message;
  }
}

function setupPaigow() {
  // an answer is for the cards and choices it was given: changing any clears it
  $("#paigow-form").addEventListener("input", () => $("#paigow-out").replaceChildren());
  $("#paigow-form").addEventListener("submit", rankTiles);
  $("#paigow-deal").addEventListener("click", () => {
    $("#paigow-tiles").value = shuffle(TILE_SET).slice(0, 4).join(" ");
    $("#paigow-out").replaceChildren();
  });
  // a click or the arrow keys (which focus the tab) open the tab: load its table then
  $("#tab-paigow").addEventListener("click", loadPaigowTable);
  $("#tab-paigow").addEventListener("focus", loadPaigowTable);
  $("#paigow-high-three").addEventListener("change", loadPaigowTable);
}

setupPaigow();
