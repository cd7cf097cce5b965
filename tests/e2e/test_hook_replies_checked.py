"""A hook prints only whole hook output from a server that answered 200: never a proxy's error page, a
500's body, a reply cut at the timeout, or anything else that happens to name hookSpecificOutput. Claude
Code and Codex put whatever a hook prints into the conversation. A server that hangs holds a hook under a
second (session start: two, when it may load a large graph)."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time

import pytest
from hook_helpers import run_hook

HOOK_JSON = json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "x"}})
REPLIES = {
    "proxy error page": b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 62\r\n\r\n"
                        b"<html><body>proxy error: systemMessage hookSpecificOutput</body>",
    "a 500 holding hook JSON": b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
                               + f"Content-Length: {len(HOOK_JSON)}\r\n\r\n{HOOK_JSON}".encode(),
    "a 200 that is not hook JSON": b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 41\r\n\r\n"
                                   b"<p>hookSpecificOutput systemMessage</p>\r\n",
    "a 200 cut short": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
                       + HOOK_JSON[:40].encode(),
    "no answer at all": None,
}
# Hook output for another event (Claude Code refuses a reply whose hookEventName is not its event's).
OTHER_EVENT = json.dumps({"hookSpecificOutput": {"hookEventName": "Notification", "additionalContext": "INJECTED"}},
                         separators=(",", ":"))
REPLIES["a 200 for another event"] = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                     + f"Content-Length: {len(OTHER_EVENT)}\r\n\r\n{OTHER_EVENT}".encode())


@pytest.fixture(params=list(REPLIES))
def bad_server(request, tmp_path):
    reply = REPLIES[request.param]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()
    held: list[socket.socket] = []
    # How long each hook connection was held open (its wait, not its process start). A queue: the server
    # sees the hook close a moment after the hook's process has ended, so the test waits for the figure.
    holds: queue.Queue[float] = queue.Queue()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            accepted = time.monotonic()
            conn.settimeout(10)  # longer than any hook waits (SessionStart: 5 s)
            try:
                conn.recv(65536)
                if reply is not None:
                    conn.sendall(reply)  # and keep the connection open: a cut reply never ends by itself
                while conn.recv(65536):  # until the hook gives up on it and closes
                    pass
                holds.put(time.monotonic() - accepted)
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    env = {"HOME": str(tmp_path), "KG_HTTP_PORT": str(listener.getsockname()[1]), "PATH": "/usr/bin:/bin",
           "LANG": "C.UTF-8"}
    yield request.param, env, holds
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    listener.close()


PAYLOAD = {"session_id": "3f2b1c4d-0000-4000-8000-000000000001", "cwd": "/tmp", "hook_event_name": "UserPromptSubmit",
           "prompt": "how does the JWT refresh work", "tool_name": "Bash", "tool_input": {"command": "make deploy"}}


@pytest.mark.parametrize("hook, within", [("prompt", 1.0), ("pre_tool", 1.0), ("tool_event", 1.0),
                                          ("session_start", 6.0)])
def test_a_hook_prints_nothing_but_whole_hook_output_from_a_200(bad_server, hook, within):
    kind, env, holds = bad_server
    started = time.monotonic()
    run = run_hook(hook, PAYLOAD, env, timeout=15)
    took = time.monotonic() - started
    assert run.rc == 0 and run.err == "" and run.out == "", (kind, run.out)
    assert "proxy error" not in run.out and "half" not in run.out
    # The hook's own wait is what it promises (the server side sees it); its process start on a loaded
    # machine is not, so the whole run only has to end (a hook that never gave up would fail that).
    seen = [holds.get(timeout=10)]  # the first connection's close; then any others already seen
    while not holds.empty():
        seen.append(holds.get_nowait())
    assert max(seen) < within, (kind, seen)
    assert took < within + 3, (kind, took)
