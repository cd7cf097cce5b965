"""Claude Desktop: one `mcpServers.kg` entry in claude_desktop_config.json, running `kg mcp` by absolute path.

Desktop has no hooks and no plugin CLI: setup edits the file itself, keeping every other key.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import SetupError
from .claude import read_json_object
from .entry_refresh import recorded_entry, refreshed
from .files import UNTOUCHED, Record, atomic_write, json_like, read_bytes
from ..env_rules import DEFAULT_PORT, ConfigError, env_port
from .other_plugins import reaches_kg_memory, runs_kg_mcp
from .found import DesktopFound

SERVER = "kg"


def config_path(env: dict[str, str], home: Path, platform: str = sys.platform) -> Path:
    if platform == "darwin":
        base = home / "Library" / "Application Support" / "Claude"
    else:
        base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
        base = base / "Claude"
    return base / "claude_desktop_config.json"


def entry(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"command": command[0], "args": [*command[1:], "mcp"]}
    if env:
        out["env"] = dict(env)
    return out


def find(env: dict[str, str], home: Path, record: Record | None, platform: str = sys.platform) -> DesktopFound:
    path = config_path(env, home, platform)
    if not path.parent.is_dir():  # the app makes this folder on its first start
        return DesktopFound(None)
    data, error = read_json_object(path)
    if error:
        return DesktopFound(path, error)
    assert data is not None  # read_json_object gives an object or an error
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        return DesktopFound(path, f"{path}: mcpServers is not an object; {UNTOUCHED}")
    try:  # an older kg-memory's bridge reaches its server at its default port, or at the one it was moved to
        ports = frozenset((DEFAULT_PORT, env_port(env, "KG_HTTP_PORT", DEFAULT_PORT)))
    except ConfigError:
        ports = frozenset((DEFAULT_PORT,))
    others = tuple(sorted(name for name, server in servers.items()
                          if name != SERVER and (runs_kg_mcp(server) or reaches_kg_memory(server, ports))))
    theirs = servers.get(SERVER)
    return DesktopFound(path, None, theirs, None if record is None else recorded_entry(record, "desktop", theirs, home),
                        others)


def write(record: Record, path: Path, want: dict[str, Any], home: Path) -> None:
    """kg's entry as setup writes it now, the user's changes to its last one kept; `want` goes on record."""
    raw = read_bytes(path)
    data = json.loads(raw) if raw else {}
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    theirs = servers.get(SERVER) if isinstance(servers, dict) else None
    atomic_write(path, merged(raw, refreshed(theirs, want, recorded_entry(record, "desktop", theirs, home)), path))
    record.mark("desktop", config=str(path), entry=want)


def merged(raw: bytes | None, server: dict[str, Any], path: Path) -> bytes:
    """The config with `mcpServers.kg` set, every other key kept (in order)."""
    data = json.loads(raw) if raw else {}
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers", {}), dict):
        raise SetupError(f"{path}: not a JSON object with an mcpServers object; {UNTOUCHED}")
    data.setdefault("mcpServers", {})[SERVER] = server
    return json_like(data, raw)


def without(raw: bytes, path: Path) -> bytes | None:
    """The config with `mcpServers.kg` gone (and an emptied mcpServers too); None when unchanged."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict) or SERVER not in servers:
        return None
    del servers[SERVER]
    if not servers:
        del data["mcpServers"]
    return json_like(data, raw)


def without_other(raw: bytes | None, path: Path, name: str) -> tuple[bytes | None, Any]:
    """The config without `mcpServers.<name>` (another kg memory server), and its entry; (None, None) when absent."""
    data = json.loads(raw) if raw else {}
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict) or name not in servers:
        return None, None
    entry = servers.pop(name)
    return json_like(data, raw), entry


def with_other(raw: bytes, path: Path, name: str, server: Any) -> bytes | None:
    """The config with `mcpServers.<name>` put back as it was (None: one of that name is there, or it is no object)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers", {}), dict) \
            or name in data.get("mcpServers", {}):
        return None
    data.setdefault("mcpServers", {})[name] = server
    return json_like(data, raw)
