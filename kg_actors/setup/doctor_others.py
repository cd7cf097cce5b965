"""`kg doctor`'s read of another kg memory (kg-memory's plugin or Claude Desktop server) beside kg's: a
failure only where kg's own wiring is there too, as only then does every hook or kg tool run twice."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import attrs

from . import claude
from .files import foreign_entry
from .other_plugins import claude_others, doubled
from .found import Found
from .plan import Step

OTHERS_KINDS = ("disable_other", "claude_drop_rules", "desktop_drop_other")  # undoing another kg memory's wiring


class Says(Protocol):
    def bad(self, what: str, said: str, fix: str) -> None: ...

    def note(self, what: str, said: str) -> None: ...


def kg_wired(agent: str, found: Found) -> bool:
    """Whether kg's own plugin or server is in that agent now (enabled, or kg's entry)."""
    if agent == "desktop":
        d = found.desktop
        return d.entry is not None and not foreign_entry(d.entry, found.desktop_entry, d.ours)
    c = found.claude if agent == "claude" else found.codex
    return c.installed and c.enabled


def without_others(r: Says, step: Step, found: Found, codex_config: Path) -> Step:
    """Fails each other kg memory plugin or server the agent runs beside kg's (notes one where kg is not
    wired); the step as if there were none."""
    for action in step.actions:
        if action.kind == "disable_other":
            agent, _cli, key = action.argv
            c = found.claude if agent == "claude" else found.codex
            by_hand = (f"`claude plugin disable {shlex.quote(key)}`" if agent == "claude" else
                       f"`enabled = false` under [plugins.\"{key}\"] in {codex_config}")
            for other in (o for o in c.others if o.key == key):
                said = doubled(step.title, other)
                if kg_wired(agent, found):
                    r.bad(step.title, said, f"kg setup --only {agent} (it disables it), or {by_hand}")
                else:
                    r.note(step.title, said.split("; ")[0] + "; kg is not wired here, so nothing runs twice")
        elif action.kind == "desktop_drop_other":
            said = f"another kg memory server is in {action.path}: mcpServers.{action.argv[0]} runs a kg MCP server"
            if kg_wired("desktop", found):
                r.bad(step.title, f"{said} beside kg's (every kg tool twice)",
                      "kg setup --only desktop (it removes it; kg uninstall puts it back), or take it out of that file")
            else:
                r.note(step.title, f"{said}; kg's is not there, so no kg tool is doubled")
    rest = tuple(a for a in step.actions if a.kind not in OTHERS_KINDS)
    if len(rest) == len(step.actions):
        return step
    return attrs.evolve(step, actions=rest, note=step.note or ("" if rest else "up to date"))


def project_folders(cwd: Path) -> list[Path]:
    """The folder doctor runs in and, when inside a git work tree, its top (where Claude Code keeps a project's
    .claude settings)."""
    for folder in (cwd, *cwd.parents):
        if (folder / ".git").exists():
            return [cwd] if folder == cwd else [cwd, folder]
    return [cwd]


def project_others(cwd: Path, env: dict[str, str], home: Path, own_key: str) -> list[tuple[str, str]]:
    """Each other kg memory plugin a project's own Claude Code settings enable (`claude plugin install --scope
    project`), as (what enables it, the command that disables it there); setup disables plugins for the user only."""
    installed, error = claude.read_json_object(claude.config_dir(env, home) / "plugins" / "installed_plugins.json")
    if error or not installed:
        return []
    out = []
    for folder in project_folders(cwd):
        # Claude Code reads settings.local.json over settings.json: a plugin the one enables, the other may disable.
        paths = {scope: folder / ".claude" / name for name, scope in (("settings.json", "project"),
                                                                      ("settings.local.json", "local"))}
        enabled: dict[str, dict[str, object]] = {}
        for scope, path in paths.items():
            settings, _ = claude.read_json_object(path) if path.is_file() else ({}, None)
            plugins = (settings or {}).get("enabledPlugins")
            enabled[scope] = plugins if isinstance(plugins, dict) else {}
        merged = {"enabledPlugins": {**enabled["project"], **enabled["local"]}}
        for other in claude_others(merged, installed, own_key):
            scope = "local" if other.key in enabled["local"] else "project"
            out.append((f"another kg memory plugin is enabled in this project by {paths[scope]}: {other.key} "
                        f"({other.why})", f"cd {shlex.quote(str(folder))} && claude plugin disable "
                        f"{shlex.quote(other.key)} --scope {scope}"))
    return out


def check_project_plugins(r: Says, cwd: Path, env: dict[str, str], home: Path, own_key: str, wired: bool) -> None:
    for said, fix in project_others(cwd, env, home, own_key):
        if wired:
            r.bad("Claude Code", f"{said}; its hooks and kg tools run beside kg's here (every hook twice)",
                  f"{fix} (kg setup disables plugins for the user only)")
        else:
            r.note("Claude Code", f"{said}; kg is not wired in Claude Code, so nothing runs twice ({fix} turns it off)")


def here() -> Path | None:
    try:
        return Path(os.getcwd())
    except OSError:  # the folder kg runs in was deleted
        return None


def say_project_others(out: Callable[[str], None], env: dict[str, str], home: Path, own_key: str,
                       steps: list[Step]) -> None:
    """Setup (or its plan) for Claude Code says each other kg memory plugin a project enables: left on there."""
    cwd = here()
    if cwd is None or not any(s.name == "claude" for s in steps):
        return
    for said, fix in project_others(cwd, env, home, own_key):
        out(f"Claude Code: {said}; kg setup disables plugins for the user only, so it stays on in this project: "
            f"run `{fix}`")
