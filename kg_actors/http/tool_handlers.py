"""The MCP tools: validate, call the use case (conduct/), and word the reply for a model (core/replies.py).

Arguments that do not fit a tool's input schema come back as `Input validation
error: <field>: <rule>`; everything the store refuses past the schema (an unknown
node or session, a refused id, a cwd that is no folder) as `Error: ...`, as spec
003 splits them: both as tool errors, naming the field; the server keeps serving.
Free of the MCP SDK: plain calls are answered without it (mcp_calls.py).
"""

from __future__ import annotations

import logging
from typing import Any

import attrs

from ..chores.messages import ChoreHandle
from ..conduct import read, rename, search, session, sync, useful, write
from ..conduct.floor import Floor
from ..core import replies
from ..core.errors import KGError, SessionUnknown, WriteConflict
from ..harness import profiles
from . import body_json, schemas

log = logging.getLogger(__name__)


def harness_of(headers: Any) -> profiles.Harness:
    """The harness a request comes from, by its headers (any mapping with `get`, or None)."""
    ua = headers.get("user-agent") if headers is not None else None
    client = headers.get("x-kg-client") if headers is not None else None
    return profiles.from_user_agent(f"{client or ''} {ua or ''}")


@attrs.frozen
class ToolReply:
    """A tool's answer: one text, and whether it is an error (the MCP layer wraps it)."""

    text: str
    is_error: bool = False


class Tools:
    def __init__(self, floor: Floor, chores: ChoreHandle | None = None):
        self.floor = floor
        self.chores = chores  # says whether a call's run mark is the running job's

    async def _live_run(self, mark: str | None) -> str | None:
        """The call's run mark when it is a live run's; a stale or forged mark is none (and grants nothing)."""
        if mark is None or self.chores is None:
            return None
        return mark if await self.chores.run_live(mark) else None

    async def call(self, name: str, arguments: dict[str, Any], harness: profiles.Harness,
                   mark: str | None = None) -> ToolReply:
        """`mark`: the run mark the request carried (http/run_calls.py). A live run's makes the session the
        call opens or names that run's maintenance session from its first call, whatever the agent passed
        (spec 000: its reads stamp no use, and the guards hold), and its pass credits count per run."""
        handler = getattr(self, "tool_" + name, None)
        if handler is None or name not in schemas.SCHEMAS:
            return ToolReply(f"Error: unknown tool '{name}'; the tools are {', '.join(sorted(schemas.SCHEMAS))}", True)
        half = body_json.half_character(arguments)  # left unmended for this refusal (body_json.mend)
        if half is not None:
            return ToolReply(f"Error: {half}", True)
        problem = schemas.validation_error(name, arguments)
        if problem:
            return ToolReply(f"Input validation error: {problem}", True)
        try:
            run = await self._live_run(mark)
            if run is not None and name == "kg_read":
                return ToolReply(await self.tool_kg_read(harness=harness, run=run, **arguments))
            if run is not None and isinstance(arguments.get("session_id"), str):
                await self._join_run(arguments["session_id"], run)
            return ToolReply(await handler(harness=harness, **_rename_keys(arguments)))
        except WriteConflict as exc:
            return ToolReply(replies.conflict_text(exc.reason, exc.level, exc.node, name == "kg_delete_node"), True)
        except KGError as exc:
            return ToolReply(f"Error: {exc}", True)
        except Exception as exc:  # the boundary: a bug answers this call and the server goes on
            log.exception("tool %s failed", name)
            return ToolReply(f"Internal error: {exc!r}", True)

    async def call_with_headers(self, name: str, arguments: dict[str, Any], headers: Any,
                                mark: str | None = None) -> ToolReply:
        return await self.call(name, arguments, harness_of(headers), mark)

    async def _join_run(self, sid: str, run: str) -> None:
        try:
            await self.floor.sessions.join_run(sid=sid, run=run)
        except SessionUnknown:
            pass  # the tool itself says the session is unknown

    async def _with_push(self, sid: str | None, text: str) -> str:
        return replies.with_notice(text, await sync.push_notice(self.floor, sid))

    async def tool_kg_read(self, harness: profiles.Harness, cwd: str | None = None, session_id: str | None = None,
                           id: str | None = None, ids: list[str] | None = None, level: str | None = None,
                           more: bool = False, maintenance: bool = False, run: str | None = None) -> str:
        if more:
            if not session_id:
                raise KGError("more=true needs the session_id of the read that said it continues")
            if run is not None:
                await self._join_run(session_id, run)
            return await read.more(self.floor, session_id)
        opened = await session.open_session(self.floor, cwd, session_id, harness)
        if run is not None:  # before the read: it stamps no use
            await self.floor.sessions.join_run(sid=opened.view.sid, run=run)
            maintenance = True
        node_ids = ([id] if id else []) + list(ids or [])
        return await read.read(self.floor, opened, harness, node_ids, level, maintenance)

    async def tool_kg_search(self, harness: profiles.Harness, query: str, session_id: str | None = None) -> str:
        text = await search.search_text(self.floor, session_id, query)
        return await self._with_push(session_id, text)

    async def tool_kg_put_node(self, harness: profiles.Harness, session_id: str, level: str, id: str, gist: str,
                               notes: list[str] | None = None, touches: list[str] | None = None) -> str:
        out = await write.put_node(self.floor, session_id, level, id, gist, notes, touches, push=True)
        r = out.result
        text = replies.node_saved(id, level, r.promoted, r.warnings, r.hints, r.note_credit)
        notice = await sync.push_notice(self.floor, session_id, view=out.view, window=out.push_window,
                                        claimed=True)
        return replies.with_notice(text, notice)

    async def tool_kg_put_edge(self, harness: profiles.Harness, session_id: str, level: str, rel: str,
                               notes: list[str] | None = None, **ends: str) -> str:
        out = await write.put_edge(self.floor, session_id, level, ends["src"], ends["dst"], rel, notes)
        # The ends as stored: a file of the project is named plainly (`./src/y.py` is `src/y.py`).
        return replies.edge_saved(out.edge.src, out.edge.dst, rel, level, out.credited, out.warnings)

    async def tool_kg_delete_node(self, harness: profiles.Harness, session_id: str, id: str) -> str:
        level, removed = await write.delete_node(self.floor, session_id, id)
        return replies.node_deleted(id, level, removed)

    async def tool_kg_delete_edge(self, harness: profiles.Harness, session_id: str, rel: str, **ends: str) -> str:
        gone = await write.delete_edge(self.floor, session_id, ends["src"], ends["dst"], rel)
        if gone is None:
            return replies.edge_deleted(ends["src"], ends["dst"], rel, None)
        level, (src, dst, _rel) = gone
        return replies.edge_deleted(src, dst, rel, level)

    async def tool_kg_rename_node(self, harness: profiles.Harness, session_id: str, old_id: str, new_id: str,
                                  level: str | None = None) -> str:
        out = await rename.rename(self.floor, session_id, old_id, new_id, level)
        return replies.renamed(old_id, new_id, out.level, out.rewired, out.skipped)

    async def tool_kg_useful(self, harness: profiles.Harness, session_id: str, ids: list[str],
                             credits: int | None = None) -> str:
        out = await useful.useful(self.floor, session_id, ids, credits)
        return replies.useful_reply(out.accepted, out.refused, out.unorphaned, out.credits, out.state.likes,
                                    out.state.credits, out.state.maintenance)

    async def tool_kg_sync(self, harness: profiles.Harness, session_id: str) -> str:
        return await sync.sync(self.floor, session_id)

    async def tool_kg_progress(self, harness: profiles.Harness, session_id: str, task_id: str,
                               state: dict[str, Any] | None = None, level: str = "user") -> str:
        out = await write.progress(self.floor, session_id, task_id, state, level)
        return replies.progress_reply(task_id, state is not None, out.state, out.warnings)


def _rename_keys(arguments: dict[str, Any]) -> dict[str, Any]:
    """`from`/`to` are Python keywords' neighbours; carry them as src/dst."""
    out = dict(arguments)
    if "from" in out:
        out["src"] = out.pop("from")
    if "to" in out:
        out["dst"] = out.pop("to")
    return out
