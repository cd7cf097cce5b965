// The editor page: pick a graph, draw it, keep it live; the tabs and the node panel do the rest.
//
// State that matters: `view` (which graph is on screen). The picture is loaded
// only after the change feed confirmed the subscription for that graph, so no
// change can fall between the load and the first event.

import { api, query, where } from "./api.js";
import { Canvas, HUGE } from "./canvas.js";
import { clear, h, toast } from "./dom.js";
import { Conflicts } from "./gitview.js";
import { ListView } from "./list.js";
import { Live } from "./live.js";
import { NodePanel } from "./panel.js";
import { ProjectsDialog } from "./projects.js";
import { showBudget } from "./budget.js";
import { showProgress } from "./progress.js";
import { clearSearch, runSearch } from "./tabs.js";

const STATES_AFTER_WRITE_MS = 400;
const STATES_IDLE_MS = 30_000; // the server's default tick
const STATES_MAX_WAIT_MS = 2_000; // a steady stream of writes re-reads the tiers at least this often
const PROJECTS_AFTER_WRITE_MS = 3_000; // the drop-down's counts follow writes to any graph, re-read at most this often
const ARRIVALS_KEPT = 10_000; // the benchmark's arrival times: the newest this many

// A graph's option in the drop-down: a project `p` (a row of /api/projects), or the user graph (null).
function optionValue(p) {
  return p.project_path || `slug:${p.slug}`;
}

function optionText(p, c) {
  const counts = `${c.active} active · ${c.archived} archived · ${c.orphaned} orphaned · ${c.edges} edges`;
  if (!p) return `User graph — ${counts}`;
  const why = !p.project_path ? " (no recorded path)" : !p.path_exists ? " (folder missing)" : "";
  return `${p.slug}${why} — ${counts} — ${p.shown_path || p.project_path || "?"}`;
}

// Every node (by tier) and edge of a picture as read and kept current by the feed.
function pictureCounts(picture) {
  const c = { active: 0, archived: 0, orphaned: 0, edges: picture.edges.length };
  for (const n of picture.nodes) c[n.state] += 1;
  return c;
}

// The graph the address names (after "#"), decoded.
function addressed() {
  const wanted = location.hash.slice(1);
  try {
    return decodeURIComponent(wanted);
  } catch {
    return wanted; // a hand-typed address with a bare "%": the name as typed (the page's own links are encoded)
  }
}

class App {
  constructor() {
    this.view = { level: "user", projectPath: null };
    this.projects = [];
    this.canvas = new Canvas(document.getElementById("cy"), {
      onSelect: (id) => (id ? this.selectNode(id, false) : null),
      onHover: (data, at) => this.hover(data, at),
    });
    this.canvas.onComplete = () => this.pictureComplete();
    this.panel = new NodePanel(document.getElementById("tab-node"), this);
    this.projectsDialog = new ProjectsDialog(this);
    this.list = new ListView(this);
    this.conflicts = new Conflicts(this);
    this.picture = null; // the graph on screen as last read, kept current by the feed (the list view's rows)
    this.live = new Live({
      onEvent: (event) => this.onEvent(event),
      onState: (state) => this.onLiveState(state),
      onResubscribed: () => this.refreshAfterOutage(),
    });
    this.tab = "node";
    this.ownRenames = new Set(); // "old\0new" of renames this tab asked for, until their echo comes
    this.stats = { events: 0, lastEvent: null, arrivals: {} }; // arrivals: node id -> Date.now(), for the benchmark
  }

  async start() {
    this.wire();
    this.live.start();
    // The graph named in the address opens first (listing reads every graph file; it can wait a moment);
    // a name the server does not know falls back to the user graph. Without one, the project of the
    // most recently active session: that is what a person almost always came for.
    let wanted = addressed();
    if (!location.hash) {
      try {
        wanted = (await api("GET", "/api/recent_project")).project_path || "";
      } catch {
        wanted = "";
      }
    }
    await this.openNamed(wanted);
    // Another graph typed into the address (or reached by Back): followed. The page's own writes of the
    // address (replaceState) fire no event.
    window.addEventListener("hashchange", () => {
      const name = addressed();
      const shown = this.view.level === "user" ? "user" : this.view.projectPath;
      if ((name || "user") !== shown) this.openNamed(name).catch(() => {});
    });
    await this.loadProjects();
    document.body.dataset.projects = "listed";
    this.scheduleStates(STATES_IDLE_MS);
  }

  // A graph by its name in the address: "user" (or none) or a project's path; one that cannot be
  // shown falls back to the user graph, with a word.
  async openNamed(wanted) {
    try {
      await this.pick(wanted && wanted !== "user" ? { level: "project", projectPath: wanted } : { level: "user", projectPath: null });
    } catch (err) {
      toast(`Cannot open ${wanted}: ${err.message}`);
      await this.pick({ level: "user", projectPath: null });
    }
  }

  hover(data, at) {
    const tip = document.getElementById("tip");
    if (!data) {
      tip.hidden = true;
      return;
    }
    const what = data.kind === "node" ? `${data.state}: ${data.gist}` : data.kind === "file" ? "a file" : "a node of another graph";
    clear(tip, h("b", {}, data.id), what.length > 240 ? `${what.slice(0, 239)}…` : what);
    tip.style.left = `${at.x + 14}px`;
    tip.style.top = `${at.y + 14}px`;
    tip.hidden = false;
  }

  wire() {
    document.getElementById("graph-select").addEventListener("change", (e) => {
      const value = e.target.value;
      this.pick(value === "user" ? { level: "user", projectPath: null } : { level: "project", projectPath: value }).catch(() => {});
    });
    document.getElementById("to-user").addEventListener("click", () => this.pick({ level: "user", projectPath: null }).catch(() => {}));
    document.getElementById("search-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = document.getElementById("search-input").value.trim();
      if (text) runSearch(this, text);
    });
    document.getElementById("search-clear").addEventListener("click", () => this.clearSearch());
    document.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        document.getElementById("search-input").focus();
      } else if (e.key === "Escape" && document.activeElement === document.getElementById("search-input")) {
        this.clearSearch();
      }
    });
    document.getElementById("new-node").addEventListener("click", () => {
      this.showTab("node");
      this.panel.openNew();
    });
    document.getElementById("fit").addEventListener("click", () => this.canvas.fit());
    document.getElementById("relayout").addEventListener("click", () => this.canvas.refine());
    document.getElementById("draw-archive").addEventListener("click", () => {
      this.canvas.drawArchive = true;
      this.reloadGraph().catch(() => {});
    });
    this.wireFilters();
    for (const button of document.querySelectorAll("#tabs button")) {
      button.addEventListener("click", () => this.showTab(button.dataset.tab));
    }
  }

  // Filters: tiers, levels, one relation, "has debt". The list view applies the same ones.
  wireFilters() {
    const on = (id, fn) => document.getElementById(id).addEventListener("change", (e) => { fn(e.target); this.filtersChanged(); });
    on("show-active", (el) => this.canvas.setHidden("active", !el.checked));
    on("show-archived", (el) => this.canvas.setHidden("archived", !el.checked));
    on("show-orphaned", (el) => {
      this.canvas.setHidden("orphaned", !el.checked);
      this.reloadGraph().catch(() => {});
    });
    on("show-own", (el) => this.canvas.setFilters({ own: el.checked }));
    on("show-other", (el) => this.canvas.setFilters({ other: el.checked }));
    on("show-files", (el) => this.canvas.setFilters({ files: el.checked }));
    on("filter-rel", (el) => this.canvas.setFilters({ rel: el.value }));
    on("filter-debt", (el) => {
      if (el.checked) {
        this.loadDebtIds().then(() => { this.canvas.setFilters({ debtOnly: true }); this.list.refresh(); }).catch((err) => toast(err.message));
      }
      else this.canvas.setFilters({ debtOnly: false });
    });
  }

  filtersChanged() {
    const ids = ["show-active", "show-archived", "show-own", "show-other", "show-files"];
    const off = ids.filter((id) => !document.getElementById(id).checked).length
      + (document.getElementById("show-orphaned").checked ? 1 : 0)
      + (document.getElementById("filter-rel").value ? 1 : 0) + (document.getElementById("filter-debt").checked ? 1 : 0);
    document.getElementById("filter-count").textContent = off ? String(off) : "";
    if (this.list) this.list.refresh();
  }

  // The nodes behind any DEBT factor of the graph on screen.
  async loadDebtIds() {
    const view = this.view;
    const out = await api("GET", `/api/debt_nodes?${query(where(view))}`);
    if (view !== this.view) return;
    const b = out.behind;
    this.canvas.debtIds = new Set([...b.oversized, ...b.unconnected, ...b.long_ids, ...b.dangling, ...b.lift_clusters.flat()]);
  }

  // The relation filter offers the relations drawn now (a kept choice stays even if it is gone).
  refreshRelations() {
    const select = document.getElementById("filter-rel");
    const current = select.value;
    const rels = this.canvas.relations();
    if (current && !rels.includes(current)) rels.push(current);
    clear(select, h("option", { value: "" }, "any"), rels.map((rel) => h("option", { value: rel }, rel)));
    select.value = current;
  }

  async loadProjects() {
    const out = await api("GET", "/api/projects");
    this.projects = out.projects;
    const select = document.getElementById("graph-select");
    // The graph on screen is counted as the footer counts it, from the picture the feed keeps current.
    const shown = this.view.level === "user" ? "user" : this.view.projectPath;
    const counts = (value, c) => (value === shown && this.picture ? pictureCounts(this.picture) : c);
    const options = [h("option", { value: "user" }, optionText(null, counts("user", out.user)))];
    for (const p of out.projects) {
      const value = optionValue(p);
      options.push(h("option", { value, disabled: !p.openable, title: p.shown_path || p.project_path || "" }, optionText(p, counts(value, p.counts))));
    }
    const same = select.options.length === options.length
      && options.every((o, i) => select.options[i].value === o.value && select.options[i].disabled === o.disabled);
    if (same) {
      // Only counts changed: new words in place, so a drop-down open in the person's hand stays open.
      options.forEach((o, i) => { if (select.options[i].textContent !== o.textContent) select.options[i].textContent = o.textContent; });
    } else {
      clear(select, options);
    }
    select.value = this.view.level === "user" ? "user" : this.view.projectPath;
  }

  async pick(view) {
    performance.mark("graph-pick");
    document.body.dataset.graph = "loading";
    this.view = view;
    document.getElementById("graph-select").value = view.level === "user" ? "user" : view.projectPath;
    history.replaceState(null, "", view.level === "user" ? "#user" : `#${encodeURIComponent(view.projectPath)}`);
    this.panel.close();
    this.picture = null;
    this.canvas.drawArchive = false;
    this.list.graphChanged();
    document.getElementById("search-input").value = "";
    clearSearch(this);
    await this.live.subscribe(view.level === "project" ? view.projectPath : null);
    await this.reloadGraph();
  }

  // Re-read the whole picture, at most one read at a time: asks made meanwhile make one more read after it.
  reloadSoon() {
    if (this.reloading) {
      this.reloadAgain = true;
      return;
    }
    this.reloading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.reloadGraph().catch(() => {});
        } while (this.reloadAgain);
      } finally {
        this.reloading = null;
      }
    })();
  }

  async reloadGraph() {
    const view = this.view;
    let picture;
    try {
      picture = await api("GET", `/api/graph?${query(where(view))}`);
    } catch (err) {
      if (view !== this.view) return;
      document.body.dataset.graph = "error";
      toast(`Cannot show this graph: ${err.message}`);
      throw err;
    }
    if (view !== this.view) return; // another pick overtook this one
    if (view.level === "project" && picture.project_path && picture.project_path !== view.projectPath) {
      view.projectPath = picture.project_path; // the resolved root: what change events name
      await this.live.subscribe(view.projectPath);
    }
    performance.mark("graph-fetched");
    this.picture = { nodes: picture.nodes, edges: picture.edges };
    // Too large to draw usefully: the list leads, the picture holds the active part.
    if (picture.nodes.length > HUGE && !this.list.shown) this.list.show(true);
    else this.list.refresh();
    document.body.dataset.complete = "no";
    const drawn = this.canvas.load(picture);
    if (!this.canvas.stream) this.pictureComplete();
    this.updateCounts();
    performance.mark("graph-built");
    await drawn; // ready means painted (a big graph's first picture; its archive keeps arriving)
    if (view !== this.view) return;
    performance.mark("graph-ready");
    document.body.dataset.graph = "ready";
    if (this.tab === "budget") showBudget(this);
    if (this.tab === "progress") showProgress(this);
    this.conflicts.refresh();
  }

  // Every node of the picture is drawn (a big graph's archive arrives after its first picture).
  pictureComplete() {
    this.updateCounts();
    this.refreshRelations();
    if (this.canvas.filters.debtOnly) this.loadDebtIds().then(() => this.canvas.applyVisibility()).catch(() => {});
    if (this.lastSearch) this.canvas.highlight(this.lastSearch, false);
    performance.mark("graph-complete");
    document.body.dataset.complete = "yes";
  }

  async selectNode(id, center = true) {
    this.showTab("node");
    this.canvas.select(id, center);
    await this.panel.open(id);
    if (this.panel.node && this.canvas.omitted.has(id)) {
      this.canvas.reveal(this.panel.node);
      this.canvas.select(id, center);
      this.updateCounts();
    }
  }

  // A project node's edge names a user-graph node: open that graph, then the node.
  async openInUserGraph(id) {
    await this.pick({ level: "user", projectPath: null });
    await this.selectNode(id);
  }

  clearSearch() {
    document.getElementById("search-input").value = "";
    clearSearch(this);
  }

  showTab(name) {
    this.tab = name;
    for (const button of document.querySelectorAll("#tabs button")) {
      button.setAttribute("aria-selected", String(button.dataset.tab === name));
    }
    for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${name}`;
    if (name === "budget") showBudget(this);
    if (name === "progress") showProgress(this);
  }

  updateCounts() {
    const c = this.canvas.counts();
    const where = this.view.level === "user" ? "user graph" : this.view.projectPath;
    const hidden = c.notDrawn ? ` (${c.notDrawn.toLocaleString()} not drawn)` : "";
    document.getElementById("counts").textContent =
      `${where}: ${c.active} active · ${c.archived} archived · ${c.orphaned} orphaned${hidden} · ${c.edges} edges drawn · ${c.outside} files or other-graph ends`;
    document.getElementById("draw-archive").hidden = !(this.canvas.huge && !this.canvas.drawArchive);
    // Only a graph with no nodes at all: one whose nodes are all filtered out is not empty.
    document.getElementById("empty-hint").hidden = !(this.picture && c.active + c.archived + c.orphaned === 0);
    this.showPickedCounts();
  }

  // The drop-down's words for the graph on screen follow the feed with the footer; re-reading every graph's
  // counts (projectsSoon) waits a few seconds, and the two disagreed for that long.
  showPickedCounts() {
    const option = document.getElementById("graph-select").selectedOptions[0];
    if (!this.picture || !option) return;
    const row = option.value === "user" ? null : this.projects.find((p) => optionValue(p) === option.value);
    if (option.value !== "user" && !row) return;
    const text = optionText(row, pictureCounts(this.picture));
    if (option.textContent !== text) option.textContent = text;
  }

  // Compaction re-tiers nodes after writes and on the server's tick, with no event of its own:
  // re-read the tiers a moment after each change, and every so often while idle.
  scheduleStates(delay) {
    // Each write moves the re-read a little later, but never past STATES_MAX_WAIT_MS after the first
    // write still waiting for it: writes less than 400 ms apart used to keep the tiers stale for as
    // long as they came (a minute of agent writes: 850 nodes shown in the wrong tier).
    const now = performance.now();
    let at = now + delay;
    if (this.statesWaiting != null) at = Math.min(at, this.statesWaiting + STATES_MAX_WAIT_MS);
    else if (delay < STATES_IDLE_MS) this.statesWaiting = now;
    clearTimeout(this.statesTimer);
    this.statesTimer = setTimeout(() => this.refreshStates(), Math.max(0, at - now));
  }

  async refreshStates() {
    this.statesWaiting = null;
    const view = this.view;
    this.scheduleStates(STATES_IDLE_MS);
    if (document.body.dataset.graph !== "ready" || this.live.current !== "live") return;
    try {
      const out = await api("GET", `/api/states?${query(where(view))}`);
      if (view !== this.view) return;
      if (this.picture) {
        for (const n of this.picture.nodes) if (out.states[n.id]) n.state = out.states[n.id];
        this.listSoon();
      }
      if (this.canvas.applyStates(out.states) === "reload") this.reloadSoon();
      this.updateCounts();
      document.body.dataset.statesAt = String(Date.now());
    } catch {
      // the next refresh tries again
    }
  }

  // The list view's rows follow the feed (the picture follows it in canvas.js).
  patchPicture(event) {
    const p = this.picture;
    if (!p) return;
    const key = (e) => `${e.from}->${e.to}:${e.rel}`;
    if (event.type === "node_updated") {
      const n = event.node;
      const row = { id: n.id, gist: n.gist, state: n._orphaned_ts ? "orphaned" : n._archived ? "archived" : "active" };
      const i = p.nodes.findIndex((x) => x.id === n.id);
      if (i >= 0) p.nodes[i] = { ...p.nodes[i], ...row };
      else p.nodes.push(row);
    } else if (event.type === "node_deleted") {
      p.nodes = p.nodes.filter((x) => x.id !== event.id);
      p.edges = p.edges.filter((e) => e.from !== event.id && e.to !== event.id);
    } else if (event.type === "edge_updated") {
      if (!p.edges.some((e) => key(e) === key(event.edge))) p.edges.push({ from: event.edge.from, to: event.edge.to, rel: event.edge.rel });
    } else if (event.type === "edge_deleted") {
      p.edges = p.edges.filter((e) => key(e) !== key(event.edge));
    } else {
      return;
    }
    this.listSoon();
  }

  listSoon() {
    if (!this.list.shown) return;
    clearTimeout(this.listTimer);
    this.listTimer = setTimeout(() => this.list.refresh(), 150);
  }

  // -- the change feed ------------------------------------------------------
  onLiveState(state) {
    const el = document.getElementById("status");
    el.dataset.state = state;
    el.textContent = { connecting: "Connecting…", live: "Live", offline: "Offline — reconnecting…" }[state];
    document.getElementById("offline-banner").hidden = state !== "offline";
  }

  async refreshAfterOutage() {
    try {
      await this.loadProjects();
      await this.reloadGraph();
      await this.panel.recheck();
    } catch {
      // reloadGraph said why; the next reconnect tries again
    }
    document.body.dataset.reread = String(Number(document.body.dataset.reread || 0) + 1); // for tests
  }

  // The drop-down's counts, re-read a while after writes to the graphs this tab hears.
  projectsSoon() {
    if (this.projectsTimer) return;
    this.projectsTimer = setTimeout(() => {
      this.projectsTimer = null;
      this.loadProjects().catch(() => {});
    }, PROJECTS_AFTER_WRITE_MS);
  }

  onEvent(event) {
    if (event.type !== "progress_updated") this.projectsSoon();
    // The feed sends user-graph changes to every tab; only the graph on screen is drawn.
    if (event.level !== this.view.level) return;
    if (event.level === "project" && event.project_path !== this.view.projectPath) return;
    const selected = this.panel.node && this.panel.node.id;
    this.patchPicture(event);
    switch (event.type) {
      case "node_updated": {
        const n = event.node;
        const state = n._orphaned_ts ? "orphaned" : n._archived ? "archived" : "active";
        if (this.canvas.upsertNode({ id: n.id, gist: n.gist, state, v: null }) === "reload") this.reloadGraph().catch(() => {});
        // Our own save's echo carries the stamp the panel already holds; anything else is news.
        const held = selected === n.id && this.panel.node.history.written;
        if (selected === n.id && (n._written || {}).ts !== (held || {}).ts) this.panel.changedElsewhere();
        if (n._conflicts || this.conflicts.rows.some((r) => r.id === n.id)) this.conflicts.soon();
        break;
      }
      case "node_deleted":
        this.canvas.removeNode(event.id);
        // Unsaved edits stay on screen, told that the node is gone (a save would be refused).
        if (selected === event.id) this.panel.isDirty() ? this.panel.goneElsewhere() : this.panel.close();
        break;
      case "node_recalled":
        // A recall promotes one node: set its tier in place (re-reading a big graph's whole picture at each
        // recall kept the server building megabytes while agents waited). Neighbours it brought back from
        // the orphans come with the tier re-read below; a node the picture does not hold yet reloads it.
        if (this.picture) for (const n of this.picture.nodes) if (n.id === event.id) n.state = "active";
        if (this.canvas.applyStates({ [event.id]: "active" }) === "reload") this.reloadSoon();
        break;
      case "edge_updated":
        this.canvas.addEdge(event.edge);
        if (selected && (event.edge.from === selected || event.edge.to === selected) && !this.panel.isDirty()) this.panel.open(selected);
        break;
      case "edge_deleted":
        this.canvas.removeEdge(event.edge);
        if (selected && (event.edge.from === selected || event.edge.to === selected) && !this.panel.isDirty()) this.panel.open(selected);
        break;
      case "node_renamed":
        if (this.ownRenames.delete(`${event.from}\u0000${event.to}`)) break; // the panel reloads for its own
        this.followRename(event, selected);
        break;
      case "progress_updated":
        if (this.tab === "progress") showProgress(this);
        return;
      case "project_removed":
        this.projectRemoved(event).catch(() => {});
        return;
      case "graph_replaced":
        // A restore or a sync put content back from git under this tab: re-read the graph and the open node.
        this.reloadGraph().catch(() => {});
        if (selected && !this.panel.isDirty()) this.panel.open(selected);
        this.conflicts.soon();
        return;
      case "states_changed":
        // The tick's compaction moved nodes between tiers: re-read them now.
        this.scheduleStates(0);
        this.conflicts.soon();
        return;
      default:
        return;
    }
    this.updateCounts();
    this.scheduleStates(STATES_AFTER_WRITE_MS);
    this.stats.events += 1;
    this.stats.lastEvent = { type: event.type, at: performance.now() };
    if (event.type === "node_updated") this.noteArrival(event.node.id);
    document.body.dataset.events = String(this.stats.events);
  }

  // The project on screen was removed (Projects… → Remove, perhaps in another tab): the drop-down
  // loses it and the tab falls back to the user graph, saying why; it stayed, refusing every save.
  async projectRemoved(event) {
    toast(`The project ${event.slug} was removed (its folder is in the store's trash); showing the user graph`);
    await this.loadProjects();
    await this.pick({ level: "user", projectPath: null });
  }

  // Renamed by another writer: a clean panel follows the node to its new id; unsaved edits stay, told the new id.
  followRename(event, selected) {
    const follow = selected === event.from && !this.panel.isDirty();
    if (follow) this.panel.open(event.to);
    else if (selected === event.from) this.panel.renamedElsewhere(event.to);
    this.reloadGraph().then(() => { if (follow) this.canvas.select(event.to, false); }).catch(() => {});
  }

  noteArrival(id) {
    const arrivals = this.stats.arrivals;
    if (id in arrivals) delete arrivals[id];
    else this.stats.arrivalCount = (this.stats.arrivalCount || 0) + 1;
    arrivals[id] = Date.now();
    if (this.stats.arrivalCount > ARRIVALS_KEPT) {
      // Kept for the benchmark, not for the tab's life: the oldest go (keys keep insertion order).
      for (const old in arrivals) {
        delete arrivals[old];
        break;
      }
      this.stats.arrivalCount -= 1;
    }
  }
}

const app = new App();
window.kgEditor = app; // for tests and benchmarks: the page's own state, read-only by convention
app.start();
