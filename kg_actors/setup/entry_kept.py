"""What `kg uninstall` does with the MCP server entry named kg in Claude Desktop's, Gemini's and OpenCode's
configs: takes it out when it is kg's (what setup wrote, or kg's `kg mcp` entry the user added to, said with
what they changed), leaves it when the user put an unrelated server of that name in its place (named).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import SetupError, desktop, gemini, opencode
from .files import Record, argv_said, changes_said, kgs_own, read_bytes
from .plan import TITLES


def kept(out: Callable[[str], None], record: Record, step: str, path: Path, want: dict[str, Any]) -> bool:
    """Whether the entry named kg in `path` stays at uninstall (not kg's: the user's own server of that name),
    said on `out`, as is what is taken out when it is kg's as the user changed it."""
    raw = read_bytes(path)
    if raw is None:
        return True
    try:
        data = opencode.as_opencode_reads(raw, path)[0] if step == "opencode" else gemini.current(raw, path)
    except SetupError:
        return False  # unreadable: the removal names the file
    key, name = ("mcp", opencode.SERVER) if step == "opencode" else ("mcpServers", desktop.SERVER)
    servers = data.get(key)
    entry = servers.get(name) if isinstance(servers, dict) else None
    take, said = judged(entry, want, record.done(step).get("entry"), f"{path}: {key}.{name}")
    if said:
        out(f"{TITLES.get(step, step)}: {said}")
    return not take and entry is not None


def judged(entry: Any, want: Any, recorded: Any, where: str) -> tuple[bool, str | None]:
    """Whether uninstall takes the entry at `where` out, and what it says of it (None: nothing to say)."""
    if entry is None:
        return False, None
    if entry == want or entry == recorded:
        return True, None
    if kgs_own(entry, want, recorded):
        changed = changes_said(entry, recorded if isinstance(recorded, dict) else want)
        return True, f"{where}: kg's entry, with your changes to it ({changed or 'its command'}), taken out"
    return False, (f"{where}: not kg's (it runs {argv_said(entry)}; you put it there after kg setup): left as it "
                   "is")
