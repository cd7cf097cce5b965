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
# `kg` run as a command (a line's start, after `;`, `&&`, `|`, `(`, `exec`, `env` or variables set; bare or a
# path's last part) and `mcp` as its whole argument: never `kg mcp-bridge`, `my-kg mcp`, `echo starting kg mcp`.
_KG_MCP = re.compile(r"""(?:^|[;&|(]|\bexec\s|\benv\s|\bcommand\s)\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*"""
                     r"""(?:"(?:[^"]*/)?kg"|'(?:[^']*/)?kg'|(?:[^\s;&|'"]*/)?kg)\s+['"]?mcp['"]?(?=$|[\s;&|)>])""")
_SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh"))
# Runners that fetch a package and run its command (`uvx kg-memory mcp`, `pipx run --spec kg-memory kg mcp`), the
# options of theirs that take a value, and the packages whose `mcp` is a kg memory server.
_RUNNERS = {("uvx",): 1, ("uv", "tool", "run"): 3, ("uv", "run"): 2, ("pipx", "run"): 2}
_RUNNER_VALUED = frozenset((
    "--from", "--spec", "--with", "--with-editable", "--with-requirements", "--python", "-p", "--index", "--index-url",
    "--default-index", "--extra-index-url", "-i", "--directory", "--project", "--pip-args", "--cache-dir",
    "--refresh-package", "--reinstall-package", "--upgrade-package", "-P", "--exclude-newer", "--index-strategy",
    "--keyring-provider", "--resolution", "--prerelease", "--config-setting", "-C", "--no-build-package",
    "--no-binary-package", "--link-mode", "--python-platform", "--env-file", "--constraints", "--overrides",
    "--build-constraints", "--find-links", "-f", "--allow-insecure-host", "--with-executables-from", "--package",
    "--extra", "--group", "--only-group", "--no-group", "--config-file", "--color"))
_KG_COMMANDS = frozenset(("kg", "kg-memory", "kg-actors"))  # as package names compare (PEP 503)
_KG_MODULES = frozenset(("kg_actors", "kg_actors.cli", "kg_actors.__main__"))
# Python's options before `-m` that take a value (`-X utf8`, `-W ignore`); the others stand alone (`-u`, `-I`).
_PYTHON_VALUED = frozenset(("-X", "-W", "--check-hash-based-pycs"))
_SEGMENT = re.compile(r"\|\||&&|[;&|\n()]")


@attrs.frozen
class OtherPlugin:
    key: str  # "knowledge-graph@maxim-plugins", as the agent's settings name it
    why: str  # what makes it a kg memory plugin
    servers: tuple[str, ...] = ()  # its MCP servers' names (its tools' permission rules name them)


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


def _without_env(words: list[str]) -> list[str]:
    while words and (os.path.basename(words[0]) in ("env", "exec", "command") or "=" in words[0]):
        words = words[1:]  # env KG_HOME=/x kg mcp
    return words


def _package(word: str) -> str:
    """`kg-memory==0.17.0`, `kg-memory@0.17`, `kg-memory[x]`, `KG.Memory`, `kg_memory` -> `kg-memory` (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.split(r"[@=<>!~\[ ]", word, maxsplit=1)[0].lower())


def _python_module(words: list[str]) -> bool:
    """`python3 [options] -m kg_actors mcp` (`-mkg_actors` too)."""
    rest = words[1:]
    while rest and rest[0].startswith("-") and not rest[0].startswith("-m"):
        rest = rest[2:] if rest[0] in _PYTHON_VALUED else rest[1:]
    if rest and rest[0].startswith("-m") and rest[0] != "-m":
        rest = ["-m", rest[0][2:], *rest[1:]]
    return len(rest) >= 3 and rest[0] == "-m" and rest[1] in _KG_MODULES and rest[2] == "mcp"


def _through_runner(words: list[str]) -> bool:
    """`uvx [opts] kg-memory mcp`, `pipx run --spec kg-memory kg mcp`, `uv run python -m kg_actors mcp`,
    `python3 -u -m kg_actors mcp`."""
    program = os.path.basename(words[0]) if words else ""
    if re.fullmatch(r"python[0-9.]*", program):
        return _python_module(words)
    if program == "uv":  # uv's own options before its command (`uv --directory /src/kg run kg mcp`)
        head = words[1:]
        while head and head[0].startswith("-"):
            head = head[2:] if head[0] in _RUNNER_VALUED else head[1:]
        words = [words[0], *head]
    taken = next((n for run, n in _RUNNERS.items() if (program, *words[1:len(run)]) == run), 0)
    if not taken:
        return False
    rest = words[taken:]
    while rest and rest[0].startswith("-"):  # the runner's own options, up to the command it runs
        rest = rest[2:] if rest[0] in _RUNNER_VALUED else rest[1:]
    if rest and re.fullmatch(r"python[0-9.]*", os.path.basename(rest[0])):
        return _python_module(rest)
    return len(rest) >= 2 and _package(os.path.basename(rest[0])) in _KG_COMMANDS and rest[1] == "mcp"


def _script_runs_through_runner(script: str) -> bool:
    for segment in _SEGMENT.split(script):
        try:
            words = shlex.split(segment, comments=True)
        except ValueError:
            continue
        if _through_runner(_without_env(words)):
            return True
    return False


def runs_kg_mcp(server: object) -> bool:
    """An MCP server entry that runs `kg mcp`: as its argv (`/x/kg mcp`, `uvx kg-memory mcp`) or inside a shell line
    (`sh -c "... kg mcp"`)."""
    words = _without_env(_argv_words(server))
    if len(words) >= 2 and os.path.basename(words[0]) == "kg" and words[1] == "mcp":
        return True
    if words and (_KG_MCP.search(words[0]) or _script_runs_through_runner(words[0])):  # a whole command line
        return True
    if _through_runner(words):
        return True
    # A shell's script only (`sh -c "exec kg mcp"`): a plain argument that says "kg mcp" runs nothing.
    scripts = [words[i + 1] for i in range(1, len(words) - 1) if words[i].startswith("-") and "c" in words[i]]
    return bool(words) and os.path.basename(words[0]) in _SHELLS and any(
        _KG_MCP.search(s) or _script_runs_through_runner(s) for s in scripts)


def reaches_kg_memory(server: object, ports: frozenset[int]) -> bool:
    """A Claude Desktop entry of an older kg-memory (the reference, <=0.11): its bridge script
    (`kg-desktop-bridge [npx]`), or `npx [-y] mcp-remote http://127.0.0.1:PORT/` straight to a memory server
    on this machine at one of `ports` (kg's, kg-memory's default). Another local server's port is not kg's."""
    import urllib.parse

    words = _without_env(_argv_words(server))
    if words and os.path.basename(words[0]) == "kg-desktop-bridge":
        return True
    if "mcp-remote" not in [_package(os.path.basename(w)) for w in words]:
        return False
    for word in words:
        url = urllib.parse.urlsplit(word)
        try:
            port = url.port
        except ValueError:
            continue
        if url.scheme in ("http", "https") and url.hostname in ("127.0.0.1", "localhost") and port in ports:
            return True
    return False


def _other(key: str, folder: Path) -> OtherPlugin | None:
    """The installed plugin in `folder` when it is a kg memory plugin (None: it is not, or cannot be read)."""
    manifest = _read_json(folder / ".claude-plugin" / "plugin.json")
    mcp = _read_json(folder / ".mcp.json")
    servers = mcp.get("mcpServers") if isinstance(mcp, dict) else None
    servers = servers if isinstance(servers, dict) else {}
    names = tuple(sorted(str(n) for n in servers))
    if isinstance(manifest, dict) and manifest.get("name") == KG_MEMORY_NAME:
        version = manifest.get("version")
        return OtherPlugin(key, f"kg-memory {version}'s plugin" if isinstance(version, str) else "kg-memory's plugin",
                           names)
    for name, server in sorted(servers.items()):
        if runs_kg_mcp(server):
            return OtherPlugin(key, f"its MCP server {name} runs `{shlex.join(_argv_words(server))[:80]}`", names)
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
        found = next((o for f in folders if (o := _other(key, f))), None)
        if found:
            out.append(found)
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
        found = next((o for f in folders if (o := _other(key, f))), None)
        if found:
            out.append(found)
    return tuple(out)


def name_shared(settings: dict[str, Any] | None, other: OtherPlugin, leaving: set[str]) -> list[str]:
    """The plugins enabled in Claude Code's settings, other than those setup disables (`leaving`), named as
    `other` is (another marketplace's): its tools' permission rules would be theirs too."""
    enabled = (settings or {}).get("enabledPlugins")
    name = other.key.partition("@")[0]
    return sorted(key for key, on in (enabled.items() if isinstance(enabled, dict) else ())
                  if on is True and key not in leaving and key != other.key and key.partition("@")[0] == name)


def permissions_of(settings: dict[str, Any] | None, other: OtherPlugin, own_key: str,
                   leaving: set[str] | None = None) -> list[str]:
    """Claude Code's permission rules (permissions.allow) for the tools of `other`'s MCP servers, which name
    the plugin and server (`mcp__plugin_knowledge-graph_kg__kg_read`); none when its name is ours or that of
    a plugin staying enabled (`leaving`: the plugins setup disables), as they could be that one's."""
    name = other.key.partition("@")[0]
    perms = (settings or {}).get("permissions")
    allow = perms.get("allow") if isinstance(perms, dict) else None
    if name == own_key.partition("@")[0] or not isinstance(allow, list) \
            or name_shared(settings, other, leaving or {other.key}):
        return []
    prefixes = [f"mcp__plugin_{name}_{server}" for server in other.servers]
    return [rule for rule in allow if isinstance(rule, str)
            and any(rule == p or rule.startswith(p + "__") for p in prefixes)]


def rules_of_installed(rules: list[str], back: list[str], gone: list[str]) -> list[str]:
    """Of the permission rules setup took out, those to put back: none naming a plugin uninstalled since
    (`gone`) unless one enabled again (`back`) has its name."""
    names = {k.partition("@")[0] for k in gone} - {k.partition("@")[0] for k in back}
    return [rule for rule in rules if not any(rule.startswith(f"mcp__plugin_{name}_") for name in names)]


def installed_keys(installed: dict[str, Any] | None) -> frozenset[str] | None:
    """The plugins Claude Code's installed_plugins.json holds a copy of (None: it cannot be read)."""
    plugins = (installed or {}).get("plugins", {})  # no file, or none yet: nothing installed
    if installed is None or not isinstance(plugins, dict):
        return None
    return frozenset(key for key, entries in plugins.items() if isinstance(entries, list) and any(
        isinstance(e, dict) and isinstance(e.get("installPath"), str) and e["installPath"]
        and Path(e["installPath"]).is_dir() for e in entries))


def without_rules(data: dict[str, Any], rules: list[str]) -> dict[str, Any]:
    """Claude Code's settings without `rules` in permissions.allow (the rest as it was)."""
    allow = data["permissions"]["allow"]
    data["permissions"]["allow"] = [rule for rule in allow if rule not in rules]
    return data


def with_rules(data: dict[str, Any], rules: list[str]) -> dict[str, Any]:
    """Claude Code's settings with `rules` in permissions.allow again (each once)."""
    perms = data.setdefault("permissions", {})
    if not isinstance(perms, dict):
        return data
    allow = perms.setdefault("allow", [])
    if isinstance(allow, list):
        allow += [rule for rule in rules if rule not in allow]
    return data


def doubled(agent: str, other: OtherPlugin) -> str:
    """What an enabled other kg memory plugin does beside ours, said once for setup and doctor."""
    return (f"another kg memory plugin is enabled in {agent}: {other.key} ({other.why}); its hooks and kg tools run "
            "beside kg's (every hook twice, two kg MCP servers)")
