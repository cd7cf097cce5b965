"""A project's graph folder renamed by hand in the store (`mv projects/OLD projects/NEW`, what `kg doctor` advises
for a renamed project folder), found as a rename: in a commit and in what a sync's merge brought.

A graph file gone keeps its committed mirror (a file lost must not become a delete carried to every machine). But
a folder renamed by hand left the old mirror folder in every commit beside the new one: the next sync wrote the
old graph back, and each other machine got a second graph of the project. A rename is told apart from a loss by
evidence, never by names: the old graph's whole store folder is gone, and most of its nodes are in exactly one
graph new to the mirror. Pure but for reading the graphs concerned (only when there is a candidate).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from . import shards, user_files


def _ids(graph: Any) -> set[str]:
    return set(shards._mapping(graph.get("nodes") if isinstance(graph, dict) else None))


def pairs(old: Mapping[str, set[str]], new: Mapping[str, set[str]]) -> dict[str, str]:
    """{old key: new key} where more than half the old graph's nodes (one at least) are in the new graph and in no
    other candidate: two alike tell nothing apart, and neither is taken for a rename."""
    found: dict[str, list[str]] = {}
    for o, ids in old.items():
        for n, other in new.items():
            if ids and len(ids & other) * 2 > len(ids):
                found.setdefault(o, []).append(n)
    taken = [n for ns in found.values() for n in ns]
    return {o: ns[0] for o, ns in found.items() if len(ns) == 1 and taken.count(ns[0]) == 1}


def renamed_by_hand(root: Path, graph_files: Mapping[str, str]) -> dict[str, str]:
    """{old key: new key} of the project graphs moved to another folder of the store since they were mirrored."""
    base = root / shards.ROOT / "projects"
    try:
        mirrored = [s for s in sorted(os.listdir(base)) if (base / s / shards.META).is_file()]
    except OSError:
        return {}
    gone = [f"project:{s}" for s in mirrored
            if f"project:{s}" not in graph_files and not os.path.lexists(root / "projects" / s)]
    fresh = [k for k in graph_files if k.startswith("project:") and k.removeprefix("project:") not in mirrored]
    if not gone or not fresh:
        return {}
    old = {k: _ids(shards.join(shards.read_folder(root, k))) for k in gone}
    new = {k: _ids(_load(root / graph_files[k])) for k in fresh}
    return pairs(old, new)


def _load(path: Path) -> Any:
    try:
        return json.loads(user_files.read_bytes(path))
    except (OSError, ValueError):
        return None


def renamed_by_merge(gone: Iterable[tuple[str, Any]], fresh: Iterable[tuple[str, Any]]) -> dict[str, str]:
    """{old key: new key} of the project graphs a merge moved to another folder: `gone`, (key, graph before) of the
    graphs whose mirror folder it removed whole; `fresh`, (key, graph after) of those it made."""
    return pairs({k: _ids(g) for k, g in gone if k.startswith("project:")},
                 {k: _ids(g) for k, g in fresh if k.startswith("project:")})
