"""OpenCode: the kg-memory plugin in its global plugin folder and the kg MCP server in opencode.json.

OpenCode loads every file in ~/.config/opencode/plugin/ by itself; setup writes
the plugin there with this installation's `kg` and environment filled in, and
adds `mcp.kg` (type local, `kg mcp`) to opencode.json, every other key kept.
An opencode.json with comments or trailing commas (OpenCode reads both) gets
mcp.kg as a few lines of text, the rest kept byte for byte. The plugin goes in
only with the entry: without the kg tools its preload would send the agent to
tools it does not have.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import SetupError, jsonc
from .files import json_config, json_like

SERVER = "kg"
PLUGIN = "harnesses/opencode/kg-memory.js"
PLACEHOLDER = "const SETTINGS = {}"
HEADER = "// kg memory for OpenCode"
SCHEMA = "https://opencode.ai/config.json"  # what setup adds to a config that names none


def config_dir(env: dict[str, str], home: Path) -> Path:
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    return base / "opencode"


def config_path(env: dict[str, str], home: Path) -> Path:
    return config_dir(env, home) / "opencode.json"


def plugin_path(env: dict[str, str], home: Path) -> Path:
    return config_dir(env, home) / "plugin" / "kg-memory.js"


def plugin(template: bytes, command: list[str], env: dict[str, str]) -> bytes:
    text = template.decode()
    if PLACEHOLDER not in text:
        raise SetupError(f"{PLUGIN}: the line `{PLACEHOLDER}` is missing")
    settings = {"bin": command[0] if len(command) == 1 else None, "env": env}
    return text.replace(PLACEHOLDER, f"const SETTINGS = {json.dumps(settings)}", 1).encode()


def server(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "local", "command": [*command, "mcp"], "enabled": True}
    if env:
        out["environment"] = dict(env)
    return out


def current(raw: bytes | None, path: Path) -> dict[str, Any]:
    return json_config(raw, path, ("mcp",), "left untouched: fix or move it, then run kg setup again (or add mcp.kg "
                                           "by hand: `kg setup --plan --only opencode` prints it)")


def as_opencode_reads(raw: bytes | None, path: Path) -> tuple[dict[str, Any], bool]:
    """The config as OpenCode reads it, and whether it holds what setup's rewrite would lose (comments,
    trailing commas): such a file is read here, never written. Not JSON even so: the SetupError of `current`."""
    try:
        return current(raw, path), False
    except SetupError as exc:
        try:
            text = (raw or b"").decode("utf-8")
            lenient = jsonc.without_trailing_commas(jsonc.blank_comments(text)).encode()
        except UnicodeDecodeError:
            raise exc from None
        try:
            return json_config(lenient, path, ("mcp",)), True
        except SetupError:
            raise exc from None


def by_hand(entry: dict[str, Any], data: dict[str, Any]) -> str:
    """The text a user pastes into an opencode.json setup cannot add to: `"kg": ...` into its "mcp"
    object when it has one, else `"mcp": ...` into the top object."""
    member = {SERVER: entry} if "mcp" in data else {"mcp": {SERVER: entry}}
    return json.dumps(member, indent=2)[1:-1].strip("\n")


def merged(raw: bytes | None, entry: dict[str, Any], path: Path) -> bytes:
    try:
        data = current(raw, path)
    except SetupError:
        return _inserted(raw or b"", entry, path)  # comments or trailing commas: added into the text as it is
    data.setdefault("$schema", SCHEMA)
    data.setdefault("mcp", {})[SERVER] = entry
    return json_like(data, raw)


def _inserted(raw: bytes, entry: dict[str, Any], path: Path) -> bytes:
    """The JSONC file with mcp.kg added as a few lines of text, every other byte kept; checked by reading it back.
    Not JSON even with comments allowed: the SetupError of `current`."""
    data, _ = as_opencode_reads(raw, path)
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""  # kept, and out of the JSONC editor's way
    text = raw.decode("utf-8").removeprefix(bom)
    try:
        if SERVER in data.get("mcp", {}):  # an older setup's entry: replaced
            text = jsonc.remove(text, ("mcp", SERVER))
        text = (jsonc.insert(text, ("mcp",), SERVER, entry) if "mcp" in data else
                jsonc.insert(text, (), "mcp", {SERVER: entry}))
        text = bom + text
        out, _ = as_opencode_reads(text.encode(), path)
    except (SetupError, ValueError, StopIteration):
        out = {}
    if out != {**data, "mcp": {**data.get("mcp", {}), SERVER: entry}}:
        raise SetupError(f"{path}: kg setup could not add mcp.{SERVER} to it keeping its comments; left "
                         f"untouched: add it by hand (`kg setup --plan --only opencode` prints it)")
    return text.encode()


def removed(raw: bytes, path: Path, before: bytes | None = None, known: bool = False) -> bytes | None:
    """opencode.json without mcp.kg; None when it holds none. `before`: its bytes before setup, when `known`
    (the record has them): an `mcp` left empty, or the `$schema` setup added, goes only when setup added it.
    A file with comments or trailing commas loses those entries' text alone."""
    data, commented = as_opencode_reads(raw, path)
    servers = data.get("mcp", {})
    if SERVER not in servers:
        return None
    had = _had(before) if known else None
    gone: list[tuple[str, ...]] = [("mcp", SERVER)]
    if len(servers) == 1 and (had is None or "mcp" not in had):
        gone = [("mcp",)]
    if had is not None and "$schema" not in had and data.get("$schema") == SCHEMA:
        gone.append(("$schema",))
    if commented:
        bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
        text = raw.decode("utf-8").removeprefix(bom)
        for where in gone:
            text = jsonc.remove(text, where)
        return (bom + text).encode()
    for where in gone:
        del (data if len(where) == 1 else data[where[0]])[where[-1]]
    return json_like(data, raw)


def _had(before: bytes | None) -> dict[str, Any]:
    """The keys the file had before setup ({} for no file); one that did not read is taken as holding all."""
    try:
        data, _ = as_opencode_reads(before, Path("opencode.json"))
    except SetupError:
        return {"mcp": {}, "$schema": SCHEMA}
    return data


def ours(raw: bytes | None) -> bool:
    return raw is not None and raw.startswith(HEADER.encode())
