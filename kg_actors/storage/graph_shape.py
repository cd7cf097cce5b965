"""Whether a graph's JSON (a whole file, or one part of its mirror) has a graph's shape, entry by entry.

A graph part that parses but is of the wrong shape (its `nodes` a list, one node a list, an edge a
string) was read as holding none of those entries: a sync took that as "they were deleted" and deleted
them here, or stopped deep in a graph's absorb with an internal error after its merge commit was made.
So what comes from git (a commit of another machine, a hand edit) is checked before it is merged or
taken in, and refused naming the file, the entry and the rule. An id is named masked when it holds what
looks like a secret (core/held_names.py): the message is printed and logged.
"""

from __future__ import annotations

from typing import Any

from ..core.held_names import masked_names


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def check(value: dict[str, Any], what: str) -> None:
    """ValueError naming `what`, the entry and the rule when `value` is no graph's shape: `nodes` an object of
    objects, `edges` an object or a list of objects each naming its from, to and rel, `_meta` and its
    `versions` and `progress` objects."""
    def refuse(rule: str) -> None:
        raise ValueError(masked_names(f"{what} is not a graph's shape: {rule}"))

    nodes = value.get("nodes")
    if nodes is not None and not isinstance(nodes, dict):
        refuse(f'"nodes" must be an object of nodes by id, and is {_kind(nodes)}')
    for node_id, node in (nodes or {}).items():
        if not isinstance(node, dict):
            refuse(f"node {node_id!r} must be an object, and is {_kind(node)}")
    edges = value.get("edges")
    if edges is not None and not isinstance(edges, dict | list):
        refuse(f'"edges" must be an object of edges by key, and is {_kind(edges)}')
    listed = edges.items() if isinstance(edges, dict) else enumerate(edges or [])
    for key, edge in listed:
        named = f"edge {key!r}" if isinstance(key, str) else f"edge #{key + 1}"
        if not isinstance(edge, dict):
            refuse(f"{named} must be an object, and is {_kind(edge)}")
        missing = [f for f in ("from", "to", "rel") if not isinstance(edge.get(f), str)]
        if missing:
            refuse(f"{named} must name its {', '.join(missing)} (a string each)")
    meta = value.get("_meta")
    if meta is not None and not isinstance(meta, dict):
        refuse(f'"_meta" must be an object, and is {_kind(meta)}')
    for name in ("versions", "progress"):
        inner = (meta or {}).get(name)
        if inner is not None and not isinstance(inner, dict):
            refuse(f'"_meta.{name}" must be an object, and is {_kind(inner)}')
