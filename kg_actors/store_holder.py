"""Who holds the store when no server of this kg does: kg-memory 0.17, which locks the same folder, left
running on a port of its own after an upgrade (its sessions start it and leave it), or another program.
Found by the store's flock in /proc/locks, named by what answers /health on the ports it listens on, and
said with the fix that frees the store. Shared by `kg start` (and so a session's start hook), `kg serve`,
`kg status`, `kg stop` and `kg doctor`.

Standard library only, cheap to import: `kg mcp` reaches the commands that ask it.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from .server_process import is_server, listening_ports

LOCKS = Path("/proc/locks")


def flock_pid(locks: str, dev: int, ino: int) -> int | None:
    """The pid /proc/locks (its text) names as holding a flock on the file (dev, ino); None: none does."""
    key = f"{os.major(dev):02x}:{os.minor(dev):02x}:{ino}"
    for line in locks.splitlines():
        fields = line.split()  # "1: FLOCK  ADVISORY  WRITE 4242 fe:00:2629799 0 EOF"; a waiter's is "1: -> FLOCK"
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == key and fields[4].isdigit():
            return int(fields[4]) or None  # 0: a holder in another pid namespace, not to be named
    return None


class Holder:
    """A process holding the store that is no server or command of this kg."""

    def __init__(self, pid: int, name: str, port: int | None = None, own_kg: str | None = None):
        self.pid, self.name, self.port, self.own_kg = pid, name, port, own_kg

    @property
    def memory(self) -> bool:
        return self.name.startswith("kg-memory")

    def said(self, root: Path) -> str:
        where = f", on port {self.port}" if self.port else ""
        kind = "another memory server" if self.memory else "not a kg server"
        return f"{root} is held by {self.name} (pid {self.pid}{where}), {kind}, not this kg's"

    def fix(self) -> str:
        if not self.memory:
            return f"stop that program (`kill {self.pid}`), or set KG_HOME to another folder"
        # Its own `kg stop` finds its server by the port it was started on (a pid file per port).
        port = f"KG_HTTP_PORT={self.port} " if self.port else ""
        own = f"`{port}{shlex.quote(self.own_kg)} stop`" if self.own_kg else \
            f"`{port}kg stop` run with kg-memory's kg, not this one"
        return f"stop it with its own kg ({own}) or `kill {self.pid}`"


def foreign(root: Path) -> Holder | None:
    """The process holding the store's lock when it is no server or command of this kg; None when none holds
    it, this kg's does (a server of it on another port, one still starting, a `kg sync`), or it cannot be told
    (no /proc)."""
    try:
        st = os.stat(root)
        pid = flock_pid(LOCKS.read_text(), st.st_dev, st.st_ino)
    except OSError:
        return None
    if pid is None or pid == os.getpid():
        return None
    from .server_probe import OtherServer, probe_health

    for port in sorted(listening_ports(pid)):
        answer = probe_health(f"http://127.0.0.1:{port}", 1.0)
        if isinstance(answer, dict):
            return None  # this kg's server: its pid file names it
        if isinstance(answer, OtherServer):
            return Holder(pid, answer.name, port, _own_kg(pid))
    argv = _argv(pid)
    if any(b"kg_memory" in arg for arg in argv):  # its server, not answering /health (starting, or hung)
        return Holder(pid, "kg-memory", None, _own_kg(pid))
    if not argv or is_server(pid) or any(arg == b"kg_actors" or os.path.basename(arg) == b"kg" for arg in argv):
        return None
    shown = " ".join(arg.decode(errors="replace") for arg in argv)
    return Holder(pid, f"another program ({shown[:80]})")


def _argv(pid: int) -> list[bytes]:
    try:
        return [arg for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if arg]
    except OSError:
        return []


def _own_kg(pid: int) -> str | None:
    """kg-memory's own `kg`, beside the python its server runs (what pip installed with it): its `kg stop` stops
    it. None where there is none, or it is not kg-memory's (this kg's, in one environment)."""
    argv = _argv(pid)
    if not argv:
        return None
    kg = Path(os.fsdecode(argv[0])).with_name("kg")
    if not kg.is_absolute():  # a python found on its PATH: no telling where
        return None
    try:
        with open(kg, "rb") as script:
            return str(kg) if b"kg_memory" in script.read(4096) else None
    except OSError:
        return None
