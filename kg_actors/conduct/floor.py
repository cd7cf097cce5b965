"""The Floor: what every use case is given, and the lookups they share.

It holds the handles (graph directory, session registry), the clock, the
change feed's publish, the decision logs, and the floor's caches, each in its
named owner: `bindings` (cwd -> project root), `views` (the graphs' read
views for hook replies) and `hook_notes` (which harness/project pairs the
registry was told about). Use cases hold nothing between calls themselves.

Who may await whom: a use case asks the session registry, then a project
graph, then the user graph; never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from ..core import constants as C
from ..core import ids, secret_logs
from ..core.errors import InvalidInput, KGError, SessionUnknown
from ..core.model import Node
from ..directory import GraphDirectory
from ..graph_handle import GraphHandle
from ..logbook import Logbook
from ..session_handle import SessionHandle
from ..session_messages import SessionView, WriteView
from ..storage import layout as L
from ..storage.logs import append_jsonl
from .bindings import CwdBindings
from ..touch_check import TouchCheck
from .read_views import ReadViews

LEVELS = ("user", "project", "maintain")


class DecisionLogs:
    """recall.jsonl and useful.jsonl: appended off the loop when a logbook runs, else at once."""

    def __init__(self, layout: L.Layout, logbook: Logbook | None):
        self.layout = layout
        self.logbook = logbook

    @property
    def pending(self) -> int:
        return self.logbook.pending if self.logbook is not None else 0

    def append(self, name: str, records: list[dict[str, Any]], max_bytes: int) -> None:
        path: Path = self.layout.log(name)
        if self.logbook is not None:
            self.logbook.append(path, records, max_bytes)
        else:
            append_jsonl(path, records, max_bytes)

    def recall(self, records: list[dict[str, Any]]) -> None:
        self.append("recall.jsonl", records, C.RECALL_LOG_MAX_BYTES)

    def useful(self, record: dict[str, Any]) -> None:
        self.append("useful.jsonl", [record], C.USEFUL_LOG_MAX_BYTES)


class HookNotes:
    """Which (harness, project) pairs the registry was told a hook reached: once each is enough."""

    def __init__(self) -> None:
        self._told: set[tuple[str, str | None]] = set()

    def first(self, harness: str, project_path: str | None) -> bool:
        """True the first time a pair is seen (the caller then tells the registry)."""
        if (harness, project_path) in self._told:
            return False
        self._told.add((harness, project_path))
        return True


Publish = Callable[[dict[str, Any]], None]


@attrs.define(eq=False)
class Floor:
    directory: GraphDirectory
    sessions: SessionHandle
    clock: Callable[[], float]
    publish: Publish
    logs: DecisionLogs
    bindings: CwdBindings
    views: ReadViews
    hook_notes: HookNotes
    touch_check: TouchCheck | None = None  # marks gone touches in node reads (the runtime sets it)

    @classmethod
    def build(cls, directory: GraphDirectory, sessions: SessionHandle, clock: Callable[[], float],
              publish: Publish | None = None, logbook: Logbook | None = None) -> Floor:
        return cls(directory, sessions, clock, publish or (lambda event: None),
                   DecisionLogs(directory.layout, logbook), CwdBindings(directory, clock, directory.layout.root), ReadViews(),
                   HookNotes())

    @property
    def layout(self) -> L.Layout:
        return self.directory.layout

    async def session(self, sid: object) -> SessionView:
        """The session a tool call names, touched (its activity noted) in the same ask."""
        known = _known_sid(sid)
        try:
            return await self.sessions.touch(sid=known, now=self.clock())
        except SessionUnknown:
            raise _unknown(known) from None

    async def open_write(self, sid: object, level: str | None, node_id: str) -> tuple[SessionView, WriteView]:
        """A write's session, touched, and what it saw of `node_id` at `level`: one ask."""
        known = _known_sid(sid)
        try:
            return await self.sessions.open_write(sid=known, now=self.clock(), level=level, node_id=node_id)
        except SessionUnknown:
            raise _unknown(known) from None

    async def graph(self, key: str) -> GraphHandle:
        return await self.directory.get(key)

    async def graph_for(self, view: SessionView | None, level: str) -> GraphHandle:
        if level not in LEVELS:
            raise InvalidInput("level", f"'{level}' is not one of user, project, maintain")
        if level == "project":
            if view is None or view.project_path is None:
                raise KGError(
                    "this session has no project; kg_read(session_id, cwd=<project root>) attaches one"
                )
            return await self.graph(await self.directory.project_key(view.project_path))
        return await self.graph(level)

    async def level_handle(self, view: SessionView | None, level: str, project_path: str | None) -> GraphHandle:
        """The graph a write goes to: the session's, or for a write without one, the named project's."""
        if view is None and level == "project":
            if not project_path:
                raise InvalidInput("project_path", "is required for a project-level write without a session")
            return await self.graph(await self.directory.project_key(L.project_root(project_path, "project_path")))
        return await self.graph_for(view, level)

    async def levels_of(self, view: SessionView | None) -> list[tuple[str, GraphHandle]]:
        out = [("user", await self.graph("user"))]
        if view is not None and view.project_path is not None:
            out.append(("project", await self.graph_for(view, "project")))
        return out

    async def find(self, view: SessionView | None, node_id: str,
                   level: str | None = None) -> tuple[str | None, GraphHandle | None, Node | None]:
        """(level, handle, node) for an id: the given level, else user first, then project."""
        if level is not None:
            handle = await self.graph_for(view, level)
            return level, handle, await handle.get_node(node_id=node_id)
        for lvl, handle in await self.levels_of(view):
            node = await handle.get_node(node_id=node_id)
            if node is not None:
                return lvl, handle, node
        return None, None, None

    async def locate(self, view: SessionView | None, node_id: str, level: str | None,
                     project_path: str | None) -> tuple[str | None, GraphHandle | None, Node | None]:
        """Where a change finds its node: the level given (a project by its path when no session
        names it), else user first, then project (the session's, or the one named by its path)."""
        if level is None and view is None and project_path is not None:
            for lvl in ("user", "project"):
                handle = await self.level_handle(None, lvl, project_path)
                if (node := await handle.get_node(node_id=node_id)) is not None:
                    return lvl, handle, node
            return None, None, None
        if level is None:
            return await self.find(view, node_id)
        handle = await self.level_handle(view, level, project_path)
        return level, handle, await handle.get_node(node_id=node_id)

    async def maintain_hint(self, node_id: str, level: str | None, rule: str) -> str:
        """Spec 003: an id found without a level is looked up in user and project only; when the
        maintain graph holds it, the refusal says which rule applies instead of a bare not-found."""
        if level is not None or await (await self.graph("maintain")).get_node(node_id=node_id) is None:
            return ""
        return f"; '{node_id}' is a maintain node — {rule}"

    def log_useful(self, view: SessionView, node_id: str, level: str | None, via: str,
                   extra: dict[str, Any]) -> None:
        record = {"ts": self.clock(), "kg_session": view.sid, "claude_session": view.claude_sid,
                  "project": view.project_path, "id": secret_logs.loggable(ids.shown(node_id)), "level": level, "via": via}
        record.update(extra)
        self.logs.useful(record)


def _known_sid(sid: object) -> str:
    if not isinstance(sid, str) or not sid:
        raise InvalidInput("session_id", "is required (from kg_read or the preload)")
    return sid


def _unknown(sid: str) -> SessionUnknown:
    return SessionUnknown(f"session_id '{sid}' is unknown — call kg_read(cwd=<project root>) to open a session.")
