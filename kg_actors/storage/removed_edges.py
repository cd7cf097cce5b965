"""A copy of the edges a load removed because an end names no node (a node deleted by hand, or taken away by
a hand restore of the user graph), kept beside the graph as a `.repaired` file, as other load repairs are.

Spec 000 removes such edges when a graph loads; what they held (their notes) went with them, and only an INFO
line without the notes told of it. The copy is a graph file of those edges alone (no nodes), named in the
server's log and by `kg doctor`: put the node back, then copy the edge in (or drop the copy).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import files

log = logging.getLogger(__name__)

KEPT_NOTE = "kept"  # the copy's _meta entry that says what it is (kg doctor reads it)
KEPT_SAID = "edges a load removed because an end names no node, as they were (notes included)"


def keep(path: Path, edges: Sequence[dict[str, Any]]) -> Path | None:
    """The copy of `edges` beside the graph file `path` (`<name>.repaired`, `.repaired.2`, ...); None when it
    could not be written (the log then holds them whole)."""
    data = json.dumps({"nodes": {}, "edges": {f"{e['from']}->{e['to']}:{e['rel']}": e for e in edges},
                       "_meta": {KEPT_NOTE: KEPT_SAID}}, indent=1, ensure_ascii=False).encode("utf-8")
    dest = path.with_name(path.name + ".repaired")
    n = 1
    try:
        while dest.exists():
            if dest.read_bytes() == data:
                return dest
            n += 1
            dest = path.with_name(f"{path.name}.repaired.{n}")
        files.write_atomic(dest, data, keep_prev=False)
    except OSError as exc:
        log.warning("could not keep the removed edges beside %s: %s", path, exc)
        return None
    return dest


def said(key: str, edges: Sequence[dict[str, Any]], kept: Path | None) -> list[str]:
    """The log's lines: each edge with its notes, and where the copy is."""
    where = (f"kept in {kept} (put the node back, then copy the edge in; or remove the copy)" if kept is not None
             else "no copy could be written: its notes are in this line")
    return [f"{key}: removing edge {e['from']}->{e['to']}:{e['rel']} (an endpoint names no node), its notes "
            f"{json.dumps(e.get('notes') or [], ensure_ascii=False)}; {where}" for e in edges]


def kept_said(copy: Path) -> str | None:
    """What a `.repaired` copy is, when it is one of these; None for the other kind (a file as it was)."""
    try:
        data = json.loads(copy.read_bytes())
    except (OSError, ValueError):
        return None
    meta = data.get("_meta") if isinstance(data, dict) else None
    if not isinstance(meta, dict) or meta.get(KEPT_NOTE) != KEPT_SAID:
        return None
    edges = data.get("edges")
    return f"{copy} holds {len(edges) if isinstance(edges, dict) else 0} edge(s) {KEPT_SAID.removeprefix('edges ')}"
