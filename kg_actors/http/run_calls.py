"""A maintenance run's kg calls, told to the chore supervisor so that its outcome can say what the run did.

A run's MCP URL carries its mark (`?kg_run=...`, chores/runners.py); every tool call on such a URL is told,
with whether it wrote, before its reply is sent: the agent can only exit after its last reply, so the
supervisor counts every call before it logs the run's end. Requests without a mark (every session's)
pay one look at the query string.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from ..chores.messages import ChoreHandle
from ..chores.runners import RUN_PARAM
from ..core import chore_outcome
from .mcp_calls import Message, PlainCall

MARK_MAX = 64  # a mark is 22 characters: anything longer is no mark of ours


def run_mark(scope: dict[str, Any]) -> str | None:
    query = scope.get("query_string") or b""
    if not query:
        return None
    values = parse_qs(query.decode("latin-1")).get(RUN_PARAM) or [""]
    mark = values[0]
    return mark if 0 < len(mark) <= MARK_MAX else None


def _sdk_call(body: bytes) -> tuple[str, dict[str, Any]] | None:
    """The tool and arguments of a call the SDK answered (one not plain enough for mcp_calls.py)."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return None
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("name"), str):
        return None
    arguments = params.get("arguments")
    return params["name"], arguments if isinstance(arguments, dict) else {}


def _answered_in_error(reply: list[Message]) -> bool:
    """Whether the reply is a JSON-RPC error or a tool error (a refused write wrote nothing)."""
    start = next((m for m in reply if m.get("type") == "http.response.start"), None)
    if start is None or start.get("status") != 200:
        return True
    body = b"".join(m.get("body", b"") for m in reply if m.get("type") == "http.response.body")
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return True
    result = payload.get("result") if isinstance(payload, dict) else None
    return not isinstance(result, dict) or result.get("isError") is True


async def tell(chores: ChoreHandle, mark: str, call: PlainCall | None, body: bytes, reply: list[Message]) -> None:
    named = (call.name, call.arguments) if call is not None else _sdk_call(body)
    if named is None:
        return  # the handshake or the tool list: no kg call
    tool, arguments = named
    await chores.run_called(mark, tool, chore_outcome.wrote(tool, arguments, _answered_in_error(reply)))
