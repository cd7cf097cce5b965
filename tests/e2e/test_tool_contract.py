"""The tools' replies and refusals against spec 003's wording, over MCP to a real `kg serve`.

Each test here once failed against the server: an endpoint rule stricter than the
spec, a remaining count that was not the hard cap's, a refusal the spec does not
have, an edge saved to a node that does not exist, a project bound to whatever
folder was passed. One server for the module; each test has its own folders and ids.
"""

from __future__ import annotations

import os

import httpx
import pytest
from e2e_helpers import Session, call, edge_keys, get_json, graph, nodes_by_id, reference_graph, start_server
from hook_helpers import hook_env, run_hook


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("contract")
    # A folder inside a git work tree that already has a graph of its own, from before the binding rule.
    kept = os.path.realpath(base / "home") + "/kept-repo/sub"
    os.makedirs(kept)
    os.makedirs(os.path.dirname(kept) + "/.git")
    projects = {"sub": reference_graph([{"id": "kept-folder-node", "gist": "memory of the sub folder"}],
                                       project_path=kept)}
    server = start_server(base, None, projects)
    yield server
    server.kill()


def _project(srv, sid: str) -> dict:
    return graph(srv, session_id=sid)["project"]


# kg_put_edge: endpoints ---------------------------------------------------------------------

@pytest.mark.parametrize("endpoint", [".github/workflows/ci.yml", ".env", "_private/x", "~/.bashrc"])
async def test_an_endpoint_may_start_with_a_dot_or_an_underscore(srv, client, endpoint):
    a = await Session.open(client, srv.project("dot-endpoint-proj"))
    await a.ok("kg_put_node", level="project", id="ci-release-pipeline", gist="g")
    text = await a.ok("kg_put_edge", level="project", frm="ci-release-pipeline", to=endpoint, rel="configured-by")
    assert text == f"Edge ci-release-pipeline->{endpoint}:configured-by saved to project graph"
    assert ("ci-release-pipeline", endpoint, "configured-by") in edge_keys(_project(srv, a.sid))
    # A file endpoint is kept when the graph loads again from disk.
    reloaded = graph(srv, session_id=a.sid, project_path=srv.project("dot-endpoint-proj"), reload=True)
    assert ("ci-release-pipeline", endpoint, "configured-by") in edge_keys(reloaded["project"])


# kg_useful: what remains --------------------------------------------------------------------

async def test_useful_says_how_many_votes_remain_before_the_hard_cap(srv, client):
    a = await Session.open(client, srv.project("votes-left-proj"))
    node_ids = [f"vote-count-node-{c}" for c in "abcdefg"]
    for node_id in node_ids:
        await a.ok("kg_put_node", level="project", id=node_id, gist="g")
    first = await a.ok("kg_useful", ids=node_ids[:1])
    assert "9 vote(s) left before the hard cap of 10" in first
    five = await a.ok("kg_useful", ids=node_ids[1:5])
    assert "5 vote(s) left before the hard cap of 10" in five and "past the guidance" not in five
    # The sixth and seventh are accepted: five is guidance, ten the cap.
    seven = await a.ok("kg_useful", ids=node_ids[5:7])
    assert seven.startswith(f"Marked useful: {node_ids[5]}, {node_ids[6]}")
    assert "3 vote(s) left before the hard cap of 10" in seven and "2 past the guidance of 5" in seven


# kg_put_node: the two refusals, and no third ----------------------------------------------------

async def test_a_trim_of_notes_the_session_read_is_written_at_once(srv, client):
    cwd = srv.project("trim-proj")
    author = await Session.open(client, cwd)
    await author.ok("kg_put_node", level="project", id="flaky-test-causes", gist="g", notes=["a", "b", "c"])
    # The author trims its own notes (it wrote them: they count as read).
    text = await author.ok("kg_put_node", level="project", id="flaky-test-causes", gist="g", notes=["a", "b"])
    assert text.startswith("Node 'flaky-test-causes' saved")
    assert nodes_by_id(_project(srv, author.sid))["flaky-test-causes"]["notes"] == ["a", "b"]
    # A maintenance session that read the node merges two notes into one.
    m = await Session.open(client, cwd, maintenance=True)
    await m.ok("kg_read", id="flaky-test-causes")
    text = await m.ok("kg_put_node", level="project", id="flaky-test-causes", gist="g", notes=["a and b"])
    assert text.startswith("Node 'flaky-test-causes' saved")
    assert nodes_by_id(_project(srv, m.sid))["flaky-test-causes"]["notes"] == ["a and b"]


async def test_the_two_refusals_still_guard_notes_not_read_in_their_current_form(srv, client):
    cwd = srv.project("guard-proj")
    a = await Session.open(client, cwd)
    b = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a"])
    # b has seen the node in a search, never read its notes: replacing them is refused.
    await b.ok("kg_search", query="deploy freeze window")
    text = await b.err("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["b"])
    assert text.startswith("NOT WRITTEN — this write replaces notes this session has not read")
    # The refusal counts as a read; a changes the node meanwhile: b's view is stale.
    await a.ok("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a", "a2"])
    text = await b.err("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a", "b"])
    assert text.startswith("NOT WRITTEN — changed by another session")
    assert nodes_by_id(_project(srv, a.sid))["deploy-freeze-window"]["notes"] == ["a", "a2"]
    await b.ok("kg_put_node", level="project", id="deploy-freeze-window", gist="g", notes=["a", "a2", "b"])


# Tool descriptions: the maintain level's rule ---------------------------------------------------

async def test_every_tool_that_writes_a_level_says_maintain_is_for_maintenance_runs(client):
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("kg_put_node", "kg_put_edge", "kg_rename_node", "kg_progress"):
        tool = tools[name]
        assert "maintain" in tool.description and "only from a maintenance pass or chore" in tool.description, name
        assert "only from a maintenance pass or chore" in tool.input_schema["properties"]["level"]["description"]
    assert "maintenance memory" in tools["kg_read"].description


async def test_every_parameter_of_every_tool_says_what_it_takes(client):
    """A client shows a parameter's description beside it: none may be missing (a rename's ids, a delete's ends)."""
    tools = (await client.list_tools()).tools
    assert len(tools) == 10
    missing = [f"{t.name}.{name}" for t in tools for name, prop in t.input_schema["properties"].items()
               if not str(prop.get("description", "")).strip()]
    assert missing == []


# kg_put_edge: an end that names no node -------------------------------------------------------

async def test_an_edge_to_a_node_not_written_yet_is_kept_with_a_word_and_goes_at_the_next_load_unless_written(
        srv, client):
    """Spec 003: ends are not checked when the edge is written (an agent may write the edge first); the reply
    names the end, and a load removes an edge whose bare-id end still names no node."""
    a = await Session.open(client, srv.project("missing-end-proj"))
    await a.ok("kg_put_node", level="project", id="payment-retry-policy", gist="g")
    text = await a.ok("kg_put_edge", level="project", frm="payment-retry-policy", to="retry-budget-rule", rel="uses")
    assert "to: 'retry-budget-rule' names no node in this project's graph or the user graph yet" in text, text
    assert "kg_put_node" in text and "removed at the next load" in text, text
    await a.ok("kg_put_node", level="project", id="retry-budget-rule", gist="retries share one budget")
    text = await a.ok("kg_put_edge", level="project", frm="not-written-yet", to="payment-retry-policy", rel="uses")
    assert "from: 'not-written-yet' names no node" in text, text
    text = await a.ok("kg_put_edge", level="project", frm="payment-retry-policy", to="README.md", rel="documented-in")
    assert "./README.md" in text, text  # a file at the project root is written as a path
    await a.ok("kg_put_edge", level="project", frm="payment-retry-policy", to="./README.md", rel="documented-in")
    text = await a.ok("kg_put_edge", level="project", frm="payment-retry-policy", to="./README.md", rel="cites")
    assert "names no node" not in text, text
    shown = await a.ok("kg_read", id="payment-retry-policy")  # an edge to nothing yet is shown as written
    assert "not-written-yet" in shown and "retry-budget-rule" in shown, shown
    assert edge_keys(_project(srv, a.sid)) == {  # each kept as written (tests/e2e/test_storage_compat.py: the load)
        ("payment-retry-policy", "retry-budget-rule", "uses"), ("not-written-yet", "payment-retry-policy", "uses"),
        ("payment-retry-policy", "README.md", "documented-in"), ("payment-retry-policy", "./README.md", "documented-in"),
        ("payment-retry-policy", "./README.md", "cites")}


async def test_the_edge_tool_says_a_bare_id_should_name_a_node_and_what_happens_to_one_that_does_not(client):
    kg_put_edge = next(t for t in (await client.list_tools()).tools if t.name == "kg_put_edge")
    assert "should name a node" in kg_put_edge.description and "removed at the next load" in kg_put_edge.description
    assert "file path" in kg_put_edge.description


async def test_an_edge_end_is_looked_up_in_the_graphs_its_level_may_name(srv, client):
    a = await Session.open(client, srv.project("cross-end-proj"))
    await a.ok("kg_put_node", level="user", id="user-principle-timeouts", gist="every call needs a timeout")
    await a.ok("kg_put_node", level="project", id="project-http-client", gist="g")
    # A project edge may point up to a user node (cross-level, stored in the project graph).
    text = await a.ok("kg_put_edge", level="project", frm="project-http-client", to="user-principle-timeouts",
                      rel="applies")
    assert "names no node" not in text, text
    # A user edge naming a project node: the user graph would drop it on load, and the reply says so.
    text = await a.ok("kg_put_edge", level="user", frm="user-principle-timeouts", to="project-http-client",
                      rel="applied-by")
    assert "to: 'project-http-client' names no node in the user graph yet" in text, text
    g = graph(srv, session_id=a.sid)
    assert ("project-http-client", "user-principle-timeouts", "applies") in edge_keys(g["project"])


# The project folder a cwd binds ------------------------------------------------------------------

def _repo(srv, name: str, git_file: bool = False) -> str:
    """A git work tree under home: `.git` a folder, or a file as in a linked work tree or submodule."""
    root = srv.project(name)
    if git_file:
        with open(os.path.join(root, ".git"), "w") as f:
            f.write("gitdir: /elsewhere/.git/worktrees/x\n")
    else:
        os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    return os.path.realpath(root)


@pytest.mark.parametrize("git_file", [False, True])
async def test_a_cwd_inside_a_git_work_tree_binds_to_its_root(srv, client, git_file):
    root = _repo(srv, f"bind-repo-{int(git_file)}", git_file)
    deep = srv.project(f"bind-repo-{int(git_file)}/src/deep")
    a = await Session.open(client, deep)
    assert f"Project folder: {root}, the root of the git work tree holding cwd {os.path.realpath(deep)}." \
        in a.first_text
    await a.ok("kg_put_node", level="project", id="deep-module-layout", gist="g")
    assert _project(srv, a.sid)["project_path"] == root
    # A session opened at the root itself shares that memory, and is told nothing extra.
    b = await Session.open(client, root)
    assert "Project folder:" not in b.first_text
    assert "deep-module-layout" in nodes_by_id(_project(srv, b.sid))
    assert not os.path.exists(srv.store / "projects" / "deep")


async def test_kg_read_describes_how_a_cwd_binds(client):
    kg_read = next(t for t in (await client.list_tools()).tools if t.name == "kg_read")
    for text in (kg_read.description, kg_read.input_schema["properties"]["cwd"]["description"]):
        assert "existing directory" in text and "git work tree" in text


async def test_a_folder_with_a_graph_of_its_own_keeps_it_inside_a_work_tree(srv, client):
    kept = os.path.realpath(srv.home) + "/kept-repo/sub"
    a = await Session.open(client, kept)
    assert "Project folder:" not in a.first_text
    project = _project(srv, a.sid)
    assert project["project_path"] == kept and "kept-folder-node" in nodes_by_id(project)


@pytest.mark.parametrize("kind", ["missing", "file"])
async def test_a_cwd_must_be_an_existing_folder(srv, client, kind):
    folder = srv.project("cwd-rule-proj")
    cwd = os.path.join(folder, "no-such-dir")
    if kind == "file":
        cwd = os.path.join(folder, "notes.txt")
        with open(cwd, "w") as f:
            f.write("x")
    text, err = await call(client, "kg_read", {"cwd": cwd})
    assert err and text.startswith("Error: cwd: "), text
    assert ("is a file, not a folder" if kind == "file" else "does not exist") in text
    listed = get_json(srv, "/api/projects")
    assert not any(cwd in str(p) for p in listed.get("projects", listed)), listed
    assert not os.path.exists(srv.store / "projects" / os.path.basename(cwd))


async def test_the_hooks_bind_a_cwd_the_same_way_and_fail_silently(srv):
    root = _repo(srv, "hook-bind-repo")
    deep = srv.project("hook-bind-repo/pkg/deep")
    async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
        r = await http.get("/api/session_bootstrap", params={"project_path": deep})
        assert r.status_code == 200
        sid = r.json()["session_id"]
        assert graph(srv, session_id=sid)["project"]["project_path"] == root
        # A cwd that is no folder: the hook endpoints answer without an error a hook would show.
        gone = os.path.join(deep, "gone")
        r = await http.post("/api/prompt_context", json={"cwd": gone, "session_id": "no-such-claude-sid",
                                                          "prompt": "hello there"})
        assert r.status_code == 200
        r = await http.post("/api/tool_event", json={"cwd": gone, "session_id": "no-such-claude-sid",
                                                      "tool_name": "Read", "tool_input": {"file_path": "x.py"}})
        assert r.status_code == 200
        # A session starting there holds the user's memory alone, and says why.
        r = await http.post("/api/session_bootstrap", json={"cwd": gone, "session_id": "c-1", "source": "startup"})
        context = r.json()["hookSpecificOutput"]["additionalContext"]
        assert r.status_code == 200 and context.startswith(f"kg memory: {gone} does not exist: user memory only")
    assert not os.path.exists(srv.store / "projects" / "gone")
    run = run_hook("session_start", {"cwd": gone, "session_id": "c-2", "source": "startup",
                                     "hook_event_name": "SessionStart"}, hook_env(srv))
    assert run.rc == 0 and run.err == "" and "does not exist: user memory only" in run.json["hookSpecificOutput"][
        "additionalContext"]
    # The other hooks print nothing for it; the git-bound folder gets its preload.
    for name, payload in [("prompt", {"cwd": gone, "session_id": "c-2", "prompt": "hello there"}),
                          ("tool_event", {"cwd": gone, "session_id": "c-2", "tool_name": "Read",
                                          "tool_input": {"file_path": "x.py"}})]:
        run = run_hook(name, {**payload, "hook_event_name": name}, hook_env(srv))
        assert run.rc == 0 and run.err == "", (name, run)
        assert name == "prompt" or run.out == "", (name, run.out)  # the prompt hook may print its own pool line
    run = run_hook("session_start", {"cwd": deep, "session_id": "c-3", "source": "startup",
                                     "hook_event_name": "SessionStart"}, hook_env(srv))
    assert "hookSpecificOutput" in run.out


# kg_rename_node ---------------------------------------------------------------------------------

async def test_a_rename_onto_a_user_id_the_project_reaches_names_the_project(srv, client):
    cwd = os.path.realpath(srv.project("rename-capture-proj"))
    a = await Session.open(client, cwd)
    await a.ok("kg_put_node", level="user", id="user-retry-principle", gist="retry with backoff")
    await a.ok("kg_put_node", level="project", id="local-retry-usage", gist="g")
    await a.ok("kg_put_edge", level="project", frm="local-retry-usage", to="user-retry-principle", rel="applies")
    await a.ok("kg_put_node", level="project", id="other-local-node", gist="g")
    text = await a.err("kg_rename_node", old_id="other-local-node", new_id="user-retry-principle")
    assert text.startswith("Error: ") and f"project {cwd}" in text and "choose another id" in text


async def test_a_maintain_node_named_without_its_level_says_which_rule_applies(srv, client):
    m = await Session.open(client, srv.project("maint-rule-proj"), maintenance=True)
    await m.ok("kg_put_node", level="maintain", id="maint-pass-checklist", gist="what a pass checks")
    text = await m.err("kg_rename_node", old_id="maint-pass-checklist", new_id="maint-pass-steps")
    assert "is a maintain node" in text and "level='maintain'" in text
    text = await m.err("kg_delete_node", id="maint-pass-checklist")
    assert "maintain nodes cannot be deleted with this tool" in text
    text = await m.ok("kg_rename_node", old_id="maint-pass-checklist", new_id="maint-pass-steps", level="maintain")
    assert text.startswith("Renamed 'maint-pass-checklist' -> 'maint-pass-steps' in maintain graph")


# kg_read: a node read shows all of the node's edges ----------------------------------------------

async def test_a_user_node_read_shows_the_project_edges_that_reach_it(srv, client):
    a = await Session.open(client, srv.project("cross-read-proj"))
    await a.ok("kg_put_node", level="user", id="user-principle-idempotency", gist="writes must be idempotent")
    await a.ok("kg_put_node", level="project", id="project-webhook-handler", gist="dedupes by delivery id")
    await a.ok("kg_put_edge", level="project", frm="project-webhook-handler", to="user-principle-idempotency",
               rel="applies")
    read = await a.ok("kg_read", id="user-principle-idempotency")
    assert "▸ user-principle-idempotency (user, active)" in read
    assert "project-webhook-handler --applies--> user-principle-idempotency" in read
    # Another project's session does not see this project's edge.
    b = await Session.open(client, srv.project("cross-read-other-proj"))
    assert "project-webhook-handler" not in await b.ok("kg_read", id="user-principle-idempotency")


def test_the_servers_instructions_say_a_client_may_prefix_the_tool_names(srv):
    # OpenCode lists kg_kg_read; its system prompt carried "Read it once with kg_read(session_id)" alone.
    import httpx

    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "opencode", "version": "1"}}}
    r = httpx.post(srv.url + "/mcp", json=body, timeout=10,
                   headers={"Accept": "application/json, text/event-stream", "Content-Type": "application/json"})
    said = r.json()["result"]["instructions"]
    assert "kg_read(session_id)" in said and "OpenCode lists kg_read as kg_kg_read" in said, said
