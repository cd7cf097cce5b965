"""The prompt reply of the harnesses whose hooks keep no pools of their own (Gemini CLI, Antigravity,
OpenCode): recall as for Claude Code, and where Claude Code's prompt.sh would print a reminder from
hooks/reminders.txt (the server said nothing), the same kind of line from the same pools.
"""

from __future__ import annotations

import os
from typing import Any

import trio

from .. import reminder_pools
from ..core import reminders
from ..core.replies import hook_output
from . import hook_recall
from .floor import Floor


async def prompt_context(floor: Floor, payload: dict[str, Any], nudge: bool = True) -> dict[str, Any]:
    """`nudge=False` (kg's tools are off where the agent runs): no reminder either, as none can be acted on."""
    return (await prompt_reply(floor, payload, nudge))[0]


async def prompt_reply(floor: Floor, payload: dict[str, Any], nudge: bool = True) -> tuple[dict[str, Any], bool]:
    """The reply, and whether it holds lessons now counted as seen (hook_recall.prompt_reply); a reminder never."""
    out, lessons = await hook_recall.prompt_reply(floor, payload, nudge)
    if out or not nudge:  # said something, or chose to say nothing (not a prompt)
        return out, lessons
    size = await trio.to_thread.run_sync(transcript_bytes, payload.get("transcript_path"))
    # The second rotates the pool, as the hook's process id does in prompt.sh.
    line = reminders.pick(reminder_pools.pools(), size, int(floor.clock()))
    return (hook_output("UserPromptSubmit", line) if line else {}), False


def transcript_bytes(path: Any) -> int:
    """How deep the session is, as prompt.sh measures it: its transcript's size (0: none the server can read)."""
    if not isinstance(path, str) or not os.path.isabs(path):
        return 0
    try:
        return os.path.getsize(path)
    except (OSError, ValueError):
        return 0
