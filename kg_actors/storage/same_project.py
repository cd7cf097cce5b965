"""Whether a folder is the project a gone folder's graph was written for: evidence, never the name alone.

A folder of the same name as one no longer on this machine (moved, renamed, an unmounted disk, a deleted
clone) may be that project or an unrelated one; one that took the other's graph got its lessons, and the
gone folder, back again, found its memory rebound. The evidence weighed is the graph's own: the files its
lessons touch (relative to the project), most of which must be files in the folder, two at least. Files
any project may have (`README.md`, `package.json`, `.github/...`: `boilerplate`) tell no project from
another and are left out. A graph left with less gives none: the folder gets a graph of its own, and is
told where the other one is.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
from collections.abc import Iterable
from pathlib import Path

from ..core.anchors import parse_touch
from . import json_members, user_files


def relative_files(touches: Iterable[str]) -> set[str]:
    """The project-relative files a list of touches names (`src/a.py:3 (x)` -> `src/a.py`); absolute,
    `~` and ones climbing out of the project are no evidence of which folder the project is."""
    out = set()
    for touch in touches:
        path = parse_touch(touch) if isinstance(touch, str) else None
        if path is None or path[0] in "~/" or "\\" in path:
            continue
        path = posixpath.normpath(path)
        if path != "." and not path.startswith("../") and path != "..":
            out.add(path)
    return out


def stored_touches(graph_file: Path) -> set[str]:
    """The relative files a stored graph's nodes touch (every state): none when it does not read. Read node
    by node (json_members.py): a worker thread reading a large graph leaves the event loop its turns."""
    touches: list[object] = []
    found: list[bool] = []

    def node(key: str, start: int) -> int:
        value, end = json_members.decode(text, start)
        if isinstance(value, dict) and isinstance(value.get("touches"), list):
            touches.extend(value["touches"])
        return end

    def member(key: str, start: int) -> int:
        if key == "nodes" and text[start:start + 1] == "{":
            found.append(True)
            return json_members.members(text, start, node)
        return json_members.skip(text, start)

    try:
        text = json_members.text_of(user_files.read_bytes(graph_file))
        json_members.walk_object(text, member)
    except (OSError, ValueError, RecursionError):
        return set()
    return relative_files(t for t in touches if isinstance(t, str)) if found else set()


# Named alike in unrelated projects (matched by a file's name, any case, at any depth), or under folders
# every repository may hold: a lesson touching only these says nothing of which project a folder is.
BOILERPLATE_DOCS = ("readme", "license", "licence", "copying", "changelog", "contributing")  # and `.md`, `.txt`...
BOILERPLATE_NAMES = ("makefile", "dockerfile", "docker-compose.y*ml", "package.json", "package-lock.json", "yarn.lock",
                     "pnpm-lock.yaml", "tsconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements*.txt",
                     "cargo.toml", "cargo.lock", "go.mod", "go.sum", ".gitignore", ".gitattributes", ".dockerignore",
                     ".editorconfig", ".env.example")
BOILERPLATE_FOLDERS = (".github", ".vscode", ".idea")
MIN_FILES = 2  # one file of a name (`src/main.py`) many projects share is no evidence either


def boilerplate(path: str) -> bool:
    """A relative file any project may have (`README.md`, `web/package.json`, `.github/workflows/ci.yml`)."""
    parts = path.lower().split("/")
    name = parts[-1]
    return (parts[0] in BOILERPLATE_FOLDERS or name.split(".", 1)[0] in BOILERPLATE_DOCS
            or any(fnmatch.fnmatchcase(name, p) for p in BOILERPLATE_NAMES))


def evidence(files: set[str]) -> set[str]:
    """The files that may tell one project from another: boilerplate left out; none when fewer than two."""
    kept = {f for f in files if not boilerplate(f)}
    return kept if len(kept) >= MIN_FILES else set()


def shows_same(files: set[str], root: str) -> bool:
    """More than half the evidence files (two at least) are in `root`."""
    kept = evidence(files)
    if not kept:
        return False
    here = sum(1 for f in kept if os.path.exists(os.path.join(root, f)))
    return here * 2 > len(kept)
