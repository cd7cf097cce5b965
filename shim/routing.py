"""The stateless revision's routing headers (MCP 2026-07-28) for a message `kg mcp` forwards.

Over HTTP a request of the revision repeats its protocol version, its method and (for a call) its
tool's name in headers, which the server routes by (kg_actors/http/mcp_calls.py modern_message, and
the SDK, which refuses a request whose headers disagree with its body). A stdio client sends only the
body, with the version in `params._meta`: the shim adds the headers an HTTP client would have sent.
"""

from __future__ import annotations

import base64
import re

from .lines import mended_id

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each client's start
if TYPE_CHECKING:
    from typing import Any

VERSION_META = "io.modelcontextprotocol/protocolVersion"
# The body field each method's Mcp-Name repeats (the SDK's NAME_BEARING_METHODS).
NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
_SAFE = re.compile(r"[\x20-\x7e]*")
_SENTINEL = re.compile(r"=\?base64\?.*\?=")


def routing_headers(message: Any) -> dict[str, str]:
    """The revision's headers for `message`: none when it names no protocol version in `_meta` (every
    message of a client that opened with initialize), or names one no header can carry."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(VERSION_META) if isinstance(meta, dict) else None
    method = message.get("method") if isinstance(message, dict) else None
    if not isinstance(version, str) or not _SAFE.fullmatch(version) or not isinstance(method, str):
        return {}  # malformed: the server names the fault from the body
    headers = {"MCP-Protocol-Version": version, "Mcp-Method": header_value(method)}
    name = params.get(NAMED_BY.get(method, "")) if isinstance(params, dict) else None
    if isinstance(name, str):
        headers["Mcp-Name"] = header_value(name)
    return headers


def header_value(value: str) -> str:
    """`value` as the SDK writes a routing header: as it is when printable ASCII without edge spaces,
    else UTF-8 in a `=?base64?...?=` wrapper (which the server unwraps before comparing)."""
    if _SAFE.fullmatch(value) and value == value.strip() and not _SENTINEL.fullmatch(value):
        return value
    value = str(mended_id(value))  # half a character: as the server reads the body's, U+FFFD
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="
