"""`kg mcp`, the stdio shim every MCP client launches, driven for real.

The SDK's stdio client launches the installed `kg mcp` against a running
server; raw pipes check that stdout carries nothing but JSON-RPC lines and time
the first reply; a shim pointed at a port with no server starts one itself.
Set KG_RECORD_BENCH=1 to write the timings to bench/RESULTS-shim.md.
"""

from __future__ import annotations

import json
import os
import platform
import select
import shutil
import signal
import socket
import statistics
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from e2e_helpers import (KG, another_program, graph, kg, nodes_by_id, refuses, start_server, unread_by_server,
                         wait_until)
from hook_helpers import MCP_HEADERS
from mcp import Client, StdioServerParameters
from other_programs import CUT_SHORT, SSH_BANNER, answering, busy, silent

from kg_actors.testing import ServerProcess, free_port, mcp_text, session_of

REPO = Path(__file__).resolve().parents[2]
TIMINGS: dict[str, list[float]] = {}
REPLY_TIMEOUT = 60.0


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("shim"))
    yield server
    server.kill()


@pytest.fixture(scope="module", autouse=True)
def record_timings():
    yield
    for name, values in TIMINGS.items():
        print(f"\n{name}: " + ", ".join(f"{v * 1000:.0f} ms" for v in values))
    if os.environ.get("KG_RECORD_BENCH") == "1" and TIMINGS:
        _write_results()


def _shim_env(server: ServerProcess) -> dict[str, str]:
    return {"HOME": str(server.home), "KG_HOME": str(server.store), "KG_HTTP_PORT": str(server.port),
            "KG_EDITOR_PORT": str(server.editor_port), "PYTHONUNBUFFERED": "1"}


def _request(msg_id, method: str, params: dict | None = None) -> str:
    msg: dict = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        msg["params"] = params
    return json.dumps(msg)


INITIALIZE = _request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "e2e-raw", "version": "0"}})
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})


class RawShim:
    """`kg mcp` on raw pipes: send lines, read stdout lines against a deadline."""

    def __init__(self, env: dict[str, str]):
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen([KG, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=dict(os.environ, **env))
        self._buf = b""

    def send(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read_line(self, timeout: float = REPLY_TIMEOUT) -> bytes:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no reply from kg mcp within {timeout:.0f} s")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise AssertionError(f"kg mcp closed stdout; stderr: {self.proc.stderr.read()[-2000:]!r}")
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def finish(self, timeout: float = REPLY_TIMEOUT) -> list[bytes]:
        """Close stdin; the rest of stdout once the shim has answered everything and exited."""
        try:
            rest, _ = self.proc.communicate(timeout=timeout)  # closes stdin first
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("kg mcp did not exit after stdin closed") from None
        assert self.proc.returncode == 0
        return [x for x in (self._buf + rest).split(b"\n") if x]


def _jsonrpc_lines(lines: list[bytes]) -> dict:
    """Every stdout line must be one JSON-RPC 2.0 message; returns them by id."""
    by_id = {}
    for line in lines:
        msg = json.loads(line)  # raises on anything that is not JSON
        assert isinstance(msg, dict) and msg.get("jsonrpc") == "2.0", line
        assert ("result" in msg) != ("error" in msg), line
        by_id[msg.get("id")] = msg
    return by_id


async def test_sdk_stdio_client_lists_tools_reads_and_writes(srv):
    params = StdioServerParameters(command=KG, args=["mcp"], env=_shim_env(srv))
    t0 = time.monotonic()
    async with Client(params) as c:
        TIMINGS.setdefault("SDK stdio client: launch to connected (server running)", []).append(time.monotonic() - t0)
        tools = await c.list_tools()
        assert {t.name for t in tools.tools} == {
            "kg_read", "kg_search", "kg_put_node", "kg_put_edge", "kg_rename_node", "kg_delete_node",
            "kg_delete_edge", "kg_useful", "kg_sync", "kg_progress"}
        cwd = srv.project("shim-proj")
        r = await c.call_tool("kg_read", {"cwd": cwd})
        assert not r.is_error
        sid = session_of(mcp_text(r))
        r = await c.call_tool("kg_put_node", {"session_id": sid, "level": "project", "id": "shim-written-node",
                                              "gist": "written through kg mcp", "notes": ["über stdio ✓"]})
        assert not r.is_error and mcp_text(r).startswith("Node 'shim-written-node' saved to project graph")
        r = await c.call_tool("kg_put_node", {"session_id": sid, "level": "project", "id": "bad/id", "gist": "g"})
        assert r.is_error and "path separator" in mcp_text(r)
    stored = nodes_by_id(graph(srv, project_path=cwd)["project"])["shim-written-node"]
    assert stored["gist"] == "written through kg mcp" and stored["notes"] == ["über stdio ✓"]


async def test_stdout_carries_only_jsonrpc_lines_and_first_reply_time(srv):
    for _ in range(3):
        shim = RawShim(_shim_env(srv))
        shim.send(INITIALIZE)
        first = shim.read_line()
        TIMINGS.setdefault("raw: launch `kg mcp` to first reply (server running)", []).append(
            time.monotonic() - shim.t0)
        shim.send(INITIALIZED)
        shim.send(_request(2, "tools/list"))
        shim.send(_request(3, "tools/call", {"name": "kg_read", "arguments": {"cwd": srv.project("raw-proj")}}))
        shim.send("this is not json")
        shim.send(_request(4, "tools/call", {"name": "kg_nope", "arguments": {}}))
        by_id = _jsonrpc_lines([first, *shim.finish()])
        assert set(by_id) == {1, 2, 3, 4, None}
        assert by_id[1]["result"]["serverInfo"]["name"] == "kg-memory"
        assert len(by_id[2]["result"]["tools"]) == 10
        assert "Session: " in by_id[3]["result"]["content"][0]["text"]
        assert by_id[None]["error"]["code"] == -32700
        assert by_id[4]["result"]["isError"] is True


async def test_a_line_that_is_not_utf8_and_a_clients_own_response_leave_the_shim_serving(srv):
    # A strict UTF-8 stdin (what a UTF-8 locale gives) once ended the shim at the first bad byte.
    shim = RawShim({**_shim_env(srv), "PYTHONIOENCODING": "utf-8:strict"})
    shim.send(INITIALIZE)
    first = shim.read_line()
    shim.proc.stdin.write(b'{"jsonrpc": "2.0", "id": 5, "method": "tools/list", "x": "\xff"}\n')
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 77, "result": {}}))  # the client answering a server request
    shim.send(_request(6, "tools/list"))
    lines = [first, *shim.finish()]
    by_id = _jsonrpc_lines(lines)
    assert set(by_id) == {1, None, 6}, lines  # nothing for 77: a response wants no answer
    assert by_id[None]["error"] == {"code": -32700, "message": "Parse error: the line is not UTF-8"}
    assert len(by_id[6]["result"]["tools"]) == 10


async def test_a_request_over_the_servers_body_limit_is_refused_by_name_and_the_shim_serves_on(srv):
    # Sent, the server closed the connection before reading it, and the shim said "unreachable".
    from kg_actors.http.app import MAX_BODY
    from shim import MAX_BODY as SHIM_MAX_BODY
    assert SHIM_MAX_BODY == MAX_BODY
    shim = RawShim(_shim_env(srv))
    shim.send(INITIALIZE)
    first = shim.read_line()
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "kg_put_node", "arguments": {"level": "user", "id": "too-big", "gist": "x" * (MAX_BODY + 10)}}}))
    shim.send(_request(6, "tools/list"))
    by_id = _jsonrpc_lines([first, *shim.finish()])
    assert "the kg memory server takes at most 8,388,608" in by_id[5]["error"]["message"]
    assert "unreachable" not in by_id[5]["error"]["message"] and len(by_id[6]["result"]["tools"]) == 10


async def test_shim_starts_the_server_when_none_is_running(tmp_path):
    fresh = ServerProcess(tmp_path / "cold")  # its dirs and free ports; not started
    env = _shim_env(fresh)
    assert fresh.health() is None
    shim = RawShim(env)
    try:
        shim.send(INITIALIZE)
        first = shim.read_line()
        TIMINGS.setdefault("raw: launch `kg mcp` to first reply (server not running; the shim starts it)", []).append(
            time.monotonic() - shim.t0)
        assert json.loads(first)["result"]["serverInfo"]["name"] == "kg-memory"  # answered while the server starts
        shim.send(INITIALIZED)
        cwd = fresh.project("cold-proj")
        shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": cwd}}))
        reply = json.loads(shim.read_line())
        assert fresh.health() is not None, "the call was answered, so the server the shim started must be up"
        sid = session_of(reply["result"]["content"][0]["text"])
        shim.send(_request(3, "tools/call", {"name": "kg_put_node", "arguments": {
            "session_id": sid, "level": "project", "id": "cold-start-node", "gist": "the shim started the server"}}))
        by_id = _jsonrpc_lines([first, json.dumps(reply).encode(), *shim.finish()])
        assert set(by_id) == {1, 2, 3}
        assert "saved to project graph" in by_id[3]["result"]["content"][0]["text"]
        assert "cold-start-node" in nodes_by_id(graph(fresh, project_path=cwd)["project"])
        assert (fresh.store / "server.pid").exists()
    finally:
        if shim.proc.poll() is None:
            shim.proc.kill()
            shim.proc.wait()
        stop = kg(["stop"], dict(os.environ, **env))
    assert stop.returncode == 0 and "stopped" in stop.stdout
    wait_until(lambda: fresh.health() is None, what="the shim-started server to stop")


def _handshake_answered(by_id: dict) -> None:
    """The shim's own answer to initialize (1) and tools/list (2), as the server gives them."""
    from kg_actors.http.mcp_handshake import initialize_result, tool_list
    assert by_id[1]["result"] == json.loads(json.dumps(initialize_result("2025-06-18"))), by_id[1]
    assert by_id[2]["result"] == json.loads(json.dumps(tool_list())) and len(by_id[2]["result"]["tools"]) == 10


async def test_shim_answers_the_handshake_and_each_call_with_an_error_when_no_server_can_start(tmp_path):
    # Its initialize failed: Claude Code then skipped kg's tools in every session for 15 minutes (its cache of
    # failed plugin servers), long after the server was back. The start goes on; each call says why it cannot.
    blocked = tmp_path / "store-is-a-file"
    blocked.write_text("")  # `kg start` cannot use it, so the shim cannot start a server
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "KG_HOME": str(blocked), "KG_HTTP_PORT": str(free_port()),
           "KG_EDITOR_PORT": str(free_port())}
    shim = RawShim(env)
    shim.send(INITIALIZE)
    shim.send(INITIALIZED)
    shim.send(_request(2, "tools/list"))
    shim.send(_request(3, "tools/call", {"name": "kg_read", "arguments": {"cwd": str(home)}}))
    by_id = _jsonrpc_lines(shim.finish())
    assert set(by_id) == {1, 2, 3}, "a notification gets no reply, every request gets one"
    _handshake_answered(by_id)
    for msg in [by_id[3]]:
        assert msg["error"]["code"] == -32603 and "kg memory server unreachable" in msg["error"]["message"]
        # The client sees why the auto-start failed, not only "Connection refused".
        assert f"starting it failed: kg: the server did not start: {blocked} is a file, not a folder" \
            in msg["error"]["message"], msg


async def test_a_foreign_answer_on_the_port_gets_every_request_an_error_naming_it(tmp_path):
    # Some other program on kg's port: it answers every request with an HTML error page.
    with another_program(b"<html><body>502 Bad Gateway</body></html>", 502, "text/html") as port:
        home = tmp_path / "home"
        home.mkdir()
        shim = RawShim({"HOME": str(home), "KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
        shim.send(INITIALIZE)
        shim.send(INITIALIZED)
        shim.send(_request(2, "tools/list"))
        shim.send(_request(3, "tools/call", {"name": "kg_read", "arguments": {"cwd": str(home)}}))
        out, err = shim.proc.communicate(timeout=REPLY_TIMEOUT)
        by_id = _jsonrpc_lines([x for x in (shim._buf + out).split(b"\n") if x])
    assert set(by_id) == {1, 2, 3}, "a notification gets no reply, every request gets one"
    _handshake_answered(by_id)  # the client's start goes on (Claude Code would skip kg for 15 minutes)
    for msg in [by_id[3]]:
        text = msg["error"]["message"]
        assert "HTTP 502" in text and "no JSON-RPC reply" in text and "KG_HTTP_PORT" in text, text
    assert b"another program" in err


@pytest.mark.parametrize("reply", [SSH_BANNER, CUT_SHORT], ids=["not-http", "cut-after-headers"])
async def test_a_port_answering_no_http_or_a_reply_cut_short_gets_every_request_an_error(tmp_path, reply):
    with answering(reply) as port:
        home = tmp_path / "home"
        home.mkdir()
        shim = RawShim({"HOME": str(home), "KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
        shim.send(INITIALIZE)
        shim.send(_request(2, "tools/list"))
        shim.send(_request(3, "tools/call", {"name": "kg_read", "arguments": {"cwd": str(home)}}))
        by_id = _jsonrpc_lines(shim.finish())
    assert set(by_id) == {1, 2, 3}, "every request gets a reply"
    _handshake_answered(by_id)
    for msg in [by_id[3]]:
        assert msg["error"]["code"] == -32603 and f"127.0.0.1:{port}" in msg["error"]["message"], msg


async def test_malformed_initialize_params_get_an_answer(srv):
    shim = RawShim(_shim_env(srv))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [1, 2]}))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"clientInfo": "x"}}))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "initialize",
                          "params": {"clientInfo": {"name": ["not", "a", "name"]}}}))
    shim.send(_request(4, "tools/list"))
    by_id = _jsonrpc_lines(shim.finish())
    assert set(by_id) == {1, 2, 3, 4}, "every request gets a reply"
    assert all(by_id[i]["error"]["message"].startswith("Invalid params: params.") for i in (1, 2, 3)), by_id
    assert len(by_id[4]["result"]["tools"]) == 10


@pytest.mark.parametrize("name", ["エディタ", "codex — ✨", "two\nlines"], ids=["japanese", "codex-em-dash", "newline"])
async def test_a_client_named_outside_latin1_or_with_a_newline_is_served_and_known_clients_still_known(srv, name):
    # Its name went into the User-Agent and X-KG-Client headers as it was: http.client refused it
    # (Latin-1 only, no line breaks), and every request got an error for the shim's whole life.
    shim = RawShim(_shim_env(srv))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": name, "version": "1"}}}))
    shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": srv.project("named-proj")}}))
    by_id = _jsonrpc_lines(shim.finish())
    assert by_id[1]["result"]["serverInfo"]["name"] == "kg-memory", by_id[1]
    text = by_id[2]["result"]["content"][0]["text"]
    assert "Session: " in text
    # The server still tells Codex by its name (its part limits and its hint follow).
    assert ("No Codex memory hook has reached this server" in text) == name.startswith("codex"), text


async def test_a_request_nested_too_deep_to_read_gets_an_error_for_its_id(srv):
    # json.loads raised RecursionError, not ValueError, and again where the error reply looked for the id:
    # the request got no reply at all.
    deep = "[" * 5000 + "]" * 5000
    shim = RawShim(_shim_env(srv))
    shim.send('{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "kg_search", '
              '"arguments": {"query": ' + deep + '}}}')
    shim.send('{"jsonrpc": "2.0", "method": "tools/call", "params": ' + deep + ', "id": "after-it"}')
    shim.send('{"jsonrpc": "2.0", "method": "notifications/x", "params": {"id": 7, "x": ' + deep + '}}')
    shim.send(_request(6, "tools/list"))
    lines = shim.finish()
    by_id = _jsonrpc_lines(lines)
    assert set(by_id) == {5, "after-it", None, 6}, lines  # the notification's nested "id" is not its id
    for msg_id in (5, "after-it", None):
        assert by_id[msg_id]["error"]["code"] == -32600 and "nests" in by_id[msg_id]["error"]["message"]
    assert len(by_id[6]["result"]["tools"]) == 10


async def test_a_batch_gets_each_request_answered_in_one_array_and_a_batch_of_notifications_none(srv):
    # The server answers a batch with one id-less error: the ids inside were never answered.
    shim = RawShim(_shim_env(srv))
    shim.send(json.dumps([json.loads(_request(1, "tools/list")), json.loads(INITIALIZED),
                          json.loads(_request("two", "tools/call", {"name": "kg_nope", "arguments": {}})), 5]))
    shim.send(json.dumps([json.loads(INITIALIZED), json.loads(INITIALIZED)]))
    shim.send("[]")
    shim.send(_request(3, "tools/list"))
    lines = shim.finish()
    batches = [json.loads(line) for line in lines if line.startswith(b"[")]
    assert len(batches) == 1, lines  # one reply for the batch with requests, none for the notifications
    by_id = _jsonrpc_lines([json.dumps(m).encode() for m in batches[0]])
    assert set(by_id) == {1, "two", None} and len(batches[0]) == 3, batches
    assert len(by_id[1]["result"]["tools"]) == 10 and by_id["two"]["result"]["isError"] is True
    assert by_id[None]["error"]["code"] == -32600  # 5 is no request
    singles = _jsonrpc_lines([line for line in lines if not line.startswith(b"[")])
    assert set(singles) == {None, 3} and singles[None]["error"]["code"] == -32600  # the empty batch
    assert len(singles[3]["result"]["tools"]) == 10


async def test_a_message_that_is_no_request_notification_or_response_gets_invalid_request(srv):
    # `{"jsonrpc": "2.0"}` got no reply at all; a bare string got the SDK's multi-line validation dump.
    shim = RawShim(_shim_env(srv))
    shim.send(json.dumps({"jsonrpc": "2.0"}))
    shim.send(json.dumps("just a string"))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 9}))
    shim.send(_request(3, "tools/list"))
    lines = shim.finish()
    replies = [json.loads(line) for line in lines]
    invalid = [r for r in replies if r.get("error", {}).get("code") == -32600]
    assert sorted(str(r["id"]) for r in invalid) == ["9", "None", "None"], lines  # answered in any order
    assert any(r.get("id") == 3 and len(r["result"]["tools"]) == 10 for r in replies)


async def test_the_shim_words_a_malformed_message_as_the_server_does(srv):
    """Broken JSON got a bare "Parse error", and a message with an id and no method other words than HTTP's."""
    malformed = [json.dumps({"jsonrpc": "2.0", "id": 3}), json.dumps({"jsonrpc": "2.0"}), json.dumps(42),
                 json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": 7}})]
    shim = RawShim(_shim_env(srv))
    shim.send('{"jsonrpc": "2.0", "id": 1,')
    for line in malformed:
        shim.send(line)
    by_shim = {(r["id"], r["error"]["code"], r["error"]["message"]) for r in map(json.loads, shim.finish())}
    parse = [m for _, code, m in by_shim if code == -32700]
    assert len(parse) == 1 and parse[0].startswith("Parse error: the line is not JSON (Expecting"), by_shim
    by_http = set()
    async with httpx.AsyncClient(timeout=10) as http:
        for line in malformed:
            error = (await http.post(srv.url + "/", content=line.encode(), headers=MCP_HEADERS)).json()
            by_http.add((error["id"], error["error"]["code"], error["error"]["message"]))
    assert len(by_http) == len(malformed) and by_http <= by_shim, (by_http, by_shim)
    assert (8, -32602, "Invalid params: params.name: must be a string (the tool's name)") in by_shim


async def test_a_request_the_server_refuses_by_name_gets_that_one_error_and_no_second(srv):
    # The server answers id 1.5 with an id-less -32600 (it cannot echo an id it does not take): the shim
    # added its own "answered without a reply" for the same request.
    shim = RawShim(_shim_env(srv))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}))
    shim.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": []}))
    shim.send(json.dumps({"id": 4, "method": "tools/list"}))
    shim.send(_request(3, "tools/list"))
    replies = [json.loads(line) for line in shim.finish()]
    errors = [r for r in replies if "error" in r]
    assert sorted((str(r["id"]), r["error"]["code"]) for r in errors) == [
        ("2", -32602), ("4", -32600), ("None", -32600)], replies
    assert "id: must be" in next(r for r in errors if r["id"] is None)["error"]["message"]
    assert any(r.get("id") == 3 and len(r["result"]["tools"]) == 10 for r in replies)


def _own_health(tmp_path: Path) -> dict:
    """The /health of a kg server of the store tmp_path/store (the RawShim tests' KG_HOME)."""
    return {"status": "ok", "loaded_graphs": [], "storage": str((tmp_path / "store").resolve())}


async def test_after_stdin_closes_a_call_still_in_flight_gets_a_few_seconds_then_the_shim_exits(tmp_path):
    # The shim waited for it up to its 120 s request timeout, the client's whole shutdown long. The server is
    # alive but slow on the call (a hung one, silent to its health check too, fails it within seconds).
    from shim import EOF_GRACE
    with busy(_own_health(tmp_path)) as (port, asked):
        shim = RawShim({"HOME": str(tmp_path), "KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
        shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": str(tmp_path)}}))
        assert asked.wait(REPLY_TIMEOUT), "the request never arrived"
        try:
            out, err = shim.proc.communicate(timeout=EOF_GRACE + 15)  # closes stdin first
        except subprocess.TimeoutExpired:
            raise AssertionError("kg mcp did not exit after stdin closed") from None
        finally:
            shim.proc.kill()
    assert shim.proc.returncode == 0 and out == b"", out  # the client is gone: nothing is written to it
    assert b"dropped 1 call still unanswered after 5 s" in err, err


async def test_a_hung_server_holds_the_clients_start_up_about_a_second_and_the_shim_says_why(tmp_path):
    # The shim failed the handshake after 8 s: Gemini CLI and OpenCode, which wait for their MCP servers before
    # the first model call, started each session 12-15 s late (found by an outside audit of real client turns).
    from shim.handshake import QUICK
    with silent() as (port, asked):
        shim = RawShim({"HOME": str(tmp_path), "KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
        began = time.monotonic()
        shim.send(INITIALIZE)
        shim.send(_request(2, "tools/list"))
        # OpenCode asks for prompts and resources too at its start: kg serves neither, and says so at once.
        for msg_id, method in enumerate(("prompts/list", "resources/list", "ping"), start=3):
            shim.send(_request(msg_id, method))
        lines = [shim.read_line(timeout=30) for _ in range(5)]  # before stdin closes (its grace is 5 s)
        took = time.monotonic() - began
        out, err = shim.proc.communicate(timeout=30)
        by_id = _jsonrpc_lines(lines + [x for x in out.split(b"\n") if x])
    assert set(by_id) == {1, 2, 3, 4, 5}, by_id
    _handshake_answered(by_id)
    assert by_id[3]["error"] == {"code": -32601, "message": "Method not found", "data": "prompts/list"}, by_id[3]
    assert by_id[4]["error"]["code"] == -32601 and by_id[5]["result"] == {}, by_id
    assert f"did not answer its health check within {QUICK:g} s" in err.decode() and "answered initialize itself" in err.decode(), err
    assert took < 3 * QUICK, took  # its health read, bounded; the requests in parallel


async def test_ctrl_c_ends_the_shim_quietly_with_130_even_with_a_call_in_flight(tmp_path):
    # It printed a KeyboardInterrupt traceback (and waited for the call).
    with busy(_own_health(tmp_path)) as (port, asked):
        shim = RawShim({"HOME": str(tmp_path), "KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
        shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": str(tmp_path)}}))
        assert asked.wait(REPLY_TIMEOUT), "the request never arrived"
        shim.proc.send_signal(signal.SIGINT)
        try:
            out, err = shim.proc.communicate(timeout=20)
        finally:
            shim.proc.kill()
    assert shim.proc.returncode == 130 and out == b"" and b"Traceback" not in err, err


async def test_a_call_while_the_server_drains_to_stop_waits_for_it_and_is_answered_by_the_next(tmp_path):
    # Spec 000: a server restart does not disconnect the tools. While a stop drained the old server (what
    # it serves answered, new connections refused), the `kg start` the shim ran was refused the store it
    # still held ("another memory server already uses"), and the call failed.
    from kg_actors.cli_server import STOPPING_WAIT
    from shim import STOPPING_WAIT as SHIM_STOPPING_WAIT
    assert SHIM_STOPPING_WAIT == STOPPING_WAIT
    old = start_server(tmp_path)
    env = _shim_env(old)
    old_pid = old.health()["pid"]
    body = _request(7, "tools/list").encode()
    busy = socket.create_connection(("127.0.0.1", old.port), timeout=20)
    shim = None
    try:
        busy.sendall((f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{old.port}\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(body)}\r\n\r\n").encode() + body[:10])  # half sent: it drains
        wait_until(lambda: unread_by_server(busy, old.port) == 0, 20, "the server to read the request's head")
        old.proc.send_signal(signal.SIGTERM)  # what `kg stop` sends
        wait_until(lambda: refuses(old.port), 20, "the draining server to close its listener")
        assert old.proc.poll() is None, "the old server is draining, still holding the store"
        shim = RawShim(env)
        shim.send(INITIALIZE)
        reply = json.loads(shim.read_line())
        assert reply.get("result", {}).get("serverInfo", {}).get("name") == "kg-memory", reply
        shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": old.project("drain-proj")}}))
        reply = json.loads(shim.read_line())
        assert "result" in reply and not reply["result"].get("isError"), reply
        assert old.proc.poll() is not None and old.health()["pid"] != old_pid  # the next server answered
    finally:
        busy.close()
        if shim is not None:
            shim.proc.kill()
            shim.proc.wait()
        old.kill()
        kg(["stop"], dict(os.environ, **env))  # the server the shim started
    wait_until(lambda: old.health() is None, what="the shim-started server to stop")


def _write_results() -> None:
    """Append this run's numbers to bench/RESULTS-shim.md (the header is written once)."""
    path = REPO / "bench" / "RESULTS-shim.md"
    header = [
        "# `kg mcp` shim: time to first reply",
        "",
        "Measured by `tests/e2e/test_shim.py`: wall clock from launching `kg mcp` to the first JSON-RPC",
        "line on its stdout (the reply to `initialize`), against a running server and against none (the",
        "shim then runs `kg start` itself). No assertions rest on these numbers; they move with machine",
        "load, so each run records the load average next to them.",
        "",
        "Command (appends one section per run):",
        "",
        "```",
        "KG_RECORD_BENCH=1 .venv/bin/pytest -s tests/e2e/test_shim.py",
        "```",
        "",
    ]
    lines = [
        f"## {time.strftime('%Y-%m-%d %H:%M:%S')}",
        "",
        f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPU(s); "
        f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}.",
        "",
        "| measurement | samples | min | median |",
        "|---|---|---|---|",
    ]
    for name, values in TIMINGS.items():
        lines.append(f"| {name} | {len(values)} | {min(values) * 1000:.0f} ms | "
                     f"{statistics.median(values) * 1000:.0f} ms |")
    lines.append("")
    existing = path.read_text() if path.exists() else "\n".join(header)
    path.write_text(existing.rstrip("\n") + "\n\n" + "\n".join(lines))


@pytest.mark.parametrize("env, named", [
    ({"KG_HTTP_PORT": "+{port}"}, "KG_HTTP_PORT='+{port}' is not a port: digits 0-9 only"),
    ({"KG_HTTP_PORT": " {port} "}, "KG_HTTP_PORT=' {port} ' is not a port: digits 0-9 only"),
    ({"KG_HTTP_PORT": "70000"}, "KG_HTTP_PORT='70000' must be at most 65535"),
    ({"KG_HTTP_HOST": "127.0.0.2"}, "KG_HTTP_HOST='127.0.0.2' is not 127.0.0.1"),
    ({"KG_HTTP_HOST": "192.0.2.7"}, "KG_HTTP_HOST='192.0.2.7' is not a loopback address"),
])
async def test_a_port_or_host_every_kg_command_refuses_the_shim_refuses_too_and_sends_nothing(tmp_path, env, named):
    # A listener where a lax shim would POST: it must get no connection at all (the tool calls carry lesson text).
    listener = socket.socket()
    listener.bind(("127.0.0.2", 0) if "KG_HTTP_HOST" in env else ("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    port = listener.getsockname()[1]
    env = {k: v.format(port=port) for k, v in env.items()}
    env.setdefault("KG_HTTP_PORT", str(port))
    named = named.format(port=port)
    home = tmp_path / "home"
    home.mkdir()
    shim = RawShim(dict(env, HOME=str(home), KG_HOME=str(tmp_path / "store")))
    shim.send(INITIALIZE)
    shim.send(INITIALIZED)
    shim.send(_request(2, "tools/list"))
    out, err = shim.proc.communicate(timeout=REPLY_TIMEOUT)
    by_id = _jsonrpc_lines([x for x in (shim._buf + out).split(b"\n") if x])
    assert set(by_id) == {1, 2}, "every request gets the refusal, a notification none"
    for msg in by_id.values():
        assert named in msg["error"]["message"], msg
    assert named in err.decode(), err
    assert shim.proc.returncode == 2
    with pytest.raises(BlockingIOError):
        listener.accept()
    listener.close()
    assert not (tmp_path / "store").exists(), "no server was started for a refused setting"


def test_the_refusing_shim_answers_a_request_nested_too_deep_as_the_serving_one_and_serves_on(tmp_path):
    # In its refusing mode (a bad KG_HTTP_PORT) the shim died of a RecursionError at such a line: the next
    # request got no answer.
    deep = "[" * 100_000 + "]" * 100_000
    home = tmp_path / "home"
    home.mkdir()
    shim = RawShim({"KG_HTTP_PORT": "abc", "HOME": str(home), "KG_HOME": str(tmp_path / "store")})
    shim.send(deep)
    shim.send('{"jsonrpc": "2.0", "method": "tools/call", "params": ' + deep + ', "id": "after-it"}')
    shim.send(_request(7, "tools/list"))
    out, err = shim.proc.communicate(timeout=REPLY_TIMEOUT)
    by_id = _jsonrpc_lines([x for x in (shim._buf + out).split(b"\n") if x])
    assert set(by_id) == {None, "after-it", 7}, by_id
    for msg_id in (None, "after-it"):
        assert by_id[msg_id]["error"]["code"] == -32600 and "nests" in by_id[msg_id]["error"]["message"]
    assert "KG_HTTP_PORT='abc'" in by_id[7]["error"]["message"], by_id[7]
    assert b"Traceback" not in err and shim.proc.returncode == 2, err


@pytest.mark.parametrize("closed", ["reader-gone", "no-stdout"])
def test_a_closed_stdout_ends_the_shim_quietly(srv, closed):
    # It said "kg mcp: kg mcp could not handle this request: BrokenPipeError ..." for every request.
    lines = b"".join(json.dumps(m).encode() + b"\n" for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the client's end of stdout, gone
    try:
        # No stdout at all (`kg mcp >&-`): the child starts with fd 1 closed.
        out = {"stdout": write_end} if closed == "reader-gone" else {"preexec_fn": lambda: os.close(1)}
        done = subprocess.run([KG, "mcp"], input=lines, stderr=subprocess.PIPE, env=srv.env, timeout=60, **out)
    finally:
        os.close(write_end)
    assert done.stderr == b"", done.stderr
    assert done.returncode == 128 + signal.SIGPIPE, done.returncode


def test_the_shim_passes_a_maintenance_runs_mark_on_in_its_requests_url():
    """A runner that reaches kg through `kg mcp` (Antigravity's plugin) has the run's mark in its environment;
    the shim's requests carry it, so the server counts the run's kg calls (tests/chores/test_chores_e2e.py)."""
    import kg_shim

    assert kg_shim.request_path({}) == "/" and kg_shim.request_path({"KG_CHORE_RUN": ""}) == "/"
    assert kg_shim.request_path({"KG_CHORE_RUN": "a-B_9"}) == "/?kg_run=a-B_9"


def _latin1_env(tmp_path: Path) -> dict[str, str]:
    """A non-UTF-8 stdout: a real ISO-8859-1 locale built with localedef where it can be, else
    PYTHONIOENCODING (the same text-mode encoding of stdout, without the locale)."""
    folder = tmp_path / "locale"
    folder.mkdir()
    built = subprocess.run(["localedef", "-i", "de_DE", "-f", "ISO-8859-1", str(folder / "de_DE.ISO-8859-1")],
                           capture_output=True) if shutil.which("localedef") else None
    if built is not None and (folder / "de_DE.ISO-8859-1").exists():
        return {"LOCPATH": str(folder), "LANG": "de_DE.ISO-8859-1", "LC_ALL": "de_DE.ISO-8859-1"}
    return {"PYTHONIOENCODING": "latin-1"}


async def test_under_a_non_utf8_locale_every_reply_is_utf8_and_the_shim_serves_on(srv, tmp_path):
    # Text-mode stdout encoded each reply in the locale's charset: the first character outside Latin-1
    # (the — of a search header) raised, was taken for a reader gone, and the shim exited 141 unsaid.
    env = {**_shim_env(srv), **_latin1_env(tmp_path)}
    env.pop("PYTHONUNBUFFERED")
    shim = RawShim(env)
    shim.send(INITIALIZE)
    first = shim.read_line()
    cwd = srv.project("latin1-proj")
    shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": cwd}}))
    read = json.loads(shim.read_line().decode("utf-8"))
    sid = session_of(read["result"]["content"][0]["text"])
    shim.send(_request(3, "tools/call", {"name": "kg_put_node", "arguments": {
        "session_id": sid, "level": "project", "id": "latin1-node", "gist": "Straße → ✓ — 東京"}}))
    saved = shim.read_line()  # the shim runs requests side by side: the read waits for the write
    shim.send(_request(4, "tools/call", {"name": "kg_read", "arguments": {"session_id": sid, "ids": ["latin1-node"]}}))
    shim.send(_request(5, "ping"))
    lines = [first, saved, *shim.finish()]
    text = b"\n".join(lines).decode("utf-8")  # raises on anything that is not UTF-8
    by_id = _jsonrpc_lines(lines)
    assert set(by_id) == {1, 3, 4, 5}, lines
    assert "Straße → ✓ — 東京" in by_id[4]["result"]["content"][0]["text"], text
    assert by_id[5]["result"] == {}


async def test_a_request_whose_id_is_half_a_character_gets_one_answer_for_that_id_and_the_shim_serves_on(srv):
    # The server mends the id to U+FFFD; the shim's "no reply for this id" error then carried the raw
    # surrogate, which no encoder writes: the shim exited 141 and the next request went unanswered.
    shim = RawShim(_shim_env(srv))
    shim.send('{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}')
    shim.send(_request(3, "ping"))
    lines = shim.finish()
    assert b"\n".join(lines).decode("utf-8")  # valid UTF-8: the half character is written escaped
    replies = [json.loads(line) for line in lines]
    assert sorted(map(str, (r["id"] for r in replies))) == ["3", "\ud800"], replies  # one answer each
    assert all(r["result"] == {} for r in replies), replies


async def test_a_batch_holding_half_a_character_is_answered_as_the_same_messages_sent_alone(srv):
    # Each batch item was sent on as UTF-8, which has no half character: the ping and the search each got
    # an internal -32603 (UnicodeEncodeError), where alone the ping is answered and the search's field named.
    shim = RawShim(_shim_env(srv))
    shim.send('[{"jsonrpc":"2.0","id":"b\\ud800","method":"ping"},'
              '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"kg_search",'
              '"arguments":{"query":"caf\\ud83d"}}}]')
    lines = shim.finish()
    assert len(lines) == 1 and b"\n".join(lines).decode("utf-8"), lines
    by_id = {str(r["id"]): r for r in json.loads(lines[0])}
    assert set(by_id) == {"b\ud800", "4"}, by_id  # the client's own id, as for the ping sent alone
    assert by_id["b\ud800"]["result"] == {}, by_id
    text = by_id["4"]["result"]["content"][0]["text"]
    assert "query: holds half of a character" in text, text


def test_a_line_is_utf8_whatever_it_holds():
    from kg_shim.lines import utf8_line

    assert utf8_line({"t": "— ✓ ß"}) == '{"t":"— ✓ ß"}\n'.encode("utf-8")
    line = utf8_line({"id": "\ud800x", "t": "—"})  # no UTF-8 for half a character: escaped, read back the same
    assert line.decode("ascii") and json.loads(line) == {"id": "\ud800x", "t": "—"}
    from kg_shim.lines import wire_text

    assert wire_text({"t": "—"}) == '{"t":"—"}'  # whole characters stay as they are (no sixfold escapes)
    half = wire_text({"q": "caf\ud83d"})  # a batch item is sent on as such a line
    assert half.encode("utf-8") and json.loads(half) == {"q": "caf\ud83d"}


async def test_a_client_pinned_to_the_stateless_revision_is_served_through_the_shim_as_over_http(srv):
    # The shim forwarded the revision's requests without the headers the server routes them by
    # (MCP-Protocol-Version, Mcp-Method, Mcp-Name): tools/list got the legacy result (no cacheScope, so
    # the SDK's client failed validating it) and server/discover "Method not found".
    params = StdioServerParameters(command=KG, args=["mcp"], env=_shim_env(srv))
    async with Client(params, mode="2026-07-28") as c:
        tools = await c.list_tools()
        assert len(tools.tools) == 10
        r = await c.call_tool("kg_read", {"cwd": srv.project("modern-shim-proj")})
        assert not r.is_error and "Session: " in mcp_text(r)
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {"name": "m", "version": "1"},
                      "io.modelcontextprotocol/clientCapabilities": {}}}
    shim = RawShim(_shim_env(srv))
    shim.send(_request(1, "server/discover", meta))
    shim.send(_request(2, "tools/call", {"name": "kg_nöpe ☃", "arguments": {}, **meta}))  # Mcp-Name as the SDK sends it
    by_id = _jsonrpc_lines(shim.finish())
    assert by_id[1]["result"]["supportedVersions"] == ["2026-07-28"], by_id
    assert by_id[2]["result"]["isError"] is True and "kg_nöpe ☃" in by_id[2]["result"]["content"][0]["text"], by_id
    assert by_id[2]["result"]["resultType"] == "complete", by_id


def test_the_revisions_headers_are_the_sdks_for_the_same_message():
    from mcp.shared.inbound import decode_header_value, encode_header_value

    from kg_shim.routing import header_value, routing_headers

    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "kg_read", **meta}}
    assert routing_headers(call) == {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
                                     "Mcp-Name": "kg_read"}
    assert routing_headers({**call, "params": {"name": "kg_read"}}) == {}  # a legacy client's: none
    assert routing_headers({**call, "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": 5}}}) == {}
    for name in ("kg_read", " edge ", "kg_nöpe ☃", "=?base64?eA==?=", "a\nb"):
        assert header_value(name) == encode_header_value(name) and decode_header_value(header_value(name)) == name
    assert decode_header_value(header_value("x\ud800")) == "x\ufffd"
