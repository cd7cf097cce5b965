"""What Claude Code's CLI leaves in settings.json once kg's plugin and marketplace are removed: the objects
setup's install added, emptied, go; the user's own stay."""

from __future__ import annotations

import json
from pathlib import Path

from kg_actors.setup import claude

PATH = Path("/h/.claude/settings.json")


def test_emptied_objects_setup_added_go_and_the_rest_is_kept():
    now = b'{\n  "model": "sonnet",\n  "enabledPlugins": {},\n  "extraKnownMarketplaces": {}\n}\n'
    out = claude.without_emptied(now, b'{"model": "opus"}', PATH)
    assert out is not None and json.loads(out) == {"model": "sonnet"}
    assert claude.without_emptied(now, None, PATH) is not None  # no file before setup: both were setup's


def test_the_users_own_objects_stay_even_empty_and_objects_still_holding_plugins_stay():
    now = b'{"enabledPlugins": {}, "extraKnownMarketplaces": {"theirs": {}}}'
    assert claude.without_emptied(now, b'{"enabledPlugins": {}}', PATH) is None
    assert claude.without_emptied(now, b"not json", PATH) is None  # what the user had cannot be told: left
