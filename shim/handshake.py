"""The MCP handshake (`initialize`, `tools/list`, `ping`, the lists of what kg does not serve), which `kg mcp`
answers itself when the server cannot.

A client waits for its MCP servers' handshake before its session goes on (Gemini CLI and OpenCode before the
first model call), and Claude Code skips a plugin server whose start failed for 15 minutes. Neither answer
needs the memory: a server that is down, starting, hung, or another program on kg's port gets QUICK
seconds, then the shim gives this kg's own answer, and only the tool calls wait for the server (or get an
error naming why it cannot answer). The answer comes from kg_actors/http/mcp_handshake.py, the server's own
code, imported only then (it is not on the shim's start path).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each client's start
if TYPE_CHECKING:
    from typing import Any

# What a client asks at its start (OpenCode lists prompts and resources too) and the server answers without the
# memory: kg serves tools alone, so the lists of prompts and resources are methods it does not have.
NOT_SERVED = frozenset({"prompts/list", "resources/list", "resources/templates/list"})
METHODS = frozenset({"initialize", "tools/list", "ping"}) | NOT_SERVED
# The server answers the handshake in milliseconds; a client's start must not wait on one that does not
# (the hooks' bound for a server that answers nothing is about a second).
QUICK = 1.0


def own_reply(message: object) -> dict[str, Any] | None:
    """This kg's reply to a handshake request, or None: not one (or params the server would refuse by name)."""
    if not isinstance(message, dict) or message.get("method") not in METHODS or message.get("id") is None:
        return None
    method = message["method"]
    if method in NOT_SERVED:  # the server's (its SDK's) words
        return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found",
                                                                 "data": method}}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": message["id"], "result": {}}
    from kg_actors.http.mcp_handshake import own_result

    result = own_result(message)
    return None if result is None else {"jsonrpc": "2.0", "id": message["id"], "result": result}
