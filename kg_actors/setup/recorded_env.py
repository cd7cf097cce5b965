"""The ports `kg setup` wrote into the plugin, read back: what the agents' hooks and MCP server use.

A plain `kg doctor` (or another kg command) run where KG_HTTP_PORT is not set would judge
the default port, while every agent setup wired talks to the port setup saw. The plugin's
`.mcp.json` in the store's marketplace folder names it, in the `kg` server's env.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..storage import user_files

PORTS = ("KG_HTTP_PORT", "KG_EDITOR_PORT")


def recorded_ports(marketplace_dir: Path, env: dict[str, str]) -> tuple[dict[str, str], Path | None]:
    """The ports setup recorded that `env` does not set, and the file they were read from ({}, None: none)."""
    if all(env.get(k) for k in PORTS):
        return {}, None
    try:
        files = sorted(marketplace_dir.glob("*/.mcp.json"))
    except OSError:
        return {}, None
    for path in files:
        try:
            servers = json.loads(user_files.read_bytes(path)).get("mcpServers")
        except (OSError, ValueError, AttributeError):
            continue
        server = servers.get("kg") if isinstance(servers, dict) else None
        said = server.get("env") if isinstance(server, dict) else None
        if not isinstance(said, dict):
            continue
        found = {k: said[k] for k in PORTS if not env.get(k) and isinstance(said.get(k), str) and said[k]}
        if found:
            return found, path
    return {}, None
