"""The reverse index of touches: which nodes name a file.

`path:lines (anchor)`, `path#anchor`, `~/path`, relative forms and a bare root-level
name (`Makefile`, `LICENSE:1-3`) all reduce to one absolute, normalised key
(relative touches only resolve inside a project graph, against its root). URLs
and globs name no file.
"""

from __future__ import annotations

from collections.abc import Iterable
import re

from .anchors import bare_file_name, parse_touch, resolve_touch
from .model import GraphReader, Node
from .search import SearchIndex
from .terms import analyse


def touch_key(touch: str, root: str | None, home: str) -> str | None:
    """The absolute file a touch names; a bare `Makefile` or `LICENSE:1-3` is relative to the root too."""
    path = parse_touch(touch) or bare_file_name(touch)
    return None if path is None else resolve_touch(path, root, home)


class TouchIndex:
    """Resolved file path -> ids of the nodes whose touches name it, every tier.

    Orphaned nodes are filed too: no preload or full read shows them, so a read of the
    file they name is where file recall can bring them back (spec 000; issue #12).
    Kept current per changed node, so a file event never pays for a scan of the
    graph. Relative touches resolve only in a project graph, against its root;
    `~` against the real home folder (file events arrive as real paths).
    """

    def __init__(self, root: str | None, home: str):
        self.root = root
        self.home = home
        self._by_path: dict[str, list[str]] = {}
        self._keys: dict[str, tuple[str, ...]] = {}  # node id -> the paths it is filed under

    @classmethod
    def build(cls, graph: GraphReader, home: str) -> TouchIndex:
        """`home`: the real path of the home folder."""
        index = cls(graph_root(graph), home)  # the caller resolves it: core does no file system calls
        for node in graph.nodes.values():
            index.update_node(node)
        return index

    def get(self, path: str) -> list[str]:
        return self._by_path.get(path, [])

    def update_node(self, node: Node) -> None:
        self.remove_node(node.id)
        keys = []
        for touch in node.touches:
            key = touch_key(touch, self.root, self.home)
            if key is not None and key not in keys:
                keys.append(key)
                self._by_path.setdefault(key, []).append(node.id)
        if keys:
            self._keys[node.id] = tuple(keys)

    def remove_node(self, node_id: str) -> None:
        for key in self._keys.pop(node_id, ()):
            ids = self._by_path[key]
            ids.remove(node_id)
            if not ids:
                del self._by_path[key]


def graph_root(graph: GraphReader) -> str | None:
    """What a graph's relative touches are relative to: a project's root; nothing for the user level."""
    return graph.project_path if graph.kind == "project" else None


def mentions(graph: GraphReader, needle: str, index: SearchIndex | None = None) -> bool:
    """Does any node name this target (file name, URL or query) in its touches, gist or notes?

    Token-bounded, so a touch on `restore.py` does not cover `store.py`. With
    the graph's search index, only the nodes holding every word-part of the
    needle are checked (a needle's parts are always parts of a text that
    names it), so the answer costs a few postings, not a scan of the graph.
    """
    needle = needle.lower()
    pattern: re.Pattern[str] | None = None  # compiled once a text holds the needle at all
    nodes: Iterable[Node] = graph.nodes.values()
    if index is not None:
        stems = set(analyse(needle)[0])
        if stems:
            postings = [p for p in (index.postings.get(term) for term in stems) if p]
            if len(postings) < len(stems):
                return False
            postings.sort(key=len)
            rest = postings[1:]
            # Lazily: the answer is usually yes, and the first holder whose text names it ends the walk.
            nodes = (graph.nodes[i] for i in postings[0] if all(i in p for p in rest) and i in graph.nodes)
    for node in nodes:
        text = " ".join((node.id, node.gist, *node.notes, *node.touches)).lower()
        if needle in text:
            pattern = pattern or re.compile(r"(?<![\w.-])" + re.escape(needle) + r"(?![\w-])")
            if pattern.search(text):
                return True
    return False
