"""The MCP tools: validate, call the use case (conduct/), and word the reply for a model (core/replies.py).

Arguments that do not fit a tool's input schema come back as `Input validation
error: <field>: <rule>`; everything the store refuses past the schema (an unknown
node or session, a refused id, a cwd that is no folder) as `Error: ...`, as spec
003 splits them: both as tool errors, naming the field; the server keeps serving.
"""

from __future__ import annotations

import logging
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server

from .. import __version__
from ..conduct import read, rename, search, session, sync, useful, write
from ..conduct.floor import Floor
from ..core import replies
from ..core.errors import KGError, WriteConflict
from ..harness import profiles
from . import descriptions, schemas

log = logging.getLogger(__name__)


def _text(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _harness(ctx: Any) -> profiles.Harness:
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    ua = headers.get("user-agent") if headers is not None else None
    client = headers.get("x-kg-client") if headers is not None else None
    return profiles.from_user_agent(f"{client or ''} {ua or ''}")


def _meta(params: Any) -> dict | None:
    meta = getattr(params, "meta", None)
    if meta is None:
        return None
    return meta if isinstance(meta, dict) else meta.model_dump(by_alias=True)


class Tools:
    def __init__(self, floor: Floor):
        self.floor = floor

    async def call(self, name: str, arguments: dict, harness: profiles.Harness) -> types.CallToolResult:
        handler = getattr(self, "tool_" + name, None)
        if handler is None or name not in schemas.SCHEMAS:
            return _text(f"Error: unknown tool '{name}'; the tools are {', '.join(sorted(schemas.SCHEMAS))}", True)
        problem = schemas.validation_error(name, arguments)
        if problem:
            return _text(f"Input validation error: {problem}", True)
        try:
            return _text(await handler(harness=harness, **_rename_keys(arguments)))
        except WriteConflict as exc:
            return _text(replies.conflict_text(exc.reason, exc.level, exc.node), True)
        except KGError as exc:
            return _text(f"Error: {exc}", True)
        except Exception as exc:  # the boundary: a bug answers this call and the server goes on
            log.exception("tool %s failed", name)
            return _text(f"Internal error: {exc!r}", True)

    async def _with_push(self, sid: str | None, text: str) -> str:
        return replies.with_notice(text, await sync.push_notice(self.floor, sid))

    async def tool_kg_read(self, harness, cwd=None, session_id=None, id=None, ids=None, level=None,
                           more=False, maintenance=False) -> str:
        if more:
            if not session_id:
                raise KGError("more=true needs the session_id of the read that said it continues")
            return await read.more(self.floor, session_id)
        opened = await session.open_session(self.floor, cwd, session_id, harness)
        node_ids = ([id] if id else []) + list(ids or [])
        return await read.read(self.floor, opened, harness, node_ids, level, maintenance)

    async def tool_kg_search(self, harness, query, session_id=None) -> str:
        text = await search.search_text(self.floor, session_id, query)
        return await self._with_push(session_id, text)

    async def tool_kg_put_node(self, harness, session_id, level, id, gist, notes=None, touches=None) -> str:
        out = await write.put_node(self.floor, session_id, level, id, gist, notes, touches, push=True)
        r = out.result
        text = replies.node_saved(id, level, r.promoted, r.warnings, r.hints, r.note_credit)
        notice = await sync.push_notice(self.floor, session_id, view=out.view, window=out.push_window,
                                        claimed=True)
        return replies.with_notice(text, notice)

    async def tool_kg_put_edge(self, harness, session_id, level, rel, notes=None, **ends) -> str:
        out = await write.put_edge(self.floor, session_id, level, ends["src"], ends["dst"], rel, notes)
        return replies.edge_saved(ends["src"], ends["dst"], rel, level, out.credited)

    async def tool_kg_delete_node(self, harness, session_id, id) -> str:
        level, removed = await write.delete_node(self.floor, session_id, id)
        return replies.node_deleted(id, level, removed)

    async def tool_kg_delete_edge(self, harness, session_id, rel, **ends) -> str:
        level = await write.delete_edge(self.floor, session_id, ends["src"], ends["dst"], rel)
        return replies.edge_deleted(ends["src"], ends["dst"], rel, level)

    async def tool_kg_rename_node(self, harness, session_id, old_id, new_id, level=None) -> str:
        out = await rename.rename(self.floor, session_id, old_id, new_id, level)
        return replies.renamed(old_id, new_id, out.level, out.rewired, out.skipped)

    async def tool_kg_useful(self, harness, session_id, ids, credits=None) -> str:
        out = await useful.useful(self.floor, session_id, ids, credits)
        return replies.useful_reply(out.accepted, out.refused, out.unorphaned, out.credits, out.state.likes,
                                    out.state.credits, out.state.maintenance)

    async def tool_kg_sync(self, harness, session_id) -> str:
        return await sync.sync(self.floor, session_id)

    async def tool_kg_progress(self, harness, session_id, task_id, state=None, level="user") -> str:
        stored = await write.progress(self.floor, session_id, task_id, state, level)
        return replies.progress_reply(task_id, state is not None, stored)


def _rename_keys(arguments: dict) -> dict:
    """`from`/`to` are Python keywords' neighbours; carry them as src/dst."""
    out = dict(arguments)
    if "from" in out:
        out["src"] = out.pop("from")
    if "to" in out:
        out["dst"] = out.pop("to")
    return out


def build_server(floor: Floor, antigravity: Any = None) -> Server:
    tools = Tools(floor)
    listed = [
        types.Tool(name=name, description=descriptions.TOOLS[name], input_schema=schema)
        for name, schema in schemas.SCHEMAS.items()
    ]

    async def on_list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        conversation = profiles.antigravity_conversation(_meta(params))
        if conversation is not None and antigravity is not None:
            # Antigravity cuts large results: its adapter queues them for its hooks.
            takes_session = "session_id" in schemas.SCHEMAS.get(params.name, {}).get("properties", {})
            out = await antigravity.call_tool(tools, params.name, params.arguments or {}, conversation, takes_session)
            return _text(out) if isinstance(out, str) else out
        return await tools.call(params.name, params.arguments or {}, _harness(ctx))

    return Server(
        "kg-memory", version=__version__, instructions=descriptions.INSTRUCTIONS,
        on_list_tools=on_list_tools, on_call_tool=on_call_tool,
    )
