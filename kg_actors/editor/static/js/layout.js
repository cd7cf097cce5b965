// The first picture's positions, in linear time: each connected component as rings around its hub.
//
// A force layout of a 2,000-node graph takes seconds on this class of machine,
// so the page never waits for one: this places every node at once (hub in the
// middle, neighbours ring by ring in their parent's direction, components packed
// largest first), and fcose refines in a worker where that is affordable.

const RING_GAP = 70;
const NODE_GAP = 26;

export function radialLayout(ids, edges) {
  const index = new Map(ids.map((id, i) => [id, i]));
  const adj = ids.map(() => []);
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    adj[a].push(b);
    adj[b].push(a);
  }
  const seen = new Uint8Array(ids.length);
  const order = ids.map((_, i) => i).sort((a, b) => adj[b].length - adj[a].length);
  const components = [];
  for (const root of order) {
    if (!seen[root]) components.push(placeComponent(root, adj, seen));
  }
  return pack(components, ids);
}

// BFS rings from the hub; each ring keeps its nodes in their parents' angular order.
function placeComponent(root, adj, seen) {
  seen[root] = 1;
  const angle = new Map([[root, 0]]);
  const placed = [{ node: root, x: 0, y: 0 }];
  let ring = [root];
  let radius = 0;
  while (ring.length) {
    const next = [];
    for (const parent of ring) {
      for (const child of adj[parent]) {
        if (!seen[child]) {
          seen[child] = 1;
          next.push({ child, parentAngle: angle.get(parent) });
        }
      }
    }
    if (!next.length) break;
    next.sort((a, b) => a.parentAngle - b.parentAngle);
    radius = Math.max(radius + RING_GAP, (next.length * NODE_GAP) / (2 * Math.PI));
    next.forEach(({ child }, k) => {
      const theta = (2 * Math.PI * k) / next.length;
      angle.set(child, theta);
      placed.push({ node: child, x: radius * Math.cos(theta), y: radius * Math.sin(theta) });
    });
    ring = next.map((n) => n.child);
  }
  return { placed, size: 2 * radius + NODE_GAP };
}

// Shelf packing: big components first, rows about as wide as the whole picture is tall.
function pack(components, ids) {
  const area = components.reduce((sum, c) => sum + c.size * c.size, 0);
  const width = Math.max(Math.sqrt(area) * 1.2, 200);
  const positions = new Map();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const c of components) {
    if (x > 0 && x + c.size > width) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    for (const p of c.placed) positions.set(ids[p.node], { x: x + c.size / 2 + p.x, y: y + c.size / 2 + p.y });
    x += c.size;
    rowHeight = Math.max(rowHeight, c.size);
  }
  return positions;
}

// Stretch positions (in place) to the canvas: the picture takes the canvas's shape, and a small
// graph opens at about zoom 1 with room between its labels instead of a knot in the middle.
// A big graph is only reshaped (it is already wider than the canvas at any readable zoom).
const MAX_STRETCH = 1.8; // how far the aspect may be pulled
const ROOM_PER_NODE = 260; // a tiny graph spreads no further than this many pixels per node

export function spread(points, width, height, count) {
  const list = [...points];
  if (list.length < 2 || !width || !height) return;
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (const p of list) {
    x1 = Math.min(x1, p.x); x2 = Math.max(x2, p.x); y1 = Math.min(y1, p.y); y2 = Math.max(y2, p.y);
  }
  const w = Math.max(x2 - x1, 1);
  const h = Math.max(y2 - y1, 1);
  const pad = 60;
  const roomW = Math.min(width - 2 * pad, ROOM_PER_NODE * Math.sqrt(count));
  const roomH = Math.min(height - 2 * pad, ROOM_PER_NODE * Math.sqrt(count));
  let sx = Math.max(1, roomW / w);
  let sy = Math.max(1, roomH / h);
  // The aspect of the canvas, within MAX_STRETCH of the picture's own.
  const want = (roomW / roomH) / ((w * sx) / (h * sy));
  if (want > 1) sx *= Math.min(want, MAX_STRETCH);
  else sy *= Math.min(1 / want, MAX_STRETCH);
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2;
  for (const p of list) {
    p.x = cx + (p.x - cx) * sx;
    p.y = cy + (p.y - cy) * sy;
  }
}
