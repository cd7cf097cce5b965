"""The MCP server (the SDK's low-level Server): lists the tools and hands calls to tool_handlers.py."""

from __future__ import annotations

from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from .. import __version__
from ..chores.messages import ChoreHandle
from ..conduct.floor import Floor
from ..harness import profiles
from . import descriptions, run_calls, schemas
from .mcp_calls import SERVER_NAME
from .tool_handlers import Tools, ToolReply, harness_of


def _text(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _meta(params: Any) -> dict[str, Any] | None:
    meta = getattr(params, "meta", None)
    if meta is None:
        return None
    return meta if isinstance(meta, dict) else meta.model_dump(by_alias=True)


def _result(out: ToolReply | str) -> types.CallToolResult:
    return _text(out) if isinstance(out, str) else _text(out.text, out.is_error)


def build_server(floor: Floor, antigravity: Any = None, chores: ChoreHandle | None = None) -> Server:
    tools = Tools(floor, chores)
    listed = [
        types.Tool(name=name, description=descriptions.TOOLS[name], input_schema=schema)
        for name, schema in schemas.SCHEMAS.items()
    ]

    async def on_list_tools(ctx: ServerRequestContext,
                            params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        conversation = profiles.antigravity_conversation(_meta(params))
        if conversation is not None and antigravity is not None:
            # Antigravity cuts large results: its adapter queues them for its hooks.
            takes_session = "session_id" in schemas.SCHEMAS.get(params.name, {}).get("properties", {})
            out = await antigravity.call_tool(tools, params.name, params.arguments or {}, conversation, takes_session)
            return _result(out)
        request = getattr(ctx, "request", None)
        scope = getattr(request, "scope", None)
        mark = run_calls.run_mark(scope) if isinstance(scope, dict) else None  # a run's calls, as app.py's
        harness = harness_of(getattr(request, "headers", None))
        return _result(await tools.call(params.name, params.arguments or {}, harness, mark))

    return Server(
        SERVER_NAME, version=__version__, instructions=descriptions.INSTRUCTIONS,
        on_list_tools=on_list_tools, on_call_tool=on_call_tool,
    )
