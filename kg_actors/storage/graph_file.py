"""A graph's file written from a snapshot, one node at a time.

`files.dump_json(snapshot_to_json(snapshot))` makes the whole file twice before a byte is
written: a dict per node and edge, then the text (72 MiB on top of the graph at 10,000
nodes, which is most of the server's peak RSS, and which the allocator keeps after). This
writes the same bytes with one node's JSON alive at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.model import edge_storage_key
from . import files


def snapshot_chunks(snapshot: dict[str, Any]) -> Iterator[str]:
    """Exactly `files.dump_json(snapshot_to_json(snapshot))`'s text, in pieces (GraphData.snapshot_json)."""
    yield '{\n  "nodes": '
    yield from files.iter_indent2_object(((i, n.to_json()) for i, n in snapshot["nodes"].items()), "  ")
    yield ',\n  "edges": '
    yield from files.iter_indent2_object(
        ((edge_storage_key(k), e.to_json()) for k, e in snapshot["edges"].items()), "  ")
    for key, value in snapshot.items():  # top-level keys of another writer's, kept as read
        if key not in ("nodes", "edges", "_meta"):
            yield ",\n  " + files.dumps_indent2(key) + ": " + files.dumps_indent2(value, "  ")
    yield ',\n  "_meta": '
    yield from files.iter_indent2_object(snapshot["_meta"].items(), "  ")  # its versions: one per node
    yield "\n}"


def stage_snapshot(path: Path, snapshot: dict[str, Any]) -> Path:
    """write_snapshot's file, written and fsynced beside `path`; the temp file (files.put_in_place)."""
    return files.stage_chunks(path, snapshot_chunks(snapshot))


def write_snapshot(path: Path, snapshot: dict[str, Any]) -> None:
    """Replace the graph file with the snapshot, durably (files.write_atomic's guarantees)."""
    files.write_atomic_chunks(path, snapshot_chunks(snapshot))
