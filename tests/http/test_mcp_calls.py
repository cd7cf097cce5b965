"""Plain tool calls answered without the MCP SDK: which requests qualify, and that the reply is the SDK's."""

import json

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from kg_actors.http import mcp_calls

JSON = [(b"content-type", b"application/json"), (b"accept", b"application/json, text/event-stream")]


def _scope(headers=JSON, method="POST") -> dict:
    return {"type": "http", "method": method, "path": "/", "headers": list(headers)}


def _body(**fields) -> bytes:
    message = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "kg_search", "arguments": {"query": "trio"}}}
    message.update(fields)
    return json.dumps(message).encode()


def test_a_plain_tool_call_is_answered_here():
    call = mcp_calls.plain_call(_scope(), _body())
    assert call == mcp_calls.PlainCall(7, "kg_search", {"query": "trio"})
    no_args = mcp_calls.plain_call(_scope(), _body(id="s-1", params={"name": "kg_sync"}))
    assert no_args == mcp_calls.PlainCall("s-1", "kg_sync", {})


@pytest.mark.parametrize("body", [
    _body(method="initialize"), _body(method="tools/list"), _body(id=None), _body(id=True),
    _body(params={"name": "kg_search", "arguments": {"query": "x"}, "_meta": {"progressToken": 1}}),
    _body(params={"name": "kg_search", "arguments": ["x"]}), _body(params={"name": 3}), _body(params=[]),
    _body(jsonrpc="1.0"), _body(extra=1), b"[" + _body() + b"]", b"{not json", json.dumps({"jsonrpc": "2.0",
    "method": "notifications/initialized"}).encode(),
])
def test_anything_but_a_plain_call_goes_to_the_sdk(body):
    assert mcp_calls.plain_call(_scope(), body) is None


@pytest.mark.parametrize("headers", [
    [(b"content-type", b"application/json")],  # no Accept: the SDK answers 406
    [(b"content-type", b"application/json"), (b"accept", b"text/event-stream")],
    [(b"content-type", b"text/plain"), (b"accept", b"application/json")],
    [*JSON, (b"mcp-protocol-version", b"2026-07-28")],  # the revision with no `_meta`: the SDK says what is wrong
    [*JSON, (b"mcp-protocol-version", b"bogus")],
])
def test_headers_the_sdk_would_refuse_or_route_elsewhere_go_to_it(headers):
    assert mcp_calls.plain_call(_scope(headers), _body()) is None


def test_accepted_headers_include_wildcards_and_known_protocol_versions():
    for accept in (b"*/*", b"application/*", b"application/json; q=0.9"):
        headers = [(b"content-type", b"application/json; charset=utf-8"), (b"accept", accept),
                   (b"mcp-protocol-version", b"2025-06-18")]
        assert mcp_calls.plain_call(_scope(headers), _body()) is not None


def test_the_protocol_versions_are_the_ones_the_sdk_takes_on_its_stateless_path():
    assert mcp_calls.PROTOCOL_VERSIONS == frozenset(HANDSHAKE_PROTOCOL_VERSIONS)


def test_the_reply_holds_the_text_and_the_error_flag_as_the_sdk_words_them():
    start, body = mcp_calls.reply_messages("a-1", "Saved — ok\n\"quoted\" ☃", True)
    assert json.loads(body["body"]) == {"jsonrpc": "2.0", "id": "a-1", "result": {
        "content": [{"type": "text", "text": "Saved — ok\n\"quoted\" ☃"}], "isError": True}}
    assert "☃".encode() in body["body"]  # raw UTF-8, as pydantic writes it
    assert dict(start["headers"])[b"content-type"] == b"application/json"
    assert int(dict(start["headers"])[b"content-length"]) == len(body["body"])
    # (tests/e2e/test_warm_start.py compares the bytes with the SDK's own reply on a live server)
