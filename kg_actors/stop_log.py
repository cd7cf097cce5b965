"""What a stopped server's log says of the saves its stop could not make (the log is all that is left of it
once it exited): `kg stop` names them, with where what they held is."""

from __future__ import annotations

import os
from pathlib import Path

from .server_process import GRAPH_NOT_SAVED, SESSIONS_NOT_SAVED


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
