"""Debt's per-node terms from the last start, beside the graph file, so the next start need not make them.

A start's DEBT line counts the terms of every node's id and gist (a tenth of a second or more at
10,000 nodes). They are a function of the id and the gist alone, so this file keeps, per node, the
gist they were made from: a row is used only for a node whose gist is still that one and only under
the same rules (`debt.terms_fingerprint`). It is never a source of truth: a missing, stale, foreign
or damaged file costs the work it would have saved, nothing else. One JSON line (`*.jsonl`, which the
store's git ignore file already keeps out of commits as machine-local): data, never code.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from ..core.debt import TermRow, terms_fingerprint
from . import user_files

log = logging.getLogger(__name__)

_FORMAT = 1
WRITE_ROWS = 500  # rows encoded in one call: ~2 ms of the interpreter at most


def cache_path(graph_file: Path) -> Path:
    return graph_file.with_name(graph_file.name + ".terms.jsonl")


def read(graph_file: Path) -> dict[str, TermRow]:
    """The rows kept for this graph, or none when there are none to trust (never raises)."""
    path = cache_path(graph_file)
    try:
        doc = json.loads(user_files.read_bytes(path))
        if doc.get("format") != _FORMAT or doc.get("terms") != terms_fingerprint():
            return {}
        return {node_id: (gist, tuple(map(str, stems)), tuple(map(str, names)))
                for node_id, gist, stems, names in doc["rows"]}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, TypeError, AttributeError, KeyError) as exc:
        log.info("%s: not used (%r); the terms are made again", path.name, exc)
        return {}


def write(graph_file: Path, rows: Mapping[str, TermRow]) -> None:
    """Replace the file with these rows (a temp file renamed: a reader sees the old rows or the new).

    One JSON document on one line: a single parse at the next start (10,000 lines parsed one by one
    cost as much as making the terms). Its rows are encoded WRITE_ROWS at a time: the encoder holds the
    interpreter for the whole of what it is given (all 10,000 rows: ~50 ms that the server's replies
    waited out, as this runs in a worker thread beside them)."""
    path = cache_path(graph_file)
    tmp = path.with_name(path.name + ".tmp")
    head = json.dumps({"format": _FORMAT, "terms": terms_fingerprint()}, separators=(",", ":"))
    listed = [[node_id, gist, stems, names] for node_id, (gist, stems, names) in rows.items()]
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(head[:-1] + ',"rows":[')
            for k in range(0, len(listed), WRITE_ROWS):
                piece = json.dumps(listed[k:k + WRITE_ROWS], ensure_ascii=False, separators=(",", ":"))
                f.write(("," if k else "") + piece[1:-1])
            f.write("]}\n")
        os.replace(tmp, path)
    except OSError as exc:  # a cache that cannot be written costs the next start its work, nothing more
        log.info("%s: not written (%s)", path.name, exc)
        try:
            tmp.unlink()
        except OSError:
            pass
