"""The editor in a real headless Chromium (Debian's), against a real `kg serve`.

A person's path through the page: open it, pick a project, find a node by
search, edit its gist, create and delete an edge, watch an agent's MCP write
arrive live, and a screenshot for the record. Then what must not happen: a
page on another site reading or changing the memory, and a lost server
leaving the page stale. Playwright's sync API runs in plain (non-trio) tests.
"""

from __future__ import annotations

import shutil
import threading

import httpx
import pytest
import trio
from e2e_helpers import Session, another_program
from editor_store import big_project, client, editor_url, seed
from mcp import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from kg_actors.testing import write_store

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install -y chromium; .ci/run installs it)")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright):
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield b
    b.close()


@pytest.fixture
def srv(server_factory):
    s = server_factory(start=False)
    s.paths = seed(s)
    return s.start()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    p = context.new_page()
    p.set_default_timeout(WAIT_MS)
    p.problems = []
    p.on("pageerror", lambda e: p.problems.append(f"pageerror: {e}"))
    p.on("console", lambda m: p.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    p.requested = []
    p.on("request", lambda r: p.requested.append(r.url))
    yield p
    context.close()


def open_project(page, srv, path: str) -> None:
    page.goto(editor_url(srv) + "/")
    page.wait_for_selector("body[data-projects=listed]")
    page.select_option("#graph-select", path)
    page.wait_for_function("p => window.kgEditor.view.projectPath === p && document.body.dataset.graph === 'ready'",
                           arg=path)
    page.wait_for_selector("#status[data-state=live]")


def on_canvas(page, element_id: str) -> bool:
    return page.evaluate("id => window.kgEditor.canvas.cy.getElementById(id).nonempty()", element_id)


def node_via_rest(srv, node_id: str) -> dict:
    with client(srv) as http:
        r = http.get(f"/api/nodes/project/{node_id}", params={"project_path": srv.paths["alpha"]})
        return r.json()["node"] if r.status_code == 200 else {}


def test_a_person_searches_edits_wires_and_watches_an_agent_live(srv, page, tmp_path):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    assert on_canvas(page, "auth-token-refresh") and on_canvas(page, "src/auth/refresh.py")
    assert "3 active · 1 archived · 1 orphaned" in page.inner_text("#counts")

    # Find a node by search; the ranking is kg_search's.
    page.fill("#search-input", "token refresh")
    page.press("#search-input", "Enter")
    first = page.wait_for_selector("#search-results li")
    assert first.get_attribute("data-id") == "auth-token-refresh"
    first.click()
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'auth-token-refresh'")

    # Edit the gist inline and see it saved.
    page.fill("#gist", "JWT refresh slides its window; an expired session fails silently")
    page.click("#save-node")
    page.wait_for_selector("#save-msg.ok")
    saved = node_via_rest(srv, "auth-token-refresh")
    assert saved["gist"] == "JWT refresh slides its window; an expired session fails silently"
    assert saved["history"]["written"]["by"] is None and saved["version"] == 4

    # Create an edge, then delete it.
    page.click("#edge-add summary")
    page.fill("#edge-rel", "depends-on")
    page.fill("#edge-other", "billing-service-hub")
    page.click("#edge-add-go")
    key = "auth-token-refresh->billing-service-hub:depends-on"
    page.wait_for_selector(f'#edge-list button[data-edge="{key}"]')
    assert on_canvas(page, key)
    assert any(e["to"] == "billing-service-hub" for e in node_via_rest(srv, "auth-token-refresh")["edges"])
    page.click(f'#edge-list button[data-edge="{key}"]')
    page.wait_for_selector(f'#edge-list button[data-edge="{key}"]', state="detached")
    assert not on_canvas(page, key)
    assert not any(e["to"] == "billing-service-hub" for e in node_via_rest(srv, "auth-token-refresh")["edges"])

    # An agent writes through the MCP tools; the change appears without a reload.
    async def agent() -> None:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=alpha)
            await s.ok("kg_put_node", level="project", id="live-agent-lesson", gist="Written by an agent session")
            await s.ok("kg_put_edge", level="project", frm="live-agent-lesson", to="auth-token-refresh", rel="refines")

    writer = threading.Thread(target=trio.run, args=(agent,))
    writer.start()
    page.wait_for_function("() => window.kgEditor.canvas.cy.getElementById('live-agent-lesson').nonempty()")
    page.wait_for_function(
        "() => window.kgEditor.canvas.cy.getElementById('live-agent-lesson->auth-token-refresh:refines').nonempty()")
    writer.join(30)
    # The open node's edge list follows the agent's new edge too.
    page.wait_for_selector('#edge-list button[data-edge="live-agent-lesson->auth-token-refresh:refines"]')

    page.click("#search-clear")
    page.wait_for_selector("body[data-layout=done]")
    page.evaluate("() => window.kgEditor.selectNode('auth-token-refresh')")
    page.wait_for_selector("#score-card table")
    page.wait_for_timeout(400)  # the centring animation, for a still picture
    # Into the test's own folder: a test run must not rewrite files of the checkout.
    assert page.screenshot(path=str(tmp_path / "editor.png"))

    local = (editor_url(srv) + "/", f"ws://127.0.0.1:{srv.editor_port}/")
    assert all(u.startswith(local) for u in page.requested), [u for u in page.requested if not u.startswith(local)]
    assert page.problems == []


def test_another_tab_sees_an_edit_and_a_new_node_live(srv, browser, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    other = browser.new_page()
    other.set_default_timeout(WAIT_MS)
    try:
        open_project(other, srv, alpha)
        other.evaluate("() => window.kgEditor.selectNode('session-handler-init')")
        other.wait_for_selector("#score-card table")
        page.evaluate("() => window.kgEditor.panel.openNew()")
        page.fill("#new-id", "made-in-tab-one")
        page.fill("#new-gist", "A node created in the first tab")
        page.click("#create-node")
        page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'made-in-tab-one'")
        other.wait_for_function("() => window.kgEditor.canvas.cy.getElementById('made-in-tab-one').nonempty()")
        page.evaluate("() => window.kgEditor.selectNode('session-handler-init')")
        page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'session-handler-init'")
        page.fill("#gist", "Edited in tab one")
        page.click("#save-node")
        page.wait_for_selector("#save-msg.ok")
        # Tab two had the node open with no edits of its own: it shows the new gist.
        other.wait_for_function("() => document.querySelector('#gist')?.value === 'Edited in tab one'")
    finally:
        other.close()


def test_unsaved_edits_stay_when_the_node_is_deleted_elsewhere(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    page.evaluate("() => window.kgEditor.selectNode('session-handler-init')")
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'session-handler-init'")
    page.fill("#gist", "A person's unsaved words")
    with client(srv) as http:
        r = http.delete("/api/nodes/project/session-handler-init", params={"project_path": srv.paths["alpha"]})
        assert r.status_code == 200, r.text
    page.wait_for_function("() => !window.kgEditor.canvas.cy.getElementById('session-handler-init').nonempty()")
    page.wait_for_selector(".stale")
    assert "Deleted elsewhere" in page.inner_text(".stale")
    assert page.input_value("#gist") == "A person's unsaved words"
    assert page.problems == []


def test_a_rename_from_the_page_reloads_the_picture_once(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    page.evaluate("() => window.kgEditor.selectNode('session-handler-init')")
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'session-handler-init'")
    before = page.evaluate("() => window.kgEditor.stats.events")
    page.click("details:has(#rename-to) summary")
    page.fill("#rename-to", "session-handler-setup")
    fetched = len([u for u in page.requested if "/api/graph?" in u])
    page.click("#rename-go")
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'session-handler-setup'")
    page.wait_for_function("n => window.kgEditor.stats.events > n", arg=before)  # the rename's echo came
    page.wait_for_function("() => document.body.dataset.graph === 'ready'")
    assert len([u for u in page.requested if "/api/graph?" in u]) == fetched + 1  # it was two
    assert on_canvas(page, "session-handler-setup") and not on_canvas(page, "session-handler-init")


def test_an_agent_recalling_an_archived_node_turns_it_active_without_a_new_picture(srv, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    assert page.evaluate("() => window.kgEditor.canvas.cy.getElementById('rate-limit-window').data('state')") == "archived"
    fetched = len([u for u in page.requested if "/api/graph?" in u])
    before = page.evaluate("() => window.kgEditor.stats.events")

    async def agent() -> None:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=alpha)
            await s.ok("kg_read", id="rate-limit-window")

    trio.run(agent)
    page.wait_for_function("n => window.kgEditor.stats.events > n", arg=before)  # the recall's event came
    page.wait_for_function(
        "() => window.kgEditor.canvas.cy.getElementById('rate-limit-window').data('state') === 'active'")
    # A whole picture per recall kept a big graph's server building megabytes while agents waited.
    assert len([u for u in page.requested if "/api/graph?" in u]) == fetched
    assert page.problems == []


def test_an_address_with_a_bare_percent_still_opens_the_page(srv, page):
    page.goto(editor_url(srv) + "/#/no/such 100% project")
    page.wait_for_function("() => document.body.dataset.graph === 'ready'")  # on the user graph: no such project
    page.wait_for_selector("#status[data-state=live]")
    assert [p for p in page.problems if p.startswith("pageerror")] == []  # it threw URIError: a blank page


def test_a_layout_worker_that_cannot_start_leaves_the_page_usable(srv, page):
    # Its script fails to load (a proxy, a half-installed upgrade): the page must stop waiting, not say "running" for ever.
    page.route("**/static/js/layout-worker.js", lambda route: route.fulfill(status=404, body="gone"))
    open_project(page, srv, srv.paths["alpha"])
    page.wait_for_selector("body[data-layout=failed]")
    assert on_canvas(page, "auth-token-refresh")  # drawn where the first pass put it
    assert [p for p in page.problems if p.startswith("pageerror")] == []
    page.evaluate("() => window.kgEditor.selectNode('auth-token-refresh')")
    page.wait_for_function("() => document.querySelector('#node-title')?.textContent === 'auth-token-refresh'")


def test_the_graph_drop_down_counts_follow_writes(srv, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    # Its nodes in every tier, as the drop-down's words say them (a write may also move nodes between tiers).
    shown = """sel => [...document.querySelector(sel).textContent.matchAll(/(\\d+) (active|archived|orphaned)/g)]
                 .reduce((sum, m) => sum + Number(m[1]), 0)"""
    option = f'#graph-select option[value="{alpha}"]'
    before = page.evaluate(shown, option)
    assert before > 0
    with client(srv) as http:
        body = {"level": "project", "project_path": alpha, "id": "counted-after-a-write",
                "gist": "A lesson the drop-down must count", "create": True}
        assert http.post("/api/nodes", json=body).status_code == 201
    page.wait_for_function(f"sel => ({shown})(sel) === {before + 1}", arg=option)
    assert page.eval_on_selector("#graph-select", "s => s.value") == alpha  # the choice stays


# The nodes (every tier) and edges the footer and the drop-down's option for the graph on screen say, read in one
# go: they must never be seen apart.
BOTH_COUNTS = """() => {
  const total = (text) => [...text.matchAll(/(\\d+) (active|archived|orphaned)/g)].reduce((s, m) => s + Number(m[1]), 0);
  const select = document.querySelector('#graph-select');
  const option = select.options[select.selectedIndex].textContent;
  return {footer: total(document.querySelector('#counts').textContent), option: total(option),
          optionEdges: Number(option.match(/(\\d+) edges/)[1])};
}"""


def test_the_drop_down_counts_the_graph_on_screen_as_the_footer_does_when_an_agent_writes(srv, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    page.wait_for_selector("body[data-projects=listed]")
    before = page.evaluate(BOTH_COUNTS)
    assert before["footer"] == before["option"] > 0

    async def agent() -> None:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=alpha)
            await s.ok("kg_put_node", level="project", id="counted-as-it-lands", gist="Written by an agent session")
            await s.ok("kg_put_edge", level="project", frm="counted-as-it-lands", to="auth-token-refresh", rel="refines")

    trio.run(agent)
    # The moment the footer shows the new node and its edge, the drop-down says the same (it lagged by seconds).
    landed = "() => window.kgEditor.canvas.cy.getElementById('counted-as-it-lands->auth-token-refresh:refines').nonempty()"
    now = page.wait_for_function(f"() => ({landed})() && ({BOTH_COUNTS})()").json_value()
    assert now["footer"] == before["footer"] + 1, now
    assert now["option"] == now["footer"] and now["optionEdges"] == before["optionEdges"] + 1, (before, now)
    # And the re-read of every graph's counts that follows agrees with it.
    with client(srv) as http:
        row = next(p for p in http.get("/api/projects").json()["projects"] if p["project_path"] == alpha)
    assert row["counts"]["nodes"] == now["option"] and row["counts"]["edges"] == now["optionEdges"], (row, now)


def test_the_page_shows_a_lost_server_and_reconnects_when_it_returns(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    srv.stop()
    page.wait_for_selector("#status[data-state=offline]")
    assert page.is_visible("#offline-banner")
    srv.start()
    page.wait_for_selector("#status[data-state=live]")
    page.wait_for_selector("#offline-banner", state="hidden")
    # Back on the same graph, and live again: a write made now shows up.
    with client(srv) as http:
        body = {"level": "project", "project_path": srv.paths["alpha"], "id": "after-the-restart",
                "gist": "Written after the server came back", "create": True}
        assert http.post("/api/nodes", json=body).status_code == 201
    page.wait_for_function("() => window.kgEditor.canvas.cy.getElementById('after-the-restart').nonempty()")


def test_a_big_graph_draws_in_turns_and_keeps_changes_made_meanwhile(server_factory, page):
    srv = server_factory(start=False)
    bulk = srv.project("bulk")
    write_store(srv.store, projects={"bulk": big_project(bulk)})
    srv.start()
    page.goto(f"{editor_url(srv)}/#{bulk}")
    page.wait_for_selector("body[data-graph=ready]")
    # While the archive is still arriving: a new node, a node deleted, an archived one rewritten.
    with client(srv) as http:
        where = {"level": "project", "project_path": bulk}
        assert http.post("/api/nodes", json={**where, "id": "arrived-mid-stream", "gist": "new", "create": True}).status_code == 201
        assert http.delete("/api/nodes/project/bulk-node-898", params={"project_path": bulk}).status_code == 200
        assert http.post("/api/nodes", json={**where, "id": "bulk-node-895", "gist": "rewritten", "expected_version": 0}).status_code == 200
        edge = {**where, "from": "arrived-mid-stream", "to": "bulk-node-892", "rel": "follows"}
        assert http.post("/api/edges", json=edge).status_code == 201
    page.wait_for_selector("body[data-complete=yes]")
    # Writes here also re-tier nodes (compaction), and the server's tick may re-tier them again later; the page
    # follows both (it re-reads the tiers shortly after each change). So compare with the picture the server
    # holds when the page has caught up, not with one taken before.
    same_picture = """([nodes, edges, states]) => { const cy = window.kgEditor.canvas.cy;
        const drawn = cy.nodes().filter((n) => n.data('kind') === 'node').map((n) => n.id()).sort();
        const lines = cy.edges().map((e) => e.id()).sort();
        return JSON.stringify(drawn) === JSON.stringify(nodes) && JSON.stringify(lines) === JSON.stringify(edges)
            && cy.nodes().every((n) => !(n.id() in states) || states[n.id()] === n.data('state')); }"""
    with client(srv) as http:
        for _ in range(30):
            picture = http.get("/api/graph", params=where).json()
            orphaned = {n["id"] for n in picture["nodes"] if n["state"] == "orphaned"}
            nodes = sorted({n["id"] for n in picture["nodes"]} - orphaned)
            edges = sorted(f"{e['from']}->{e['to']}:{e['rel']}" for e in picture["edges"]
                           if e["from"] not in orphaned and e["to"] not in orphaned)
            states = {n["id"]: n["state"] for n in picture["nodes"]}
            try:
                page.wait_for_function(same_picture, arg=[nodes, edges, states], timeout=2_000)
                break
            except PlaywrightTimeoutError:
                continue
        else:
            pytest.fail("the page never drew the server's picture")
    assert "bulk-node-898" not in nodes and "arrived-mid-stream" in nodes
    assert page.problems == []


EVIL_PAGE = """<!doctype html><html><body><script>
(async () => {
  const target = "http://127.0.0.1:%(port)d";
  const out = {};
  try { const r = await fetch(target + "/api/projects"); out.read = "read " + r.status; }
  catch (e) { out.read = "blocked"; }
  try {
    await fetch(target + "/api/nodes", {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"},
      body: JSON.stringify({level: "user", id: "planted-by-evil", gist: "from another site"})});
    out.write = "sent";
  } catch (e) { out.write = "blocked"; }
  out.ws = await new Promise((resolve) => {
    const ws = new WebSocket("ws://127.0.0.1:%(port)d/ws");
    ws.onmessage = (m) => resolve("heard " + m.data);
    ws.onerror = () => resolve("refused");
    setTimeout(() => resolve("timeout"), 10000);
  });
  const form = document.createElement("form");
  form.method = "POST"; form.action = target + "/api/nodes"; form.target = "sink"; form.enctype = "text/plain";
  const field = document.createElement("input");
  field.name = '{"level":"user","id":"form-planted-node","gist":"x","pad":"'; field.value = '"}';
  form.append(field);
  const sink = document.createElement("iframe"); sink.name = "sink"; document.body.append(sink, form);
  sink.onload = () => { window.result = out; document.title = "done"; };
  form.submit();
})();
</script></body></html>"""


def test_a_page_on_another_site_cannot_read_or_change_the_memory(srv, playwright):
    body = (EVIL_PAGE % {"port": srv.editor_port}).encode()
    # A real other site: evil.test resolves to this machine only inside this browser.
    with another_program(body, content_type="text/html") as port:
        b = playwright.chromium.launch(executable_path=CHROMIUM,
                                       args=[*ARGS, "--host-resolver-rules=MAP evil.test 127.0.0.1"])
        try:
            p = b.new_page()
            p.goto(f"http://evil.test:{port}/")
            p.wait_for_function("() => document.title === 'done'", timeout=WAIT_MS)
            result = p.evaluate("() => window.result")
        finally:
            b.close()
    assert result["read"] == "blocked"
    assert not result["ws"].startswith("heard"), result["ws"]
    with client(srv) as http_client:
        assert http_client.get("/api/nodes/user/planted-by-evil").status_code == 404
        assert http_client.get("/api/nodes/user/form-planted-node").status_code == 404
        assert http_client.get("/api/projects").status_code == 200  # and the editor itself still answers
    assert httpx.get(f"{srv.url}/api/nodes/user/planted-by-evil").status_code == 404
