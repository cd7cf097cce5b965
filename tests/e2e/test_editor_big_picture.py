"""A 3,000-node graph drawn whole (orphans too) in Debian's headless Chromium, against a real `kg serve`.

Fit zooms far out to show it all; every node must still show as a dot a person can see, and the open
node keep a mark that stands out, at any zoom.
"""

from __future__ import annotations

import pytest
from browser_helpers import launched, needs_chromium, watched_page
from editor_store import big_project, editor_url

from kg_actors.testing import ServerProcess, write_store

pytestmark = needs_chromium

WAIT_MS = 120_000
NODES = 3000
MIN_DOT_PX = 6  # canvas.js MIN_NODE_PX: the smallest a node is drawn on screen
MARK_PX = 3  # the open node's ring, on screen, at the least

# On screen, in pixels: the smallest node, and the open node's size and ring.
SIZES_JS = """() => {
  const cy = window.kgEditor.canvas.cy;
  const drawn = cy.nodes().filter((n) => !n.hasClass('gone'));
  const sel = cy.$('node:selected');
  // A node paints something a person sees: a fill that is not all but transparent, or a ring a pixel wide.
  const fill = (n) => parseFloat(n.style('background-opacity')) * parseFloat(n.style('opacity'));
  const unseen = drawn.filter((n) => fill(n) < 0.2 && parseFloat(n.style('border-width')) * cy.zoom() < 1);
  return {zoom: cy.zoom(), drawn: drawn.length, unseen: unseen.map((n) => n.id()).slice(0, 5), smallest: Math.min(...drawn.map((n) => n.renderedWidth())),
          selected: sel.length ? sel.renderedWidth() : null,
          ring: sel.length ? parseFloat(sel.style('border-width')) * cy.zoom() : null,
          others: Math.max(...drawn.filter((n) => !n.selected()).map((n) => n.renderedWidth()))};
}"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("editor-big"))
    s.paths = {"bulk": s.project("bulk")}
    write_store(s.store, projects={"bulk": big_project(s.paths["bulk"], NODES)})
    s.start()
    yield s
    s.kill()


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


@pytest.fixture
def page(browser):
    with watched_page(browser, 1400, WAIT_MS) as p:
        yield p


def settled(page) -> None:
    """The labels (and the node sizes with them) follow the view a moment after it stops moving."""
    page.wait_for_function("() => document.body.dataset.labels === 'placed'")


def test_every_node_stays_visible_and_the_open_one_marked_when_fit_shows_3000(srv, page, tmp_path):
    page.goto(f"{editor_url(srv)}/#{srv.paths['bulk']}")
    page.wait_for_selector("body[data-complete=yes]")
    page.click("#filters summary")
    page.check("#show-orphaned")
    page.wait_for_function(f"() => window.kgEditor.canvas.cy.nodes('[kind = \"node\"]').length >= {NODES}")
    page.wait_for_selector("body[data-complete=yes]")
    page.evaluate("() => window.kgEditor.selectNode('bulk-node-7', false)")
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'bulk-node-7'")
    page.click("#fit")
    settled(page)
    m = page.evaluate(SIZES_JS)
    page.screenshot(path=str(tmp_path / "big-fit.png"))
    print(m)
    assert m["zoom"] < 0.3 and m["drawn"] >= NODES, m  # far out: the case the floor is for
    assert m["smallest"] >= MIN_DOT_PX and m["unseen"] == [], m
    assert m["ring"] >= MARK_PX and m["selected"] > m["others"], m  # the open node stands out from every other

    # Zoomed in again, nodes are sized by their links as before: the floor only lifts what would be a speck.
    page.evaluate("() => { const cy = window.kgEditor.canvas.cy; cy.zoom({level: 1.5, position: cy.$('#bulk-node-7').position()}); }")
    settled(page)
    near = page.evaluate(SIZES_JS)
    assert near["smallest"] >= 10 * 1.5 * 0.99, near  # the smallest node's own size (a file end's), unlifted
    assert page.problems == []
