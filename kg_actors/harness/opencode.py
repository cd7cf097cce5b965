"""OpenCode's plugin events, as the rest of the server knows hook payloads.

OpenCode has no hook scripts: its plugin (harnesses/opencode/kg-memory.js)
posts {sessionID, directory, prompt | tool, args} on its own events, and
the server answers the text to add. OpenCode cuts a tool's output above
2,000 lines or 51,200 bytes (UTF-8), MCP results included.
"""

from __future__ import annotations

from typing import Any

from ..core import command_recall
from . import profiles

# The plugin's event -> the Claude Code event whose decision it gets.
EVENTS = {"session.start": "SessionStart", "chat.message": "UserPromptSubmit", "tool.before": "PreToolUse",
          "tool.after": "PostToolUse"}
# OpenCode tool -> (Claude Code tool, OpenCode's argument, Claude Code's argument).
TOOLS = {"read": ("Read", "filePath", "file_path"), "write": ("Write", "filePath", "file_path"),
         "edit": ("Edit", "filePath", "file_path"), "bash": ("Bash", "command", "command")}
# No file holds an OpenCode conversation the server could read: this path names the harness only.
TRANSCRIPT_MARKER = "/opencode/storage/session/"


def translated(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The Claude-Code-shaped payload, or None when it is not the plugin's."""
    sid, directory = payload.get("sessionID"), payload.get("directory")
    if not isinstance(sid, str) or not sid or not isinstance(directory, str):
        return None
    out: dict[str, Any] = {"session_id": sid, "cwd": directory, "transcript_path": f"{TRANSCRIPT_MARKER}{sid}.json",
                           "source": payload.get("source") if isinstance(payload.get("source"), str) else "startup"}
    if isinstance(payload.get("prompt"), str):
        out["prompt"] = payload["prompt"]
    tool, args = payload.get("tool"), payload.get("args")
    mapped = TOOLS.get(tool) if isinstance(tool, str) else None
    if mapped is not None and isinstance(args, dict) and isinstance(args.get(mapped[1]), str):
        out["tool_name"], out["tool_input"] = mapped[0], {mapped[2]: args[mapped[1]]}
        if isinstance(args.get("workdir"), str):
            out["tool_input"]["workdir"] = args["workdir"]
    elif tool is not None:
        out["tool_name"], out["tool_input"] = str(tool), {}
    return out


# OpenCode lets a plugin add to a tool's output only, once the tool has run: the lessons sent before a
# shell command reach the model after it, and their header must not claim otherwise.
AFTER_THE_COMMAND = "KG memory about this command (OpenCode shows it once the command has run):"


# Said under the preload's header (profiles.py, where the preload's size counts it).
TOOLS_NOTE = profiles.OPENCODE_TOOLS_NOTE


# Set on a prompt reply that holds lessons kg now counts as seen: the plugin adds it to every later call of the
# session (until a compaction), where a reminder goes with its own turn only.
KEEP = "keep"


def reply(output: dict[str, Any], event: str = "") -> dict[str, Any]:
    """{"context": text to add, "message": a line for the user}; {} when there is nothing."""
    text = (output.get("hookSpecificOutput") or {}).get("additionalContext")
    out = {}
    if text:
        if event == "tool.before":
            text = text.replace(command_recall.HEADER, AFTER_THE_COMMAND, 1)
        if event == "session.start":  # under the preload's first line, its header
            head, _, rest = text.partition("\n")
            text = f"{head}\n{TOOLS_NOTE}{rest}"
        out["context"] = text
    if output.get("systemMessage"):
        out["message"] = output["systemMessage"]
    return out
