"""The plugin setup installs, rendered from a plugin folder: what it changes and what it keeps."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kg_actors.setup import SetupError
from kg_actors.setup.codex import hook_keys, unsupported_events
from kg_actors.setup.plugin import hook_entries, marketplace_files, plugin_source, render

KG = ["/opt/kg/bin/kg"]


def make_plugin(root: Path, hooks: dict) -> Path:
    (root / ".claude-plugin").mkdir(parents=True)
    (root / "hooks").mkdir()
    (root / "skills" / "s").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(
        {"name": "kg-memory", "version": "9.9.9", "hooks": "./hooks/hooks.json", "mcpServers": "./.mcp.json"}))
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"kg": {"command": "kg", "args": ["mcp"]}}}))
    (root / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    (root / "skills" / "s" / "SKILL.md").write_text("---\nname: s\n---\n")
    for group in hooks.values():
        for g in group:
            for h in g["hooks"]:
                name = h["command"].split("/hooks/")[1].rstrip('"')
                (root / "hooks" / name).write_text("#!/bin/sh\nexit 0\n")
    return root


def cmd(script: str) -> dict:
    return {"type": "command", "command": f'sh "${{CLAUDE_PLUGIN_ROOT}}/hooks/{script}"'}


HOOKS = {
    "SessionStart": [{"hooks": [cmd("start.sh")]}],
    "PreToolUse": [{"matcher": "Bash", "hooks": [cmd("pre.sh")]}],
    "Notification": [{"hooks": [cmd("note.sh")]}],
}


def test_whatever_hooks_json_holds_is_installed_and_keyed_for_codex(tmp_path):
    plugin = render(make_plugin(tmp_path / "p", HOOKS), KG, {})
    assert {"hooks/start.sh", "hooks/pre.sh", "hooks/note.sh", "hooks/hooks.json", "skills/s/SKILL.md"} <= set(plugin.files)
    assert plugin.files["hooks/pre.sh"][1] == 0o755
    assert hook_keys(plugin) == ["kg-memory@kg-local:hooks/hooks.json:session_start:0:0",
                                 "kg-memory@kg-local:hooks/hooks.json:pre_tool_use:0:0"]
    assert unsupported_events(plugin) == ["Notification"]


def test_the_manifest_loses_the_duplicate_hooks_entry_and_mcp_gets_the_absolute_kg(tmp_path):
    plugin = render(make_plugin(tmp_path / "p", HOOKS), KG, {"KG_HOME": "/store"})
    manifest = json.loads(plugin.files[".claude-plugin/plugin.json"][0])
    assert "hooks" not in manifest and manifest["version"] == "9.9.9"
    server = json.loads(plugin.files[".mcp.json"][0])["mcpServers"]["kg"]
    assert server == {"command": "/opt/kg/bin/kg", "args": ["mcp"], "env": {"KG_HOME": "/store"}}


def test_without_a_kg_script_the_shim_runs_through_the_interpreter(tmp_path):
    plugin = render(make_plugin(tmp_path / "p", HOOKS), ["/py/bin/python3", "-m", "kg_actors"], {})
    server = json.loads(plugin.files[".mcp.json"][0])["mcpServers"]["kg"]
    assert server == {"command": "/py/bin/python3", "args": ["-m", "kg_actors", "mcp"]}
    assert b"KG_BIN" not in plugin.files["hooks/kg_env"][0]


def test_kg_env_is_sourced_by_sh_and_an_environment_value_wins(tmp_path):
    plugin = render(make_plugin(tmp_path / "p", HOOKS), ["/opt/kg bin/kg"], {"KG_HTTP_PORT": "9999"})
    env_file = tmp_path / "kg_env"
    env_file.write_bytes(plugin.files["hooks/kg_env"][0])
    show = '. "$1"; printf "%s|%s" "$KG_BIN" "$KG_HTTP_PORT"'
    out = subprocess.run(["sh", "-c", show, "sh", str(env_file)], capture_output=True, text=True, env={})
    assert out.stdout == "/opt/kg bin/kg|9999"
    out = subprocess.run(["sh", "-c", show, "sh", str(env_file)], capture_output=True, text=True,
                         env={"KG_HTTP_PORT": "1234"})
    assert out.stdout == "/opt/kg bin/kg|1234"


def test_a_hook_naming_a_missing_script_is_an_error_naming_the_file(tmp_path):
    root = make_plugin(tmp_path / "p", HOOKS)
    (root / "hooks" / "pre.sh").unlink()
    with pytest.raises(SetupError, match=r"hooks\.json: PreToolUse runs hooks/pre\.sh, which is missing"):
        render(root, KG, {})


@pytest.mark.parametrize("bad", [[], {"hooks": []}, {"hooks": {"X": {}}}, {"hooks": {"X": [{"hooks": [{}]}]}}])
def test_a_malformed_hooks_json_is_named(bad):
    with pytest.raises(SetupError, match="hooks.json"):
        hook_entries(bad)


def test_the_marketplace_holds_the_plugin_under_a_relative_source(tmp_path):
    plugin = render(make_plugin(tmp_path / "p", HOOKS), KG, {})
    files = marketplace_files(plugin)
    catalog = json.loads(files[".claude-plugin/marketplace.json"][0])
    assert catalog["name"] == "kg-local"
    assert catalog["plugins"] == [{"name": "kg-memory", "source": "./kg-memory", "version": "9.9.9",
                                   "description": catalog["plugins"][0]["description"]}]
    assert "kg-memory/hooks/start.sh" in files


def test_the_shipped_plugin_renders_with_every_hook_of_its_hooks_json():
    source = plugin_source()
    plugin = render(source, KG, {})
    declared = json.loads((source / "hooks" / "hooks.json").read_text())["hooks"]
    assert {h.event for h in plugin.hooks} == set(declared)
    assert all(h.script in plugin.files for h in plugin.hooks)
    assert "hooks" not in json.loads((source / ".claude-plugin" / "plugin.json").read_text())
