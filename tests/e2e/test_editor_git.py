"""The editor's picture of git (issue #18 item 4), in Debian's headless Chromium against real servers and
real git: a node's versions from the store's history (when committed, on which machine), and a node a
sync found changed on two machines, shown until a person keeps one version or the other.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from e2e_helpers import Session, get_json, kg
from git_helpers import bare_repo, git_env
from mcp import Client

from kg_actors.testing import ServerProcess, write_store

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000
T = time.time() - 86_400
IDS = ("shared-lesson-node", "second-shared-node")


def _machine(tmp_path: Path, name: str, with_graph: bool) -> ServerProcess:
    base = tmp_path / name
    srv = ServerProcess(base, {**git_env(base, name), "KG_AUTOCOMMIT_INTERVAL": "0"})
    if with_graph:
        write_store(srv.store, {"nodes": {i: {"id": i, "gist": f"first words of {i}", "_created_ts": T} for i in IDS},
                                "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}})
    return srv


def _sync(srv: ServerProcess, remote: Path) -> None:
    out = kg(["sync", str(remote)], srv.env)
    assert out.returncode == 0, out.stderr


@pytest.fixture
def machines(tmp_path):
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    a, b = _machine(tmp_path, "machine-a", True).start(), _machine(tmp_path, "machine-b", False).start()
    yield a, b, remote
    a.stop()
    b.stop()


async def _rewrite(srv: ServerProcess, gist: str, notes: list[str] | None = None) -> None:
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        for node_id in IDS:
            await s.ok("kg_read", id=node_id)
            await s.ok("kg_put_node", level="user", id=node_id, gist=f"{gist} ({node_id})", notes=notes or [])


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        pg.set_default_timeout(WAIT_MS)
        pg.problems = []
        pg.on("pageerror", lambda e: pg.problems.append(f"pageerror: {e}"))
        yield pg
        browser.close()


async def test_a_nodes_git_history_and_a_conflict_until_resolved_in_the_editor(machines, page, tmp_path):
    a, b, remote = machines
    _sync(a, remote)
    _sync(b, remote)
    await _rewrite(a, "machine a's earlier rewrite", ["a note only machine a has"])
    await _rewrite(b, "machine b's later rewrite")
    _sync(a, remote)
    _sync(b, remote)  # b wrote last: its versions stand, a's are set aside

    page.goto(f"http://127.0.0.1:{b.editor_port}/#user")
    page.wait_for_selector("body[data-graph=ready]")
    # The header counts what is unresolved and the picture outlines those nodes.
    page.wait_for_selector("body[data-conflicts='2']")
    assert page.inner_text("#conflicts") == "2 changed on two machines"
    assert page.evaluate("() => window.kgEditor.canvas.cy.getElementById('shared-lesson-node').hasClass('conflict')")
    page.click("#conflicts")
    assert page.get_attribute("#conflicts", "aria-expanded") == "true"
    page.keyboard.press("Escape")
    page.wait_for_selector("#conflicts-menu", state="hidden")
    page.click("#conflicts")
    page.click("#conflicts-menu a[data-id='shared-lesson-node']")
    page.wait_for_selector("#conflict-box")
    box = page.inner_text("#conflict-box")
    assert "Changed on two machines" in box
    assert "machine b's later rewrite (shared-lesson-node)" in box  # in use
    assert "machine a's earlier rewrite (shared-lesson-node)" in box and "a note only machine a has" in box

    # The node's versions from git: newest first, each with its commit time and machine.
    page.click("#git-history-box summary")
    page.wait_for_selector("#git-history li")
    versions = page.eval_on_selector_all("#git-history li", "els => els.map((e) => e.innerText)")
    assert len(versions) >= 3, versions
    assert "machine b's later rewrite" in versions[0] and "machine-b" in versions[0]
    assert any("machine-a" in v and "machine a's earlier rewrite" in v for v in versions[1:]), versions
    assert "first words of shared-lesson-node" in versions[-1]

    # Keep the set-aside version: it becomes the node, the conflict is gone, the count follows.
    page.click("#conflict-box button.keep-other")
    page.wait_for_selector("#conflict-box", state="detached")
    page.wait_for_selector("body[data-conflicts='1']")
    assert page.input_value("#gist") == "machine a's earlier rewrite (shared-lesson-node)"
    node = get_json(b, "/api/nodes/user/shared-lesson-node")["node"]
    assert node["gist"] == "machine a's earlier rewrite (shared-lesson-node)"
    assert node["notes"] == ["a note only machine a has"] and node["conflicts"] == []
    assert not page.evaluate("() => window.kgEditor.canvas.cy.getElementById('shared-lesson-node').hasClass('conflict')")

    # Keep the version in use for the other one: unchanged content, conflict resolved all the same.
    page.click("#conflicts")
    page.click("#conflicts-menu a[data-id='second-shared-node']")
    page.wait_for_selector("#conflict-box")
    page.click("#keep-current")
    page.wait_for_selector("#conflict-box", state="detached")
    page.wait_for_selector("body[data-conflicts='0']")
    assert page.is_hidden("#conflicts")
    node = get_json(b, "/api/nodes/user/second-shared-node")["node"]
    assert node["gist"] == "machine b's later rewrite (second-shared-node)" and node["conflicts"] == []
    assert get_json(b, "/api/store/conflicts")["conflicts"] == []
    page.screenshot(path=str(tmp_path / "editor-git.png"))
    assert page.problems == []


def test_history_on_a_store_that_is_not_a_repository_says_how(server_factory, page):
    srv = server_factory(start=False)
    write_store(srv.store, {"nodes": {"plain-lesson-node": {"id": "plain-lesson-node", "gist": "no git here"}},
                            "edges": {}})
    srv.start()
    page.goto(f"http://127.0.0.1:{srv.editor_port}/#user")
    page.wait_for_selector("body[data-graph=ready]")
    page.evaluate("() => window.kgEditor.selectNode('plain-lesson-node')")
    page.click("#git-history-box summary")
    page.wait_for_selector("#git-history p.hint:not(:empty)")
    text = page.inner_text("#git-history")
    assert "is not a git repository" in text and "kg init-git" in text, text
    assert page.is_hidden("#conflicts")
    assert page.problems == []


async def test_a_node_deleted_on_one_machine_and_rewritten_on_the_other_can_be_deleted_after_all_in_the_editor(
        machines, page):
    a, b, remote = machines
    _sync(a, remote)
    _sync(b, remote)
    async with Client(a.url + "/") as c:
        s = await Session.open(c)
        for node_id in IDS:
            await s.ok("kg_read", id=node_id)
            await s.ok("kg_delete_node", id=node_id)
    await _rewrite(b, "machine b's rewrite")
    _sync(a, remote)
    _sync(b, remote)  # kept on b, the delete set aside beside each
    _sync(a, remote)

    page.goto(f"http://127.0.0.1:{a.editor_port}/#user")
    page.wait_for_selector("body[data-graph=ready]")
    page.wait_for_selector("body[data-conflicts='2']")
    # Worded for what happened: it said "2 changed on two machines", "Each was edited on two machines".
    assert page.inner_text("#conflicts") == "2 deleted on one machine, changed on the other"
    page.click("#conflicts")
    menu = page.inner_text("#conflicts-menu")
    assert "deleted on one machine and changed on the other" in menu and "edited on two" not in menu, menu
    page.click("#conflicts-menu a[data-id='shared-lesson-node']")
    page.wait_for_selector("#conflict-box")
    box = page.inner_text("#conflict-box")
    assert "Deleted on one machine, changed on another" in box, box
    assert "Deleted on machine-a, kept because machine-b changed it" in box and "Keep this one instead" not in box
    page.click("#conflict-box button.delete-anyway")
    page.click("#delete-confirm")
    page.wait_for_selector("body[data-conflicts='1']")
    assert page.inner_text("#conflicts") == "1 deleted on one machine, changed on the other"
    assert [c["id"] for c in get_json(a, "/api/store/conflicts")["conflicts"]] == ["second-shared-node"]
    held = {n["id"] for n in get_json(a, "/api/graph/read")["user"]["nodes"]}
    assert "shared-lesson-node" not in held and "second-shared-node" in held
    assert page.problems == []
