"""Clients we did not write, against a real `kg serve`: the TypeScript MCP SDK (over HTTP and
through `kg mcp`), Claude Code's `claude mcp list`, and the Python SDK with a GET stream held
open beside it. Both Claude Code 2.1 and the TypeScript SDK open `GET /` with
`Accept: text/event-stream` after `initialize`; a server that held that stream on the request
path made every later POST wait (listTools timed out after 60 s).
"""

from __future__ import annotations

import json
import socket
import subprocess

import pytest
import trio
from e2e_helpers import KG, another_program, start_server
from mcp import Client
from npm_clients import CLIENT_TIMEOUT, client_env, npm_bin, ts_client

from kg_actors.testing import mcp_text



@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("real"))
    yield server
    server.kill()


def _check_ts(seen: dict, node_id: str) -> None:
    assert {"kg_read", "kg_put_node", "kg_put_edge", "kg_search"} <= set(seen["tools"])
    assert seen["session"], seen
    assert not seen["put_error"], seen["put"]
    assert not seen["read_error"] and node_id in seen["read"] and "TypeScript SDK wrote" in seen["read"], seen["read"]


def test_typescript_sdk_over_http(srv, tmp_path):
    _check_ts(ts_client(srv, tmp_path, "http", srv.url + "/", "ts-http-check-node"), "ts-http-check-node")


def test_typescript_sdk_through_the_shim(srv, tmp_path):
    _check_ts(ts_client(srv, tmp_path, "stdio", KG, "ts-stdio-check-node"), "ts-stdio-check-node")


def test_claude_mcp_list_connects_http_and_shim_entries_together(srv, tmp_path):
    claude = npm_bin("claude")
    home = tmp_path / "claude-home"
    home.mkdir()
    env = client_env(home)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([claude, *args], env=env, capture_output=True, text=True, timeout=CLIENT_TIMEOUT,
                              cwd=tmp_path)

    assert run("mcp", "add", "--scope", "user", "--transport", "http", "kg-http", srv.url + "/").returncode == 0
    added = run("mcp", "add", "--scope", "user", "kg-shim", "-e", f"KG_HTTP_PORT={srv.port}", "-e",
                f"KG_HOME={srv.store}", "--", KG, "mcp")
    assert added.returncode == 0, added.stderr
    listed = run("mcp", "list")
    lines = {line.split(":", 1)[0]: line for line in listed.stdout.splitlines() if line.startswith("kg-")}
    assert set(lines) == {"kg-http", "kg-shim"}, listed.stdout + listed.stderr
    for name, line in lines.items():
        assert "✔ Connected" in line and "fail" not in line.lower(), f"{name}: {line}"


def test_claude_code_connects_kg_mcp_while_another_program_holds_kgs_port(tmp_path):
    # The shim failed its initialize: Claude Code then skipped kg's plugin server in every session for 15 minutes
    # (its cache of failed plugin servers), long after kg's server was back (found by an outside audit).
    claude = npm_bin("claude")
    home = tmp_path / "claude-home"
    home.mkdir()
    env = client_env(home)
    with another_program(b"<html>501 Unsupported method</html>", 501, "text/html") as port:
        added = subprocess.run([claude, "mcp", "add", "--scope", "user", "kg-shim", "-e", f"KG_HTTP_PORT={port}", "-e",
                                f"KG_HOME={tmp_path / 'store'}", "--", KG, "mcp"], env=env, capture_output=True,
                               text=True, timeout=CLIENT_TIMEOUT, cwd=tmp_path)
        assert added.returncode == 0, added.stderr
        listed = subprocess.run([claude, "mcp", "list"], env=env, capture_output=True, text=True,
                                timeout=CLIENT_TIMEOUT, cwd=tmp_path)
    line = next((x for x in listed.stdout.splitlines() if x.startswith("kg-shim")), listed.stdout + listed.stderr)
    assert "✔ Connected" in line and "fail" not in line.lower(), line


def _hold_get_stream(port: int) -> socket.socket:
    """What Claude Code and the TypeScript SDK open after initialize: a GET asking for an SSE stream."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    return sock


async def test_python_sdk_with_a_get_stream_held_open_beside_it(srv):
    held = _hold_get_stream(srv.port)
    try:
        with trio.fail_after(15):  # a hostage request would wait forever
            async with Client(srv.url + "/") as client:
                tools = await client.list_tools()
                assert any(t.name == "kg_read" for t in tools.tools)
                result = await client.call_tool("kg_read", {"cwd": srv.project("held-get")})
                assert not result.is_error, mcp_text(result)
        head = held.recv(4096).decode()
        assert head.startswith("HTTP/1.1 405") and "\r\nallow: POST\r\n" in head, head
    finally:
        held.close()


def _raw(port: int, request: bytes) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while data := sock.recv(65536):
            chunks.append(data)
            if b"\r\n\r\n" in b"".join(chunks) and b"}" in data:
                break
        return b"".join(chunks).decode()


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "PATCH"])
def test_methods_other_than_post_get_405_naming_the_allowed_one(srv, method):
    reply = _raw(srv.port, f"{method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                           "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
    assert reply.startswith("HTTP/1.1 405"), reply
    assert "\r\nallow: POST\r\n" in reply, reply
    assert "takes POST only" in reply


@pytest.mark.parametrize("version", ["bogus", "2026-01-01"])
def test_a_protocol_version_header_not_spoken_gets_400_naming_it_and_the_ones_spoken(srv, version):
    # The SDK said "params._meta must be an object carrying the required ... envelope keys".
    body = b'{"jsonrpc":"2.0","id":7,"method":"tools/list"}'
    reply = _raw(srv.port, b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                           b"Content-Type: application/json\r\nMCP-Protocol-Version: " + version.encode() +
                           b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
    assert reply.startswith("HTTP/1.1 400"), reply
    error = json.loads(reply.split("\r\n\r\n", 1)[1])
    assert error["id"] == 7 and f"MCP-Protocol-Version '{version}' is not one this server speaks" in \
        error["error"]["message"] and "2025-06-18" in error["error"]["message"], error


def test_a_body_not_sent_as_json_gets_a_json_rpc_error_naming_the_content_type(srv):
    # The SDK answered "Invalid Content-Type header" in plain text, the one error that was not JSON-RPC.
    body = b'{"jsonrpc":"2.0","id":8,"method":"tools/list"}'
    reply = _raw(srv.port, b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                           b"Content-Type: text/plain\r\nContent-Length: " + str(len(body)).encode() +
                           b"\r\nConnection: close\r\n\r\n" + body)
    assert reply.startswith("HTTP/1.1 400") and "application/json" in reply.split("\r\n\r\n")[0].lower(), reply
    error = json.loads(reply.split("\r\n\r\n", 1)[1])
    assert "Content-Type must be application/json, not 'text/plain'" in error["error"]["message"], error


@pytest.mark.parametrize("media", ["Application/JSON", "application/json; charset=UTF-8"])
def test_a_json_content_type_in_any_case_is_served(srv, media):
    # Media types are case-insensitive: the SDK refused Application/JSON with a 415.
    body = b'{"jsonrpc":"2.0","id":9,"method":"tools/list"}'
    reply = _raw(srv.port, b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                           b"Content-Type: " + media.encode() + b"\r\nContent-Length: " + str(len(body)).encode() +
                           b"\r\nConnection: close\r\n\r\n" + body)
    assert reply.startswith("HTTP/1.1 200"), reply[:300]


async def test_a_client_that_stops_reading_holds_no_one_hostage(srv):
    """A POST whose client never reads its (large) reply: the next request is still answered."""
    stalled = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    request = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    try:
        for _ in range(20):  # pipelined: their replies fill the socket buffers and are never read
            stalled.sendall(request)
        with trio.fail_after(15):
            async with Client(srv.url + "/") as client:
                assert (await client.list_tools()).tools
    finally:
        stalled.close()
