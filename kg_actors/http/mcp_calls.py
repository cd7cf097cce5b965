"""Plain MCP tool calls, answered without the MCP SDK.

The SDK's import costs 0.6-1 s of CPU, and a session's first call (`kg_read(cwd)`)
usually arrives within that second of a start; its per-request machinery (a transport,
a dispatcher and pydantic models per request) is the larger part of a small call's
time after. A plain tool call needs none of it: for this stateless, JSON-reply server
its answer is the tool's text in a JSON-RPC result. So a request that is exactly that
(a POST of one `tools/call` request, headers the SDK would accept, no `_meta`) is
answered here, from the first second on, with the JSON the SDK would send; every other
request but the handshake (mcp_handshake.py: initialize, notifications/initialized,
tools/list) goes to the SDK (a batch, a call with `_meta`, anything the SDK would
refuse), and waits for its import.

The protocol's stateless revision (MODERN_VERSION: no initialize; each request names
its version, client and capabilities in `_meta`, and repeats its method and tool in
headers, as the Python SDK 2.x client sends it) is answered here too, when every one
of those is exactly what such a client sends (`modern_message`); its replies add the
revision's `resultType` and the server's info in `_meta`.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

import attrs

from .. import __version__
from .rpc_checks import rpc_error
from .security import scope_headers

SERVER_NAME = "kg-memory"

# The MCP-Protocol-Version values the SDK's legacy stateless path takes (mcp_types.version's
# HANDSHAKE_PROTOCOL_VERSIONS; importing it would import the SDK's types, the cost this spares).
# tests/http/test_mcp_calls.py checks that each is still one the SDK takes.
PROTOCOL_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
MODERN_VERSION = "2026-07-28"  # the stateless revision (tests/http/test_mcp_modern.py: still the SDK's)
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_PARAM_KEYS = frozenset({"name", "arguments"})
_MCP = "io.modelcontextprotocol/"
_META_KEYS = frozenset({_MCP + "protocolVersion", _MCP + "clientInfo", _MCP + "clientCapabilities"})
CLIENT_INFO_KEYS = frozenset({"name", "version", "title", "description", "websiteUrl"})  # strings all
# An ASGI message, typed as Starlette and the SDK type it: their sends take any mutable mapping (app.py).
Message = MutableMapping[str, Any]


@attrs.frozen
class PlainCall:
    msg_id: int | str
    name: str
    arguments: dict[str, Any]
    modern: bool = False  # the stateless revision's: its reply says so (reply_messages)


def _media_types(value: str) -> list[str]:
    return [part.strip().split(";")[0].strip().lower() for part in value.split(",")]


def headers_fit(headers: dict[str, str]) -> bool:
    """Headers the SDK's stateless JSON transport accepts without a word."""
    accept = _media_types(headers.get("accept", ""))
    if not any(t in ("application/json", "application/*", "*/*") for t in accept):
        return False
    content_type = [p.strip() for p in headers.get("content-type", "").split(";")[0].split(",")]
    if "application/json" not in content_type:
        return False
    version = headers.get("mcp-protocol-version")
    return version is None or version in PROTOCOL_VERSIONS or version == MODERN_VERSION


def content_type_problem(scope: dict[str, Any]) -> dict[str, Any] | None:
    """A 400's JSON-RPC error for a body not sent as JSON (the SDK answered in plain text, unlike every other error)."""
    content_type = [p.strip().lower() for p in scope_headers(scope).get("content-type", "").split(";")[0].split(",")]
    if "application/json" in content_type:
        return None
    got = scope_headers(scope).get("content-type")
    return rpc_error(None, -32600, f"Bad Request: Content-Type must be application/json"
                                   f"{f', not {got[:64]!r}' if got else ' (none was given)'}")


def json_content_type(scope: dict[str, Any]) -> dict[str, Any]:
    """The scope with its Content-Type lower-cased: media types are case-insensitive (RFC 9110), and the SDK
    refuses `Application/JSON` with a 415."""
    headers = scope.get("headers") or []
    if not any(name == b"content-type" and value != value.lower() for name, value in headers):
        return scope
    return {**scope, "headers": [(n, v.lower() if n == b"content-type" else v) for n, v in headers]}


def version_problem(scope: dict[str, Any], body: bytes) -> dict[str, Any] | None:
    """A 400's error for an MCP-Protocol-Version header this server does not speak (the MCP spec's rule),
    naming it and the ones it speaks: the SDK said only that a `_meta` envelope was missing."""
    version = scope_headers(scope).get("mcp-protocol-version")
    if version is None or version in PROTOCOL_VERSIONS or version == MODERN_VERSION:
        return None
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        message = None
    msg_id = message.get("id") if isinstance(message, dict) else None
    spoken = ", ".join(sorted(PROTOCOL_VERSIONS | {MODERN_VERSION}))
    return rpc_error(msg_id if isinstance(msg_id, int | str) else None, -32600,
                     f"Bad Request: MCP-Protocol-Version {version[:64]!r} is not one this server speaks ({spoken})")


def plain_message(scope: dict[str, Any], body: bytes) -> dict[str, Any] | None:
    """The one JSON-RPC message a POST carries, if its headers and envelope are ones the SDK takes as they are
    on its legacy path (a stateless-revision request is `modern_message`'s)."""
    headers = scope_headers(scope)
    if headers.get("mcp-protocol-version") == MODERN_VERSION:
        return None  # before any parse: the legacy path's requests pay nothing for the revision's
    return _message(scope, headers, body)


def modern_message(scope: dict[str, Any], body: bytes) -> dict[str, Any] | None:
    """The message, if it is a stateless-revision request as its clients send it: the version header and the
    `_meta` version both MODERN_VERSION, the method (and a call's tool) repeated in headers, plain client info
    and capabilities. Its params are returned without the `_meta`."""
    headers = scope_headers(scope)
    if headers.get("mcp-protocol-version") != MODERN_VERSION:
        return None
    message = _message(scope, headers, body)
    if message is None or headers.get("mcp-method") != message.get("method"):
        return None
    params = message.get("params")
    if not isinstance(params, dict) or not _meta_fits(params.get("_meta")):
        return None
    rest = {k: v for k, v in params.items() if k != "_meta"}
    if message.get("method") == "tools/call" and headers.get("mcp-name") != rest.get("name"):
        return None
    return {**message, "params": rest}


def _message(scope: dict[str, Any], headers: dict[str, str], body: bytes) -> dict[str, Any] | None:
    if scope.get("method") != "POST" or not headers_fit(headers):
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or not set(message) <= _REQUEST_KEYS or message.get("jsonrpc") != "2.0":
        return None
    return message


def _meta_fits(meta: object) -> bool:
    if not isinstance(meta, dict) or set(meta) != _META_KEYS or meta[_MCP + "protocolVersion"] != MODERN_VERSION:
        return False
    info, capabilities = meta[_MCP + "clientInfo"], meta[_MCP + "clientCapabilities"]
    if not isinstance(info, dict) or not {"name", "version"} <= set(info) <= CLIENT_INFO_KEYS:
        return False
    return all(isinstance(v, str) for v in info.values()) and plain_capabilities(capabilities)


def plain_capabilities(capabilities: object) -> bool:
    """Capabilities the way clients send them: objects of objects, with `listChanged` flags."""
    return isinstance(capabilities, dict) and all(_plain_capability(v) for v in capabilities.values())


def _plain_capability(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    return all(isinstance(inner, bool) if key == "listChanged" else _plain_capability(inner)
               for key, inner in value.items())


def id_fits(msg_id: object) -> bool:
    """A request id the SDK echoes as this module would write it (a bool is no id; a lone surrogate no UTF-8)."""
    if isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
        return False
    return isinstance(msg_id, int) or _encodes(msg_id)


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def plain_call(scope: dict[str, Any], body: bytes) -> PlainCall | None:
    """The tool call this module answers, or None: the request is the SDK's (or mcp_handshake.py's)."""
    message = plain_message(scope, body)
    modern = message is None
    if modern:
        message = modern_message(scope, body)
    if message is None or message.get("method") != "tools/call" or not id_fits(message.get("id")):
        return None
    msg_id, params = message["id"], message.get("params")
    if not isinstance(params, dict) or not set(params) <= _PARAM_KEYS or not isinstance(params.get("name"), str):
        return None
    arguments = params.get("arguments")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return None
    return PlainCall(msg_id, params["name"], arguments, modern)


def json_reply(status: int, body: bytes, modern: bool = False) -> list[Message]:
    """The ASGI messages of a JSON reply as the SDK's transport sends it (the stateless revision's path
    names the length first)."""
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return [{"type": "http.response.start", "status": status, "headers": headers[::-1] if modern else headers},
            {"type": "http.response.body", "body": body}]


def result_body(msg_id: int | str, result: object, modern: bool = False) -> bytes:
    """A JSON-RPC result as the SDK writes it: compact, raw UTF-8 (the stateless revision's path: ASCII)."""
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result},
                      ensure_ascii=modern, separators=(",", ":")).encode()


def reply_messages(msg_id: int | str, text: str, is_error: bool, modern: bool = False) -> list[Message]:
    """The ASGI messages of the SDK's reply to a tool call: the same JSON, byte for byte."""
    result = {"content": [{"text": text, "type": "text"}], "isError": is_error}
    if modern:  # the revision's result says its kind, and names the server in `_meta` (the SDK's order)
        result = {**result, "resultType": "complete", "_meta": server_meta()}
    return json_reply(200, result_body(msg_id, result, modern), modern)


def server_info() -> dict[str, str]:
    return {"name": SERVER_NAME, "version": __version__}


def server_meta() -> dict[str, dict[str, str]]:
    """The stateless revision's results name the server here (no initialize said it)."""
    return {_MCP + "serverInfo": server_info()}
