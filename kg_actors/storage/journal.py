"""A graph's append-only journal: what makes a reply durable at the cost of the change.

Each record is one JSON line of entries set or removed (idempotent), fsynced
before the reply. The tick folds the graph into its JSON and removes the
journal; on start a journal left behind is replayed over the JSON. A torn last
line (a crash mid-append) is ignored: its write was never acknowledged.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


def journal_path(graph_file: Path) -> Path:
    return graph_file.with_name(graph_file.name + ".journal")


def append(path: Path, records: list[dict]) -> None:
    data = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
    # A new project's folder does not exist until its first save: the journal comes first.
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab") as f:
        f.write(data.encode("utf-8"))
        f.flush()
        os.fsync(f.fileno())


def read(path: Path) -> list[dict]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    records = []
    for n, line in enumerate(raw.split(b"\n")):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            log.warning("%s: ignoring an unreadable journal line %d (an unacknowledged write)", path, n + 1)
    return records


def remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
