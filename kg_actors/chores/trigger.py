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
        # Whether a person typed it is decided here, after the reply: on a 20,000-character paste
        # that reading is ~6 ms, and deciding it before the reply doubled the hook's time.
        if recall.human_text(payload.get("prompt")) is not None:
            chores.prompted(sid if isinstance(sid, str) else None, runtime.clock())

    return BackgroundTask(hand_off)
