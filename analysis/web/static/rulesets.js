"use strict";
// The Rulesets tab: what a ruleset is worth. A simulate job on the server (POST /api/jobs, as
// `sapsam simulate`) deals tables of the chosen seats and scores each under every chosen
// ruleset; the page follows its progress and shows each seat's EV per hand, SD and the rates of
// fouls, surrenders, naturals and sweeps, each with its 95% interval. Uses app.js's helpers.

// (field, heading): a seat's sweeps given are the opponents it swept, taken those that swept it
const SIM_EVENTS = [["fouls", "fouls"], ["surrenders", "surrenders"], ["naturals", "naturals"],
  ["sweeps_given", "sweeps won"], ["sweeps_taken", "sweeps lost"], ["home_runs", "home runs"]];
const SIM_DEFAULT = ["standard", "two-four"];
let simJob = null;  // the job the tab follows; a newer run or a cancel stops following the older

async function setupRulesets() {
  $("#sim-run").addEventListener("click", () => runSimulation().catch((error) => showError($("#sim-error"), error)));
  $("#sim-cancel").addEventListener("click", cancelSimulation);
  const rules = await api("/api/rules");
  $("#sim-rules").replaceChildren(...Object.entries(rules).map(([id, text]) => el("label", { class: "check", title: text },
    el("input", { type: "checkbox", value: id, "data-testid": "sim-rule", ...(SIM_DEFAULT.includes(id) && { checked: "" }) }),
    ` ${id}`)));
}

function chosenRulesets() {
  return [...document.querySelectorAll("#sim-rules input:checked")].map((box) => box.value);
}

async function runSimulation() {
  showError($("#sim-error"), null);
  const rules = chosenRulesets();
  if (!rules.length) return showError($("#sim-error"), "choose at least one ruleset");
  $("#sim-out").replaceChildren();
  const body = { kind: "simulate", rules, players: Number($("#sim-players").value), seats: [$("#sim-seats").value],
    tables: Number($("#sim-tables").value), seed: 0 };
  // busy from the click, so that a second click cannot start a second job
  await busy($("#sim-run"), async () => {
    const job = await api("/api/jobs", body);
    simJob = job.id;
    $("#sim-cancel").hidden = false;
    await follow(job.id);
  });
}

// Poll the job until it stops; shows its progress, then its result (or why it stopped). A poll
// that fails is tried again, five times at most, before the tab gives up following
async function follow(id) {
  for (let failed = 0; ;) {
    let job;
    try {
      job = await api(`/api/jobs/${id}`);
      failed = 0;
    } catch (error) {
      if (++failed > 5) {
        $("#sim-progress").textContent = "";
        throw new Error(`lost the job ${id} (${error.message}); Cancel stops it on the server`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * failed));
      continue;
    }
    if (simJob !== id) return;  // a newer run, or cancelled
    const { done, total } = job.progress;
    $("#sim-progress").textContent = job.state === "queued" ? "queued"
      : `${job.progress.stage || "starting"} ${Math.round(done).toLocaleString("en")}` + (total ? ` of ${total.toLocaleString("en")}` : "");
    if (job.state === "done") return renderSimulation(job);
    if (job.state === "failed" || job.state === "cancelled") {
      $("#sim-cancel").hidden = true;
      $("#sim-progress").textContent = "";
      return showError($("#sim-error"), job.state === "failed" ? job.error : "cancelled");
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (simJob !== id) return;  // cancelled while waiting: the button goes now, not a poll later
  }
}

async function cancelSimulation() {
  const id = simJob;
  simJob = null;
  $("#sim-cancel").hidden = true;
  $("#sim-progress").textContent = "";
  if (id) await fetch(`/api/jobs/${id}`, { method: "DELETE" });
  showError($("#sim-error"), "cancelled");
}

const per100 = (x) => (100 * x).toFixed(x < 0.1 ? 2 : 1);

function renderSimulation(job) {
  $("#sim-cancel").hidden = true;
  $("#sim-progress").textContent = `${job.params.tables.toLocaleString("en")} tables` +
    (job.seconds == null ? "" : ` in ${job.seconds.toFixed(1)} s`);
  const rows = job.result.seats.map((s) => el("tr", { "data-testid": "sim-row" },
    el("td", { class: "left", text: s.ruleset }), el("td", { text: String(s.seat) }),
    el("td", { class: "left", text: s.policy }),
    el("td", { "data-testid": "sim-ev", text: fmt(s.mean) }), el("td", { class: "note", text: interval(s.ci_low, s.ci_high) }),
    el("td", { text: s.sd == null ? "-" : s.sd.toFixed(2) }),
    SIM_EVENTS.map(([name]) => el("td", { "data-testid": `sim-${name}` }, `${per100(s[name] / s.hands)} `,
      el("span", { class: "note", text: `[${per100(s[`${name}_low`])}, ${per100(s[`${name}_high`])}]` })))));
  $("#sim-out").replaceChildren(
    el("div", { class: "scroll" }, el("table", { class: "compact sim", "data-testid": "sim-table" },
      el("thead", {}, el("tr", {}, ["ruleset", "seat", "seats play", "EV", "95% CI", "SD",
        ...SIM_EVENTS.map(([, label]) => `${label} /100 hands`)].map((t, i) => el("th", { class: i === 0 || i === 2 ? "left" : "", text: t })))),
      el("tbody", {}, rows))),
    el("p", { class: "note", text: `${job.params.players} players, ${job.params.seats[0]} seats, ` +
      `${job.params.tables.toLocaleString("en")} tables dealt once and scored under every ruleset (seed ` +
      `${job.params.seed}). EV: units a hand, with its 95% CI; an event's rate per 100 hands with its 95% ` +
      "(Wilson) interval. As sapsam simulate, whose report these files are:" }),
    el("p", { class: "note" }, job.files.flatMap((name) => [el("a", { href: `/api/jobs/${job.id}/files/${name}`, text: name }), " "])));
}

setupRulesets().catch((error) => showError($("#sim-error"), error));
