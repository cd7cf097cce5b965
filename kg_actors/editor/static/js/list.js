// The list view beside the picture: every node of the graph on screen as a table, sortable and
// searchable, under the same filters as the picture; the way into a graph too large to draw usefully.
//
// A real <table>: column headers carry aria-sort and sort on click (their buttons), rows are
// focusable (one in the tab order at a time; arrows, Page Up/Down, Home/End move, Enter opens the
// node's panel). It shows one page of rows at a time, so 10,000 nodes cost a page of DOM.

import { api, query, where } from "./api.js";
import { clear, h } from "./dom.js";

const PAGE = 100;
const GIST_CHARS = 140;
const TIER_ORDER = { active: 0, archived: 1, orphaned: 2 };
const COLUMNS = [
  ["id", "Id"], ["gist", "Gist"], ["state", "Tier"], ["score", "Score"], ["edges", "Edges"],
];

export class ListView {
  constructor(app) {
    this.app = app;
    this.root = document.getElementById("list-view");
    this.sort = { key: "score", dir: "descending" };
    this.page = 0;
    this.text = "";
    this.scores = null; // id -> score, for the graph on screen
    this.focusId = null;
    this.search = h("input", { type: "search", id: "list-search", placeholder: "Filter by id or gist", "aria-label": "Filter the list by id or gist",
      oninput: () => { clearTimeout(this.typing); this.typing = setTimeout(() => { this.text = this.search.value.trim().toLowerCase(); this.page = 0; this.refresh(); }, 120); } });
    this.status = h("span", { className: "hint", role: "status", id: "list-status" });
    this.caption = h("caption", { className: "visually-hidden" });
    this.head = h("tr", {});
    this.body = h("tbody", { onkeydown: (e) => this.key(e), onclick: (e) => this.clicked(e) });
    this.pager = h("div", { className: "pager" },
      h("button", { type: "button", id: "list-prev", onclick: () => this.turn(-1) }, "‹ Previous"),
      h("button", { type: "button", id: "list-next", onclick: () => this.turn(1) }, "Next ›"));
    clear(this.root, h("div", { className: "list-head" }, this.search, this.status),
      h("div", { className: "list-scroll" }, h("table", { id: "node-table" }, this.caption, h("thead", {}, this.head), this.body)),
      this.pager);
    document.getElementById("toggle-list").addEventListener("click", () => this.show(this.root.hidden));
  }

  get shown() {
    return !this.root.hidden;
  }

  show(on) {
    this.root.hidden = !on;
    document.getElementById("toggle-list").setAttribute("aria-pressed", String(on));
    document.body.dataset.list = on ? "shown" : "hidden";
    if (on) {
      this.refresh();
      if (!this.scores) this.loadScores();
    }
  }

  // A new graph on screen: its scores are fetched when the list is shown.
  graphChanged() {
    this.scores = null;
    this.page = 0;
    this.focusId = null;
    if (this.shown) {
      this.refresh();
      this.loadScores();
    }
  }

  async loadScores() {
    const view = this.app.view;
    try {
      const out = await api("GET", `/api/scores?${query(where(view))}`);
      if (view !== this.app.view) return;
      this.scores = new Map(Object.entries(out.scores));
      this.refresh();
    } catch {
      // the column shows "…" until the next graph or reload
    }
  }

  // Rows: the graph's nodes (all tiers) under the picture's filters and the search text, sorted.
  rows() {
    const picture = this.app.picture;
    if (!picture) return [];
    const c = this.app.canvas;
    const degree = new Map();
    let relIds = null;
    if (c.filters.rel) relIds = new Set();
    for (const e of picture.edges) {
      degree.set(e.from, (degree.get(e.from) || 0) + 1);
      degree.set(e.to, (degree.get(e.to) || 0) + 1);
      if (relIds && e.rel === c.filters.rel) { relIds.add(e.from); relIds.add(e.to); }
    }
    const text = this.text;
    const out = [];
    for (const n of picture.nodes) {
      if (!c.filters.own || c.hidden[n.state]) continue;
      if (c.filters.debtOnly && !c.debtIds.has(n.id)) continue;
      if (relIds && !relIds.has(n.id)) continue;
      if (text && !n.id.toLowerCase().includes(text) && !n.gist.toLowerCase().includes(text)) continue;
      const score = this.scores ? (this.scores.has(n.id) ? this.scores.get(n.id) : null) : undefined;
      out.push({ id: n.id, gist: n.gist, state: n.state, score, edges: degree.get(n.id) || 0 });
    }
    const { key, dir } = this.sort;
    const sign = dir === "ascending" ? 1 : -1;
    const value = (r) => (key === "state" ? TIER_ORDER[r.state] : r[key]);
    out.sort((a, b) => {
      const x = value(a), y = value(b);
      const missing = (x === null || x === undefined) - (y === null || y === undefined);
      if (missing) return missing; // no score sorts last either way
      if (x < y) return -sign;
      if (x > y) return sign;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
    return out;
  }

  refresh() {
    if (!this.shown) return;
    const rows = this.rows();
    this.total = rows.length;
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));
    this.page = Math.min(this.page, pages - 1);
    const start = this.page * PAGE;
    this.pageIds = rows.slice(start, start + PAGE).map((r) => r.id);
    clear(this.head, COLUMNS.map(([key, label]) => {
      const sorted = this.sort.key === key ? this.sort.dir : "none";
      return h("th", { scope: "col", "aria-sort": sorted, dataset: { key } },
        h("button", { type: "button", className: "sort", onclick: () => this.sortBy(key) }, label,
          h("span", { "aria-hidden": "true" }, sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : "")));
    }));
    const open = this.app.panel.node && this.app.panel.node.id;
    const focusable = this.pageIds.includes(this.focusId) ? this.focusId : this.pageIds[0];
    clear(this.body, rows.slice(start, start + PAGE).map((r) => h("tr", {
      tabIndex: r.id === focusable ? 0 : -1, dataset: { id: r.id }, className: r.id === open ? "current" : "",
      "aria-current": r.id === open ? "true" : null,
    },
    h("th", { scope: "row", className: "cell-id" }, r.id),
    h("td", { className: "cell-gist", title: r.gist }, r.gist.length > GIST_CHARS ? `${r.gist.slice(0, GIST_CHARS - 1)}…` : r.gist),
    h("td", {}, h("span", { className: `badge ${r.state}` }, r.state)),
    h("td", { className: "num" }, r.score === undefined ? "…" : r.score === null ? (r.state === "orphaned" ? "—" : "newest") : r.score.toFixed(3)),
    h("td", { className: "num" }, String(r.edges)))));
    const sortName = COLUMNS.find(([k]) => k === this.sort.key)[1].toLowerCase();
    const where = this.app.view.level === "user" ? "the user graph" : this.app.view.projectPath;
    this.caption.textContent = `Nodes of ${where}, sorted by ${sortName}, ${this.sort.dir}`;
    this.status.textContent = rows.length
      ? `${(start + 1).toLocaleString()}–${Math.min(start + PAGE, rows.length).toLocaleString()} of ${rows.length.toLocaleString()} node(s)`
      : "No node matches.";
    document.getElementById("list-prev").disabled = this.page === 0;
    document.getElementById("list-next").disabled = this.page >= pages - 1;
    performance.mark("list-shown");
    this.root.dataset.rows = String(rows.length);
  }

  sortBy(key) {
    const same = this.sort.key === key;
    const first = key === "score" || key === "edges" ? "descending" : "ascending";
    this.sort = { key, dir: same ? (this.sort.dir === "ascending" ? "descending" : "ascending") : first };
    this.page = 0;
    this.refresh();
    this.head.querySelector(`th[data-key="${key}"] button`).focus();
  }

  turn(step, focus = null) {
    this.page = Math.max(0, this.page + step);
    this.focusId = null;
    this.refresh();
    if (focus !== null) this.focusRow(focus === "last" ? this.pageIds.length - 1 : 0);
  }

  focusRow(index) {
    const rows = this.body.rows;
    if (!rows.length) return;
    const i = Math.max(0, Math.min(rows.length - 1, index));
    for (const r of rows) r.tabIndex = -1;
    rows[i].tabIndex = 0;
    rows[i].focus();
    this.focusId = rows[i].dataset.id;
  }

  key(e) {
    const row = e.target.closest("tr");
    if (!row) return;
    const i = [...this.body.rows].indexOf(row);
    const last = this.body.rows.length - 1;
    const more = (this.page + 1) * PAGE < this.total;
    const moves = {
      ArrowDown: () => (i < last ? this.focusRow(i + 1) : more ? this.turn(1, "first") : null),
      ArrowUp: () => (i > 0 ? this.focusRow(i - 1) : this.page > 0 ? this.turn(-1, "last") : null),
      PageDown: () => (more ? this.turn(1, "first") : this.focusRow(last)),
      PageUp: () => (this.page > 0 ? this.turn(-1, "first") : this.focusRow(0)),
      Home: () => this.focusRow(0),
      End: () => this.focusRow(last),
      Enter: () => this.open(row.dataset.id),
      " ": () => this.open(row.dataset.id),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    move();
  }

  clicked(e) {
    const row = e.target.closest("tr");
    if (row) {
      this.focusRow([...this.body.rows].indexOf(row));
      this.open(row.dataset.id);
    }
  }

  async open(id) {
    this.focusId = id;
    await this.app.selectNode(id);
    for (const r of this.body.rows) {
      const current = r.dataset.id === id;
      r.classList.toggle("current", current);
      if (current) r.setAttribute("aria-current", "true");
      else r.removeAttribute("aria-current");
    }
  }
}
