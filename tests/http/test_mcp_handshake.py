"""The handshake and tool list answered without the MCP SDK: the bytes are the SDK's own, for every
protocol version it takes, and whatever this server does not recognise exactly is left to the SDK."""

import json

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

from kg_actors.http import mcp_handshake
from kg_actors.http.app import _collect, _replay
from kg_actors.runtime import _build_mcp

JSON = [(b"content-type", b"application/json"), (b"accept", b"application/json, text/event-stream"),
        (b"host", b"127.0.0.1")]
CLIENT = {"name": "claude-code", "version": "2.1.0"}


def _scope(headers=JSON) -> dict:
    return {"type": "http", "method": "POST", "path": "/", "headers": list(headers), "query_string": b"",
            "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5555),
            "root_path": ""}


def _init(version: str, msg_id=1, capabilities=None, client=CLIENT) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": capabilities or {}, "clientInfo": client}}


async def _sdk(manager, scope: dict, body: bytes) -> list[dict]:
    out: list[dict] = []
    await manager.handle_request(scope, _replay(body), _collect(out))
    return [{**m, "status": int(m["status"])} if "status" in m else m for m in out]


REAL_CAPABILITIES = [{}, {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}},
                     {"elicitation": {"form": {}, "url": {}}}, {"experimental": {"x": {}}}]
REQUESTS = [
    *(_init(v) for v in (*HANDSHAKE_PROTOCOL_VERSIONS, "1999-01-01", "2026-07-28")),
    *(_init("2025-06-18", capabilities=c) for c in REAL_CAPABILITIES),
    _init("2025-06-18", msg_id="init-☃\n\x01", client={**CLIENT, "title": "Claude Code"}),
    _init("2025-11-25", msg_id=0, capabilities={"roots": {}, "elicitation": {}}, client={  # Claude Code 2.1's
        **CLIENT, "title": "Claude Code", "description": "Anthropic's agentic coding tool",
        "websiteUrl": "https://claude.com/claude-code"}),
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": "list-é", "method": "tools/list", "params": {}},
    {"jsonrpc": "2.0", "id": -3, "method": "tools/list", "params": {"cursor": "next"}},
    # What clients put beside: Codex 0.171 asks with a progress token, which changes nothing in the answer
    # (left to the SDK, its first one imported the SDK: over a second on a fresh server, past the shim's wait).
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"progressToken": 0}}},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": {}}},
    {"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": None, "cursor": None}},
    {"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {"_meta": {"progressToken": "t-1", "x/y": [1]},
                                                                   "cursor": "next"}},
]


async def test_every_answer_is_the_sdks_own_bytes_for_every_protocol_version():
    manager = _build_mcp(None, None)
    async with manager.run():
        for version in (None, *HANDSHAKE_PROTOCOL_VERSIONS):
            headers = JSON + ([(b"mcp-protocol-version", version.encode())] if version else [])
            for request in REQUESTS:
                body = json.dumps(request).encode()
                ours = mcp_handshake.answer(_scope(headers), body)
                assert ours is not None, request
                assert ours == await _sdk(manager, _scope(headers), body), (version, request)


def test_the_latest_version_is_the_sdks_and_unknown_ones_are_answered_with_it():
    assert mcp_handshake.LATEST_VERSION == LATEST_HANDSHAKE_VERSION
    result = json.loads(mcp_handshake.answer(_scope(), json.dumps(_init("1999-01-01")).encode())[1]["body"])
    assert result["result"]["protocolVersion"] == LATEST_HANDSHAKE_VERSION
    listed = json.loads(mcp_handshake.answer(_scope(), json.dumps(REQUESTS[-1]).encode())[1]["body"])
    assert [t["name"] for t in listed["result"]["tools"]][:2] == ["kg_read", "kg_search"]


@pytest.mark.parametrize("request_", [
    _init("2025-06-18", capabilities={"roots": {"listChanged": "yes"}}),  # the SDK reads "yes" as true
    _init("2025-06-18", capabilities={"sampling": {"tools": 5}}),  # the SDK refuses this one
    _init("2025-06-18", capabilities={"roots": 5}), _init(5), _init("2025-06-18", client={"name": "x"}),
    _init("2025-06-18", client={"name": "x", "version": 1}), _init("2025-06-18", msg_id=True),
    _init("2025-06-18", client={**CLIENT, "icons": [{"src": "https://x/i.png"}]}),
    _init("2025-06-18", msg_id=None), _init("2025-06-18", msg_id=1.5), _init("2025-06-18", msg_id="\ud800"),
    {**_init("2025-06-18"), "params": {**_init("2025-06-18")["params"], "_meta": {"progressToken": 1}}},
    {"jsonrpc": "2.0", "id": 1, "method": "initialize"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": 3}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": 5}},  # the SDK refuses these three
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"progressToken": 1.5}}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"progressToken": None}}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"other": 1}},  # no client sends it: left as is
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28"}}},  # the revision's: the SDK weighs it
    {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": {}}},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
    {"jsonrpc": "2.0", "id": 3, "method": "ping"}, {"jsonrpc": "2.0", "id": 3, "method": "resources/list"},
    {"jsonrpc": "1.0", "id": 2, "method": "tools/list"}, [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}],
])
def test_anything_unusual_is_left_to_the_sdk(request_):
    assert mcp_handshake.answer(_scope(), json.dumps(request_).encode()) is None


@pytest.mark.parametrize("headers", [
    [(b"content-type", b"application/json")],  # no Accept: the SDK answers 406
    [(b"content-type", b"text/plain"), (b"accept", b"application/json")],
    [*JSON, (b"mcp-protocol-version", b"2026-07-28")],  # the SDK's modern entry
])
def test_headers_the_sdk_would_refuse_or_route_elsewhere_are_left_to_it(headers):
    assert mcp_handshake.answer(_scope(headers), json.dumps(REQUESTS[-1]).encode()) is None


@pytest.mark.parametrize("request_", [r for r in REQUESTS if r.get("method") == "tools/list"])
def test_kg_mcp_answers_every_tool_list_the_server_answers_itself_with_the_same_tools(request_):
    # Codex's `_meta` was not: with the server down, starting or hung, Codex got an error for its one tools/list
    # and listed no kg tool for the whole session.
    from shim import handshake
    own = handshake.own_reply(request_)
    assert own is not None, request_
    served = json.loads(mcp_handshake.answer(_scope(), json.dumps(request_).encode())[1]["body"])
    assert json.loads(json.dumps(own)) == served


@pytest.mark.parametrize("params", [{"_meta": 5}, {"_meta": {"progressToken": 1.5}}, {"cursor": 3}])
def test_kg_mcp_leaves_a_tool_list_the_server_would_refuse_to_it(params):
    from shim import handshake
    assert handshake.own_reply({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}) is None
