"""A maintenance run's sessions are maintenance sessions from their first call, through a real `kg serve`: the
run's agent reaches kg on the marked MCP URL it was given (or through `kg mcp` with KG_CHORE_RUN), and
whether or not it says maintenance=true its reads stamp no use and the guards hold (spec 000 "Chores": no
rename or deletion of a node a live session holds), and its pass credits at most 15 in all, however many
sessions it opens. A mark of no live run grants nothing and breaks nothing.

The fake `claude` records its argv (the marked URL) and waits, as a pass under way does, until told to end."""

import json
import subprocess
import sys
import time

import anyio
import httpx
from mcp import Client
from test_chores_e2e import _quota_left, _server

from e2e_helpers import graph, nodes_by_id  # noqa: E402 (test_chores_e2e put tests/e2e on the path)
from hook_helpers import Harness  # noqa: E402
from kg_actors.testing import ServerProcess, session_of

WAITING_CLAUDE = """#!{python}
import json, os, sys, time
json.dump({{"argv": sys.argv[1:], "env": dict(os.environ)}}, open({rec!r} + ".tmp", "w"))
os.replace({rec!r} + ".tmp", {rec!r})
deadline = time.monotonic() + 90
while not os.path.exists({release!r}) and time.monotonic() < deadline:
    time.sleep(0.05)
print("pass done")
"""
NODES = [f"topic-{i}-note" for i in range(10)]


def _waiting_server(tmp_path) -> tuple[ServerProcess, object, object]:
    srv, rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "pass_timeout_s": 120}))
    release = tmp_path / "release"
    (tmp_path / "bin" / "claude").write_text(WAITING_CLAUDE.format(python=sys.executable, rec=str(rec),
                                                                   release=str(release)))
    _quota_left(srv)
    return srv, rec, release


async def _seed(srv: ServerProcess, project: str) -> str:
    """Ten unconnected lessons, written and read by a working session: it holds them (a pass is due)."""
    async with Client(srv.url + "/") as c:
        sid = session_of((await c.call_tool("kg_read", {"cwd": project})).content[0].text)
        for i, node_id in enumerate(NODES):
            await c.call_tool("kg_put_node", {"session_id": sid, "level": "project", "id": node_id,
                                              "gist": f"Lesson number {i} about module {i}."})
        return sid


def _dispatched_pass(srv: ServerProcess, rec) -> tuple[str, str]:
    """Start serving, seed, prompt: the pass's marked MCP URL and its run mark, once the runner has started."""
    srv.start("--no-editor")
    project = srv.project("proj")
    anyio.run(_seed, srv, project)
    h = Harness(srv, project)
    assert h.start().json is not None
    assert h.prompt("go on").rc == 0
    deadline = time.monotonic() + 30
    while not rec.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    run = json.loads(rec.read_text())
    argv = run["argv"]
    url = json.loads(argv[argv.index("--mcp-config") + 1])["mcpServers"]["kg"]["url"]
    assert "kg_run=" in url, url
    return project, url


def _text(result) -> tuple[str, bool]:
    return result.content[0].text, bool(result.is_error)


def _node(srv: ServerProcess, node_id: str) -> dict | None:
    return nodes_by_id(graph(srv, project_path=srv.project("proj"))["project"]).get(node_id)


async def _unflagged_run_session(url: str, project: str) -> dict[str, tuple[str, bool]]:
    """The run's agent on its own URL, never saying maintenance=true: a read, a rename and a delete."""
    async with Client(url) as c:
        sid = session_of((await c.call_tool("kg_read", {"cwd": project})).content[0].text)
        return {
            "read": _text(await c.call_tool("kg_read", {"session_id": sid, "id": "topic-3-note"})),
            "rename": _text(await c.call_tool("kg_rename_node", {"session_id": sid, "old_id": "topic-1-note",
                                                                 "new_id": "module-one-lesson"})),
            "delete": _text(await c.call_tool("kg_delete_node", {"session_id": sid, "id": "topic-2-note"})),
            "unknown": _text(await c.call_tool("kg_delete_node", {"session_id": "0f0f0f0f", "id": "topic-2-note"})),
        }


async def _credits(url: str, project: str) -> list[tuple[str, bool]]:
    """Two maintenance sessions of one pass, on its URL: five nodes x 3 credits in each, then five others."""
    out = []
    for ids in (NODES[:5], NODES[:5], NODES[5:]):
        async with Client(url) as c:
            sid = session_of((await c.call_tool("kg_read", {"cwd": project, "maintenance": True})).content[0].text)
            out.append(_text(await c.call_tool("kg_useful", {"session_id": sid, "ids": ids, "credits": 3})))
    return out


async def _named_on_the_runs_url(srv: ServerProcess, url: str, project: str) -> tuple[str, bool]:
    async with Client(srv.url + "/") as plain:
        sid = session_of((await plain.call_tool("kg_read", {"cwd": project})).content[0].text)
    async with Client(url) as c:
        return _text(await c.call_tool("kg_delete_node", {"session_id": sid, "id": "topic-5-note"}))


def _sdk_call(url: str, name: str, arguments: dict) -> dict:
    """A tool call the MCP SDK answers (its `_meta` is more than the plain path takes), as a client sends it."""
    body = {"jsonrpc": "2.0", "id": 9, "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": {"progressToken": 9}}}
    got = httpx.post(url, json=body, timeout=60, headers={"Accept": "application/json, text/event-stream",
                                                          "MCP-Protocol-Version": "2025-06-18"})
    return got.json()["result"]


def test_a_runs_session_is_a_maintenance_session_though_it_never_says_so(tmp_path):
    srv, rec, release = _waiting_server(tmp_path)
    try:
        project, url = _dispatched_pass(srv, rec)
        read_before = _node(srv, "topic-3-note").get("_last_read_ts")
        got = anyio.run(_unflagged_run_session, url, project)
        assert not got["read"][1] and "topic-3-note" in got["read"][0], got
        assert got["rename"][1] and "held by a live session" in got["rename"][0], got
        assert got["delete"][1] and "not deleted: 'topic-2-note' is held by a live session" in got["delete"][0], got
        assert got["unknown"][1] and "session_id" in got["unknown"][0], got  # as ever: the session is named
        assert _node(srv, "topic-1-note") is not None and _node(srv, "topic-2-note") is not None
        assert _node(srv, "topic-3-note").get("_last_read_ts") == read_before  # its read stamped no use
        # A session opened elsewhere, then named by a call on the run's URL, is the run's from that call.
        got = anyio.run(_named_on_the_runs_url, srv, url, project)
        assert got[1] and "not deleted: 'topic-5-note' is held by a live session" in got[0], got
        assert _node(srv, "topic-5-note") is not None
        # The same through a call the MCP SDK answers.
        said = _sdk_call(url, "kg_read", {"cwd": project})
        sid = session_of(said["content"][0]["text"])
        said = _sdk_call(url, "kg_delete_node", {"session_id": sid, "id": "topic-6-note"})
        assert said["isError"] and "is held by a live session" in said["content"][0]["text"], said
        # Through `kg mcp` (a runner that reaches kg through the plugin's shim), in the run's environment.
        mark = url.split("kg_run=", 1)[1]
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "kg_read", "arguments": {"cwd": project}}})
        shim = subprocess.run([sys.executable, "-m", "kg_actors", "mcp"], input=line + "\n", text=True,
                              capture_output=True, timeout=60, env={**srv.env, "KG_CHORE_RUN": mark})
        sid = session_of(json.loads(shim.stdout.splitlines()[0])["result"]["content"][0]["text"])
        line = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "kg_delete_node", "arguments": {"session_id": sid, "id": "topic-4-note"}}})
        shim = subprocess.run([sys.executable, "-m", "kg_actors", "mcp"], input=line + "\n", text=True,
                              capture_output=True, timeout=60, env={**srv.env, "KG_CHORE_RUN": mark})
        said = json.loads(shim.stdout.splitlines()[0])["result"]
        assert said["isError"] and "is held by a live session" in said["content"][0]["text"], said
        assert _node(srv, "topic-4-note") is not None
        release.touch()
        records = _wait_done(srv)
        done = next(r for r in records if r["event"] == "done")
        assert done["kg_calls"] == 10, done  # the run's calls, on its URL and through the shim
    finally:
        release.touch()
        srv.kill()


def test_a_mark_of_no_live_run_grants_nothing_and_breaks_nothing(tmp_path):
    srv, rec, release = _waiting_server(tmp_path)
    try:
        project, url = _dispatched_pass(srv, rec)
        forged = url.split("kg_run=", 1)[0] + "kg_run=" + "A" * 22
        read_before = _node(srv, "topic-3-note").get("_last_read_ts")
        got = anyio.run(_unflagged_run_session, forged, project)
        assert not got["read"][1] and not got["rename"][1] and not got["delete"][1], got  # a working session
        assert (_node(srv, "topic-3-note").get("_last_read_ts") or 0) > (read_before or 0)  # its read is use
        assert _node(srv, "module-one-lesson") is not None and _node(srv, "topic-2-note") is None
    finally:
        release.touch()
        srv.kill()


def test_a_pass_credits_at_most_15_however_many_sessions_it_opens(tmp_path):
    srv, rec, release = _waiting_server(tmp_path)
    try:
        project, url = _dispatched_pass(srv, rec)
        first, again, others = anyio.run(_credits, url, project)
        assert not first[1] and "Credited (3 each): topic-0-note" in first[0] and "0 credit(s) left" in first[0]
        assert "Credited" not in again[0] and again[0].count("already credited this pass") == 5, again
        assert "Credited" not in others[0] and others[0].count("pass total reached") == 5, others
        assert len(_node(srv, "topic-0-note").get("_credited_ts", [])) == 1
        assert len(_node(srv, "topic-0-note").get("_useful_ts", [])) == 3
        assert not _node(srv, "topic-5-note").get("_credited_ts")
    finally:
        release.touch()
        srv.kill()


def _wait_done(srv: ServerProcess) -> list[dict]:
    log = srv.store / "chore_runs.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        records = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
        if any(r.get("event") == "done" for r in records):
            return records
        time.sleep(0.05)
    raise AssertionError(f"no run ended: {log.read_text() if log.exists() else 'no log'}")
