"""The prompt hook's hand-off: after its reply is sent, a human prompt is passed to the supervisor.

The reply never waits for it: the hand-off is a background task of the
response (run once the body is out), and the handle's `prompted` is a
non-blocking send.
"""

from __future__ import annotations

from typing import Any

from starlette.background import BackgroundTask

from ..core import recall


def after_prompt(runtime: Any, payload: dict[str, Any]) -> BackgroundTask | None:
    chores = getattr(runtime, "chores", None)
    if chores is None:
        return None
    sid = payload.get("session_id")

    async def hand_off() -> None:
        # A person sent it (a task notification or a command record is not a prompt), whether typed,
        # pasted or "go on": reading what was typed (recall.human_text) again was half of a
        # 20,000-character paste's hook time, for an answer the trigger does not need.
        if recall.is_prompt(payload.get("prompt")):
            chores.prompted(sid if isinstance(sid, str) else None, runtime.clock())

    return BackgroundTask(hand_off)
