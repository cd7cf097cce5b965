"""The editor at real sizes, in Debian's headless Chromium: a readable picture at 20, 200 and 2,000
nodes, the window changing size, filters, debt lists, removing a project, and the list view.

One server and one browser serve the whole module (a store with several projects); each test opens
its own page. Screenshots land in the module's tmp dir as artifacts, never in the checkout.
"""

from __future__ import annotations

import json

import pytest
from editor_graphs import (USER_NODE, loose_project, mixed_project, readings_lines, sized_project, small_project,
                           worn_project)
from browser_helpers import launched, needs_chromium, watched_page
from editor_store import big_project, client, editor_url

from kg_actors.testing import ServerProcess, write_store

pytestmark = needs_chromium

WAIT_MS = 60_000
MAX_OVERLAP = 0.02  # issue #19: label boxes overlap in fewer than 2% of pairs

# Cytoscape's own label boxes, on screen, for every label the page shows; and how many pairs overlap.
OVERLAP_JS = """() => {
  const cy = window.kgEditor.canvas.cy;
  const shown = cy.nodes('.labelled').filter((n) => n.visible() && n.style('label') !== '');
  const boxes = shown.map((n) => n.renderedBoundingBox({includeLabels: true, includeNodes: false,
                                                         includeEdges: false, includeOverlays: false}));
  let pairs = 0, overlapping = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    pairs += 1;
    if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlapping += 1;
  }
  // The smallest label on screen, in pixels: shown labels are readable, not specks.
  const minPx = Math.min(...shown.map((n) => parseFloat(n.style('font-size')) * cy.zoom()));
  const drawn = cy.nodes(':visible');
  const bb = drawn.renderedBoundingBox({includeLabels: false});
  return {shown: boxes.length, pairs, overlapping, drawn: drawn.length, zoom: cy.zoom(), minPx,
          width: cy.width(), height: cy.height(), bb: {x1: bb.x1, y1: bb.y1, x2: bb.x2, y2: bb.y2}};
}"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("editor-views")
    s = ServerProcess(base)
    s.paths = {name: s.project(name) for name in ("small", "loose", "mid", "big", "streamed", "worn", "mixed", "empty-one")}
    write_store(s.store, user={"nodes": {USER_NODE["id"]: USER_NODE}, "edges": {}}, projects={
        "mixed": mixed_project(s.paths["mixed"]),
        "streamed": big_project(s.paths["streamed"]),  # past the streaming threshold: drawn in turns
        "small": small_project(s.paths["small"]), "loose": loose_project(s.paths["loose"]),
        "mid": sized_project(s.paths["mid"], 200), "big": sized_project(s.paths["big"], 2000),
        "worn": worn_project(s.paths["worn"]),
        # Created by mistake: a folder that is gone (its graph still holds a node), and an empty graph.
        "gone-folder": {"nodes": {"left-behind-node": {"id": "left-behind-node", "gist": "From a folder since deleted"}},
                        "edges": {}, "_meta": {"project_path": str(s.home / "gone-folder")}},
        "empty-one": {"nodes": {}, "edges": {}, "_meta": {"project_path": s.paths["empty-one"]}}})
    (s.store / "projects" / "worn" / "graph.readings.jsonl").write_text(readings_lines())
    s.start()
    yield s
    s.kill()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    return tmp_path_factory.mktemp("editor-screenshots")


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


@pytest.fixture
def page(browser):
    with watched_page(browser, 1440, WAIT_MS) as p:
        yield p


def open_graph(page, srv, name: str) -> None:
    page.goto(f"{editor_url(srv)}/#{srv.paths[name]}")
    page.wait_for_selector("body[data-graph=ready]")
    page.wait_for_selector("body[data-complete=yes]")
    settled(page)


def settled(page) -> None:
    """The layout (if any) has landed and the labels of the view on screen are placed."""
    page.wait_for_function("() => document.body.dataset.layout !== 'running' && document.body.dataset.labels === 'placed'")


@pytest.mark.parametrize("name, nodes, at_least", [("small", 22, 18), ("loose", 30, 24), ("mid", 200, 30),
                                                   ("big", 2000, 25), ("streamed", 900, 20)])
def test_labels_never_overlap_at_the_default_view_and_the_picture_uses_the_canvas(srv, page, artifacts, name, nodes,
                                                                                  at_least):
    open_graph(page, srv, name)
    m = page.evaluate(OVERLAP_JS)
    page.screenshot(path=str(artifacts / f"picture-{name}-{nodes}.png"))
    (artifacts / f"overlap-{name}.json").write_text(json.dumps(m))
    print(name, json.dumps(m))
    assert m["overlapping"] <= MAX_OVERLAP * max(m["pairs"], 1), m
    assert m["shown"] >= at_least, m
    assert m["minPx"] >= 10.5, m
    # The drawing fills the canvas: it spans most of its width or most of its height.
    span_w = (m["bb"]["x2"] - m["bb"]["x1"]) / m["width"]
    span_h = (m["bb"]["y2"] - m["bb"]["y1"]) / m["height"]
    assert max(span_w, span_h) > 0.8 and min(span_w, span_h) > 0.5, m
    assert page.problems == []


def test_a_narrower_window_recentres_the_picture_and_fit_fits(srv, page, artifacts):
    open_graph(page, srv, "small")
    page.set_viewport_size({"width": 820, "height": 700})
    page.wait_for_function("() => window.kgEditor.canvas.cy.width() < 600")
    settled(page)
    m = page.evaluate(OVERLAP_JS)
    page.screenshot(path=str(artifacts / "picture-small-narrow.png"))
    # Every node inside the canvas (none under the side panel), the picture centred, labels apart.
    assert m["bb"]["x1"] >= 0 and m["bb"]["x2"] <= m["width"] and m["bb"]["y1"] >= 0 and m["bb"]["y2"] <= m["height"], m
    centre = (m["bb"]["x1"] + m["bb"]["x2"]) / 2
    assert abs(centre - m["width"] / 2) < 0.1 * m["width"], m
    assert m["overlapping"] <= MAX_OVERLAP * max(m["pairs"], 1), m
    # The legend and the counts never cover each other or the picture.
    boxes = page.evaluate("""() => ['#legend', '#counts', '#cy'].map((s) => {
        const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    legend, counts, cy = boxes
    def apart(a, b):
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert apart(legend, counts) and apart(legend, cy) and apart(counts, cy), boxes
    # Zoomed far in by hand, then Fit: the whole picture is back in view.
    page.evaluate("() => { const cy = window.kgEditor.canvas.cy; cy.zoom({level: 4, renderedPosition: {x: 10, y: 10}}); }")
    page.click("#fit")
    settled(page)
    m = page.evaluate(OVERLAP_JS)
    assert m["bb"]["x1"] >= 0 and m["bb"]["x2"] <= m["width"] and m["bb"]["y2"] <= m["height"], m
    # Fit leaves a margin for the outermost labels (75 px a side): on a narrow canvas that is a larger share.
    assert (m["bb"]["x2"] - m["bb"]["x1"]) >= m["width"] - 2 * 75 - 1 or (m["bb"]["y2"] - m["bb"]["y1"]) >= m["height"] - 80, m


def test_it_opens_on_the_project_of_the_most_recently_active_session(srv, page):
    import trio
    from e2e_helpers import Session
    from mcp import Client

    async def agent() -> None:
        async with Client(srv.url + "/") as c:
            await Session.open(c, cwd=srv.paths["loose"])

    trio.run(agent)
    page.goto(editor_url(srv) + "/")
    page.wait_for_selector("body[data-graph=ready]")
    assert page.evaluate("() => window.kgEditor.view") == {"level": "project", "projectPath": srv.paths["loose"]}
    # The user graph is one click away.
    page.click("#to-user")
    page.wait_for_function("() => window.kgEditor.view.level === 'user' && document.body.dataset.graph === 'ready'")
    assert page.evaluate("() => location.hash") == "#user"


def test_the_budget_tab_lists_the_nodes_behind_the_debt_and_charts_it(srv, page, artifacts):
    open_graph(page, srv, "worn")
    page.click("#tabs button[data-tab=budget]")
    page.wait_for_selector("#debt-lists")
    listed = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.debt-factor')].map((d) =>
        [d.dataset.factor, [...d.querySelectorAll('button[data-node]')].map((b) => b.dataset.node)]))""")
    assert listed["oversized"] == ["billing-service-hub"]
    assert set(listed["unconnected"]) == {"billing-service-hub", "a-very-long-node-id-made-of-many-words",
                                          "deploy-notes-2026-03-01"}
    assert set(listed["long_ids"]) == {"a-very-long-node-id-made-of-many-words", "deploy-notes-2026-03-01"}
    assert listed["dangling"] == [] and listed["lift_clusters"] == []
    # The HEALTH and DEBT lines count unlinked nodes over different sets: each in its own words, and both explained.
    card = page.eval_on_selector('.card[data-level="project"] details', "d => d.textContent")
    assert "3 with no edge shown (" in card and "3 unconnected" in card, card
    assert "an edge to an orphaned node is not shown" in card and "no edge at all" in card, card
    # Every factor is explained in plain words on hover.
    assert all(page.eval_on_selector_all(".debt-factor summary", "els => els.map((e) => e.title.length > 20)"))
    # The chart: one line for debt, one for the render against its budget, over the kept readings.
    assert page.get_attribute("#readings-chart svg", "aria-label").startswith("Over 12 readings")
    assert page.eval_on_selector("#readings-chart polyline.debt", "e => e.points.length") == 12
    page.screenshot(path=str(artifacts / "budget-tab.png"))
    # A click away from the node's editor panel.
    page.click('.debt-factor[data-factor=long_ids] button[data-node="deploy-notes-2026-03-01"]')
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'deploy-notes-2026-03-01'")
    assert page.is_visible("#gist")
    assert page.problems == []


VISIBLE_JS = "() => window.kgEditor.canvas.cy.nodes().filter((n) => !n.hasClass('gone')).map((n) => n.id()).sort()"


def test_filters_by_tier_level_relation_and_debt(srv, page, artifacts):
    open_graph(page, srv, "mixed")
    every = ["a-linked-lesson", "b-archived-lesson", "d-loose-lesson", "hub-one-lesson", "prefer-small-modules", "src/x.py"]
    assert page.evaluate(VISIBLE_JS) == every  # orphans are left out by default
    page.click("#filters summary")

    def visible_after(action) -> list[str]:
        action()  # the page applies a filter in the change event itself
        return page.evaluate(VISIBLE_JS)

    assert visible_after(lambda: page.uncheck("#show-archived")) == [i for i in every if i != "b-archived-lesson"]
    page.check("#show-archived")
    assert visible_after(lambda: page.uncheck("#show-active")) == ["b-archived-lesson", "prefer-small-modules", "src/x.py"]
    page.check("#show-active")
    assert visible_after(lambda: page.uncheck("#show-other")) == [i for i in every if i != "prefer-small-modules"]
    assert visible_after(lambda: page.uncheck("#show-files")) == [i for i in every if i not in ("prefer-small-modules", "src/x.py")]
    page.check("#show-other")
    page.check("#show-files")
    assert visible_after(lambda: page.uncheck("#show-own")) == ["prefer-small-modules", "src/x.py"]
    page.check("#show-own")
    # One relation: its edges and the nodes they join.
    assert sorted(page.eval_on_selector_all("#filter-rel option", "os => os.map((o) => o.value)")) == [
        "", "applies", "depends-on", "implemented-in", "related-to"]
    assert visible_after(lambda: page.select_option("#filter-rel", "depends-on")) == ["a-linked-lesson", "hub-one-lesson"]
    assert page.evaluate("() => window.kgEditor.canvas.cy.edges().filter((e) => !e.hasClass('gone')).map((e) => e.id())") == [
        "a-linked-lesson->hub-one-lesson:depends-on"]
    page.select_option("#filter-rel", "")
    # Debt: only the nodes behind a DEBT factor (d-loose-lesson is active and unconnected).
    with client(srv) as http:
        behind = http.get("/api/debt_nodes", params={"level": "project", "project_path": srv.paths["mixed"]}).json()["behind"]
    assert behind["unconnected"] == ["d-loose-lesson"]
    page.check("#filter-debt")
    page.wait_for_function("() => window.kgEditor.canvas.filters.debtOnly")
    page.wait_for_function(f"() => JSON.stringify(({VISIBLE_JS})()) === JSON.stringify(['d-loose-lesson'])")
    page.screenshot(path=str(artifacts / "filters.png"))
    assert page.inner_text("#filter-count") == "1"
    assert page.problems == []


def test_the_score_card_speaks_plain_words_and_explains_each_term_on_hover(srv, page, artifacts):
    open_graph(page, srv, "mixed")
    page.evaluate("() => window.kgEditor.selectNode('hub-one-lesson')")
    page.wait_for_selector("#score-card table")
    text = page.inner_text("#score-card")
    for code_word in ("hub floor", "fresh tier", "percentile", "pool"):
        assert code_word not in text.lower(), text
    terms = page.eval_on_selector_all("#score-card .term", "els => els.map((e) => [e.dataset.term, e.title])")
    assert {t for t, _ in terms} >= {"score", "recency", "connectedness", "usefulness", "rank", "weight", "peers", "floor"}
    assert all(len(title) > 20 and "\n" not in title for _, title in terms), terms
    page.hover("#score-card .term[data-term=floor]")
    assert "links" in page.get_attribute("#score-card .term[data-term=floor]", "title")
    page.screenshot(path=str(artifacts / "score-card.png"))


def test_a_mistaken_project_is_removed_after_a_confirmation_that_names_it(srv, page, artifacts):
    store = srv.store
    with client(srv) as http:
        # The server's own rules, whatever a page sends: the name must be given, a live project stays.
        assert http.request("DELETE", "/api/projects/worn", json={}).status_code == 400
        refused = http.request("DELETE", "/api/projects/worn", json={"confirm": "worn"})
        assert refused.status_code == 409 and "stays" in refused.json()["error"]
        assert http.request("DELETE", "/api/projects/user", json={"confirm": "user"}).status_code == 404
    assert (store / "user.json").exists() and (store / "projects" / "worn" / "graph.json").exists()

    open_graph(page, srv, "empty-one")  # on screen, so its graph's actor is loaded when it goes
    page.click("#open-projects")
    page.wait_for_selector("#projects-dialog[data-state=listed]")
    row = lambda slug: f'#projects-dialog tr[data-slug="{slug}"]'  # noqa: E731
    assert page.locator(f"{row('worn')} .remove-project").count() == 0  # a live project: no way to remove it
    page.screenshot(path=str(artifacts / "projects-dialog.png"))

    # An empty graph: one confirmation that names it.
    page.click(f"{row('empty-one')} .remove-project")
    assert "“empty-one”" in page.inner_text(f"{row('empty-one')} .confirm-box")
    page.click(f"{row('empty-one')} .confirm-remove")
    page.wait_for_selector(row("empty-one"), state="detached")
    assert page.evaluate("() => window.kgEditor.view.level") == "user"  # the graph on screen went: the user graph shows

    # A gone folder whose graph still holds a node: only after typing its name.
    page.click(f"{row('gone-folder')} .remove-project")
    button = page.locator(f"{row('gone-folder')} .confirm-remove")
    assert button.is_disabled()
    page.fill(f"{row('gone-folder')} .type-name", "gone")
    assert button.is_disabled()
    page.fill(f"{row('gone-folder')} .type-name", "gone-folder")
    button.click()
    page.wait_for_selector(row("gone-folder"), state="detached")

    trashed = sorted(p.name for p in (store / "trash").iterdir())
    assert len(trashed) == 2
    assert any(t.startswith("gone-folder-") for t in trashed) and any(t.startswith("empty-one-") for t in trashed)
    kept = next(p for p in (store / "trash").iterdir() if p.name.startswith("gone-folder-"))
    assert "left-behind-node" in (kept / "graph.json").read_text()  # restorable: the graph is intact
    assert not (store / "projects" / "gone-folder").exists() and (store / "user.json").exists()
    with client(srv) as http:
        slugs = {r["slug"] for r in http.get("/api/projects").json()["projects"]}
    assert "gone-folder" not in slugs and "empty-one" not in slugs and "worn" in slugs
    assert page.problems == []


ROWS_JS = "() => [...document.querySelectorAll('#node-table tbody tr')].map((r) => r.dataset.id)"
FOCUSED_JS = "() => document.activeElement.closest('tr')?.dataset.id ?? null"


def test_the_list_view_sorts_searches_and_works_with_the_keyboard(srv, page, artifacts):
    open_graph(page, srv, "mid")
    page.click("#toggle-list")
    assert page.get_attribute("#toggle-list", "aria-pressed") == "true"
    page.wait_for_function("() => [...document.querySelectorAll('#node-table td.num')].some((c) => /\\d\\.\\d{3}/.test(c.textContent))")
    with client(srv) as http:
        where = {"level": "project", "project_path": srv.paths["mid"]}
        picture = http.get("/api/graph", params=where).json()
        scores = http.get("/api/scores", params=where).json()["scores"]
    shown = [n for n in picture["nodes"] if n["state"] != "orphaned"]  # the picture's filters: orphans off
    # Table semantics: a caption, column headers with aria-sort, row headers, one row in the tab order.
    assert page.get_attribute("#node-table th[data-key=score]", "aria-sort") == "descending"
    assert page.get_attribute("#node-table th[data-key=id]", "aria-sort") == "none"
    assert "sorted by score, descending" in page.inner_text("#node-table caption")
    assert page.locator("#node-table tbody th[scope=row]").count() == 100
    assert page.locator('#node-table tbody tr[tabindex="0"]').count() == 1
    assert f"of {len(shown)} node(s)" in page.inner_text("#list-status")
    by_score = sorted((n["id"] for n in shown if n["id"] in scores), key=lambda i: (-scores[i], i))
    assert page.evaluate(ROWS_JS) == by_score[:100]
    # The picture beside the list takes the narrower canvas's shape instead of a strip of it.
    settled(page)
    m = page.evaluate(OVERLAP_JS)
    assert (m["bb"]["y2"] - m["bb"]["y1"]) / m["height"] > 0.6 and (m["bb"]["x2"] - m["bb"]["x1"]) / m["width"] > 0.5, m
    assert m["overlapping"] <= MAX_OVERLAP * max(m["pairs"], 1), m
    page.screenshot(path=str(artifacts / "list-view.png"))

    # Sort by id: the header says so to a screen reader too.
    page.click("#node-table th[data-key=id] button")
    assert page.get_attribute("#node-table th[data-key=id]", "aria-sort") == "ascending"
    assert page.get_attribute("#node-table th[data-key=score]", "aria-sort") == "none"
    ids = sorted(n["id"] for n in shown)
    assert page.evaluate(ROWS_JS) == ids[:100]

    # The keyboard: into the rows, down, to the end of the page, over to the next page, back, open.
    page.focus('#node-table tbody tr[tabindex="0"]')
    assert page.evaluate(FOCUSED_JS) == ids[0]
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED_JS) == ids[1]
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED_JS) == ids[99]
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED_JS) == ids[100]
    assert page.inner_text("#list-status").startswith("101–")
    page.keyboard.press("ArrowUp")
    assert page.evaluate(FOCUSED_JS) == ids[99]
    page.keyboard.press("Enter")
    page.wait_for_function("id => document.querySelector('#node-title')?.textContent === id", arg=ids[99])
    assert page.get_attribute(f'#node-table tr[data-id="{ids[99]}"]', "aria-current") == "true"
    assert page.evaluate(FOCUSED_JS) == ids[99]  # focus stays in the list

    # Search narrows the rows; the filters of the picture apply too.
    target = ids[42]
    page.fill("#list-search", target)
    page.wait_for_function("t => document.querySelector('#node-table tbody tr')?.dataset.id === t", arg=target)
    assert target in page.evaluate(ROWS_JS)
    page.fill("#list-search", "")
    page.click("#filters summary")
    page.uncheck("#show-archived")
    page.wait_for_function("n => document.querySelector('#list-view').dataset.rows === String(n)",
                           arg=sum(n["state"] == "active" for n in shown))
    assert page.problems == []


def test_a_10000_node_project_opens_in_the_list_view_and_draws_its_active_part(tmp_path, browser):
    s = ServerProcess(tmp_path)
    path = s.project("huge")
    write_store(s.store, user={"nodes": {}, "edges": {}}, projects={"huge": sized_project(path, 10_000)})
    s.start()
    try:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{editor_url(s)}/#{path}")
        page.wait_for_selector("body[data-list=shown]")
        page.wait_for_selector("#node-table tbody tr")
        page.wait_for_selector("body[data-complete=yes]")
        with client(s) as http:
            states = http.get("/api/states", params={"level": "project", "project_path": path}).json()["states"]
        active = sorted(i for i, st in states.items() if st == "active")
        drawn = page.evaluate("() => window.kgEditor.canvas.cy.nodes().filter((n) => n.data('kind') === 'node').map((n) => n.id()).sort()")
        assert drawn == active and 0 < len(active) < 10_000
        assert page.is_visible("#draw-archive")
        rows = int(page.get_attribute("#list-view", "data-rows"))
        assert rows == sum(st != "orphaned" for st in states.values())  # the list holds the archive too
        context.close()
    finally:
        s.kill()
