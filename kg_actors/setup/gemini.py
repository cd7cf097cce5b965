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
from . import SetupError, jsonc
from .files import UNTOUCHED, json_config, json_like

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
    # Run headless (`gemini -p`), Gemini leaves out every tool that would ask first: untrusted, kg's tools are
    # gone there while its preload asks for kg_read. The user asked for kg by running setup.
    server["trust"] = True
    return {"hooks": hooks, "mcpServers": {SERVER: server}}


def _ours(group: object) -> bool:
    return isinstance(group, dict) and any(isinstance(h, dict) and SCRIPT in str(h.get("command", ""))
                                           for h in group.get("hooks", []) or [])


def _text(raw: bytes | None, path: Path) -> str:
    try:
        return (raw or b"").decode("utf-8")
    except UnicodeDecodeError:
        raise SetupError(f"{path}: not UTF-8 text; {UNTOUCHED}") from None


def current(raw: bytes | None, path: Path) -> dict[str, Any]:
    """The settings as Gemini reads them: JSON, with comments allowed."""
    blanked = jsonc.blank_comments(_text(raw, path)).encode()
    data = json_config(blanked if raw else raw, path, ("hooks", "mcpServers"))
    for event, groups in data.get("hooks", {}).items():
        if not isinstance(groups, list):
            raise SetupError(f"{path}: hooks.{event} is not a list of hook groups; {UNTOUCHED}")
    return data


def installed(data: dict[str, Any], want: dict[str, Any], server: Any) -> bool:
    """Our hooks are there, and kg's server is `server` (what setup leaves there: its own, the user's changes kept)."""
    hooks = data.get("hooks", {})
    return data.get("mcpServers", {}).get(SERVER) == server and all(
        any(group == w for group in hooks.get(event, [])) for event, (w,) in want["hooks"].items())


def holds_comments(raw: bytes | None, path: Path) -> bool:
    return bool(raw) and jsonc.blank_comments(_text(raw, path)) != _text(raw, path)


def comments_said(path: Path) -> str:
    return (f"{path}: it holds comments, which Gemini reads and setup's rewrite would lose; left untouched: add the "
            "kg entries by hand (`kg setup --plan --only gemini` prints them), or take the comments out")


def by_hand(want: dict[str, Any]) -> str:
    """The entries a user adds to a settings file setup will not rewrite (one holding comments)."""
    return json.dumps(want, indent=2)


def merged(raw: bytes | None, want: dict[str, Any], path: Path, server: Any = None) -> bytes:
    """The settings with our hooks and kg's server (`server`: what setup leaves there; by default what it writes)."""
    server = want["mcpServers"][SERVER] if server is None else server
    data = without_ours(current(raw, path))
    if holds_comments(raw, path):
        raise SetupError(comments_said(path))
    hooks = data.setdefault("hooks", {})
    for event, groups in want["hooks"].items():
        hooks.setdefault(event, []).extend(groups)
    data.setdefault("mcpServers", {})[SERVER] = server
    return json_like(data, raw)


def without_ours(data: dict[str, Any], had: dict[str, Any] | None = None, keep_server: bool = False) -> dict[str, Any]:
    """The settings without our hooks and server (the server kept when `keep_server`: the user's own of that
    name); a container left empty goes unless `had` (the settings before setup) held it."""
    had = had or {}
    had_hooks: dict[str, Any] = had["hooks"] if isinstance(had.get("hooks"), dict) else {}
    data = json.loads(json.dumps(data))
    hooks = data.get("hooks", {})
    for event in list(hooks):
        if isinstance(hooks[event], list):
            hooks[event] = [grp for grp in hooks[event] if not _ours(grp)]
            if not hooks[event] and event not in had_hooks:
                del hooks[event]
    if "hooks" in data and not hooks and "hooks" not in had:
        del data["hooks"]
    servers = data.get("mcpServers", {})
    if not keep_server:
        servers.pop(SERVER, None)
    if "mcpServers" in data and not servers and "mcpServers" not in had:
        del data["mcpServers"]
    return data


def removed(raw: bytes, path: Path, before: bytes | None = None, keep_server: bool = False) -> bytes | None:
    """The settings without our hooks and server; None when there was nothing of ours. A file with comments
    has only our entries cut out of its text: the rest, comments and all, stays as the user wrote it.
    `before`: the file's bytes before setup; a container it held stays, even emptied."""
    data = current(raw, path)
    try:
        had = current(before, path)
    except SetupError:
        had = {}
    out = without_ours(data, had, keep_server)
    if out == data:
        return None
    text = _text(raw, path)
    if jsonc.blank_comments(text) == text:
        return json_like(out, raw)
    for where in _ours_where(data, had, keep_server):
        text = jsonc.remove(text, where)
    try:
        cut_right = jsonc.loads(text) == out
    except ValueError:
        cut_right = False
    if not cut_right:
        raise SetupError(f"{path}: kg's hooks and MCP server could not be cut out of it without touching the rest; "
                         f"left untouched: take them out by hand (hooks running {SCRIPT}, mcpServers.{SERVER})")
    return text.encode()


def _ours_where(data: dict[str, Any], had: dict[str, Any], keep_server: bool = False) -> list[jsonc.Path_]:
    """Where our entries are, in an order each cut leaves the next one's place as it was (the last first);
    a list or object of ours alone goes whole, unless the settings before setup (`had`) held it."""
    out: list[jsonc.Path_] = []
    hooks = data.get("hooks", {})
    had_hooks: dict[str, Any] = had["hooks"] if isinstance(had.get("hooks"), dict) else {}
    kept = {event: [n for n, group in enumerate(groups) if not _ours(group)] for event, groups in hooks.items()
            if isinstance(groups, list)}
    if hooks and "hooks" not in had and all(not kept.get(event, True) for event in hooks):
        out.append(("hooks",))
    else:
        for event, groups in hooks.items():
            if isinstance(groups, list) and not kept[event] and event not in had_hooks:
                out.append(("hooks", event))
            elif isinstance(groups, list):
                out += [("hooks", event, n) for n in reversed(range(len(groups))) if _ours(groups[n])]
    servers = data.get("mcpServers", {})
    if SERVER in servers and not keep_server:
        out.append(("mcpServers",) if len(servers) == 1 and "mcpServers" not in had else ("mcpServers", SERVER))
    return out
