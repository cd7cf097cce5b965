// What git knows of the memory, in the editor: a node's versions from the store's history (when each
// was committed, on which machine), and the nodes a sync found changed on two machines, shown until
// someone keeps one version or the other.

import { api, query, where } from "./api.js";
import { clear, h, toast, when } from "./dom.js";

// The graph as /api/graph/node_history and /api/store/conflicts name it.
function graphName(view) {
  return view.level === "project" ? view.projectPath : view.level;
}

function shortText(text, max = 160) {
  const s = String(text ?? "");
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

// The node panel's "Versions in git": read when first opened (git log is not free on a big store).
export function historySection(view, nodeId) {
  const body = h("div", { className: "git-history", id: "git-history" }, h("span", { className: "hint" }, "…"));
  const box = h("details", { id: "git-history-box" }, h("summary", {}, "Versions in git"), body);
  let loaded = false;
  box.addEventListener("toggle", () => {
    if (!box.open || loaded) return;
    loaded = true;
    loadHistory(view, nodeId, body);
  });
  return box;
}

async function loadHistory(view, nodeId, body) {
  let out;
  try {
    out = await api("GET", `/api/graph/node_history?${query({ id: nodeId, graph: graphName(view), limit: 20 })}`);
  } catch (err) {
    clear(body, h("p", { className: "hint" }, err.message));
    return;
  }
  if (!out.versions.length) {
    clear(body, h("p", { className: "hint" }, "Not in any commit yet: the next commit (kg commit, or the server's autocommit) records it."));
    return;
  }
  const rows = out.versions.map((v, i) => {
    const node = v.node;
    const older = out.versions[i + 1] && out.versions[i + 1].node;
    const what = !node ? "deleted" : !older && i + 1 === out.versions.length ? "first committed" : older && older.gist !== node.gist ? "gist changed" : "notes, touches or stamps changed";
    return h("li", { dataset: { commit: v.commit } },
      h("div", { className: "git-when" }, h("b", {}, when(v.committed_ts)), " on ",
        h("span", { className: "machine", title: v.author || "" }, v.machine || "an unnamed machine"),
        " · ", h("code", { title: v.subject || "" }, v.commit.slice(0, 8)), " · ", what),
      node ? h("div", { className: "git-gist" }, shortText(node.gist)) : null);
  });
  clear(body, h("ol", { className: "git-versions" }, rows));
}

// A node the sync set versions aside for: both versions side by side, and the two ways out.
export function conflictBox(panel) {
  const n = panel.node;
  if (!n.conflicts || !n.conflicts.length) return null;
  const msg = h("span", { className: "msg", id: "conflict-msg" });
  const keep = async (content, label) => {
    msg.className = "msg";
    msg.textContent = "Saving…";
    try {
      await api("POST", "/api/nodes", { ...where(panel.view), id: n.id, ...content, expected_version: n.version, expected_fingerprint: n.fingerprint });
      toast(`${n.id}: ${label} kept; the versions set aside are let go`);
      await panel.open(n.id);
      panel.app.conflicts.refresh();
    } catch (err) {
      msg.className = "msg err";
      msg.textContent = `Not resolved: ${err.message}`;
    }
  };
  const version = (title, v, written) => h("div", { className: "conflict-version" },
    h("b", {}, title), written ? h("span", { className: "hint" }, ` written ${when(written.origin_ts ?? written.ts)}`) : null,
    h("div", {}, v.gist),
    (v.notes || []).length ? h("ul", {}, v.notes.map((x) => h("li", {}, x))) : null,
    (v.touches || []).length ? h("div", { className: "hint" }, `touches: ${v.touches.join(", ")}`) : null);
  // A delete set aside (core/merge_deletes.py): the node was deleted on one machine and changed on the
  // other, and kept; the way out besides keeping it is deleting it after all.
  const deleted = (other) => h("div", { className: "conflict-other conflict-deleted" },
    h("b", {}, "Deleted"), ` on ${other.deleted_on || "another machine"}`,
    other.deleted_as ? ` (as ${other.deleted_as})` : "",
    `, kept because ${other.changed_on || "the other machine"} changed it. `,
    h("button", { type: "button", className: "delete-anyway danger", onclick: (e) => panel.confirmDelete(e.currentTarget) },
      "Delete it after all"));
  // An edge a sync dropped with its other end, deleted on another machine (core/merge_dropped.py): kept here.
  const dropped = (other) => h("div", { className: "conflict-other conflict-dropped" },
    h("b", {}, "Edge dropped"), ` ${other.dropped_edge}: ${other.gone_node} was deleted on ${other.gone_on || "another machine"}`,
    (other.notes || []).length ? h("ul", {}, other.notes.map((x) => h("li", {}, x))) : null);
  const others = n.conflicts.map((other, i) => other.dropped_edge !== undefined ? dropped(other) : other.deleted_on !== undefined ? deleted(other) : h("div", { className: "conflict-other" },
    version(n.conflicts.length > 1 ? `Set aside (${i + 1} of ${n.conflicts.length})` : "Set aside", other, other._written),
    h("button", { type: "button", className: "keep-other", dataset: { index: String(i) },
      onclick: () => keep({ gist: other.gist ?? "", notes: other.notes || [], touches: other.touches || [] }, "the set-aside version") },
    "Keep this one instead")));
  const onlyDeletes = n.conflicts.every((other) => other.deleted_on !== undefined);
  const onlyDropped = n.conflicts.every((other) => other.dropped_edge !== undefined);
  return h("div", { className: "conflict", id: "conflict-box", role: "alert" },
    onlyDropped
      ? h("p", {}, h("b", {}, "Edges dropped by a sync. "),
        "Their other end was deleted on another machine; each is kept below with its notes. Any save of this node clears them.")
      : onlyDeletes
      ? h("p", {}, h("b", {}, "Deleted on one machine, changed on another. "),
        "The sync kept the changed version (in use, the fields below) rather than lose it; keep it, or delete it after all.")
      : h("p", {}, h("b", {}, "Changed on two machines. "),
        "Both edited this node before they synced. The version written last is in use (the fields below); ",
        "the other is kept here until you choose."),
    version("In use", n, n.history.written),
    h("button", { type: "button", id: "keep-current", onclick: () => keep({ gist: n.gist, notes: n.notes, touches: n.touches }, "the version in use") },
      "Keep the version in use"),
    others, msg);
}

// A row of /api/store/conflicts whose every version set aside is a delete (core/merge_deletes.py).
const isDelete = (row) => (row.others || []).length > 0 && row.others.every((o) => o.deleted_on !== undefined);

// The header's count and the list's lead, worded for what the sync found: edits on two machines, deletes
// on one of a node changed on the other, or both kinds.
function wording(rows) {
  const deletes = rows.filter(isDelete).length;
  if (deletes === 0) {
    return ["changed on two machines", "Each was edited on two machines before they synced; open one to keep a version."];
  }
  if (deletes === rows.length) {
    return ["deleted on one machine, changed on the other",
      "Each was deleted on one machine and changed on the other before they synced, and kept; open one to keep it or delete it after all."];
  }
  return ["changed or deleted on two machines",
    "Each was edited on two machines, or deleted on one and changed on the other, before they synced; open one to settle it."];
}

// The header's count of nodes changed on two machines (or deleted on one), with a list a click away.
export class Conflicts {
  constructor(app) {
    this.app = app;
    this.rows = [];
    this.button = document.getElementById("conflicts");
    this.menu = document.getElementById("conflicts-menu");
    this.button.addEventListener("click", () => this.show(this.menu.hidden));
    // A click elsewhere or Escape closes the list, as a menu does.
    document.addEventListener("click", (e) => { if (!this.menu.hidden && !e.target.closest(".conflicts-wrap")) this.show(false); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !this.menu.hidden) this.show(false); });
  }

  show(open) {
    this.menu.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
  }

  soon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 300);
  }

  async refresh() {
    try {
      this.rows = (await api("GET", "/api/store/conflicts")).conflicts;
    } catch {
      return; // the next refresh tries again
    }
    this.render();
  }

  onScreen(row) {
    const v = this.app.view;
    return row.level === v.level && (v.level !== "project" || row.project_path === v.projectPath);
  }

  render() {
    const n = this.rows.length;
    this.button.hidden = n === 0;
    const [count, lead] = wording(this.rows);
    this.button.textContent = `${n} ${count}`;
    if (!n) this.show(false);
    this.app.canvas.markConflicts(this.rows.filter((r) => this.onScreen(r)).map((r) => r.id));
    clear(this.menu, h("p", { className: "hint" }, lead),
      h("ul", {}, this.rows.map((r) => h("li", {},
        h("a", { href: "#", dataset: { id: r.id }, onclick: (e) => { e.preventDefault(); this.open(r); } }, r.id),
        h("span", { className: "hint" }, ` ${r.level === "project" ? r.project_path : `${r.level} graph`}${isDelete(r) ? " (deleted on one machine)" : ""}: ${shortText(r.gist, 80)}`)))));
    document.body.dataset.conflicts = String(n);
  }

  async open(row) {
    this.show(false);
    if (!this.onScreen(row)) {
      await this.app.pick(row.level === "project" ? { level: "project", projectPath: row.project_path } : { level: row.level, projectPath: null });
    }
    await this.app.selectNode(row.id);
  }
}
