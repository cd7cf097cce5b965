"""The reverse index of touches: which nodes name a file.

`path:lines (anchor)`, `path#anchor`, `~/path` and relative forms all reduce to
one absolute, normalised key (relative touches only resolve inside a project
graph, against its root). URLs and globs name no file.
"""

from __future__ import annotations

import os
import re

from .anchors import parse_touch, resolve_touch
from .model import GraphData


def touch_key(touch: str, root: str | None, home: str) -> str | None:
    path = parse_touch(touch)
    return None if path is None else resolve_touch(path, root, home)


def build_index(graph: GraphData, home: str) -> dict[str, list[str]]:
    """Resolved file path -> ids of the (not orphaned) nodes whose touches name it.

    Relative touches resolve only in a project graph, against its root; `~`
    against the real home folder (file events arrive as real paths).
    """
    root = graph.project_path if graph.kind == "project" else None
    home = os.path.realpath(home)
    index: dict[str, list[str]] = {}
    for node in graph.nodes.values():
        if node.orphaned:
            continue
        for touch in node.touches:
            key = touch_key(touch, root, home)
            if key is not None and node.id not in index.setdefault(key, []):
                index[key].append(node.id)
    return index


def mentions(graph: GraphData, needle: str) -> bool:
    """Does any node name this target (file name, URL or query) in its touches, gist or notes?

    Token-bounded, so a touch on `restore.py` does not cover `store.py`.
    """
    pattern = re.compile(r"(?<![\w.-])" + re.escape(needle.lower()) + r"(?![\w-])")
    for node in graph.nodes.values():
        text = " ".join((node.gist, *node.notes, *node.touches)).lower()
        if pattern.search(text):
            return True
    return False
