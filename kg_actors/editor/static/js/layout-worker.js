// fcose off the main thread: the page stays interactive while a force layout runs.
// In: {nodes: [{id}], edges: [{id, source, target}], quality}. Out: {positions: {id: {x, y}}} or {error}.
// Always from a spectral start (randomize): fcose from given positions collapsed them onto a line here.

/* global cytoscape, cytoscapeFcose */
importScripts("/static/vendor/cytoscape.min.js", "/static/vendor/layout-base.js",
  "/static/vendor/cose-base.js", "/static/vendor/cytoscape-fcose.js");
cytoscape.use(cytoscapeFcose);

// fcose's spectral start draws on Math.random: seeded from the graph's ids, the same graph gets the same
// picture each time it is drawn (a person finds things where they were; a test measures a picture, not a dice roll).
function seededRandom(text) {
  let a = 2166136261;
  for (let i = 0; i < text.length; i += 1) a = Math.imul(a ^ text.charCodeAt(i), 16777619);
  return () => { // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

self.onmessage = (message) => {
  const { nodes, edges, quality } = message.data;
  Math.random = seededRandom(nodes.map((n) => n.id).join("\n"));
  try {
    const cy = cytoscape({
      headless: true,
      style: [{ selector: "node", style: { width: 16, height: 16 } }],
      elements: [
        ...nodes.map((n) => ({ group: "nodes", data: { id: n.id } })),
        ...edges.map((e) => ({ group: "edges", data: e })),
      ],
    });
    const layout = cy.layout({
      name: "fcose", quality, randomize: true, animate: false, fit: false,
      // Roomier for a small graph, whose labels are all shown.
      nodeRepulsion: () => (quality === "draft" ? 4500 : 12000), idealEdgeLength: () => (quality === "draft" ? 60 : 120),
      nodeSeparation: 90, packComponents: false, tile: true, tilingPaddingVertical: 30, tilingPaddingHorizontal: 30,
    });
    layout.one("layoutstop", () => {
      const positions = {};
      cy.nodes().forEach((n) => { positions[n.id()] = n.position(); });
      self.postMessage({ positions });
    });
    layout.run();
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
