"""What the store's pid file names: this store's running server, or why none (a file naming no server of
this store is removed, and said: a stale one, a store that refuses its removal)."""

from __future__ import annotations

from pathlib import Path

from .server_process import alive, has_exited, is_server, parse


def named(pid_file: Path) -> tuple[int | None, int | None, str]:
    """The running server the pid file names and the port it names (None: a file of an older kg), or None
    and why not (a file naming none is removed)."""
    try:
        pid, port = parse(pid_file.read_text())
    except FileNotFoundError:
        return None, None, "no pid file"
    except IsADirectoryError:
        return None, None, f"{pid_file} is a folder, not a pid file"
    except (OSError, ValueError):
        return None, None, f"{pid_file} holds no pid; {_removed(pid_file)}"
    from .storage import lock  # here: `kg mcp` imports this module and needs none of it

    # A stale file may name a pid the system has since given to another program: never signal that one. A
    # store copied while its server ran names that server too, which holds the original, not this copy.
    if not is_server(pid):
        # Never a signal to a group (0, -1) nor an overflow; a server killed but not yet reaped runs no more.
        running = 0 < pid < 2 ** 31 and alive(pid) and not has_exited(pid)
        whose = "another program's process, not a kg server" if running else "which no longer runs"
        return None, None, f"stale pid file: it named pid {pid}, {whose}; {_removed(pid_file)}"
    if lock.holder_present(pid_file.parent) is False:
        return None, None, (f"stale pid file: it named pid {pid}, a kg server holding another store, not "
                            f"this one; {_removed(pid_file)}")
    return pid, port, ""


def _removed(pid_file: Path) -> str:
    """A pid file naming no server of this store removed; said, as is a store that refuses it (read-only)."""
    try:
        pid_file.unlink(missing_ok=True)
    except OSError as exc:
        return (f"it could not be removed ({exc.strerror or exc}): the store's folder {pid_file.parent} is not "
                "writable, which a `kg start` needs")
    return "removed"
