// The Search and Progress tabs: each renders one endpoint's answer for the graph on screen (Budget: budget.js).

import { api, query, where } from "./api.js";
import { clear, h, toast, when } from "./dom.js";

export async function runSearch(app, text) {
  const root = document.getElementById("tab-search");
  app.showTab("search");
  let out;
  try {
    out = await api("GET", `/api/search?${query({ q: text, ...where(app.view) })}`);
  } catch (err) {
    clear(root, h("p", { className: "msg err" }, err.message));
    app.lastSearch = null;
    app.canvas.clearHighlight();
    return;
  }
  app.lastSearch = out;
  app.canvas.highlight(out);
  const items = out.hits.map((hit) => h("li", { dataset: { id: hit.id }, onclick: () => app.selectNode(hit.id) },
    h("div", {}, h("span", { className: "rid" }, `${hit.rank}. ${hit.id}`), " ",
      h("span", { className: `badge ${hit.state}` }, hit.state)),
    h("div", {}, hit.gist),
    h("div", { className: "fields" }, `matched in ${hit.matched.join(", ") || "—"} · score ${hit.score.toFixed(4)}`)));
  clear(root,
    h("p", { className: "hint" }, `${out.total} node(s) match “${out.query}” in the ${out.level} graph`
      + (out.total > out.hits.length ? `; the best ${out.hits.length} shown` : "") + "."),
    h("ul", { className: "results", id: "search-results" }, items),
    out.connectors.length ? h("p", { className: "hint" }, `Connected through: ${out.connectors.join(", ")}`) : null);
}

export function clearSearch(app) {
  app.lastSearch = null;
  clear(document.getElementById("tab-search"), h("p", { className: "hint" }, "Search ranks like kg_search: ids and gists weigh more, rare terms lead."));
  app.canvas.clearHighlight();
}

export async function showProgress(app) {
  const root = document.getElementById("tab-progress");
  let out;
  try {
    out = await api("GET", `/api/progress?${query(where(app.view))}`);
  } catch (err) {
    clear(root, h("p", { className: "msg err" }, err.message));
    return;
  }
  const tasks = Object.entries(out.tasks).sort(([a], [b]) => a.localeCompare(b)).map(([id, state]) => taskBox(app, id, state));
  const newId = h("input", { type: "text", id: "new-task-id", placeholder: "task id, e.g. scout" });
  clear(root,
    h("p", { className: "hint" }, `kg_progress tasks stored in the ${out.level} graph.`),
    tasks.length ? tasks : h("p", { className: "hint" }, "No tasks yet."),
    h("div", { className: "actions" }, newId, h("button", { type: "button", onclick: () => {
      if (!newId.value.trim()) return;
      root.append(taskBox(app, newId.value.trim(), {}));
      newId.value = "";
    } }, "New task")));
}

function taskBox(app, id, state) {
  const { _trail: trail, last_ts: lastTs, ...shown } = state;
  const text = h("textarea", { rows: 6, value: JSON.stringify(shown, null, 2), dataset: { task: id } });
  const msg = h("span", { className: "msg" });
  const save = async () => {
    let parsed;
    try {
      parsed = JSON.parse(text.value);
    } catch (err) {
      msg.className = "msg err";
      msg.textContent = `Not JSON: ${err.message}`;
      return;
    }
    try {
      await api("POST", "/api/progress", { ...where(app.view), task_id: id, state: parsed });
      toast(`Progress saved for ${id}`);
      showProgress(app);
    } catch (err) {
      msg.className = "msg err";
      msg.textContent = err.message;
    }
  };
  return h("div", { className: "task" },
    h("div", {}, h("b", {}, id), h("span", { className: "hint" }, ` · last written ${when(lastTs)}`)),
    text,
    h("div", { className: "actions" }, h("button", { type: "button", onclick: save }, "Save state"), msg),
    trail && trail.length ? h("details", {}, h("summary", {}, `Trail (${trail.length} writes)`),
      h("pre", { className: "line" }, trail.map((t) => JSON.stringify(t)).join("\n"))) : null);
}
