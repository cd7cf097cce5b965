"""A kg server of ANOTHER store on this store's port (a second install: another venv, another HOME, the same
port): the agent's `kg mcp` refuses to relay to it, naming both stores, and the hooks print nothing of it.

Real `kg serve`, the real shim and hook scripts fed real payloads.
"""

from __future__ import annotations

import json
import os

import httpx
import pytest
from e2e_helpers import graph, kg, nodes_by_id, start_server
from hook_helpers import MCP_HEADERS, Harness, hook_env, run_hook
from test_shim import INITIALIZE, RawShim, _jsonrpc_lines, _request


def _other_store_env(srv, tmp_path) -> dict:
    """An agent whose own store is not the one `srv` serves, set up on `srv`'s port."""
    home = tmp_path / "agent-home"
    home.mkdir(exist_ok=True)
    return {"HOME": str(home), "KG_HOME": str(tmp_path / "agent-store"), "KG_HTTP_PORT": str(srv.port),
            "KG_EDITOR_PORT": str(srv.editor_port)}


def test_kg_mcp_refuses_another_stores_server_naming_both_and_writes_nothing_there(tmp_path):
    srv = start_server(tmp_path / "other")
    try:
        env = _other_store_env(srv, tmp_path)
        shim = RawShim(env)
        shim.send(INITIALIZE)
        shim.send(_request(2, "tools/call", {"name": "kg_put_node", "arguments": {
            "cwd": str(srv.home), "level": "user", "id": "lesson-for-the-agent", "gist": "meant for my own store"}}))
        by_id = _jsonrpc_lines(shim.finish())
        assert set(by_id) == {1, 2}, "every request gets a reply"
        assert by_id[1]["result"]["serverInfo"]["name"] == "kg-memory", by_id[1]  # the shim's own handshake
        for msg in [by_id[2]]:
            text = msg["error"]["message"]
            assert f"serves {srv.store}" in text and f"not {env['KG_HOME']} (KG_HOME)" in text, text
            assert f"KG_HOME={srv.store} kg stop" in text and "KG_HTTP_PORT" in text, text
        # Nothing reached the other store (what the server holds now, not a file snapshot).
        assert "lesson-for-the-agent" not in nodes_by_id(graph(srv)["user"])
    finally:
        srv.kill()


def test_the_server_refuses_a_request_naming_another_store_and_serves_its_own(tmp_path):
    """A shim that checked /health before another store's server took the port over still reaches no
    other memory: every request names the store it means, and the server refuses any other."""
    srv = start_server(tmp_path / "srv")
    try:
        call = {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}
        other = str(tmp_path / "elsewhere" / ".knowledge-graph")
        r = httpx.post(srv.url + "/", json=call, headers={**MCP_HEADERS, "X-KG-Home": other}, timeout=30)
        assert r.status_code == 409 and r.json()["id"] == 7, r.text
        text = r.json()["error"]["message"]
        assert f"serves {srv.store}" in text and f"not {other}" in text, text
        r = httpx.post(srv.url + "/api/prompt_context", json={"prompt": "hello"}, headers={"X-KG-Home": other},
                       timeout=30)
        assert r.status_code == 409 and f"not {other}" in r.json()["error"], r.text
        own = httpx.post(srv.url + "/", json=call, headers={**MCP_HEADERS, "X-KG-Home": str(srv.store)}, timeout=30)
        assert own.status_code == 200 and "tools" in own.json()["result"], own.text
        loop = tmp_path / "loop"
        loop.symlink_to(loop)  # a store path no realpath ends: another store, never a server error
        r = httpx.post(srv.url + "/", json=call, headers={**MCP_HEADERS, "X-KG-Home": str(loop)}, timeout=30)
        assert r.status_code == 409 and f"not {loop}" in r.json()["error"]["message"], r.text
    finally:
        srv.kill()
    assert "Traceback" not in srv.log.read_text()


@pytest.mark.parametrize("named", ["absolute", "tilde", "relative"])
def test_the_hooks_print_nothing_of_another_stores_server(tmp_path, named):
    """KG_HOME as kg reads it: `~/x` is in HOME, a relative path is from the folder the agent runs in (the
    hooks run where the agent does, HOME in these runs); each names its store, which this server is not."""
    srv = start_server(tmp_path / "other")
    try:
        cwd = srv.project("proj")
        own = Harness(srv, cwd)
        assert own.start().context, "the server's own store's hooks are served"
        agent = Harness(srv, cwd)
        store = {"absolute": str(tmp_path / "agent-store"), "tilde": "~/agent-store", "relative": "agent-store"}
        env = hook_env(srv, KG_HOME=store[named])
        started = agent.start(env=env)
        assert started.context == "" and started.rc == 0, started
        # SessionStart may tell the user why there is no memory: in `kg status`'s words, naming both stores.
        assert started.message == "" or str(srv.store) in started.message, started
        for run in (agent.prompt("how do I build this?", env=env), agent.read(cwd + "/a.py"),
                    run_hook("pre_tool", {"session_id": agent.sid, "cwd": cwd, "hook_event_name": "PreToolUse",
                                          "tool_name": "Bash", "tool_input": {"command": "make"}}, env)):
            assert run.out == "" and run.rc == 0, run
    finally:
        srv.kill()


@pytest.mark.parametrize("named", ["~/../store", "../store"])
def test_the_hooks_own_store_named_from_home_or_relatively_is_served(tmp_path, named):
    srv = start_server(tmp_path / "srv")
    try:
        run = Harness(srv, srv.project("proj")).start(env=hook_env(srv, KG_HOME=named))  # from HOME: the store
        assert run.context, run
    finally:
        srv.kill()


def test_the_hooks_own_store_named_by_home_alone_is_served(tmp_path):
    """No KG_HOME: the store is HOME's .knowledge-graph, as every kg command reads it."""
    srv = start_server(tmp_path / "srv", extra_env={"KG_HOME": ""})
    try:
        assert json.loads(httpx.get(srv.url + "/health", timeout=30).text)["storage"].startswith(str(srv.home))
        env = hook_env(srv)
        del env["KG_HOME"]
        run = Harness(srv, srv.project("proj")).start(env=env)
        assert run.context, run
    finally:
        srv.kill()


def test_status_and_doctor_say_plainly_that_the_server_on_the_port_is_another_stores(tmp_path):
    srv = start_server(tmp_path / "other")
    try:
        env = dict(os.environ, **_other_store_env(srv, tmp_path))
        status = kg(["status"], env)
        assert status.returncode == 3, status.stdout + status.stderr
        assert "running at" not in status.stdout, status.stdout
        assert f"serves {srv.store}, not {env['KG_HOME']} (KG_HOME)" in status.stdout, status.stdout
        doctor = kg(["doctor"], env)
        assert doctor.returncode == 1, doctor.stdout
        said = {line.split(":")[0].split()[-1]: line for line in doctor.stdout.splitlines() if line[:4] in ("ok  ", "FAIL")}
        assert said["server"].startswith("FAIL") and f"serves {srv.store}" in said["server"], doctor.stdout
        assert "editor" not in said or not said["editor"].startswith("ok"), doctor.stdout
        assert "ok    server" not in doctor.stdout, doctor.stdout
    finally:
        srv.kill()
