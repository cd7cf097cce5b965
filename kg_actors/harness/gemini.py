"""Gemini CLI's hook payloads, as the rest of the server knows hook payloads.

Gemini CLI's hooks take Claude Code's field names (`session_id`,
`transcript_path`, `cwd`, `prompt`, `tool_name`, `tool_input`) and read
`hookSpecificOutput.additionalContext` back (0.61: SessionStart's goes ahead of
the first prompt, BeforeAgent's into the turn, AfterTool's after the tool's
result), so only the event and tool names differ.
"""

from __future__ import annotations

import re
from typing import Any

# Gemini event -> the Claude Code event whose decision it gets. Not BeforeTool: Gemini 0.61 reads
# additionalContext back only from BeforeAgent and AfterTool, so a command's lessons sent before it runs
# were never shown, and counted as seen (the prompt after could not recall them).
EVENTS = {"SessionStart": "SessionStart", "BeforeAgent": "UserPromptSubmit", "AfterTool": "PostToolUse"}
# Gemini tool -> (Claude Code tool, its argument).
TOOLS = {"read_file": ("Read", "file_path"), "write_file": ("Write", "file_path"), "replace": ("Edit", "file_path"),
         "run_shell_command": ("Bash", "command")}
FILE_MATCHER = "read_file|write_file|replace|run_shell_command"
# Gemini (0.61, headless) puts the SessionStart hook's text ahead of the first prompt as
# `<hook_context>TEXT</hook_context>` and a blank line, and BeforeAgent's `prompt` carries it: kg's own words,
# never the person's, so recall must not search them.
_HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>\s*", re.DOTALL)


def typed(prompt: str) -> str:
    """The prompt without the hook text Gemini put in it."""
    return _HOOK_CONTEXT.sub("", prompt)


def translated(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload with its tool named as Claude Code names it (unknown tools pass as they are), and its prompt
    as typed."""
    if isinstance(payload.get("prompt"), str):
        payload = {**payload, "prompt": typed(payload["prompt"])}
    tool = payload.get("tool_name")
    mapped = TOOLS.get(tool) if isinstance(tool, str) else None
    args = payload.get("tool_input")
    if mapped is None or not isinstance(args, dict) or not isinstance(args.get(mapped[1]), str):
        return payload
    return {**payload, "tool_name": mapped[0], "tool_input": {mapped[1]: args[mapped[1]]}}


def renamed(output: dict[str, Any], event: str) -> dict[str, Any]:
    """Hook output under Gemini's own event name."""
    specific = output.get("hookSpecificOutput")
    if isinstance(specific, dict):
        return {**output, "hookSpecificOutput": {**specific, "hookEventName": event}}
    return output
