"""Start-up: the project last used is loaded before anyone asks, and plain tool calls are answered
without the MCP SDK, with the same reply the SDK gives."""

from __future__ import annotations

import json
import os
import time

from hook_helpers import project_graph
from rpc_helpers import Conn

from kg_actors.testing import ServerProcess, write_store

NOW = time.time()


def _node(node_id: str, gist: str) -> dict:
    return {"id": node_id, "gist": gist, "notes": [], "touches": [], "created_ts": NOW - 3600}


def _store(srv: ServerProcess, names: list[str]) -> dict[str, str]:
    roots = {name: srv.project(name) for name in names}
    write_store(srv.store, projects={
        name: project_graph(os.path.realpath(root), [_node(f"{name}-lesson-about-trio", f"{name} uses trio nurseries")])
        for name, root in roots.items()})
    return roots


def _loaded_without_asking(srv: ServerProcess, key: str, timeout: float = 20.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        loaded = (srv.health() or {}).get("loaded_graphs", [])
        if key in loaded:
            return loaded
        time.sleep(0.02)
    raise AssertionError(f"{key} not loaded at start; loaded: {loaded}")


def test_the_project_graph_written_last_is_loaded_at_start(server_factory):
    srv = server_factory(start=False)
    _store(srv, ["older-app", "newer-app"])
    older = srv.store / "projects" / "older-app" / "graph.json"
    os.utime(older, (NOW - 86_400, NOW - 86_400))
    srv.start("--no-editor")
    loaded = _loaded_without_asking(srv, "project:newer-app")
    assert "project:older-app" not in loaded
    conn = Conn(srv.port)
    try:
        text, error = conn.tool("kg_read", cwd=srv.project("newer-app"))
        assert not error and "newer-app-lesson-about-trio" in text
    finally:
        conn.close()


def test_the_project_of_the_session_active_last_wins_over_the_file_written_last(server_factory):
    srv = server_factory(start=False)
    roots = _store(srv, ["older-app", "newer-app"])
    os.utime(srv.store / "projects" / "older-app" / "graph.json", (NOW - 86_400, NOW - 86_400))
    sessions = {"a1b2c3d4": {"start_ts": NOW - 600, "last_activity": NOW - 60,
                             "project_path": os.path.realpath(roots["older-app"])}}
    (srv.store / "sessions.json").write_text(json.dumps(sessions))
    srv.start("--no-editor")
    loaded = _loaded_without_asking(srv, "project:older-app")
    assert "project:newer-app" not in loaded


def test_a_plain_tool_call_gets_the_bytes_the_sdk_sends_for_it(server_factory):
    srv = server_factory(start=False)
    roots = _store(srv, ["some-app"])
    srv.start("--no-editor")
    conn = Conn(srv.port)
    try:
        text, error = conn.tool("kg_read", cwd=roots["some-app"])
        sid = text.rsplit("Session: ", 1)[1].split()[0]
        for name, arguments in [("kg_search", {"query": "trio nurseries", "session_id": sid}),
                                ("kg_search", {"query": ""}), ("kg_nope", {})]:
            plain = {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
            # `_meta` sends the same call through the SDK (this server's plain path leaves such calls to it).
            via_sdk = {**plain, "params": {**plain["params"], "_meta": {}}}
            replies = [conn.post("/", json.dumps(m).encode()) for m in (plain, via_sdk)]
            assert replies[0] == replies[1], (name, arguments)
            assert replies[0][0] == 200 and b'"result"' in replies[0][1]
    finally:
        conn.close()


def _debt_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("DEBT:")]


def test_debts_terms_are_written_after_a_start_and_the_next_start_takes_them(server_factory):
    srv = server_factory(start=False)
    root = srv.project("shop")
    nodes = [_node("billing-service", "owns billing")] + [
        _node(f"lesson-{i:03d}-on-webhooks", f"note {i} on webhooks" + (" and billing" if i % 7 == 0 else ""))
        for i in range(150)]
    write_store(srv.store, projects={"shop": project_graph(os.path.realpath(root), nodes)})
    cache = srv.store / "projects" / "shop" / "graph.json.terms.jsonl"
    srv.start("--no-editor")
    conn = Conn(srv.port)
    try:
        text, error = conn.tool("kg_read", cwd=root)
        assert not error and "billing×" in _debt_lines(text)[-1]  # a smeared term: made from every node's terms
        deadline = time.monotonic() + 20
        while not cache.exists() and time.monotonic() < deadline:  # written once the search index is in
            time.sleep(0.02)
        assert cache.exists()
    finally:
        conn.close()
    srv.stop()
    written = cache.stat().st_mtime_ns
    srv.start("--no-editor")
    conn = Conn(srv.port)
    try:
        again, error = conn.tool("kg_read", cwd=root)
        assert not error and _debt_lines(again) == _debt_lines(text)
    finally:
        conn.close()
    srv.stop()
    assert cache.stat().st_mtime_ns == written  # every row was taken: nothing worth writing again
