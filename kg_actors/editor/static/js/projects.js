// The Projects dialog: every stored project graph, and removing the ones created by mistake.
//
// Only a project whose folder is gone (or was never recorded) or whose graph is empty can be removed,
// after a confirmation that names it; one that still holds nodes also needs its name typed. The
// server unloads the graph's actor and moves its folder to the store's trash (restorable by hand).

import { api } from "./api.js";
import { clear, h, toast, when } from "./dom.js";

export class ProjectsDialog {
  constructor(app) {
    this.app = app;
    this.dialog = document.getElementById("projects-dialog");
    this.body = document.getElementById("projects-body");
    document.getElementById("open-projects").addEventListener("click", () => this.open());
    document.getElementById("projects-close").addEventListener("click", () => this.dialog.close());
  }

  async open() {
    if (!this.dialog.open) this.dialog.showModal();
    clear(this.body, h("p", { className: "hint" }, "Reading the store…"));
    let out;
    try {
      out = await api("GET", "/api/projects");
    } catch (err) {
      clear(this.body, h("p", { className: "msg err" }, err.message));
      return;
    }
    const rows = out.projects.map((p) => this.row(p));
    clear(this.body, h("table", { className: "projects" },
      h("caption", { className: "hint" }, "A project whose folder is gone, or whose graph is empty, can be removed from the list. "
        + "Its folder moves to the store's trash folder, from where it can be put back."),
      h("thead", {}, h("tr", {}, ["Project", "Folder", "Nodes", "Last written", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows)));
    this.dialog.dataset.state = "listed";
  }

  row(p) {
    const status = !p.recorded_path ? "no folder recorded" : !p.path_exists ? "folder gone" : p.counts.nodes === 0 ? "empty graph" : "";
    const action = h("td", { className: "actions-cell" });
    const tr = h("tr", { dataset: { slug: p.slug } },
      h("th", { scope: "row" }, p.slug),
      h("td", { title: p.recorded_path || "" }, p.recorded_path || "—", status ? h("span", { className: "badge" }, ` ${status}`) : null),
      h("td", {}, String(p.counts.nodes)),
      h("td", {}, p.last_used ? when(p.last_used) : "—"),
      action);
    if (p.removable) {
      action.append(h("button", { type: "button", className: "danger remove-project", onclick: () => this.confirm(p, action) },
        `Remove…`));
    } else {
      action.append(h("span", { className: "hint", title: "Its folder exists and its graph holds lessons" }, "in use"));
    }
    return tr;
  }

  confirm(p, cell) {
    const n = p.counts.nodes;
    const go = h("button", { type: "button", className: "danger confirm-remove", disabled: n > 0 }, `Remove “${p.slug}”`);
    const typed = n > 0 ? h("input", { type: "text", className: "type-name", "aria-label": `Type ${p.slug} to confirm`,
      placeholder: p.slug, autocomplete: "off", oninput: () => { go.disabled = typed.value.trim() !== p.slug; } }) : null;
    const msg = h("span", { className: "msg" });
    go.addEventListener("click", () => this.remove(p, msg));
    clear(cell, h("div", { className: "confirm-box", role: "group", "aria-label": `Remove ${p.slug}` },
      h("p", {}, `Remove the project “${p.slug}” from the list? `
        + (n > 0 ? `Its graph holds ${n} node(s). Type its name to confirm: ` : "Its graph is moved to the store's trash.")),
      typed, go, h("button", { type: "button", onclick: () => this.open() }, "Cancel"), msg));
    (typed || go).focus();
  }

  async remove(p, msg) {
    try {
      const out = await api("DELETE", `/api/projects/${encodeURIComponent(p.slug)}`, { confirm: p.slug });
      toast(`Removed ${out.removed}; its folder is in the store at ${out.trash}`);
    } catch (err) {
      msg.className = "msg err";
      msg.textContent = err.message;
      return;
    }
    const view = this.app.view;
    if (view.level === "project" && view.projectPath === p.project_path) await this.app.pick({ level: "user", projectPath: null });
    await this.app.loadProjects();
    await this.open();
  }
}
