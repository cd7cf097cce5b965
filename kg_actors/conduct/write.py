"""Write: put and delete nodes and edges, and a task's progress, for a session or for the editor.

A session's write asks the registry once before (OpenWrite: touched, and what
it saw of the node, for arbitration) and once after (AfterWrite: the node
marked seen, and the push window claimed when the reply carries pushes). The
graph actor checks versions with the write. A write without a session (the
editor's) is stamped unowned and may name a project by its path. Every change
is published on the change feed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from ..core import constants as C
from ..core import graph_ops, ids, json_values, maintenance_guards, plain_text, private_text, replies, secrecy
from ..core import held_names, held_progress, node_room, secret_state, touch_marks
from ..core.errors import InvalidInput, NotFound, WriteConflict
from ..graph_messages import PutEdgeResult
from ..session_messages import PushWindow, SessionView, WriteView
from . import check_line, worktree_touches
from .floor import Floor

if TYPE_CHECKING:
    from ..graph_handle import GraphHandle


@attrs.frozen
class NodeWritten:
    result: graph_ops.PutNodeResult
    level: str
    view: SessionView | None
    push_window: PushWindow | None = None  # claimed with the write when asked (`push`)


async def _open(floor: Floor, sid: str | None, level: str | None,
                node_id: object) -> tuple[SessionView | None, WriteView | None]:
    if sid is None:
        return None, None
    return await floor.open_write(sid, level, node_id if isinstance(node_id, str) else "")


def _project_of(view: SessionView | None, project_path: str | None) -> str | None:
    return view.project_path if view else project_path


async def _as_read(floor: Floor, conflict: WriteConflict, project_root: str | None) -> None:
    """The refused node's touches as a node read shows them: a gone one marked, with where it went."""
    node = conflict.node  # None: deleted, nothing shown
    touches = node.get("touches") if node is not None else None
    if floor.touch_check is not None and node is not None and touches:
        marked = await floor.touch_check.marked_touches(tuple(touches), project_root)
        conflict.node = {**node, "touches": list(marked)}


async def put_node(floor: Floor, sid: str | None, level: str, node_id: str, gist: str,
                   notes: list[str] | None, touches: list[str] | None, guard: bool = True,
                   project_path: str | None = None, expected_version: int | None = None,
                   create_only: bool = False, push: bool = False,
                   expected_fingerprint: str | None = None) -> NodeWritten:
    view, wv = await _open(floor, sid, level, node_id)
    handle = await floor.level_handle(view, level, project_path)
    if ids.check_lookup_id(node_id) not in handle.view_now().graph.nodes:
        ids.check_node_id(node_id)  # a new id; one a hand edit left stays editable (the actor checks again)
    secrecy.refuse_secret_names([("id", node_id)])  # an id is stored as it is, like a gist
    touches, unmarked = touch_marks.cut_marks(touches)  # a touches line copied back from a read
    clean = await check_line.checked(secrecy.clean_node, gist, notes, touches, size=check_line.chars(gist, notes, touches))
    gist, notes, touches = clean.gist, clean.notes, clean.touches
    if touches and level == "project":
        touches = worktree_touches.as_in_checkout(touches, _project_of(view, project_path))
    now = floor.clock()
    writer = graph_ops.Writer(
        session=sid, maintenance=wv is not None and wv.maintenance, seen_at=wv.seen_at if wv else None,
        read_at=wv.read_at if wv else None, guard=guard and view is not None,
        may_credit=wv is not None and wv.may_credit, shown_cut=wv is not None and wv.shown_cut,
        renamed_to=wv.renamed_to if wv is not None else None, replaced_from=wv.replaced_from if wv else None,
    )
    try:
        # expected_version / _fingerprint, create_only: the editor's stale-edit check, made inside the actor
        # with the write.
        result = await handle.put_node(node_id=node_id, gist=gist, notes=notes, touches=touches,
                                       now=now, writer=writer, expected_version=expected_version,
                                       create_only=create_only, expected_fingerprint=expected_fingerprint)
    except WriteConflict as conflict:
        if view is not None:
            if conflict.gone is not None:  # told it is gone: the same write again makes the node anew
                await floor.sessions.forget_gone(sid=view.sid, level=level, node_id=conflict.gone)
            if conflict.node is not None:
                # The refusal shows the node as it stands (a renamed one under its new id): it counts as a
                # full read of that version, even when another write overtook this request after `now`.
                at = max(now, conflict.written_ts or now)
                await floor.sessions.after_write(sid=view.sid, refs=[(level, conflict.node_id)], via="read", at=at)
        await _as_read(floor, conflict, _project_of(view, project_path) if level == "project" else None)
        raise
    if clean.cut:
        result = attrs.evolve(result, warnings=(*result.warnings, replies.private_cut_note(clean.cut)))
    if unmarked:
        result = attrs.evolve(result, warnings=(*result.warnings, replies.gone_mark_note(unmarked)))
    if result.changed and (too_big := await _archived_at_once(handle, node_id, now)) is not None:
        result = attrs.evolve(result, warnings=(*result.warnings, too_big))
    window = None
    if view is not None:
        # What the session has seen is the node as its write left it, stamped when the actor applied it.
        # Whole only when the write made it or gave both lists: a gist alone says nothing of the notes
        # and touches kept, which the session's next write must not replace unread.
        stamped = (result.node.written or {}).get("ts") if result.changed else None
        seen = max(now, stamped) if isinstance(stamped, int | float) else now
        window = await floor.sessions.after_write(sid=view.sid, refs=[(level, node_id)], via="write", at=seen,
                                                  push_at=floor.clock() if push else None,
                                                  full=result.created or (notes is not None and touches is not None))
        if result.note_credit:
            await floor.sessions.like(sid=view.sid, level=level, node_id=node_id, credits=None)
            floor.log_useful(view, node_id, level, "note", {})
    floor.publish({"type": "node_updated", "level": level, "node": result.node.to_json(),
                   "source_session": sid, "project_path": _project_of(view, project_path)})
    return NodeWritten(result, level, view, window)


async def _archived_at_once(handle: GraphHandle, node_id: str, now: float) -> str | None:
    """Said when compaction archives the node just written because of its own size: one over the fresh share is
    not protected as new. Only then is the run owed waited for (a read's wait), so that the reply says what is."""
    graph = handle.snapshot()
    if node_id not in graph.nodes or (cost := node_room.alone_cost(graph, node_id)) <= node_room.fresh_share():
        return None
    node = (await handle.settled(now)).graph.nodes.get(node_id)
    return node_room.archived_at_once_note(cost) if node is not None and node.archived else None


async def put_edge(floor: Floor, sid: str | None, level: str, src: str, dst: str, rel: str,
                   notes: list[str] | None, project_path: str | None = None,
                   refuse_unnamed: bool = False) -> PutEdgeResult:
    """`refuse_unnamed`: a bare-id end that names no node is refused (the editor's form), not kept with a word."""
    secrecy.refuse_secret_names([("from", src), ("to", dst), ("rel", rel)])
    notes, cut = await check_line.checked(secrecy.clean_notes, notes, size=check_line.chars(notes))
    view, wv = await _open(floor, sid, level, src)
    if level == "project":  # a file of the project, however named, is one end (as a touch is one file)
        src, dst = (worktree_touches.edge_end(end, _project_of(view, project_path)) for end in (src, dst))
    handle = await floor.level_handle(view, level, project_path)
    writer = graph_ops.Writer(session=sid, maintenance=wv is not None and wv.maintenance)
    # A project edge may name a user node: which of its bare ends the user graph holds. The
    # project's own nodes are checked inside its actor, with the write.
    known: set[str] = set()
    if level == "project":
        user = await floor.graph("user")
        for end in {src, dst}:
            if isinstance(end, str) and not ids.is_artifact(end) and await user.get_node(node_id=end):
                known.add(end)
    out = await handle.put_edge(src=src, dst=dst, rel=rel, notes=notes, now=floor.clock(), writer=writer,
                                known_elsewhere=frozenset(known), refuse_unnamed=refuse_unnamed)
    if out.credit_elsewhere and level == "project":
        target, case_ts = out.credit_elsewhere
        if await (await floor.graph("user")).repeat_credit(target_id=target, case_ts=case_ts):
            out = attrs.evolve(out, credited=target)
    if cut:
        out = attrs.evolve(out, warnings=(*out.warnings, replies.private_cut_note(cut)))
    floor.publish({"type": "edge_updated", "level": level, "edge": out.edge.to_json(), "source_session": sid,
                   "project_path": _project_of(view, project_path)})
    return out


async def delete_node(floor: Floor, sid: str | None, node_id: str, level: str | None = None,
                      project_path: str | None = None, expected_version: int | None = None,
                      expected_fingerprint: str | None = None) -> tuple[str, int]:
    view, wv = await _open(floor, sid, level, node_id)
    ids.check_lookup_id(node_id)  # a node a hand edit left with an id no write takes is still deleted
    lvl, handle, node = await floor.locate(view, node_id, level, project_path)
    # As rename: no oracle for an agent; the editor (no session) deletes it, as kg doctor says.
    if node is None or handle is None or lvl is None or sid is not None and held_names.name_held(node_id):
        ids.check_existing_id(node_id)  # a path named instead of a node is told so
        where = f"the {level} graph" if level is not None else "the user or project graph"
        raise NotFound(f"node '{ids.shown(node_id)}' not found in {where}"
                       + await _renamed_hint(floor, view, node_id, level, project_path)
                       + await floor.maintain_hint(node_id, level, "maintain nodes cannot be deleted with this tool"))
    if view is not None and level is None:  # what it saw of the node found, not of another level's
        wv = await floor.sessions.write_view(sid=view.sid, level=lvl, node_id=node_id)
    await refuse_held(floor, wv, "delete", node_id)
    writer = None if view is None or wv is None else graph_ops.Writer(
        session=sid, maintenance=wv.maintenance, seen_at=wv.seen_at, read_at=wv.read_at, guard=True,
        shown_cut=wv.shown_cut, replaced_from=wv.replaced_from)
    try:
        removed = await handle.delete_node(node_id=node_id, expected_version=expected_version, writer=writer,
                                           now=floor.clock(), expected_fingerprint=expected_fingerprint)
    except WriteConflict as conflict:
        if view is not None:  # the refusal shows the node as it stands: a retry deletes that version
            await floor.sessions.after_write(sid=view.sid, refs=[(lvl, node_id)], via="read",
                                             at=max(floor.clock(), conflict.written_ts or 0.0))
        await _as_read(floor, conflict, _project_of(view, project_path) if lvl == "project" else None)
        raise
    if view is not None:  # its own delete is no news to the session: writing the id again makes a new node
        await floor.sessions.forget_gone(sid=view.sid, level=lvl, node_id=node_id)
    floor.publish({"type": "node_deleted", "level": lvl, "id": node_id, "source_session": sid,
                   "project_path": _project_of(view, project_path)})
    return lvl, removed


async def refuse_held(floor: Floor, wv: WriteView | None, action: str, node_id: str) -> None:
    """Spec 000 "Chores": a maintenance session does not rename or delete what a live working session
    holds (the same sessions and window the chore picker avoids). Working sessions are not limited."""
    if wv is None or not wv.maintenance:
        return
    held = await floor.sessions.held_ids(since=floor.clock() - maintenance_guards.HELD_WINDOW_S)
    refusal = maintenance_guards.held_refusal(action, node_id, held)
    if refusal is not None:
        raise refusal


async def _renamed_hint(floor: Floor, view: SessionView | None, node_id: str, level: str | None,
                        project_path: str | None) -> str:
    """Where a deleted-under-its-old-id node went, when the server knows: the session's record of the
    rename (its own, or another's of a node it saw), else the user graph's record of its renames."""
    went = await floor.sessions.where_renamed(sid=view.sid, level=level, node_id=node_id) if view else None
    if went is None and level in (None, "user"):
        renames = (await floor.graph("user")).snapshot().extra_meta.get(graph_ops.RENAMED_KEY)
        to = renames.get(node_id) if isinstance(renames, dict) else None
        went = ("user", to) if isinstance(to, str) else None
    if went is None:
        return ""
    lvl, to = went
    shown = ids.shown(to)
    if (await floor.locate(view, to, lvl, project_path))[2] is None:
        return f"; it was renamed to '{shown}' ({lvl} graph), which has since been deleted too; nothing was deleted"
    return (f"; it was renamed to '{shown}' ({lvl} graph); nothing was deleted: to delete that node, "
            f"kg_delete_node id='{shown}'")


async def delete_edge(floor: Floor, sid: str | None, src: object, dst: object, rel: object,
                      level: str | None = None, project_path: str | None = None
                      ) -> tuple[str, tuple[str, str, str]] | None:
    """Delete an edge; its ends and rel as a request gave them (checked here). Its level and key as it was
    stored (a file end may have been sent in another spelling), or None: no such edge."""
    view = await floor.session(sid) if sid is not None else None
    src, dst = ids.check_endpoint(src, "from"), ids.check_endpoint(dst, "to")
    rel = ids.check_rel(rel)
    if level is None:
        candidates = await floor.levels_of(view)
    else:
        candidates = [(level, await floor.level_handle(view, level, project_path))]
    for lvl, handle in candidates:
        keys = [(src, dst, rel)]
        if lvl == "project":  # as sent (an edge stored before file ends were named plainly), then as now stored
            root = _project_of(view, project_path)
            keys.append((worktree_touches.edge_end(src, root), worktree_touches.edge_end(dst, root), rel))
        for key in dict.fromkeys(keys):
            if await handle.delete_edge(key=key, now=floor.clock()):
                floor.publish({"type": "edge_deleted", "level": lvl, "source_session": sid,
                               "edge": {"from": key[0], "to": key[1], "rel": rel},
                               "project_path": _project_of(view, project_path)})
                return lvl, key
    return None


@attrs.frozen
class Progress:
    state: dict[str, Any] | None  # as stored; None: no progress for the task
    warnings: tuple[str, ...] = ()  # what the reply says beside it (the <private> text the write cut)


async def progress(floor: Floor, sid: str | None, task_id: object, state: Any, level: str,
                   project_path: str | None = None) -> Progress:
    """A task's progress: read it (`state` None) or replace it."""
    if not isinstance(task_id, str) or not task_id.strip() or len(task_id) > C.REL_MAX_LEN * 2:
        raise InvalidInput("task_id", "must be a non-empty string of at most 128 characters")
    # An identifier is stored and shown as written, so its `<private>` text is not cut as a state's is: the
    # rest would name another task, and a read must find what the write stored. Refused, read or write.
    if private_text.holds_private(task_id):
        raise InvalidInput("task_id", "holds a <private> tag; a task id is stored and shown as written: "
                                      "name the task without the private text")
    view = await floor.session(sid) if sid is not None else None
    if view is not None and task_id in C.MAINTENANCE_TASKS:
        await floor.sessions.set_maintenance(sid=view.sid)
    handle = await floor.level_handle(view, level, project_path)
    if state is None:
        stored = await handle.progress_get(task_id=task_id)
        # An agent is shown a field a hand edit left holding a secret as a marker, and no task whose id holds one;
        # the editor (no session) shows it as written, for the user to fix.
        return Progress(stored if view is None or stored is None else held_progress.state_shown(task_id, stored))
    if not isinstance(state, dict):
        raise InvalidInput("state", "must be an object (omit it to read)")
    plain_text.check_line(task_id, "task_id", "a task id is one line")
    json_values.check_plain(state, "state")
    cut: list[str] = []
    state = private_text.without_private(state, "state", cut)
    json_values.check_size(state, "state")
    # A task id is free text the user's agent chose, not a slug: the whole rule, as for a note.
    # Sized by its JSON (the state's strings and keys, which the check reads): read on the loop, the keys' check
    # was a check too.
    await check_line.checked(secret_state.refuse_state, task_id, state, size=len(task_id) + len(json.dumps(state, ensure_ascii=False)))
    stored = await handle.progress_set(task_id=task_id, state=state, now=floor.clock())
    # Whoever wrote it (an agent's kg_progress, the editor), an open editor tab shows it.
    floor.publish({"type": "progress_updated", "level": level, "task_id": task_id,
                   "source_session": view.sid if view is not None else None,
                   "project_path": _project_of(view, project_path)})
    return Progress(stored, (replies.private_cut_note(cut),) if cut else ())
