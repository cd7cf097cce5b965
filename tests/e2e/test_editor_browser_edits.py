"""The editor in a real headless Chromium while others write: what a person typed and has not saved
survives an agent's rename, another tab's save, another task's progress, a server restart and a project
removed elsewhere; and the panel's links and words lead where they say.

The browser, the page and the server (a real `kg serve` on the seeded store) are test_editor_browser's.
"""

from __future__ import annotations

import json
import threading

import trio
from e2e_helpers import Session
from editor_store import client
from mcp import Client
from test_editor_browser import WAIT_MS, browser, node_via_rest, on_canvas, open_project, page, playwright, srv  # noqa: F401

TITLE_IS = "id => document.querySelector('#node-title')?.textContent === id"


def select(page, node_id: str) -> None:
    page.evaluate("id => window.kgEditor.selectNode(id)", node_id)
    page.wait_for_function(TITLE_IS, arg=node_id)
    page.wait_for_selector("#score-card table")


def errors(page) -> list[str]:
    """The page's own errors (a refused save's 409 is an answer, not one)."""
    return [p for p in page.problems if p.startswith("pageerror")]


def agent(srv, cwd: str, *calls: tuple[str, dict]) -> None:
    """An agent session's MCP calls, in order, made from its own thread (the page's runs Playwright)."""
    async def run() -> None:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=cwd)
            for tool, args in calls:
                await s.ok(tool, **args)

    done: list[BaseException | None] = []

    def thread() -> None:
        try:
            trio.run(run)
            done.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            done.append(exc)

    t = threading.Thread(target=thread)
    t.start()
    t.join(WAIT_MS / 1000)
    assert done, "the agent's calls did not finish"
    if done[0] is not None:
        raise done[0]


def test_an_agent_renaming_the_open_node_is_followed_or_named(srv, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    # No edits on screen: the panel follows the node to its new id.
    select(page, "session-handler-init")
    agent(srv, alpha, ("kg_rename_node", {"old_id": "session-handler-init", "new_id": "session-handler-setup",
                                          "level": "project"}))
    page.wait_for_function(TITLE_IS, arg="session-handler-setup")
    page.wait_for_function("() => window.kgEditor.canvas.cy.getElementById('session-handler-setup').selected()")

    # Unsaved edits: they stay, the new id is named, and one click opens it with the typed text.
    select(page, "billing-service-hub")
    page.fill("#gist", "Typed here, not saved yet")
    agent(srv, alpha, ("kg_rename_node", {"old_id": "billing-service-hub", "new_id": "billing-service-owner",
                                          "level": "project"}))
    page.wait_for_selector(".stale")
    assert "billing-service-owner" in page.inner_text(".stale")
    assert page.input_value("#gist") == "Typed here, not saved yet"
    page.click("#save-node")
    page.wait_for_selector("#save-msg.err")
    assert "billing-service-owner" in page.inner_text("#save-msg")
    assert page.locator(".stale").count() == 1
    page.click(".stale button")
    page.wait_for_function(TITLE_IS, arg="billing-service-owner")
    assert page.input_value("#gist") == "Typed here, not saved yet"
    page.click("#save-node")
    page.wait_for_selector("#save-msg.ok")
    assert node_via_rest(srv, "billing-service-owner")["gist"] == "Typed here, not saved yet"
    assert errors(page) == []


def test_a_save_refused_for_another_tabs_write_keeps_one_note_and_the_typed_text(srv, browser, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    other = browser.new_page()
    other.set_default_timeout(WAIT_MS)
    try:
        open_project(other, srv, alpha)
        select(page, "auth-token-refresh")
        select(other, "auth-token-refresh")
        other.fill("#gist", "Tab two's unsaved words")
        page.fill("#gist", "Tab one's saved words")
        page.click("#save-node")
        page.wait_for_selector("#save-msg.ok")
        other.wait_for_selector(".stale")
        other.click("#save-node")  # refused: tab one wrote a newer version
        other.wait_for_selector("#save-msg.err")
        assert other.locator(".stale").count() == 1
        other.click(".stale button")  # Load current
        other.wait_for_selector("#stored-now")
        # The newer version is there to compare, the typed words stay in the field, and no note is left.
        assert "Tab one's saved words" in other.inner_text("#stored-now")
        assert other.input_value("#gist") == "Tab two's unsaved words"
        assert other.locator(".stale").count() == 0
        other.click("#save-node")  # now against the version it has seen
        other.wait_for_selector("#save-msg.ok")
        assert node_via_rest(srv, "auth-token-refresh")["gist"] == "Tab two's unsaved words"
    finally:
        other.close()


def test_an_orphan_picked_in_the_search_results_is_drawn_and_selected(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    assert not on_canvas(page, "old-cache-layout")  # the default filters leave orphans out
    page.fill("#search-input", "cache keys per-user")
    page.press("#search-input", "Enter")
    page.click('#search-results li[data-id="old-cache-layout"]')
    page.wait_for_function(TITLE_IS, arg="old-cache-layout")
    page.wait_for_function("() => window.kgEditor.canvas.cy.getElementById('old-cache-layout').selected()")
    assert node_via_rest(srv, "old-cache-layout")["state"] == "orphaned"  # looked at, not recalled
    assert errors(page) == []


def test_typed_progress_survives_other_tasks_updates(srv, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    page.click('#tabs button[data-tab="progress"]')
    scout = page.wait_for_selector('textarea[data-task="scout"]')
    scout.fill('{"reviewed": ["s1", "s2"]}')
    page.fill("#new-task-id", "builder")
    page.click("#tab-progress button:has-text('New task')")
    page.fill('textarea[data-task="builder"]', '{"step": 1}')
    # An agent writes progress for another task: it appears, and the typed boxes keep their text.
    agent(srv, alpha, ("kg_progress", {"task_id": "deployer", "state": {"stage": "canary"}, "level": "project"}))
    page.wait_for_selector('textarea[data-task="deployer"]')
    assert page.input_value('textarea[data-task="scout"]') == '{"reviewed": ["s1", "s2"]}'
    assert page.input_value('textarea[data-task="builder"]') == '{"step": 1}'
    # Its own task written meanwhile: the typed text stays, and the box says so.
    agent(srv, alpha, ("kg_progress", {"task_id": "scout", "state": {"reviewed": ["s9"]}, "level": "project"}))
    page.wait_for_selector('.task:has(textarea[data-task="scout"]) .stale')
    assert "s9" in page.inner_text('.task:has(textarea[data-task="scout"]) .stale')
    assert page.input_value('textarea[data-task="scout"]') == '{"reviewed": ["s1", "s2"]}'
    # Saving the typed text replaces it, as the box said; the box then shows what is stored.
    page.click('.task:has(textarea[data-task="scout"]) button:has-text("Save state")')
    page.wait_for_selector('.task:has(textarea[data-task="scout"]) .stale', state="detached")
    with client(srv) as http:
        stored = http.get("/api/progress", params={"level": "project", "project_path": alpha}).json()["tasks"]
    assert stored["scout"]["reviewed"] == ["s1", "s2"] and stored["deployer"]["stage"] == "canary"
    assert page.input_value('textarea[data-task="builder"]') == '{"step": 1}'
    assert errors(page) == []


def test_a_reconnect_warns_unsaved_edits_only_when_the_node_changed(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    select(page, "auth-token-refresh")
    page.fill("#gist", "Typed before the server restarted")
    srv.stop()
    page.wait_for_selector("#status[data-state=offline]")
    srv.start()
    page.wait_for_selector("body[data-reread='1']")  # the page re-read what it shows after the outage
    assert page.locator(".stale").count() == 0
    assert page.input_value("#gist") == "Typed before the server restarted"
    page.click("#save-node")
    page.wait_for_selector("#save-msg.ok")

    # Changed while the page was cut off (a git pull under a stopped server): now it is warned.
    page.fill("#gist", "Typed before the second restart")
    srv.stop()
    page.wait_for_selector("#status[data-state=offline]")
    stored = srv.store / "projects" / "alpha" / "graph.json"
    graph = json.loads(stored.read_text())
    graph["nodes"]["auth-token-refresh"]["gist"] = "Pulled in while the server was down"
    graph["_meta"]["versions"]["node:auth-token-refresh"]["v"] += 1
    stored.write_text(json.dumps(graph))
    srv.start()
    page.wait_for_selector("body[data-reread='2']")
    assert "Changed elsewhere" in page.inner_text(".stale")
    assert page.input_value("#gist") == "Typed before the second restart"
    assert errors(page) == []


def test_a_hand_edit_made_while_the_server_was_down_is_warned_and_not_overwritten(srv, page):
    """A hand edit (a backup copied back, a git checkout) moves no version: the words count too."""
    open_project(page, srv, srv.paths["alpha"])
    select(page, "billing-service-hub")
    page.fill("#gist", "Typed while the file was edited by hand")
    srv.stop()
    page.wait_for_selector("#status[data-state=offline]")
    stored = srv.store / "projects" / "alpha" / "graph.json"
    graph = json.loads(stored.read_text())
    graph["nodes"]["billing-service-hub"]["gist"] = "Edited by hand while the server was down"
    stored.write_text(json.dumps(graph))
    srv.start()
    page.wait_for_selector("body[data-reread='1']")
    assert "Changed elsewhere" in page.inner_text(".stale")
    page.click("#save-node")
    page.wait_for_selector("#save-msg.err")
    assert "Edited by hand while the server was down" in page.inner_text("#save-msg")
    assert node_via_rest(srv, "billing-service-hub")["gist"] == "Edited by hand while the server was down"
    assert page.input_value("#gist") == "Typed while the file was edited by hand"
    assert errors(page) == []


def test_a_project_removed_elsewhere_leaves_the_tab_showing_it(srv, page):
    beta = srv.paths["beta"]
    open_project(page, srv, beta)
    with client(srv) as http:  # emptied, then removed: what another tab's Projects… → Remove does
        assert http.delete("/api/nodes/project/beta-deploy-notes", params={"project_path": beta}).status_code == 200
        r = http.request("DELETE", "/api/projects/beta", json={"confirm": "beta"})
        assert r.status_code == 200, r.text
    page.wait_for_function("() => window.kgEditor.view.level === 'user' && document.body.dataset.graph === 'ready'")
    assert "removed" in page.inner_text("#toast")
    assert page.eval_on_selector("#graph-select", "s => s.value") == "user"
    assert page.locator('#graph-select option[value="%s"]' % beta).count() == 0
    assert errors(page) == []


def test_a_refused_secret_is_named_by_the_note_row_the_panel_shows(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    select(page, "auth-token-refresh")  # one note
    for _ in range(3):
        page.click("#notes-rows .add-row")
    rows = page.locator("#notes-rows [data-item]")
    rows.nth(2).fill("A second note, after an empty row")
    rows.nth(3).fill("deploy with token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b")
    page.click("#save-node")
    page.wait_for_selector("#save-msg.err")
    said = page.inner_text("#save-msg")
    # The server names notes[2] (empty rows are not sent); the person sees the fourth row.
    assert "note 4" in said and "notes[" not in said, said
    assert rows.nth(3).get_attribute("aria-invalid") == "true"
    assert errors(page) == []


def test_a_user_node_at_the_end_of_a_project_edge_opens_from_the_panel(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    select(page, "billing-service-hub")  # applies -> prefer-small-modules, a node of the user graph
    page.click("#edge-list a:has-text('prefer-small-modules')")
    page.wait_for_function("() => window.kgEditor.view.level === 'user' && document.body.dataset.graph === 'ready'")
    page.wait_for_function(TITLE_IS, arg="prefer-small-modules")
    page.wait_for_function("() => window.kgEditor.canvas.cy.getElementById('prefer-small-modules').selected()")
    assert errors(page) == []


def test_creating_a_node_shows_the_server_s_warnings_and_counts_the_gist(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    page.click("#new-node")
    page.fill("#new-id", "long-gist-created-here")
    page.fill("#new-gist", "x" * 20_000)
    assert page.inner_text("#new-gist-count") == "20000/300"
    assert "over" in page.get_attribute("#new-gist-count", "class")
    page.click("#create-node")
    page.wait_for_function(TITLE_IS, arg="long-gist-created-here")
    page.wait_for_selector("#save-msg.ok")
    said = page.inner_text("#save-msg")
    assert said.startswith("Created") and "gist is 20000 chars" in said, said
    assert node_via_rest(srv, "long-gist-created-here")["gist"] == "x" * 20_000
    assert errors(page) == []


def test_another_graph_typed_into_the_address_opens_it(srv, page):
    alpha, beta = srv.paths["alpha"], srv.paths["beta"]
    open_project(page, srv, alpha)
    page.evaluate("p => { location.hash = '#' + encodeURIComponent(p); }", beta)  # as typed in the address bar
    page.wait_for_function("p => window.kgEditor.view.projectPath === p && document.body.dataset.graph === 'ready'",
                           arg=beta)
    assert on_canvas(page, "beta-deploy-notes") and not on_canvas(page, "auth-token-refresh")
    assert page.eval_on_selector("#graph-select", "s => s.value") == beta
    page.evaluate("() => { location.hash = '#user'; }")
    page.wait_for_function("() => window.kgEditor.view.level === 'user' && document.body.dataset.graph === 'ready'")
    assert on_canvas(page, "prefer-small-modules")
    page.go_back()  # the address bar's history, too
    page.wait_for_function("p => window.kgEditor.view.projectPath === p && document.body.dataset.graph === 'ready'",
                           arg=beta)
    assert errors(page) == []


def test_an_empty_graph_says_so_and_how_to_add_a_node(srv, page):
    beta = srv.paths["beta"]
    open_project(page, srv, beta)
    assert page.is_hidden("#empty-hint")
    with client(srv) as http:
        r = http.delete("/api/nodes/project/beta-deploy-notes", params={"project_path": beta})
        assert r.status_code == 200, r.text
    page.wait_for_selector("#empty-hint", state="visible")  # the feed's delete emptied it
    open_project(page, srv, beta)  # and opened empty
    page.wait_for_selector("#empty-hint", state="visible")
    assert "No nodes" in page.inner_text("#empty-hint") and "+ Node" in page.inner_text("#empty-hint")
    page.click("#new-node")
    page.fill("#new-id", "first-node-of-beta")
    page.fill("#new-gist", "The first lesson of an empty graph")
    page.click("#create-node")
    page.wait_for_function(TITLE_IS, arg="first-node-of-beta")
    page.wait_for_selector("#empty-hint", state="hidden")
    assert errors(page) == []


def test_the_hover_tip_follows_a_change_to_the_node_under_the_pointer(srv, page):
    alpha = srv.paths["alpha"]
    open_project(page, srv, alpha)
    page.wait_for_selector("body[data-layout=done]")  # the node stays where the pointer goes
    at = page.evaluate("""() => { const cy = window.kgEditor.canvas.cy; const n = cy.getElementById('billing-service-hub');
                                  cy.center(n); return n.renderedPosition(); }""")
    box = page.locator("#cy").bounding_box()
    page.mouse.move(box["x"] + at["x"], box["y"] + at["y"])
    page.wait_for_selector("#tip", state="visible")
    assert "Billing owns invoices" in page.inner_text("#tip")
    with client(srv) as http:
        body = {"level": "project", "project_path": alpha, "id": "billing-service-hub",
                "gist": "Billing owns invoices and refunds; tax moved out"}
        assert http.post("/api/nodes", json=body).status_code == 200
    page.wait_for_function("() => document.querySelector('#tip').textContent.includes('tax moved out')")
    assert page.is_visible("#tip")
    assert errors(page) == []


def test_a_save_while_the_server_is_down_says_so_keeps_the_text_and_says_how_to_start_it(srv, page):
    open_project(page, srv, srv.paths["alpha"])
    select(page, "session-handler-init")
    page.fill("#gist", "Typed while the server was stopped")
    srv.stop()
    page.wait_for_selector("#status[data-state=offline]")
    page.click("#save-node")
    page.wait_for_selector("#save-msg.err")
    said = page.inner_text("#save-msg")
    # The person's words, not the browser's ("Failed to fetch"): what happened, that the text is kept, what to do.
    assert "cannot be reached" in said and "kept" in said and "kg start" in said, said
    assert "fetch" not in said.lower(), said
    assert page.input_value("#gist") == "Typed while the server was stopped"
    srv.start()
    page.wait_for_selector("body[data-reread='1']")
    page.click("#save-node")
    page.wait_for_selector("#save-msg.ok")
    assert node_via_rest(srv, "session-handler-init")["gist"] == "Typed while the server was stopped"
    assert errors(page) == []
