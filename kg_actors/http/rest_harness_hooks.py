"""Hook endpoints for harnesses whose events differ from Claude Code's only in names and shapes.

/api/gemini/{event} (Gemini CLI's hook scripts) and /api/opencode/{event}
(OpenCode's plugin) translate the payload (harness/gemini.py, harness/opencode.py),
ask the hook use cases (conduct/) for the same decision Claude Code's hook would get, and answer in
the harness's own reply shape. An unknown event, or a payload that is not the
harness's, gets `{}`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import attrs
import trio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..chores.trigger import after_prompt
from ..conduct import hook_recall, hook_session, hook_tool, prompt_reminder
from ..core.replies import hook_output
from ..core import hook_fields, preload
from ..harness import gemini, gemini_trust, opencode
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
# The events whose reply depends on Gemini's folder trust (the preload, and the prompt's reminders): only they
# read its files.
TRUST_EVENTS = frozenset({"SessionStart", "UserPromptSubmit"})


def routes(runtime: RuntimeParts) -> list[Route]:
    floor = runtime.floor

    async def decide(claude_event: str, payload: dict[str, Any], started: bool,
                     tools_off: bool) -> tuple[dict[str, Any], bool]:
        """The hook output, and whether it holds lessons now counted as seen (a prompt's recall)."""
        if claude_event == "UserPromptSubmit":
            return await prompt_reminder.prompt_reply(floor, payload, nudge=not tools_off)
        return await decide_other(claude_event, payload, started, tools_off), False

    async def decide_other(claude_event: str, payload: dict[str, Any], started: bool,
                           tools_off: bool) -> dict[str, Any]:
        if claude_event == "SessionStart":
            if not isinstance(payload.get("cwd"), str):
                return {}
            out = await hook_session.bootstrap(floor, payload["cwd"], payload["session_id"], payload.get("source"),
                                               payload.get("transcript_path"))
            context = out["context"]
            if tools_off:  # the preload's full-read instruction cannot be followed: say why, and how to fix it
                said = context.replace(preload.REQUIRED, gemini_trust.UNTRUSTED)
                context = said if said != context else f"{gemini_trust.UNTRUSTED}\n{context}"
            return hook_output("SessionStart", context, started_said(out.get("message"), started))
        if claude_event == "PreToolUse":
            return await hook_recall.pre_tool(floor, payload)
        return await hook_tool.tool_event(floor, payload)

    def endpoint(adapter: Adapter) -> Handler:
        async def hook(request: Request) -> JSONResponse:
            event = request.path_params["event"]
            claude_event = adapter.events.get(event)
            payload = adapter.translate(await json_body(request)) if claude_event else None
            if claude_event is None or payload is None or not hook_fields.fits(payload):
                return JSONResponse({})  # not the harness's: an id or path past any harness's too
            # A human prompt from any harness may start a chore, after the reply is out (chores/trigger.py).
            later = after_prompt(runtime, payload) if claude_event == "UserPromptSubmit" else None
            started = flag(request.query_params.get("started"))  # the SessionStart hook started the server
            # Gemini runs no MCP server in a folder it does not trust (two small files read, as it reads them).
            tools_off = adapter.prefix == "/api/gemini" and claude_event in TRUST_EVENTS and not (
                await trio.to_thread.run_sync(gemini_trust.folder_trusted, payload.get("cwd"),
                                              gemini_trust.forwarded(payload), os.path.expanduser("~")))
            answer, lessons = await decide(claude_event, payload, started, tools_off)
            reply = adapter.answer(answer, event)
            if lessons and adapter.prefix == "/api/opencode":
                # OpenCode's plugin adds a turn's text to that turn's calls alone: these it keeps for the session.
                reply[opencode.KEEP] = True
            return JSONResponse(reply, background=later)
        return hook

    return [Route(f"{a.prefix}/{{event}}", guarded(endpoint(a)), methods=["POST"]) for a in ADAPTERS]
