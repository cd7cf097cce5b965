"""The plugin setup installs: found in the installed package, rendered for this machine.

One plugin serves Claude Code and Codex alike: both read `.claude-plugin/plugin.json`,
load `hooks/hooks.json` by convention (with `${CLAUDE_PLUGIN_ROOT}` set), and take
MCP servers from `.mcp.json`. Rendering makes two changes to the shipped files:
`.mcp.json` runs the absolute path of this `kg` (it need not be on PATH), and
`hooks/kg_env` tells the hooks the same, so SessionStart can start the server.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import attrs

from .. import __version__
from . import SetupError

MARKETPLACE = "kg-local"
MANIFEST = ".claude-plugin/plugin.json"
HOOKS_JSON = "hooks/hooks.json"
MCP_JSON = ".mcp.json"
KG_ENV = "hooks/kg_env"
AGY_DIR = "harnesses/antigravity"  # Antigravity's native plugin (its hooks differ), installed with `agy plugin install`
AGY_MCP = AGY_DIR + "/mcp_config.json"
# Only these are passed on to the installed hooks and shim: where the store is and which port.
PASSED_ENV = ("KG_HOME", "KG_HTTP_PORT", "KG_EDITOR_PORT")
_SCRIPT = re.compile(r"\$\{?CLAUDE_PLUGIN_ROOT\}?/(hooks/[A-Za-z0-9_.-]+)")


def plugin_source() -> Path:
    """The plugin files of this installation: shipped in the package, or the checkout an editable install runs from."""
    package = Path(__file__).resolve().parent.parent
    for root in (package / "plugin", package.parent):
        if (root / MANIFEST).is_file() and (root / HOOKS_JSON).is_file():
            return root
    raise SetupError(f"the plugin files are missing from {package / 'plugin'}: reinstall kg-actors (pip install .)")


def kg_command() -> list[str]:
    """How to run this installation's `kg`, by absolute path: the script beside the interpreter, else `python -m`."""
    script = Path(sys.executable).with_name("kg")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-P", "-m", "kg_actors"]


@attrs.frozen
class HookEntry:
    event: str  # as hooks.json names it: "SessionStart"
    group: int
    index: int
    command: str
    script: str | None  # "hooks/session_start.sh" when the command runs one of the plugin's scripts


def hook_entries(hooks_json: object, where: str = HOOKS_JSON) -> list[HookEntry]:
    """Every command hook in a hooks.json, in order; a shape other than Claude Code's is an error naming the file."""
    events = hooks_json.get("hooks") if isinstance(hooks_json, dict) else None
    if not isinstance(events, dict):
        raise SetupError(f"{where}: expected an object with a \"hooks\" object of events")
    found = []
    for event, groups in events.items():
        if not isinstance(groups, list):
            raise SetupError(f"{where}: hooks.{event} must be a list of matcher groups")
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                raise SetupError(f"{where}: hooks.{event}[{g}].hooks must be a list")
            for i, handler in enumerate(handlers):
                if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
                    raise SetupError(f"{where}: hooks.{event}[{g}].hooks[{i}] needs a \"command\" string")
                m = _SCRIPT.search(handler["command"])
                found.append(HookEntry(event, g, i, handler["command"], m.group(1) if m else None))
    return found


@attrs.frozen
class Rendered:
    name: str
    version: str
    files: dict[str, tuple[bytes, int]]  # relative path -> (bytes, mode)
    hooks: tuple[HookEntry, ...]  # in hooks.json order

    @property
    def key(self) -> str:
        return f"{self.name}@{MARKETPLACE}"

    def contents(self) -> dict[str, bytes]:
        return {rel: data for rel, (data, _mode) in self.files.items()}


def _json(data: object) -> bytes:
    return (json.dumps(data, indent=2) + "\n").encode()


def render(source: Path, command: list[str], env: dict[str, str]) -> Rendered:
    """The plugin folder's files for this machine (pure apart from reading `source`)."""
    try:
        manifest = json.loads((source / MANIFEST).read_text())
        hooks_json = json.loads((source / HOOKS_JSON).read_text())
        mcp = json.loads((source / MCP_JSON).read_text())
    except (OSError, ValueError) as exc:
        raise SetupError(f"the plugin in {source} cannot be read: {exc}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("name"), str):
        raise SetupError(f"{source / MANIFEST}: needs a \"name\"")
    hooks = hook_entries(hooks_json, str(source / HOOKS_JSON))
    for hook in hooks:
        if hook.script and not (source / hook.script).is_file():
            raise SetupError(f"{source / HOOKS_JSON}: {hook.event} runs {hook.script}, which is missing")
    # hooks/hooks.json is loaded by convention: naming it again in the manifest is a duplicate (a load error).
    if manifest.get("hooks") in (HOOKS_JSON, "./" + HOOKS_JSON):
        manifest = {k: v for k, v in manifest.items() if k != "hooks"}
    servers = mcp.get("mcpServers") if isinstance(mcp, dict) else None
    if not isinstance(servers, dict):
        raise SetupError(f"{source / MCP_JSON}: expected an \"mcpServers\" object")
    rendered_servers = _servers(servers, command, env)
    files: dict[str, tuple[bytes, int]] = {}
    for folder in ("hooks", "skills", "harnesses"):
        for path in sorted((source / folder).rglob("*")):
            rel = path.relative_to(source).as_posix()
            if path.is_file() and "__pycache__" not in rel and not rel.endswith("/kg_env"):
                executable = path.suffix == ".sh"
                files[rel] = (path.read_bytes(), 0o755 if executable else 0o644)
    files[MANIFEST] = (_json(manifest), 0o644)
    files[MCP_JSON] = (_json({"mcpServers": rendered_servers}), 0o644)
    lines = ["# Written by kg setup: the kg of this installation, for hooks that run without it on PATH."]
    bin_path = command[0] if len(command) == 1 else None
    if bin_path:
        lines.append(f"[ -n \"${{KG_BIN:-}}\" ] || KG_BIN={shlex.quote(bin_path)}")
    # A value the harness's environment already holds wins over the one setup saw.
    lines += [f"[ -n \"${{{k}:-}}\" ] || {k}={shlex.quote(v)}" for k, v in env.items()]
    if env:  # `kg start` from SessionStart must see them too
        lines.append("export " + " ".join(env))
    files[KG_ENV] = (("\n".join(lines) + "\n").encode(), 0o644)
    if AGY_MCP in files:  # Antigravity's own package: the same kg, and its hooks' kg_env beside them
        agy = json.loads(files[AGY_MCP][0])
        files[AGY_MCP] = (_json({"mcpServers": _servers(agy.get("mcpServers", {}), command, env)}), 0o644)
        files[AGY_DIR + "/hooks/kg_env"] = files[KG_ENV]
    version = str(manifest.get("version") or __version__)
    return Rendered(manifest["name"], version, files, tuple(hooks))


def _servers(servers: dict[str, Any], command: list[str], env: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, server in servers.items():
        server = dict(server)
        if server.get("command") == "kg":  # the template's bare `kg`: this installation's, by absolute path
            server["command"], server["args"] = command[0], [*command[1:], *server.get("args", [])]
            if env:
                server["env"] = {**server.get("env", {}), **env}
        out[name] = server
    return out


def marketplace_files(plugin: Rendered) -> dict[str, tuple[bytes, int]]:
    """A local marketplace holding the one plugin under `./<name>`: the form both CLIs add from a path."""
    catalog = {
        "name": MARKETPLACE,
        "owner": {"name": "kg_actors"},
        "description": "kg memory, installed on this machine by `kg setup`",
        "plugins": [{"name": plugin.name, "source": f"./{plugin.name}", "version": plugin.version,
                     "description": "Shared, persistent knowledge-graph memory for coding agents"}],
    }
    files = {".claude-plugin/marketplace.json": (_json(catalog), 0o644)}
    files.update({f"{plugin.name}/{rel}": v for rel, v in plugin.files.items()})
    return files


def passed_env(environ: dict[str, str]) -> dict[str, str]:
    """The store and ports set where setup runs, so the harnesses reach the same server (a home-relative store made absolute)."""
    env = {k: environ[k] for k in PASSED_ENV if environ.get(k)}
    if "KG_HOME" in env:
        env["KG_HOME"] = str(Path(os.path.expanduser(env["KG_HOME"])).resolve())
    return env
