"""Every reply of the memory server (REST, hooks, MCP, refusals) tells a browser not to sniff it or frame it:
the editor's page had these headers, the API and MCP replies on either port did not. The editor port hands
its API paths to the same app (editor/server.py), so this app's replies are those of both ports."""

from __future__ import annotations

import json

from inprocess import exchange, serve_inprocess

WANTED = {b"x-content-type-options": b"nosniff", b"x-frame-options": b"DENY",
          b"content-security-policy": b"frame-ancestors 'none'"}


async def _headers(rt, method: str, path: str, body: bytes = b"", origin: bytes | None = None) -> dict[bytes, bytes]:
    sent = await exchange(rt, method, path, body, hang_up=True,
                          headers=[(b"origin", origin)] if origin is not None else [])
    start = next(m for m in sent if m["type"] == "http.response.start")
    return dict(start["headers"])


MCP_LIST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()


CASES = [
    ("GET", "/health", b"", None),
    ("GET", "/api/maintenance_debt", b"", None),
    ("POST", "/", MCP_LIST, None),
    ("POST", "/", b"not json", None),
    ("GET", "/api/maintenance_debt", b"", b"https://evil.example"),  # refused
    ("GET", "/nowhere", b"", None),
]


async def test_every_reply_carries_the_hardening_headers(tmp_path, home):
    async with serve_inprocess(tmp_path / "store") as rt:
        for method, path, body, origin in CASES:
            got = await _headers(rt, method, path, body, origin)
            for name, value in WANTED.items():
                assert got.get(name) == value, (method, path, origin, name, got)
