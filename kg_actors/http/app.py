"""The memory server's ASGI app: one security gate, then routing.

`/health` and `/api/*` go to the REST routes, `/ws` to the change feed, and
`/` to the MCP Streamable HTTP transport (stateless, JSON responses). Every
route passes the loopback gate first.
"""

from __future__ import annotations

import json

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from . import security


async def _plain(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class App:
    def __init__(self, rest, mcp_manager: StreamableHTTPSessionManager, extra_hosts: frozenset[str] = frozenset()):
        self.rest = rest
        self.mcp = mcp_manager
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
        if kind == "websocket" or path == "/health" or path.startswith("/api/"):
            await self.rest(scope, receive, send)
        elif path in ("/", "/mcp", "/mcp/"):
            await self.mcp.handle_request(scope, receive, send)
        else:
            await _plain(send, 404, f"no route {path}")
