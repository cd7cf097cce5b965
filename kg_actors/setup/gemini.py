"""Gemini CLI: its hooks and the kg MCP server in ~/.gemini/settings.json, every other key kept.

The hooks run the plugin's hooks/gemini.sh from the folder setup installed (its
kg_env beside it); the MCP server runs `kg mcp` by absolute path. Ours are told
apart from the user's by that script's path, so uninstall removes only them.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from ..harness import gemini as g
from . import SetupError
from .files import json_config, json_like

SERVER = "kg"
SCRIPT = "hooks/gemini.sh"
TIMEOUTS = {"SessionStart": 20_000, "BeforeAgent": 3_000, "AfterTool": 3_000}  # ms
MATCHERS = {"AfterTool": g.FILE_MATCHER}


def settings_path(env: dict[str, str], home: Path) -> Path:
    return Path(env["GEMINI_CLI_HOME"]) / ".gemini" / "settings.json" if env.get("GEMINI_CLI_HOME") \
        else home / ".gemini" / "settings.json"


def wanted(plugin_dir: Path, command: list[str], env: dict[str, str]) -> dict[str, Any]:
    """The hooks and the MCP server setup writes."""
    script = shlex.quote(str(plugin_dir / SCRIPT))
    hooks: dict[str, list[dict[str, Any]]] = {}
    for event, timeout in TIMEOUTS.items():
        group: dict[str, Any] = {"hooks": [{"type": "command", "name": f"kg-memory-{event}",
                                            "command": f"sh {script} {event}", "timeout": timeout}]}
        if event in MATCHERS:
            group = {"matcher": MATCHERS[event], **group}
        hooks[event] = [group]
    server: dict[str, Any] = {"command": command[0], "args": [*command[1:], "mcp"]}
    if env:
        server["env"] = dict(env)
    return {"hooks": hooks, "mcpServers": {SERVER: server}}


def _ours(group: object) -> bool:
    return isinstance(group, dict) and any(isinstance(h, dict) and SCRIPT in str(h.get("command", ""))
                                           for h in group.get("hooks", []) or [])


def current(raw: bytes | None, path: Path) -> dict[str, Any]:
    data = json_config(raw, path, ("hooks", "mcpServers"),
                       " (comments? Gemini reads them, setup does not): take them out, or add the kg entries by hand")
    for event, groups in data.get("hooks", {}).items():
        if not isinstance(groups, list):
            raise SetupError(f"{path}: hooks.{event} is not a list of hook groups; left untouched")
    return data


def installed(data: dict[str, Any], want: dict[str, Any]) -> bool:
    hooks = data.get("hooks", {})
    return data.get("mcpServers", {}).get(SERVER) == want["mcpServers"][SERVER] and all(
        any(group == w for group in hooks.get(event, [])) for event, (w,) in want["hooks"].items())


def merged(raw: bytes | None, want: dict[str, Any], path: Path) -> bytes:
    data = without_ours(current(raw, path))
    hooks = data.setdefault("hooks", {})
    for event, groups in want["hooks"].items():
        hooks.setdefault(event, []).extend(groups)
    data.setdefault("mcpServers", {})[SERVER] = want["mcpServers"][SERVER]
    return json_like(data, raw)


def without_ours(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    hooks = data.get("hooks", {})
    for event in list(hooks):
        if isinstance(hooks[event], list):
            hooks[event] = [grp for grp in hooks[event] if not _ours(grp)]
            if not hooks[event]:
                del hooks[event]
    if "hooks" in data and not hooks:
        del data["hooks"]
    servers = data.get("mcpServers", {})
    servers.pop(SERVER, None)
    if "mcpServers" in data and not servers:
        del data["mcpServers"]
    return data


def removed(raw: bytes, path: Path) -> bytes | None:
    """The settings without our hooks and server; None when there was nothing of ours."""
    data = current(raw, path)
    out = without_ours(data)
    return None if out == data else json_like(out, raw)
