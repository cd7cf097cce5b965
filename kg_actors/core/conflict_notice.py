"""What a session reading a node with versions set aside is told (NOT WRITTEN style), until a write resolves them.

Pure. The versions are set aside by a sync's merge (core/merge.py: changed on two machines; core/merge_deletes.py:
deleted on one, changed on the other), by a load from a project's second graph folder (twin_folders.py), a hand
edit holding a node twice (core/hand_edits.py), or a hand edit racing the journal (core/journal_replay.py).
"""

from __future__ import annotations

from typing import Any

from .merge import CONFLICTS_MAX, FILE_AND_JOURNAL, FROM_FOLDER, HELD_TWICE, RENAMED_TO, Json
from .merge_deletes import CHANGED_ON, DELETED_AS, DELETED_ON, is_delete, machine
from .merge_dropped import DROPPED_EDGE, GONE_NODE, GONE_ON, is_dropped
from .plain_text import one_line


def _when(ts: Any) -> str:
    import datetime as dt

    if not isinstance(ts, int | float) or isinstance(ts, bool):
        return "at an unknown time"
    return dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _deleted(other: Json, here: str) -> str:
    """'deleted on A and kept because B changed it' for one delete set aside (`here`: this store's machine id)."""
    was = f" (deleted there as '{one_line(str(other[DELETED_AS]))}')" if other.get(DELETED_AS) else ""
    return (f"deleted on {one_line(machine(other.get(DELETED_ON), 'another machine', here))}{was} and kept because "
            f"{one_line(machine(other.get(CHANGED_ON), 'the other machine', here))} changed it")


def conflict_notice(level: str, node_id: str, node_written: Json | None, others: Any, here: str = "") -> str | None:
    """What a session reading a node with versions set aside is told; None when there are none. `here`: this
    store's machine id (storage/machine_id.py), so a machine of a shared host name is said as this one or not."""
    if not isinstance(others, list) or not others:
        return None
    dropped = [o for o in others if is_dropped(o)]
    said = [_dropped_notice(level, node_id, dropped, here)] if dropped else []
    rest = [o for o in others if not is_dropped(o)]
    return "\n".join([*([_versions_notice(level, node_id, node_written, rest, here)] if rest else []), *said])


def _dropped_notice(level: str, node_id: str, dropped: list[Json], here: str) -> str:
    """Edges a sync dropped with their other end, kept beside this one (core/merge_dropped.py)."""
    where = {machine(o.get(GONE_ON), "another machine", here) for o in dropped[-CONFLICTS_MAX:]}
    on = "this machine" if where == {"this machine"} else "another machine"  # the one that deleted, said once
    lines = [f"EDGE DROPPED BY A SYNC: {len(dropped)} edge(s) of '{node_id}' ({level}) went with a node deleted on "
             f"{on} before the machines synced (an edge must name two nodes); each is kept here:"]
    for other in dropped[-CONFLICTS_MAX:]:
        by = one_line(machine(other.get(GONE_ON), "another machine", here))
        notes = other.get("notes")
        lines.append(f"  • edge '{one_line(str(other.get(DROPPED_EDGE)))}': '{one_line(str(other.get(GONE_NODE)))}' "
                     f"was deleted on {by}" + (f"; notes: {one_line(' | '.join(str(n) for n in notes))}"
                                               if isinstance(notes, list) and notes else ""))
    lines.append("  To keep one: kg_put_edge it again between nodes that stand, with its notes; any write of "
                 f"'{node_id}' clears this notice.")
    return "\n".join(lines)


def _versions_notice(level: str, node_id: str, node_written: Json | None, others: list[Any], here: str) -> str:
    in_use = f"In use (shown above): the one written last, {_when((node_written or {}).get('ts'))}."
    if all(is_delete(o) for o in others):
        return (f"DELETED ON ONE MACHINE, CHANGED ON ANOTHER: '{node_id}' ({level}) was {_deleted(others[-1], here)} "
                "before they synced (a sync never drops a lesson someone wrote). In use (shown above): the "
                f"changed version.\n  To resolve: kg_delete_node '{node_id}' deletes it after all; any write "
                "of the node keeps it and clears this notice.")
    if all(isinstance(o, dict) and o.get(FROM_FOLDER) for o in others):
        # Merged from a second folder of the same project's graph (twin_folders.py, conduct/worktree_fold.py), not by a
        # sync; each version set aside names the folder it came from.
        head = (f"IN TWO GRAPH FOLDERS: '{node_id}' ({level}) was held differently in two graph folders of this "
                "project; both versions are kept.")
    elif all(isinstance(o, dict) and o.get(HELD_TWICE) for o in others):  # core/hand_edits.py
        head = (f"HELD TWICE IN ITS FILE: '{node_id}' ({level}) was held twice in its graph file (a hand edit); "
                "the last entry is used and the earlier one kept.")
        in_use = "In use (shown above): the last entry."
    elif any(isinstance(o, dict) and o.get(FILE_AND_JOURNAL) for o in others):  # core/journal_replay.py
        head = (f"CHANGED IN ITS FILE AND ITS JOURNAL: '{node_id}' ({level}) was changed by hand in its graph file "
                "while the server wrote it; both versions are kept.")
    else:
        head = (f"CHANGED ON ANOTHER MACHINE: '{node_id}' ({level}) was changed on two machines before they "
                "synced; both versions are kept.")
    lines = [f"{head} {in_use} Set aside ({len(others)}):"]
    for other in others[-CONFLICTS_MAX:]:
        if not isinstance(other, dict):
            continue
        if is_delete(other):
            lines.append(f"  • {_deleted(other, here)} (kg_delete_node deletes it after all)")
            continue
        stamp = other.get("_written")
        written: Json = stamp if isinstance(stamp, dict) else {}
        renamed = f", renamed to '{one_line(str(other[RENAMED_TO]))}' there" if other.get(RENAMED_TO) else ""
        if other.get(FROM_FOLDER):
            renamed += f", in {one_line(str(other[FROM_FOLDER]))}"
        lines.append(f"  • written {_when(written.get('origin_ts', written.get('ts')))}{renamed}: gist: "
                     + one_line(str(other.get('gist', ''))))
        for name in ("notes", "touches"):
            values = other.get(name)
            if values:
                lines.append(f"    {name}: " + one_line(" | ".join(str(v) for v in values)))
    lines.append("  To resolve: kg_put_node this node with what the set-aside version adds merged in "
                 "(or re-send it as it is to keep it); any write of the node clears this notice.")
    return "\n".join(lines)
