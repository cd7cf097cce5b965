"""Claude Desktop wired by an older kg-memory (the reference): its <=0.11 bridge (`kg-desktop-bridge`, which
runs `npx mcp-remote` to the server) and the direct `npx -y mcp-remote http://127.0.0.1:PORT/` form are
another kg memory server, as its >=0.12 `kg mcp` entry is: doctor fails it beside kg's, setup takes it out,
uninstall puts it back.

The real `kg setup`, `kg doctor` and `kg uninstall` on a HOME of the test's own.
"""

from __future__ import annotations

import json

import pytest
from test_setup_entries_kept import Desk


def _entries(desk: Desk) -> list[dict]:
    return [{"command": str(desk.home / ".local/bin/kg-desktop-bridge"), "args": ["/usr/bin/npx"]},
            {"command": "npx", "args": ["-y", "mcp-remote", "http://127.0.0.1:8765/", "--allow-http"]},
            {"command": "npx", "args": ["-y", "mcp-remote", f"http://localhost:{desk.server.port}/mcp"]}]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["bridge", "mcp-remote-8765", "mcp-remote-kg-port"])
def test_an_older_kg_memory_desktop_entry_is_another_kg_memory_server(tmp_path, which):
    desk = Desk(tmp_path)
    try:
        entry = _entries(desk)[which]
        before = json.dumps({"mcpServers": {"knowledge-graph": entry, "other": {"command": "x"}}}).encode()
        desk.desktop.write_bytes(before)
        plan = desk.kg("setup", "--plan", "--only", "desktop")
        assert "remove mcpServers.knowledge-graph" in plan.stdout, plan.stdout
        setup = desk.kg("setup", "--yes", "--only", "desktop")
        assert setup.returncode == 0, setup.stdout + setup.stderr
        servers = json.loads(desk.desktop.read_text())["mcpServers"]
        assert "knowledge-graph" not in servers and "kg" in servers, servers
        # Put back by hand beside kg's: every kg tool twice, which doctor fails.
        desk.edit(desk.desktop, lambda d: d["mcpServers"].update({"knowledge-graph": entry}))
        doctor = desk.kg("doctor")
        assert doctor.returncode == 1 and "mcpServers.knowledge-graph runs a kg MCP server" in doctor.stdout, \
            doctor.stdout
        desk.edit(desk.desktop, lambda d: d["mcpServers"].pop("knowledge-graph"))
        out = desk.kg("uninstall", "--yes")
        assert out.returncode == 0, out.stdout + out.stderr
        assert json.loads(desk.desktop.read_text())["mcpServers"] == {"knowledge-graph": entry, "other": {"command": "x"}}
    finally:
        desk.server.kill()


def test_mcp_remote_to_another_local_port_is_not_taken_for_kg(tmp_path):
    desk = Desk(tmp_path)
    try:
        theirs = {"command": "npx", "args": ["-y", "mcp-remote", "http://127.0.0.1:9999/", "--allow-http"]}
        desk.desktop.write_text(json.dumps({"mcpServers": {"mine": theirs}}))
        plan = desk.kg("setup", "--plan", "--only", "desktop")
        assert "mcpServers.mine" not in plan.stdout, plan.stdout
    finally:
        desk.server.kill()
