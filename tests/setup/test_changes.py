"""What changed since setup wired an agent, as `kg doctor` says it (setup/changes.py): pure."""

from __future__ import annotations

from pathlib import Path

from kg_actors.setup.changes import what_changed
from kg_actors.setup.plan import ClaudeFound, CodexFound, DesktopFound, Found

MDIR = Path("/s/setup/marketplace")


def found(**kw) -> Found:
    base = dict(marketplace_dir=MDIR, marketplace_current=True, plugin_key="kg-memory@kg-local", desktop_entry={},
                claude=ClaudeFound("/bin/claude", marketplace=str(MDIR), installed=True, enabled=True,
                                   cache_current=True),
                codex=CodexFound("/bin/codex", marketplace=str(MDIR), installed=True, enabled=True,
                                 cache_current=True, trusted=True),
                desktop=DesktopFound(Path("/h/c.json"), entry={"command": "mine"}))
    return Found(**{**base, **kw})


def test_each_difference_from_what_setup_left_is_named():
    disabled = found(claude=ClaudeFound("/bin/claude", marketplace=str(MDIR), installed=True, cache_current=True))
    assert what_changed("claude", disabled) == "the plugin kg-memory@kg-local is disabled"
    moved = found(marketplace_current=False, codex=CodexFound("/bin/codex", marketplace="/old", cache_current=True))
    assert what_changed("codex", moved) == (
        f"the plugin files in {MDIR} are not this kg's (kg was upgraded, or they were edited or removed); "
        f"the kg-local marketplace points at /old, not {MDIR}; the plugin kg-memory@kg-local is no longer installed; "
        "Codex no longer trusts the hooks of kg-memory@kg-local (it runs no untrusted hook)")
    assert what_changed("desktop", found()) == "mcpServers.kg in /h/c.json is not the entry setup wrote"
