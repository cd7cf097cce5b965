"""The protocol's stateless revision (2026-07-28) answered without the MCP SDK: discovery and the tool list are
the SDK's own bytes, and whatever is not exactly what such a client sends is left to the SDK."""

import json

import pytest

from kg_actors.http import mcp_calls, mcp_handshake
from kg_actors.http.app import _collect, _replay
from kg_actors.runtime import _build_mcp

V = mcp_calls.MODERN_VERSION
M = "io.modelcontextprotocol/"
META = {M + "protocolVersion": V, M + "clientInfo": {"name": "mcp", "version": "0.1.0"}, M + "clientCapabilities": {}}


def _headers(method: str, name: str | None = None, version: str = V) -> list[tuple[bytes, bytes]]:
    out = [(b"content-type", b"application/json"), (b"accept", b"application/json, text/event-stream"),
           (b"host", b"127.0.0.1"), (b"mcp-protocol-version", version.encode()), (b"mcp-method", method.encode())]
    return out + ([(b"mcp-name", name.encode())] if name is not None else [])


def _scope(headers) -> dict:
    return {"type": "http", "method": "POST", "path": "/", "headers": list(headers), "query_string": b"",
            "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5555),
            "root_path": ""}


def _request(method: str, msg_id=1, meta=None, **params) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": {**params, "_meta": META if meta is None else meta}}


async def _sdk(manager, scope: dict, body: bytes) -> list[dict]:
    out: list[dict] = []
    await manager.handle_request(scope, _replay(body), _collect(out))
    return [{**m, "status": int(m["status"])} if "status" in m else m for m in out]


CLIENTS = [META, {**META, M + "clientInfo": {"name": "claude-code", "version": "3.0.0", "title": "Claude Code"}},
           {**META, M + "clientCapabilities": {"roots": {"listChanged": True}, "elicitation": {"form": {}}}}]


async def test_discovery_and_the_tool_list_are_the_sdks_own_bytes():
    manager = _build_mcp(None, None)
    async with manager.run():
        for meta in CLIENTS:
            for method, msg_id, params in [("server/discover", 1, {}), ("tools/list", "list-é", {}),
                                           ("tools/list", -3, {"cursor": "next"})]:
                body = json.dumps(_request(method, msg_id, meta, **params)).encode()
                ours = mcp_handshake.answer(_scope(_headers(method)), body)
                assert ours is not None, (method, meta)
                assert ours == await _sdk(manager, _scope(_headers(method)), body), (method, meta)


def test_a_modern_tool_call_is_answered_here_and_its_reply_carries_the_revision_s_fields():
    body = json.dumps(_request("tools/call", 3, name="kg_search", arguments={"query": "trio"})).encode()
    call = mcp_calls.plain_call(_scope(_headers("tools/call", "kg_search")), body)
    assert call == mcp_calls.PlainCall(3, "kg_search", {"query": "trio"}, modern=True)
    reply = json.loads(mcp_calls.reply_messages(3, "found", False, modern=True)[1]["body"])
    assert reply["result"] == {"content": [{"text": "found", "type": "text"}], "isError": False,
                               "resultType": "complete", "_meta": {M + "serverInfo": mcp_calls.server_info()}}


@pytest.mark.parametrize("headers, request_", [
    (_headers("tools/list"), _request("tools/list", meta={**META, M + "protocolVersion": "2025-06-18"})),
    (_headers("tools/list", version="2025-06-18"), _request("tools/list")),  # the header and the body disagree
    (_headers("tools/call"), _request("tools/list")),  # the method header names another method
    (_headers("tools/call", "kg_read"), _request("tools/call", name="kg_search", arguments={})),  # another tool
    (_headers("tools/call"), _request("tools/call", name="kg_search", arguments={})),  # no tool header
    (_headers("tools/list"), _request("tools/list", meta={**META, "progressToken": 1})),
    (_headers("tools/list"), _request("tools/list", meta={k: v for k, v in META.items() if "Capab" not in k})),
    (_headers("tools/list"), _request("tools/list", meta={**META, M + "clientInfo": {"name": "x"}})),
    (_headers("tools/list"), _request("tools/list", meta={**META, M + "clientCapabilities": {"roots": 5}})),
    (_headers("server/discover"), _request("server/discover", extra=1)),
    (_headers("initialize"), _request("initialize")),
])
def test_anything_but_exactly_what_a_modern_client_sends_goes_to_the_sdk(headers, request_):
    body = json.dumps(request_).encode()
    assert mcp_handshake.answer(_scope(headers), body) is None
    assert mcp_calls.plain_call(_scope(headers), body) is None


def test_the_revision_is_the_sdks_only_modern_one():
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS
    assert MODERN_PROTOCOL_VERSIONS == (V,)


async def test_a_modern_tool_call_s_reply_is_the_sdks_own_bytes():
    """The SDK answers an unknown tool without a floor behind it: given its text, this module's reply (the
    revision's fields, its escaping, the headers) is the same bytes, for ids of every kind."""
    manager = _build_mcp(None, None)
    async with manager.run():
        for msg_id in (3, "call-é☃", -1):
            body = json.dumps(_request("tools/call", msg_id, name="kg_nope", arguments={})).encode()
            scope = _scope(_headers("tools/call", "kg_nope"))
            call = mcp_calls.plain_call(scope, body)
            assert call is not None and call.modern
            sdk = await _sdk(manager, scope, body)
            text = json.loads(sdk[1]["body"])["result"]["content"][0]["text"]
            assert mcp_calls.reply_messages(call.msg_id, text + " — ☃", True, True)[1]["body"].isascii()
            assert mcp_calls.reply_messages(call.msg_id, text, True, call.modern) == sdk, msg_id
