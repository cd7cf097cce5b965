"""Which code a kg process runs. The version says too little: a pull and a reinstall keep 0.1.0, and a server
started before them runs the old code while its children (the index, a commit, a scan: `python -m kg_actors...`)
load the new one. /health gives the server's build and Python; `kg doctor` and `kg status` compare them with
the installed kg's.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from .editor.page_digest import page_files
from .server_probe import is_ours

PACKAGE = Path(__file__).resolve().parent


@functools.cache
def build_id() -> str:
    """The build of the installed package (~7 ms, once per process)."""
    return build_of(PACKAGE)


def build_of(package: Path) -> str:
    """A digest of a package's Python sources and the editor's page (names and contents): the page the server
    serves is its code too (an upgrade that changes only it is a restart to do, as `kg status` says)."""
    digest = hashlib.sha256()
    files = [*package.rglob("*.py"), *page_files(package / "editor" / "static")]
    for path in sorted(files):
        if "__pycache__" in path.parts:
            continue
        digest.update(str(path.relative_to(package)).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:  # a file going during an upgrade: the digest differs, as the code does
            digest.update(b"\0unreadable")
    return digest.hexdigest()[:16]


def stale_said(health: dict[str, Any], installed: str) -> str | None:
    """Why the server answering with `health` does not run the installed kg (`installed`: its build), or None.
    A server answering in kg's shape but naming no build runs a kg older than any that names it. Its Python
    gone (the install it runs from removed) is said whatever its build."""
    build, python = health.get("build"), health.get("python")
    if isinstance(python, str) and not os.path.exists(python):
        return (f"the server (pid {health.get('pid')}) runs from an install that is gone ({python} no longer "
                "exists): its commits, syncs and index builds fail")
    if build is None and is_ours(health):  # the installed kg names its build: this one is older
        return (f"the server (pid {health.get('pid')}) runs an older kg than the installed one (it names no "
                "build): it was started before kg was upgraded")  # the caller says the restart, once
    if not isinstance(build, str) or build == installed:
        return None
    said = f"the server (pid {health.get('pid')}) runs other code than the installed kg"
    if not isinstance(python, str):  # a server that does not name its Python: either may be why
        return f"{said}: it was started before kg was upgraded or reinstalled, or from another install"
    # Each venv's Python is its own path (a link's realpath would merge them); its folder names the install
    # (`python` and `python3` beside each other are one).
    if os.path.dirname(python) != os.path.dirname(sys.executable):
        return f"{said}: it runs from another install ({python})"
    return f"{said}: it was started before kg was upgraded or reinstalled"


def python_gone(exc: BaseException) -> str | None:
    """What to tell for a failure to start a child because this process's own Python is gone (its install
    removed or moved while it ran), or None for any other failure."""
    if not isinstance(exc, FileNotFoundError) or exc.filename != sys.executable or os.path.exists(sys.executable):
        return None
    return (f"this server's Python ({sys.executable}) is gone: its install was removed or moved while it ran, "
            "and it cannot start the process this needs; restart it (kg stop && kg start) to serve from the "
            "installed kg")
