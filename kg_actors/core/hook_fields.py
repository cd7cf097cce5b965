"""Bounds on the ids, names and paths a hook payload gives, which the server stores or logs.

A session id is kept in sessions.json and written on every recall.jsonl line: one of megabytes pushed the
whole recall history out at the log's next rotation. What harnesses send is short (Claude Code, Codex and
Gemini send UUIDs, OpenCode `ses_` and 26 characters, Antigravity a conversation id of at most 128), so a
payload past these bounds is not a harness's: it is refused whole, and nothing of it is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from .errors import InvalidInput

ID_MAX_CHARS = 256  # ids and names: a UUID is 36; an MCP tool's `mcp__server__tool` name stays well under
PATH_MAX_CHARS = 4096  # Linux's PATH_MAX: no longer path names a file
ID_FIELDS = ("session_id", "agent_id", "agent_type", "tool_use_id", "turn_id", "tool_name", "source",
             "hook_event_name", "model", "permission_mode", "claude_session_id")
PATH_FIELDS = ("cwd", "transcript_path", "project_path")


def refusal(payload: Mapping[str, object]) -> InvalidInput | None:
    """The first id, name or path of `payload` over its bound, as the error naming it; None: all fit."""
    for fields, most, what in ((ID_FIELDS, ID_MAX_CHARS, "an id"), (PATH_FIELDS, PATH_MAX_CHARS, "a path")):
        for name in fields:
            value = payload.get(name)
            if isinstance(value, str) and len(value) > most:
                return InvalidInput(name, f"is {len(value)} characters; {what} here is at most {most}")
    return None


def fits(payload: Mapping[str, object]) -> bool:
    return refusal(payload) is None


P = TypeVar("P", bound=Mapping[str, object])


def checked(payload: P) -> P:
    """`payload`, or InvalidInput naming its first field over its bound."""
    if (exc := refusal(payload)) is not None:
        raise exc
    return payload
