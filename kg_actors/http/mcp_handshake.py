"""The MCP handshake and the tool list, answered without the MCP SDK.

Every client opens with `initialize`, `notifications/initialized` and `tools/list`
before its first tool call. Answered here, with the bytes the SDK sends for them
(tests/http/test_mcp_handshake.py compares with the SDK's live answer for every
protocol version it takes), a server whose clients do only that and plain tool calls
(mcp_calls.py) never imports the SDK and pydantic: ~36 MiB and a second of CPU spared.
What this module does not recognise exactly (`_meta` beside anything but a tool list's
params, params of a shape the SDK might refuse, other methods) returns None and goes to the SDK, which is imported then.
"""

from __future__ import annotations

import functools
from typing import Any, TypeGuard

from . import descriptions
from .mcp_calls import (CLIENT_INFO_KEYS, MODERN_VERSION, PROTOCOL_VERSIONS, Message, id_fits, json_reply,
                        modern_message, plain_capabilities, plain_message, result_body, server_info, server_meta)

# The SDK answers an initialize asking for a version it does not take with its latest
# (mcp_types.version.LATEST_HANDSHAKE_VERSION; the test keeps the two equal).
LATEST_VERSION = "2025-11-25"
_INIT_KEYS = frozenset({"protocolVersion", "capabilities", "clientInfo"})
# The SDK's model for a tool's input schema: these fields first (sorted), the rest as given.
_SCHEMA_FIELDS = ("properties", "required", "type")
RESERVED_META = "io.modelcontextprotocol/"


def answer(scope: dict[str, Any], body: bytes) -> list[Message] | None:
    """The ASGI messages of the SDK's reply to a handshake request, or None: not one answered here."""
    message = plain_message(scope, body)
    if message is None:
        return _modern_answer(scope, body)
    method, params = message.get("method"), message.get("params")
    if "id" not in message:
        if method == "notifications/initialized" and (params is None or params == {}):
            return json_reply(202, b"")  # stateless: nothing to note
        return None
    msg_id = message["id"]
    if not id_fits(msg_id):
        return None
    if method == "tools/list" and _list_params_fit(params):
        return json_reply(200, result_body(msg_id, tool_list()))
    if method == "initialize" and _init_params_fit(params):
        return json_reply(200, result_body(msg_id, initialize_result(params["protocolVersion"])))
    return None


def _modern_answer(scope: dict[str, Any], body: bytes) -> list[Message] | None:
    """The stateless revision's discovery and tool list (mcp_calls.modern_message), or None."""
    message = modern_message(scope, body)
    if message is None or not id_fits(message.get("id")):
        return None
    method, params, msg_id = message.get("method"), message["params"], message["id"]
    if method == "server/discover" and not params:
        return json_reply(200, result_body(msg_id, discover_result(), modern=True), modern=True)
    if method == "tools/list" and _list_params_fit(params):
        return json_reply(200, result_body(msg_id, modern_tool_list(), modern=True), modern=True)
    return None


def own_result(message: object) -> dict[str, Any] | None:
    """The result this code gives a plain `initialize` or `tools/list` request (`kg mcp` answers with it itself
    when the server cannot answer the handshake in time), or None: not one, or params the server would refuse."""
    if not isinstance(message, dict) or set(message) - {"jsonrpc", "id", "method", "params"}:
        return None
    method, params = message.get("method"), message.get("params")
    if method == "tools/list" and _list_params_fit(params):
        return tool_list()
    if method == "initialize" and _init_params_fit(params):
        return initialize_result(params["protocolVersion"])
    return None


def discover_result() -> dict[str, Any]:
    """The SDK's DiscoverResult for this server (keys as its serializer orders them)."""
    return {"cacheScope": "private", "capabilities": {"tools": {"listChanged": False}},
            "instructions": descriptions.INSTRUCTIONS, "resultType": "complete", "supportedVersions": [MODERN_VERSION],
            "ttlMs": 0, "_meta": server_meta()}


@functools.cache
def modern_tool_list() -> dict[str, Any]:
    """The revision's ListToolsResult: the same tools, each input schema as written, and the result's fields."""
    from . import schemas
    tools = [{"description": descriptions.TOOLS[name], "inputSchema": schema, "name": name}
             for name, schema in schemas.SCHEMAS.items()]
    return {"cacheScope": "private", "resultType": "complete", "tools": tools, "ttlMs": 0, "_meta": server_meta()}


def _list_params_fit(params: object) -> bool:
    """Params that leave the list as it is, of the types the SDK takes: one page holds every tool (a cursor is
    ignored, as the SDK's handler ignores it), and `_meta` asks nothing of a list (Codex sends a progress token
    with it; left to the SDK, the first such request loaded it, over a second on a fresh server)."""
    if params is None:
        return True
    if not isinstance(params, dict) or not set(params) <= {"cursor", "_meta"}:
        return False
    meta = params.get("_meta")
    token = meta.get("progressToken", 0) if isinstance(meta, dict) else 0
    # The protocol's reserved keys (the stateless revision's version, client info...) are the SDK's to weigh.
    reserved = isinstance(meta, dict) and any(str(key).startswith(RESERVED_META) for key in meta)
    return isinstance(params.get("cursor"), str | None) and isinstance(meta, dict | None) and (
        isinstance(token, str | int) and not reserved)


def _init_params_fit(params: object) -> TypeGuard[dict[str, Any]]:
    """Params the SDK's InitializeRequestParams surely takes; anything unusual is left to it."""
    if not isinstance(params, dict) or set(params) != _INIT_KEYS or not isinstance(params["protocolVersion"], str):
        return False
    info, capabilities = params["clientInfo"], params["capabilities"]
    if not isinstance(info, dict) or not {"name", "version"} <= set(info) <= CLIENT_INFO_KEYS:
        return False
    if not all(isinstance(value, str) for value in info.values()):
        return False
    return plain_capabilities(capabilities)


def initialize_result(requested: str) -> dict[str, Any]:
    """The SDK's InitializeResult for this server (keys as its serializer orders them)."""
    return {"capabilities": {"tools": {"listChanged": False}}, "instructions": descriptions.INSTRUCTIONS,
            "protocolVersion": requested if requested in PROTOCOL_VERSIONS else LATEST_VERSION,
            "serverInfo": server_info()}


@functools.cache
def tool_list() -> dict[str, Any]:
    """The SDK's ListToolsResult for the tools in descriptions.py and schemas.py."""
    from . import schemas  # imports jsonschema (~0.25 s): not on the start's path, where app.py imports this
    return {"tools": [{"description": descriptions.TOOLS[name], "inputSchema": _schema_as_sdk(schema), "name": name}
                      for name, schema in schemas.SCHEMAS.items()]}


def _schema_as_sdk(schema: dict[str, Any]) -> dict[str, Any]:
    known = {key: schema[key] for key in _SCHEMA_FIELDS if key in schema}
    return {**known, **{key: value for key, value in schema.items() if key not in known}}
