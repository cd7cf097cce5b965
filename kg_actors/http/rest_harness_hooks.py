"""Hook endpoints for harnesses whose events differ from Claude Code's only in names and shapes.

/api/gemini/{event} (Gemini CLI's hook scripts) and /api/opencode/{event}
(OpenCode's plugin) translate the payload (harness/gemini.py, harness/opencode.py),
ask the hook use cases (conduct/) for the same decision Claude Code's hook would get, and answer in
the harness's own reply shape. An unknown event, or a payload that is not the
harness's, gets `{}`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..chores.trigger import after_prompt
from ..conduct import hook_recall, hook_session, hook_tool
from ..core.replies import hook_output
from ..harness import gemini, opencode
from .guard import Handler, RuntimeParts, flag, guarded, json_body
from .rest_hooks import started_said


@attrs.frozen
class Adapter:
    prefix: str
    events: dict[str, str]  # the harness's event -> Claude Code's
    translate: Callable[[dict[str, Any]], dict[str, Any] | None]
    # (Claude-shaped hook output, the harness's event) -> its reply
    answer: Callable[[dict[str, Any], str], dict[str, Any]]

    @property
    def paths(self) -> frozenset[str]:
        return frozenset(f"{self.prefix}/{e}" for e in self.events)


def _gemini_payload(payload: dict[str, Any]) -> dict[str, Any] | None:
    return gemini.translated(payload) if isinstance(payload.get("session_id"), str) else None


ADAPTERS = (
    Adapter("/api/gemini", gemini.EVENTS, _gemini_payload, gemini.renamed),
    Adapter("/api/opencode", opencode.EVENTS, opencode.translated, opencode.reply),
)
HOOK_PATHS = frozenset().union(*(a.paths for a in ADAPTERS))


def routes(runtime: RuntimeParts) -> list[Route]:
    floor = runtime.floor

    async def decide(claude_event: str, payload: dict[str, Any], started: bool) -> dict[str, Any]:
        if claude_event == "SessionStart":
            if not isinstance(payload.get("cwd"), str):
                return {}
            out = await hook_session.bootstrap(floor, payload["cwd"], payload["session_id"], payload.get("source"),
                                               payload.get("transcript_path"))
            return hook_output("SessionStart", out["context"], started_said(out.get("message"), started))
        if claude_event == "UserPromptSubmit":
            return await hook_recall.prompt_context(floor, payload)
        if claude_event == "PreToolUse":
            return await hook_recall.pre_tool(floor, payload)
        return await hook_tool.tool_event(floor, payload)

    def endpoint(adapter: Adapter) -> Handler:
        async def hook(request: Request) -> JSONResponse:
            event = request.path_params["event"]
            claude_event = adapter.events.get(event)
            payload = adapter.translate(await json_body(request)) if claude_event else None
            if claude_event is None or payload is None:
                return JSONResponse({})
            # A human prompt from any harness may start a chore, after the reply is out (chores/trigger.py).
            later = after_prompt(runtime, payload) if claude_event == "UserPromptSubmit" else None
            started = flag(request.query_params.get("started"))  # the SessionStart hook started the server
            return JSONResponse(adapter.answer(await decide(claude_event, payload, started), event), background=later)
        return hook

    return [Route(f"{a.prefix}/{{event}}", guarded(endpoint(a)), methods=["POST"]) for a in ADAPTERS]
