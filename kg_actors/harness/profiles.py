"""What differs per harness: its name, the unit it counts in, and its limits.

One place answers "which harness sent this" (from a transcript path or an MCP
client's User-Agent) and "how much does it keep whole" (preload and reply
parts, each in the client's own unit).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import attrs


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


@attrs.frozen
class Harness:
    name: str
    preload_limit: int
    part_limit: int | None
    unit: str  # "utf16" | "bytes"
    shell_reads_count: bool
    trusts_shell_cwd: bool
    # Said on a fresh kg_read(cwd) while none of this harness's hooks has reached the server for the project.
    no_hooks_hint: str | None = None
    # A resumed conversation still holds what the hooks added to it (Claude Code and Codex store it in the
    # transcript). Gemini CLI stores none of its <hook_context> parts and OpenCode's plugin kept the preload in
    # the memory of the process before: there a resume gets the preload again, as after a compaction.
    keeps_hook_context: bool = True
    # A line the harness's adapter puts into the preload (under its header): counted within preload_limit.
    preload_note: str = ""

    def measure(self, text: str) -> int:
        return utf16_units(text) if self.unit == "utf16" else utf8_bytes(text)


CLAUDE_CODE = Harness("claude-code", 9_500, 45_000, "utf16", False, True)
CLAUDE_DESKTOP = Harness("claude-desktop", 9_500, 45_000, "utf16", False, True)
CODEX_NO_HOOKS_HINT = (
    "No Codex memory hook has reached this server for this project, so this session gets no preload, no "
    "prompt recall and no file recall. The kg-memory plugin's hooks are missing or untrusted: ask the user to run "
    "`kg setup` (it installs the plugin and trusts its hooks; /hooks trusts them by hand) and start a new session. "
    "Until then the kg_* tools work as usual."
)
CODEX = Harness("codex", 9_000, 36_000, "bytes", True, False, CODEX_NO_HOOKS_HINT)
ANTIGRAVITY_NO_HOOKS_HINT = (
    "No kg memory hook of the Antigravity CLI has reached this server for this project, so this conversation gets "
    "no preload and no recall, and kg_* replies over 3,500 bytes cannot be delivered (Antigravity cuts tool "
    "results above about 10 KB; the hooks deliver them). Ask the user to run `kg setup` (it installs the "
    "kg-memory Antigravity plugin), check `agy -p /hooks`, and start a new conversation."
)
# Antigravity passes no reply part whole past ~10 KB: large replies go through its hook queue instead.
ANTIGRAVITY = Harness("antigravity-cli", 10_000, None, "bytes", False, False, ANTIGRAVITY_NO_HOOKS_HINT)
# Gemini CLI counts in JS string length (UTF-16 units): it cuts a tool's output above 40,000 of them
# (DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD, 0.61) and passes hook context whole; the preload keeps
# Claude Code's size, since it lands in the first prompt.
GEMINI = Harness("gemini-cli", 9_500, 36_000, "utf16", False, True, keeps_hook_context=False)
# OpenCode cuts a tool's output above 51,200 bytes (UTF-8) or 2,000 lines (1.18); the preload goes into
# its system prompt, sized as Codex's.
# OpenCode lists an MCP server's tools as `<server>_<tool>` (setup names the server kg): kg_read is kg_kg_read
# there. The preload says so once, before the texts that name the tools; the texts themselves, lessons among
# them, are left as they are (rewriting every name rewrote ids and paths too, and a write sent back stored that).
OPENCODE_TOOLS_NOTE = ("(In OpenCode the kg tools are named kg_kg_read, kg_kg_search, kg_kg_put_node and so on: "
                       "kg_<tool> below is kg_kg_<tool>.)\n")
OPENCODE = Harness("opencode", 9_000, 46_000, "bytes", False, True, keeps_hook_context=False,
                   preload_note=OPENCODE_TOOLS_NOTE)

def from_user_agent(user_agent: str | None) -> Harness:
    ua = (user_agent or "").lower()
    if "codex" in ua:
        return CODEX
    if "antigravity" in ua or "agy" in ua.split("/")[0]:
        return ANTIGRAVITY
    if "gemini" in ua:
        return GEMINI
    if "opencode" in ua:
        return OPENCODE
    if "claude-desktop" in ua or "claude desktop" in ua:
        return CLAUDE_DESKTOP
    return CLAUDE_CODE


def antigravity_conversation(meta: object) -> str | None:
    """An MCP call's Antigravity conversation (its `_meta` names it; the CLI's User-Agent is ambiguous)."""
    from . import antigravity

    return antigravity.conversation_of_meta(meta)


def of_payload(payload: Mapping[str, Any]) -> Harness:
    """A hook payload's harness: by its transcript's path, and Codex by its own fields when it has no path
    (Codex's schema allows `"transcript_path": null`, which Claude Code never sends; `turn_id` is Codex's)."""
    path = payload.get("transcript_path")
    if isinstance(path, str) and path:
        return from_transcript(path)
    if "turn_id" in payload or ("transcript_path" in payload and path is None and "model" in payload):
        return CODEX
    return CLAUDE_CODE


def from_transcript(path: str | None) -> Harness:
    p = path or ""
    if "/.gemini/antigravity-cli/" in p:
        return ANTIGRAVITY
    if "/.gemini/tmp/" in p:  # Gemini CLI's chats: ~/.gemini/tmp/<project>/chats/session-*.json
        return GEMINI
    if "/opencode/storage/session/" in p:
        return OPENCODE
    if os.path.basename(p).startswith("rollout-") or "/.codex/" in p:
        return CODEX
    return CLAUDE_CODE
