// The Pai Gow Poker tab of `sapsam serve` (after app.js, whose helpers it uses): seven cards
// ranked exactly by the API against the chosen house way.
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

function setupPaiGowPoker() {
  $("#pgp-form").addEventListener("submit", rankPaiGowPoker);
  $("#pgp-deal").addEventListener("click", () => {
    $("#pgp-cards").value = shuffle(PGP_DECK).slice(0, 7).join(" ");
  });
  loadHouseWays();
}

setupPaiGowPoker();
