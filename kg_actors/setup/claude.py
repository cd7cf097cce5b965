"""Claude Code: its plugin state as its own files show it (`claude plugin ...` makes every change).

`claude plugin marketplace add DIR` records the local marketplace (known_marketplaces.json,
and extraKnownMarketplaces in settings.json); `claude plugin install` copies the plugin
into plugins/cache and enables it in settings.json (enabledPlugins).
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any

from ..core import strict_json
from . import SetupError
from .files import UNTOUCHED, json_config, json_like, read_bytes, read_tree
from .other_plugins import claude_others, installed_keys, with_rules, without_rules
from .found import ClaudeFound
from .plugin import MARKETPLACE, Rendered


def config_dir(env: dict[str, str], home: Path) -> Path:
    return Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home / ".claude"


def settings_path(env: dict[str, str], home: Path) -> Path:
    return config_dir(env, home) / "settings.json"


def state_path(env: dict[str, str], home: Path) -> Path:
    """Claude Code's own state file (user-scope MCP servers among it): ~/.claude.json, or inside CLAUDE_CONFIG_DIR."""
    return config_dir(env, home) / ".claude.json" if env.get("CLAUDE_CONFIG_DIR") else home / ".claude.json"


def read_json_object(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """(the object, None), ({}, None) when absent or empty, or (None, why it is not what setup expects)."""
    raw = read_bytes(path)
    if raw is None or not raw.strip():  # Claude Code reads an empty settings.json as no settings
        return {}, None
    try:
        data = strict_json.loads(raw)
    except ValueError as exc:
        return None, f"{path}: not valid JSON ({exc}); left untouched: fix or move it, then run kg setup again"
    if not isinstance(data, dict):
        return None, f"{path}: expected a JSON object, found {type(data).__name__}; {UNTOUCHED}"
    return data, None


def unreadable(path: Path) -> str | None:
    """Why Claude Code's settings at `path` cannot be read as a JSON object (None: they can, or there are none)."""
    try:
        _, error = read_json_object(path)
    except SetupError as exc:  # no permission, a folder of that name
        return str(exc).split("; left untouched")[0]
    return error.split("; left untouched")[0] if error else None


def cache_holds(installed: Path | None, plugin: Rendered) -> bool:
    """Whether an installed copy holds every rendered file, byte for byte (the CLI may add its own)."""
    tree = read_tree(installed) if installed else None
    return tree is not None and all(tree.get(rel) == data for rel, data in plugin.contents().items())


USER_SCOPE_REMOVE = "claude mcp remove kg --scope user"


def _own_server(state: dict[str, Any], path: Path) -> tuple[str | None, str, Any]:
    """Where the user added a `kg` MCP server of their own (user scope, or local scope in a project's entry),
    the command that removes it, and the entry."""
    servers = state.get("mcpServers")
    if isinstance(servers, dict) and "kg" in servers:
        return f"{path}: mcpServers.kg", USER_SCOPE_REMOVE, servers["kg"]
    projects = state.get("projects")
    for folder, entry in sorted(projects.items()) if isinstance(projects, dict) else ():
        servers = entry.get("mcpServers") if isinstance(entry, dict) else None
        if isinstance(servers, dict) and "kg" in servers:
            return (f"{path}: projects[{json.dumps(folder, ensure_ascii=False)}].mcpServers.kg (local scope)",
                    f"cd {shlex.quote(folder)} && claude mcp remove kg --scope local", servers["kg"])
    return None, USER_SCOPE_REMOVE, None


def find(env: dict[str, str], home: Path, plugin: Rendered) -> ClaudeFound:
    cli = shutil.which("claude", path=env.get("PATH"))
    if cli is None:
        return ClaudeFound(None)
    base = config_dir(env, home)
    settings, error = read_json_object(base / "settings.json")
    known, error2 = read_json_object(base / "plugins" / "known_marketplaces.json")
    installed, error3 = read_json_object(base / "plugins" / "installed_plugins.json")
    # Its state file too: `claude plugin ...` replaces one it cannot parse (moving the user's aside).
    state, error4 = read_json_object(state_path(env, home))
    if error or error2 or error3 or error4:
        return ClaudeFound(cli, error or error2 or error3 or error4)
    assert settings is not None and known is not None and installed is not None and state is not None
    own, remove, own_entry = _own_server(state, state_path(env, home))
    market = known.get(MARKETPLACE)
    location = None
    if isinstance(market, dict):
        source: Any = market.get("source") if isinstance(market.get("source"), dict) else {}
        location = source.get("path") or market.get("installLocation")
    entries = (installed.get("plugins") or {}).get(plugin.key) if isinstance(installed.get("plugins"), dict) else None
    install_path = None
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, dict) and entry.get("scope") == "user" and isinstance(entry.get("installPath"), str) \
                    and entry["installPath"]:
                install_path = Path(entry["installPath"])
    enabled = (settings.get("enabledPlugins") or {}).get(plugin.key) is True \
        if isinstance(settings.get("enabledPlugins"), dict) else False
    in_projects = frozenset(k for k, es in (installed.get("plugins") or {}).items() if isinstance(es, list) and any(
        isinstance(e, dict) and e.get("scope") in ("project", "local") for e in es)) \
        if isinstance(installed.get("plugins"), dict) else frozenset()
    return ClaudeFound(cli, None, location, install_path is not None, enabled, cache_holds(install_path, plugin),
                       settings, own, remove, own_entry, claude_others(settings, installed, plugin.key), in_projects)


def installed_now(env: dict[str, str], home: Path) -> frozenset[str] | None:
    """The plugins Claude Code has installed now (None: it keeps no readable record of them)."""
    installed, error = read_json_object(config_dir(env, home) / "plugins" / "installed_plugins.json")
    return None if error or installed is None else installed_keys(installed)


def enabled_as_object(raw: bytes | None, path: Path) -> bytes:
    """settings.json with enabledPlugins as an object, keeping what it held: each name of a list, enabled."""
    data = json_config(raw, path, ())
    value = data.get("enabledPlugins")
    if isinstance(value, dict):
        return raw or b"{}\n"
    held = value if isinstance(value, list) else [] if value is None else [value]
    if not all(isinstance(name, str) for name in held):
        raise SetupError(f"{path}: enabledPlugins is {json.dumps(value)[:80]}, which Claude Code does not read and "
                         "setup cannot keep as an object of plugin names; left untouched: make it an object "
                         "({\"name@marketplace\": true}), then run kg setup again")
    data["enabledPlugins"] = {name: True for name in held}
    return json_like(data, raw)


def not_enabled(env: dict[str, str], home: Path, plugin: Rendered) -> str | None:
    """Why the plugin is not enabled once installed, read back from Claude Code's files (None: it is)."""
    found = find(env, home, plugin)
    if found.error:
        return found.error
    if not found.installed:
        return f"{plugin.key} is not in Claude Code's installed plugins after `claude plugin install`"
    if not found.enabled:
        return (f"{plugin.key} is installed but stays disabled in {settings_path(env, home)} (enabledPlugins); "
                f"`claude plugin enable {plugin.key}` and a look at that key may fix it")
    return None


# Where Claude Code's CLI puts what setup installs: emptied by its uninstall, yet left in the file.
PLUGIN_KEYS = ("enabledPlugins", "extraKnownMarketplaces")


def without_emptied(raw: bytes, before: bytes | None, path: Path) -> bytes | None:
    """settings.json without the objects setup's install added (absent from `before`, the file's bytes before
    setup) that the uninstall left empty; None when there are none. One the user had, empty or not, stays."""
    data = json_config(raw, path, ())
    try:
        had = json_config(before, path, ())
    except SetupError:
        return None  # what the user had cannot be told: all is theirs
    gone = [key for key in PLUGIN_KEYS if data.get(key) == {} and key not in had]
    if not gone:
        return None
    for key in gone:
        del data[key]
    return json_like(data, raw)


def without_permissions(raw: bytes | None, path: Path, rules: list[str]) -> tuple[bytes | None, list[str]]:
    """settings.json without those of `rules` its permissions.allow holds (another kg memory plugin's tool
    rules), and which they were; (None, []) when it holds none."""
    data = json_config(raw, path, ("permissions",))
    allow = data.get("permissions", {}).get("allow")
    held = [rule for rule in rules if isinstance(allow, list) and rule in allow]
    return (json_like(without_rules(data, held), raw), held) if held else (None, [])


def with_permissions(raw: bytes, path: Path, rules: list[str]) -> bytes | None:
    """settings.json with `rules` back in permissions.allow (None: all are there, or it holds no list)."""
    data = json_config(raw, path, ("permissions",))
    before = json.dumps(data)
    with_rules(data, rules)
    return None if json.dumps(data) == before else json_like(data, raw)
