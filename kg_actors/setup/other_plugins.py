"""Another kg memory plugin enabled beside ours (kg-memory 0.17's `knowledge-graph`, or any plugin whose MCP
server runs `kg mcp`): found by what it is, from the installed copy the agent loads, not by its marketplace name.

Both would run: every hook twice (two preloads, two session ids), two `kg` MCP servers, two sets of kg tools.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

import attrs

# kg-memory (the reference, 0.17 and before) names its plugin so in its manifest.
KG_MEMORY_NAME = "knowledge-graph"
_KG_MCP = re.compile(r"(?:^|[\s/;&|(])kg\s+mcp\b")


@attrs.frozen
class OtherPlugin:
    key: str  # "knowledge-graph@maxim-plugins", as the agent's settings name it
    why: str  # what makes it a kg memory plugin


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def _argv_words(server: object) -> list[str]:
    if not isinstance(server, dict):
        return []
    command, args = server.get("command"), server.get("args")
    argv = command if isinstance(command, list) else [command, *(args if isinstance(args, list) else [])]
    return [a for a in argv if isinstance(a, str)]


def runs_kg_mcp(server: object) -> bool:
    """An MCP server entry that runs `kg mcp`: as its argv (`/x/kg mcp`) or inside a shell line (`sh -c "... kg mcp"`)."""
    words = _argv_words(server)
    if len(words) >= 2 and os.path.basename(words[0]) == "kg" and words[1] == "mcp":
        return True
    return any(_KG_MCP.search(word) for word in words)


def kg_memory_why(folder: Path) -> str | None:
    """Why the installed plugin in `folder` is a kg memory plugin (None: it is not, or cannot be read)."""
    manifest = _read_json(folder / ".claude-plugin" / "plugin.json")
    if isinstance(manifest, dict) and manifest.get("name") == KG_MEMORY_NAME:
        version = manifest.get("version")
        return f"kg-memory {version}'s plugin" if isinstance(version, str) else "kg-memory's plugin"
    mcp = _read_json(folder / ".mcp.json")
    servers = mcp.get("mcpServers") if isinstance(mcp, dict) else None
    for name, server in sorted(servers.items()) if isinstance(servers, dict) else ():
        if runs_kg_mcp(server):
            return f"its MCP server {name} runs `{shlex.join(_argv_words(server))[:80]}`"
    return None


def claude_others(settings: dict[str, Any], installed: dict[str, Any], own_key: str) -> tuple[OtherPlugin, ...]:
    """The kg memory plugins other than ours that Claude Code's user settings enable."""
    enabled = settings.get("enabledPlugins")
    plugins = installed.get("plugins")
    if not isinstance(enabled, dict) or not isinstance(plugins, dict):
        return ()
    out = []
    for key, on in sorted(enabled.items()):
        entries = plugins.get(key)
        if on is not True or key == own_key or not isinstance(entries, list):
            continue
        folders = [Path(e["installPath"]) for e in entries
                   if isinstance(e, dict) and isinstance(e.get("installPath"), str) and e["installPath"]]
        why = next((w for f in folders if (w := kg_memory_why(f))), None)
        if why:
            out.append(OtherPlugin(key, why))
    return tuple(out)


def codex_others(config: dict[str, Any], codex_home: Path, own_key: str) -> tuple[OtherPlugin, ...]:
    """The kg memory plugins other than ours that Codex's config.toml enables (a plugin is on unless
    `enabled = false`), read from the copies Codex keeps in plugins/cache/<marketplace>/<plugin>/<version>."""
    plugins = config.get("plugins")
    out = []
    for key, entry in sorted(plugins.items()) if isinstance(plugins, dict) else ():
        if key == own_key or "@" not in key or not isinstance(entry, dict) or entry.get("enabled", True) is not True:
            continue
        name, _, market = key.partition("@")
        base = codex_home / "plugins" / "cache" / market / name
        try:
            folders = sorted(p for p in base.iterdir() if p.is_dir())
        except OSError:
            continue
        why = next((w for f in folders if (w := kg_memory_why(f))), None)
        if why:
            out.append(OtherPlugin(key, why))
    return tuple(out)


def doubled(agent: str, other: OtherPlugin) -> str:
    """What an enabled other kg memory plugin does beside ours, said once for setup and doctor."""
    return (f"another kg memory plugin is enabled in {agent}: {other.key} ({other.why}); its hooks and kg tools run "
            "beside kg's (every hook twice, two kg MCP servers)")
