// The Budget tab: what kg_read renders per level, the DEBT line in plain words with the nodes behind
// each factor (a click opens one), and the tick's readings of debt and render size as a small chart.
//
// Paying debt down from here (dispatching a chore or a maintenance pass) belongs to the chores work,
// tracked in its own issue; this tab shows what to act on and opens each node for a person to fix.

import { api, query, where } from "./api.js";
import { choresPanel } from "./chores.js";
import { clear, h } from "./dom.js";

const LIST_MAX = 200; // per factor; the rest are counted

// What each factor means, for a person: the summary line and its hover explanation.
const FACTORS = [
  ["oversized", "Oversized gists", "Gists over 300 characters: a gist should be one claim; move the detail into notes."],
  ["unconnected", "Unconnected", "Active nodes with no edge at all: link each to what it depends on or explains, so recall finds it."],
  ["long_ids", "Long or dated ids", "Ids of more than five words or with a date: an id names a subject in 3-5 words; rename it."],
  ["dangling", "Dangling touches", "Touches naming files that no longer exist: point them at the file's new place or drop them."],
];

export async function showBudget(app) {
  const root = document.getElementById("tab-budget");
  const view = app.view;
  let out;
  try {
    out = await api("GET", `/api/budget?${query({ project_path: where(view).project_path })}`);
  } catch (err) {
    clear(root, h("p", { className: "msg err" }, err.message));
    return;
  }
  const blocks = Object.entries(out.levels).map(([level, b]) => levelCard(app, level, b));
  clear(root, h("p", { className: "hint" }, "What kg_read renders per level, counted exactly as the compactor counts it."), blocks);
  // The graph on screen: the nodes behind its debt, and its readings over time.
  const [behind, history] = await Promise.all([
    api("GET", `/api/debt_nodes?${query(where(view))}`).catch((err) => ({ error: err.message })),
    api("GET", `/api/readings?${query(where(view))}`).catch(() => ({ readings: [] })),
  ]);
  if (view !== app.view) return;
  const card = root.querySelector(`.card[data-level="${view.level}"]`);
  if (!card) return;
  card.append(chart(history.readings));
  if (behind.error) card.append(h("p", { className: "msg err" }, behind.error));
  else card.append(debtLists(app, behind.behind, out.levels[view.level].debt_factors));
  const chores = await choresPanel(app);
  if (view !== app.view) return;
  root.append(chores);
  document.body.dataset.budget = "shown";
}

function levelCard(app, level, b) {
  const f = b.debt_factors || {};
  const onScreen = level === app.view.level;
  return h("div", { className: "card", dataset: { level } },
    h("b", {}, `${level} graph`),
    h("div", {}, `Active render: ${b.charge.toLocaleString()} of ${b.budget.toLocaleString()} characters (${Math.round(b.ratio * 100)}%)`),
    h("div", { className: `meter${b.ratio > 1 ? " over" : ""}` }, h("div", { style: `width:${Math.min(100, b.ratio * 100)}%` })),
    h("div", { className: "hint" }, `Archived anchors ${b.archived_anchor_chars.toLocaleString()} of ${b.archived_budget.toLocaleString()} characters · `
      + `${b.counts.active} active, ${b.counts.archived} archived, ${b.counts.orphaned} orphaned`),
    f.level ? h("div", { className: "debt-verdict" },
      h("b", { className: `debt-${f.level.toLowerCase()}` }, `Maintenance debt: ${{ HIGH: "high", MED: "medium", LOW: "low" }[f.level]}`),
      ` (${f.score.toFixed(2)}) — `, plainDebt(f)) : null,
    h("details", {}, h("summary", {}, "The raw HEALTH and DEBT lines (as agents see them)"),
      h("pre", { className: "line" }, b.health),
      h("pre", { className: "line" }, b.debt || "DEBT: not computed by this server version"),
      h("p", { className: "hint" }, "HEALTH counts the active nodes with no edge in the read (an edge to an orphaned node is not shown); "
        + "DEBT's unconnected, those with no edge at all.")),
    onScreen ? null : h("p", { className: "hint" }, `Open the ${level} graph to see the nodes behind its debt.`));
}

function plainDebt(f) {
  const tended = f.never_maintained ? "never maintained" : `last maintained ${Math.round(f.untended_days)} day(s) ago`;
  return h("span", { title: "Debt = how long since a maintenance pass × how much the graph is used × how worn it is (the factors below)." },
    `${tended}; used on ${f.active_days} of the last 7 days.`);
}

function debtLists(app, behind, factors) {
  const open = (id) => app.selectNode(id);
  const nodeButton = (id, extra) => h("li", {}, h("button", { type: "button", className: "link", dataset: { node: id }, onclick: () => open(id) }, id),
    extra ? h("span", { className: "hint" }, ` ${extra}`) : null);
  const sections = FACTORS.map(([key, title, why]) => {
    const ids = behind[key];
    const extra = key === "dangling" ? (id) => (behind.dangling_touches[id] || []).join(", ") : () => null;
    return factor(key, title, why, ids.length, ids.slice(0, LIST_MAX).map((id) => nodeButton(id, extra(id))));
  });
  const clusters = behind.lift_clusters;
  sections.push(factor("lift_clusters", "Lift clusters",
    "Dated episodes that share a lesson nobody wrote down: write it once as a principle and link the episodes to it.",
    clusters.length, clusters.slice(0, LIST_MAX).map((c, k) => h("li", {}, h("span", { className: "hint" }, `cluster ${k + 1}: `),
      c.map((id, i) => [i ? ", " : "", h("button", { type: "button", className: "link", dataset: { node: id }, onclick: () => open(id) }, id)])))));
  sections.push(factor("smeared", "Smeared terms",
    "A subject re-described across many nodes while one node owns it: move the facts into that hub and leave edges.",
    behind.smeared.length, behind.smeared.map((s) => h("li", {}, `“${s.term}” in ${s.count} nodes → `,
      h("button", { type: "button", className: "link", dataset: { node: s.hub }, onclick: () => open(s.hub) }, s.hub)))));
  const total = factors ? factors.nodes : null;
  return h("div", { className: "debt-lists", id: "debt-lists" },
    h("h3", {}, "What the debt is made of"),
    total !== null ? h("p", { className: "hint" }, `Counted over ${total} active node(s). Click a node to open it.`) : null,
    sections);
}

function factor(key, title, why, count, items) {
  return h("details", { className: "debt-factor", dataset: { factor: key }, open: count > 0 && count <= 20 },
    h("summary", { title: why }, `${title} — ${count}`),
    h("p", { className: "hint" }, why),
    count ? h("ul", { className: "debt-nodes" }, items, count > items.length ? h("li", { className: "hint" }, `and ${count - items.length} more`) : null)
      : h("p", { className: "hint" }, "None."));
}

// Debt (0-1) and the active render as a share of its budget, over the kept readings.
function chart(readings) {
  const box = h("div", { className: "chart", id: "readings-chart" });
  if (!readings || readings.length < 2) {
    box.append(h("p", { className: "hint" }, "Debt and render size over time appear here once the server's tick has taken a few readings."));
    return box;
  }
  const W = 380, H = 90, P = 4;
  const t0 = readings[0].ts, t1 = readings[readings.length - 1].ts;
  const top = Math.max(1.2, ...readings.map((r) => r.charge / r.budget));
  const x = (ts) => P + ((ts - t0) / Math.max(t1 - t0, 1)) * (W - 2 * P);
  const y = (v) => H - P - (v / top) * (H - 2 * P);
  // The HTML parser gives the element its SVG namespace (a constant string, never data).
  const template = document.createElement("template");
  template.innerHTML = "<svg></svg>";
  const svg = template.content.firstChild;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const last = readings[readings.length - 1];
  svg.setAttribute("aria-label", `Over ${readings.length} readings: debt from ${readings[0].debt.toFixed(2)} to ${last.debt.toFixed(2)}, `
    + `active render from ${Math.round((100 * readings[0].charge) / readings[0].budget)}% to ${Math.round((100 * last.charge) / last.budget)}% of its budget`);
  const line = (cls, points) => {
    const el = document.createElementNS(svg.namespaceURI, "polyline");
    el.setAttribute("class", cls);
    el.setAttribute("points", points.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "));
    svg.append(el);
  };
  line("budget-line", [[P, y(1)], [W - P, y(1)]]);
  line("charge", readings.map((r) => [x(r.ts), y(r.charge / r.budget)]));
  line("debt", readings.map((r) => [x(r.ts), y(r.debt)]));
  const when = (ts) => new Date(ts * 1000).toLocaleDateString();
  box.append(h("div", { className: "chart-head" }, h("b", {}, "Over time"),
    h("span", { className: "key debt" }, "debt"), h("span", { className: "key charge" }, "render / budget"),
    h("span", { className: "key budget-line" }, "budget")), svg,
  h("div", { className: "hint chart-axis" }, h("span", {}, when(t0)), h("span", {}, when(t1))));
  return box;
}
