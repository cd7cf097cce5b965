"""Operations that span actors, conducted here (spec 003's tools and the REST writes).

Nothing here owns state: each operation asks the SessionRegistry and the
GraphActors in the allowed order (sessions, then a project graph, then the
user graph) and combines their answers. Both the MCP tools and the REST
endpoints call these, so a rule lives in one place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import attrs

from . import delivery
from . import session_messages as sm
from .core import constants as C
from .core import debt, graph_ops, ids, merge, reads, search, search_format, secrecy
from .core.errors import Conflict, InvalidInput, KGError, NotFound, SessionUnknown, WriteConflict
from .core.paging import NOTHING_PENDING, Line, split
from .directory import GraphDirectory
from .graph_actor import GraphHandle
from .graph_messages import PutEdgeResult
from .harness import profiles
from .session_actor import SessionHandle, SessionView
from .storage import layout as L
from .logbook import Logbook
from .storage.logs import append_jsonl

log = logging.getLogger(__name__)

LEVELS = ("user", "project", "maintain")


def user_only_notice(sid: str) -> str:
    return (
        "User-only session: only the user graph is loaded, no project memory. If the work belongs to a "
        f"project folder, kg_read(session_id='{sid}', cwd='<project root>') attaches its memory to this session."
    )


@attrs.frozen
class Opened:
    view: SessionView
    notices: tuple[str, ...]
    created: bool


class Memory:
    def __init__(self, directory: GraphDirectory, sessions: SessionHandle, clock: Callable[[], float],
                 publish: Callable[[dict], None] | None = None, logbook: Logbook | None = None):
        self.directory = directory
        self.logbook = logbook  # decision logs go through it, off the loop (None: appended at once)
        self.sessions = sessions
        self.clock = clock
        self.layout = directory.layout
        self.publish = publish or (lambda event: None)
        self._roots: dict[str, tuple[float, str | None, str]] = {}  # cwd -> (until, its root, its folder)

    # Sessions ----------------------------------------------------------------
    def root_for(self, cwd: object) -> str | None:
        """A project root, or None for a user-only session (the home folder itself)."""
        return self.binding(cwd)[0]

    def binding(self, cwd: object) -> tuple[str | None, str]:
        """(project root or None, the cwd's own folder) for a session's cwd.

        The cwd must be an existing folder inside home. Inside a git work tree it binds
        to the work tree's root, so `<repo>/src/deep` shares `<repo>`'s memory, unless
        a graph is already stored for that exact folder (its memory stays where it is).
        Every hook asks, and the answer costs a stat per folder level (which stalls
        while another thread's fsync holds the disk): so each cwd's answer is kept a
        short while. A bad cwd is refused every time.
        """
        now = self.clock()
        if isinstance(cwd, str):
            cached = self._roots.get(cwd)
            if cached is not None and now < cached[0]:
                return cached[1], cached[2]
        folder = L.project_folder(cwd, "cwd")
        root: str | None = folder
        top = L.work_tree_root(folder)
        if top is not None and top != folder and not self.directory.has_graph_for(folder):
            root = top
        if L.is_home(root) and not self.directory.has_project_graph(root):
            root = None
        if len(self._roots) >= C.ROOT_CACHE_SIZE:
            self._roots.clear()
        self._roots[cwd] = (now + C.ROOT_CACHE_SECONDS, root, folder)
        return root, folder

    async def open_session(self, cwd: str | None, session_id: str | None, harness: profiles.Harness) -> Opened:
        now = self.clock()
        notices: list[str] = []
        if session_id is not None and not isinstance(session_id, str):
            raise InvalidInput("session_id", "must be a string")
        root, folder = self.binding(cwd) if cwd is not None else (None, None)
        # Said when the session binds, so the agent knows which folder's memory it holds.
        bound_note = (f"Project folder: {root}, the root of the git work tree holding cwd {folder}."
                      if root is not None and root != folder else None)
        if session_id:
            view = await self.sessions.get(sid=session_id)
            if view is not None and view.bound:
                view = await self.sessions.touch(sid=session_id, now=now, harness=None)
                if cwd is not None and view.project_path is None and root is not None:
                    view = await self.sessions.attach(sid=session_id, project_path=root)
                    await self._graph(self.directory.project_key(root))
                    notices.append(f"Project memory attached: {root}.")
                    notices.extend([bound_note] if bound_note else [])
                elif cwd is not None and view.project_path and root and not _inside(root, view.project_path):
                    notices.append(
                        f"This session stays bound to {view.project_path}; cwd {root} is ignored — "
                        "start a separate session for another project."
                    )
                return Opened(view, tuple(notices), False)
            if cwd is None:
                raise SessionUnknown(
                    f"session_id '{session_id}' is unknown or lost its project — pass cwd=<project root> with it."
                )
            notices.append(f"session_id '{session_id}' is unknown (expired or from another store); opened a new session.")
        view = await self.sessions.register(project_path=root, harness=harness.name, now=now)
        if root is not None:
            key = self.directory.project_key(root)
            handle = await self._graph(key)
            await handle.set_project_path(path=root)
            notices.extend([bound_note] if bound_note else [])
        else:
            notices.append(user_only_notice(view.sid))
        if cwd is not None and harness.no_hooks_hint and not await self.sessions.hook_seen(harness.name, root):
            notices.append(harness.no_hooks_hint)
        return Opened(view, tuple(notices), True)

    async def session(self, sid: object) -> SessionView:
        if not isinstance(sid, str) or not sid:
            raise InvalidInput("session_id", "is required (from kg_read or the preload)")
        view = await self.sessions.get(sid=sid)
        if view is None:
            raise SessionUnknown(
                f"session_id '{sid}' is unknown — call kg_read(cwd=<project root>) to open a session."
            )
        return await self.sessions.touch(sid=sid, now=self.clock())

    async def _graph(self, key: str) -> GraphHandle:
        return await self.directory.get(key)

    async def graph_for(self, view: SessionView | None, level: str) -> GraphHandle:
        if level not in LEVELS:
            raise InvalidInput("level", f"'{level}' is not one of user, project, maintain")
        if level == "project":
            if view is None or view.project_path is None:
                raise KGError(
                    "this session has no project; kg_read(session_id, cwd=<project root>) attaches one"
                )
            return await self._graph(self.directory.project_key(view.project_path))
        return await self._graph(level)

    async def levels_of(self, view: SessionView | None) -> list[tuple[str, GraphHandle]]:
        out = [("user", await self._graph("user"))]
        if view is not None and view.project_path is not None:
            out.append(("project", await self.graph_for(view, "project")))
        return out

    async def find(self, view: SessionView | None, node_id: str, level: str | None = None):
        """(level, handle, node) for an id: the given level, else user first, then project."""
        if level is not None:
            handle = await self.graph_for(view, level)
            return level, handle, await handle.get_node(node_id=node_id)
        for lvl, handle in await self.levels_of(view):
            node = await handle.get_node(node_id=node_id)
            if node is not None:
                return lvl, handle, node
        return None, None, None

    # Writes ------------------------------------------------------------------
    async def put_node(self, sid: str | None, level: str, node_id: str, gist: str,
                       notes: list[str] | None, touches: list[str] | None, guard: bool = True,
                       project_path: str | None = None, expected_version: int | None = None,
                       create_only: bool = False) -> dict:
        view = await self.session(sid) if sid is not None else None
        handle = await self._level_handle(view, level, project_path)
        ids.check_node_id(node_id)
        gist, notes, touches = secrecy.clean_node(gist, notes, touches)
        now = self.clock()
        wv = await self.sessions.write_view(sid, level, node_id) if view is not None and sid is not None else None
        writer = graph_ops.Writer(
            session=sid, maintenance=wv is not None and wv.maintenance, seen_at=wv.seen_at if wv else None,
            read_at=wv.read_at if wv else None, guard=guard and view is not None,
            may_credit=wv is not None and wv.may_credit,
        )
        try:
            # expected_version / create_only: the editor's stale-edit check, made inside the actor with the write.
            result = await handle.put_node(node_id=node_id, gist=gist, notes=notes, touches=touches,
                                           now=now, writer=writer, expected_version=expected_version,
                                           create_only=create_only)
        except WriteConflict as conflict:
            if view is not None:
                # The refusal shows the node as it stands: it counts as a full read of that version,
                # even when another write overtook this request after `now` was taken.
                at = max(now, conflict.written_ts or now)
                await self.sessions.mark_seen(sid=sid, ids=[node_id], via="read", at=at, full=True)
            raise
        if view is not None:
            await self.sessions.mark_seen(sid=sid, ids=[node_id], via="write", at=now, full=True)
            if result.note_credit:
                await self.sessions.like(sid=sid, node_id=node_id, credits=None)
                self._log_useful(view, node_id, level, "note", {})
        self.publish({"type": "node_updated", "level": level, "node": result.node.to_json(),
                      "source_session": sid, "project_path": view.project_path if view else project_path})
        return {"result": result, "level": level, "view": view}

    async def _level_handle(self, view: SessionView | None, level: str, project_path: str | None) -> GraphHandle:
        if view is None and level == "project":
            if not project_path:
                raise InvalidInput("project_path", "is required for a project-level write without a session")
            return await self._graph(self.directory.project_key(L.project_root(project_path, "project_path")))
        return await self.graph_for(view, level)

    async def put_edge(self, sid: str | None, level: str, src: str, dst: str, rel: str,
                       notes: list[str] | None, project_path: str | None = None) -> PutEdgeResult:
        notes = secrecy.clean_notes(notes)
        view = await self.session(sid) if sid is not None else None
        handle = await self._level_handle(view, level, project_path)
        wv = await self.sessions.write_view(sid, level, src) if view is not None and sid is not None else None
        writer = graph_ops.Writer(session=sid, maintenance=wv is not None and wv.maintenance)
        # A project edge may name a user node: which of its bare ends the user graph holds. The
        # project's own nodes are checked inside its actor, with the write.
        known: set[str] = set()
        if level == "project":
            user = await self._graph("user")
            for end in {src, dst}:
                if isinstance(end, str) and not ids.is_artifact(end) and await user.get_node(node_id=end):
                    known.add(end)
        out = await handle.put_edge(src=src, dst=dst, rel=rel, notes=notes, now=self.clock(), writer=writer,
                                    known_elsewhere=frozenset(known))
        if out.credit_elsewhere and level in ("project",):
            target, case_ts = out.credit_elsewhere
            if await (await self._graph("user")).repeat_credit(target_id=target, case_ts=case_ts):
                out = attrs.evolve(out, credited=target)
        self.publish({"type": "edge_updated", "level": level, "edge": out.edge.to_json(), "source_session": sid,
                      "project_path": view.project_path if view else project_path})
        return out

    async def delete_node(self, sid: str | None, node_id: str, level: str | None = None,
                          project_path: str | None = None) -> tuple[str, int]:
        view = await self.session(sid) if sid is not None else None
        ids.check_node_id(node_id)
        if level is None:
            lvl, handle, node = await self.find(view, node_id)
        else:
            handle = await self._level_handle(view, level, project_path)
            lvl, node = level, await handle.get_node(node_id=node_id)
        if node is None:
            raise NotFound(f"node '{node_id}' not found in the user or project graph"
                           + await self._maintain_hint(node_id, level, "maintain nodes cannot be deleted with this tool"))
        removed = await handle.delete_node(node_id=node_id)
        self.publish({"type": "node_deleted", "level": lvl, "id": node_id, "source_session": sid,
                      "project_path": view.project_path if view else project_path})
        return lvl, removed

    async def delete_edge(self, sid: str | None, src: str, dst: str, rel: str, level: str | None = None,
                          project_path: str | None = None) -> str | None:
        view = await self.session(sid) if sid is not None else None
        for name, value in (("from", src), ("to", dst)):
            ids.check_endpoint(value, name)
        ids.check_rel(rel)
        if level is None:
            candidates = await self.levels_of(view)
        else:
            candidates = [(level, await self._level_handle(view, level, project_path))]
        for lvl, handle in candidates:
            if await handle.delete_edge(key=(src, dst, rel)):
                self.publish({"type": "edge_deleted", "level": lvl, "edge": {"from": src, "to": dst, "rel": rel},
                              "source_session": sid, "project_path": view.project_path if view else project_path})
                return lvl
        return None

    async def rename(self, sid: str | None, old_id: str, new_id: str, level: str | None,
                     project_path: str | None = None) -> dict:
        view = await self.session(sid) if sid is not None else None
        ids.check_node_id(old_id, "old_id")
        ids.check_node_id(new_id, "new_id")
        ids.check_new_id_words(new_id, "new_id")
        if old_id == new_id:
            raise InvalidInput("new_id", f"'{new_id}' is unchanged — nothing to rename")
        if level is None:
            lvl, handle, node = await self.find(view, old_id)
        else:
            handle = await self._level_handle(view, level, project_path)
            lvl, node = level, await handle.get_node(node_id=old_id)
        if node is None:
            raise NotFound(f"node '{old_id}' not found" + ("" if level else " in the user or project graph")
                           + await self._maintain_hint(old_id, level, "a maintain node must name its level: "
                                                                      "pass level='maintain'"))
        wv = await self.sessions.write_view(sid, lvl, old_id) if view is not None and sid is not None else None
        writer = graph_ops.Writer(session=sid, maintenance=wv is not None and wv.maintenance)
        now = self.clock()
        projects: list[tuple[str, GraphHandle]] = []
        if lvl == "user":
            projects = await self._all_projects()
            captured = []
            for key, ph in projects:
                owns_old, owns_new, refs = await ph.call(_rename_probe(old_id, new_id))
                if refs and not owns_old and owns_new:
                    captured.append(key.removeprefix("project:"))
            if captured:
                raise Conflict(
                    f"renaming user node '{old_id}' to '{new_id}' would redirect edges in project(s) "
                    f"{', '.join(captured)}, which own a node '{new_id}'; choose another id"
                )
        elif lvl == "project":
            user = await self._graph("user")
            if await user.get_node(node_id=new_id) is not None and await handle.references(node_id=new_id):
                # Spec 003: the refusal names the projects involved (here, the one being renamed in).
                project = view.project_path if view is not None else project_path
                raise Conflict(
                    f"'{new_id}' is a user node that edges of project {project} already reach; renaming to it "
                    "would redirect them; choose another id"
                )
        rewired = await handle.rename_local(old_id=old_id, new_id=new_id, now=now, writer=writer)
        skipped = []
        for key, ph in projects:
            owns_old, owns_new, refs = await ph.call(_rename_probe(old_id, new_id))
            if not refs:
                continue
            if owns_old:
                skipped.append({"graph": key, "reason": "local-node"})
                continue
            try:
                rewired += await ph.rewire(old_id=old_id, new_id=new_id, now=now, writer=writer)
            except KGError as exc:
                skipped.append({"graph": key, "reason": str(exc)})
        await self.sessions.rename_ref(old_id=old_id, new_id=new_id)
        self.publish({"type": "node_renamed", "level": lvl, "from": old_id, "to": new_id, "source_session": sid,
                      "project_path": view.project_path if view else project_path})
        return {"level": lvl, "rewired": rewired, "skipped": skipped}

    async def _maintain_hint(self, node_id: str, level: str | None, rule: str) -> str:
        """Spec 003: an id found without a level is looked up in user and project only; when the
        maintain graph holds it, the refusal says which rule applies instead of a bare not-found."""
        if level is not None or await (await self._graph("maintain")).get_node(node_id=node_id) is None:
            return ""
        return f"; '{node_id}' is a maintain node — {rule}"

    async def _all_projects(self) -> list[tuple[str, GraphHandle]]:
        """Every project graph on disk, loaded (a user rename must rewrite them all)."""
        keys = {f"project:{slug}" for slug in self.layout.project_slugs()}
        keys.update(k for k in self.directory.loaded_keys() if k.startswith("project:"))
        return [(k, await self._graph(k)) for k in sorted(keys)]

    async def useful(self, sid: str, node_ids: list[str], credits: int | None) -> dict:
        view = await self.session(sid)
        if credits is not None and not view.maintenance:
            return {"accepted": [], "refused": [(i, "credits are for a maintenance pass (kg_read maintenance=true); "
                                                 "a working session endorses with one vote") for i in node_ids],
                    "state": await self.sessions.vote_state(sid=sid), "view": view}
        if view.maintenance and credits is None:
            credits = 1
        now = self.clock()
        accepted, refused, unorphaned = [], [], []
        state = await self.sessions.vote_state(sid=sid)
        for node_id in dict.fromkeys(node_ids):
            lvl, handle, node = await self.find(view, node_id)
            if node is None:
                refused.append((node_id, "not found"))
                self._log_useful(view, node_id, None, state.seen_via.get(node_id, "unknown"), {"refused": "not_found"})
                continue
            why = await self.sessions.like(sid=sid, node_id=node_id, credits=credits)
            if why is not None:
                refused.append((node_id, why))
                self._log_useful(view, node_id, lvl, state.seen_via.get(node_id, "unknown"), {"refused": why})
                continue
            outcome = await handle.endorse(node_id=node_id, now=now, credits=credits)
            accepted.append(node_id)
            if outcome == "unorphaned":
                unorphaned.append(node_id)
            via = "maintenance" if credits is not None else state.seen_via.get(node_id, "unknown")
            self._log_useful(view, node_id, lvl, via, {"credits": credits} if credits else {
                "archived": node.archived, "surfaced": via in ("preload", "full_read", "ambient", "file")})
        return {"accepted": accepted, "refused": refused, "unorphaned": unorphaned, "credits": credits,
                "state": await self.sessions.vote_state(sid=sid), "view": view}

    def _log_useful(self, view: SessionView, node_id: str, level: str | None, via: str, extra: dict) -> None:
        record = {"ts": self.clock(), "kg_session": view.sid, "claude_session": view.claude_sid,
                  "project": view.project_path, "id": node_id, "level": level, "via": via}
        record.update(extra)
        self.append_log("useful.jsonl", [record], C.USEFUL_LOG_MAX_BYTES)

    def append_log(self, name: str, records: list[dict], max_bytes: int) -> None:
        path = self.layout.log(name)
        if self.logbook is not None:
            self.logbook.append(path, records, max_bytes)
        else:
            append_jsonl(path, records, max_bytes)

    async def progress(self, sid: str | None, task_id: str, state: Any, level: str,
                       project_path: str | None = None) -> dict | None:
        if not isinstance(task_id, str) or not task_id.strip() or len(task_id) > C.REL_MAX_LEN * 2:
            raise InvalidInput("task_id", "must be a non-empty string of at most 128 characters")
        view = await self.session(sid) if sid is not None else None
        if view is not None and task_id in C.MAINTENANCE_TASKS:
            await self.sessions.set_maintenance(sid=view.sid)
        handle = await self._level_handle(view, level, project_path)
        if state is None:
            return await handle.progress_get(task_id=task_id)
        if not isinstance(state, dict):
            raise InvalidInput("state", "must be an object (omit it to read)")
        secrecy.refuse_secrets(secrecy.strings_in(state, "state"))
        return await handle.progress_set(task_id=task_id, state=state, now=self.clock())

    # Reads -------------------------------------------------------------------
    async def read(self, opened: Opened, harness: profiles.Harness, node_ids: list[str] | None,
                   level: str | None, maintenance: bool) -> str:
        view = opened.view
        if maintenance:
            await self.sessions.set_maintenance(sid=view.sid)
            view = await self.sessions.get(sid=view.sid)
        rendered_at = self.clock()  # a part delivered later still shows the graph as of now
        if node_ids:
            lines = await self._node_read(view, node_ids, level, list(opened.notices))
        elif level == "maintain":
            lines = await self._maintain_read(view, list(opened.notices))
        else:
            if level not in (None, "user", "project"):
                raise InvalidInput("level", f"'{level}' is not one of user, project, maintain")
            lines = await self._full_read(view, list(opened.notices))
        return await self.deliver(view, harness, lines, rendered_at)

    async def more(self, sid: str) -> str:
        view = await self.session(sid)
        nxt = await self.sessions.next_page(sid=sid)
        if nxt is None:
            return NOTHING_PENDING
        text, effects = nxt
        await self.apply_effects(view, effects)
        return text

    async def deliver(self, view: SessionView, harness: profiles.Harness, lines: list[Line],
                      rendered_at: float | None = None) -> str:
        parts = split(lines, harness.part_limit, harness.measure, view.sid)
        if rendered_at is not None:
            # What a part shows dates from the render: a write by another session between the render and
            # the delivery must still find this session's view of the node stale.
            parts = [(text, {**effects, "at": [rendered_at]}) for text, effects in parts]
        first_text, first_effects = parts[0]
        # A new read replaces undelivered parts of an older one.
        await self.sessions.set_pages(sid=view.sid, parts=[p for p, _ in parts[1:]],
                                      effects=[e for _, e in parts[1:]])
        await self.apply_effects(view, first_effects)
        return first_text

    async def apply_effects(self, view: SessionView, effects: dict) -> None:
        now = self.clock()
        seen_at = min(effects.get("at", [now])[0], now)  # the render's time: the view is as old as that
        if effects.get("seen"):
            await self.sessions.mark_seen(sid=view.sid, ids=effects["seen"], via=effects.get("via", ["full_read"])[0], at=seen_at)
        reads_by_level: dict[str, list[str]] = {}
        for lvl, node_id in effects.get("read", []):
            reads_by_level.setdefault(lvl, []).append(node_id)
        for lvl, node_ids in reads_by_level.items():
            await self.sessions.mark_seen(sid=view.sid, ids=node_ids, via="read", at=seen_at, full=True)
            if not view.maintenance:
                handle = await self.graph_for(view, lvl)
                promoted = await handle.record_reads(ids=node_ids, now=now)
                for node_id, (was_promoted, rescued) in promoted.items():
                    if was_promoted:
                        self.publish({"type": "node_recalled", "level": lvl, "id": node_id,
                                      "rescued_from_orphan": rescued, "source_session": view.sid,
                                      "project_path": view.project_path})
        if effects.get("full_read"):
            await self.sessions.mark_full_read(sid=view.sid, now=now)

    async def _node_read(self, view: SessionView, node_ids: list[str], level: str | None, notices: list[str]) -> list[Line]:
        blocks: list[list[Line]] = []
        for node_id in node_ids:
            if not isinstance(node_id, str) or not node_id:
                raise InvalidInput("ids", "must be a list of node id strings")
            lvl, handle, node = await self.find(view, node_id, level)
            if node is None:
                blocks.append([(reads.render.not_found_line(node_id), None)])
                continue
            (_, edges), = await handle.get_nodes(ids=[node_id])
            if lvl == "user" and view.project_path is not None:
                edges = edges + await (await self.graph_for(view, "project")).call(_cross_level_edges(node_id))
            blocks.append(reads.node_block(lvl, node, edges, promoted=not node.active and not view.maintenance))
            notice = merge.conflict_notice(lvl, node_id, node.written, node.extra.get(merge.CONFLICTS_FIELD))
            if notice:  # versions a sync set aside, until a write of the node resolves them
                notices.append(notice)
        return reads.node_read_lines(blocks, view.sid, notices)

    async def _full_read(self, view: SessionView, notices: list[str]) -> list[Line]:
        preloaded = view.preloaded
        now = self.clock()
        parts, debt_lines = [], {}
        for lvl, handle in await self.levels_of(view):
            graph, derived = await handle.view_now()
            parts.append(derived.level_part(graph, lvl, preloaded, now))
            debt_lines[lvl] = debt.debt_line(derived.debt(graph, now))
            unreadable = self.directory.unreadable(handle.key)
            if unreadable:  # the level is served empty: say why, and how to get it back
                notices.append(f"The {lvl} memory could not be loaded: {unreadable}")
        first = view.full_read_ts is None
        if view.project_path is None and user_only_notice(view.sid) not in notices:
            notices.append(user_only_notice(view.sid))
        return reads.full_read_lines(parts, debt_lines, len(preloaded), view.sid, first, notices)

    async def _maintain_read(self, view: SessionView, notices: list[str]) -> list[Line]:
        handle = await self._graph("maintain")
        part = await handle.call(lambda g: reads.level_part(g, "maintain"))
        lines: list[Line] = [(reads.level_header(part), None), *((b.text, None) for b in part.body),
                             (part.health, None), ("", None),
                             (f"Session: {view.sid}", None)]
        lines.extend((n, None) for n in notices)
        return lines

    async def search_text(self, sid: str | None, query: str) -> str:
        terms = search.parse_query(query)
        view = await self.session(sid) if sid else None
        graphs = dict(await self.levels_of(view))
        best_effort = view is None
        if best_effort:
            for key in self.directory.loaded_keys():
                if key.startswith("project:"):
                    graphs[key] = await self.directory.get(key)
        views = {lvl: await handle.view() for lvl, handle in graphs.items()}
        seen = view.seen if view else frozenset()
        # From here to the reply text: no await, so the views stay consistent.
        limit = C.SEARCH_TOP_K + C.SEARCH_MORE_K
        per_level, total = {}, 0
        for lvl, (graph, derived) in views.items():
            hits, matched = search.top_hits(derived.index, terms, seen, limit)
            per_level[lvl] = hits
            total += matched
        ranked = search.merge_hits(per_level)
        nodes = {(lvl, h.node_id): views[lvl][0].nodes[h.node_id] for lvl, h in ranked[:limit]}
        top = [(lvl, h.node_id) for lvl, h in ranked[: C.SEARCH_TOP_K]]
        connectors, path_edges = search.connection_paths({lvl: v[0] for lvl, v in views.items()}, top)
        for ref in connectors:
            nodes[ref] = views[ref[0]][0].nodes[ref[1]]
        text, shown = search_format.format_search(query, ranked, nodes, connectors, path_edges,
                                                  best_effort=best_effort, total=total)
        if view is not None and shown:
            await self.sessions.mark_seen(sid=view.sid, ids=[i for _, i in shown], via="search", at=self.clock())
        return text

    # Cross-session -------------------------------------------------------------
    async def sync(self, sid: str) -> str:
        view = await self.session(sid)
        since = await self.sessions.sync_window(sid=sid, now=self.clock())
        sections = []
        for lvl, handle in await self.levels_of(view):
            changes = await handle.changes_since(since=since, session=sid)
            nodes = [c for kind, c in changes if kind == "node"]
            edges = [c for kind, c in changes if kind == "edge"]
            if not nodes and not edges:
                continue
            lines = [f"{lvl.capitalize()}: {len(nodes)} node changes, {len(edges)} edge changes"]
            for node in sorted(nodes, key=lambda n: n.id):
                flag = " [archived]" if not node.active else ""
                lines.append(f"  node {node.id}{flag}: {node.gist[:C.SYNC_GIST_CLIP]}")
            for edge in sorted(edges, key=lambda e: e.key):
                lines.append(f"  edge {edge.src} --{edge.rel}--> {edge.dst}")
            sections.append("\n".join(lines))
        if not sections:
            return "No updates from other sessions"
        return "Updates from other sessions:\n\n" + "\n\n".join(sections)

    async def push_notice(self, sid: str | None, written: Callable[[str, float], list] | None = None,
                          view: SessionView | None = None, *, window: sm.PushWindow | None = None,
                          claimed: bool = False) -> str | None:
        """Up to three gists other sessions wrote since this one last looked, each pushed once.

        `written(level, since)`, when given, lists the nodes written after `since` from
        read views the caller holds (a hook reply must not queue behind writes in
        the graph actors' mailboxes). `claimed`: the caller already claimed the
        push `window` (None: nothing to push to this session now).
        """
        if not sid:
            return None
        if not claimed:
            window = await self.sessions.claim_push(sid=sid, now=self.clock())
        if window is None:
            return None
        writers = window.writers
        mine = window.project_path
        fresh = []
        if view is None or view.sid != sid:
            view = await self.sessions.get(sid=sid)
        for lvl, handle in await self.levels_of(view):
            if written is not None:
                nodes = written(lvl, window.since)
            else:
                nodes = await handle.written_since(since=window.since)
            if window.again:  # shown in a reply its client gave up on, and not rewritten since
                earliest = min(window.again.values()) - 1e-6
                older = written(lvl, earliest) if written is not None else await handle.written_since(since=earliest)
                held = {n.id for n in nodes}
                nodes = [*nodes, *(n for n in older if n.id not in held
                                   and window.again.get(n.id) == n.written.get("ts"))]
            for node in nodes:
                by = node.written.get("by")
                ts = node.written.get("ts") or 0
                writer = writers.get(by) if by else None
                if by == sid or writer is None or writer.maintenance or node.archived:
                    continue
                if lvl == "user" and writer.project_path != mine:
                    continue
                if window.seen_at.get(node.id, 0) >= ts:
                    continue
                fresh.append((ts, node, node.id in window.seen_at))
        if not fresh:
            return None
        fresh.sort(key=lambda t: -t[0])
        shown = fresh[: C.MAX_PUSHED]
        lines = ["While you worked, other sessions wrote to this memory:"]
        for _, node, updated in shown:
            lines.append(f"- {node.id} ({'updated' if updated else 'new'}): {node.gist[:C.PUSH_GIST_CLIP]}")
        if len(fresh) > len(shown):
            lines.append(f"+{len(fresh) - len(shown)} more — kg_sync(session_id) lists them.")
        lines.append("If one already holds a lesson you are about to write, update that node instead of adding another.")
        seen = sm.MarkSeen(sid=sid, ids=[n.id for _, n, _ in shown], via="push", at=self.clock())
        items = {n.id: ts for ts, n, _ in shown}

        async def delivered() -> None:
            await self.sessions.tell(seen)

        async def abandoned() -> None:
            await self.sessions.tell(sm.ReofferPush(sid=sid, items=items))

        if not delivery.defer(delivered, abandoned):  # seen once the hook reply is sent (F38)
            await delivered()
        return "\n".join(lines)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _cross_level_edges(node_id: str):
    """The project's edges that reach user node `node_id` (a bare id resolves to the project's own
    node first, so none when the project has one): spec 003's node read shows all of a node's edges."""
    def edges(graph) -> list:
        return [] if node_id in graph.nodes else list(graph.incident(node_id))
    return edges


def _rename_probe(old_id: str, new_id: str):
    def probe(graph) -> tuple[bool, bool, bool]:
        return old_id in graph.nodes, new_id in graph.nodes, graph.degree(old_id) > 0
    return probe
