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
"""

from __future__ import annotations

import json

import attrs

from .security import scope_headers

# The MCP-Protocol-Version values the SDK's legacy stateless path takes (mcp_types.version's
# HANDSHAKE_PROTOCOL_VERSIONS; importing it would import the SDK's types, the cost this spares).
# tests/http/test_mcp_calls.py checks that each is still one the SDK takes.
PROTOCOL_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_PARAM_KEYS = frozenset({"name", "arguments"})


@attrs.frozen
class PlainCall:
    msg_id: int | str
    name: str
    arguments: dict


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
    return version is None or version in PROTOCOL_VERSIONS


def plain_message(scope: dict, body: bytes) -> dict | None:
    """The one JSON-RPC message a POST carries, if its headers and envelope are ones the SDK takes as they are."""
    if scope.get("method") != "POST" or not headers_fit(scope_headers(scope)):
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or not set(message) <= _REQUEST_KEYS or message.get("jsonrpc") != "2.0":
        return None
    return message


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


def plain_call(scope: dict, body: bytes) -> PlainCall | None:
    """The tool call this module answers, or None: the request is the SDK's (or mcp_handshake.py's)."""
    message = plain_message(scope, body)
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
    return PlainCall(msg_id, params["name"], arguments)


def json_reply(status: int, body: bytes) -> list[dict]:
    """The ASGI messages of a JSON reply as the SDK's transport sends it."""
    return [{"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]},
            {"type": "http.response.body", "body": body}]


def result_body(msg_id: int | str, result: object) -> bytes:
    """A JSON-RPC result as pydantic writes it: compact, raw UTF-8."""
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result},
                      ensure_ascii=False, separators=(",", ":")).encode()


def reply_messages(msg_id: int | str, text: str, is_error: bool) -> list[dict]:
    """The ASGI messages of the SDK's reply to a tool call: the same JSON, byte for byte."""
    return json_reply(200, result_body(msg_id, {"content": [{"text": text, "type": "text"}], "isError": is_error}))
