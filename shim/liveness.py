"""How long `kg mcp` waits for the server's reply, how a hung server is told from a slow one, and what the
agent is told of a request the server took and never answered.

A hung server (its loop blocked, SIGSTOPped, or another program that takes connections and says nothing)
answers nothing, not even its health check; one busy on a long call (a first load of a large project runs off
its loop, in threads and the index process) still answers /health in milliseconds. So a reply is awaited
while the health check answers, and given up within seconds once it does not: well inside every client's own
bound (OpenCode gives an MCP call 5 s, the MCP SDK 60 s), where the shim waited a minute and the client gave
up first with a bare "Request timed out".
"""

from __future__ import annotations

import http.client
import select
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each client's start
if TYPE_CHECKING:
    from collections.abc import Callable
    from socket import socket

HEALTH_WAIT = 2.0  # a server that is up answers /health in milliseconds: one silent this long is hung
PROBE_AFTER = 1.0  # a reply this late has the server's health checked, and again each PROBE_EVERY
PROBE_EVERY = 2.0
STEP = 0.25  # how often a wait looks at the clock (the handshake's own answer is due at its second)


class Unanswered(Exception):
    """The reply is not worth waiting for any more; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def health_silent(host: str, port: int, timeout: float = HEALTH_WAIT) -> bool:
    """Whether what listens on host:port took the connection and answered nothing to GET /health within
    `timeout`. A refused connection (down, or closing as it stops) or any answer at all is no silence."""
    try:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
        conn.request("GET", "/health")
        conn.getresponse().read()
        conn.close()
    except TimeoutError:
        return True
    except (OSError, http.client.HTTPException):
        return False
    return False


def await_reply(sock: socket, budget: float, give_up: Callable[[float], str | None]) -> None:
    """Wait until the reply starts on `sock`; `give_up(seconds waited)` is asked each STEP without one and
    ends the wait with its reason (Unanswered); past `budget` seconds, TimeoutError."""
    began = time.monotonic()
    while True:
        waited = time.monotonic() - began
        if waited >= budget:
            raise TimeoutError(f"no reply within {budget:g} s")
        if select.select([sock], [], [], min(STEP, budget - waited))[0]:
            return
        reason = give_up(time.monotonic() - began)
        if reason is not None and not select.select([sock], [], [], 0)[0]:  # a reply that came meanwhile wins
            raise Unanswered(reason)


def health_watch(host: str, port: int, on_silence: Callable[[], str]) -> Callable[[float], str | None]:
    """A give_up for await_reply: the server's health checked after PROBE_AFTER s, then each PROBE_EVERY;
    `on_silence()`'s reason once it answers nothing."""
    due = [PROBE_AFTER]

    def give_up(waited: float) -> str | None:
        if waited < due[0]:
            return None
        if health_silent(host, port):
            return on_silence()
        due[0] = waited + PROBE_EVERY
        return None
    return give_up


def hung_said(host: str, port: int, sent: bool) -> str:
    """Why a request to the server at host:port is not answered: hung, what holds its port and the way out,
    and what became of the request (`sent`: it reached the server, which may still apply it)."""
    fate = ("This request reached it and may still be applied when it resumes: before writing it again, kg_read "
            "shows whether a write landed" if sent else
            "This request was not sent: try it again once the server answers (`kg status` says whether it does)")
    return (f"kg's memory server port {host}:{port} takes connections but answers nothing, not even a health check "
            f"within {HEALTH_WAIT:g} s: what holds it is hung. {holder_said(port)}. {fate}")


def holder_said(port: int) -> str:
    """What holds kg's port, and how to free it; the commands that tell where this cannot."""
    from kg_actors.server_process import is_server, is_stopped, port_holder, stopped_said

    pid = port_holder(port)
    if pid is None:  # another user's, or no /proc
        return "`kg restart` restarts it (`kg status` and `kg doctor` name what holds the port)"
    if is_server(pid) and is_stopped(pid):
        return f"It is a kg server (pid {pid}) that {stopped_said(pid)}"
    if is_server(pid):
        return (f"It is a kg server (pid {pid}): `kill {pid}` asks it to stop, `kill -9 {pid}` ends it; then "
                "`kg restart` (or the next tool call) starts it again")
    return (f"It is another program (pid {pid}), not a kg server: stop it, or move kg with KG_HTTP_PORT (then "
            "restart this agent)")


def cut_off_said(host: str, port: int, exc: OSError) -> str:
    """Why a request the server took got no answer: it closed the connection (crashed, or was killed) after
    the request reached it, so it may have been applied. It is never sent again (a write would land twice)."""
    return (f"the kg memory server at {host}:{port} closed the connection before answering ({exc}): it may have "
            "crashed (the next call starts it again if it is down). This request reached it and may or may not have "
            "been applied: before writing it again, kg_read (or kg_search) shows whether a write landed")
