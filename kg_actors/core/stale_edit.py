"""The editor's stale-edit check: refuse a save over a node that is not what the editor loaded.

A version moves with every write through the server, but not with a change made
to the graph file while the server was down (a hand edit, a backup copied back, a
git checkout): the content the editor loaded is compared too, by a fingerprint
of it the server gave with the node.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from .errors import Conflict, WriteConflict
from .model import GraphReader, Node, node_version

FINGERPRINT_CHARS = 16  # 64 bits: a tab's loaded node against the one stored, not a security check


def fingerprint(gist: str, notes: Sequence[str], touches: Sequence[str]) -> str:
    """The content a write can set, in a short stable form (the same words give the same fingerprint)."""
    text = json.dumps([gist, list(notes), list(touches)], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:FINGERPRINT_CHARS]


def node_fingerprint(node: Node) -> str:
    return fingerprint(node.gist, node.notes, node.touches)


def check(graph: GraphReader, level: str, node_id: str, expected_version: int | None,
          expected_fingerprint: str | None = None, create_only: bool = False) -> None:
    """Raise when the node is not as the editor loaded it: `expected_version` and `expected_fingerprint`
    (either may be None: not checked); `create_only` says it must not exist yet."""
    if expected_version is None and expected_fingerprint is None and not create_only:
        return  # an agent's write: nothing of the editor's to check, on the path every write takes
    node = graph.nodes.get(node_id)
    if node is None:
        if expected_version is not None or expected_fingerprint is not None:
            raise Conflict(f"node '{node_id}' was deleted or renamed after the editor loaded it")
        return
    if create_only:
        raise WriteConflict(level, node_id, node.content(), f"a node '{node_id}' already exists")
    current = node_version(graph, node_id)
    if expected_version is not None and current != expected_version:
        raise WriteConflict(level, node_id, node.content(),
                            f"changed since the editor loaded it (version {expected_version}, now {current})")
    if expected_fingerprint is not None and node_fingerprint(node) != expected_fingerprint:
        raise WriteConflict(level, node_id, node.content(),
                            f"changed since the editor loaded it (its words differ, at version {current}: "
                            "changed in the graph file outside the server)")
