"""Which git checkout a folder belongs to, read from `.git` entries alone (a few stats and small reads, no git).

A linked worktree (`git worktree add`, Claude Code's `<repo>/.claude/worktrees/<name>`) is the same project
as its repository: what a session learns there is the repository's, and it outlives the worktree. Its `.git`
is a file `gitdir: <common>/worktrees/<name>`, and that folder's `commondir` names the common git dir. A
submodule's `.git` file points into `<super>/.git/modules/...` with no `commondir`: a project of its own. A
linked worktree of a submodule is that submodule's project: its common git dir's `core.worktree` names the
submodule's folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from . import user_files

_SMALL = 4096  # a `.git` file or a `commondir` holds one path
_CONFIG_MAX = 1 << 16  # a git dir's `config` larger than this is not read


def work_tree_root(folder: str, home: str) -> str | None:
    """The root of the git work tree holding `folder` (a real path inside `home`), or None.

    Walks up looking for a `.git` entry (a folder, or the file of a linked work tree or a submodule).
    A `.git` in home itself (a dotfiles repository) makes no project: home is the user level's place.
    """
    path = folder
    while path != home and path.startswith(home.rstrip("/") + "/"):
        if os.path.lexists(os.path.join(path, ".git")):
            return path
        path = os.path.dirname(path)
    return None


def repository_folder(top: str) -> str:
    """The folder that names work tree `top`'s project: for a linked worktree, its main checkout (the folder
    holding the common `.git`) or, for a bare repository, that repository's own folder; else `top` itself.
    A `.git` file that does not read, or names a folder that is not there: `top`, as before worktrees
    were followed."""
    gitdir = _points_to(os.path.join(top, ".git"), top)
    if gitdir is None:
        return top
    common = _points_to(os.path.join(gitdir, "commondir"), gitdir, prefix="")
    if common is None or os.path.realpath(common) == os.path.realpath(gitdir):
        return top  # a submodule, or a checkout whose git dir is kept elsewhere (--separate-git-dir)
    common = os.path.realpath(common)
    core = _core_settings(common)
    if os.path.basename(common) == ".git":
        checkout = os.path.dirname(common)
    elif "worktree" in core:  # a submodule's git dir (`<super>/.git/modules/<name>`) names its work tree
        checkout = os.path.realpath(os.path.join(common, core["worktree"]))
    elif core.get("bare", "true").lower() in ("false", "no", "off", "0"):
        return top  # a work tree's git dir kept elsewhere, naming no checkout (a submodule deinit'ed)
    else:
        return common  # a bare repository: one project for all its worktrees, named by its folder
    return checkout if os.path.lexists(os.path.join(checkout, ".git")) else top


def _core_settings(gitdir: str) -> dict[str, str]:
    """The `[core]` settings of `gitdir`'s `config` (lower-cased names; the last one wins, as in git): a
    submodule's names its work tree (`worktree`, relative to `gitdir`). Empty when it does not read."""
    try:
        with user_files.open_regular(os.path.join(gitdir, "config")) as f:
            raw = f.read(_CONFIG_MAX + 1)
    except OSError:
        return {}
    if len(raw) > _CONFIG_MAX:
        return {}
    section, found = "", {}
    for line in raw.decode(errors="replace").splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line[1:line.find("]")].strip().lower() if "]" in line else ""
        elif section == "core" and "=" in line:
            key, _, value = line.partition("=")
            found[key.strip().lower()] = _config_value(value)
    worktree = found.pop("worktree", "")
    if worktree and "\0" not in worktree:
        found["worktree"] = worktree
    return found


def _config_value(value: str) -> str:
    """A git config value as git reads it, for a path: quotes dropped, `\\` and `\"` unescaped, a comment cut."""
    out, quoted, i = [], False, 0
    value = value.strip()
    while i < len(value):
        c = value[i]
        if c == '"':
            quoted = not quoted
        elif c == "\\" and i + 1 < len(value):
            i += 1
            out.append({"t": "\t", "n": "\n", "b": "\b"}.get(value[i], value[i]))
        elif c in "#;" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out).strip()


def _points_to(path: str, base: str, prefix: str = "gitdir:") -> str | None:
    """The existing folder a one-line pointer file names (relative to `base`), or None."""
    try:
        with user_files.open_regular(path) as f:
            raw = f.read(_SMALL + 1)
    except OSError:
        return None  # a folder (an ordinary checkout), missing, unreadable, a FIFO
    try:
        text = raw.decode().strip()
    except UnicodeDecodeError:
        return None
    if len(raw) > _SMALL or "\n" in text or not text.startswith(prefix):
        return None
    target = text[len(prefix):].strip()
    if not target or "\0" in target:
        return None
    target = os.path.normpath(os.path.join(base, target))
    return target if os.path.isdir(target) else None


def project_of(folder: str, home: str, has_own_graph: Callable[[str], bool]) -> str:
    """The project folder an existing folder inside `home` binds to: the one lookup of hooks, the MCP tools'
    `cwd` and the CLI. Inside a git work tree, the repository's (see `repository_folder`), so `<repo>/src`
    and `<repo>/.claude/worktrees/fix-bug` share `<repo>`'s memory; a subfolder that already has a graph of
    its own keeps it (its memory stays where it is). Outside any work tree: the folder itself."""
    return binding_of(folder, home, has_own_graph)[0]


def binding_of(folder: str, home: str, has_own_graph: Callable[[str], bool]) -> tuple[str, str | None]:
    """(project_of's answer, the root of the linked worktree `folder` is in when that project is its
    repository's, else None): a worktree's files are its repository's files, at the same place."""
    top = work_tree_root(folder, home)
    if top is None or (top != folder and has_own_graph(folder)):
        return folder, None
    repo = repository_folder(top)
    # A repository outside home (or home itself) cannot hold project memory: the worktree stays its own.
    if repo == top or repo == home or not repo.startswith(home.rstrip("/") + "/"):
        return top, None
    return repo, top


def as_in_checkout(paths: list[str], worktree: str, repo: str) -> list[str]:
    """Files of a linked worktree named as the main checkout's (a lesson touching `src/auth.py` is the
    worktree's `src/auth.py` too); other paths as they are."""
    out: list[str] = []
    for p in paths:
        if p == worktree or p.startswith(worktree.rstrip("/") + "/"):
            p = repo + p[len(worktree):]
        if p not in out:
            out.append(p)
    return out


def in_checkout(path: str, repo: str, home: str) -> str | None:
    """An absolute `path` inside a linked worktree of `repo` (a project folder), as the main checkout's
    relative path (the same file there); None for a path in no worktree of `repo`."""
    top = work_tree_root(os.path.dirname(path), home)
    if top is None or top == repo or repository_folder(top) != repo:
        return None
    return os.path.relpath(path, top)
