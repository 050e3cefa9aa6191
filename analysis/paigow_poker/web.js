// The Pai Gow Poker tab of `sapsam serve` (after app.js, whose helpers it uses): seven cards
// ranked exactly by the API against the chosen house way, and the shipped strategy chart.
"use strict";

const PGP_DECK = ["Jk", ..."23456789TJQKA".split("").flatMap((r) => "cdhs".split("").map((s) => r + s))];
const pgpPct = (x) => (100 * x).toFixed(3);

function renderPaiGowPoker(answer) {
  const marks = (s) => [s.best && "best", s.house_way && "house way"].filter(Boolean).join(", ");
  const half = (h) => el("span", { class: "setting" }, el("span", { class: "cards", text: h.cards }),
    el("span", { class: "note", text: ` ${h.hand}` }));
  const body = answer.settings.map((s) => el("tr", { class: s.best ? "best" : "", "data-testid": "pgp-row" },
    el("td", { class: "left" }, half(s.high)), el("td", { class: "left" }, half(s.low)),
    el("td", { text: pgpPct(s.p_win) }), el("td", { text: pgpPct(s.p_push) }), el("td", { text: pgpPct(s.p_loss) }),
    el("td", { "data-testid": "pgp-value", text: fmt(s.value, 5) }),
    el("td", { class: "left", text: marks(s) })));
  const gives = answer.house_way_gives_up;
  $("#pgp-out").replaceChildren(el("div", { class: "scroll" }, el("table", { "data-testid": "pgp-ranking" },
    el("thead", {}, el("tr", {}, ["high hand", "low hand", "win %", "push %", "loss %", "value", ""].map((h, i) =>
      el("th", { class: i < 2 || i === 6 ? "left" : "", text: h })))),
    el("tbody", {}, body))),
  el("p", { class: "note", text: `${answer.house_way.name} house way; ${answer.banking ? "banking" : "not banking"}, ` +
    `${(100 * answer.commission).toFixed(2)}% commission, against ${answer.dealer_hands.toLocaleString("en")} ` +
    `dealer hands; value per unit bet. The house way's setting ${gives === 0 ? "is the best" :
      `gives up ${gives.toFixed(5)} a unit`}.` }));
}

async function rankPaiGowPoker(event) {
  event.preventDefault();
  showError($("#pgp-error"), null);
  $("#pgp-out").replaceChildren();  // not the last hand's answer while this one is worked out
  try {
    const answer = await busy($("#pgp-run"), () => api("/api/paigow-poker/best", {
      cards: $("#pgp-cards").value, house_way: $("#pgp-way").value,
      banking: $("#pgp-banking").checked, commission: Number($("#pgp-commission").value),
    }));
    renderPaiGowPoker(answer);
  } catch (error) {
    $("#pgp-out").replaceChildren();
    showError($("#pgp-error"), error);
  }
}

async function loadHouseWays() {
  try {
    const answer = await api("/api/paigow-poker/house-ways");
    $("#pgp-way").replaceChildren(...answer.house_ways.map((w) =>
      el("option", { value: w.id, text: w.name })));
  } catch (error) {
    showError($("#pgp-error"), error);
  }
}

const pgpPts = (x) => (x === null || x === undefined ? "" : (100 * x).toFixed(3));
const pgpPm = (x, h) => (h === null || h === undefined ? pgpPts(x) : `${pgpPts(x)} ± ${pgpPts(h)}`);
const pgpSetting = (s) => `${s[0]} / ${s[1]}`;

function pgpTable(testid, heads, rows) {
  return el("div", { class: "scroll" }, el("table", { "data-testid": testid },
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", { class: h.startsWith(">") ? "" : "left",
      text: h.replace(/^>/, "") })))),
    el("tbody", {}, rows)));
}

// the shipped chart: each house way's cost and best play, its departures, the figure
function renderPaiGowPokerChart(chart, banking) {
  const ways = chart.house_ways;
  const cost = ways.map((w) => el("tr", { "data-testid": "pgp-chart-way" },
    el("td", { class: "left", text: w.house_way.name }), el("td", { text: w.hands.toLocaleString("en") }),
    el("td", { text: `${(100 * w.share).toFixed(1)}% (${(100 * w.share_low).toFixed(1)}-${(100 * w.share_high).toFixed(1)}%)` }),
    el("td", { text: pgpPm(w.cost_per_hand, w.half_width) }),
    el("td", { text: w.best_play ? `${(100 * w.best_play.house_way_edge).toFixed(4)}% ± ${(100 * w.best_play.house_way_half_width).toFixed(4)}` : "" }),
    el("td", { "data-testid": "pgp-best-play", text: w.best_play ? `${pgpPts(w.best_play.edge)}% ± ${pgpPts(w.best_play.half_width)}` : "" })));
  const p = chart.published;
  if (p) {
    cost.push(el("tr", {}, el("td", { class: "left", text: "published, Foxwoods" }), el("td", {}), el("td", {}), el("td", {}),
      el("td", { text: `${(100 * p.house_way_edge).toFixed(4)}% exact` }),
      el("td", { text: `about ${(100 * p.best_play_edge).toFixed(2)}%` })));
  }
  const departures = ways.map((w) => el("details", {},
    el("summary", { text: `${w.house_way.name}: ${w.departures} of ${w.hands.toLocaleString("en")} hands depart` }),
    pgpTable("pgp-chart-rows", ["hand", "the best play", ">departures", ">share %", ">per departure", ">per hand",
      "the costliest: house way → best"], w.rows.map((r) => el("tr", {},
      el("td", { class: "left", text: r.group }), el("td", { class: "left", text: r.move }),
      el("td", { text: String(r.departures) }), el("td", { text: (100 * r.share).toFixed(2) }),
      el("td", { text: pgpPm(r.cost_per_departure, r.cost_per_departure_half_width) }),
      el("td", { text: pgpPm(r.cost_per_hand, r.cost_per_hand_half_width) }),
      el("td", { class: "left", text: `${r.example}: ${pgpSetting(r.example_house)} → ${pgpSetting(r.example_best)} (${pgpPts(r.example_cost)})` }))))));
  $("#pgp-chart").replaceChildren(
    pgpTable("pgp-chart-cost", ["house way", ">hands", ">best play departs (95% CI)", ">cost per hand (points)",
      ">house way against itself", ">best play against it"], cost),
    el("p", { class: "note", text: `${chart.hands.toLocaleString("en")} random hands (seed ${chart.seed}), ` +
      `${banking ? "banking (copies are the player's)" : "not banking"}, ${(100 * chart.commission).toFixed(2)}% ` +
      "commission; points are percent of a unit bet, ± a 95% interval. The best play's house edge is the house " +
      "way's against itself less the cost per hand: its interval comes almost all from the sample of hands." +
      (p ? ` Published: ${p.source}; the best play, ${p.best_play_source}. Foxwoods against itself comes ` +
        "out a few thousandths of a point above the published exact edge, beyond its interval: some reading of a " +
        "rule here differs slightly from the published program's (the docs' Pai Gow Poker page lists the " +
        "candidates)." : "") }),
    ...departures,
    el("figure", {}, el("img", { src: `/api/paigow-poker/chart.png?banking=${banking}`, "data-testid": "pgp-chart-figure",
      alt: "What each house way gives up against the best play, by hand, with 95% intervals" }),
    el("figcaption", { text: "What each house way gives up against the best play, by hand (points a hand, 95% intervals)" })));
}

// the shipped best-play run: the best play's house edge against each house way, to ~0.01 points
function renderPaiGowPokerBestPlay(run, banking) {
  const rows = run.house_ways.map((w) => {
    const r = w.rows.find((row) => row.banking === banking);
    return el("tr", { "data-testid": "pgp-best-play-edge" },
      el("td", { class: "left", text: w.house_way.name }),
      el("td", { text: r.house_way_exact ? `${(100 * r.house_way_edge).toFixed(4)}% exact`
        : `${(100 * r.house_way_edge).toFixed(4)}% ± ${(100 * r.house_way_half_width).toFixed(4)}` }),
      el("td", { text: `${(100 * r.edge).toFixed(3)}% ± ${(100 * r.half_width).toFixed(3)}` }),
      el("td", { text: `${(100 * r.gain).toFixed(3)} ± ${(100 * r.gain_half_width).toFixed(3)}` }));
  });
  return [el("h3", { text: "The best play's house edge" }),
    pgpTable("pgp-best-play-table", ["house way", ">house way against itself", ">best play against it",
      ">best play gains (points)"], rows),
    el("p", { class: "note", text: `${run.hands.toLocaleString("en")} random hands valued against a pool of ` +
      `${run.pool.toLocaleString("en")} dealer hands, corrected by ${run.exact_hands.toLocaleString("en")} ` +
      `valued exactly (seed ${run.seed}; sapsam paigow-poker best-play), ${banking ? "banking" : "not banking"}, ` +
      `${(100 * run.commission).toFixed(2)}% commission; ± a 95% interval. The chart below estimates the best ` +
      "play from its own, fewer hands: the same quantity, less precisely." })];
}

let pgpChartLoaded = false;

async function loadPaiGowPokerChart(event) {
  if (pgpChartLoaded && event?.type !== "change") return;
  pgpChartLoaded = true;
  const banking = $("#pgp-chart-side").value === "true";
  try {
    renderPaiGowPokerChart(await api(`/api/paigow-poker/chart?banking=${banking}`), banking);
    const run = await api("/api/paigow-poker/best-play").catch(() => null);  // a checkout without the run
    if (run) $("#pgp-chart").prepend(...renderPaiGowPokerBestPlay(run, banking));
  } catch (error) {
    pgpChartLoaded = false;
    $("#pgp-chart").textContent = error.message;
  }
}

function setupPaiGowPoker() {
  // an answer is for the cards and choices it was given: changing any clears it
  $("#pgp-form").addEventListener("input", () => $("#pgp-out").replaceChildren());
  $("#pgp-form").addEventListener("submit", rankPaiGowPoker);
  $("#pgp-deal").addEventListener("click", () => {
    $("#pgp-cards").value = shuffle(PGP_DECK).slice(0, 7).join(" ");
    $("#pgp-out").replaceChildren();
  });
  loadHouseWays();
  // a click or the arrow keys (which focus the tab) open the tab: load its chart then
  $("#tab-paigow_poker").addEventListener("click", loadPaiGowPokerChart);
  $("#tab-paigow_poker").addEventListener("focus", loadPaiGowPokerChart);
  $("#pgp-chart-side").addEventListener("change", loadPaiGowPokerChart);
}

setupPaiGowPoker();
