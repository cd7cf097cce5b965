"""`kg setup` against agents' settings files it reads but must not rewrite, or that are empty: what it installs
all the same, and the entries it prints for the user to add by hand."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from e2e_helpers import kg

from kg_actors.testing import free_port

OPENCODE_JSONC = """{
  // opencode allows comments (JSONC)
  "$schema": "https://opencode.ai/config.json",
  "mcp": {"other": {"type": "local", "command": ["/usr/bin/true"]}},
}
"""


@pytest.fixture
def env(tmp_path) -> dict:
    home = tmp_path / "home"
    home.mkdir()
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
                KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600")


def _printed_entry(out: str, config: Path) -> dict:
    """The `"kg": {...}` setup printed for the user to paste into the "mcp" object of `config`."""
    said = (f"  ({config} holds comments or trailing commas, which setup's rewrite would lose: add this to its "
            '"mcp" object by hand)\n')
    assert said in out, out
    fragment = out.split(said, 1)[1]
    end = fragment.index("\n  }\n") + len("\n  }")  # the member ends where its object closes at its own indent
    return json.loads("{" + fragment[:end] + "}")["kg"]


def test_an_opencode_config_with_comments_gets_the_plugin_and_the_entry_to_paste(env, tmp_path):
    # Setup skipped OpenCode whole: no plugin (which does not depend on that file), and no word of what to add.
    config = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text(OPENCODE_JSONC)
    setup = kg(["setup", "--only", "opencode", "--yes"], env)
    plugin = config.parent / "plugin" / "kg-memory.js"
    assert setup.returncode == 1, setup.stdout
    assert f"OpenCode: FAILED: the kg-memory plugin is in {plugin.parent}, but {config} holds comments" \
        in setup.stdout, setup.stdout
    assert plugin.read_text().startswith("// kg memory for OpenCode") and config.read_text() == OPENCODE_JSONC
    entry = _printed_entry(setup.stdout, config)
    assert entry["type"] == "local" and entry["command"][-1] == "mcp"
    plan = kg(["setup", "--plan", "--only", "opencode"], env)
    assert _printed_entry(plan.stdout, config) == entry and "(plan only: nothing was changed)" in plan.stdout
    doctor = kg(["doctor"], env)
    assert f"FAIL  OpenCode: {config} holds comments or trailing commas" in doctor.stdout, doctor.stdout

    pasted = OPENCODE_JSONC.replace('"mcp": {', '"mcp": {\n    // added by hand\n    "kg": ' + json.dumps(entry) + ",")
    config.write_text(pasted)
    again = kg(["setup", "--only", "opencode", "--yes"], env)
    assert again.returncode == 0 and "OpenCode: up to date" in again.stdout, again.stdout
    assert "ok    OpenCode" in kg(["doctor"], env).stdout
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0, out.stdout
    assert not plugin.exists() and config.read_text() == pasted  # their file, as they wrote it


def test_an_opencode_config_that_is_no_json_even_with_comments_allowed_is_left_whole(env, tmp_path):
    config = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text('{"model": "x", "mcp": [1, 2,}')
    setup = kg(["setup", "--only", "opencode", "--yes"], env)
    assert setup.returncode == 1 and f"OpenCode: PROBLEM: {config}: not valid JSON" in setup.stdout, setup.stdout
    assert not (config.parent / "plugin").exists() and "by hand)\n" not in setup.stdout
