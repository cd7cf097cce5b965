"""This store's server running on another port than the one the agents are (to be) set up for: the clients and
hooks set up for that port never reach it, and say nothing (a hook prints nothing on failure). `kg doctor` fails it;
`kg setup` refuses to write that port into the agents."""

from __future__ import annotations

import os
from pathlib import Path

from .. import server_process
from ..storage import lock


def served_on(root: Path) -> tuple[int, int] | None:
    """The pid and port the store's pid file names (None: none, or a file of an older kg without the port)."""
    try:
        pid, port = server_process.parse((root / "server.pid").read_text())
    except (OSError, ValueError):
        return None
    return (pid, port) if port is not None and server_process.is_server(pid) else None


def said(root: Path, pid: int, port: int, wanted: int) -> str:
    return (f"{root} is served by the kg server (pid {pid}) on port {port}, not on port {wanted} (KG_HTTP_PORT): "
            "the clients and hooks set up for this port do not reach it")


def fix(port: int, wanted: int) -> str:
    return (f"kg stop && kg start (it moves to port {wanted}), or " if wanted else "") + \
        f"set KG_HTTP_PORT={port}"  # start refuses port 0


def setup_problem(root: Path, wanted: int, url: str) -> tuple[str, str] | None:
    """What is wrong, and its fix, when this store's running server is on another port than `wanted` (what setup
    would write into every agent); None when it is there, or when no server runs (the shim starts one there)."""
    from ..server_probe import probe_health

    if not root.is_dir() or not lock.holder_present(root):
        return None
    found = served_on(root)
    if found is None or found[1] == wanted or server_process.is_stopped(found[0]):
        return None
    answer = probe_health(url)  # a server of this store on `wanted` too (an old pid file) is where the agents go
    if isinstance(answer, dict) and os.path.realpath(str(answer.get("storage"))) == os.path.realpath(root):
        return None
    pid, port = found
    return said(root, pid, port, wanted), (f"KG_HTTP_PORT={port} kg setup (the agents reach it where it runs), or "
                                           f"kg stop && kg start (it moves to port {wanted}), then kg setup")
