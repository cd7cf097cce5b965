"""/api/antigravity/*: Antigravity's hook events and the acknowledgement of what a hook printed.

POST /api/antigravity/hook/{event} takes the hook's raw payload and answers
{"output": <what the hook prints>, "delivery_id": <packet to acknowledge, or null>};
with ?lines=1, two lines of plain text: the acknowledgement body to post back
(or nothing), then the output; the shell hook splits them without a JSON parser. Anything not an Antigravity
CLI payload, or an event the adapter does not use, gets an empty output at
once. POST /api/antigravity/ack {conversationId, delivery_id} applies what the
packet completed; an unknown packet changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.background import BackgroundTasks
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..chores.trigger import after_prompt
from ..harness import antigravity as agy
from .guard import RuntimeParts, flag, guarded, json_body

HOOK_PATHS = frozenset({f"/api/antigravity/hook/{e}" for e in agy.EVENTS} | {"/api/antigravity/ack"})


def routes(runtime: RuntimeParts) -> list[Route]:
    adapter = runtime.antigravity

    async def hook(request: Request) -> Response:
        payload = await json_body(request)
        answer = await adapter.hook(request.path_params["event"], payload)
        output, packet = answer.output, answer.packet
        later = _after_prompt(runtime, answer.prompt) if answer.prompt is not None else None
        if flag(request.query_params.get("lines")):
            text = json.dumps(output, ensure_ascii=False) if output else ""
            ack = "" if packet is None else json.dumps({"conversationId": payload["conversationId"],
                                                        "delivery_id": packet}, ensure_ascii=False)
            return PlainTextResponse(f"{ack}\n{text}", background=later)
        return JSONResponse({"output": output, "delivery_id": packet}, background=later)

    async def ack(request: Request) -> JSONResponse:
        return JSONResponse({"acknowledged": await adapter.ack(await json_body(request))})

    return [
        Route("/api/antigravity/hook/{event}", guarded(hook), methods=["POST"]),
        Route("/api/antigravity/ack", guarded(ack), methods=["POST"]),
    ]


def _after_prompt(runtime: RuntimeParts, prompt: dict[str, Any]) -> BackgroundTasks:
    """Once the reply is out, as for Claude Code's and Codex's prompts: the chore trigger, and a fresh
    `agy /usage` reading for the next budget notice (too slow for the hook itself)."""
    tasks = BackgroundTasks()
    chore = after_prompt(runtime, prompt)
    if chore is not None:
        tasks.add_task(chore)
    tasks.add_task(runtime.budget.refresh, prompt, runtime.clock())
    return tasks
