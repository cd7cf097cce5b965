"""A call through `kg mcp` that the server took and then died on (a crash, a kill -9) is reported as such: it
reached the server, so it may or may not have been applied, and kg_read shows which. It is never sent again
(only a refused connection is retried: spec 000, Transport).

Found by an outside audit: the agent was told "server unreachable" (Connection reset by peer), and not that
its write may already be stored.
"""

from __future__ import annotations

import json
import os
import signal

from e2e_helpers import kg, start_server, wait_until
from test_shim import INITIALIZE, RawShim, _request, _shim_env

from kg_actors.testing import session_of


def _queued_at(port: int) -> int:
    """Bytes waiting unread on the server's side of its connections on `port` (/proc/net/tcp)."""
    total = 0
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":  # established
            total += int(fields[4].split(":")[1], 16)
    return total


def test_a_write_the_server_died_on_is_said_to_have_maybe_landed_and_kg_read_then_tells(tmp_path):
    srv = start_server(tmp_path)
    env = _shim_env(srv)
    shim = RawShim(env)
    try:
        shim.send(INITIALIZE)
        shim.read_line()
        shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": srv.project("cut-proj")}}))
        sid = session_of(json.loads(shim.read_line())["result"]["content"][0]["text"])
        srv.proc.send_signal(signal.SIGSTOP)  # it takes the request (the kernel queues it) and reads nothing yet
        shim.send(_request(3, "tools/call", {"name": "kg_put_node", "arguments": {
            "session_id": sid, "level": "project", "id": "cut-off-node", "gist": "sent as the server died"}}))
        wait_until(lambda: _queued_at(srv.port) > 0, 20, "the write to reach the server's socket")
        srv.proc.send_signal(signal.SIGKILL)
        srv.proc.wait()
        text = json.loads(shim.read_line())["error"]["message"]
        assert "unreachable" not in text, text
        assert "closed the connection before answering" in text and "may or may not have been applied" in text, text
        assert "kg_read" in text, text  # how to tell
        # The next call starts the server again, and reads what landed (here: nothing, it was killed unread).
        shim.send(_request(4, "tools/call", {"name": "kg_search", "arguments": {"query": "cut-off-node"}}))
        assert "result" in json.loads(shim.read_line()), "the next call is served by a new server"
    finally:
        shim.proc.kill()
        shim.proc.wait()
        if srv.proc.poll() is None:
            srv.proc.send_signal(signal.SIGCONT)
            srv.kill()
        kg(["stop"], dict(os.environ, **env))
