"""A maintenance run's kg calls, as the MCP layer tells the chore supervisor: the mark on the URL, the tool,
and whether the reply says it wrote (for the calls the SDK answers too: a JSON-RPC body, a JSON reply)."""

import json

import trio

from kg_actors.http import run_calls
from kg_actors.http.mcp_calls import PlainCall, json_reply, reply_messages


class Door:
    def __init__(self):
        self.told = []

    async def run_called(self, mark, tool, wrote):
        self.told.append((mark, tool, wrote))


def _body(name, arguments, meta=True):
    params = {"name": name, "arguments": arguments, **({"_meta": {"progressToken": 1}} if meta else {})}
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}).encode()


def test_the_mark_is_read_from_the_query_string_only():
    assert run_calls.run_mark({"query_string": b"kg_run=abc123"}) == "abc123"
    assert run_calls.run_mark({"query_string": b""}) is None and run_calls.run_mark({}) is None
    assert run_calls.run_mark({"query_string": b"other=1"}) is None
    assert run_calls.run_mark({"query_string": b"kg_run=" + b"x" * 65}) is None


def test_calls_are_told_with_whether_they_wrote():
    door = Door()

    async def main():
        ok = reply_messages(7, "Saved.", False)
        refused = reply_messages(7, "Error: no such session", True)
        await run_calls.tell(door, "m", None, _body("kg_put_node", {"id": "a"}), ok)  # an SDK-answered call
        await run_calls.tell(door, "m", None, _body("kg_put_node", {"id": "a"}), refused)
        await run_calls.tell(door, "m", PlainCall(7, "kg_read", {}), b"", ok)
        await run_calls.tell(door, "m", None, _body("kg_progress", {"task_id": "t", "state": {}}, False), ok)
        rpc_error = json_reply(200, json.dumps({"jsonrpc": "2.0", "id": 7, "error": {"code": -1}}).encode())
        await run_calls.tell(door, "m", None, _body("kg_put_edge", {}), rpc_error)
        tools_list = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
        await run_calls.tell(door, "m", None, tools_list, ok)  # no kg call: not told

    trio.run(main)
    assert door.told == [("m", "kg_put_node", True), ("m", "kg_put_node", False), ("m", "kg_read", False),
                         ("m", "kg_progress", True), ("m", "kg_put_edge", False)]
