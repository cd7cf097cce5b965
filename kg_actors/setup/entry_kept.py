"""What `kg uninstall` does with the MCP server entry named kg in Claude Desktop's, Gemini's and OpenCode's
configs: takes it out when it is kg's (what setup wrote, or kg's `kg mcp` entry the user added to, said with
what they changed), leaves it when the user put an unrelated server of that name in its place (named).
Pure: the entry, what setup writes now and what it wrote (record.json) come in.
"""

from __future__ import annotations

from typing import Any

from .files import argv_said, changes_said, kgs_own


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
