"""`kg doctor`'s look at the project graphs whose folder is not on this machine.

A renamed or moved repository starts with no memory, and nothing else says so: its graph waits under
the old folder's name. Said as notes, not problems: a project deleted on purpose, or one synced from
another machine that keeps it elsewhere, is no fault.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Protocol

from ..storage import layout as L

SAID_AT_MOST = 10  # projects named one by one; the rest counted


class Notes(Protocol):
    def ok(self, what: str, said: str) -> None: ...

    def note(self, what: str, said: str) -> None: ...


def check_project_folders(r: Notes, root: Path) -> None:
    layout = L.Layout(root)
    slugs = layout.project_slugs()
    missing = [(slug, recorded) for slug in slugs
               if (recorded := L.recorded_project_path(layout.project_graph(slug))) is not None
               and L.folder_gone(recorded)]
    if not missing:
        if slugs:
            r.ok("project folders", f"the folder of each of the {len(slugs)} project graph(s) is here")
        return
    for slug, recorded in missing[:SAID_AT_MOST]:
        r.note(f"project {slug}", f"its folder {recorded} is not on this machine (moved, renamed or deleted); "
                                  f"its memory is in {layout.projects / slug}")
    if len(missing) > SAID_AT_MOST:
        r.note("project folders", f"{len(missing) - SAID_AT_MOST} more project graph(s) whose folder is not here")
    store = shlex.quote(str(layout.projects))
    r.note("project folders", "a folder of the same name (or one renamed beside it) takes its graph back only on "
                              "evidence it is that project: most of the files its lessons touch, two at least, are "
                              "in it (files any project may have, README or package.json, do not count); to give "
                              f"one to a moved or renamed folder without it: `kg stop`, move aside {store}/NEW if the renamed folder made one meanwhile, "
                              f"`mv {store}/OLD {store}/NEW` (NEW: the new folder's name), `kg start`; the "
                              "editor's Projects dialog removes one no longer wanted")
