"""A server whose clients only shake hands, list the tools and call them never loads the MCP SDK
(nor pydantic, ~36 MiB between them): a real TypeScript SDK session and a raw one, and the SDK
loaded the first time a request needs it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from e2e_helpers import KG, start_server
from npm_clients import CLIENT_TIMEOUT, client_env, npm_bin, ts_client
from rpc_helpers import Conn

# pydantic-core is a compiled extension: mapped into the process iff pydantic (and so the SDK) was imported.
PYDANTIC = "_pydantic_core"


def _mapped(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


def _post(conn: Conn, message: dict) -> tuple[int, dict | None]:
    status, body = conn.post("/", json.dumps(message).encode())
    return status, json.loads(body) if body else None


def test_a_raw_session_never_loads_the_sdk_until_a_request_needs_it(tmp_path):
    srv = start_server(tmp_path)
    conn = Conn(srv.port)
    try:
        status, init = _post(conn, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
        assert status == 200 and init["result"]["serverInfo"]["name"] == "kg-memory"
        assert _post(conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}) == (202, None)
        status, listed = _post(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert "kg_put_node" in [t["name"] for t in listed["result"]["tools"]]
        text, error = conn.tool("kg_read", cwd=srv.project("raw-app"))
        assert not error and "Session: " in text
        assert PYDANTIC not in _mapped(srv.proc.pid)
        # A request the server does not answer itself (a ping) loads the SDK and is answered by it.
        assert _post(conn, {"jsonrpc": "2.0", "id": 2, "method": "ping"}) == (200, {"jsonrpc": "2.0", "id": 2,
                                                                                    "result": {}})
        assert PYDANTIC in _mapped(srv.proc.pid)
    finally:
        conn.close()
        srv.kill()


def test_codexs_tool_list_with_a_progress_token_is_answered_without_loading_the_sdk(tmp_path):
    # Codex 0.171 sends tools/list with params {"_meta": {"progressToken": 0}}: left to the SDK, the first one on a
    # fresh server imported it (0.9-1.9 s on a loaded machine), past the second `kg mcp` gives the handshake, and
    # Codex, given an error for its one tools/list, listed no kg tool for the whole session.
    srv = start_server(tmp_path)
    conn = Conn(srv.port)
    try:
        status, listed = _post(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                                      "params": {"_meta": {"progressToken": 0}}})
        assert status == 200 and len(listed["result"]["tools"]) == 10, listed
        assert PYDANTIC not in _mapped(srv.proc.pid)
    finally:
        conn.close()
        srv.kill()


def test_a_typescript_sdk_session_never_loads_the_sdk(tmp_path):
    srv = start_server(tmp_path / "srv")
    try:
        seen = ts_client(srv, tmp_path, "http", srv.url + "/", "ts-sdk-free-node")
        assert not seen["put_error"] and "ts-sdk-free-node" in seen["read"], seen
        assert PYDANTIC not in _mapped(srv.proc.pid)
    finally:
        srv.kill()


def test_claude_code_connecting_over_http_and_the_shim_never_loads_the_sdk(tmp_path):
    claude = npm_bin("claude")
    srv = start_server(tmp_path / "srv")
    env = client_env(tmp_path)
    try:
        for entry in (["--transport", "http", "kg-http", srv.url + "/"],
                      ["kg-shim", "-e", f"KG_HTTP_PORT={srv.port}", "-e", f"KG_HOME={srv.store}", "--", KG, "mcp"]):
            subprocess.run([claude, "mcp", "add", "--scope", "user", *entry], env=env, check=True,
                           capture_output=True, timeout=CLIENT_TIMEOUT, cwd=tmp_path)
        listed = subprocess.run([claude, "mcp", "list"], env=env, capture_output=True, text=True,
                                timeout=CLIENT_TIMEOUT, cwd=tmp_path).stdout
        assert listed.count("✔ Connected") == 2, listed
        assert PYDANTIC not in _mapped(srv.proc.pid)
    finally:
        srv.kill()
