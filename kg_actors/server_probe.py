"""Asking a port whether a kg server answers there: its /health, a hung server told apart from a program
that is not kg, and what holds the port when none answers. Shared by `kg start`, `kg status` and
`kg doctor`.

Standard library only, imported lazily: `kg mcp` reaches the commands that use it.
"""

from __future__ import annotations

import json
import socket

from .server_process import is_server, is_stopped, listening_ports, port_holder, stopped_said

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each `kg mcp` start
if TYPE_CHECKING:
    from typing import Any

HUNG_AFTER = 3.0  # a server that is up answers /health in milliseconds: one silent this long is hung


def get_health(url: str, timeout: float = 1.0, query: str = "") -> dict[str, Any] | None:
    health = probe_health(url, timeout, query)
    return health if isinstance(health, dict) else None


def probe_health(url: str, timeout: float = HUNG_AFTER, query: str = "") -> dict[str, Any] | str | None:
    """The /health answer; "hung" when something took the connection and said nothing within `timeout`;
    None when nothing listens or what answered is no kg server."""
    import http.client
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"{url}/health{query}", timeout=timeout) as r:
            health = json.loads(r.read())
    except TimeoutError:
        return "hung"
    except urllib.error.URLError as exc:
        return "hung" if isinstance(exc.reason, TimeoutError) else None
    except (OSError, ValueError, http.client.HTTPException):  # HTTPException: a program speaking no HTTP
        return None
    return health if isinstance(health, dict) else None  # a JSON answer of another program is no kg health


def listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def port_taken(port: int, answer: object) -> tuple[str, str]:
    """What holds `port` where no kg server answered (`answer`: probe_health's), and the fix."""
    holder = port_holder(port)
    if answer == "hung" and holder is not None and is_server(holder):
        return (f"the port is held by a kg server (pid {holder}) that does not answer /health within "
                f"{HUNG_AFTER:.0f} s: it is hung", f"kill {holder} (or kg stop with its KG_HOME), then kg start")
    if answer == "hung":
        return (f"the port is held by a program that takes connections but does not answer /health within "
                f"{HUNG_AFTER:.0f} s", "stop that program, or move kg with --port PORT or KG_HTTP_PORT")
    return ("the port is taken by a program that is not the kg server",
            "stop that program, or move kg with --port PORT or KG_HTTP_PORT")


def stuck(host: str, pid: int, port: int | None) -> str | None:
    """What the store's server `pid` is when it answers no more but is no server stopping (which a start
    waits for): stopped by a signal, or still listening on `port` yet silent HUNG_AFTER s, hung. None: it
    may be stopping (it closed its port, or still answers)."""
    if is_stopped(pid):
        return f"(pid {pid}) {stopped_said(pid)}"
    if port is not None and port in listening_ports(pid) and probe_health(f"http://{host}:{port}") == "hung":
        return (f"(pid {pid}) listens on port {port} but does not answer /health within {HUNG_AFTER:.0f} s: it is "
                f"hung; `kill {pid}` asks it to stop, `kill -9 {pid}` ends it")
    return None
