"""JSON-RPC batches over /mcp, for the protocol version that has them.

MCP 2025-03-26 lets a POST carry an array of messages, which a server must take; 2025-06-18 dropped
batches. A 2025-03-26 client sends no MCP-Protocol-Version header (the header came with 2025-06-18),
so a batch is taken when the header is absent or names a version with batches, and refused, naming
the rule, when it names a later one. Each message is answered as if posted alone (http/app.py) and
their replies go back as one array, in the batch's order; a batch of only notifications and
responses gets 202 and no body, as one of them alone does.
"""

from __future__ import annotations

import json
from typing import Any

from .mcp_calls import Message, json_reply
from .rpc_checks import rpc_error
from .security import scope_headers

BATCH_VERSIONS = frozenset({"2024-11-05", "2025-03-26"})
BATCH_MAX = 100  # messages in one batch: each waits its own turn, and a client must not hold the server with one


def items(scope: dict[str, Any], body: bytes) -> list[bytes] | dict[str, Any] | None:
    """The messages of a batch, each as its own body; the error refusing the batch whole; or None when the
    body is no JSON array (read as one message)."""
    if body.lstrip()[:1] != b"[":
        return None
    try:
        messages = json.loads(body)
    except (ValueError, RecursionError):
        return None  # the parse error is said as for any body
    if not isinstance(messages, list):
        return None
    version = scope_headers(scope).get("mcp-protocol-version")
    if version is not None and version not in BATCH_VERSIONS:
        return _invalid(f"a batch (a JSON array) is not taken in protocol version {version[:64]} (batches ended "
                        "with 2025-03-26): send one JSON-RPC message per request")
    if not messages:
        return _invalid("an empty batch (a batch holds at least one message)")
    if len(messages) > BATCH_MAX:
        return _invalid(f"a batch of {len(messages)} messages: at most {BATCH_MAX} are taken in one")
    return [json.dumps(message).encode() for message in messages]


def _invalid(why: str) -> dict[str, Any]:
    return rpc_error(None, -32600, f"Invalid Request: {why}")


def reply(answers: list[list[Message]]) -> list[Message]:
    """One reply for the batch from the ASGI messages each of its messages was answered with."""
    replies = []
    for answer in answers:
        body = b"".join(m.get("body", b"") for m in answer if m.get("type") == "http.response.body")
        if body.strip():
            replies.append(json.loads(body))
    if not replies:
        return json_reply(202, b"")
    return json_reply(200, json.dumps(replies, ensure_ascii=False, separators=(",", ":")).encode())
