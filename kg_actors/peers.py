"""Which of the server's connections their client has closed: a reply counts only once written.

http/server.py reads nothing more from an HTTP/1.1 connection while the app answers its request
(what follows may be the client's next request), so a client that gave up meanwhile is never
announced to the app as `http.disconnect`. The listener (hook_priority.HookAwareListener) records
each connection it accepts here, by its two addresses as they appear in an ASGI scope; a reply
about to be sent asks the socket itself: a peek that finds the end of the stream (or a reset)
means nobody will read it.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from typing import Any

_open: dict[tuple[Any, Any], socket.socket] = {}  # (server address, client address) -> the connection


def opened(conn: socket.socket) -> tuple[Any, Any] | None:
    try:
        key = (_address(conn.getsockname()), _address(conn.getpeername()))
    except OSError:  # the peer already left
        return None
    _open[key] = conn
    return key


def closed(key: tuple[Any, Any] | None) -> None:
    if key is not None:
        _open.pop(key, None)


def hung_up(scope: Mapping[str, Any]) -> bool:
    """True when the scope's connection is known and its client closed it (or reset it)."""
    server, client = scope.get("server"), scope.get("client")
    conn = _open.get((_address(server), _address(client))) if server and client else None
    if conn is None:
        return False
    try:
        return conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""  # data: a next request, still there
    except BlockingIOError:
        return False
    except OSError:
        return True


def _address(addr: Any) -> tuple[str, int]:
    return (str(addr[0]), int(addr[1]))
