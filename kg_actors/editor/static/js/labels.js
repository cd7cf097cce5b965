// Which node labels the picture shows: as many as fit without overlapping, the important ones first.
//
// Labels keep one size on screen at every zoom (their font size is set per pass
// as LABEL_PX / zoom), so zooming in makes room for more of them, as in the graph
// tools people know. A pass walks the nodes in priority order (the selection, its
// neighbours, search hits, then by degree, active before archived) and accepts a
// label only if its box, on screen, clears every label already accepted and every
// other node's disc. Boxes are estimated from the text's measured width, with a
// gap, so cytoscape's own label boxes (what the tests measure) never overlap.
// Long ids are shortened; the full id shows on hover and in the panel.

export const LABEL_PX = 11;
const HUB_PX = 12;
const LABEL_CHARS = 24;
const GAP = 3; // screen pixels kept free around each label
const OUTLINE = 2; // screen pixels, as drawn
const MARGIN_Y = 2; // screen pixels between a node and its label
const MAX_LABELS = 300; // a pass never costs more than this many boxes
const CELL = 64; // the collision grid's cell, in screen pixels
export const FONT_FAMILY = "Helvetica Neue, Helvetica, Arial, sans-serif";

export function shortLabel(id) {
  return id.length <= LABEL_CHARS ? id : `${id.slice(0, LABEL_CHARS - 1)}…`;
}

const widths = new Map();
let ctx = null;
function textWidth(text, px, bold) {
  const key = `${bold ? "b" : ""}${px}:${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    ctx = ctx || document.createElement("canvas").getContext("2d");
    ctx.font = `${bold ? "bold " : ""}${px}px ${FONT_FAMILY}`;
    w = ctx.measureText(text).width;
    if (widths.size > 20_000) widths.clear();
    widths.set(key, w);
  }
  return w;
}

class Grid {
  constructor() {
    this.cells = new Map();
  }

  *around(b) {
    for (let cx = Math.floor(b.x1 / CELL); cx <= Math.floor(b.x2 / CELL); cx++) {
      for (let cy = Math.floor(b.y1 / CELL); cy <= Math.floor(b.y2 / CELL); cy++) yield `${cx},${cy}`;
    }
  }

  hits(b, except = null) {
    for (const key of this.around(b)) {
      for (const o of this.cells.get(key) || []) {
        if (o.owner !== except && o.x1 < b.x2 && b.x1 < o.x2 && o.y1 < b.y2 && b.y1 < o.y2) return true;
      }
    }
    return false;
  }

  add(b) {
    for (const key of this.around(b)) {
      const list = this.cells.get(key);
      if (list) list.push(b);
      else this.cells.set(key, [b]);
    }
  }
}

// Picks and applies the labels for the current view; returns how many are shown.
// `priority(node)` gives a number (lower first) for the nodes that must lead.
export function placeLabels(cy, priority) {
  const zoom = cy.zoom();
  const w = cy.width();
  const h = cy.height();
  const inView = (p) => p.x >= 0 && p.x <= w && p.y >= 0 && p.y <= h;
  const nodes = cy.nodes().filter((n) => !n.hasClass("gone") && !n.hasClass("dim"));
  // A label may cross an unlabelled node's disc (dense pictures would show none otherwise), never a
  // hub's or a labelled node's: the nodes a person reads by their label stay uncovered.
  const placed = new Grid();
  const disc = (c) => ({ x1: c.p.x - c.r, y1: c.p.y - c.r, x2: c.p.x + c.r, y2: c.p.y + c.r, owner: c.n.id() });
  const candidates = [];
  nodes.forEach((n) => {
    const p = n.renderedPosition();
    if (!inView(p)) return;
    const c = { n, p, r: n.renderedOuterWidth() / 2, rank: priority(n) };
    if (n.hasClass("hub")) placed.add(disc(c));
    candidates.push(c);
  });
  candidates.sort((a, b) => a.rank - b.rank);
  const chosen = new Map();
  for (const c of candidates) {
    if (chosen.size >= MAX_LABELS) break;
    const full = c.n.selected() || c.n.hasClass("hit");
    const text = full ? c.n.data("label") : shortLabel(c.n.data("label"));
    const bold = c.n.hasClass("hub");
    const px = bold ? HUB_PX : LABEL_PX;
    const half = textWidth(text, px, bold) / 2 + OUTLINE + GAP;
    const top = c.p.y + c.r + MARGIN_Y - GAP;
    const box = { x1: c.p.x - half, x2: c.p.x + half, y1: top, y2: top + px * 1.25 + 2 * OUTLINE + 2 * GAP, owner: c.n.id() };
    if (box.x1 < 0 || box.x2 > w || box.y2 > h) continue;
    if (placed.hits(box, c.n.id())) continue;
    const own = disc(c);
    if (!c.n.hasClass("hub") && placed.hits(own)) continue; // its disc lies under a label already placed
    placed.add(box);
    if (!c.n.hasClass("hub")) placed.add(own);
    chosen.set(c.n.id(), { text, px });
  }
  cy.batch(() => {
    cy.nodes(".labelled").forEach((n) => { if (!chosen.has(n.id())) n.removeClass("labelled"); });
    for (const [id, { text, px }] of chosen) {
      const n = cy.getElementById(id);
      const fs = px / zoom;
      if (n.data("shown") !== text || n.data("fs") !== fs) {
        n.data({ shown: text, fs, ow: OUTLINE / zoom, my: MARGIN_Y / zoom });
      }
      n.addClass("labelled");
    }
  });
  return chosen.size;
}
