"""The editor's port is held from the start, but its web stack (quart, hypercorn, flask, jinja2: ~14 MiB) is
loaded only when a browser first connects; that first page is then served as any other."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

from e2e_helpers import start_server
from rpc_helpers import Conn

# markupsafe's compiled speed-ups are mapped into the process iff jinja2 (and so quart) was imported.
JINJA = "markupsafe/_speedups"


def _mapped(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


def test_the_editor_stack_loads_at_the_first_connection_and_serves_the_page(tmp_path):
    srv = start_server(tmp_path)
    try:
        assert srv.health()["editor"]["state"] == "up"
        conn = Conn(srv.port)
        try:
            text, error = conn.tool("kg_read", cwd=srv.project("lazy-app"))  # a session's work needs no editor
        finally:
            conn.close()
        assert not error and "Session: " in text
        assert JINJA not in _mapped(srv.proc.pid)
        page = f"http://127.0.0.1:{srv.editor_port}/"
        request = urllib.request.Request(page, headers={"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"})
        with urllib.request.urlopen(request, timeout=30) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
            assert r.headers["X-Frame-Options"] == "DENY"
        assert JINJA in _mapped(srv.proc.pid)
        with urllib.request.urlopen(f"http://127.0.0.1:{srv.editor_port}/health", timeout=5) as r:
            assert r.status == 200
    finally:
        srv.kill()


def test_a_connection_close_exchange_answered_by_the_page_ends_with_the_connection(tmp_path):
    # quart-trio cancelled its own request task while hypercorn was closing the connection from inside its last
    # send: a 404 or a refusal on the editor's port never closed (a client reading to the end hung).
    srv = start_server(tmp_path)
    try:
        for path, host in (("/no-such-page", "127.0.0.1"), ("/", "evil.example")):
            with socket.create_connection(("127.0.0.1", srv.editor_port), timeout=30) as sock:
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{srv.editor_port}\r\n"
                             "Connection: close\r\n\r\n".encode())
                got = b""
                while chunk := sock.recv(65536):  # a hang is the socket's timeout (30 s), not an answer
                    got += chunk
            assert got.split(b" ", 2)[1] in (b"404", b"421"), got[:200]
    finally:
        srv.kill()
