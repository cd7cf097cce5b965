// The picture: cytoscape, nodes sized by degree (hubs prominent), the three states styled apart.
//
// Edge ends that are not nodes of the graph on screen are drawn too: files
// (anything with / or ~) and nodes of another graph (a project's edge to a user
// node). Opening a graph never waits for a force layout: positions come from
// `radialLayout` at once, then for a graph of a few hundred nodes fcose runs in
// a worker and the picture settles when it is done; either way the positions
// are stretched to the canvas's shape (layout.js `spread`). Labels keep one
// size on screen and show only where they overlap nothing (labels.js), placed
// again a moment after the view stops moving. Orphaned nodes are invisible to kg_read,
// so by default they are left out of the picture altogether (their elements
// would cost as much as any other); the "orphaned" switch reloads with them.
// A big graph is drawn in turns: its active nodes first, then the archive in
// chunks between which the page answers clicks and change events; a huge one
// (past HUGE nodes) draws only its active part, the list view holds the rest.

/* global cytoscape */

import { FONT_FAMILY, placeLabels } from "./labels.js";
import { radialLayout, spread } from "./layout.js";

// Past this many nodes: no arrows, and fcose only on "Re-layout" (its draft quality), because
// applying 2,000 new positions stalls the page for a moment it should be usable in.
const BIG = 600;
// Past this many nodes only the active part is drawn (the list view holds the rest); the archive on request.
export const HUGE = 5000;
const FIRST_CHUNK = 300; // a big graph's first picture: its active nodes, and at least this many
const CHUNK = 250; // then this many more per turn of the event loop, so a click is never kept waiting long
const FIT_ZOOM_MAX = 2;
const RESHAPE_AT = 1.2; // the canvas's shape and the picture's differ by this factor: reshape the picture
const MAX_RESHAPE = 2.5;
const LABEL_DELAY_MS = 100;
// Far out (Fit on thousands of nodes zooms to a few percent) sizes in the model draw as specks: a node keeps
// at least MIN_NODE_PX on screen, and the open node its size, ring and halo. They are set for the zoom rounded
// down to a ZOOM_STEP, so they never fall short and are rewritten only when the view stopped past a step
// (each node's drawn size is data, `w`: a new stylesheet would cost every element its style at once).
const MIN_NODE_PX = 6;
const OPEN_NODE_PX = 14;
const RING_PX = 3;
const HALO_PX = 6;
const ZOOM_STEP = 1.25;
const isArtifact = (endpoint) => endpoint.includes("/") || endpoint.includes("~");
const edgeId = (e) => `${e.from}->${e.to}:${e.rel}`;
const sizeOf = (degree) => 14 + 7 * Math.sqrt(degree);

function style(big) {
  return [
    { selector: "node", style: {
      width: "data(w)", height: "data(w)", "background-color": "#2e9d5b", "font-family": FONT_FAMILY,
      "text-valign": "bottom", color: "#1d2329", "text-outline-color": "#fff",
    } },
    // Labels keep one size on screen: labels.js sets their font size per zoom, and which ones show.
    { selector: "node.labelled", style: {
      label: "data(shown)", "font-size": "data(fs)", "text-outline-width": "data(ow)", "text-margin-y": "data(my)", "min-zoomed-font-size": 0,
      "z-index": 5, // drawn over unlabelled nodes, so a label is never half hidden
    } },
    { selector: "node.hub", style: { "font-weight": "bold", "border-width": 2, "border-color": "#17643a" } },
    { selector: "node.archived", style: {
      "background-color": "#8a8f98", opacity: 0.55, "border-width": 1.5, "border-style": "dashed", "border-color": "#444",
    } },
    // A faint fill, not a ring alone: far out a ring is thinner than a pixel, and the node would not show at all.
    { selector: "node.orphaned", style: {
      "background-color": "#8a8f98", "background-opacity": 0.4, "border-width": 2, "border-style": "dotted", "border-color": "#8a8f98", opacity: 0.6,
    } },
    { selector: "node.file", style: { shape: "round-rectangle", "background-color": "#6b8fc9" } },
    { selector: "node.outside", style: { shape: "diamond", "background-color": "#c98f4b" } },
    { selector: "edge", style: big
      ? { width: 1, "line-color": "#c3c8ce", "curve-style": "haystack", "haystack-radius": 0 }
      : { width: 1, "line-color": "#b8bec6", "curve-style": "straight", "target-arrow-shape": "triangle", "target-arrow-color": "#b8bec6", "arrow-scale": 0.6 } },
    { selector: "edge:selected, edge.path, edge.near", style: {
      label: "data(rel)", "font-size": 9, "line-color": "#e0a800", "target-arrow-color": "#e0a800", width: 2.5,
      "curve-style": "straight", "target-arrow-shape": "triangle", "text-rotation": "autorotate",
      "text-background-color": "#fff", "text-background-opacity": 0.8,
    } },
    { selector: "node.hit", style: { "border-width": 4, "border-color": "#e0a800", "border-style": "solid", opacity: 1, "z-index": 10 } },
    { selector: "node.top", style: { "font-weight": "bold" } },
    { selector: ".dim", style: { opacity: 0.12 } },
    { selector: ".gone", style: { display: "none" } },
    { selector: "node.conflict", style: { "border-width": 3, "border-color": "#c0392b", "border-style": "dashed" } },
    // Its ring's width, its halo's reach and its least size follow the zoom (Canvas.scaleToView).
    { selector: "node:selected", style: {
      "border-width": 5, "border-color": "#f5b700", "border-style": "double", opacity: 1,
      "underlay-color": "#f5b700", "underlay-opacity": 0.45, "underlay-shape": "ellipse",
    } },
  ];
}

export class Canvas {
  constructor(container, { onSelect, onHover }) {
    this.container = container;
    this.onSelect = onSelect;
    this.onHover = onHover;
    this.hidden = { active: false, archived: false, orphaned: true };
    // What the filters leave out, besides tiers: ends in another graph or files, edges of other
    // relations (and nodes with none of that relation), nodes without debt. The selection and
    // search hits always stay.
    this.filters = { own: true, other: true, files: true, rel: "", debtOnly: false };
    this.debtIds = new Set();
    this.omitted = new Map(); // id -> state of the nodes left out of the picture (orphans; a huge graph's archive)
    this.omitStates = new Set(["orphaned"]);
    this.revealed = new Set(); // ids drawn though their tier is left out: a node a person opened (reveal())
    this.drawArchive = false; // a huge graph's archive, drawn on request
    this.big = false;
    this.worker = null;
    this.autoFit = true; // the view shows the whole picture; a resize fits it again
    this.floor = 0; // the least size of a node drawn, in the model: MIN_NODE_PX at the zoom's step
    this.cy = this.make([], false);
    new ResizeObserver(() => this.resized()).observe(container);
  }

  make(elements, big, viewport = null) {
    const cy = cytoscape({
      container: this.container, style: style(big), elements, layout: { name: "preset", fit: false },
      ...(viewport || {}), minZoom: 0.02, maxZoom: 4, textureOnViewport: big, hideEdgesOnViewport: big, pixelRatio: 1,
    });
    cy.on("tap", "node", (evt) => this.onSelect(evt.target.data("kind") === "node" ? evt.target.id() : null));
    cy.on("tap", (evt) => { if (evt.target === cy) this.onSelect(null); });
    // The node under the pointer is remembered: a change to it while the tip shows redraws the tip.
    cy.on("mouseover", "node", (evt) => {
      this.hovered = { id: evt.target.id(), at: evt.renderedPosition };
      this.onHover(evt.target.data(), evt.renderedPosition);
    });
    cy.on("mouseout", "node", () => {
      this.hovered = null;
      this.onHover(null);
    });
    cy.on("select", "node", (evt) => { evt.target.connectedEdges().addClass("near"); this.relabel(); });
    cy.on("unselect", "node", (evt) => { evt.target.connectedEdges().removeClass("near"); evt.target.removeStyle(); this.relabel(); });
    cy.on("viewport", () => this.relabel());
    // A person moved the view: a change of window size keeps their centre instead of fitting again.
    cy.on("dragpan pinchzoom scrollzoom", () => { this.autoFit = false; });
    return cy;
  }

  // Labels follow the view, a moment after it stops moving.
  relabel(delay = LABEL_DELAY_MS) {
    clearTimeout(this.labelTimer);
    document.body.dataset.labels = "pending";
    this.labelTimer = setTimeout(() => this.labelNow(), delay);
  }

  labelNow() {
    clearTimeout(this.labelTimer);
    const cy = this.cy;
    this.scaleToView(); // first: the labels are placed by the sizes on screen
    const selected = cy.$("node:selected");
    const near = new Set(selected.neighborhood("node").map((n) => n.id()));
    const priority = (n) => {
      if (n.selected()) return -3e6;
      if (n.hasClass("top")) return -2e6;
      if (near.has(n.id()) || n.hasClass("hit")) return -1e6 - n.data("degree");
      const base = n.data("kind") === "node" ? (n.data("state") === "active" ? 0 : 1e5) : 2e5;
      return base - n.data("degree");
    };
    this.labelCount = placeLabels(cy, priority);
    document.body.dataset.labels = "placed";
  }

  // Sizes on screen that hold at any zoom (MIN_NODE_PX and the open node's mark).
  scaleToView() {
    const cy = this.cy;
    const step = zoomStep(cy.zoom());
    if (step !== this.floorStep) {
      this.setFloor(step);
      cy.batch(() => cy.nodes().forEach((n) => {
        const w = this.drawnSize(n.data("size"));
        if (n.data("w") !== w) n.data("w", w);
      }));
    }
    const px = (n) => n / step;
    cy.$("node:selected").forEach((n) => {
      const w = Math.max(n.data("w"), px(OPEN_NODE_PX));
      n.style({ width: w, height: w, "border-width": Math.max(5, px(RING_PX)), "border-style": px(RING_PX) > 5 ? "solid" : "double",
        "underlay-padding": px(HALO_PX) });
    });
  }

  setFloor(step) {
    this.floorStep = step;
    this.floor = MIN_NODE_PX / step;
  }

  drawnSize(size) {
    return Math.max(size, this.floor);
  }

  // The container changed size (window, side panel): fit again, or keep the person's centre.
  resized() {
    const cy = this.cy;
    const before = this.size || { w: this.container.clientWidth, h: this.container.clientHeight };
    const now = { w: this.container.clientWidth, h: this.container.clientHeight };
    this.size = now;
    cy.resize();
    if (!now.w || !now.h) return;
    if (this.autoFit) {
      this.reshape();
      this.fit();
    } else cy.panBy({ x: (now.w - before.w) / 2, y: (now.h - before.h) / 2 });
    this.relabel();
  }

  // The canvas changed shape (the list view opened beside it, a narrower window): pull the picture
  // to the new shape so it fills the canvas instead of a strip of it. Only ever apart, never together
  // (labels keep their room); a big graph keeps its positions (moving them all stalls the page).
  reshape() {
    const cy = this.cy;
    if (this.big || this.stream || cy.nodes().length < 3) return;
    const points = cy.nodes().map((n) => n.position());
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const [x1, x2, y1, y2] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const w = Math.max(x2 - x1, 1);
    const h = Math.max(y2 - y1, 1);
    const want = Math.max(cy.width() - 150, 1) / Math.max(cy.height() - 76, 1); // fit()'s room for labels
    const f = want / (w / h);
    if (Math.abs(Math.log(f)) < Math.log(RESHAPE_AT)) return;
    const sx = Math.min(Math.max(f, 1), MAX_RESHAPE);
    const sy = Math.min(Math.max(1 / f, 1), MAX_RESHAPE);
    const cx = (x1 + x2) / 2;
    const cy0 = (y1 + y2) / 2;
    cy.batch(() => cy.nodes().forEach((n) => {
      const p = n.position();
      n.position({ x: cx + (p.x - cx) * sx, y: cy0 + (p.y - cy0) * sy });
    }));
  }

  // Replace everything on screen with `picture` (GET /api/graph).
  load(full) {
    this.huge = full.nodes.length > HUGE;
    this.omitStates = new Set([...(this.hidden.orphaned ? ["orphaned"] : []), ...(this.huge && !this.drawArchive ? ["archived"] : [])]);
    const omit = new Map(full.nodes.filter((n) => this.omitStates.has(n.state)).map((n) => [n.id, n.state]));
    this.omitted = omit;
    this.revealed = new Set();
    const picture = omit.size ? {
      nodes: full.nodes.filter((n) => !omit.has(n.id)),
      edges: full.edges.filter((e) => !omit.has(e.from) && !omit.has(e.to)),
    } : full;
    const present = new Set(picture.nodes.map((n) => n.id));
    const degree = new Map();
    for (const e of picture.edges) {
      degree.set(e.from, (degree.get(e.from) || 0) + 1);
      degree.set(e.to, (degree.get(e.to) || 0) + 1);
    }
    this.hubDegree = hubThreshold([...degree.values()]);
    const outside = [...new Set(picture.edges.flatMap((e) => [e.from, e.to]).filter((end) => !present.has(end)))];
    const ids = [...picture.nodes.map((n) => n.id), ...outside];
    const positions = radialLayout(ids, picture.edges);
    spread(positions.values(), this.container.clientWidth, this.container.clientHeight, ids.length);
    const viewport = viewportFor(positions, this.container);
    this.setFloor(zoomStep(viewport ? viewport.zoom : 1)); // the sizes drawn first are those of the first view
    this.big = ids.length > BIG;
    this.autoFit = true;
    const nodeEls = [];
    for (const n of picture.nodes) {
      const d = degree.get(n.id) || 0;
      nodeEls.push({ group: "nodes", data: this.nodeData(n, d), classes: this.classesFor(n.state, d), position: positions.get(n.id) });
    }
    for (const end of outside) {
      nodeEls.push({ group: "nodes", data: this.outsideData(end), classes: this.outsideClasses(end), position: positions.get(end) });
    }
    const edgeEls = picture.edges.map((e) => ({ group: "edges", data: { id: edgeId(e), source: e.from, target: e.to, rel: e.rel } }));
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.stream = null;
    this.cy.destroy();
    if (!this.big) {
      this.cy = this.make([...nodeEls, ...edgeEls], false);
      this.applyVisibility();
      this.fit(); // labels follow a moment after the first paint: they must not delay it
      this.refine();
      return painted();
    }
    // Big: what kg_read shows in full (active nodes, hubs first) is drawn at once; the archive follows in chunks.
    const rank = (el) => (el.data.kind === "node" && el.data.state === "active" ? 0 : 1);
    nodeEls.sort((a, b) => rank(a) - rank(b) || b.data.degree - a.data.degree);
    const firstCount = Math.max(FIRST_CHUNK, nodeEls.findIndex((el) => rank(el) === 1));
    this.cy = this.make([], true, viewport);
    this.capZoom();
    return this.streamIn(nodeEls, edgeEls, firstCount);
  }

  // Adds nodes in chunks, each edge as soon as both its ends are in; resolves when the first chunk is painted.
  streamIn(nodeEls, edgeEls, firstCount) {
    const stream = (this.stream = { pending: new Map(nodeEls.map((el) => [el.data.id, el])), edges: edgeEls });
    let firstPainted;
    const first = new Promise((resolve) => { firstPainted = resolve; });
    const step = (count, initial = false) => {
      if (!initial) firstPainted(); // a later turn runs only after the first chunk's frame was painted
      if (this.stream !== stream) return;
      const cy = this.cy;
      const batch = [];
      for (const [id, el] of stream.pending) {
        if (batch.length >= count) break;
        stream.pending.delete(id);
        if (cy.getElementById(id).empty()) batch.push(el);
        el.data.w = this.drawnSize(el.data.size); // the view may have moved since it was made
      }
      const ready = [];
      const waiting = [];
      const here = (id) => !stream.pending.has(id);
      for (const el of stream.edges) (here(el.data.source) && here(el.data.target) ? ready : waiting).push(el);
      stream.edges = waiting;
      const inBatch = new Set(batch.map((el) => el.data.id));
      const present = (id) => inBatch.has(id) || cy.getElementById(id).nonempty();
      cy.batch(() => {
        cy.add(batch);
        // An end deleted meanwhile drops its edge; a live edge may already be in.
        cy.add(ready.filter((el) => cy.getElementById(el.data.id).empty() && present(el.data.source) && present(el.data.target)));
      });
      this.applyVisibility();
      if (stream.pending.size) {
        // After the next frame is painted: each chunk shows, and input is handled in between.
        requestAnimationFrame(() => setTimeout(() => step(CHUNK), 0));
      } else {
        this.stream = null;
        this.relabel(0);
        painted().then(() => { firstPainted(); if (this.onComplete) this.onComplete(); });
      }
    };
    step(firstCount, true);
    return first;
  }

  // fcose in a worker; positions land when it is done, and the page never blocks on it.
  refine(quality = this.big ? "draft" : "default") {
    const cy = this.cy;
    // Shown means not filtered out (a class): asking cytoscape for :visible would resolve every style first.
    const shown = cy.nodes().not(".gone");
    const ids = new Set(shown.map((n) => n.id()));
    const nodes = shown.map((n) => ({ id: n.id() }));
    const edges = cy.edges().not(".gone").filter((e) => ids.has(e.data("source")) && ids.has(e.data("target")))
      .map((e) => ({ id: e.id(), source: e.data("source"), target: e.data("target") }));
    if (this.worker) this.worker.terminate();
    const worker = this.worker = new Worker("/static/js/layout-worker.js");
    document.body.dataset.layout = "running";
    return new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        worker.terminate();
        if (this.worker !== worker || this.cy !== cy) return resolve(false);
        this.worker = null;
        document.body.dataset.layout = "done";
        if (data.positions) {
          spread(Object.values(data.positions), this.container.clientWidth, this.container.clientHeight, nodes.length);
          cy.batch(() => cy.nodes().forEach((n) => { const p = data.positions[n.id()]; if (p) n.position(p); }));
          this.fit();
        }
        resolve(Boolean(data.positions));
      };
      // A worker that cannot start (its scripts fail to load) reports here and never posts: the picture keeps
      // the positions it has, and the page stops waiting instead of showing a layout running for ever.
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        if (this.worker !== worker) return resolve(false);
        this.worker = null;
        document.body.dataset.layout = "failed";
        resolve(false);
      };
      worker.postMessage({ nodes, edges, quality });
    });
  }

  nodeData(n, degree) {
    const size = sizeOf(degree);
    return { id: n.id, label: n.id, kind: "node", state: n.state, gist: n.gist, v: n.v, degree, size, w: this.drawnSize(size) };
  }

  outsideData(end) {
    const kind = isArtifact(end) ? "file" : "outside";
    const size = kind === "file" ? 10 : 14;
    return { id: end, label: end, kind, degree: 1, size, w: this.drawnSize(size) };
  }

  classesFor(state, degree) {
    return `${state}${degree >= this.hubDegree ? " hub" : ""}`;
  }

  outsideClasses(end) {
    return isArtifact(end) ? "file" : "outside";
  }

  // -- live changes -------------------------------------------------------------
  // Returns "reload" when the change needs edges the picture left out (a hidden orphan came back).
  upsertNode(n) {
    if (this.omitted.has(n.id)) {
      if (!this.omitStates.has(n.state)) return "reload";
      this.omitted.set(n.id, n.state);
      return "skip";
    }
    const queued = this.stream && this.stream.pending.get(n.id);
    if (queued) {
      // Not drawn yet: the stream will draw it as it is now.
      Object.assign(queued.data, { state: n.state, gist: n.gist });
      queued.classes = this.classesFor(n.state, queued.data.degree);
      return "ok";
    }
    const el = this.cy.getElementById(n.id);
    if (this.omitStates.has(n.state) && !this.revealed.has(n.id)) {
      if (el.nonempty()) this.removeNode(n.id);
      this.omitted.set(n.id, n.state);
      return "skip";
    }
    if (el.nonempty()) {
      const degree = el.degree(false);
      el.data({ kind: "node", state: n.state, gist: n.gist, label: n.id, ...(n.v !== null && n.v !== undefined ? { v: n.v } : {}) });
      el.classes(this.classesFor(n.state, degree) + (el.hasClass("hit") ? " hit" : ""));
      el.data({ size: sizeOf(degree), w: this.drawnSize(sizeOf(degree)) });
      if (this.hovered && this.hovered.id === n.id) this.onHover(el.data(), this.hovered.at);
    } else {
      this.cy.add({ group: "nodes", data: this.nodeData(n, 0), classes: this.classesFor(n.state, 0), position: this.freeSpot() });
      this.relabel();
    }
    this.visibility(this.cy.getElementById(n.id));
    return "ok";
  }

  // Tiers as the server has them now (compaction moves them quietly); "reload" when an orphan came back.
  applyStates(states) {
    let reload = false;
    this.cy.batch(() => {
      for (const [id, state] of Object.entries(states)) {
        if (this.omitted.has(id)) {
          if (this.omitStates.has(state)) this.omitted.set(id, state);
          else reload = true;
          continue;
        }
        const queued = this.stream && this.stream.pending.get(id);
        const el = this.cy.getElementById(id);
        const current = queued ? queued.data.state : el.nonempty() ? el.data("state") : state;
        if (current !== state) reload = this.upsertNode({ id, gist: queued ? queued.data.gist : el.data("gist"), state }) === "reload" || reload;
      }
    });
    return reload ? "reload" : "ok";
  }

  // Show one node the picture leaves out (a search hit among the orphans), with the edges its panel lists.
  reveal(node) {
    if (!this.omitted.delete(node.id)) return;
    this.revealed.add(node.id); // else upsertNode() leaves it out again for its tier
    this.upsertNode({ id: node.id, gist: node.gist, state: node.state, v: node.version });
    for (const e of node.edges) if (!this.omitted.has(e.other)) this.addEdge(e);
  }

  removeNode(id) {
    this.revealed.delete(id);
    if (this.stream) this.stream.pending.delete(id);
    const el = this.cy.getElementById(id);
    if (el.empty()) return;
    if (this.hovered && this.hovered.id === id) {
      this.hovered = null; // a removed node fires no mouseout: its tip goes with it
      this.onHover(null);
    }
    const neighbours = el.neighborhood("node");
    el.remove();
    // An end that was drawn only because this node pointed at it goes too.
    neighbours.filter((n) => n.data("kind") !== "node" && n.degree(false) === 0).remove();
  }

  addEdge(e) {
    const cy = this.cy;
    if (cy.getElementById(edgeId(e)).nonempty() || this.omitted.has(e.from) || this.omitted.has(e.to)) return;
    if (this.stream && (this.stream.pending.has(e.from) || this.stream.pending.has(e.to))) {
      this.stream.edges.push({ group: "edges", data: { id: edgeId(e), source: e.from, target: e.to, rel: e.rel } });
      return;
    }
    for (const end of [e.from, e.to]) {
      if (cy.getElementById(end).empty()) {
        cy.add({ group: "nodes", data: this.outsideData(end), classes: this.outsideClasses(end), position: this.freeSpot() });
      }
    }
    cy.add({ group: "edges", data: { id: edgeId(e), source: e.from, target: e.to, rel: e.rel } });
    for (const end of [e.from, e.to]) this.resize(end);
  }

  removeEdge(e) {
    if (this.stream) this.stream.edges = this.stream.edges.filter((el) => el.data.id !== edgeId(e));
    const el = this.cy.getElementById(edgeId(e));
    if (el.empty()) return;
    const ends = el.connectedNodes();
    el.remove();
    ends.filter((n) => n.data("kind") !== "node" && n.degree(false) === 0).remove();
    ends.forEach((n) => this.resize(n.id()));
  }

  resize(id) {
    const el = this.cy.getElementById(id);
    if (el.empty() || el.data("kind") !== "node") return;
    const degree = el.degree(false);
    el.data({ degree, size: sizeOf(degree), w: this.drawnSize(sizeOf(degree)) });
  }

  // A node that arrives live appears inside the current view.
  freeSpot() {
    const ext = this.cy.extent();
    return { x: ext.x1 + ext.w * (0.3 + 0.4 * Math.random()), y: ext.y1 + ext.h * (0.3 + 0.4 * Math.random()) };
  }

  // -- view ------------------------------------------------------------------
  select(id, center = true) {
    const cy = this.cy;
    cy.$(":selected").unselect();
    const el = cy.getElementById(id);
    if (el.empty()) return;
    el.removeClass("gone");
    el.select();
    if (center) cy.animate({ center: { eles: el }, zoom: Math.min(Math.max(cy.zoom(), 0.9), 1.6) }, { duration: 200 });
  }

  // Active and archived nodes hide in place; orphans need the caller to reload the picture.
  setHidden(state, hidden) {
    this.hidden[state] = hidden;
    if (state !== "orphaned") this.applyVisibility();
  }

  setFilters(changes) {
    Object.assign(this.filters, changes);
    this.applyVisibility();
  }

  // Whether the filters leave a node (cytoscape element) in the picture.
  passes(n, relIds) {
    if (n.selected() || n.hasClass("hit")) return true;
    const kind = n.data("kind");
    if (kind === "node") {
      if (!this.filters.own || this.hidden[n.data("state")]) return false;
      if (this.filters.debtOnly && !this.debtIds.has(n.id())) return false;
    } else {
      if (kind === "file" ? !this.filters.files : !this.filters.other) return false;
      if (this.filters.debtOnly) return false;
    }
    return !relIds || relIds.has(n.id());
  }

  relIds() {
    const rel = this.filters.rel;
    if (!rel) return null;
    const ids = new Set();
    this.cy.edges().forEach((e) => { if (e.data("rel") === rel) { ids.add(e.data("source")); ids.add(e.data("target")); } });
    return ids;
  }

  applyVisibility() {
    const cy = this.cy;
    const rel = this.filters.rel;
    const relIds = this.relIds();
    cy.batch(() => {
      cy.elements(".gone").removeClass("gone");
      cy.nodes().forEach((n) => { if (!this.passes(n, relIds)) n.addClass("gone"); });
      if (rel) cy.edges().forEach((e) => { if (e.data("rel") !== rel) e.addClass("gone"); });
    });
    document.body.dataset.filtered = String(cy.nodes(".gone").length);
    this.relabel();
  }

  visibility(el) {
    el.toggleClass("gone", !this.passes(el, this.relIds()));
    this.relabel();
  }

  relations() {
    return [...new Set(this.cy.edges().map((e) => e.data("rel")))].sort();
  }

  highlight(result, zoomTo = true) {
    const cy = this.cy;
    cy.batch(() => {
      cy.elements(".hit, .top, .path, .dim").removeClass("hit top path dim");
      if (!result) return;
      const hitIds = new Set(result.hits.map((hit) => hit.id));
      cy.elements().addClass("dim");
      for (const hit of result.hits) {
        const el = cy.getElementById(hit.id);
        el.removeClass("dim").addClass("hit");
        if (hit.top) el.addClass("top");
      }
      for (const id of result.connectors) cy.getElementById(id).removeClass("dim");
      for (const e of result.path_edges) cy.getElementById(edgeId(e)).removeClass("dim").addClass("path");
      cy.edges().forEach((e) => {
        if (hitIds.has(e.source().id()) && hitIds.has(e.target().id())) e.removeClass("dim");
      });
    });
    this.applyVisibility();
    const hits = cy.nodes(".hit");
    if (zoomTo && hits.nonempty()) {
      cy.fit(hits, 80);
      this.capZoom();
    }
  }

  clearHighlight() {
    this.highlight(null);
  }

  // The nodes fill the view. Labels keep one size on screen, so they get room in screen pixels
  // (below the lowest nodes), not in the model: cy.fit would count them at the size they had.
  fit() {
    const cy = this.cy;
    // From positions and sizes alone: cytoscape's bounding box would resolve every node's style first
    // (a fifth of a second at 400 nodes), and edges lie between their nodes anyway.
    this.autoFit = true;
    const bb = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
    cy.nodes().not(".gone").forEach((n) => {
      const p = n.position();
      const r = (n.data("size") || 14) / 2;
      bb.x1 = Math.min(bb.x1, p.x - r); bb.x2 = Math.max(bb.x2, p.x + r);
      bb.y1 = Math.min(bb.y1, p.y - r); bb.y2 = Math.max(bb.y2, p.y + r);
    });
    bb.w = bb.x2 - bb.x1;
    bb.h = bb.y2 - bb.y1;
    if (bb.x1 !== Infinity && cy.width() && cy.height()) {
      const pad = 30;
      const padX = 75; // half a typical label: the outermost nodes keep theirs inside the view
      const labelRoom = 16;
      const zoom = Math.min(FIT_ZOOM_MAX, (cy.width() - 2 * padX) / Math.max(bb.w, 1), (cy.height() - 2 * pad - labelRoom) / Math.max(bb.h, 1));
      cy.viewport({ zoom, pan: { x: cy.width() / 2 - (zoom * (bb.x1 + bb.x2)) / 2, y: (cy.height() - labelRoom) / 2 - (zoom * (bb.y1 + bb.y2)) / 2 } });
    }
    this.relabel(0);
  }

  // A handful of nodes would otherwise fill the screen at giant size.
  capZoom() {
    if (this.cy.zoom() > FIT_ZOOM_MAX) this.cy.zoom({ level: FIT_ZOOM_MAX, renderedPosition: { x: this.cy.width() / 2, y: this.cy.height() / 2 } });
  }

  // Nodes a sync found changed on two machines: outlined until a version is kept.
  markConflicts(ids) {
    this.conflictIds = new Set(ids);
    this.cy.nodes(".conflict").forEach((n) => { if (!this.conflictIds.has(n.id())) n.removeClass("conflict"); });
    for (const id of ids) this.cy.getElementById(id).addClass("conflict");
  }

  nodeIds() {
    return this.cy.nodes().filter((n) => n.data("kind") === "node").map((n) => n.id());
  }

  counts() {
    const c = { active: 0, archived: 0, orphaned: 0, edges: this.cy.edges().length, outside: 0, notDrawn: this.omitted.size };
    for (const state of this.omitted.values()) c[state] += 1;
    this.cy.nodes().forEach((n) => {
      if (n.data("kind") === "node") c[n.data("state")] += 1;
      else c.outside += 1;
    });
    return c;
  }
}

// Resolves once the next frame has been painted (cytoscape draws in its animation-frame callback).
function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

// Zoom and pan that show every position (the whole picture, before all of it is drawn).
function viewportFor(positions, container) {
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (const p of positions.values()) {
    x1 = Math.min(x1, p.x); x2 = Math.max(x2, p.x); y1 = Math.min(y1, p.y); y2 = Math.max(y2, p.y);
  }
  if (x1 === Infinity) return null;
  const pad = 30;
  const w = container.clientWidth;
  const h = container.clientHeight;
  const zoom = Math.min((w - 2 * pad) / Math.max(x2 - x1, 1), (h - 2 * pad) / Math.max(y2 - y1, 1));
  return { zoom, pan: { x: w / 2 - (zoom * (x1 + x2)) / 2, y: h / 2 - (zoom * (y1 + y2)) / 2 } };
}

// The zoom the least sizes are set for: `zoom` rounded down to a step (so they never fall short).
function zoomStep(zoom) {
  return ZOOM_STEP ** Math.floor(Math.log(zoom) / Math.log(ZOOM_STEP));
}

// Hubs: the top few percent by degree, and at least 3 edges.
function hubThreshold(degrees) {
  if (!degrees.length) return Infinity;
  const sorted = [...degrees].sort((a, b) => b - a);
  return Math.max(3, sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.03))]);
}
