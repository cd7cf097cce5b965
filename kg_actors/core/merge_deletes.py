"""A node deleted on one machine and changed on the other: the version a sync's merge sets aside for it.

Pure. A delete stands against what leaves the node's content as the base had it (a read, an endorsement,
a move between tiers, an edge to or from it: the delete takes its edges). Against a change of its content
(gist, notes, touches, or a rename) the changed node is kept, a lesson someone wrote is never lost, with
an entry in its `_conflicts` saying where it was deleted and why it stayed: every reader is told, as of a
node changed on two machines, until a write keeps it or a delete deletes it again.
"""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]

DELETED_ON = "deleted_on"  # in a version set aside: the machine that deleted the node ("" when unknown)
CHANGED_ON = "changed_on"  # the machine whose change of the node kept it
DELETED_AS = "deleted_as"  # the id it was deleted under, when the other machine renamed it
# (our machine's name, theirs): what the merge knows of who wrote each side; "" when it does not know.
Machines = tuple[str, str]
UNNAMED: Machines = ("", "")


def delete_entry(deleted_by: str, machines: Machines, now: float, deleted_as: str | None = None) -> Json:
    """The version set aside for a node side `deleted_by` ("ours" | "theirs") deleted and the other changed."""
    ours, theirs = machines
    deleted_on, changed_on = (ours, theirs) if deleted_by == "ours" else (theirs, ours)
    entry: Json = {DELETED_ON: deleted_on, CHANGED_ON: changed_on, "_set_aside_ts": now}
    if deleted_as is not None:
        entry[DELETED_AS] = deleted_as
    return entry


def is_delete(entry: Any) -> bool:
    return isinstance(entry, dict) and DELETED_ON in entry


def only_deletes_new(before: Any, after: Any) -> bool:
    """Whether what a merge added to a node's versions set aside (`before` -> `after`) is deletes only:
    a sync then says "deleted on one machine", not "changed on both machines"."""
    held = before if isinstance(before, list) else []
    added = [e for e in (after if isinstance(after, list) else []) if e not in held]
    return bool(added) and all(is_delete(e) for e in added)


def machine(name: Any, fallback: str, here: str = "") -> str:
    """A machine as a notice names it: "this machine" for the one whose id is `here` (`told_apart`), "another
    machine named X" for another of a shared name."""
    if not (isinstance(name, str) and name):
        return fallback
    host, _, ident = name.removesuffix("]").rpartition(" [") if name.endswith("]") else (name, "", "")
    if not ident or not host:
        return name
    return "this machine" if ident == here else f"another machine named {host}"


def told_apart(names: Machines, ids: Machines) -> Machines:
    """(ours, theirs) as a merge records them: host names, each with its store's id when both names are one
    (two machines named `vm`), so a notice can say which was this machine (`machine`)."""
    if names[0] != names[1] or not all(ids) or ids[0] == ids[1]:
        return names
    return (f"{names[0]} [{ids[0]}]", f"{names[1]} [{ids[1]}]")
