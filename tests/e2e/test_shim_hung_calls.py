"""A tool call through `kg mcp` to a server that answers nothing (hung, or SIGSTOPped) fails within seconds, with
the cause and the fix, well inside every client's own bound (OpenCode gives an MCP call 5 s, the MCP SDK 60 s);
a server alive but slow on a call (it still answers its health check) is waited for.

Found by an outside audit: each call to a hung server took 63 s (a 3 s health check, then the 60 s request
timeout), so the SDK and OpenCode gave up first with a bare "Request timed out", and each retry cost a minute.
"""

from __future__ import annotations

import json
import os
import signal
import time

from e2e_helpers import another_program, start_server
from other_programs import busy, silent
from test_shim import INITIALIZE, RawShim, _request, _shim_env

OPENCODE_CALL_BOUND = 5.0  # OpenCode's default MCP timeout: the tightest of the clients kg is set up for


def _call(shim: RawShim, msg_id: int, tool: str = "kg_search", **arguments) -> tuple[dict, float]:
    began = time.monotonic()
    shim.send(_request(msg_id, "tools/call", {"name": tool, "arguments": arguments or {"query": "x"}}))
    reply = json.loads(shim.read_line(timeout=120))
    return reply, time.monotonic() - began


def test_a_call_to_a_server_found_hung_at_the_handshake_fails_at_once_naming_what_holds_the_port(tmp_path):
    with silent() as (port, _):
        shim = RawShim({"HOME": str(tmp_path), "KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
        try:
            shim.send(INITIALIZE)
            assert "result" in json.loads(shim.read_line(timeout=30))  # answered by the shim: the server is hung
            first, took = _call(shim, 2)
            second, took_again = _call(shim, 3, "kg_put_node", id="n", gist="g")
        finally:
            shim.proc.kill()
            shim.proc.wait()
    for reply, seconds in ((first, took), (second, took_again)):
        text = reply["error"]["message"]
        assert seconds < OPENCODE_CALL_BOUND, (seconds, text)
        assert f"127.0.0.1:{port}" in text and "hung" in text, text
        # What holds the port: the stand-in runs in this test's own process, which is no kg server.
        assert f"pid {os.getpid()}" in text and "not a kg server" in text and "KG_HTTP_PORT" in text, text
        assert "was not sent" in text, text  # nothing reached it: the agent may simply try again later


def test_a_server_that_hangs_mid_session_fails_the_next_call_within_seconds_and_serves_again_once_resumed(tmp_path):
    srv = start_server(tmp_path)
    shim = RawShim(_shim_env(srv))
    try:
        shim.send(INITIALIZE)
        assert json.loads(shim.read_line())["result"]["serverInfo"]["name"] == "kg-memory"
        served, _ = _call(shim, 2, "kg_read", cwd=srv.project("hang-proj"))
        assert "result" in served, served
        srv.proc.send_signal(signal.SIGSTOP)
        try:
            reply, took = _call(shim, 3)
        finally:
            srv.proc.send_signal(signal.SIGCONT)
        text = reply["error"]["message"]
        assert took < OPENCODE_CALL_BOUND, (took, text)
        # The server's own process is named, with the ways out of a SIGSTOP.
        assert f"pid {srv.proc.pid}" in text and f"kill -CONT {srv.proc.pid}" in text, text
        assert "may still be applied" in text and "kg_read" in text, text  # it reached the server before it stopped
        again, _ = _call(shim, 4)
        assert "result" in again, again
    finally:
        shim.proc.kill()
        shim.proc.wait()
        srv.kill()


def test_a_slow_server_that_still_answers_its_health_check_is_waited_for(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    health = json.dumps({"status": "ok", "loaded_graphs": [], "storage": str(store.resolve()), "pid": 1}).encode()
    reply = json.dumps({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "slow but here"}],
                                                               "isError": False}}).encode()
    # Its own work takes longer than the shim's bound on a health check and its probes' spacing.
    with another_program(reply, delay=2 * OPENCODE_CALL_BOUND, get_at_once=True, health=health) as port:
        shim = RawShim({"HOME": str(tmp_path), "KG_HOME": str(store), "KG_HTTP_PORT": str(port)})
        try:
            shim.send(INITIALIZE)
            shim.read_line(timeout=60)
            answered, _ = _call(shim, 2)
        finally:
            shim.proc.kill()
            shim.proc.wait()
    assert answered.get("result", {}).get("content") == [{"type": "text", "text": "slow but here"}], answered


def test_a_call_that_outlasts_the_shims_wait_says_why_before_the_mcp_sdks_own_60_s_timeout():
    from shim import REQUEST_TIMEOUT
    assert REQUEST_TIMEOUT < 60.0  # the TypeScript SDK's DEFAULT_REQUEST_TIMEOUT_MSEC: its bare error would come first
