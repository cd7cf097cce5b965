"""Open a session for a tool call: resume the one named, attach a project to it, or register a new one.

A session binds to one project root (or to none: user-only) for its life; a
cwd elsewhere is ignored with a notice. An unknown session_id given with a cwd
opens a new session and says so; without a cwd it is refused.
"""

from __future__ import annotations

import attrs

from ..core import replies
from ..core.errors import InvalidInput, NotAProjectFolder, SessionUnknown, StorageRefused
from ..harness import profiles
from ..session_messages import SessionView
from .floor import Floor
from .worktree_fold import fold_worktree_graph


@attrs.frozen
class Opened:
    view: SessionView
    notices: tuple[str, ...]
    created: bool


def _of_project(floor: Floor, root: str, bound: str) -> bool:
    """Whether a cwd whose project is `root` is in the bound project: it, or a plain folder of it. A repository
    nested in it (a submodule) is a project of its own, though inside its folder."""
    if root == bound:
        return True
    return root.startswith(bound.rstrip("/") + "/") and not floor.bindings.own_project(root)


async def open_session(floor: Floor, cwd: str | None, session_id: str | None,
                       harness: profiles.Harness) -> Opened:
    now = floor.clock()
    notices: list[str] = []
    if session_id is not None and not isinstance(session_id, str):
        raise InvalidInput("session_id", "must be a string")
    refused: NotAProjectFolder | None = None
    try:
        root, folder = floor.bindings.binding(cwd, fresh=True) if cwd is not None else (None, None)
    except NotAProjectFolder as exc:  # refused below unless a session bound to a project ignores it
        # What a hook does with such a folder (a user-only session) is named: the agent chooses it knowingly.
        refused = NotAProjectFolder(exc.field, cwd or "", f"{exc.why}; kg_read without cwd opens the user memory only")
        if not session_id:
            raise refused from None
        root, folder = None, None
    if root is not None:
        await fold_worktree_graph(floor, cwd, root)
    bound_note = replies.bound_note(root, folder, root is not None and floor.bindings.worktree(cwd) is not None)
    # A folder in the store makes no project (bindings.in_store): the agent that named it is told why.
    in_store = cwd is not None and folder is not None and root is None and floor.bindings.in_store(folder)
    store_note = replies.in_store_note(cwd) if in_store and cwd is not None else None
    sessions = floor.sessions
    if session_id:
        view = await sessions.get(sid=session_id)
        if view is not None and view.bound:
            if refused is not None and not view.project_path:
                raise refused  # it would have attached a project: the folder must be one
            view = await sessions.touch(sid=session_id, now=now, harness=None)
            if cwd is not None and view.project_path is None and root is not None:
                view = await sessions.attach(sid=session_id, project_path=root)
                await floor.graph(await floor.directory.project_key(root))
                notices.append(f"Project memory attached: {root}.")
                notices.extend(note for note in [floor.directory.binding_note(root)] if note)
                notices.extend([bound_note] if bound_note else [])
            elif store_note is not None and view.project_path is None:
                notices.append(store_note)
            elif cwd is not None and view.project_path and not (root and _of_project(floor, root, view.project_path)):
                # Spec 003: any cwd outside the bound project, home and folders that cannot be projects included.
                # The cwd as passed, and the project it resolves to when that is another path (a link, a subfolder).
                shown, why = (cwd, f" (the project {root})" if root != cwd else "") if root else (
                    cwd, f" (it {refused.why.split(';')[0]})" if refused else "")
                notices.append(
                    f"This session stays bound to {view.project_path}; cwd {shown} is ignored{why} — "
                    "start a separate session for another project."
                )
            return Opened(view, tuple(notices), False)
        if refused is not None:
            raise refused
        if cwd is None:
            raise SessionUnknown(
                f"session_id '{session_id}' is unknown or lost its project — pass cwd=<project root> with it."
            )
        notices.append(f"session_id '{session_id}' is unknown (expired or from another store); opened a new session.")
    view = await sessions.register(project_path=root, harness=harness.name, now=now)
    if root is not None:
        handle = await floor.graph(await floor.directory.project_key(root))
        notices.extend(note for note in [floor.directory.binding_note(root)] if note)
        try:
            await handle.set_project_path(path=root)
        except StorageRefused as exc:  # a full or read-only disk: the session keeps its memory, writes wait
            notices.append(f"This project's memory is served, but the store takes no writes now: {exc}")
        notices.extend([bound_note] if bound_note else [])
    else:
        notices.extend([store_note] if store_note else [])
        notices.append(replies.user_only_notice(view.sid))
    if cwd is not None and harness.no_hooks_hint and not await sessions.hook_seen(harness.name, root):
        notices.append(harness.no_hooks_hint)
    return Opened(view, tuple(notices), True)
