"""`kg doctor`'s look at the project graphs whose folder is not on this machine.

A renamed or moved repository starts with no memory, and nothing else says so: its graph waits under
the old folder's name. Said as notes, not problems: a project deleted on purpose, or one synced from
another machine that keeps it elsewhere, is no fault.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Protocol

from .. import binding_notes as say
from ..storage import home_paths, journal, layout as L
from ..storage.journal import journal_path

SAID_AT_MOST = 10  # projects named one by one; the rest counted


class Notes(Protocol):
    def ok(self, what: str, said: str) -> None: ...

    def note(self, what: str, said: str) -> None: ...


def check_project_folders(r: Notes, root: Path) -> None:
    layout = L.Layout(root)
    slugs = layout.project_slugs()
    recorded_of = {slug: _recorded(layout.project_graph(slug)) for slug in slugs}
    missing = [(slug, recorded) for slug, recorded in recorded_of.items()
               if recorded is not None and L.folder_gone(recorded)]
    if not missing:
        if slugs:
            r.ok("project folders", f"the folder of each of the {len(slugs)} project graph(s) is here")
        return
    for slug, recorded in missing[:SAID_AT_MOST]:
        said = (f"its folder {recorded} is not on this machine (moved, renamed or deleted); its memory is in "
                f"{layout.projects / slug}")
        for own, here in _may_be(recorded, recorded_of):
            said += f"; if {here} is this project moved or renamed: {say.give_back(layout.projects, slug, own)}"
        r.note(f"project {slug}", said)
    if len(missing) > SAID_AT_MOST:
        r.note("project folders", f"{len(missing) - SAID_AT_MOST} more project graph(s) whose folder is not here")
    store = shlex.quote(str(layout.projects))
    r.note("project folders", "a folder of the same name (or one renamed beside it) takes its graph back only on "
                              "evidence it is that project: most of the files its lessons touch, two at least, are "
                              "in it (files any project may have, README or package.json, do not count); to give "
                              f"one to a moved or renamed folder without it: `kg stop`, move aside {store}/NEW, "
                              f"`mv {store}/OLD {store}/NEW`, `kg start` (NEW: the graph folder the new folder was "
                              "given, which its first session names: the folder's name, or that name and a hash "
                              "when OLD bears it); the editor's Projects dialog removes one no longer wanted")


def _recorded(graph_file: Path) -> str | None:
    """The folder a graph records, its journal's latest word first: a graph a running server made a moment
    ago (the folder a session was just told to give a gone one's memory to) is in its journal alone."""
    for record in reversed(journal.read(journal_path(graph_file))):
        meta = record.get("m") if isinstance(record, dict) else None
        if isinstance(meta, dict) and isinstance(meta.get("project_path"), str) and meta["project_path"]:
            return home_paths.home_side(meta["project_path"], str(L.home()))
    return L.recorded_project_path(graph_file)


def _may_be(gone: str, recorded_of: dict[str, str | None]) -> list[tuple[str, str]]:
    """(graph folder, its folder) of each folder here that a gone one may have become: one of its name, or one
    beside where it was (a rename); each got a graph of its own, for want of evidence it is that project."""
    name, parent = os.path.basename(gone.rstrip("/")), os.path.dirname(gone.rstrip("/"))
    return [(slug, here) for slug, here in sorted(recorded_of.items())
            if here is not None and here != gone and not L.folder_gone(here)
            and (os.path.basename(here.rstrip("/")) == name or os.path.dirname(here.rstrip("/")) == parent)][:3]
