// The Open-Face tab of `sapsam serve` (after app.js, whose helpers it uses): a board built street
// by street, each decision's placements ranked by the API's rollouts, and the Fantasyland solver.
"use strict";

const OFC_ROWS = { front: 3, middle: 5, back: 5 };
const ofcCards = (text) => text.trim().split(/\s+/).filter((c) => c && c !== "-");
const ofcRows = (board) => {
  const parts = board.trim() ? board.split("|") : ["", "", ""];
  return Object.fromEntries(Object.keys(OFC_ROWS).map((row, i) => [row, ofcCards(parts[i] || "")]));
};
const ofcPlaced = (board) => Object.values(ofcRows(board)).flat();

function ofcBoardFaces(board, testid) {
  const rows = ofcRows(board);
  return el("div", { class: "ofc-board", "data-testid": testid }, Object.entries(OFC_ROWS).map(([row, size]) =>
    el("div", { class: "ofc-row", "data-testid": `${testid}-${row}` },
      el("span", { class: "note", text: row }),
      el("span", { class: "cards" }, rows[row].map((c) => cardFace(c)),
        Array.from({ length: size - rows[row].length }, () => el("span", { class: "card empty", text: "" }))))));
}

function showOfcBoard() {
  $("#ofc-board-view").replaceChildren(ofcBoardFaces($("#ofc-board").value, "ofc-view"));
}

function ofcDeal(count) {
  const known = new Set([...ofcPlaced($("#ofc-board").value), ...ofcCards($("#ofc-dead").value)]);
  $("#ofc-hand").value = shuffle(DECK.filter((c) => !known.has(c))).slice(0, count).join(" ");
}

function newOfcHand() {
  $("#ofc-board").value = "";
  $("#ofc-dead").value = "";
  ofcDeal(5);
  showOfcBoard();
  $("#ofc-out").replaceChildren();
}

function playPlacement(row) {
  $("#ofc-board").value = row.setting;
  $("#ofc-dead").value = [...ofcCards($("#ofc-dead").value), ...ofcCards(row.discard)].join(" ");
  showOfcBoard();
  const placed = ofcPlaced(row.setting).length;
  if (placed === 13) {
    $("#ofc-hand").value = "";
    $("#ofc-out").replaceChildren(el("p", { class: "headline", "data-testid": "ofc-done",
      text: "Board complete: start a new hand." }));
    return;
  }
  ofcDeal($("#ofc-rules").value === "ofc-classic" ? 1 : 3);
  rankPlacements();
}

function renderPlacements(answer) {
  const body = answer.placements.slice(0, 12).map((r, i) => el("tr", { class: i === 0 ? "best" : "",
    "data-testid": "ofc-row" },
  el("td", { text: String(i + 1) }),
  el("td", { class: "left", "data-testid": "ofc-setting", "data-setting": r.setting },
    ofcBoardFaces(r.setting, "ofc-after")),
  el("td", { class: "left" }, ofcCards(r.discard).map((c) => cardFace(c))),
  el("td", { "data-testid": "ofc-ev", text: fmt(r.ev, 2) }),
  el("td", { class: "note", "data-testid": "ofc-ci", text: r.exact ? "exact" : `${fmt(r.ci_low, 2)} to ${fmt(r.ci_high, 2)}` }),
  el("td", { "data-testid": "ofc-gap", text: i === 0 ? "best" : fmt(r.gap, 2) + (r.exact ? "" :
    ` [${fmt(r.gap_low, 2)}, ${fmt(r.gap_high, 2)}]`) + (r.gap_high < 0 ? "" : " ~") +
    (r.dropped ? ` (dropped after ${r.rollouts.toLocaleString("en")})` : "") }),
  el("td", {}, el("button", { "data-testid": "ofc-play", onclick: () => playPlacement(r), text: "Play" }))));
  $("#ofc-out").replaceChildren(el("div", { class: "scroll" }, el("table", { class: "compact", "data-testid": "ofc-ranking" },
    el("thead", {}, el("tr", {}, ["#", "board after", "discard", "EV", "95% CI", "gap [95% CI]", ""].map((h, i) =>
      el("th", { class: i === 1 || i === 2 ? "left" : "", text: h })))),
    el("tbody", {}, body))),
  el("p", { class: "note", "data-testid": "ofc-note", text: `${answer.rules}, ${answer.opponents} opponent(s)` +
    answer.fantasyland.filter((n) => n > 0).map((n) => ` (in Fantasyland with ${n} cards)`).join("") + ", " +
    (answer.exact ? (answer.samples > 1 ? `exact: every one of the ${answer.samples.toLocaleString("en")} deals ` +
      "of the last street, each played best" : "exact: every placement finishes the board")
      : `${answer.samples.toLocaleString("en")} rollouts a placement (seed 1)` +
        (answer.dropped ? `; ${answer.dropped} clearly worse than the leader dropped early, each with the EV and ` +
          "CI of the rollouts it had" : "")) + ". EV in points a hand, the worth of " +
    "Fantasyland included; gap: to the best, paired on the same deals; ~: not distinguishable from the best " +
    "at 95%." }));
}

async function rankPlacements(event) {
  if (event) event.preventDefault();
  showError($("#ofc-error"), null);
  showOfcBoard();
  try {
    const opponent = $("#ofc-opponent").value;  // "": builds, dealt from the unseen cards
    const answer = await busy($("#ofc-run"), () => api("/api/ofc/place", {
      board: $("#ofc-board").value, hand: $("#ofc-hand").value, dead: $("#ofc-dead").value,
      rules: $("#ofc-rules").value, samples: 500, seed: 1, ...(opponent ? { opponents: [opponent] } : {}),
    }));
    renderPlacements(answer);
  } catch (error) {
    $("#ofc-out").replaceChildren();
    showError($("#ofc-error"), error);
  }
}

// the counts of cards the chosen ruleset deals a Fantasyland hand, fewest first (the page's data, tested
// against the rulesets)
const fantasylandDealt = () => $("#ofc-rules").selectedOptions[0].dataset.fantasyland.split(" ").map(Number);
const fantasylandCards = () => fantasylandDealt()[0];

function clearFantasyland() {
  $("#ofc-fl-out").replaceChildren();
  showError($("#ofc-fl-error"), null);
}

// an opponent in Fantasyland only with a count of cards the ruleset deals there
function offerOpponents() {
  const dealt = fantasylandDealt();
  const select = $("#ofc-opponent");
  for (const option of select.options) {
    option.disabled = option.value !== "" && !dealt.includes(Number(option.value.split(":")[1]));
    option.hidden = option.disabled;
  }
  if (select.selectedOptions[0].disabled) select.value = "";
}

async function solveFantasyland(event) {
  event.preventDefault();
  showError($("#ofc-fl-error"), null);
  try {
    const answer = await busy($("#ofc-fl-run"), () => api("/api/ofc/fantasyland", {
      cards: $("#ofc-fl-cards").value, rules: $("#ofc-rules").value }));
    $("#ofc-fl-out").replaceChildren(ofcBoardFaces(answer.setting, "ofc-fl-board"),
      el("p", { class: "headline", "data-testid": "ofc-fl-summary", text: `Royalties ${answer.royalties}; ` +
        `${answer.stays ? "stays in Fantasyland" : "does not stay"}; discard ` +
        `${answer.discards.join(" ") || "none"}; value ${answer.value}.` }));
  } catch (error) {
    $("#ofc-fl-out").replaceChildren();
    showError($("#ofc-fl-error"), error);
  }
}

function setupOfc() {
  $("#ofc-form").addEventListener("submit", rankPlacements);
  $("#ofc-deal").addEventListener("click", newOfcHand);
  $("#ofc-board").addEventListener("input", showOfcBoard);
  $("#ofc-fl-form").addEventListener("submit", solveFantasyland);
  $("#ofc-fl-deal").addEventListener("click", () => {
    $("#ofc-fl-cards").value = shuffle(DECK).slice(0, fantasylandCards()).join(" ");
    clearFantasyland();
  });
  $("#ofc-fl-cards").addEventListener("input", clearFantasyland);
  $("#ofc-rules").addEventListener("change", () => {
    $("#ofc-fl-deal").textContent = `Deal ${fantasylandCards()}`;
    clearFantasyland();
    $("#ofc-out").replaceChildren();  // a ranking under another ruleset's rules
    offerOpponents();
  });
  offerOpponents();
  showOfcBoard();
}

setupOfc();
