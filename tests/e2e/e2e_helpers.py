"""Helpers shared by the end-to-end tests: real `kg serve` processes, real MCP clients.

Everything here talks to a server over 127.0.0.1 only; waits poll a condition
against a deadline, never sleep for timing.
"""

from __future__ import annotations

import http.server
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mcp import Client

from kg_actors.testing import ServerProcess, mcp_text, session_of, write_store

KG = str(Path(sys.executable).with_name("kg"))


def start_server(base: Path, user: dict | None = None, projects: dict[str, dict] | None = None,
                 extra_env: dict | None = None, before_start=None) -> ServerProcess:
    """A `kg serve` on a fresh (or pre-seeded) store under `base`."""
    srv = ServerProcess(base, extra_env)
    if user is not None or projects:
        write_store(srv.store, user, projects)
    if before_start is not None:
        before_start(srv)
    return srv.start()


class Session:
    """One kg session over one MCP client: `await s("kg_put_node", ...)` -> (text, is_error)."""

    def __init__(self, client: Client, sid: str, first_text: str = ""):
        self.client = client
        self.sid = sid
        self.first_text = first_text

    @classmethod
    async def open(cls, client: Client, cwd: str | None = None, **extra) -> Session:
        args = dict(extra)
        if cwd is not None:
            args["cwd"] = cwd
        text, err = await call(client, "kg_read", args)
        assert not err, text
        return cls(client, session_of(text), text)

    async def __call__(self, tool: str, **args) -> tuple[str, bool]:
        args.setdefault("session_id", self.sid)
        if "frm" in args:
            args["from"] = args.pop("frm")
        return await call(self.client, tool, args)

    async def ok(self, tool: str, **args) -> str:
        text, err = await self(tool, **args)
        assert not err, f"{tool} failed: {text}"
        return text

    async def err(self, tool: str, **args) -> str:
        text, err = await self(tool, **args)
        assert err, f"{tool} should have been refused: {text}"
        return text


async def call(client: Client, tool: str, args: dict) -> tuple[str, bool]:
    result = await client.call_tool(tool, args)
    return mcp_text(result), bool(result.is_error)


def get_json(server: ServerProcess, path: str, **query) -> dict:
    q = {k: v for k, v in query.items() if v is not None}
    url = f"{server.url}{path}" + (f"?{urllib.parse.urlencode(q)}" if q else "")
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def graph(server: ServerProcess, session_id: str | None = None, project_path: str | None = None,
          reload: bool = False) -> dict:
    """GET /api/graph/read: {"user": {...}, "project": {...}} with nodes and edges as stored."""
    return get_json(server, "/api/graph/read", session_id=session_id, project_path=project_path,
                    reload="true" if reload else None)


def nodes_by_id(level: dict) -> dict[str, dict]:
    return {n["id"]: n for n in level["nodes"]}


def edge_keys(level: dict) -> set[tuple[str, str, str]]:
    return {(e["from"], e["to"], e["rel"]) for e in level["edges"]}


def store_files(root: Path) -> dict[str, bytes]:
    """Every file of a store, by relative path, for before/after comparisons."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            out[str(path.relative_to(root))] = path.read_bytes()
    return out


def on_disk_graph(graph_file: Path) -> dict:
    """What a restart would load: the JSON (with `.prev` fallback) plus its journal, as stored JSON."""
    from kg_actors.core.model import snapshot_to_json
    from kg_actors.graph_loading import load_graph

    g, _ = load_graph(graph_file, "project" if graph_file.name == "graph.json" else "user", None)
    return snapshot_to_json(g.snapshot_json())


def wait_until(predicate, timeout: float = 20.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)


def unread_by_server(conn: socket.socket, port: int) -> int | None:
    """Bytes the server on `port` has not read yet from the client socket `conn` (its side in /proc/net/tcp)."""
    here = conn.getsockname()[1]
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and int(fields[2].split(":")[1], 16) == here:
            return int(fields[4].split(":")[1], 16)
    return None


def refuses(port: int) -> bool:
    """Nothing takes a connection on `port` (a server stopped, or draining: its listener is closed)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return False
    except OSError:
        return True


def health_at(env: dict) -> dict | None:
    """/health of the server at `env`'s KG_HTTP_PORT; None when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{env['KG_HTTP_PORT']}/health", timeout=5) as r:
            return json.loads(r.read())
    except OSError:
        return None


def kg(args: list[str], env: dict, timeout: float = 60.0, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the installed `kg` command with `env` (in `cwd`); bounded in time."""
    return subprocess.run([KG, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, cwd=cwd)


def reference_graph(nodes: list[dict], edges=(), project_path: str | None = None) -> dict:
    """A graph file in the reference format: nodes by id, edges keyed `from->to:rel`, `_meta`."""
    out = {
        "nodes": {n["id"]: n for n in nodes},
        "edges": {f"{s}->{d}:{r}": {"from": s, "to": d, "rel": r} for s, d, r in edges},
        "_meta": {"versions": {}, "namespace": {"kind": "project" if project_path else "user", "owner": None}},
    }
    if project_path:
        out["_meta"]["project_path"] = project_path
    return out


@contextmanager
def another_program(body: bytes, status: int = 200, content_type: str = "application/json",
                    delay: float = 0.0, get_at_once: bool = False, health: bytes | None = None) -> Iterator[int]:
    """Some other program on a port of this machine, answering every GET and POST with `body` (`delay` seconds
    after it came: its own work, not the test's wait; a GET at once with `get_at_once`); `health`: its answer to
    GET /health instead (a stand-in for a kg server); yields the port."""

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's names)
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if delay and not (get_at_once and self.command == "GET"):
                threading.Event().wait(delay)
            said = health if health is not None and self.command == "GET" and self.path == "/health" else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(said)))
            self.end_headers()
            self.wfile.write(said)

        do_GET = do_POST

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
