"""The one line a session is told when its folder's store folder was chosen by more than its own record:
a gone folder's memory taken over on evidence, one not taken for want of it, or its own memory bound
elsewhere meanwhile. Pure text; the directory decides which, and says each once per server run."""

from __future__ import annotations

import shlex
from pathlib import Path

from .storage import same_project


def _moves(projects: Path, slug: str, to: str) -> str:
    store = shlex.quote(str(projects))
    return f"`kg stop`, `mv {store}/{shlex.quote(slug)} {store}/{shlex.quote(to)}`, `kg start`"


def give_back(projects: Path, slug: str, own: str) -> str:
    """The steps that give graph folder `slug` to the folder whose own graph folder is `own`: its name there is
    what makes it that folder's (`own` is `NAME-<hash>` for a folder of the gone one's very name)."""
    return f"`kg stop`, move {projects / own} aside (what was written there since is in it), " + _moves(
        projects, slug, own).removeprefix("`kg stop`, ")


def taken_over(projects: Path, slug: str, gone: str, root: str, back: str, by_hand: bool = False) -> str:
    """`by_hand`: the graph folder was renamed for this folder (what `not_taken` says to do), not weighed."""
    why = ("its graph folder was renamed for it" if by_hand else "the files its lessons touch are here")
    return (f"kg memory: this folder took over the memory of {gone}, a folder not on this machine now "
            f"({projects / slug}): {why}. If it is another project: "
            f"{_moves(projects, slug, back)} gives that memory back to {gone}; `kg doctor` then names it.")


def not_taken(projects: Path, slug: str, gone: str, files: set[str], own: str, beside: bool = False) -> str:
    """`files`: the project-relative files the gone folder's lessons touch; `beside`: that folder bore another
    name in this folder's parent (a rename), where it bore this one; `own`: this folder's graph folder."""
    if not files:
        why = "its lessons touch no file: nothing tells this folder from that one"
    elif not same_project.evidence(files):
        why = ("the files its lessons touch are one, or ones any project may have (README, package.json...): "
               "nothing tells this folder from that one")
    else:
        why = "nothing shows this folder is that project: the files its lessons touch are not here"
    where = "a folder beside this one" if beside else "a folder of this name"
    return (f"kg memory: {projects / slug} holds the memory of {gone}, {where} not on this machine now; {why}, "
            f"so this folder starts a memory of its own. If it is that project {'renamed' if beside else 'moved'}, "
            f"{give_back(projects, slug, own)} gives it that memory.")


def bound_elsewhere(projects: Path, slug: str, taker: str, root: str, own: str) -> str:
    return (f"kg memory: this folder's memory ({projects / slug}) was taken over by {taker} while this folder was "
            f"not here; this folder starts a memory of its own ({projects / own}). To move it back: move "
            f"{projects / own} aside, then {_moves(projects, slug, own)}.")
