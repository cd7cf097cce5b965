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


class OtherServer:
    """What answered /health on kg's port but is not this kg's server: kg-memory (the reference, whose /health
    counts its graphs where ours lists them), or another program. Every field it gave is untrusted."""

    def __init__(self, health: dict[str, Any], port: int | None):
        version = health.get("version")
        kg_memory = isinstance(health.get("loaded_graphs"), int) and health.get("transport") == "streamable-http"
        self.name = (f"kg-memory {version if isinstance(version, str) and len(version) < 40 else '(version unknown)'}"
                     if kg_memory else "another program")
        pid = health.get("pid")
        self.pid = pid if isinstance(pid, int) and not isinstance(pid, bool) and pid > 0 else \
            port_holder(port) if port is not None else None

    def taken(self, port: int) -> str:
        pid = f" (pid {self.pid})" if self.pid else ""
        kind = "another memory server" if self.name.startswith("kg-memory") else "not a kg server"
        return f"the port {port} is held by {self.name}{pid}, {kind}, not this kg's"

    def fix(self) -> str:
        own = "its own `kg stop` (kg-memory's kg, not this one)" if self.name.startswith("kg-memory") else "its own way"
        kill = f", or `kill {self.pid}`" if self.pid else ""
        return f"stop it with {own}{kill}; or move kg with --port PORT or KG_HTTP_PORT"


def is_ours(health: dict[str, Any]) -> bool:
    """Whether a /health answer has this kg's shape, each field the commands read of the type they read."""
    kinds: dict[str, type | tuple[type, ...]] = {"version": str, "storage": str, "loaded_graphs": list, "pid": int, "graphs_in_trouble": dict,
             "editor": dict, "git": (dict, type(None))}
    return isinstance(health.get("loaded_graphs"), list) and isinstance(health.get("storage"), str) \
        and all(isinstance(health[k], t) for k, t in kinds.items() if k in health) \
        and all(isinstance(g, str) for g in health["loaded_graphs"])


def get_health(url: str, timeout: float = 1.0, query: str = "") -> dict[str, Any] | None:
    health = probe_health(url, timeout, query)
    return health if isinstance(health, dict) else None


def probe_health(url: str, timeout: float = HUNG_AFTER, query: str = "") -> dict[str, Any] | str | OtherServer | None:
    """The /health answer of this kg's server; "hung" when something took the connection and said nothing
    within `timeout`; an OtherServer when a JSON /health of another shape answered (kg-memory's); None when
    nothing listens or what answered gives no JSON object."""
    import http.client
    import urllib.error
    import urllib.parse
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
    if not isinstance(health, dict):  # a JSON answer of another program is no kg health
        return None
    return health if is_ours(health) else OtherServer(health, urllib.parse.urlsplit(url).port)


def listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def port_taken(port: int, answer: object) -> tuple[str, str]:
    """What holds `port` where no kg server answered (`answer`: probe_health's), and the fix."""
    if isinstance(answer, OtherServer):
        return answer.taken(port), answer.fix()
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


EDITOR_MOVE = "move it with --editor-port PORT or KG_EDITOR_PORT, then kg stop && kg start"


def editor_fix(state: str) -> str:
    """The fix for an editor the server reports off (`state`, runtime.py's words): another port only when its
    port was busy; a restart when its code did not load or failed (an install changed or broken under the
    running server: a new start loads the installed kg's)."""
    if state.startswith("off: port "):
        return EDITOR_MOVE
    return ("kg stop && kg start: the server could not run the editor's code (changed or broken since it "
            "started); a restart loads the installed kg's (kg logs says what failed; if it fails again, reinstall kg)")
