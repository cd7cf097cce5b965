"""Programs that are not kg on a port kg wants: one that speaks another protocol, one that cuts its
HTTP reply short. Each is a thread on 127.0.0.1 (port 0), stopped when its `with` ends."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def answering(reply: bytes, read_request: bool = True) -> Iterator[int]:
    """A program answering every connection with `reply` (then closing it); yields its port.
    `read_request`: it reads what the client sends first (an HTTP request's head), as a server does."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.settimeout(2)
                    if read_request:
                        conn.recv(65536)
                    conn.sendall(reply)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        listener.close()
        thread.join(5)


@contextmanager
def silent() -> Iterator[tuple[int, threading.Event]]:
    """A program that takes every connection and never answers (a server hung mid-request); yields its port
    and an event set once a request has arrived."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    asked = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)
            try:
                conn.settimeout(2)
                if conn.recv(65536):
                    asked.set()
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], asked
    finally:
        try:
            listener.shutdown(socket.SHUT_RDWR)  # wakes the accept (a close alone does not, on Linux)
        except OSError:
            pass
        listener.close()
        thread.join(5)
        for conn in held:
            conn.close()


SSH_BANNER = b"SSH-2.0-OpenSSH_9.2\r\n"
# A reply cut after its headers: the body it announces never comes.
CUT_SHORT = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\""


KG_MEMORY_HEALTH = {"status": "ok", "version": "0.17.0", "transport": "streamable-http", "active_sessions": 0,
                    "loaded_graphs": 2}  # kg-memory 0.17 (the reference) counts its graphs where kg lists them


@contextmanager
def kg_memory_like() -> Iterator[int]:
    """A server shaped as kg-memory 0.17 on the port: its /health, and an MCP endpoint at / that answers every
    request (as it would the shim's); yields its port."""
    import json
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def _reply(self, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._reply(KG_MEMORY_HEALTH)

        def do_POST(self) -> None:  # noqa: N802
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            self._reply({"jsonrpc": "2.0", "id": message.get("id"), "result": {
                "protocolVersion": "2025-03-26", "capabilities": {"tools": {}}, "serverInfo": {"name": "other"},
                "tools": []}})

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# kg-memory 0.17's server as its `kg start` leaves it: it holds the store folder's flock (as kg's server does) and
# answers /health on its own port. Stdlib only: run by a python named as that install's.
_KG_MEMORY_SERVER = f'''
import fcntl, json, os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
held = os.open(os.environ["KG_STANDIN_STORE"], os.O_RDONLY)
fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
class Health(BaseHTTPRequestHandler):
    def do_GET(self):
        data = json.dumps({KG_MEMORY_HEALTH!r}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
print(server.server_address[1], flush=True)
server.serve_forever()
'''


@contextmanager
def kg_memory_holding(store, base) -> Iterator[tuple[Any, int, str]]:
    """kg-memory 0.17's server holding `store` on a port of its own, laid out as a pip install of kg-memory under
    `base` (its python, its `kg` beside it, its server script in site-packages); yields its process (Popen), its
    port and that `kg`. Killed when the `with` ends, if it still runs."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    venv = Path(base) / "kg-memory-venv"
    script = venv / "lib" / "python3" / "site-packages" / "kg_memory" / "server" / "mcp_streamable_server.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(_KG_MEMORY_SERVER)
    (venv / "bin").mkdir(exist_ok=True)
    python = venv / "bin" / "python3"
    if not python.exists():
        python.symlink_to(sys.executable)
    old_kg = venv / "bin" / "kg"  # what pip writes for kg-memory's console script
    old_kg.write_text(f"#!{python}\nimport sys\nfrom kg_memory.cli.kg import main\nsys.exit(main())\n")
    old_kg.chmod(0o755)
    Path(store).mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([str(python), str(script)], env={**os.environ, "KG_STANDIN_STORE": str(store)},
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        yield proc, port, str(old_kg)
    finally:
        proc.kill()
        proc.wait(10)


@contextmanager
def busy(health: dict[str, Any]) -> Iterator[tuple[int, threading.Event]]:
    """A server alive but slow on a request: it answers GET /health at once with `health`, and holds every POST
    unanswered until its `with` ends; yields its port and an event set once a POST has arrived."""
    import json
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    asked, done = threading.Event(), threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            data = json.dumps(health).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            asked.set()
            done.wait()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], asked
    finally:
        done.set()
        server.shutdown()
        server.server_close()
