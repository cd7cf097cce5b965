"""Reading graphs out of the store's git history, in either layout.

A commit holds a graph as its mirror folder (`shards/...`, see `shards.py`) or,
made before the mirror existed (and by kg-memory 0.17), as the graph file
itself. These read either: many blobs in one `git cat-file --batch`, never a
process per file. Blocking (subprocesses): actors call them in worker threads.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from . import git as G
from . import shards

LEGACY_FILES = ("user.json", "maintain.json")


def legacy_rel(key: str) -> str:
    if key in ("user", "maintain"):
        return f"{key}.json"
    return f"projects/{key.removeprefix('project:')}/graph.json"


def legacy_key(rel: str) -> str | None:
    parts = rel.split("/")
    if parts == ["user.json"]:
        return "user"
    if parts == ["maintain.json"]:
        return "maintain"
    if len(parts) == 3 and parts[0] == "projects" and parts[2] == "graph.json":
        return f"project:{parts[1]}"
    return None


def blobs(root: Path, specs: list[str]) -> dict[str, bytes | None]:
    """{"rev:path": its bytes, or None when there is no such blob}, in one git process."""
    if not specs:
        return {}
    try:
        proc = subprocess.run([G.git_bin(), "-C", str(root), "cat-file", "--batch"], capture_output=True,
                              input="".join(s + "\n" for s in specs).encode(), timeout=G.GIT_TIMEOUT, env=G._env())
    except FileNotFoundError:
        raise G.GitError(f"git is not installed (looked for {G.git_bin()!r})") from None
    except subprocess.TimeoutExpired:
        raise G.GitError("git cat-file took too long and was stopped") from None
    if proc.returncode != 0:
        tail = " / ".join(proc.stderr.decode("utf-8", "replace").strip().splitlines()[-2:])
        raise G.GitError(f"git cat-file failed: {tail or f'exit {proc.returncode}'}")
    out: dict[str, bytes | None] = {}
    data, pos = proc.stdout, 0
    for spec in specs:
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        pos = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            out[spec] = data[pos:pos + size]
            pos += size + 1
        else:
            if len(header) == 3:  # a tree or commit by that name: skip its body
                pos += int(header[2]) + 1
            out[spec] = None
    return out


def names(root: Path, rev: str, *paths: str, recursive: bool = True) -> list[str]:
    args = ["ls-tree", "--name-only", "-z"] + (["-r"] if recursive else []) + [rev, "--", *paths]
    return [n for n in G.run(root, *args).stdout.split("\0") if n]


def changed(root: Path, a: str | None, b: str, *paths: str) -> list[str]:
    """Paths that differ from `a` to `b` (every path of `b` when `a` is None)."""
    if a is None:
        return names(root, b, *paths)
    out = G.run(root, "diff", "--name-only", "-z", "--no-renames", a, b, "--", *paths).stdout
    return [n for n in out.split("\0") if n]


def layouts(root: Path, rev: str | None) -> dict[str, str]:
    """{graph key: "shards" or "legacy"} for the graphs commit `rev` holds."""
    if rev is None:
        return {}
    out: dict[str, str] = {}
    for rel in names(root, rev, *LEGACY_FILES, "projects"):
        key = legacy_key(rel)
        if key:
            out[key] = "legacy"
    for rel in names(root, rev, f"{shards.ROOT}/", f"{shards.ROOT}/projects/", recursive=False):
        parts = rel.split("/")
        if parts[1:] in (["user"], ["maintain"]):
            out[parts[1]] = "shards"
        elif len(parts) == 3 and parts[1] == "projects":
            out[f"project:{parts[2]}"] = "shards"
    return out


def parts_at(root: Path, rev: str, key: str, parts: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Graph `key`'s mirror parts at `rev` (all, or those named); ValueError when one is unreadable."""
    folder = shards.folder(key)
    if parts is None:
        parts = [rel.removeprefix(folder + "/") for rel in names(root, rev, folder)]
    raw = blobs(root, [f"{rev}:{folder}/{p}" for p in parts])
    out = {}
    for p in parts:
        data = raw[f"{rev}:{folder}/{p}"]
        if data is not None:
            out[p] = shards.parse(data, f"{folder}/{p} in {rev[:12]}")
    return out


def graph_at(root: Path, rev: str, key: str) -> dict[str, Any] | None:
    """The whole graph `key` as commit `rev` holds it (either layout), or None when it holds none; ValueError
    naming the file when it holds one unreadable (a truncated file, one of the wrong shape): read as none, a
    merge took every lesson of it for deleted."""
    kind = layouts(root, rev).get(key)
    if kind == "shards":
        return shards.join(parts_at(root, rev, key))
    if kind == "legacy":
        raw = blobs(root, [f"{rev}:{legacy_rel(key)}"])[f"{rev}:{legacy_rel(key)}"]
        return shards.parse(raw or b"", f"{legacy_rel(key)} in {rev[:12]}")
    return None


_MACHINES_SEARCHED = 200  # commits of theirs looked through for the machine that made them


def machine_of(root: Path, ours: str, theirs: str, trailer: str = "Machine: ") -> str:
    """The machine that made the commits of `theirs` that `ours` lacks (their kg messages name it), or ""
    when they name none or several: a merge tells which machine deleted or changed a node by it. `trailer`:
    the line read (its host name; `Machine-Id: `, its store's id)."""
    out = G.run(root, "log", f"-n{_MACHINES_SEARCHED}", "--format=%B%x1e", f"{ours}..{theirs}", check=False).stdout
    names = {line.removeprefix(trailer).strip() for message in out.split("\x1e")
             for line in message.strip().splitlines() if line.startswith(trailer)}
    return next(iter(names)) if len(names) == 1 else ""


def machines_by_path(root: Path, ours: str, theirs: str, *paths: str) -> dict[str, tuple[str, str]]:
    """{path: (host name, store id)} of the newest commit of `theirs` that `ours` lacks to change each path (its
    kg message names them; "" when it does not): with three machines their commits carry several, and a change
    is the machine's whose commit made it. Merges are passed over (a change they bring is its own commit's)."""
    out = G.run(root, "log", f"-n{_MACHINES_SEARCHED}", "--no-merges", "--no-renames", "--name-only",
                "--format=%x1e%B%x1f", f"{ours}..{theirs}", "--", *paths, check=False).stdout
    found: dict[str, tuple[str, str]] = {}
    for entry in out.split("\x1e"):
        message, _, names = entry.partition("\x1f")
        lines = message.strip().splitlines()
        host = next((ln.removeprefix("Machine: ").strip() for ln in lines if ln.startswith("Machine: ")), "")
        ident = next((ln.removeprefix("Machine-Id: ").strip() for ln in lines if ln.startswith("Machine-Id: ")), "")
        for name in (n.strip() for n in names.splitlines() if n.strip()):
            found.setdefault(name, (host, ident))  # newest first: the first commit seen made the change that stands
    return found
