// The Search tab: the search endpoint's answer for the graph on screen (Progress: progress.js, Budget: budget.js).

import { api, query, where } from "./api.js";
import { clear, h } from "./dom.js";

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
