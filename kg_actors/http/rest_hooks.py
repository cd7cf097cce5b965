"""Hook endpoints: the raw hook payload in, ready-to-print hook output (or `{}`) out.

A hook gives the server one second; nothing here waits on a save. Bad payloads
are answered 400 at once; the hook scripts print only replies that carry hook
output, so an error is silence in the session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from .. import reply_effects
from ..chores.trigger import after_prompt
from ..conduct import graphs, hook_identity, hook_recall, hook_session, hook_tool
from ..core import hook_fields
from ..core.errors import InvalidInput
from ..core.replies import hook_output, nothing_to_print
from .guard import RuntimeParts, flag, guarded, json_body


def started_said(message: str | None, started: bool) -> str | None:
    """The SessionStart hook had to start the server (?started=1): the user's one line says so."""
    if started and message:
        return "kg memory server started (it was down); " + message.removeprefix("kg memory: ")
    return message


def routes(runtime: RuntimeParts) -> list[Route]:
    floor = runtime.floor
    budget = runtime.budget

    async def bootstrap_get(request: Request) -> JSONResponse:
        q = request.query_params
        named = "project_path" if q.get("project_path") else "cwd"
        folder = _required(q.get(named), "project_path")
        hook_fields.checked({named: folder, "session_id": q.get("claude_session_id"),
                             "transcript_path": q.get("transcript_path"), "source": q.get("source")})

        async def reply() -> dict[str, Any]:
            try:
                return await hook_session.bootstrap(floor, folder, q.get("claude_session_id"), q.get("source"),
                                                    q.get("transcript_path"))
            except InvalidInput as exc:  # the folder is checked as a hook's cwd: the error names the field sent
                raise InvalidInput(named, exc.rule) if exc.field == "cwd" else exc from None
        return await _delivered(request, reply)

    async def bootstrap_post(request: Request) -> JSONResponse:
        """The SessionStart hook's raw payload; a session is registered only for a payload that names its folder."""
        body = await hook_body(request)

        async def reply() -> dict[str, Any]:
            out = await hook_session.bootstrap(floor, _required(body.get("cwd"), "cwd"), body.get("session_id"),
                                               body.get("source"), body.get("transcript_path"),
                                               hook_identity.harness_of(body))
            message = started_said(out.get("message"), flag(request.query_params.get("started")))
            return hook_output("SessionStart", out["context"], message)
        # The preload counts (its gists seen, the session given to the agent) only once this is written.
        return await _delivered(request, reply)

    async def prompt_context(request: Request) -> JSONResponse:
        body = await hook_body(request)

        async def reply() -> dict[str, Any]:
            if not hook_recall.is_prompt_payload(body):
                return nothing_to_print()  # no budget notice either: nothing is printed for it
            return await budget.attach("UserPromptSubmit", body, await hook_recall.prompt_context(floor, body),
                                       runtime.clock())
        return await _delivered(request, reply, background=after_prompt(runtime, body))

    async def pre_tool(request: Request) -> JSONResponse:
        body = await hook_body(request)
        return await _delivered(request, lambda: hook_recall.pre_tool(floor, body))

    async def tool_event(request: Request) -> JSONResponse:
        body = await hook_body(request)

        async def reply() -> dict[str, Any]:
            return await budget.attach("PostToolUse", body, await hook_tool.tool_event(floor, body), runtime.clock())
        return await _delivered(request, reply)

    async def session_state(request: Request) -> JSONResponse:
        """For prompt hooks from before the server made every decision: the full-read flag only."""
        q = request.query_params
        view = await hook_identity.session_state(floor, q.get("session_id"), q.get("project_path"))
        if view is None:
            return JSONResponse({"found": False})
        return JSONResponse({"found": True, "session_id": view.sid, "full_read_done": view.full_read_ts is not None,
                             "preloaded_count": len(view.preloaded)})

    async def maintenance_debt(request: Request) -> JSONResponse:
        return JSONResponse({"graphs": await graphs.debts(floor)})

    return [
        Route("/api/session_bootstrap", guarded(bootstrap_get), methods=["GET"]),
        Route("/api/session_bootstrap", guarded(bootstrap_post), methods=["POST"]),
        Route("/api/prompt_context", guarded(prompt_context), methods=["POST"]),
        Route("/api/pre_tool", guarded(pre_tool), methods=["POST"]),
        Route("/api/tool_event", guarded(tool_event), methods=["POST"]),
        Route("/api/session_state", guarded(session_state)),
        Route("/api/maintenance_debt", guarded(maintenance_debt)),
    ]


async def _delivered(request: Request, reply: Callable[[], Awaitable[dict[str, Any]]],
                     background: BackgroundTask | None = None) -> JSONResponse:
    """A hook reply whose shown parts count as shown once it is sent: a client that hung up
    before it was ready gets its pushes offered again with its next reply (F38), and what recall
    showed it stays unseen, so it may be recalled again (F14). `background` runs after the send."""
    with reply_effects.collect() as effects:
        out = await reply()
    if not effects:
        return JSONResponse(out, background=background)
    if await reply_effects.client_gone(request.scope, request.receive):
        await effects.abandoned()
        return JSONResponse(out, background=background)
    return _EffectsResponse(out, effects, background)


class _EffectsResponse(JSONResponse):
    """Runs the delivered effects after the body is sent, the abandoned ones when the send fails."""

    def __init__(self, content: dict[str, Any], effects: reply_effects.Effects,
                 background: BackgroundTask | None = None) -> None:
        super().__init__(content, background=background)
        self.effects = effects

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except BaseException:
            await self.effects.abandoned()
            raise
        await self.effects.delivered()


async def hook_body(request: Request) -> dict[str, Any]:
    """A hook's payload; one whose id, name or path is past any harness's is refused whole (core/hook_fields.py)."""
    return hook_fields.checked(await json_body(request))


def _required(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, "is required: the session's folder (an absolute path inside home)")
    return value
