"""The editor's port, held from the start, its web stack loaded at its first connection.

quart, hypercorn and what they pull in (flask, werkzeug, jinja2, h2: ~14 MiB resident) serve one
page that most sessions never open. The port is bound and listening when the server starts, so a
busy port is said then and a browser's connection waits in the backlog; the stack is imported (in a
thread) only once a connection is pending, and hypercorn then serves on this very socket.
"""

from __future__ import annotations

import socket

import trio

BACKLOG = 100  # hypercorn's own default


def bind(host: str, port: int) -> socket.socket | OSError:
    """A listening socket on host:port, or why there is none (a busy port, most often)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # accepted sockets inherit it
        sock.bind((host.strip("[]"), port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        return exc
    sock.setblocking(False)
    return sock


def busy_message(bind_to: str, error: OSError) -> str:
    return (f"visual editor off: cannot serve on {bind_to} ({error.strerror or error}); MCP and the hooks are "
            "unaffected. Move the editor with --editor-port PORT or KG_EDITOR_PORT, or leave it off with --no-editor")


async def first_connection(sock: socket.socket) -> None:
    """Return once a connection waits to be accepted (it stays queued for whoever accepts next)."""
    await trio.lowlevel.wait_readable(sock)
