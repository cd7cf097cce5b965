"""What `kg mcp` says of a server on kg's port that must not serve this agent: kg-memory 0.17 left running
(answering MCP at / as ours does), another program, or a kg server of another store (another install on the
same port: its lessons would go to that store). The agent must not be served from another memory."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each client's start
if TYPE_CHECKING:
    from typing import Any


def other_said(health: object, where: str, home: str | None) -> str | None:
    """Why the server at `where` whose /health said `health` is not this kg's, with the way out; None: it is
    this store's (`home`, resolved), or cannot be told (no JSON object: the request's own reply names it)."""
    if not isinstance(health, dict):
        return None
    if isinstance(health.get("loaded_graphs"), list) and isinstance(health.get("storage"), str):
        return _other_store(health, where, home)  # kg's shape: this store's server, or another install's
    version = health.get("version")
    if isinstance(health.get("loaded_graphs"), int) and health.get("transport") == "streamable-http":
        name = f"kg-memory {version if isinstance(version, str) else '(version unknown)'}"[:60]
        stop = "stop it with its own `kg stop` (kg-memory's kg, not this one)"
    else:
        name, stop = "another program, not a kg server", "stop it"
    pid = health.get("pid")
    kill = f", or `kill {pid}`" if isinstance(pid, int) and not isinstance(pid, bool) else ""
    return (f"the memory server at {where} is {name}, not this kg's: {stop}{kill}, then "
            "restart this agent (or move kg with KG_HTTP_PORT); `kg doctor` says more")


def _other_store(health: dict[str, Any], where: str, home: str | None) -> str | None:
    storage = str(health["storage"])
    if not home or os.path.realpath(storage) == home:
        return None
    import shlex

    pid = health.get("pid")
    pid_said = f" (pid {pid})" if isinstance(pid, int) and not isinstance(pid, bool) else ""
    return (f"the kg server at {where}{pid_said} serves {storage}, not {home} (KG_HOME): "
            f"it is another kg's; stop it there (KG_HOME={shlex.quote(storage)} kg stop), or give this store "
            "another port (KG_HTTP_PORT), then restart this agent; `kg doctor` says more")
