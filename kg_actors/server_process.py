"""The store's server as a process: its pid file (pid, then the port it serves on), and, from /proc, the
ports a process listens on and the process listening on a port.

Standard library only and cheap to import: `kg mcp` reaches the commands that read it.
"""

from __future__ import annotations

import os
from pathlib import Path

LISTEN = "0A"  # a TCP socket's state in /proc/net/tcp: listening
# What a stopping server logs when its last save of the sessions failed: `kg stop` says so (the log is all
# that is left of it once it exited).
SESSIONS_NOT_SAVED = "KG SESSIONS NOT SAVED AT STOP"
# ...and of a graph whose last save failed and could not be rescued either (its journal is all there is).
GRAPH_NOT_SAVED = "KG GRAPH NOT SAVED AT STOP"


def pid_text(pid: int, port: int) -> str:
    """What the server writes to server.pid: its pid, then its port (a server on another port than the
    environment's is found by it; a file of an older kg holds the pid alone)."""
    return f"{pid}\n{port}\n"


def parse(text: str) -> tuple[int, int | None]:
    """The pid and port a pid file holds (port None: a file of an older kg); ValueError when it holds no pid."""
    words = text.split()
    if not words or not words[0].isascii() or not words[0].isdigit():
        raise ValueError(f"no pid in {text[:40]!r}")
    port = words[1] if len(words) > 1 else ""
    return int(words[0]), int(port) if port.isascii() and port.isdigit() and int(port) < 65_536 else None


def _sockets(pid: int | str) -> set[str]:
    """The inodes of the sockets a process holds (only a process of this user's can be read)."""
    out = set()
    try:
        for fd in os.scandir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(fd.path)
            except OSError:
                continue
            if target.startswith("socket:["):
                out.add(target[8:-1])
    except OSError:
        pass
    return out


def _listening(table_owner: str) -> dict[str, int]:
    """Listening TCP sockets, inode -> port, of the network namespace `/proc/<table_owner>/net` shows."""
    out = {}
    for name in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{table_owner}/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == LISTEN:
                out[fields[9]] = int(fields[1].rsplit(":", 1)[1], 16)
    return out


def listening_ports(pid: int) -> set[int]:
    """The TCP ports `pid` listens on (empty where /proc cannot tell)."""
    mine = _sockets(pid)
    return {port for inode, port in _listening(str(pid)).items() if inode in mine} if mine else set()


def port_holder(port: int) -> int | None:
    """The process (of this user's) listening on `port`, or None where none is found."""
    inodes = {inode for inode, held in _listening("self").items() if held == port}
    if not inodes:
        return None
    try:
        pids = [entry.name for entry in os.scandir("/proc") if entry.name.isdigit()]
    except OSError:
        return None
    return next((int(pid) for pid in pids if _sockets(pid) & inodes), None)


def is_server(pid: int) -> bool:
    """Whether `pid` is a running `kg serve` (where /proc cannot tell, any running process counts)."""
    if not 0 < pid < 2 ** 31:
        return False
    if not Path("/proc/self").exists():  # no procfs (macOS): trust the pid file
        return alive(pid)
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    # `kg serve` or `python -m kg_actors serve`: a bare "serve" is also `jekyll serve` or `npx serve`.
    return b"serve" in argv and any(arg == b"kg_actors" or os.path.basename(arg) == b"kg" for arg in argv)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def has_exited(pid: int) -> bool:
    """Whether `pid` has exited but is not yet reaped by its parent (a zombie, or dying: state Z or X in
    /proc). Such a process still takes a signal 0, with no command line left: it runs no more."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:][:1] in ("Z", "X")


def is_stopped(pid: int) -> bool:
    """Whether `pid` is stopped by a signal (SIGSTOP, Ctrl-Z: state T or t in /proc): it answers nothing and
    cannot exit until resumed, so no wait for it ends (False where /proc cannot tell)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:][:1] in ("T", "t")  # the name, in parentheses, may hold anything


def stopped_said(pid: int) -> str:
    """What a command says of a store's server stopped by a signal, with the two ways out. A kill -9 loses no
    answered write (graph_writer.py answers once the journal holds it); what sessions were shown is saved
    at the tick, so that much may be shown again."""
    return (f"is stopped (SIGSTOP): it answers nothing and cannot exit until resumed; `kill -CONT {pid}` resumes "
            f"it, `kill -9 {pid}` ends it (no answered write is lost: each is in its graph's journal before it is "
            "answered, and the next start replays it; a session may be shown again a lesson it saw since the last tick)")
