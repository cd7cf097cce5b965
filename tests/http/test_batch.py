"""A batch's messages, each as its own body, and its replies as one."""

import json

from kg_actors.http import batch, mcp_calls


def _scope(version: str | None = None) -> dict:
    headers = [(b"content-type", b"application/json")]
    return {"headers": headers + ([(b"mcp-protocol-version", version.encode())] if version else [])}


def test_a_batch_is_split_for_2025_03_26_and_refused_naming_the_version_after_it():
    body = json.dumps([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, 5]).encode()
    assert batch.items(_scope(), body) == [b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}', b"5"]
    assert batch.items(_scope("2025-03-26"), body) == batch.items(_scope(), body)
    refused = batch.items(_scope("2025-11-25"), body)
    assert isinstance(refused, dict) and "2025-11-25" in refused["error"]["message"]
    assert batch.items(_scope(), b'{"jsonrpc": "2.0"}') is None and batch.items(_scope(), b"[1,") is None
    assert "empty batch" in batch.items(_scope(), b" []")["error"]["message"]
    assert f"at most {batch.BATCH_MAX}" in batch.items(_scope(), b"[" + b",".join([b"1"] * 101) + b"]")["error"]["message"]


def test_the_replies_are_one_array_in_order_and_none_is_202():
    one = mcp_calls.json_reply(200, b'{"jsonrpc":"2.0","id":1,"result":{}}')
    none = mcp_calls.json_reply(202, b"")
    two = mcp_calls.json_reply(400, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}')
    start, body = batch.reply([one, none, two])
    assert start["status"] == 200 and [m["id"] for m in json.loads(body["body"])] == [1, None]
    assert batch.reply([none, none])[0]["status"] == 202
