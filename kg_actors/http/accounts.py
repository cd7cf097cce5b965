"""Another account of this machine is no client: the memory is its owner's alone.

The server listens on loopback, where every account of the machine can connect, and trusts what
connects (hooks and MCP clients carry no credential). So a request is refused when the socket it
came from belongs to another user: Linux names each TCP socket's owner in /proc/net/tcp, where the
client's end of the connection is the line whose local address is the scope's client and whose
remote address is the scope's server. Elsewhere (no /proc), over IPv6, or when the line is not found
(the client already left), nothing is refused: the check only ever takes away another account's
access, never this user's. The table is read on the loop, once a connection: procfs answers from memory
(tens of microseconds), which a thread's hand-off would cost as much as.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping
from typing import Any

TABLE = "/proc/net/tcp"
REMEMBERED = 1024  # connections whose owner is remembered (a kept-alive client asks once)
REMEMBER_SECONDS = 5.0  # a closed connection's port is not another's this soon (TIME_WAIT holds it)


def _hex_address(host: str, port: int) -> bytes | None:
    """The address as /proc/net/tcp writes it: the IPv4 address as a little-endian word, then the port."""
    try:
        packed = socket.inet_aton(host)
    except OSError:
        return None
    return b"%08X:%04X" % (int.from_bytes(packed, "little"), port)


def owner(table: bytes, client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """The uid owning the client's end of the connection client -> server, from the table's text."""
    local, remote = _hex_address(*client), _hex_address(*server)
    if local is None or remote is None:
        return None
    at = table.find(b" %s %s " % (local, remote))
    if at < 0:
        return None
    fields = table[at:table.find(b"\n", at)].split()
    # local, remote, state, queues, timer, retransmits, uid
    try:
        return int(fields[6])
    except (IndexError, ValueError):
        return None


class Accounts:
    def __init__(self, me: int | None = None, read: Callable[[], bytes] | None = None,
                 clock: Callable[[], float] | None = None):
        self.me = os.getuid() if me is None else me
        self._read = read or _read_table
        self._clock = clock or _monotonic
        self._known: dict[tuple[Any, Any], tuple[bool, float]] = {}

    def other(self, scope: Mapping[str, Any]) -> bool:
        """Whether the scope's request comes from another account's socket."""
        client, server = scope.get("client"), scope.get("server")
        if not client or not server:
            return False  # not over a socket (a test's in-process call)
        key = ((str(client[0]), int(client[1])), (str(server[0]), int(server[1])))
        now = self._clock()
        known = self._known.get(key)
        if known is not None and known[1] > now:
            return known[0]
        try:
            uid = owner(self._read(), *key)
        except OSError:
            uid = None
        verdict = uid is not None and uid != self.me
        if len(self._known) >= REMEMBERED:
            self._known.clear()
        self._known[key] = (verdict, now + REMEMBER_SECONDS)
        return verdict


def _read_table() -> bytes:
    with open(TABLE, "rb") as f:
        return f.read()


def _monotonic() -> float:
    import time

    return time.monotonic()
