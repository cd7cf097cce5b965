"""Journal records replayed over a graph file that was changed since they were written (a hand edit).

A reload after a hand edit set the journal aside whole, and writes answered "saved" were gone. Now
its records are replayed over the file as it now is. Each record names, per node it touches, a short
checksum of that node's content before the change (`BEFORE`): where the node there still has it, the
record applies as written. Where it does not, the file changed the node too: when the record changed
its content as well, the version written last is the node (the file's is dated by its mtime) and the
other a version set aside, marked `merge.FILE_AND_JOURNAL`; when the record changed no content (a read
stamp, a compaction's move), the node there stays as it is (its content and any version set aside by an
earlier record) with the record's stamps. A delete against an edit keeps the edit, as a merge does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from . import merge
from .records import Node

Json = dict[str, Any]

BEFORE = "b"  # a record's {node id: content_sum of the node before the change (None: there was none)}
UNCHANGED = "="  # in BEFORE: the record changed none of the node's content (a read stamp, a compaction's move)


def content_sum(node: Json | None) -> str | None:
    """A short checksum of what a write sets of a node (merge.content); None for no node."""
    if node is None:
        return None
    text = json.dumps(merge.content(node), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:12]


def before_mark(prior: Node | None, now: Node | None) -> str | None:
    """A record's BEFORE entry for a node it touched: UNCHANGED when its content did not change (a compare
    of a few fields: a compaction's record touches hundreds of nodes), else the prior content's checksum."""
    if prior is None:
        return None
    if now is not None and (prior.gist, prior.notes, prior.touches, prior.extra) == (
            now.gist, now.notes, now.touches, now.extra):
        return UNCHANGED
    return content_sum(prior.to_json())


def reconcile(record: Any, current: Callable[[str], Json | None], file_ts: float, now: float) -> Any:
    """The record to apply over the graph as it now is (`current`: a node's JSON there, or None).
    `file_ts`: when the file was last changed. The record itself when nothing it touches changed there."""
    if not isinstance(record, dict):
        return record
    before, nodes = record.get(BEFORE), record.get("n")
    if not isinstance(before, dict) or not isinstance(nodes, dict):
        return record  # a record from before the checksums: applied as written
    out: Json | None = None
    for node_id, written in nodes.items():
        if node_id not in before or not (written is None or isinstance(written, dict)):
            continue
        live = current(node_id)
        new_id = _renamed_to(node_id, nodes, before)
        if new_id is not None and live is not None and content_sum(live) != before[node_id]:
            # Renamed here, changed by hand there: one node under the new id, as a merge folds a rename.
            out = out if out is not None else dict(nodes)
            out[new_id] = _fold_rename({**live, "id": new_id}, nodes[new_id], file_ts, now)
            continue  # the old id stays deleted
        if before[node_id] == UNCHANGED:
            kept = _stamps_over(live, written)
        elif content_sum(live) == before[node_id]:
            continue  # what the record's writer saw is what is there
        else:
            kept = _one(live, written, before[node_id], file_ts, now)
        if kept is not written:
            out = out if out is not None else dict(nodes)
            out[node_id] = kept
    return record if out is None else {**record, "n": out}


def _stamps_over(live: Json | None, written: Json | None) -> Json | None:
    """A record that changed none of a node's content (a read, a kg_useful, a compaction's move): the node as
    it is there, its content, its date and its versions set aside (an earlier record's double edit) untouched,
    with the record's stamps and state. A node deleted there stays deleted."""
    if live is None or written is None:
        return written if live is not None else None
    node = {k: v for k, v in live.items() if k not in merge.STAMPS}
    node.update((k, v) for k, v in written.items() if k in merge.STAMPS)
    return written if node == written else node


def _renamed_to(node_id: str, nodes: Json, before: Json) -> str | None:
    """The id this record renamed `node_id` to: it deleted it, and made a node new to the graph whose
    content is the old one's but for its id (graph_ops.rename_local); None when it renamed nothing."""
    if nodes.get(node_id) is not None or before.get(node_id) in (None, UNCHANGED):
        return None
    for new_id, node in nodes.items():
        if new_id in before and before[new_id] is None and isinstance(node, dict) \
                and content_sum({**node, "id": node_id}) == before[node_id]:
            return new_id
    return None


def _fold_rename(live: Json, written: Json, file_ts: float, now: float) -> Json:
    """The renamed node (`written`) over the old id's node as it is there, already under the new id: the
    file's content when it is the same, else both versions, the one written last in use."""
    if merge.content(live) == merge.content(written):
        return {**written, merge.CONFLICTS_FIELD: live[merge.CONFLICTS_FIELD]} if live.get(
            merge.CONFLICTS_FIELD) else written
    return _both(live, written, file_ts, now)


def _one(live: Json | None, written: Json | None, before: Any, file_ts: float, now: float) -> Json | None:
    """One node changed in the file since the record's writer saw it: what the record sets it to."""
    if written is None or live is None:
        return live if written is None else written  # a delete against an edit keeps the edit
    if content_sum(written) == before:  # the record changed no content: the file's stays, with its stamps
        return _stamps_over(live, written)
    if merge.content(live) == merge.content(written):
        return written
    return _both(live, written, file_ts, now)


def _both(live: Json, written: Json, file_ts: float, now: float) -> Json:
    """A node whose content the file and the record changed differently: the version written last in use
    (the file's dated by its mtime), the other set aside unless it is set aside already."""
    journal_later = merge.written_ts(written) > file_ts
    winner, loser = (written, live) if journal_later else (live, written)
    stamp = loser.get("_written") if loser is written else {"ts": file_ts, "by": None}
    other = {**merge.content(loser), "_written": stamp, "_set_aside_ts": now, merge.FILE_AND_JOURNAL: True}
    node = dict(winner)
    if winner is live:  # dated by the file: the notice says when the edit that won was made
        node["_written"] = stamp = {"ts": file_ts, "by": None}
    held = [*(live.get(merge.CONFLICTS_FIELD) or []), *(written.get(merge.CONFLICTS_FIELD) or [])]
    new = [] if any(_version(o) == _version(other) for o in held if isinstance(o, dict)) else [other]
    node[merge.CONFLICTS_FIELD] = merge.kept_conflicts(live.get(merge.CONFLICTS_FIELD),
                                                       written.get(merge.CONFLICTS_FIELD), new)
    return node


def _version(aside: Json) -> Json:
    """What a version set aside holds, for a compare: its content, whatever id or date it was kept under."""
    return {k: v for k, v in aside.items() if k not in ("id", "_written", "_set_aside_ts", merge.FILE_AND_JOURNAL)}
