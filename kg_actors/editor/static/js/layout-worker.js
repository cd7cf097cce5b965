// fcose off the main thread: the page stays interactive while a force layout runs.
// In: {nodes: [{id}], edges: [{id, source, target}], quality}. Out: {positions: {id: {x, y}}} or {error}.
// Always from a spectral start (randomize): fcose from given positions collapsed them onto a line here.

/* global cytoscape, cytoscapeFcose */
importScripts("/static/vendor/cytoscape.min.js", "/static/vendor/layout-base.js",
  "/static/vendor/cose-base.js", "/static/vendor/cytoscape-fcose.js");
cytoscape.use(cytoscapeFcose);

self.onmessage = (message) => {
  const { nodes, edges, quality } = message.data;
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
