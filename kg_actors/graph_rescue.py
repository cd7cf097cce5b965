"""A graph whose last save failed, written to `<store>/rescued/` before its server exits.

The journal keeps every acknowledged change, but a save that failed at shutdown (a disk full or gone,
the graph's folder replaced) may take the journal with it, and the server said "stopped" all the same.
The rescued copy is a whole graph file, readable by a load: `kg stop` names it (exit 1).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import trio

from .server_process import GRAPH_NOT_SAVED
from .storage import graph_file

log = logging.getLogger(__name__)

RESCUED = "rescued"


def rescue_dir(key: str, path: Path) -> Path:
    """`<store>/rescued/`, from a graph's key and file (a project's is two folders deeper)."""
    root = path.parent.parent.parent if key.startswith("project:") else path.parent
    return root / RESCUED


def rescue_path(key: str, path: Path, now: float) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    return rescue_dir(key, path) / f"{key.replace(':', '-')}-{stamp}.json"


async def rescue(key: str, path: Path, snapshot: dict[str, Any]) -> Path | None:
    """Write the graph to the rescue folder; where it went (None, and a log line, when that failed too)."""
    dest = rescue_path(key, path, time.time())
    try:
        await trio.to_thread.run_sync(graph_file.write_snapshot, dest, snapshot)
    except Exception as exc:  # the last resort failing: said, and the journal is all there is
        log.critical("%s: %s: its last save failed and it could not be rescued to %s either: %s", GRAPH_NOT_SAVED,
                     key, dest, exc)
        return None
    log.critical("%s: its last save failed; the graph was written to %s (copy it over %s once the store "
                 "writes again)", key, dest, path)
    return dest
