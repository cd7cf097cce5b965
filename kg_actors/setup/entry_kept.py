"""What `kg uninstall` does with the MCP server entry named kg in Claude Desktop's, Gemini's and OpenCode's
configs: takes it out when setup put it there (what setup wrote, or kg's `kg mcp` entry the user added to
since, said with what they added), leaves it when it was there before setup (setup kept the user's own) or
when the user put an unrelated server of that name in its place (each said).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import SetupError, desktop, gemini, opencode
from .files import Record, argv_said, changes_said, kgs_own, read_bytes
from .plan import TITLES


def kept(out: Callable[[str], None], record: Record, step: str, path: Path, want: dict[str, Any]) -> bool:
    """Whether the entry named kg in `path` stays at uninstall (the user's: there before setup, or another
    server of that name), said on `out`, as is what is taken out when it is kg's as the user changed it."""
    raw = read_bytes(path)
    if raw is None:
        return True
    try:
        entry = _entry(raw, path, step)
    except SetupError:
        return False  # unreadable: the removal names the file
    key = "mcp" if step == "opencode" else "mcpServers"
    take, said = judged(entry, want, record.done(step).get("entry"), f"{path}: {key}.{_name(step)}",
                        _before(record, step, path))
    if said:
        out(f"{TITLES.get(step, step)}: {said}")
    return not take and entry is not None


def _name(step: str) -> str:
    return opencode.SERVER if step == "opencode" else desktop.SERVER


def _entry(raw: bytes | None, path: Path, step: str) -> Any:
    data = opencode.as_opencode_reads(raw, path)[0] if step == "opencode" else gemini.current(raw, path)
    servers = data.get("mcp" if step == "opencode" else "mcpServers")
    return servers.get(_name(step)) if isinstance(servers, dict) else None


def _before(record: Record, step: str, path: Path) -> Any:
    """The entry named kg the file held before setup first changed it (None: none, or not on record)."""
    before = record.files().get(path, (None, None))[0]
    try:
        return _entry(before, path, step) if before else None
    except SetupError:
        return None


def judged(entry: Any, want: Any, recorded: Any, where: str, before: Any = None) -> tuple[bool, str | None]:
    """Whether uninstall takes the entry at `where` out, and what it says of it (None: nothing to say).
    `before`: the entry there before setup, which setup kept (the user's own kg entry): it stays."""
    if entry is None:
        return False, None
    if before is not None and entry == before:
        return False, f"{where}: yours, there before kg setup: left as it was"
    if before is not None:
        return False, f"{where}: yours, there before kg setup, changed since: left as it is"
    if entry == want or entry == recorded:
        return True, None
    if kgs_own(entry, want, recorded):
        changed = changes_said(entry, recorded if isinstance(recorded, dict) else want)
        return True, f"{where}: kg's entry, with your changes to it ({changed or 'its command'}), taken out"
    return False, (f"{where}: not kg's (it runs {argv_said(entry)}; you put it there after kg setup): left as it "
                   "is")
