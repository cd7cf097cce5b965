"""Params the MCP SDK refuses with only "Invalid request parameters" are refused here naming the field and
the rule; params it takes pass untouched (each checked against the SDK itself)."""

import json
import sys
from pathlib import Path

import pytest

from kg_actors.http.rpc_checks import rpc_problem
from kg_actors.runtime import _build_mcp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mcp_handshake import _scope, _sdk  # noqa: E402

INFO = {"name": "t", "version": "1"}
P = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": INFO}


def _init(**params) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {k: v for k, v in {**P, **params}.items() if v is not ...}}


def _call(**params) -> dict:
    return {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "kg_nope", "arguments": {"query": "x"}, **params}}


REFUSED = [
    (_init(clientInfo=...), "params.clientInfo: is required"),
    (_init(capabilities=...), "params.capabilities: is required"),
    (_init(clientInfo={"name": "t"}), "params.clientInfo.version: is required"),
    (_init(clientInfo={"version": "1"}), "params.clientInfo.name: is required"),
    (_init(clientInfo={"name": 5, "version": "1"}), "params.clientInfo.name: must be a string"),
    (_init(clientInfo="x"), "params.clientInfo: must be an object"),
    (_init(clientInfo={**INFO, "title": 5}), "params.clientInfo.title: must be a string"),
    (_init(clientInfo={**INFO, "icons": 5}), "params.clientInfo.icons: must be an array"),
    (_init(capabilities=5), "params.capabilities: must be an object"),
    (_init(capabilities={"roots": 5}), "params.capabilities.roots: must be an object"),
    (_init(capabilities={"sampling": {"tools": 5}}), "params.capabilities.sampling.tools: must be an object"),
    (_init(capabilities={"experimental": {"x": 5}}), "params.capabilities.experimental.x: must be an object"),
    (_init(capabilities={"roots": {"listChanged": [1]}}), "params.capabilities.roots.listChanged: must be true or"),
    (_init(_meta="oops"), "params._meta: must be an object"),
    (_init(_meta={"progressToken": 1.5}), "params._meta.progressToken: must be a string or a whole number"),
    (_init(_meta={"progressToken": 1e19}), "params._meta.progressToken: must be a string or a whole number"),
    (_init(capabilities={"sampling": {"context": 5}}), "params.capabilities.sampling.context: must be an object"),
    (_init(capabilities={"elicitation": {"form": True}}), "params.capabilities.elicitation.form: must be an object"),
    (_init(capabilities={"elicitation": {"url": 5}}), "params.capabilities.elicitation.url: must be an object"),
    ({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"cursor": 5}}, "params.cursor: must be a string"),
    ({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": 5}}, "params._meta: must be an object"),
    (_call(_meta="oops"), "params._meta: must be an object"),
    (_call(_meta={"progressToken": [1]}), "params._meta.progressToken: must be a string or a whole number"),
    ({"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"_meta": "x"}}, "params._meta: must be an object"),
]
TAKEN = [
    _init(), _init(capabilities={"foo": 5}), _init(capabilities={"roots": {"listChanged": "yes"}}),
    _init(capabilities={"roots": {"listChanged": True}, "sampling": {}, "elicitation": {"form": {}, "url": {}}}),
    _init(clientInfo={**INFO, "title": "T", "icons": []}), _init(_meta={"progressToken": "p"}),
    {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"cursor": "next", "_meta": {}}},
    {"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"_meta": {"progressToken": 3}}},
    # Capabilities are no closed set (MCP): members the SDKs do not model are taken as they are, and a
    # progress token is any JSON number the SDKs read as an integer (1.0 is one in JSON, JavaScript and pydantic).
    _init(capabilities={"sampling": {"foo": True}}), _init(capabilities={"elicitation": {"applyDefaults": True}}),
    _init(capabilities={"sampling": {"context": {}, "tools": {}, "x": [1]}, "elicitation": {"form": {}, "y": 2}}),
    _init(_meta={"progressToken": 1.0}), _init(_meta={"progressToken": -2e3}),
    {"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"_meta": {"progressToken": 7.0}}},
]


@pytest.mark.parametrize("message, named", REFUSED, ids=[f"refused{i}" for i in range(len(REFUSED))])
def test_a_fault_the_sdk_says_vaguely_is_named(message, named):
    problem = rpc_problem(json.dumps(message).encode())
    assert problem is not None and problem["id"] == message["id"], problem
    assert problem["error"]["code"] == -32602 and problem["error"]["message"].startswith(f"Invalid params: {named}")


@pytest.mark.parametrize("message", TAKEN, ids=[f"taken{i}" for i in range(len(TAKEN))])
def test_params_the_sdk_takes_pass(message):
    assert rpc_problem(json.dumps(message).encode()) is None


async def test_each_named_fault_is_one_the_sdk_refuses_and_each_passed_one_it_takes():
    manager = _build_mcp(None, None)
    async with manager.run():
        for message, _ in REFUSED:
            reply = json.loads((await _sdk(manager, _scope(), json.dumps(message).encode()))[-1]["body"])
            assert reply.get("error", {}).get("code") == -32602, (message, reply)
        for message in TAKEN:
            reply = json.loads((await _sdk(manager, _scope(), json.dumps(message).encode()))[-1]["body"])
            assert "result" in reply, (message, reply)
