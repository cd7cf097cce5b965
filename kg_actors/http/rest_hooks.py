"""Hook endpoints: the raw hook payload in, ready-to-print hook output (or `{}`) out.

A hook gives the server one second; nothing here waits on a save. Bad payloads
are answered 400 at once; the hook scripts print only replies that carry hook
output, so an error is silence in the session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import delivery
from ..ambient import Ambient, hook_output
from ..core import debt
from ..core.errors import InvalidInput
from .rest import flag, guarded, json_body


def routes(runtime) -> list[Route]:
    ambient = Ambient(runtime.memory)

    async def bootstrap_get(request: Request) -> JSONResponse:
        q = request.query_params
        out = await ambient.bootstrap(_required(q.get("project_path") or q.get("cwd"), "project_path"),
                                      q.get("claude_session_id"), q.get("source"), q.get("transcript_path"))
        return JSONResponse(out)

    async def bootstrap_post(request: Request) -> JSONResponse:
        """The SessionStart hook's raw payload; a session is registered only for a payload that names its folder."""
        body = await json_body(request)
        out = await ambient.bootstrap(_required(body.get("cwd"), "cwd"), body.get("session_id"), body.get("source"),
                                      body.get("transcript_path"))
        message = out.get("message")
        if flag(request.query_params.get("started")) and message:
            # The hook had to start the server: the user's one line says so.
            message = "kg memory server started (it was down); " + message.removeprefix("kg memory: ")
        return JSONResponse(hook_output("SessionStart", out["context"], message))

    async def prompt_context(request: Request) -> JSONResponse:
        return await _delivered(request, ambient.prompt_context)

    async def pre_tool(request: Request) -> JSONResponse:
        return await _delivered(request, ambient.pre_tool)

    async def tool_event(request: Request) -> JSONResponse:
        return await _delivered(request, ambient.tool_event)

    async def session_state(request: Request) -> JSONResponse:
        """For prompt hooks from before the server made every decision: the full-read flag only."""
        view = None
        sid = request.query_params.get("session_id")
        project_path = request.query_params.get("project_path")
        if sid:
            view = await runtime.sessions.get(sid=sid)
        elif project_path:
            root = ambient._root(project_path, strict=False)
            view = await runtime.sessions.find_by_project(project_path=root) if root else None
        if view is None:
            return JSONResponse({"found": False})
        return JSONResponse({"found": True, "session_id": view.sid, "full_read_done": view.full_read_ts is not None,
                             "preloaded_count": len(view.preloaded)})

    async def maintenance_debt(request: Request) -> JSONResponse:
        now = runtime.clock()
        rows = []
        keys = ["user"] + [f"project:{slug}" for slug in runtime.layout.project_slugs()]
        for key in keys:
            handle = await runtime.directory.get(key)
            graph, derived = await handle.view_now()
            d = derived.debt(graph, now)
            row = {"graph": key, "level": "user" if key == "user" else "project", "debt": debt.debt_dict(d)}
            if graph.project_path:
                row["project_path"] = graph.project_path
            rows.append(row)
        rows.sort(key=lambda r: -r["debt"]["score"])
        return JSONResponse({"graphs": rows})

    return [
        Route("/api/session_bootstrap", guarded(bootstrap_get), methods=["GET"]),
        Route("/api/session_bootstrap", guarded(bootstrap_post), methods=["POST"]),
        Route("/api/prompt_context", guarded(prompt_context), methods=["POST"]),
        Route("/api/pre_tool", guarded(pre_tool), methods=["POST"]),
        Route("/api/tool_event", guarded(tool_event), methods=["POST"]),
        Route("/api/session_state", guarded(session_state)),
        Route("/api/maintenance_debt", guarded(maintenance_debt)),
    ]


async def _delivered(request: Request, reply: Callable[[dict], Awaitable[dict]]) -> Response:
    """A hook reply whose shown parts count as shown once it is sent: a client that hung up
    before it was ready gets its pushes offered again with its next reply (F38), and what recall
    showed it stays unseen, so it may be recalled again (F14)."""
    body = await json_body(request)
    with delivery.collect() as effects:
        out = await reply(body)
    if not effects:
        return JSONResponse(out)
    if await request.is_disconnected():
        await effects.abandoned()
        return JSONResponse(out)
    return _EffectsResponse(out, effects)


class _EffectsResponse(JSONResponse):
    """Runs the delivered effects after the body is sent, the abandoned ones when the send fails."""

    def __init__(self, content: dict, effects: delivery.Effects):
        super().__init__(content)
        self.effects = effects

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except BaseException:
            await self.effects.abandoned()
            raise
        await self.effects.delivered()


def _required(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, "is required: the session's folder (an absolute path inside home)")
    return value
