"""The one line a session is told when its folder's store folder was chosen by more than its own record:
a gone folder's memory taken over on evidence, one not taken for want of it, or its own memory bound
elsewhere meanwhile. Pure text; the directory decides which, and says each once per server run."""

from __future__ import annotations

import shlex
from pathlib import Path


def _moves(projects: Path, slug: str, to: str) -> str:
    store = shlex.quote(str(projects))
    return f"`kg stop`, `mv {store}/{shlex.quote(slug)} {store}/{shlex.quote(to)}`, `kg start`"


def taken_over(projects: Path, slug: str, gone: str, root: str, back: str) -> str:
    return (f"kg memory: this folder took over the memory of {gone}, a folder not on this machine now "
            f"({projects / slug}): the files its lessons touch are here. If it is another project: "
            f"{_moves(projects, slug, back)} gives that memory back to {gone}; `kg doctor` then names it.")


def not_taken(projects: Path, slug: str, gone: str) -> str:
    return (f"kg memory: {projects / slug} holds the memory of {gone}, a folder of this name not on this machine "
            "now; nothing shows this folder is that project (the files its lessons touch are not here), so this "
            "folder starts a memory of its own. If it is that project moved, `kg doctor` says how to give it "
            "that memory.")


def bound_elsewhere(projects: Path, slug: str, taker: str, root: str, own: str) -> str:
    return (f"kg memory: this folder's memory ({projects / slug}) was taken over by {taker} while this folder was "
            f"not here; this folder starts a memory of its own ({projects / own}). To move it back: move "
            f"{projects / own} aside, then {_moves(projects, slug, own)}.")
