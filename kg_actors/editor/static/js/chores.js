// The Budget tab's chores section: the graph's debt factors over time (the tick's readings) and the
// background maintenance runs on it (chores.jsonl), each with its outcome. Read-only: chores are
// switched on in ~/.knowledge-graph/chores.json, and the server decides when one runs.

import { api, query, where } from "./api.js";
import { h } from "./dom.js";

const FACTORS = [
  ["oversized", "oversized gists"], ["unconnected", "unconnected"], ["long_ids", "long ids"],
  ["dangling", "dangling touches"], ["lift", "lift clusters"], ["smeared", "smeared terms"],
];

export async function choresPanel(app) {
  const view = app.view;
  const box = h("div", { className: "card chores-panel", id: "chores-panel" }, h("h3", {}, "Background maintenance"));
  let out;
  try {
    out = await api("GET", `/api/chores?${query(where(view))}`);
  } catch (err) {
    box.append(h("p", { className: "msg err" }, err.message));
    return box;
  }
  box.dataset.runs = String(out.runs.length);
  box.append(h("p", { className: "hint chores-state" }, out.enabled
    ? (out.running ? `A ${out.running.tier} is running on ${out.running.graph} now.` : "Chores are on: a prompt may start one when debt and quota allow.")
    : (out.warning || "Chores are off (switch them on in chores.json, or with KG_CHORES=1).")));
  box.append(factorTable(out.factors));
  box.append(runTable(out.runs));
  if (out.skips.length) {
    box.append(h("details", {}, h("summary", {}, `Latest refusals (${out.skips.length})`),
      h("ul", { className: "chore-skips" }, out.skips.map((s) => h("li", {}, `${when(s.ts)} — ${s.reason}`)))));
  }
  return box;
}

function when(ts) {
  return ts ? new Date(ts * 1000).toLocaleString() : "";
}

// Each factor's count at the first and the latest reading, and its smallest and largest between.
function factorTable(rows) {
  if (!rows.length) return h("p", { className: "hint" }, "Debt factors over time appear once the tick has taken readings.");
  const first = rows[0], last = rows[rows.length - 1];
  return h("table", { className: "chore-factors" },
    h("tr", {}, h("th", {}, "Factor"), h("th", {}, when(first.ts)), h("th", {}, "range"), h("th", {}, when(last.ts))),
    h("tr", { dataset: { factor: "debt" } }, h("td", {}, "debt score"), h("td", {}, String(first.debt)), h("td", {}, ""), h("td", {}, String(last.debt))),
    FACTORS.map(([key, label]) => {
      const values = rows.map((r) => r[key] ?? 0);
      return h("tr", { dataset: { factor: key } }, h("td", {}, label), h("td", {}, String(values[0])),
        h("td", { className: "hint" }, `${Math.min(...values)}–${Math.max(...values)}`), h("td", {}, String(values[values.length - 1])));
    }));
}

// Only a run that wrote is green. "no change" looked and left the graph as it was: muted, not an error.
// "no kg call" (the agent never reached kg: a refusal, a sign-in prompt), a timeout or an exit code: red.
function runClass(outcome) {
  if (outcome === "ok") return "ok";
  if (outcome === "no change" || outcome === "running") return "idle";
  return "bad";
}

// Under the outcome: what the run did in kg, or, when it never reached kg, the end of what it printed (the
// only word on why). Runs logged before kg calls were counted have neither.
function runNote(r) {
  if (r.outcome === "no kg call") return r.detail ? h("div", { className: "hint run-note" }, r.detail.slice(-120)) : null;
  if (typeof r.kg_calls !== "number") return null;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return h("div", { className: "hint run-note" }, `${plural(r.kg_calls, "kg call")}, ${plural(r.kg_writes, "write")}`);
}

function runTable(runs) {
  if (!runs.length) return h("p", { className: "hint" }, "No chore or pass has run on this graph.");
  return h("table", { className: "chore-runs" },
    h("tr", {}, h("th", {}, "Started"), h("th", {}, "What"), h("th", {}, "Runner"), h("th", {}, "Outcome"), h("th", {}, "Debt")),
    runs.map((r) => h("tr", { className: `chore-run ${runClass(r.outcome)}`, title: r.detail || "" },
      h("td", {}, when(r.started)),
      h("td", {}, r.tier === "pass" ? "maintenance pass" : `${r.kind}: ${(r.targets || []).join(", ")}`),
      h("td", {}, r.runner || ""),
      h("td", { className: "outcome" }, r.elapsed_s != null ? `${r.outcome} (${Math.round(r.elapsed_s)} s)` : r.outcome,
        runNote(r)),
      h("td", {}, r.debt_after != null ? `${r.debt_before} → ${r.debt_after}` : String(r.debt_before ?? "")))));
}
