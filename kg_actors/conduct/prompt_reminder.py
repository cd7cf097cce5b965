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
    out = await hook_recall.prompt_context(floor, payload, nudge)
    if out or not nudge:  # said something, or chose to say nothing (not a prompt)
        return out
    size = await trio.to_thread.run_sync(transcript_bytes, payload.get("transcript_path"))
    # The second rotates the pool, as the hook's process id does in prompt.sh.
    line = reminders.pick(reminder_pools.pools(), size, int(floor.clock()))
    return hook_output("UserPromptSubmit", line) if line else {}


def transcript_bytes(path: Any) -> int:
    """How deep the session is, as prompt.sh measures it: its transcript's size (0: none the server can read)."""
    if not isinstance(path, str) or not os.path.isabs(path):
        return 0
    try:
        return os.path.getsize(path)
    except (OSError, ValueError):
        return 0
