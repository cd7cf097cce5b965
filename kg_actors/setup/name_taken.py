"""What setup and doctor say of an agent's MCP server entry named kg that another program owns (its user's
own server that happens to share the name): pure, no I/O.

kg's tools are reached under the name kg in every agent, so while that name is taken kg's are not set up
there. The way out is a rename of the user's entry: removing it would lose their server.
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Any

from .files import argv_said
from .other_plugins import runs_kg_mcp

# What starts another program rather than being it: the name to suggest is the program's own.
_LAUNCHERS = {"npx", "bunx", "pnpx", "uvx", "pipx", "node", "deno", "bun", "python", "python3", "uv", "run",
              "exec", "dlx", "pnpm", "yarn", "npm", "docker", "podman", "env", "sh", "bash"}


def another_programs(entry: object) -> bool:
    """An entry named kg that runs no kg memory's `kg mcp` in any install (a URL, `npx some-server`, ...): a
    kg one (an old path, kg-memory's) is a kg server the plugin's doubles, and taking it out loses nothing."""
    return entry is not None and not runs_kg_mcp(entry)


def runs(entry: Any) -> str:
    """What the entry starts or reaches, as a user would recognize it."""
    if isinstance(entry, dict) and isinstance(entry.get("url") or entry.get("httpUrl"), str):
        return f"it reaches {entry.get('url') or entry.get('httpUrl')}"
    return f"it runs `{argv_said(entry)}`"


def suggested(entry: Any) -> str:
    """A name for the user's entry that says what it runs ("some-other-kg-server" for `npx -y
    some-other-kg-server`); never kg."""
    words = shlex.split(argv_said(entry)) if isinstance(entry, dict) else []
    for word in words:
        name = os.path.basename(word.rstrip("/")).lower()
        name = re.sub(r"@[^@]*$", "", name) if not name.startswith("@") else name  # a pinned version
        name = re.sub(r"\.(js|mjs|cjs|ts|py|exe)$", "", name)
        name = re.sub(r"[^a-z0-9_-]+", "-", name).strip("-")
        if name and not word.startswith("-") and name not in _LAUNCHERS and name != "kg":
            return name
    return "other-kg"


def note(title: str, where: str, entry: Any, rename: str) -> str:
    """Setup's words: what the entry is, what that means for kg, what to do (`rename`: how, in that file)."""
    return (f"{where} is another program's MCP server named kg ({runs(entry)}), not kg's: left untouched, and kg's "
            f"tools are not set up for {title} while it holds that name (kg's server must be named kg). Rename "
            f"yours, {rename}, then run kg setup again")


def rename_json(entry: Any) -> str:
    return f'e.g. to "{suggested(entry)}"'


def rename_codex(entry: Any) -> str:
    name = suggested(entry)
    return f"e.g. [mcp_servers.kg] to [mcp_servers.{name}] (any [mcp_servers.kg.env] table with it)"


def rename_claude(entry: Any) -> str:
    return f'e.g. to "{suggested(entry)}", with Claude Code closed (it rewrites that file)'


def fix(step: str, rename: str) -> str:
    """Doctor's fix line (the note above it names the file)."""
    return f"rename that server of yours, {rename}; then kg setup --only {step}"
