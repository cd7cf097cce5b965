"""`kg setup` and `kg doctor` where the user's files hold what setup did not expect: real Claude Code from npm."""

from __future__ import annotations

import json
import re

import pytest
from npm_clients import npm_bin
from test_setup import CONFIG_TOML, Machine


@pytest.fixture
def machine(tmp_path):
    m = Machine(tmp_path)
    yield m
    m.close()


def test_an_enabled_plugins_list_is_made_an_object_so_the_plugin_is_enabled(machine):
    settings = machine.home / ".claude" / "settings.json"
    settings.write_text('{"theme": "dark", "enabledPlugins": ["other@market"]}')
    out = machine.kg("setup", "--yes", "--only", "claude")
    assert out.returncode == 0 and "Claude Code: done" in out.stdout, out.stdout + out.stderr
    assert "rewrite enabledPlugins" in out.stdout
    data = json.loads(settings.read_text())
    assert data["enabledPlugins"] == {"other@market": True, "kg-memory@kg-local": True}
    assert data["theme"] == "dark"
    listed = machine.run(npm_bin("claude"), "plugin", "list").stdout
    assert "kg-memory@kg-local" in listed and "enabled" in listed and "disabled" not in listed, listed
    doctor = machine.kg("doctor")
    assert "ok    Claude Code: plugin kg-memory@kg-local installed" in doctor.stdout, doctor.stdout


def test_an_enabled_plugins_value_setup_cannot_keep_is_not_done_and_says_why(machine):
    settings = machine.home / ".claude" / "settings.json"
    settings.write_text('{"enabledPlugins": [1, 2]}')
    out = machine.kg("setup", "--yes", "--only", "claude")
    assert out.returncode == 1, out.stdout
    assert "Claude Code: FAILED" in out.stdout and "enabledPlugins is [1, 2]" in out.stdout, out.stdout
    assert "Claude Code: done" not in out.stdout
    assert json.loads(settings.read_text())["enabledPlugins"] == [1, 2]


def test_doctor_without_kg_http_port_judges_the_port_setup_wired_and_says_so(machine):
    out = machine.kg("setup", "--yes", "--only", "claude,codex")
    assert out.returncode == 0, out.stdout + out.stderr
    machine.env.pop("KG_HTTP_PORT")
    machine.env.pop("KG_EDITOR_PORT")
    doctor = machine.kg("doctor")
    port = machine.server.port
    assert f"port: checking {port}, the port kg setup wired the agents to" in doctor.stdout, doctor.stdout
    assert "ok    server: running version" in doctor.stdout and f":{port}" in doctor.stdout, doctor.stdout
    assert "ok    meaning table: 29,523 word pieces, 128 dimensions" in doctor.stdout, doctor.stdout
    # The default port named nowhere (a free port such as 48765 holds its digits: matched as a number).
    assert "FAIL" not in doctor.stdout and not re.search(r"(?<!\d)8765(?!\d)", doctor.stdout), doctor.stdout
    assert doctor.returncode == 0


@pytest.mark.parametrize("empty", ["", " \n\t\n"])
def test_an_empty_claude_settings_file_is_read_as_no_settings_as_claude_code_reads_it(machine, empty):
    # It was refused ("not valid JSON ... char 0") and the quota gauge step skipped.
    settings = machine.home / ".claude" / "settings.json"
    settings.write_text(empty)
    out = machine.kg("setup", "--yes", "--only", "claude,gauge")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Claude Code: done" in out.stdout and "Claude Code quota gauge: done" in out.stdout, out.stdout
    data = json.loads(settings.read_text())
    assert data["enabledPlugins"] == {"kg-memory@kg-local": True} and "kg" in data["statusLine"]["command"]
    listed = machine.run(npm_bin("claude"), "plugin", "list").stdout
    assert "kg-memory@kg-local" in listed and "enabled" in listed and "disabled" not in listed, listed
    doctor = machine.kg("doctor")
    assert "ok    Claude Code: plugin kg-memory@kg-local installed" in doctor.stdout, doctor.stdout


def test_uninstall_after_the_user_edited_their_files_leaves_no_empty_container_setup_added(machine):
    # Claude Code's CLI leaves `"enabledPlugins": {}` and `"extraKnownMarketplaces": {}` behind, Codex's writer a
    # bare `[hooks.state]` header above the user's own trust entries: setup's leftovers in the user's files.
    import tomllib

    settings = machine.home / ".claude" / "settings.json"
    config = machine.home / ".codex" / "config.toml"
    theirs = '\n[hooks.state."someone@else:hooks/hooks.json:session_start:0:0"]\ntrusted_hash = "sha256:abc"\n'
    config.write_text(config.read_text() + theirs)
    out = machine.kg("setup", "--yes", "--only", "claude,codex")
    assert out.returncode == 0, out.stdout + out.stderr
    settings.write_text(settings.read_text().replace('"theme": "dark"', '"theme": "light"'))
    config.write_text(config.read_text() + '\n[profiles.fast]\nmodel = "o4-mini"\n')
    out = machine.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{settings}: changed since kg setup" in out.stdout and f"{config}: changed since kg setup" in out.stdout
    assert json.loads(settings.read_text()) == {"theme": "light", "permissions": {"allow": ["Bash(ls:*)"]}}
    text = config.read_text()
    assert "[hooks.state]\n" not in text and "kg-memory" not in text and "kg-local" not in text, text
    assert tomllib.loads(text) == tomllib.loads(CONFIG_TOML.decode() + theirs + '\n[profiles.fast]\nmodel = "o4-mini"\n')
