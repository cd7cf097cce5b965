// The Progress tab: the kg_progress tasks of the graph on screen, one editable box each.
//
// Re-reads update the boxes in place: a task that changed gets its new state, unless the person is
// typing in its box, which then says so and keeps the text. (The tab was rebuilt whole whenever any
// task of the graph was written, taking every box's unsaved text with it.)

import { api, query, where } from "./api.js";
import { clear, h, toast, when } from "./dom.js";

let tab = null; // { graph, boxes: Map task id -> TaskBox, list, msg, empty } for the graph on screen

export async function showProgress(app) {
  const root = document.getElementById("tab-progress");
  const view = app.view;
  const graph = JSON.stringify(where(view));
  let out;
  try {
    out = await api("GET", `/api/progress?${query(where(view))}`);
  } catch (err) {
    // Typed text stays on screen: the error goes beside it.
    if (tab && tab.graph === graph) tab.msg.textContent = err.message;
    else clear(root, h("p", { className: "msg err" }, err.message));
    return;
  }
  if (view !== app.view) return; // another graph was picked meanwhile
  if (!tab || tab.graph !== graph || !root.contains(tab.list)) tab = build(app, root, graph, out.level);
  tab.msg.textContent = "";
  for (const [id, state] of Object.entries(out.tasks)) {
    const box = tab.boxes.get(id);
    if (box) box.arrived(state);
    else place(new TaskBox(app, id, state));
  }
  for (const [id, box] of tab.boxes) {
    // Gone from the graph (a restore): its box goes too, unless it holds typed or never-saved text.
    if (!(id in out.tasks) && box.lastTs !== undefined && !box.edited()) {
      box.el.remove();
      tab.boxes.delete(id);
    }
  }
  tab.empty.hidden = tab.boxes.size > 0;
}

function build(app, root, graph, level) {
  const parts = { graph, boxes: new Map(), list: h("div", { className: "tasks" }), msg: h("span", { className: "msg err" }),
    empty: h("p", { className: "hint" }, "No tasks yet.") };
  const newId = h("input", { type: "text", id: "new-task-id", placeholder: "task id, e.g. scout" });
  const add = () => {
    const id = newId.value.trim();
    if (!id) return;
    const box = tab.boxes.get(id) || place(new TaskBox(app, id, {}));
    tab.empty.hidden = true;
    box.text.focus();
    newId.value = "";
  };
  clear(root,
    h("p", { className: "hint" }, `kg_progress tasks stored in the ${level} graph.`), parts.msg, parts.empty, parts.list,
    h("div", { className: "actions" }, newId, h("button", { type: "button", onclick: add }, "New task")));
  return parts;
}

// Into the list in task id order.
function place(box) {
  tab.boxes.set(box.id, box);
  const after = [...tab.boxes.values()].filter((b) => b !== box && b.el.isConnected && b.id.localeCompare(box.id) > 0)
    .sort((a, b) => a.id.localeCompare(b.id))[0];
  tab.list.insertBefore(box.el, after ? after.el : null);
  return box;
}

class TaskBox {
  constructor(app, id, state) {
    this.app = app;
    this.id = id;
    this.text = h("textarea", { rows: 6, dataset: { task: id } });
    this.stamp = h("span", { className: "hint" });
    this.note = h("div");
    this.trail = h("div");
    this.msg = h("span", { className: "msg" });
    this.el = h("div", { className: "task" },
      h("div", {}, h("b", {}, id), this.stamp), this.note, this.text,
      h("div", { className: "actions" }, h("button", { type: "button", onclick: () => this.save() }, "Save state"), this.msg),
      this.trail);
    this.show(state);
  }

  // The stored state on screen; the box holds no typed text after.
  show(state) {
    const { _trail: trail, last_ts: lastTs, ...shown } = state;
    this.base = JSON.stringify(shown, null, 2);
    this.text.value = this.base;
    this.lastTs = lastTs;
    this.stamp.textContent = ` · last written ${when(lastTs)}`;
    clear(this.note);
    clear(this.trail, trail && trail.length ? h("details", {}, h("summary", {}, `Trail (${trail.length} writes)`),
      h("pre", { className: "line" }, trail.map((t) => JSON.stringify(t)).join("\n"))) : null);
  }

  edited() {
    return this.text.value !== this.base;
  }

  // The task as the server has it now: shown, unless the person is typing here (then only told).
  arrived(state) {
    if (state.last_ts === this.lastTs) return;
    if (!this.edited()) {
      this.show(state);
      return;
    }
    const { _trail: trail, last_ts: lastTs, ...shown } = state;
    clear(this.note, h("div", { className: "stale" },
      `Written elsewhere (${when(lastTs)}) since you began editing; saving your text replaces it. Stored now:`,
      h("pre", { className: "line" }, JSON.stringify(shown, null, 2))));
  }

  async save() {
    let parsed;
    try {
      parsed = JSON.parse(this.text.value);
    } catch (err) {
      this.msg.className = "msg err";
      this.msg.textContent = `Not JSON: ${err.message}`;
      return;
    }
    try {
      const out = await api("POST", "/api/progress", { ...where(this.app.view), task_id: this.id, state: parsed });
      this.show(out.state);
      this.msg.textContent = "";
      toast(`Progress saved for ${this.id}`);
    } catch (err) {
      this.msg.className = "msg err";
      this.msg.textContent = err.message;
    }
  }
}
