"""Who made each side of a sync's merge, per mirror file: the machine a notice names for a delete or a dropped edge.

The other machine's commits a merge takes in may come from several machines (three of one host name, each with
its store's id): one name for them all said nothing, so a change is the machine's whose commit made it (the newest
commit of theirs to change the file holding it). Blocking (one `git log`): the merge runs in a worker thread.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ..core.merge_deletes import UNNAMED, Machines, told_apart
from . import git_read as R
from . import shards
from .machine_id import TRAILER


@attrs.frozen
class Who:
    here: tuple[str, str]  # this machine's (host name, store id)
    default: Machines  # (ours, theirs) for a file no commit of theirs names
    theirs: dict[str, tuple[str, str]] = attrs.Factory(dict)  # mirror path -> its newest commit's (host name, id)

    def at(self, path: str) -> Machines:
        found = self.theirs.get(path)
        if found is None or not found[0]:
            return self.default
        return told_apart((self.here[0], found[0]), (self.here[1], found[1]))

    def of_node(self, key: str, node_id: str) -> Machines:
        """For a node of graph `key`: its bucket's."""
        return self.at(f"{shards.folder(key)}/{shards.bucket(node_id)}")


def who(root: Path, ours: str, theirs: str, host: str, ident: str) -> Who:
    default = told_apart((host, R.machine_of(root, ours, theirs)), (ident, R.machine_of(root, ours, theirs, TRAILER)))
    return Who((host, ident), default, R.machines_by_path(root, ours, theirs, shards.ROOT))


NOBODY = Who(("", ""), UNNAMED)
