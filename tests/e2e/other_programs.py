"""Programs that are not kg on a port kg wants: one that speaks another protocol, one that cuts its
HTTP reply short. Each is a thread on 127.0.0.1 (port 0), stopped when its `with` ends."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


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
