"""The newest version another machine's history holds of an entry without the secret its tip holds.

A sync never takes a version of a node or edge holding a secret (core/held_secrets.keep_out). What
it takes instead must not be this machine's own older version when the other side had moved past
it: pushed, that reads on every machine as a change made after theirs, and their edit is gone with
nothing set aside. So the commits the other side made since the merge base are looked through,
newest first, for the entry as it was before the secret came in (one `git cat-file --batch`).
Blocking (subprocesses): run where git runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.held_secrets import Earlier, Held, in_edge, in_node, keep_out
from . import git as G
from . import git_read as R
from . import shards

SEARCHED = 100  # commits of theirs looked through: a secret sits at most a few commits deep in practice

Json = dict[str, Any]
_SECTIONS = {"node": ("nodes", "node:", in_node), "edge": ("edges", "edge:", in_edge)}


def commits_since(root: Path, base: str | None, theirs: str) -> list[str]:
    """The commits of `theirs` not in `base`'s history, newest first (children before their parents)."""
    args = ["rev-list", "--topo-order", f"-n{SEARCHED}", theirs] + ([f"^{base}"] if base else [])
    return G.run(root, *args).stdout.split()


def newest_clean(graphs: list[tuple[str, Json | None]], held: list[Held]) -> Earlier:
    """For each held node or edge, its newest version free of any secret among `graphs` ((commit, graph or part
    there), newest first), with its version entry and that commit. None found (the entry is absent there first:
    new with the secret, or deleted before it) leaves it out of the answer."""
    out: dict[tuple[str, str], tuple[Any, Any, str]] = {}
    for h in held:
        if h.what not in _SECTIONS:
            continue
        section, prefix, check = _SECTIONS[h.what]
        for commit, graph in graphs:
            if graph is None:
                continue  # unreadable there: look further back
            entries = shards._mapping(graph.get(section)) if section == "nodes" else shards._edges_of(graph)
            entry = entries.get(h.key)
            if entry is None:
                break
            if check(h.key, entry) is None:
                versions = shards._mapping(shards._mapping(graph.get("_meta")).get("versions"))
                out[section, h.key] = (entry, versions.get(prefix + h.key), commit)
                break
    return out


def keep_out_since(root: Path, base: str | None, theirs: str, read: Callable[[list[str]], list[Json | None]],
                   b: Json | None, o: Json | None, t: Json | None) -> tuple[Json | None, list[Held]]:
    """`keep_out` of `t` (theirs), each entry it holds with a secret replaced by its newest version without one in
    theirs' history since `base` (`read`: the graph or part in each of a list of commits), else by ours."""
    kept, held = keep_out(b, o, t)
    if not held:
        return kept, held
    commits = commits_since(root, base, theirs)
    earlier = newest_clean(list(zip(commits, read(commits), strict=True)), held)
    return keep_out(b, o, t, earlier) if earlier else (kept, held)


def part_reader(root: Path, folder: str, part: str) -> Callable[[list[str]], list[Json | None]]:
    """A `read` for one mirror part: its bytes at every commit in one git process."""
    def read(commits: list[str]) -> list[Json | None]:
        raw = R.blobs(root, [f"{c}:{folder}/{part}" for c in commits])
        return [_parsed(raw.get(f"{c}:{folder}/{part}"), f"{folder}/{part}") for c in commits]
    return read


def graph_reader(root: Path, key: str) -> Callable[[list[str]], list[Json | None]]:
    """A `read` for a whole graph (a side still holds it as one file, either layout at each commit)."""
    def read(commits: list[str]) -> list[Json | None]:
        return [_graph(root, c, key) for c in commits]
    return read


def _graph(root: Path, commit: str, key: str) -> Json | None:
    try:
        return R.graph_at(root, commit, key) or {}  # none there: its entries absent
    except ValueError:
        return None  # unreadable there: as an unreadable part (`_parsed`)


def _parsed(data: bytes | None, name: str) -> Json | None:
    if data is None:
        return {}  # no such part there: every entry of it absent
    try:
        return shards.parse(data, name)
    except ValueError:
        return None
