"""What a stopped server's log says of the saves its stop could not make (the log is all that is left of it
once it exited): `kg stop` names them, with where what they held is."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .server_process import GRAPH_NOT_SAVED, SESSIONS_NOT_SAVED
from .storage.refusals import user_fix


def logged_at_stop(root: Path, offset: int) -> list[str]:
    """The lines the stopped server logged after `offset` (its stop's)."""
    try:
        with open(root / "server.log", "rb") as log:
            log.seek(offset if offset <= os.fstat(log.fileno()).st_size else 0)  # rotated: from its start
            return log.read(1 << 20).decode("utf-8", "replace").splitlines()
    except OSError:
        return []


def sessions_not_saved(lines: list[str]) -> str | None:
    """What the stopped server logged of its last save of the sessions failing, or None."""
    said = next((line for line in lines if SESSIONS_NOT_SAVED in line), None)
    return said.split(SESSIONS_NOT_SAVED + ": ", 1)[-1] if said else None


def graphs_not_saved(root: Path, lines: list[str]) -> list[str]:
    """Each graph whose last save and rescue both failed, with where its answered changes are (its journal)."""
    from .storage import layout as L  # not at import: `kg mcp` starts without attrs
    from .storage.journal import journal_path

    said = []
    for line in lines:
        if GRAPH_NOT_SAVED + ": " not in line:
            continue
        key = line.split(GRAPH_NOT_SAVED + ": ", 1)[1].split(": ", 1)[0]
        try:
            journal = journal_path(L.Layout(root).graph_file(key))
        except Exception:  # noqa: BLE001 - a line not of this version's form: the key alone is said
            said.append(f"graph {key}")
            continue
        said.append(f"graph {key} failed and could not be rescued either: its answered changes are in its journal "
                    f"{journal}, which the next start replays once the store writes again" if journal.exists() else
                    f"graph {key} failed and could not be rescued either, and no journal {journal} is left: the "
                    "changes since its last save are lost")
    return said


def log_size(root: Path) -> int:
    try:
        return (root / "server.log").stat().st_size
    except OSError:
        return 0


def say_stopped(pid: int, root: Path, asked: float, log_from: int = 0) -> int:
    """Say the server stopped, or that its last save failed and where it rescued the graphs (exit 1)."""
    try:
        rescued = sorted(str(p) for p in (root / "rescued").iterdir() if p.stat().st_mtime >= asked - 1)
    except OSError:
        rescued = []
    lines = logged_at_stop(root, log_from)
    graphs = graphs_not_saved(root, lines)
    failed = [f"the last save of {graph}" for graph in graphs]
    if (sessions := sessions_not_saved(lines)) is not None:
        failed.append(f"{sessions}; {user_fix(sessions, root, root / 'sessions.json')}")
    if len(failed) == 1:
        print(f"kg: stopped (pid {pid}), but {failed[0]} (`kg logs` says what failed)", file=sys.stderr)
    elif failed:  # one stop said once, what failed listed under it
        print(f"kg: stopped (pid {pid}), but {len(failed)} saves failed (`kg logs` says what failed):"
              + "".join(f"\n  - {what}" for what in failed), file=sys.stderr)
    if (graphs or sessions is not None) and not rescued:
        return 1
    if not rescued:
        print(f"kg: stopped (pid {pid})")
        return 0
    # The journal usually survives the failed save and the next start replays it: a rescued copy put back over
    # a graph the server has saved since would lose the writes made after it.
    print(f"kg: stopped (pid {pid}), but its last save failed (`kg logs` says why): the graph as it was in memory "
          f"is kept in {', '.join(rescued)}. Its journal holds the answered changes too, and the next start "
          "replays them: once the store writes again, start the server and look; only if lessons are missing, "
          "stop it and copy the rescued file over the graph's file before anything writes to it",
          file=sys.stderr)
    return 1
