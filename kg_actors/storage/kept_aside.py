"""Files a load set aside beside a graph, holding acknowledged lessons the graph does not serve: its file
found unreadable (`<file>.unreadable`), a journal with damaged lines (`<journal>.damaged`), a journal set
aside at a roll-back (`<journal>.dropped`). Found by one listing of the graph's folder at each load, so they
are named for as long as they exist, not only by the run that made them."""

from __future__ import annotations

import os
from pathlib import Path

KINDS = ("unreadable", "damaged", "dropped")


def _kind(name: str, graph: str) -> str | None:
    for kind, prefix in (("unreadable", f"{graph}.unreadable"), ("damaged", f"{graph}.journal.damaged"),
                         ("dropped", f"{graph}.journal.dropped")):
        rest = name[len(prefix):]
        if name.startswith(prefix) and (not rest or (rest[0] == "." and rest[1:].isdigit())):
            return kind
    return None


def beside(path: Path) -> dict[str, Path]:
    """Per kind, the first such file beside the graph file `path` (none: not in the dict)."""
    try:
        names = sorted(os.listdir(path.parent))
    except OSError:
        return {}
    found: dict[str, Path] = {}
    for name in names:
        kind = _kind(name, path.name)
        if kind is not None:
            found.setdefault(kind, path.parent / name)
    return found


def in_store(root: Path) -> list[Path]:
    """Every such file in a store (its top level and each project folder): `kg doctor` with the server down."""
    found: list[Path] = []
    folders = [root]
    try:
        folders += sorted(p for p in (root / "projects").iterdir() if p.is_dir())
    except OSError:
        pass
    for folder in folders:
        for graph in ("user.json", "maintain.json", "graph.json"):
            found += beside(folder / graph).values()
    return sorted(set(found))
