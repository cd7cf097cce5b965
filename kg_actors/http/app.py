"""The memory server's ASGI app: one security gate, then routing.

`/health` and `/api/*` go to the REST routes, `/ws` to the change feed, and
`/` to the MCP Streamable HTTP transport (stateless, JSON responses). Every
route passes the loopback gate first.
"""

from __future__ import annotations

import json

import trio

from ..lanes import Lanes
from . import security


async def _plain(send, status: int, message: str) -> None:
    await _json(send, status, {"error": message})


MAX_BODY = 4 * 1024 * 1024
HOOK_PATHS = frozenset({"/api/prompt_context", "/api/pre_tool", "/api/tool_event", "/api/session_bootstrap"})


async def _read_body(receive) -> bytes:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            break
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _replay(body: bytes):
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def rpc_problem(body: bytes) -> dict | None:
    """A JSON-RPC error naming what is wrong with a request the SDK would answer vaguely."""
    try:
        message = json.loads(body)
    except ValueError as exc:
        return _rpc_error(None, -32700, f"Parse error: the body is not JSON ({exc})")
    if isinstance(message, dict) and message.get("method") == "tools/call":
        params = message.get("params")
        if not isinstance(params, dict):
            return _rpc_error(message.get("id"), -32602, "Invalid params: params: must be an object with name and arguments")
        if not isinstance(params.get("name"), str):
            return _rpc_error(message.get("id"), -32602, "Invalid params: params.name: is required (the tool's name)")
        if "arguments" in params and not isinstance(params["arguments"], dict | type(None)):
            return _rpc_error(message.get("id"), -32602, "Invalid params: params.arguments: must be an object")
    return None


def _rpc_error(msg_id, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


async def _json(send, status: int, payload: dict) -> None:
    body = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class App:
    """The security gate and the router; MCP requests wait until the SDK is loaded."""

    def __init__(self, rest, lanes: Lanes, extra_hosts: frozenset[str] = frozenset()):
        self.rest = rest
        self.lanes = lanes
        self.mcp = None  # the MCP transport, once its (slow) import is done
        self._mcp_ready = trio.Event()
        self.extra_hosts = extra_hosts

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        refused = security.refusal(security.scope_headers(scope), self.extra_hosts)
        if refused is not None:
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _plain(send, *refused)
            return
        path = scope.get("path", "/")
        if path in HOOK_PATHS:
            with self.lanes.urgent():
                await self.rest(scope, receive, send)
        elif kind == "websocket" or path == "/health" or path.startswith("/api/"):
            await self.rest(scope, receive, send)
        elif path in ("/", "/mcp", "/mcp/"):
            if scope.get("method") == "POST":
                body = await _read_body(receive)
                problem = rpc_problem(body)
                if problem is not None:
                    await _json(send, 400, problem)
                    return
                receive = _replay(body)
            await self._mcp_ready.wait()
            await self.lanes.step_aside()
            async with self.lanes.bulk:
                await self.mcp.handle_request(scope, receive, self._stepping_aside(send))
        else:
            await _plain(send, 404, f"no route {path}")

    def _stepping_aside(self, send):
        """The SDK's reply waits for hook replies in flight, like its start did."""
        async def send_after_hooks(message) -> None:
            await self.lanes.step_aside()
            await send(message)
        return send_after_hooks

    def mcp_ready(self, manager) -> None:
        self.mcp = manager
        self._mcp_ready.set()
