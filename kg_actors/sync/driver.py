"""The git merge driver for graph files: `python -m kg_actors merge-driver %O %A %B %P`.

It merges a whole graph file or one part of a graph's mirror folder (`shards/`:
the same shape). `kg sync` merges the parts itself, in one process; git runs this
for a merge made by hand (`git merge`, `git pull`) in the store. Git hands it the common ancestor, our version (which it must overwrite with
the result) and theirs. The merge itself is `core.merge`; a node changed on
both sides is resolved in the file (later write kept, the other set aside in
`_conflicts`), so git sees a clean merge. A file that is not a graph (say,
someone's hand merge left conflict markers in it) is refused with exit 1:
git then reports a conflict and `kg sync` undoes the merge, losing nothing.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Literal, overload

from ..core.merge import merge_graphs
from ..storage import files, shards, user_files


@overload
def _load(path: Path, what: str, name: str, empty_ok: Literal[False]) -> dict[str, Any]: ...
@overload
def _load(path: Path, what: str, name: str, empty_ok: bool) -> dict[str, Any] | None: ...


def _load(path: Path, what: str, name: str, empty_ok: bool) -> dict[str, Any] | None:
    if empty_ok and str(path) == os.devnull:  # no common ancestor, by hand (kg doctor's merge of a file set aside)
        return None
    raw = user_files.read_bytes(path)
    if not raw.strip() and empty_ok:
        return None  # no common ancestor (two stores that grew apart)
    return shards.parse(raw, f"{what} version of {name}")


def merge_files(base: Path, ours: Path, theirs: Path, name: str, now: float) -> list[str]:
    """Merge into `ours` (atomically); the ids of nodes changed on both sides."""
    result = merge_graphs(_load(base, "the common", name, True), _load(ours, "our", name, False),
                          _load(theirs, "their", name, False), now)
    part = shards.split_path(name)  # a bucket of the mirror is written as the mirror writes it
    data = shards.encode(part[1], result.merged) if part else files.dump_json(result.merged)
    files.write_atomic(ours, data, keep_prev=False)
    return [c.node_id for c in result.conflicts]


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print("usage: python -m kg_actors merge-driver BASE OURS THEIRS [PATH]", file=sys.stderr)
        return 2
    name = argv[3] if len(argv) > 3 else argv[1]
    try:
        conflicts = merge_files(Path(argv[0]), Path(argv[1]), Path(argv[2]), name, time.time())
    except (OSError, ValueError) as exc:
        print(f"kg merge-driver: {exc}; leaving {name} for a manual merge", file=sys.stderr)
        return 1
    if conflicts:
        print(f"kg merge-driver: {name}: {len(conflicts)} node(s) changed on both machines "
              f"({', '.join(conflicts[:5])}{'...' if len(conflicts) > 5 else ''}); the later write is kept, "
              "the other is kept beside it until resolved", file=sys.stderr)
    return 0
