"""The editor's port is held from the start, but its web stack (quart, hypercorn, flask, jinja2: ~14 MiB) is
loaded only when a browser first connects; that first page is then served as any other."""

from __future__ import annotations

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
