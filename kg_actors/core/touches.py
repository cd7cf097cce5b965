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
from .search import SearchIndex
from .terms import analyse


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


def mentions(graph: GraphData, needle: str, index: SearchIndex | None = None) -> bool:
    """Does any node name this target (file name, URL or query) in its touches, gist or notes?

    Token-bounded, so a touch on `restore.py` does not cover `store.py`. With
    the graph's search index, only the nodes holding every word-part of the
    needle are checked (a needle's parts are always parts of a text that
    names it), so the answer costs a few postings, not a scan of the graph.
    """
    needle = needle.lower()
    pattern = re.compile(r"(?<![\w.-])" + re.escape(needle) + r"(?![\w-])")
    nodes = graph.nodes.values()
    if index is not None:
        stems = set(analyse(needle)[0])
        if stems:
            postings = [index.postings.get(term) for term in stems]
            if any(not p for p in postings):
                return False
            postings.sort(key=len)
            nodes = [graph.nodes[i] for i in postings[0] if i in graph.nodes and all(i in p for p in postings[1:])]
    for node in nodes:
        text = " ".join((node.id, node.gist, *node.notes, *node.touches)).lower()
        if needle in text and pattern.search(text):
            return True
    return False
