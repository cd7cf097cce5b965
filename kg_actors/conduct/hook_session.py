"""SessionStart: register or recover the session and return the compact core (the preload).

A resumed conversation (same harness session, or a transcript naming a KG
session of the same project) keeps its session: the preload already in its
context stands, and the reply says so (one that never arrived comes now); after
a compaction the session's context state starts over and the preload comes again. `source=clear` always
starts a new session.
"""

from __future__ import annotations

import os
from typing import Any

import trio

from .. import reply_effects
from .. import session_messages as sm
from ..core import constants as C, preload, replies
from ..core.debt import debt_line
from ..core.errors import NotAProjectFolder
from ..graph_handle import GraphHandle
from ..harness import profiles
from ..storage import layout as L
from ..session_messages import SessionView
from .floor import Floor
from .graph_troubles import troubles
from .hook_identity import from_transcript, hook_root
from .read_views import recent_debt, recent_scores
from .worktree_fold import fold_worktree_graph


async def bootstrap(floor: Floor, cwd: object, claude_sid: object, source: object,
                    transcript_path: object, harness: profiles.Harness | None = None) -> dict[str, Any]:
    """`harness`: the payload's (profiles.of_payload); else told by the transcript's path alone."""
    # The reply waits this long at most for its graphs' first load; what is not loaded by then is said to be
    # loading (the hook gives up at 5 s, and a session without its preload was a session without memory).
    deadline = trio.current_time() + C.PRELOAD_LOAD_WAIT
    if harness is None:
        harness = profiles.from_transcript(transcript_path if isinstance(transcript_path, str) else None)
    lead = _no_project_note(cwd, floor)
    # A folder that cannot be a project (outside home, gone, named relatively) holds no project memory; its
    # session is user-only, as a home-folder session is, rather than no memory at all (a devcontainer's
    # /workspaces, a folder deleted under a resumed session, a harness that sent `..`).
    root = None if lead else hook_root(floor, cwd, fresh=True)
    if root is not None:
        await fold_worktree_graph(floor, cwd, root)
    claude = claude_sid if isinstance(claude_sid, str) and claude_sid else None
    origin = source if isinstance(source, str) else "startup"
    now = floor.clock()
    sessions = floor.sessions
    view, reused, parent = None, False, None
    if origin != "clear" and claude:
        view = await sessions.find_by_claude(claude_sid=claude)
        if view is not None and view.project_path != root:
            # The same harness id in another project (ids collide, or one was reused): a session of its own,
            # never the other project's (its memory and writes would be the other project's).
            view = None
        reused = view is not None
    if view is None and origin != "clear":
        candidate = await from_transcript(floor, transcript_path, root)
        if candidate is not None:
            view = await sessions.fork(sid=candidate.sid, claude_sid=claude, harness=harness.name, now=now)
            reused, parent = True, candidate.sid
    if view is None:
        view = await sessions.register(project_path=root, harness=harness.name, now=now, claude_sid=claude)
        if root is not None:
            await _name_project(floor, root, deadline)
            lead = floor.directory.binding_note(root)  # a gone folder's memory taken over, or not
    await sessions.tell(sm.NoteHook(harness=harness.name, project_path=root))
    # A conversation no preload reached (its hook gave up) holds neither the core nor the session's id: it gets
    # them now, as after a compaction, rather than a note about a preload it never had.
    # Spec 000 resets a compacted session's context state (seen, preload, full read) and preloads again; a resume
    # whose conversation lost the preload is the same case, though no summary was made.
    fresh = origin == "compact" or (reused and not harness.keeps_hook_context)
    if reused and not fresh and view.given:
        # A preload that lacked a graph still loading then, with no full read since: the agent is told.
        missing = view.preload_missing if view.full_read_ts is None else ()
        return {"session_id": view.sid, "reused": True, "context": replies.resumed_note(view.sid, parent, missing),
                "text": "", "stats": {}, "message": f"kg memory: session {view.sid} resumed"}
    if fresh:
        view = await sessions.reset_context(sid=view.sid, now=now)
    # The note on a folder of no project comes first, and the preload is sized with it: the harness's limit
    # is for the whole text (a long path pushed a full preload past Claude Code's 9,500 units).
    return await _preload(floor, view, harness, reused, deadline, lead=lead or "")


def _no_project_note(cwd: object, floor: Floor) -> str | None:
    """Why a hook's cwd, a path, names no project folder (the session is then user-only), or None: a
    project folder, or no path at all (not a string, a NUL byte: refused as bad input)."""
    if not isinstance(cwd, str) or not cwd.strip() or "\0" in cwd:
        return None
    path = os.path.expanduser(cwd)  # as project_root takes it: `app ` is not `app`
    if not os.path.isabs(path):
        return replies.no_project_note(cwd, "is a relative path, not a folder the session can be in")
    if (why := L.folder_fault(path)) is not None:
        return replies.no_project_note(cwd, why)
    try:
        root = L.project_root(path)
    except NotAProjectFolder:
        return replies.outside_home_note(cwd, os.path.realpath(path))
    if floor.bindings.in_store(root):
        return replies.in_store_note(cwd)
    return None


async def _name_project(floor: Floor, root: str, deadline: float) -> None:
    """The project graph learns its folder; asked only when the view says it does not know it
    (the actor may be busy with a write that waits for this very hook reply). A graph still loading
    at the deadline is named by the session's kg_read (a stored one records its folder already)."""
    handle = await floor.directory.get_within(await floor.directory.project_key(root), _left(deadline))
    if handle is not None and not floor.views.knows_project_path(handle, root):
        await handle.set_project_path(path=root)


def _left(deadline: float) -> float:
    return max(0.0, deadline - trio.current_time())


async def _loaded_levels(floor: Floor, view: SessionView,
                         deadline: float) -> tuple[list[tuple[str, GraphHandle]], tuple[str, ...]]:
    """The session's graphs loaded by `deadline` (user, then project), and the levels still loading then.
    Both loads are set going before either is waited for."""
    keys = [("user", "user")]
    if view.project_path is not None:
        keys.append(("project", await floor.directory.project_key(view.project_path)))
    for _, key in keys:
        await floor.directory.get_within(key, 0)
    ready: list[tuple[str, GraphHandle]] = []
    loading: list[str] = []
    for lvl, key in keys:
        # Both load at once: a level past the deadline leaves the other its chance (at once when it is in).
        handle = await floor.directory.get_within(key, _left(deadline))
        if handle is None:
            loading.append(lvl)
        else:
            ready.append((lvl, handle))
    return ready, tuple(loading)


async def _preload(floor: Floor, view: SessionView, harness: profiles.Harness, reused: bool, deadline: float,
                   lead: str = "") -> dict[str, Any]:
    now = floor.clock()
    ready, loading = await _loaded_levels(floor, view, deadline)
    views = floor.views.of(ready)
    if loading:
        lead = "\n".join([lead] * bool(lead) + [replies.loading_note(view.sid, loading)])
    # A graph in trouble is said first (the preload may be all of the memory a session sees), sized in.
    lead = "\n".join([lead] * bool(lead) + [t for lvl, handle, _ in views for t in troubles(floor, lvl, handle)])
    lead = f"{lead}\n" if lead else ""
    # The harness's own note (OpenCode's tool names, put in by its adapter) is part of what reaches the model.
    limit = harness.preload_limit - harness.measure(lead) - harness.measure(harness.preload_note)
    parts, scores, debts = [], {}, {}
    for lvl, handle, gview in views:
        scores[lvl] = recent_scores(gview, now)
        parts.append(floor.views.gists_part(handle.key, gview, lvl, now))
        # A graph this small has its debt of this version from the actor (cached per version, ~25 ms at
        # most): the tick's could lag 30 s behind the HEALTH line above it. A larger one's waits for the tick.
        small = len(gview.graph.nodes) <= C.EXACT_DEBT_NODES
        debts[lvl] = debt_line(await handle.debt(now=now) if small else recent_debt(gview, now))
    if any(p.archived for p in parts) and preload.has_room(parts, debts, view.sid, limit, harness.measure, loading):
        # Room for anchors too: the full bodies, archived sections planned.
        for i, (lvl, handle, gview) in enumerate(views):
            scores[lvl] = floor.views.scores(handle.key, gview, now)
            parts[i] = floor.views.level_part(handle.key, gview, lvl, frozenset(), now)
    text, shown = preload.build(parts, scores, debts, view.sid, limit, harness.measure, loading)

    async def given() -> None:
        await floor.sessions.tell(sm.SetPreloaded(sid=view.sid, refs=list(shown), missing=loading))
        await floor.sessions.tell(sm.MarkSeen(sid=view.sid, refs=list(shown), via="preload", at=now))

    # Only once the reply is written: a hook that gave up waiting never put these gists (or the id) in
    # the agent's context.
    await reply_effects.once_delivered(given)
    stats = {lvl: sum(1 for level, _ in shown if level == lvl) for lvl in ("user", "project")}
    active = {part.level: part.active for part in parts}
    project = stats["project"] if view.project_path is not None else None
    return {"session_id": view.sid, "reused": reused, "context": lead + text, "text": text.split("\n\n", 1)[-1],
            "stats": {"user_active": active.get("user", 0), "project_active": active.get("project", 0),
                      "shown_gists": len(shown)},
            "message": replies.preloaded_message(len(shown), stats["user"], project, view.sid, loading)}
