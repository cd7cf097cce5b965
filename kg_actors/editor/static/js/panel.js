// The Node tab: read a node (no promotion, no read stamp), edit it inline, wire and unwire it.
//
// Every save carries the version the editor loaded; the server answers 409 when
// the node changed meanwhile, and the panel shows the node as it stands instead
// of overwriting someone else's work.

import { api, ApiError, query, Unreachable, where } from "./api.js";
import { charCount, clear, h, toast, when } from "./dom.js";
import { conflictBox, historySection } from "./gitview.js";

const GIST_TARGET = 300;
const UNREACHABLE_KEPT = "the memory server cannot be reached (stopped, or restarting). Your text is kept here: "
  + "start the server with `kg start` (the page reconnects by itself), then try again.";

export class NodePanel {
  constructor(root, app) {
    this.root = root;
    this.app = app;
    this.node = null; // as loaded: the base of the dirty check and of expected_version
  }

  get view() {
    return this.app.view;
  }

  // `draft`: text the person typed and has not saved, kept in the fields over the node as it stands now.
  async open(id, draft = null) {
    // Only the latest open counts: an older answer arriving late must not replace it.
    const ticket = (this.ticket = (this.ticket || 0) + 1);
    let data;
    try {
      data = await this.fetchNode(id);
    } catch (err) {
      if (ticket !== this.ticket) return;
      if (draft) {
        this.warn(`Cannot open ${id}: ${err.message}. Your text is still here.`);
        return;
      }
      this.node = null;
      clear(this.root, h("p", { className: "msg err" }, err.message));
      return;
    }
    if (ticket !== this.ticket) return;
    this.node = data.node;
    this.renamedTo = null;
    this.render(draft);
    this.loadScore();
  }

  fetchNode(id) {
    // The id goes in the query: a browser folds an id of "." or ".." out of a path, even with its dots encoded.
    return api("GET", `/api/node/${encodeURIComponent(this.view.level)}?${query({ id, project_path: where(this.view).project_path })}`);
  }

  // After an outage (the feed's events meanwhile are lost): unsaved edits are warned only if the node
  // moved; the warning came after every restart, though a save then went through. A change made to the
  // file while the server was down moves no version: the content counts too.
  async recheck() {
    if (!this.node || !this.isDirty()) {
      if (this.node) await this.open(this.node.id);
      return;
    }
    const loaded = this.node;
    let data;
    try {
      data = await this.fetchNode(loaded.id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && this.node === loaded) this.goneElsewhere();
      return;
    }
    if (this.node === loaded && !sameContent(data.node, loaded)) this.changedElsewhere();
  }

  // The node on screen as it stands now, with what the person typed still in the fields.
  openKeeping(id) {
    return this.open(id, this.values());
  }

  close() {
    this.ticket = (this.ticket || 0) + 1;
    this.node = null;
    clear(this.root, h("p", { className: "hint" }, "Pick a node in the picture, or search."));
  }

  isDirty() {
    if (!this.node || !this.fields) return false;
    const now = this.values();
    return now.gist !== this.node.gist || JSON.stringify(now.notes) !== JSON.stringify(this.node.notes)
      || JSON.stringify(now.touches) !== JSON.stringify(this.node.touches);
  }

  values() {
    const list = (rows) => [...rows.querySelectorAll("[data-item]")].map((el) => el.value).filter((v) => v.trim() !== "");
    return { gist: this.fields.gist.value, notes: list(this.fields.notes), touches: list(this.fields.touches) };
  }

  // One note at a time above the panel: the newest news replaces an older one (they used to stack).
  warn(...children) {
    for (const old of this.root.querySelectorAll(".stale")) old.remove();
    this.root.prepend(h("div", { className: "stale" }, ...children));
  }

  // The node was deleted elsewhere while the panel holds unsaved edits: they stay, with a word.
  goneElsewhere() {
    if (!this.node) return;
    this.warn("Deleted elsewhere since you opened it; saving your edits will be refused. Copy what you need.");
  }

  // Renamed elsewhere while the panel holds unsaved edits: they stay, and one click takes them to the new id.
  renamedElsewhere(newId) {
    if (!this.node) return;
    this.renamedTo = newId;
    this.warn(`Renamed to ${newId} elsewhere since you opened it; saving here will be refused. `,
      h("button", { type: "button", onclick: () => this.openKeeping(newId) }, `Open ${newId} with your text`));
  }

  // Another writer changed the node on screen: reload it unless the person has unsaved edits.
  async changedElsewhere() {
    if (!this.node) return;
    if (!this.isDirty()) {
      await this.open(this.node.id);
      return;
    }
    this.warn("Changed elsewhere since you opened it; saving your edits will be refused. ", this.loadCurrent());
  }

  // The stored version under the person's typed text: kept in the fields, the stored words shown beside them.
  loadCurrent() {
    return h("button", { type: "button", onclick: () => this.openKeeping(this.node.id) }, "Load current, keep my text");
  }

  render(draft = null) {
    const n = this.node;
    const shown = draft || n;
    const gist = h("textarea", { id: "gist", rows: 4, value: shown.gist, oninput: () => this.count() });
    this.fields = { gist, notes: rowsEditor("notes", shown.notes, true), touches: rowsEditor("touches", shown.touches, false) };
    this.counter = h("span", { className: "counter" });
    this.msg = h("span", { className: "msg", id: "save-msg" });
    clear(this.root,
      h("div", { className: "node-head" },
        h("h2", { id: "node-title" }, n.id),
        h("span", { className: `badge ${n.state}`, id: "node-state" }, n.state),
        h("span", { className: "badge" }, `${this.view.level} · v${n.version}`)),
      draft && this.isDirty() ? storedBeside(n) : null,
      conflictBox(this),
      this.renameBox(),
      h("label", { className: "field", for: "gist" }, "Gist", this.counter), gist,
      h("label", { className: "field" }, "Notes"), this.fields.notes,
      h("label", { className: "field" }, "Touches"), this.fields.touches,
      h("div", { className: "actions" },
        h("button", { type: "button", className: "primary", id: "save-node", onclick: () => this.save() }, "Save"),
        h("button", { type: "button", onclick: () => this.open(n.id) }, "Revert"),
        h("button", { type: "button", className: "danger", id: "delete-node", onclick: (e) => this.confirmDelete(e.target) }, "Delete"),
        this.msg),
      h("label", { className: "field" }, `Edges (${n.edges.length})`),
      this.edgeList(n.edges),
      this.edgeForm(),
      h("label", { className: "field" }, "Score"),
      this.scoreBox = h("div", { className: "card", id: "score-card" }, "…"),
      h("label", { className: "field" }, "History"),
      stamps(n.history),
      historySection(this.view, n.id));
    this.count();
  }

  count() {
    showCount(this.counter, this.fields.gist.value);
  }

  async save() {
    // The fingerprint of what was loaded: a change made to the file while the server was down moves no version.
    const body = { ...where(this.view), id: this.node.id, ...this.values(), expected_version: this.node.version,
      expected_fingerprint: this.node.fingerprint };
    this.msg.className = "msg";
    this.msg.textContent = "Saving…";
    for (const el of this.root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    try {
      const out = await api("POST", "/api/nodes", body);
      this.node = out.node;
      this.render();
      this.loadScore();
      this.said("Saved", out.warnings);
      this.app.canvas.upsertNode({ id: out.node.id, gist: out.node.gist, state: out.node.state, v: out.node.version });
    } catch (err) {
      this.msg.className = "msg err";
      if (err instanceof ApiError && err.status === 409 && err.body.node) {
        this.msg.textContent = `Not saved: ${err.body.reason}. The node as it stands:\n${err.body.node.gist}`;
        this.warn("Someone else changed this node. ", this.loadCurrent());
      } else if (err instanceof Unreachable) {
        this.msg.textContent = `Not saved: ${UNREACHABLE_KEPT}`;
      } else {
        const moved = this.renamedTo ? `; it is now ${this.renamedTo}: the note above opens it with your text` : "";
        this.msg.textContent = `Not saved: ${rowWords(err.message, this.fields)}${moved}`;
      }
    }
  }

  // A write that went in, with what the server said beside it (a long gist, private text cut).
  said(done, warnings) {
    this.msg.className = "msg ok";
    this.msg.textContent = warnings.length ? `${done} — ${warnings.join(" ")}` : done;
  }

  confirmDelete(button) {
    const sure = h("span", {}, " Delete the node and its edges? ",
      h("button", { type: "button", className: "danger", id: "delete-confirm", onclick: () => this.remove() }, "Yes, delete"),
      h("button", { type: "button", onclick: () => sure.remove() }, "No"));
    button.after(sure);
  }

  async remove() {
    const id = this.node.id;
    const listed = (this.node.conflicts || []).length > 0;  // deleted after all: the header's count follows
    try {
      const loaded = { project_path: where(this.view).project_path, expected_version: this.node.version,
        expected_fingerprint: this.node.fingerprint };
      await api("DELETE", `/api/node/${encodeURIComponent(this.view.level)}?${query({ id, ...loaded })}`);
      this.app.canvas.removeNode(id);
      this.app.updateCounts();
      this.close();
      if (listed) this.app.conflicts.refresh();
      toast(`Deleted ${id}`);
    } catch (err) {
      this.msg.className = "msg err";
      this.msg.textContent = err.message;
    }
  }

  renameBox() {
    const input = h("input", { type: "text", id: "rename-to", placeholder: "new id (3-5 kebab-case words)" });
    const msg = h("span", { className: "msg" });
    const go = async () => {
      // Its echo on the feed is this rename: the reload below is the one the picture needs.
      const own = `${this.node.id}\u0000${input.value.trim()}`;
      this.app.ownRenames.add(own);
      try {
        const out = await api("POST", "/api/nodes/rename", { ...where(this.view), old_id: this.node.id, new_id: input.value.trim() });
        toast(`Renamed ${out.old_id} → ${out.new_id}; ${out.rewired} edge reference(s) rewired`);
        await this.app.reloadGraph();
        this.app.selectNode(out.new_id);
      } catch (err) {
        this.app.ownRenames.delete(own);
        msg.className = "msg err";
        msg.textContent = err.message;
      }
    };
    return h("details", {}, h("summary", {}, "Rename (carries edges and history)"),
      h("div", { className: "actions" }, input, h("button", { type: "button", id: "rename-go", onclick: go }, "Rename"), msg));
  }

  edgeList(edges) {
    const items = edges.map((e) => h("li", {},
      h("span", {}, e.direction === "out" ? "→" : "←"),
      h("span", { className: "rel" }, e.rel),
      this.edgeEnd(e),
      h("button", { type: "button", title: "Delete this edge", className: "del-edge", dataset: { edge: `${e.from}->${e.to}:${e.rel}` },
        onclick: () => this.deleteEdge(e) }, "×")));
    return h("ul", { className: "edges", id: "edge-list" }, items.length ? items : h("li", { className: "hint" }, "No edges"));
  }

  // A node of this graph opens here; a project's edge to a node of the user graph opens it there.
  edgeEnd(e) {
    if (e.other_kind === "node") return h("a", { onclick: () => this.app.selectNode(e.other) }, e.other);
    if (e.other_kind === "outside" && this.view.level === "project") {
      return h("a", { title: "a node of the user graph: opens it there", onclick: () => this.app.openInUserGraph(e.other).catch(() => {}) }, e.other);
    }
    return h("span", { title: e.other_kind === "file" ? "a file" : "a node of another graph" }, e.other);
  }

  edgeForm() {
    const dir = h("select", { id: "edge-dir" }, h("option", { value: "out" }, "this → other"), h("option", { value: "in" }, "other → this"));
    const rel = h("input", { type: "text", id: "edge-rel", placeholder: "rel, e.g. depends-on" });
    const other = h("input", { type: "text", id: "edge-other", placeholder: "node id or file path", list: "node-ids" });
    const list = h("datalist", { id: "node-ids" }, this.app.canvas.nodeIds().slice(0, 3000).map((id) => h("option", { value: id })));
    const msg = h("span", { className: "msg", id: "edge-msg" });
    const add = async () => {
      const me = this.node.id;
      const [from, to] = dir.value === "out" ? [me, other.value.trim()] : [other.value.trim(), me];
      try {
        const out = await api("POST", "/api/edges", { ...where(this.view), from, to, rel: rel.value.trim() });
        this.app.canvas.addEdge(out.edge);
        this.app.updateCounts();
        await this.open(me);
      } catch (err) {
        msg.className = "msg err";
        msg.textContent = err.message;
      }
    };
    return h("details", { id: "edge-add" }, h("summary", {}, "Add an edge"),
      h("div", { className: "edge-form" }, "Direction", dir, "Rel", rel, "Other end", other, list),
      h("div", { className: "actions" }, h("button", { type: "button", id: "edge-add-go", onclick: add }, "Add edge"), msg));
  }

  async deleteEdge(e) {
    try {
      await api("DELETE", "/api/edges", { ...where(this.view), from: e.from, to: e.to, rel: e.rel });
      this.app.canvas.removeEdge(e);
      this.app.updateCounts();
      await this.open(this.node.id);
    } catch (err) {
      toast(err.message);
    }
  }

  async loadScore() {
    const id = this.node.id;
    try {
      const s = await api("GET", `/api/node/${encodeURIComponent(this.view.level)}/score?${query({ id, project_path: where(this.view).project_path })}`);
      if (this.node && this.node.id === id) clear(this.scoreBox, scoreCard(s));
    } catch (err) {
      clear(this.scoreBox, h("span", { className: "msg err" }, err.message));
    }
  }

  // The create form: the same fields, saved with create: true (refused if the id exists).
  openNew() {
    this.ticket = (this.ticket || 0) + 1;
    this.node = null;
    const id = h("input", { type: "text", id: "new-id", placeholder: "id: the subject in 3-5 kebab-case words" });
    const counter = h("span", { className: "counter", id: "new-gist-count" });
    const gist = h("textarea", { id: "new-gist", rows: 4, placeholder: "gist: the one claim", oninput: () => showCount(counter, gist.value) });
    const notes = rowsEditor("notes", [], true);
    const touches = rowsEditor("touches", [], false);
    const msg = h("span", { className: "msg" });
    const create = async () => {
      const list = (rows) => [...rows.querySelectorAll("[data-item]")].map((el) => el.value).filter((v) => v.trim() !== "");
      try {
        const out = await api("POST", "/api/nodes", { ...where(this.view), id: id.value.trim(), gist: gist.value,
          notes: list(notes), touches: list(touches), create: true });
        this.app.canvas.upsertNode({ id: out.node.id, gist: out.node.gist, state: out.node.state, v: out.node.version });
        this.app.updateCounts();
        await this.app.selectNode(out.node.id);
        // The node opens in the panel: what the server said of the create is shown there, as a save's is.
        if (this.node && this.node.id === out.node.id) this.said("Created", out.warnings);
        else if (out.warnings.length) toast(`Created ${out.node.id} — ${out.warnings.join(" ")}`);
      } catch (err) {
        msg.className = "msg err";
        msg.textContent = err instanceof Unreachable ? `Not created: ${UNREACHABLE_KEPT}` : rowWords(err.message, { notes, touches });
      }
    };
    clear(this.root, h("h2", {}, `New node in the ${this.view.level} graph`),
      h("label", { className: "field" }, "Id"), id, h("label", { className: "field", for: "new-gist" }, "Gist", counter), gist,
      h("label", { className: "field" }, "Notes"), notes, h("label", { className: "field" }, "Touches"), touches,
      h("div", { className: "actions" }, h("button", { type: "button", className: "primary", id: "create-node", onclick: create }, "Create"), msg));
    showCount(counter, "");
    id.focus();
  }
}

// A gist's length against what scans best: past it, the counter turns to a warning (the save still goes in).
function showCount(counter, text) {
  const c = charCount(text);
  counter.textContent = `${c}/${GIST_TARGET}`;
  counter.classList.toggle("over", c > GIST_TARGET);
}

// The server names a list item by its place among the items sent (`notes[2]`, zero-based, empty rows
// left out); the person sees rows. Name the row as the panel shows it ("note 4") and mark its field.
function rowWords(message, boxes) {
  return message.replace(/\b(notes|touches)\[(\d+)\]/g, (whole, name, i) => {
    const rows = [...boxes[name].querySelectorAll("[data-item]")];
    const field = rows.filter((el) => el.value.trim() !== "")[Number(i)];
    if (!field) return whole;
    field.setAttribute("aria-invalid", "true");
    return `${name === "notes" ? "note" : "touch"} ${rows.indexOf(field) + 1}`;
  });
}

// The node as it stands against the one loaded: its version and its words (the server's fingerprint of
// them; compared field by field from a server that gives none).
function sameContent(now, loaded) {
  if (now.version !== loaded.version) return false;
  if (now.fingerprint !== undefined && loaded.fingerprint !== undefined) return now.fingerprint === loaded.fingerprint;
  return now.gist === loaded.gist && JSON.stringify(now.notes) === JSON.stringify(loaded.notes)
    && JSON.stringify(now.touches) === JSON.stringify(loaded.touches);
}

// Typed text kept over a newer version: the stored words beside the fields, to merge by hand.
function storedBeside(n) {
  const lines = [`gist: ${n.gist}`, ...n.notes.map((note, i) => `note ${i + 1}: ${note}`), ...n.touches.map((t) => `touch: ${t}`)];
  return h("div", { className: "card", id: "stored-now" },
    `Your unsaved text is in the fields, now over v${n.version}: Save writes it over that version, Revert takes the stored one. Stored now:`,
    h("pre", { className: "line" }, lines.join("\n")));
}

// An editable list: one field per item, so a note with line breaks stays one note.
function rowsEditor(name, items, multiline) {
  const box = h("div", { className: "rows", id: `${name}-rows` });
  const addRow = (value) => {
    const field = multiline ? h("textarea", { rows: 2, value, dataset: { item: "1" } }) : h("input", { type: "text", value, dataset: { item: "1" } });
    const row = h("div", { className: "row" }, field, h("button", { type: "button", title: "Remove", onclick: () => row.remove() }, "×"));
    box.insertBefore(row, adder);
  };
  const adder = h("button", { type: "button", className: "add-row", onclick: () => addRow("") }, `+ ${name === "notes" ? "note" : "touch"}`);
  box.append(adder);
  items.forEach(addRow);
  return box;
}

function pct(x) {
  return x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;
}

function num(x, digits = 2) {
  return x === null || x === undefined ? "—" : Number(x).toFixed(digits);
}

// Plain words for the score card; each term carries a one-line explanation on hover (and for screen
// readers, as its title). The code's own words (hub floor, fresh tier) never reach the page bare.
const TERMS = {
  score: "How this lesson ranks among its peers, 0 to 1: when the graph is over its budget, the lowest are archived first.",
  fresh: "The newest lessons are protected while they fit in 30% of the budget: never archived, not yet ranked.",
  recency: "When it was last written, read in full, or found useful — whichever is latest.",
  connectedness: "How many links it has (incoming count double); links to archived lessons count less.",
  usefulness: "How often sessions marked it as having helped, fading by half every 90 days.",
  raw: "The signal's own value, before ranking.",
  rank: "Where it stands among the ranked lessons on this signal: 100% is the best.",
  weight: "How much this signal counts in the score.",
  adds: "What this signal contributes to the score (rank × weight).",
  peers: "Lessons ranked together: every active and archived one outside the protected newest.",
  floor: "A lesson with many links keeps at least this much link credit, even when its neighbours are archived.",
  endorsements: "Times a session said this lesson helped (kg_useful).",
};
const SIGNAL_NAMES = { recency: "Recent use", connectedness: "Links", usefulness: "Found useful" };

function term(text, key) {
  return h("span", { className: "term", title: TERMS[key], tabIndex: 0, dataset: { term: key } }, text);
}

function scoreCard(s) {
  const rows = Object.entries(s.components).map(([name, c]) =>
    h("tr", {}, h("td", {}, term(SIGNAL_NAMES[name] || name, name)), h("td", {}, name === "recency" ? when(c.raw || null) : num(c.raw)),
      h("td", {}, pct(c.percentile)), h("td", {}, pct(c.weight)), h("td", {}, num(c.contribution, 3))));
  const verdict = s.state === "orphaned" ? "orphaned: hidden from agents' reads; this is where it would rank"
    : s.fresh ? ["one of the ", term("newest lessons", "fresh"), ", protected from archiving while they fit"]
      : s.state === "archived" ? "archived: ranked below what the budget keeps in view" : "active: ranked within what the budget keeps in view";
  const total = s.score !== null ? ["score ", term(num(s.score, 3), "score")] : ["would score ", term(num(s.preview_score, 3), "score")];
  const c = s.connectedness;
  return [
    h("div", {}, h("b", {}, total), " — ", verdict),
    h("table", {}, h("tr", {}, h("th", {}, "signal"), h("th", {}, term("value", "raw")), h("th", {}, term("rank", "rank")),
      h("th", {}, term("weight", "weight")), h("th", {}, term("adds", "adds"))), rows),
    h("div", { className: "hint" },
      "Ranked among ", term(`${s.pool_size} lessons`, "peers"), ` (${s.fresh_tier_size} newest protected). `,
      `${c.edges} link(s): ${num(c.weighted_in)} in, ${num(c.weighted_out)} out, `, term(`at least ${num(c.hub_floor)} for its many links`, "floor"), ". ",
      term(`Found useful ${s.endorsements} time(s)`, "endorsements"), `. Written ${when(s.recency.written)}, read in full ${when(s.recency.last_read)}, last found useful ${when(s.recency.last_useful)}.`),
  ];
}

function stamps(hist) {
  const w = hist.written || {};
  const v = hist.version || {};
  const pairs = [
    ["created", when(hist.created_ts)],
    ["last write", `${when(w.ts)} by ${w.by === null || w.by === undefined ? (w.ts ? "the editor" : "—") : `session ${w.by}`}`],
    ["version", v.v !== undefined ? `${v.v} (${when(v.ts)})` : "—"],
    ["gist changes", hist.gist_ts.length ? hist.gist_ts.map(when).join(", ") : "—"],
    ["last full read", when(hist.last_read_ts)],
    ["endorsements", hist.useful_ts.length ? `${hist.useful_ts.length}, last ${when(Math.max(...hist.useful_ts))}` : "none"],
    ["maintenance credits", hist.credited_ts.length ? hist.credited_ts.map(when).join(", ") : "none"],
    ["repeats", hist.recurrence_ts.length ? String(hist.recurrence_ts.length) : "none"],
  ];
  if (hist.orphaned_ts) pairs.push(["orphaned since", when(hist.orphaned_ts)]);
  return h("dl", { className: "stamps" }, pairs.flatMap(([k, val]) => [h("dt", {}, k), h("dd", {}, val)]));
}
