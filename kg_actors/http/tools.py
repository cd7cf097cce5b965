"""The MCP tools: validate, ask `Memory`, and word the reply for a model.

Arguments that do not fit a tool's input schema come back as `Input validation
error: <field>: <rule>`; everything the store refuses past the schema (an unknown
node or session, a refused id, a cwd that is no folder) as `Error: ...`, as spec
003 splits them: both as tool errors, naming the field; the server keeps serving.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server

from .. import __version__
from ..core import constants as C
from ..core.errors import KGError, WriteConflict
from ..harness import profiles
from ..memory import Memory
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


def conflict_text(exc: WriteConflict) -> str:
    node = exc.node
    lines = [f"NOT WRITTEN — {exc.reason}. The node as it stands ({exc.level} graph):",
             f"▸ {node['id']}", f"  gist: {node['gist']}"]
    if node["notes"]:
        lines.append("  notes:")
        lines.extend(f"    - {n}" for n in node["notes"])
    if node["touches"]:
        lines.append("  touches: " + " · ".join(node["touches"]))
    lines.append("Merge your change into this content and call kg_put_node again.")
    return "\n".join(lines)


def votes_left_line(likes: int) -> str:
    """Spec 003: the reply says how many votes remain before the hard cap, and past the
    guidance, how far over it the session is (the guidance is not a limit)."""
    left = max(0, C.MAX_LIKES_PER_SESSION - likes)
    line = f"{left} vote(s) left before the hard cap of {C.MAX_LIKES_PER_SESSION} this session"
    over = likes - C.LIKES_GUIDANCE_PER_SESSION
    if over > 0:
        return f"{line}; {over} past the guidance of {C.LIKES_GUIDANCE_PER_SESSION} — fine if each one earned it."
    return f"{line} (guidance: about {C.LIKES_GUIDANCE_PER_SESSION})."


class Tools:
    def __init__(self, memory: Memory):
        self.memory = memory

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
            return _text(conflict_text(exc), True)
        except KGError as exc:
            return _text(f"Error: {exc}", True)
        except Exception as exc:  # the boundary: a bug answers this call and the server goes on
            log.exception("tool %s failed", name)
            return _text(f"Internal error: {exc!r}", True)

    async def _with_push(self, sid: str | None, text: str) -> str:
        notice = await self.memory.push_notice(sid)
        return f"{text}\n\n{notice}" if notice else text

    async def tool_kg_read(self, harness, cwd=None, session_id=None, id=None, ids=None, level=None,
                           more=False, maintenance=False) -> str:
        if more:
            if not session_id:
                raise KGError("more=true needs the session_id of the read that said it continues")
            return await self.memory.more(session_id)
        opened = await self.memory.open_session(cwd, session_id, harness)
        node_ids = ([id] if id else []) + list(ids or [])
        return await self.memory.read(opened, harness, node_ids, level, maintenance)

    async def tool_kg_search(self, harness, query, session_id=None) -> str:
        text = await self.memory.search_text(session_id, query)
        return await self._with_push(session_id, text)

    async def tool_kg_put_node(self, harness, session_id, level, id, gist, notes=None, touches=None) -> str:
        out = await self.memory.put_node(session_id, level, id, gist, notes, touches)
        result = out["result"]
        text = f"Node '{id}' saved to {level} graph"
        if result.promoted:
            text += " (back in the active view)"
        for warning in result.warnings:
            text += f" — {warning}"
        for hint in result.hints:
            text += f"\n{hint}"
        if result.note_credit:
            text += "\nA case added to a lesson counts as your endorsement of it."
        return await self._with_push(session_id, text)

    async def tool_kg_put_edge(self, harness, session_id, level, rel, notes=None, **ends) -> str:
        out = await self.memory.put_edge(session_id, level, ends["src"], ends["dst"], rel, notes)
        text = f"Edge {ends['src']}->{ends['dst']}:{rel} saved to {level} graph"
        if out.credited:
            text += f" — '{out.credited}' credited: a newer case repeats that lesson."
        return text

    async def tool_kg_delete_node(self, harness, session_id, id) -> str:
        level, removed = await self.memory.delete_node(session_id, id)
        return f"Deleted node '{id}' and {removed} connected edges from {level} graph"

    async def tool_kg_delete_edge(self, harness, session_id, rel, **ends) -> str:
        level = await self.memory.delete_edge(session_id, ends["src"], ends["dst"], rel)
        key = f"{ends['src']}->{ends['dst']}:{rel}"
        return f"Edge deleted: {key} ({level} graph)" if level else f"Edge not found: {key}"

    async def tool_kg_rename_node(self, harness, session_id, old_id, new_id, level=None) -> str:
        out = await self.memory.rename(session_id, old_id, new_id, level)
        text = f"Renamed '{old_id}' -> '{new_id}' in {out['level']} graph; {out['rewired']} edge ref(s) rewired."
        for skip in out["skipped"]:
            text += f"\nNOT rewired in {skip['graph']} ({skip['reason']}) — check that graph by hand."
        return text

    async def tool_kg_useful(self, harness, session_id, ids, credits=None) -> str:
        out = await self.memory.useful(session_id, ids, credits)
        lines = []
        if out["accepted"]:
            if out.get("credits"):
                lines.append(f"Credited ({out['credits']} each): {', '.join(out['accepted'])}")
            else:
                lines.append(f"Marked useful: {', '.join(out['accepted'])}")
        for node_id in out.get("unorphaned", []):
            lines.append(f"'{node_id}' was orphaned; the credit returns it to the archive.")
        for node_id, why in out["refused"]:
            lines.append(f"Skipped {node_id}: {why}")
        state = out["state"]
        if state.maintenance and out.get("credits"):
            lines.append(f"{C.MAINTENANCE_CREDITS_PER_PASS - state.credits} credit(s) left this pass.")
        else:
            lines.append(votes_left_line(state.likes))
        return "\n".join(lines)

    async def tool_kg_sync(self, harness, session_id) -> str:
        return await self.memory.sync(session_id)

    async def tool_kg_progress(self, harness, session_id, task_id, state=None, level="user") -> str:
        stored = await self.memory.progress(session_id, task_id, state, level)
        if state is not None:
            return f"Progress saved for task '{task_id}'"
        if stored is None:
            return f"No progress found for task '{task_id}'"
        return f"Progress for '{task_id}':\n{json.dumps(stored, indent=2, ensure_ascii=False)}"


def _rename_keys(arguments: dict) -> dict:
    """`from`/`to` are Python keywords' neighbours; carry them as src/dst."""
    out = dict(arguments)
    if "from" in out:
        out["src"] = out.pop("from")
    if "to" in out:
        out["dst"] = out.pop("to")
    return out


def build_server(memory: Memory, antigravity: Any = None) -> Server:
    tools = Tools(memory)
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
            out = await antigravity.call_tool(tools, params.name, params.arguments or {}, conversation)
            return _text(out) if isinstance(out, str) else out
        return await tools.call(params.name, params.arguments or {}, _harness(ctx))

    return Server(
        "kg-memory", version=__version__, instructions=descriptions.INSTRUCTIONS,
        on_list_tools=on_list_tools, on_call_tool=on_call_tool,
    )
