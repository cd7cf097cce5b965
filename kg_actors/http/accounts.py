"""Another account of this machine is no client: the memory is its owner's alone.

The server listens on loopback, where every account of the machine can connect, and trusts what
connects (hooks and MCP clients carry no credential). So a request is refused when the socket it
came from belongs to another user. Linux tells a TCP socket's owner through netlink's sock_diag:
asked for the one socket whose local address is the scope's client and whose remote address is the
scope's server, the kernel looks it up and answers with its uid (about 30 µs; reading /proc/net/tcp
instead costs milliseconds, the kernel writing out every socket). Elsewhere (no netlink), over IPv6,
or when the socket is not found (the client already left), nothing is refused: the check only ever
takes away another account's access, never this user's. Asked once a connection, on the loop: the
answer is in the kernel's memory, and a thread's hand-off would cost as much.
"""

from __future__ import annotations

import os
import socket
import struct
import time
from collections.abc import Callable, Mapping
from typing import Any

REMEMBERED = 1024  # connections whose owner is remembered (a kept-alive client is asked about once)
REMEMBER_SECONDS = 5.0  # a closed connection's port is not another's this soon (TIME_WAIT holds it)

_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST = 1
_NLMSG_ERROR = 2
_NO_COOKIE = 0xFFFFFFFF
_HEADER = struct.Struct("=LHHLL")  # struct nlmsghdr
_UID_AT = _HEADER.size + 4 + 48 + 12  # in struct inet_diag_msg: after family..retrans, the socket id, 3 counters

Address = tuple[str, int]


def request(client: Address, server: Address) -> bytes | None:
    """The sock_diag question for the client's end of the connection client -> server (IPv4 only)."""
    try:
        src, dst = socket.inet_aton(client[0]), socket.inet_aton(server[0])
    except OSError:
        return None
    sockid = (struct.pack("!HH", client[1], server[1]) + src + bytes(12) + dst + bytes(12)
              + struct.pack("=III", 0, _NO_COOKIE, _NO_COOKIE))
    body = struct.pack("=BBBxI", socket.AF_INET, socket.IPPROTO_TCP, 0, 0xFFFFFFFF) + sockid
    return _HEADER.pack(_HEADER.size + len(body), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, 1, 0) + body


def uid_in(answer: bytes) -> int | None:
    """The uid in the kernel's answer; None for an error (no such socket) or a short answer."""
    if len(answer) < _UID_AT + 4 or _HEADER.unpack_from(answer)[1] == _NLMSG_ERROR:
        return None
    uid: int = struct.unpack_from("=I", answer, _UID_AT)[0]
    return uid


def owner(client: Address, server: Address) -> int | None:
    """The uid owning the client's end of the connection; None when it cannot be told."""
    question = request(client, server)
    if question is None or not hasattr(socket, "AF_NETLINK"):
        return None
    with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, _NETLINK_SOCK_DIAG) as nl:
        nl.settimeout(1.0)
        nl.send(question)
        return uid_in(nl.recv(8192))


class Accounts:
    def __init__(self, me: int | None = None, ask: Callable[[Address, Address], int | None] | None = None,
                 clock: Callable[[], float] | None = None):
        self.me = os.getuid() if me is None else me
        self._ask = ask or owner
        self._clock = clock or time.monotonic
        self._known: dict[tuple[Address, Address], tuple[bool, float]] = {}

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
            uid = self._ask(*key)
        except OSError:
            uid = None
        verdict = uid is not None and uid != self.me
        if len(self._known) >= REMEMBERED:
            self._known.clear()
        self._known[key] = (verdict, now + REMEMBER_SECONDS)
        return verdict
