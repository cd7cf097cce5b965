"""What is wrong with a JSON-RPC message the MCP SDK would answer vaguely, said as one error naming it.

The SDK validates a message against the union of request, notification, response and error, and
answers a message that fits none with pydantic's dump of every branch that failed; some it takes
for a notification and answers nothing at all (HTTP 202). Each fault here gets one JSON-RPC error
naming the field and the rule. Pure: the body in, the error (or None) out.
"""

from __future__ import annotations

import json
from typing import Any

from .rpc_params import params_problem


def rpc_error(msg_id: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _invalid(msg_id: object, why: str) -> dict[str, Any]:
    return rpc_error(msg_id, -32600, f"Invalid Request: {why}")


def _usable_id(value: object) -> bool:
    """A string or an integer (JSON-RPC allows a number; the SDK takes integers only, and 1.5 went
    unanswered as if a notification)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def rpc_problem(body: bytes) -> dict[str, Any] | None:
    """A JSON-RPC error naming what is wrong with a request the SDK would answer vaguely."""
    try:
        message = json.loads(body)
    except ValueError as exc:
        return rpc_error(None, -32700, f"Parse error: the body is not JSON ({exc})")
    except RecursionError:
        return rpc_error(None, -32700, "Parse error: the body is nested too deeply to read")
    if isinstance(message, list):  # a batch in a batch (http/batch.py takes a batch): the SDK dumped its validation
        return _invalid(None, "a batch (a JSON array) inside a batch is not taken: a batch holds messages")
    if not isinstance(message, dict):
        return _invalid(None, "a message must be a JSON object")
    has_id = "id" in message
    msg_id = message.get("id")
    if has_id and not _usable_id(msg_id):
        # A request whose id is null, a fraction, true or an object was taken for a notification.
        return _invalid(None, "id: must be a string or an integer (omit it for a notification)")
    if message.get("jsonrpc") != "2.0":
        return _invalid(msg_id, 'jsonrpc: must be "2.0"')
    if "method" not in message:
        return _response_problem(message, msg_id, has_id)
    if not isinstance(message["method"], str):
        return _invalid(msg_id, "method: must be a string")
    problem = params_problem(message)
    return None if problem is None else rpc_error(msg_id, -32602, f"Invalid params: {problem}")


def _response_problem(message: dict[str, Any], msg_id: object, has_id: bool) -> dict[str, Any] | None:
    """A message without a method is a client's response to the server: an id and a result or an error."""
    if not has_id:
        return _invalid(None, "method: is required (a request or notification names its method)")
    if "result" in message:
        return None if isinstance(message["result"], dict) else _invalid(msg_id, "result: must be an object")
    if "error" in message:
        error = message["error"]
        if isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str):
            return None
        return _invalid(msg_id, "error: must be an object with an integer code and a message")
    return _invalid(msg_id, "method: is required (a message with an id and no result or error is a request)")
