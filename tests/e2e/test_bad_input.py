"""Bad input gets a clear error naming what is wrong; the server keeps serving; the store is untouched.

Each case is sent to a real `kg serve`, either as a raw HTTP POST (malformed
JSON-RPC) or as a tool call through the MCP SDK client. Before and after it,
every file of the store is compared byte for byte, and a valid call must still
work.
"""

from __future__ import annotations

import json

import httpx
import trio
import pytest
from mcp import Client, MCPError

from e2e_helpers import Session, call, graph, store_files, start_server, wait_until

MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
SID = "{sid}"  # replaced by the module session's id


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("bad"))
    yield server
    server.kill()


@pytest.fixture(scope="module")
def state(srv):
    return {}




@pytest.fixture
async def session(srv, state, client) -> Session:
    """One kg session for the module, with one node written, opened before any snapshot is taken."""
    if "sid" not in state:
        s = await Session.open(client, srv.project("bad-proj"))
        await s.ok("kg_put_node", level="project", id="existing-good-node", gist="a node that must not change",
                   notes=["kept"])
        state["sid"] = s.sid
    return Session(client, state["sid"])


async def _still_serves(srv, session: Session) -> None:
    text = await session.ok("kg_read", id="existing-good-node")
    assert "gist: a node that must not change" in text
    assert srv.health() is not None


def _fill(value, sid: str):
    if isinstance(value, str):
        return value.replace(SID, sid)
    if isinstance(value, dict):
        return {k: _fill(v, sid) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, sid) for v in value]
    return value


RAW = [
    (b"this is { not json", "Parse error"),
    (b"\xff\xfe\x00 not utf-8", "Parse error"),
    (b'{"foo": 1}', "jsonrpc"),
    (b"[]", "batch"),
    (b'{"jsonrpc": "2.0", "id": 7, "method": "tools/nope"}', "tools/nope"),
    (b'{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"arguments": {}}}', "params.name: is required"),
    # Present, of the wrong type: not "required".
    (b'{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": 7}}', "params.name: must be a string"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"jsonrpc": "2.0", "id": null, "method": "tools/list"}', "id: must be a string or an integer"),
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', "id: must be a string or an integer"),
    (b'{"jsonrpc": "2.0", "id": 12, "method": "initialize", "params": {"protocolVersion": null}}',
     "params.protocolVersion"),
    (b'{"jsonrpc": "2.0", "id": 10, "method": "tools/list", "params": {"pad": "' + b" " * (8 * 2**20) + b'"}}',
     "the body is over"),
]


# What the SDK answered with pydantic's dump of every message kind (or, for id 1.5, HTTP 202 and nothing).
UNION_DUMPS = [
    (b'{"id": 1, "method": "tools/list"}', 'jsonrpc: must be "2.0"'),
    (b'{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}', 'jsonrpc: must be "2.0"'),
    (b'{"jsonrpc": "2.0", "id": 1}', "method: is required"),
    (b'{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}', "id: must be a string or an integer"),
    (b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": []}', "params: must be an object"),
    (b'{"jsonrpc": "2.0", "id": 3, "error": "boom"}', "error: must be an object"),
    (b'{"jsonrpc": "2.0", "id": 4, "result": null}', "result: must be an object"),
]


# What the SDK answered with "Invalid request parameters" and empty data, naming no field (the audit's five).
VAGUE_PARAMS = [
    (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}',
     "params.clientInfo: is required"),
    (b'{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
     b'"clientInfo":{"name":"t","version":"1"}}}', "params.capabilities: is required"),
    (b'{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},'
     b'"clientInfo":{"name":"t"}}}', "params.clientInfo.version: is required"),
    (b'{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":5}}', "params.cursor: must be a string"),
    (b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"kg_search","arguments":{"query":"x"},'
     b'"_meta":"oops"}}', "params._meta: must be an object"),
]


# Params the MCP SDKs take (capabilities are no closed set; 1.0 is an integer in JSON): a client so shaped
# got 400 to its initialize and no kg tools at all.
SDK_TAKES = [
    {"capabilities": {"sampling": {"foo": True}}},
    {"capabilities": {"elicitation": {"applyDefaults": True}}},
    {"capabilities": {}, "_meta": {"progressToken": 1.0}},
]


@pytest.mark.parametrize("params", SDK_TAKES, ids=[f"takes{i}" for i in range(len(SDK_TAKES))])
async def test_an_initialize_the_sdk_takes_is_answered(srv, params):
    body = {"jsonrpc": "2.0", "id": 9, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "clientInfo": {"name": "t", "version": "1"}, **params}}
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/", json=body, headers=MCP_HEADERS)
    assert r.status_code == 200 and r.json()["result"]["serverInfo"]["name"] == "kg-memory", r.text


@pytest.mark.parametrize("body, named", VAGUE_PARAMS, ids=[f"params{i}" for i in range(len(VAGUE_PARAMS))])
async def test_params_the_sdk_refused_vaguely_get_an_error_naming_the_field_and_the_rule(srv, session, body, named):
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/", content=body, headers=MCP_HEADERS)
    error = r.json()["error"]
    assert r.json()["id"] == json.loads(body)["id"] and error["code"] == -32602, r.text
    assert error["message"].startswith(f"Invalid params: {named}"), error
    await _still_serves(srv, session)


BOM_BODIES = [  # the SDK's own path (ping, a call with _meta) refused them, the fast paths took them
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "kg_search", "arguments": {"query": "x"}}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
     "params": {"name": "kg_search", "arguments": {"query": "x"}, "_meta": {"progressToken": 1}}},
]


@pytest.mark.parametrize("message", BOM_BODIES, ids=[m["method"] + str(m["id"]) for m in BOM_BODIES])
async def test_a_body_after_a_utf8_bom_is_taken_for_every_method_and_utf16_refused_for_every_method(srv, session,
                                                                                                 message):
    async with httpx.AsyncClient(timeout=10) as http:
        bom = await http.post(srv.url + "/", content=b"\xef\xbb\xbf" + json.dumps(message).encode(),
                              headers=MCP_HEADERS)
        utf16 = await http.post(srv.url + "/", content=json.dumps(message).encode("utf-16"), headers=MCP_HEADERS)
    assert bom.status_code == 200 and bom.json()["id"] == message["id"] and "result" in bom.json(), bom.text
    assert utf16.json()["error"]["code"] == -32700, utf16.text
    assert "not UTF-8" in utf16.json()["error"]["message"] and "UTF-16" in utf16.json()["error"]["message"], utf16.text
    await _still_serves(srv, session)


@pytest.mark.parametrize("version", ["2025-03-26", None], ids=["2025-03-26", "no-version-header"])
async def test_a_batch_of_a_2025_03_26_client_gets_each_request_answered_in_one_array(srv, session, version):
    """MCP 2025-03-26 requires a server to take a batch (its clients send no version header: that came
    later); /mcp refused it whole, naming the rule."""
    headers = {**MCP_HEADERS, **({"MCP-Protocol-Version": version} if version else {})}
    batch = [{"jsonrpc": "2.0", "id": 2, "method": "ping"}, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": "four", "method": "tools/call",
              "params": {"name": "kg_read", "arguments": {"session_id": session.sid, "id": "existing-good-node"}}},
             {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": 7}}, 6]
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(srv.url + "/mcp", content=json.dumps(batch).encode(), headers=headers)
        only_notes = await http.post(srv.url + "/mcp", headers=headers, content=json.dumps(
            [{"jsonrpc": "2.0", "method": "notifications/initialized"}]).encode())
    assert r.status_code == 200 and isinstance(r.json(), list), r.text
    by_id = {m["id"]: m for m in r.json()}
    assert len(r.json()) == 5 and set(by_id) == {2, 3, "four", 5, None}, r.text  # one reply per request, in order
    assert [m["id"] for m in r.json()] == [2, 3, "four", 5, None]
    assert by_id[2]["result"] == {} and len(by_id[3]["result"]["tools"]) == 10
    assert "a node that must not change" in by_id["four"]["result"]["content"][0]["text"]
    assert "params.name: must be a string" in by_id[5]["error"]["message"]
    assert by_id[None]["error"]["code"] == -32600  # 6 is no message
    assert only_notes.status_code == 202 and only_notes.content == b""
    await _still_serves(srv, session)


async def test_a_batch_under_a_protocol_version_without_batches_is_refused_naming_the_rule(srv, session):
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/mcp", headers={**MCP_HEADERS, "MCP-Protocol-Version": "2025-06-18"},
                            content=b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]')
        empty = await http.post(srv.url + "/mcp", headers=MCP_HEADERS, content=b"[]")
    assert r.status_code == 400 and r.json()["error"]["code"] == -32600, r.text
    assert "2025-06-18" in r.json()["error"]["message"] and "one JSON-RPC message per request" in r.text, r.text
    assert empty.json()["error"]["code"] == -32600 and "empty batch" in empty.json()["error"]["message"]
    await _still_serves(srv, session)


@pytest.mark.parametrize("body, named", UNION_DUMPS, ids=[f"union{i}" for i in range(len(UNION_DUMPS))])
async def test_a_message_of_no_kind_gets_one_error_naming_its_fault(srv, session, body, named):
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/", content=body, headers=MCP_HEADERS)
    assert r.status_code == 400, (r.status_code, r.text)
    error = r.json()["error"]
    assert error["code"] in (-32600, -32602) and error["message"].count(":") <= 2, error
    assert named in error["message"] and "validation error" not in error["message"].lower(), error
    await _still_serves(srv, session)


@pytest.mark.parametrize("body, named", RAW, ids=[f"raw{i}" for i in range(len(RAW))])
async def test_malformed_jsonrpc_gets_a_jsonrpc_error(srv, session, body, named):
    before = store_files(srv.store)
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/", content=body, headers=MCP_HEADERS)
    assert 200 <= r.status_code < 500
    reply = r.json()
    assert reply["jsonrpc"] == "2.0" and "error" in reply and "result" not in reply
    assert isinstance(reply["error"]["code"], int) and reply["error"]["code"] < 0
    assert named.lower() in json.dumps(reply["error"]).lower(), reply
    assert store_files(srv.store) == before
    await _still_serves(srv, session)


async def test_a_tools_call_without_a_name_names_the_missing_field(srv, session):
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/", headers=MCP_HEADERS,
                            content=b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"arguments": {}}}')
    assert "name" in json.dumps(r.json()["error"])


TOOL_CASES = [
    # (tool, arguments, text that must appear: the field and what is wrong)
    ("kg_nope", {}, "unknown tool 'kg_nope'"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "x-y-z", "gist": "g", "notes": "a string"}, "notes:"),
    ("kg_put_node", {"session_id": SID, "level": "galaxy", "id": "x-y-z", "gist": "g"}, "level:"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": 42, "gist": "g"}, "id:"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "x-y-z"}, "gist: is required"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "x-y-z", "gist": "g", "colour": "red"},
     "colour: is not a parameter of kg_put_node"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "x" * 129, "gist": "g"},
     "id: has 129 characters; at most 128"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "huge-gist-node", "gist": "g" * 20_001},
     "gist: has 20,001 characters; at most 20,000"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "huge-note-node", "gist": "g",
                     "notes": ["n" * 20_001]}, "Input validation error: notes[0]: has 20,001 characters; at most 20,000"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "many-notes-node", "gist": "g",
                     "notes": ["n"] * 201}, "notes: has 201 items; at most 200"),
    # An empty or blank note says nothing: refused by its place, as an empty gist is (a blank one was stored).
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "blank-notes-node", "gist": "g",
                     "notes": ["", "  "]}, "Input validation error: notes[0]: is empty; at least 1 character"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "blank-notes-node", "gist": "g",
                     "notes": ["kept", " \t\n"]}, 'notes[1]: " \\t\\n" is blank; it needs a character other than a space'),
    ("kg_put_edge", {"session_id": SID, "level": "project", "from": "existing-good-node", "to": "src/app.py",
                     "rel": "relates-to", "notes": ["  "]}, 'notes[0]: "  " is blank'),
    # A long value is previewed; the rule is still said (jsonschema's message, cut to fit, lost it).
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "many-notes-node2", "gist": "g",
                     "notes": [f"n{i}" for i in range(201)]}, "notes: has 201 items; at most 200"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "many-touches-node", "gist": "g",
                     "touches": [f"src/f{i}.py" for i in range(201)]}, "touches: has 201 items; at most 200"),
    ("kg_read", {"session_id": SID, "ids": [f"node-{i}" for i in range(201)]}, "ids: has 201 items; at most 200"),
    # An empty id or list names no node: refused, never taken for a full read.
    ("kg_read", {"session_id": SID, "id": ""}, "id: is empty; at least 1 character"),
    ("kg_read", {"session_id": SID, "ids": []}, "ids: is empty; at least 1 item"),
    ("kg_read", {"session_id": SID, "ids": [""]}, "Input validation error: ids[0]: is empty; at least 1 character"),
    ("kg_read", {"session_id": SID, "ids": ["existing-good-node", ""]}, "ids[1]: is empty; at least 1 character"),
    ("kg_read", {"session_id": SID, "ids": [" "]},
     'Input validation error: ids[0]: " " is blank; it needs a character other than a space'),
    ("kg_read", {"session_id": SID, "id": " \t"}, 'id: " \\t" is blank'),
    ("kg_useful", {"session_id": SID, "ids": [f"node-{i}" for i in range(51)]}, "ids: has 51 items; at most 50"),
    ("kg_search", {"session_id": SID, "query": "q" * 4_001}, "query: has 4,001 characters; at most 4,000"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "existing-good-node", "gist": ""},
     "gist: must be a non-empty string"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "../../etc/passwd", "gist": "g"},
     "id: must not contain a path separator"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "dir\\evil-node", "gist": "g"},
     "id: must not contain a path separator"),
    ("kg_delete_node", {"session_id": SID, "id": "projects/bad-proj"}, "id: must not contain a path separator"),
    # An id no write takes may still name a node a hand edit left: looked up, and not echoed back whole.
    ("kg_delete_node", {"session_id": SID, "id": "a" * 5_000_000}, "(5,000,000 characters)' not found"),
    ("kg_rename_node", {"session_id": SID, "old_id": "a" * 5_000_000, "new_id": "b-c"}, "(5,000,000 characters)"),
    ("kg_rename_node", {"session_id": SID, "old_id": "existing-good-node", "new_id": "a/b"}, "new_id:"),
    ("kg_rename_node", {"session_id": SID, "old_id": "../existing-good-node", "new_id": "a-b-c"}, "old_id:"),
    ("kg_put_edge", {"session_id": SID, "level": "project", "from": "a b", "to": "c-d", "rel": "r"}, "from:"),
    ("kg_put_edge", {"session_id": SID, "level": "project", "from": "a-b", "to": "c-d", "rel": "depends on"}, "rel:"),
    ("kg_delete_edge", {"session_id": SID, "from": "a-b", "to": "c d", "rel": "r"}, "to:"),
    ("kg_useful", {"session_id": SID, "ids": []}, "ids:"),
    ("kg_useful", {"session_id": SID, "ids": ["existing-good-node"], "credits": "2"}, "credits:"),
    ("kg_useful", {"session_id": SID, "ids": ["existing-good-node"], "credits": 7}, "credits:"),
    ("kg_progress", {"session_id": SID, "task_id": "scout", "state": "done"}, "state:"),
    ("kg_progress", {"session_id": SID, "task_id": ""}, "task_id:"),
    ("kg_read", {"session_id": SID, "more": "yes"}, 'more: "yes" is not a boolean (true or false)'),
    # Said in JSON, the language of the call: null, not Python's None.
    ("kg_read", {"session_id": None}, "Input validation error: session_id: null is not a string"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "x-y-z", "gist": None}, "gist: null is not a string"),
    ("kg_put_node", {"session_id": SID, "level": "project", "id": "x-y-z", "gist": True}, "gist: true is not a string"),
    ("kg_put_node", {"session_id": SID, "level": "galaxy", "id": "x-y-z", "gist": "g"},
     'level: "galaxy" is not one of ["user", "project", "maintain"]'),
    ("kg_progress", {"session_id": SID, "task_id": "t-1", "state": None}, "state: null is not an object"),
    ("kg_read", {"session_id": SID, "ids": "existing-good-node"}, "ids:"),
    ("kg_read", {"more": True}, "session_id"),
    ("kg_read", {"session_id": "s" * 65}, "session_id:"),
    ("kg_read", {"cwd": "/etc"}, "cwd: '/etc' is outside the user's home"),
    ("kg_read", {"cwd": "relative/path"}, "cwd: 'relative/path' must be an absolute path"),
    ("kg_read", {"cwd": "~/../../etc"}, "cwd:"),
    ("kg_read", {"cwd": "/tmp/proj\x00x"}, "cwd: must not contain a NUL character"),
    ("kg_read", {"session_id": "ffffffff"}, "session_id 'ffffffff' is unknown"),
    ("kg_put_node", {"session_id": "ffffffff", "level": "user", "id": "x-y-z", "gist": "g"},
     "session_id 'ffffffff' is unknown"),
    ("kg_sync", {"session_id": "ffffffff"}, "session_id 'ffffffff' is unknown"),
    ("kg_useful", {"session_id": "ffffffff", "ids": ["existing-good-node"]}, "session_id 'ffffffff' is unknown"),
]


@pytest.mark.parametrize("tool, arguments, named", TOOL_CASES,
                         ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(TOOL_CASES)])
async def test_a_bad_tool_call_names_what_is_wrong_and_changes_nothing(srv, session, client, tool, arguments, named):
    before = store_files(srv.store)
    text, is_error = await call(client, tool, _fill(arguments, session.sid))
    assert is_error, f"{tool} accepted bad input: {text}"
    assert text.startswith(("Input validation error:", "Error:")), text
    assert named in text, text
    assert len(text) < 2_000, "an error names the problem; it does not echo a huge value back"
    assert store_files(srv.store) == before
    await _still_serves(srv, session)


@pytest.mark.parametrize("tool, arguments", [("kg_read", {"id": "a" * 5_000_000}), ("kg_useful", {"ids": ["a" * 5_000_000]})])
async def test_an_id_of_megabytes_is_named_by_its_start_and_length(srv, session, client, tool, arguments):
    text, _ = await call(client, tool, {"session_id": session.sid, **arguments})
    assert "(5,000,000 characters)" in text and len(text) < 2_000, text[:300]
    # kg_useful logs what it refused: written (the log is written after the reply) and no longer than the reply's.
    wait_until(lambda: srv.health()["logs_pending"] == 0, 20, "the logs written")
    useful = srv.store / "useful.jsonl"
    assert not useful.exists() or max(len(line) for line in useful.read_bytes().splitlines()) < 2_000


@pytest.mark.parametrize("headers, status", [
    ({"Host": "evil.example.com"}, 421),
    ({"Host": "localhost:80@evil.example.com"}, 421),  # no host of ours, whatever comes before the last colon
    ({"Origin": "https://evil.example.com"}, 403),
    ({"Sec-Fetch-Site": "cross-site"}, 403),
    ({"Origin": "http://127.0.0.1:3000"}, 403),  # a page on another port of this machine: another origin
    ({"Sec-Fetch-Site": "same-site"}, 403),
])
async def test_non_local_or_cross_site_requests_are_refused(srv, session, headers, status):
    before = store_files(srv.store)
    body = (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"kg_delete_node",'
            b'"arguments":{"session_id":"' + session.sid.encode() + b'","id":"existing-good-node"}}}')
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + "/", content=body, headers={**MCP_HEADERS, **headers})
    assert r.status_code == status and "error" in r.json()
    assert store_files(srv.store) == before
    await _still_serves(srv, session)


async def test_a_request_in_the_absolute_form_is_checked_by_its_authority(srv, session):
    """The absolute form (`POST http://host/path`) is served, its host standing for the Host header (RFC 9112)."""
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}'
    for authority, status in ((b"evil.example.com", b"421"), (b"127.0.0.1:%d" % srv.port, b"200")):
        stream = await trio.open_tcp_stream("127.0.0.1", srv.port)
        await stream.send_all(b"POST http://" + authority + b"/mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % srv.port
                              + b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                              + b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        reply = await stream.receive_some(65536)
        assert reply.startswith(b"HTTP/1.1 " + status), reply
        await stream.aclose()
    await _still_serves(srv, session)


SAFARI_15 = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             "Version/15.6 Safari/605.1.15")


@pytest.mark.parametrize("path", ["/api/session_bootstrap", "/api/graph/read"])
async def test_a_browser_get_that_would_change_state_is_refused(srv, session, tmp_path, path):
    # A browser without fetch metadata sends an <img>'s GET with neither Origin nor Sec-Fetch-Site.
    query = {"project_path": str(tmp_path)} if path.endswith("bootstrap") else {"reload": "true"}
    before = store_files(srv.store)
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.get(srv.url + path, params=query, headers={"User-Agent": SAFARI_15, "Accept": "image/*"})
        assert r.status_code == 403 and "changes state" in r.json()["error"]
        # The same through HEAD (served by the GET's handler) or with the parameter's name percent-encoded.
        r = await http.head(srv.url + path, params=query, headers={"User-Agent": SAFARI_15})
        assert r.status_code == 403
        encoded = f"project_path={tmp_path}" if path.endswith("bootstrap") else "%72eload=true"
        r = await http.get(f"{srv.url}{path}?{encoded}", headers={"User-Agent": SAFARI_15})
        assert r.status_code == 403
        assert store_files(srv.store) == before
        if path.endswith("bootstrap"):  # a bad folder is named by the parameter it came in
            r = await http.get(srv.url + path, params={"project_path": "/no\0path"},
                               headers={"User-Agent": "curl/8.14.1"})
            assert r.status_code == 400 and r.json()["field"] == "project_path", r.text
        # A hook's curl is served as before.
        r = await http.get(srv.url + path, params=query, headers={"User-Agent": "curl/8.14.1"})
        assert r.status_code == 200
    await _still_serves(srv, session)


@pytest.mark.parametrize("query, field", [
    ({"project_path": "/etc"}, "project_path"),
    ({"session_id": "ffffffff"}, "session_id"),
])
async def test_rest_bad_input_names_the_field(srv, session, query, field):
    before = store_files(srv.store)
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.get(srv.url + "/api/graph/read", params=query)
    assert r.status_code in (400, 404)
    assert field in r.text
    assert store_files(srv.store) == before
    await _still_serves(srv, session)
    assert "existing-good-node" in {n["id"] for n in graph(srv, session_id=session.sid)["project"]["nodes"]}


@pytest.mark.parametrize("method, path, field", [
    ("DELETE", "/api/nodes/project/existing-good-node?project_path={root}&expected_version=%C2%B2", "expected_version"),
    ("DELETE", "/api/nodes/project/existing-good-node?project_path={root}&expected_version=%D9%A3", "expected_version"),
    ("GET", "/api/search?q=node&limit=%C2%B2", "limit"),
    ("GET", "/api/search?q=node&limit=%EF%BC%95", "limit"),  # a fullwidth 5
])
async def test_a_number_parameter_in_other_digits_is_refused_naming_it(srv, session, method, path, field):
    """Digits of other scripts (a superscript two, an Arabic-Indic three) are digits to str.isdigit(), and
    int() refuses some of them: each is refused as a bad number, never a 500, and nothing is deleted."""
    before = store_files(srv.store)
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.request(method, srv.url + path.format(root=srv.project("bad-proj")))
    assert r.status_code == 400 and r.json()["field"] == field and "whole number" in r.json()["rule"], r.text
    assert store_files(srv.store) == before
    await _still_serves(srv, session)


@pytest.mark.parametrize("path, body", [
    ("/api/nodes", {"level": "user", "id": "rest-blank-note", "gist": "g", "notes": ["kept", " "]}),
    ("/api/nodes", {"level": "user", "id": "rest-empty-note", "gist": "g", "notes": [""]}),
    ("/api/edges", {"level": "user", "from": "src/app.py", "to": "src/lib.py", "rel": "r", "notes": ["\t"]}),
])
async def test_the_editor_refuses_an_empty_or_blank_note_naming_it(srv, session, path, body):
    before = store_files(srv.store)
    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(srv.url + path, json=body)
    assert r.status_code == 400, r.text
    at = len(body["notes"]) - 1
    assert r.json()["error"].startswith(f"notes[{at}]: ") and ("blank" in r.json()["error"] or "empty" in r.json()["error"]), r.text
    assert store_files(srv.store) == before
    await _still_serves(srv, session)


def test_a_tool_call_far_over_the_body_limit_reaches_the_sdk_client_as_an_error_naming_the_limit(srv):
    """The Python SDK (on asyncio, as its users run it) sends the whole body before it reads a reply: the server
    answered 413 early and closed with the rest unread, and the client saw only a reset connection (httpcore
    ReadError, out of the client's context). The rest is read and dropped (bounded), so the refusal reaches it."""
    import asyncio

    async def huge_write() -> str:
        async with Client(srv.url + "/") as sdk:
            sid = (await Session.open(sdk)).sid
            with pytest.raises(MCPError, match="the body is over 8388608 bytes"):
                await sdk.call_tool("kg_put_node", {"session_id": sid, "level": "user", "id": "huge-body-node",
                                                    "gist": "g" * 20_000_000})
            text, _ = await call(sdk, "kg_search", {"session_id": sid, "query": "huge body node"})
            return text

    text = asyncio.run(huge_write())  # the same client goes on
    assert "huge-body-node" not in text, text  # not stored
    assert srv.health() is not None


HALF = "holds half of a character (U+D83D, a lone surrogate"


async def test_a_lone_surrogate_in_a_write_is_refused_naming_the_field_and_the_server_keeps_serving(srv, session):
    """`"\\ud800"` alone is valid JSON that no file can hold (Node writes it for a string cut inside an emoji):
    the write that stored one raised in the journal and took the server down; mended, it was stored as U+FFFD
    unsaid. A write names the field instead; a hook's body is still mended (a hook never fails on it)."""
    half = '"half \\ud83d emoji"'
    calls = [('"gist": %s' % half, "gist: "), ('"gist": "whole", "notes": ["ok", %s]' % half, "notes[1]: ")]
    async with httpx.AsyncClient(timeout=10) as http:
        for i, (args, field) in enumerate(calls):
            call = ('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "kg_put_node", '
                    '"arguments": {"session_id": "%s", "level": "project", "id": "half-emoji-node", %s}}}'
                    % (11 + i, session.sid, args))
            r = await http.post(srv.url + "/", content=call.encode(), headers=MCP_HEADERS)
            assert r.status_code == 200 and f"Error: {field}{HALF}" in r.text and "saved" not in r.text, r.text
        r = await http.post(srv.url + "/api/nodes", content=('{"level": "user", "id": "rest-half-node", "gist": %s}'
                                                            % half).encode(), headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and f"gist: {HALF}" in r.json()["error"], r.text
        r = await http.post(srv.url + "/api/prompt_context", content=b'{"session_id": "\\udc80", "prompt": "x"}',
                            headers={"Content-Type": "application/json"})
        assert r.status_code < 500
    await _still_serves(srv, session)
    nodes = {n["id"] for n in graph(srv, session_id=session.sid)["project"]["nodes"]}
    assert "half-emoji-node" not in nodes
