"""Antigravity CLI's hook payloads, as the rest of the server knows hook payloads.

Antigravity's hooks (camelCase JSON on stdin: `conversationId`, `workspacePaths`,
`transcriptPath`, `invocationNum`; tool events add `toolCall` {name, args} and
`stepIdx`) are translated into the Claude-Code-shaped payload the ambient
decisions read, so the server decides once for every harness. Its injection
envelope is `injectSteps`; PostToolUse cannot inject, so what a tool event
recalls waits in the conversation's queue for the next PreInvocation.
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..core import hook_fields, strict_json
from ..storage import user_files

# Events the adapter acts on; any other name is answered with nothing.
SESSION_START = "SessionStart"
PRE_INVOCATION = "PreInvocation"
POST_TOOL_USE = "PostToolUse"
ACTED_ON = frozenset({SESSION_START, PRE_INVOCATION, POST_TOOL_USE})
# Routed (and answered with nothing) as well: Antigravity's other hook events. No PreToolUse hook is
# installed: in this CLI an empty PreToolUse reply can deny the tool.
EVENTS = ACTED_ON | {"PreToolUse", "PostInvocation", "Stop"}

META_CONVERSATION = "antigravity.google/conversation_id"  # an MCP call's _meta names its conversation
CLI_MARKER = "/.gemini/antigravity-cli/"  # the CLI's transcripts; the IDE's hook events are not ours

# Antigravity tool -> (the Claude Code tool it stands for, the argument holding the path or command).
TOOLS = {
    "view_file": ("Read", "AbsolutePath"),
    "write_to_file": ("Write", "TargetFile"),
    "replace_file_content": ("Edit", "TargetFile"),
    "multi_replace_file_content": ("MultiEdit", "TargetFile"),
    "run_command": ("Bash", "CommandLine"),
}

TRANSCRIPT_TAIL = 256 * 1024
_REQUEST = re.compile(r"<USER_REQUEST>\s*(.*?)\s*</USER_REQUEST>", re.S)


def conversation(value: object) -> str | None:
    """A conversation id: a string of 1-128 printable characters."""
    if isinstance(value, str) and 0 < len(value) <= 128 and value.isprintable():
        return value
    return None


def conversation_of_meta(meta: object) -> str | None:
    return conversation(meta.get(META_CONVERSATION)) if isinstance(meta, dict) else None


def is_cli_payload(payload: dict[str, Any]) -> bool:
    """An Antigravity CLI hook payload: a conversation id and a transcript of the CLI's (the IDE's are not ours)."""
    transcript = payload.get("transcriptPath")
    return (conversation(payload.get("conversationId")) is not None and isinstance(transcript, str)
            and CLI_MARKER in transcript and hook_fields.fits(base_payload(payload)))


def workspace(payload: dict[str, Any]) -> str | None:
    """The first absolute workspace path is the project; none means a user-only session."""
    paths = payload.get("workspacePaths")
    if isinstance(paths, list):
        for p in paths:
            if isinstance(p, str) and os.path.isabs(p):
                return p
    return None


def transcript_path(payload: dict[str, Any]) -> str | None:
    path = payload.get("transcriptPath")
    return path if isinstance(path, str) else None


def base_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """The shape ambient's hooks read: the conversation stands for the harness session."""
    return {"session_id": payload["conversationId"], "cwd": workspace(payload),
            "transcript_path": transcript_path(payload)}


def tool_payload(payload: dict[str, Any]) -> dict[str, Any] | None:
    """A PostToolUse payload as Claude Code's, or None for a tool the adapter does not recall for."""
    call = payload.get("toolCall")
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        return None
    mapped = TOOLS.get(call["name"])
    given = call.get("args")
    args: dict[str, Any] = given if isinstance(given, dict) else {}
    if mapped is None or not isinstance(args.get(mapped[1]), str):
        return None
    tool, field = mapped
    out = base_payload(payload)
    out["tool_name"] = tool
    if tool == "Bash":
        out["tool_input"] = {"command": args[field]}
        # An absent Cwd is no directory at all: a command is never attributed to the workspace.
        out["cwd"] = args["Cwd"] if isinstance(args.get("Cwd"), str) and os.path.isabs(args["Cwd"]) else ""
    else:
        out["tool_input"] = {"file_path": args[field]}
    return out


def first_invocation(payload: dict[str, Any]) -> bool:
    """The turn's first model call (a user prompt just arrived); later calls only deliver what waits."""
    n = payload.get("invocationNum")
    return not isinstance(n, int) or isinstance(n, bool) or n <= 0


def inject(text: str) -> dict[str, Any]:
    """The PreInvocation reply that puts `text` into the conversation as a system step."""
    return {"injectSteps": [{"systemMessage": {"systemMessage": text}}]}


def scan(data: bytes) -> tuple[bool, str | None]:
    """New transcript lines: (a checkpoint came, the newest user request's text)."""
    checkpoint, request = False, None
    for raw in data.splitlines():
        try:
            row = strict_json.loads(raw)
        except ValueError:
            continue  # a partial first line of a tail, or not JSON
        if not isinstance(row, dict):
            continue
        kind = " ".join(str(row.get(k, "")) for k in ("type", "stepType", "source"))
        if "CHECKPOINT" in kind:
            checkpoint = True
            request = None  # a prompt before the checkpoint was answered before it
        elif "USER_INPUT" in kind:
            text = next((row[k] for k in ("content", "text", "userInput", "message") if isinstance(row.get(k), str)),
                        None)
            if text is not None:
                found = _REQUEST.search(text)
                request = found.group(1) if found else text
    return checkpoint, request


def read_new(path: str, offset: int) -> tuple[int, bytes]:
    """The transcript's bytes after `offset` (at most its last TRANSCRIPT_TAIL), and the new offset."""
    with user_files.open_regular(path) as f:  # a FIFO there would block the read for ever
        end = f.seek(0, os.SEEK_END)
        if end < offset:  # rewritten from scratch: read it anew
            offset = 0
        start = max(offset, end - TRANSCRIPT_TAIL)
        f.seek(start)
        return end, f.read(end - start)
