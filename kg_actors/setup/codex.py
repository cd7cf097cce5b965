"""Codex: the same plugin through `codex plugin`, and trust for its hooks.

Codex (0.171) reads a Claude-format plugin (`.claude-plugin/plugin.json`, hooks/hooks.json
with `${CLAUDE_PLUGIN_ROOT}`, `.mcp.json`) from a local marketplace that
`codex plugin marketplace add DIR` records in config.toml; `codex plugin add` copies it to
`$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>`. Codex runs a hook only when
config.toml holds `hooks.state."<hook key>"` with the hook's current hashes: setup asks
Codex itself for them (`codex app-server`, `hooks/list`) and writes them with Codex's own
config writer (`config/batchWrite`), which keeps the user's formatting and comments.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any

from . import SetupError
from .claude import cache_holds
from .files import atomic_write, read_bytes
from .other_plugins import codex_others
from .found import CodexFound
from .plugin import HOOKS_JSON, MARKETPLACE, Rendered

# The hook events Codex knows (its app-server schema, HookEventName), as hooks.json spells them.
EVENTS = ("PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionStart",
          "SessionEnd", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop")
APP_SERVER_TIMEOUT = 60.0


def home(env: dict[str, str], user_home: Path) -> Path:
    return Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else user_home / ".codex"


def config_path(env: dict[str, str], user_home: Path) -> Path:
    return home(env, user_home) / "config.toml"


def _snake(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_keys(plugin: Rendered) -> list[str]:
    """The keys Codex gives the plugin's hooks (`kg-memory@kg-local:hooks/hooks.json:session_start:0:0`)."""
    return [f"{plugin.key}:{HOOKS_JSON}:{_snake(h.event)}:{h.group}:{h.index}" for h in plugin.hooks if h.event in EVENTS]


def unsupported_events(plugin: Rendered) -> list[str]:
    return sorted({h.event for h in plugin.hooks if h.event not in EVENTS})


def read_config(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    raw = read_bytes(path)
    if raw is None:
        return {}, None
    try:
        config = tomllib.loads(raw.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, f"{path}: not valid TOML ({exc}); left untouched: fix or move it, then run kg setup again"
    # The tables setup reads: `plugins = 3` is valid TOML, but no Codex config setup can work with.
    for table in ("marketplaces", "plugins", "hooks"):
        if not isinstance(config.get(table, {}), dict):
            return None, f"{path}: `{table}` is not a table; left untouched: fix or move it, then run kg setup again"
    if not isinstance(config.get("hooks", {}).get("state", {}), dict):
        return None, f"{path}: `hooks.state` is not a table; left untouched: fix or move it, then run kg setup again"
    return config, None


def find(env: dict[str, str], user_home: Path, plugin: Rendered) -> CodexFound:
    cli = shutil.which("codex", path=env.get("PATH"))
    if cli is None:
        return CodexFound(None)
    codex_home = home(env, user_home)
    config, error = read_config(codex_home / "config.toml")
    if error:
        return CodexFound(cli, error)
    assert config is not None  # read_config gives a table or an error
    market = (config.get("marketplaces") or {}).get(MARKETPLACE)
    location = market.get("source") if isinstance(market, dict) else None
    entry: Any = (config.get("plugins") or {}).get(plugin.key)  # any TOML value: `installed` checks it
    installed = isinstance(entry, dict)
    enabled = installed and entry.get("enabled", True) is True
    cache = codex_home / "plugins" / "cache" / MARKETPLACE / plugin.name / plugin.version
    state = (config.get("hooks") or {}).get("state") or {}
    trusted = isinstance(state, dict) and all(isinstance(state.get(k), dict) and state[k].get("trusted_hash")
                                              for k in hook_keys(plugin))
    if trusted and installed:
        trusted = trust_current(cli, env, user_home, plugin)
    servers = config.get("mcp_servers")
    own = f"{codex_home / 'config.toml'}: [mcp_servers.kg]" if isinstance(servers, dict) and "kg" in servers else None
    return CodexFound(cli, None, location, installed, enabled, cache_holds(cache, plugin), trusted, own,
                      codex_others(config, codex_home, plugin.key), servers["kg"] if own and servers else None)


class AppServer:
    """A `codex app-server` over stdio (JSON-RPC, one message a line), for the hook trust calls."""

    def __init__(self, cli: str, env: dict[str, str], cwd: Path):
        self.proc = subprocess.Popen([cli, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        self.next_id = 0
        self.buffer = b""
        self.deadline = time.monotonic() + APP_SERVER_TIMEOUT

    def __enter__(self) -> AppServer:
        self.call("initialize", {"clientInfo": {"name": "kg-setup", "version": "1"}})
        self._send({"method": "initialized"})
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None  # Popen(stdin=PIPE)
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None  # Popen(stdin=PIPE)
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self._send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                if "error" in message:
                    raise SetupError(f"codex app-server {method}: {message['error'].get('message', message['error'])}")
                return message.get("result") or {}

    def read(self) -> dict[str, Any]:
        """The next message: an answer or a notification."""
        assert self.proc.stdout is not None  # Popen(stdout=PIPE)
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = self.deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise SetupError(f"codex app-server did not answer within {APP_SERVER_TIMEOUT:.0f} s")
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise SetupError(f"codex app-server exited ({self.proc.poll()}) before it answered")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            message: dict[str, Any] = json.loads(line)  # JSON-RPC: every message is an object
            return message
        except ValueError:
            return {}

    def plugin_hooks(self, key: str, cwd: Path) -> list[dict[str, Any]]:
        result = self.call("hooks/list", {"cwds": [str(cwd)]})
        hooks, errors = [], []
        for entry in result.get("data", []):
            hooks += [h for h in entry.get("hooks", []) if h.get("pluginId") == key]
            errors += [e for e in entry.get("errors", []) if key.split("@")[0] in str(e.get("path", ""))]
        if errors:
            raise SetupError("Codex cannot load the plugin's hooks: "
                             + "; ".join(f"{e.get('path')}: {e.get('message')}" for e in errors))
        return hooks

    def write_state(self, state: dict[str, Any], strategy: str, path: Path) -> None:
        """Codex's own writer edits `hooks.state` in `path` (config.toml). It can leave a file it no longer reads
        itself (a comment line above an inline entry of the table): then the file is put back as it was."""
        before = read_bytes(path)
        self.call("config/batchWrite", {"edits": [{"keyPath": "hooks.state", "value": state,
                                                   "mergeStrategy": strategy}]})
        _, error = read_config(path)
        if error is None:
            return
        if before is None:
            path.unlink(missing_ok=True)
        else:
            atomic_write(path, before)
        why = error.removeprefix(f"{path}: ").split("; left untouched", 1)[0]
        raise SetupError(f"Codex's config writer left {path} {why}, so it was put back as it was: move the "
                         "comments out of its [hooks.state] table, then run kg setup again")


def set_enabled(cli: str, env: dict[str, str], user_home: Path, key: str, enabled: bool) -> None:
    """`[plugins."KEY"] enabled = ...` in config.toml, as Codex records a disabled plugin (its CLI has no
    disable command), written by Codex's own config writer; a plugin no longer listed there is left out."""
    path = config_path(env, user_home)
    config, error = read_config(path)
    if error:
        raise SetupError(error)
    assert config is not None  # read_config gives a table or an error
    if not isinstance((config.get("plugins") or {}).get(key), dict):
        return
    before = read_bytes(path)
    with AppServer(cli, env, user_home) as server:
        server.call("config/batchWrite", {"edits": [{"keyPath": f"plugins.{json.dumps(key)}.enabled", "value": enabled,
                                                     "mergeStrategy": "replace"}]})
    config, error = read_config(path)
    if error is None and config is not None and config["plugins"].get(key, {}).get("enabled") is enabled:
        return
    if before is not None:
        atomic_write(path, before)
    raise SetupError(f"Codex's config writer did not set plugins.\"{key}\".enabled = {str(enabled).lower()} in "
                     f"{path} (put back as it was): set it there by hand")


def trust_current(cli: str, env: dict[str, str], user_home: Path, plugin: Rendered) -> bool:
    """Whether Codex itself still trusts every hook of the plugin: a trust entry whose hash no longer
    matches (Codex hashes anew after an upgrade, or the entry was edited) is `modified`, and Codex
    skips that hook. Only Codex knows its hash, so ask it (`hooks/list`, ~0.4 s); when it cannot be
    asked, the entries are taken at their word."""
    try:
        with AppServer(cli, env, user_home) as server:
            hooks = server.plugin_hooks(plugin.key, user_home)
    except (SetupError, OSError):
        return True
    return all(h.get("trustStatus") == "trusted" for h in hooks)


def trust(cli: str, env: dict[str, str], user_home: Path, plugin: Rendered) -> int:
    """Trust the plugin's hooks as Codex hashes them now; the number trusted."""
    with AppServer(cli, env, user_home) as server:
        hooks = server.plugin_hooks(plugin.key, user_home)
        if not hooks:
            raise SetupError(f"Codex lists no hook of {plugin.key}: is the plugin installed (codex plugin list)?")
        state = {}
        for hook in hooks:
            trusted_hash, _, content_hash = hook["currentHash"].partition("/")
            state[hook["key"]] = {"trusted_hash": trusted_hash, "trusted_content_hash": content_hash}
        server.write_state(state, "upsert", config_path(env, user_home))
        return len(state)


def untrust(cli: str, env: dict[str, str], user_home: Path, plugin: Rendered, before: bytes | None = None,
            recorded: bool = False) -> None:
    """Drop the trust entries of the plugin's hooks, keeping every other. `before`: the config's bytes before
    setup, when `recorded`; a `[hooks.state]` header it did not hold, which Codex's writer added, goes once
    nothing is under it (with the table too when setup made it and it is empty)."""
    path = config_path(env, user_home)
    config, error = read_config(path)
    if error:
        raise SetupError(error)
    assert config is not None  # read_config gives a table or an error
    state = (config.get("hooks") or {}).get("state") or {}
    kept = {k: v for k, v in state.items() if not k.startswith(f"{plugin.key}:")}
    if kept == state:
        return
    with AppServer(cli, env, user_home) as server:
        server.write_state(kept, "replace", path)
    if not recorded or _has_header(before, "hooks.state"):
        return  # a header the user wrote stays
    raw = read_bytes(path)
    text = without_empty_table(raw.decode(), "hooks.state", drop=not had_trust_table(before)) \
        if raw is not None else None
    if text is not None:
        atomic_write(path, text.encode())


def _has_header(raw: bytes | None, table: str) -> bool:
    return raw is not None and any(line.strip() == f"[{table}]" for line in raw.decode(errors="replace").splitlines())


def had_trust_table(raw: bytes | None) -> bool:
    """Whether a config.toml (its bytes before setup) holds a `hooks.state` table."""
    if raw is None:
        return False
    try:
        config = tomllib.loads(raw.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # cannot tell: taken as the user's
    hooks = config.get("hooks")
    return isinstance(hooks, dict) and "state" in hooks


def without_empty_table(text: str, table: str, drop: bool = True) -> str | None:
    """`text` without the header of `table` when nothing is under it (only blank lines), or None. Checked by
    parsing: the result must hold exactly the same as before (the table's sub-tables still make it), or,
    when `drop`, the same but that table, when it was empty."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if line.strip() == f"[{table}]"), None)
    if at is None:
        return None
    end = at + 1
    while end < len(lines) and not lines[end].strip():
        end += 1
    head = lines[:at]
    if end == len(lines):  # the last table: the blank lines before it went with it
        while head and not head[-1].strip():
            head.pop()
    out = "".join(head + lines[end:])
    try:
        before, after = tomllib.loads(text), tomllib.loads(out)
    except tomllib.TOMLDecodeError:
        return None
    if after == before:
        return out
    *parents, name = table.split(".")
    inner: Any = before
    for part in parents:
        inner = inner.get(part) if isinstance(inner, dict) else None
    if not drop or not isinstance(inner, dict) or inner.get(name) != {}:
        return None
    del inner[name]
    if parents and before.get(parents[0]) == {}:
        del before[parents[0]]  # `[hooks.state]` alone made `hooks`; gone with it
    return out if after == before else None
