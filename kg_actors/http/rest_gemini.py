"""/api/gemini/{event}: Gemini CLI's hook events, answered with ambient's decisions under Gemini's names.

SessionStart preloads, BeforeAgent recalls for the prompt, AfterTool recalls for
the file (or nudges), BeforeTool recalls for the shell command. Any other event,
or a payload that is not a hook's, gets `{}`.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..ambient import Ambient, hook_output
from ..harness import gemini
from .rest import guarded, json_body

HOOK_PATHS = frozenset(f"/api/gemini/{e}" for e in gemini.EVENTS)


def routes(runtime) -> list[Route]:
    ambient = Ambient(runtime.memory)

    async def hook(request: Request) -> JSONResponse:
        event = request.path_params["event"]
        payload = await json_body(request)
        claude_event = gemini.EVENTS.get(event)
        if claude_event is None or not isinstance(payload.get("session_id"), str):
            return JSONResponse({})
        if claude_event == "SessionStart":
            if not isinstance(payload.get("cwd"), str):
                return JSONResponse({})
            out = await ambient.bootstrap(payload["cwd"], payload["session_id"], payload.get("source"),
                                          payload.get("transcript_path"))
            reply = hook_output("SessionStart", out["context"], out.get("message"))
        elif claude_event == "UserPromptSubmit":
            reply = await ambient.prompt_context(payload)
        elif claude_event == "PreToolUse":
            reply = await ambient.pre_tool(gemini.translated(payload))
        else:
            reply = await ambient.tool_event(gemini.translated(payload))
        return JSONResponse(gemini.renamed(reply, event))

    return [Route("/api/gemini/{event}", guarded(hook), methods=["POST"])]
