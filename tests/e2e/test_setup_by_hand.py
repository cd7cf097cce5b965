"""`kg setup` against agents' settings files it reads but must not rewrite, or that are empty: what it installs
all the same, and the entries it prints for the user to add by hand."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from e2e_helpers import kg

from kg_actors.setup import jsonc
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


def test_an_opencode_config_with_comments_gets_mcp_kg_as_text_and_keeps_every_other_byte(env, tmp_path):
    # Setup installed the plugin alone and failed: OpenCode offered no kg tool, yet the plugin's preload told the
    # agent to call kg_read.
    config = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text(OPENCODE_JSONC)
    setup = kg(["setup", "--only", "opencode", "--yes"], env)
    plugin = config.parent / "plugin" / "kg-memory.js"
    assert setup.returncode == 0 and "OpenCode: done" in setup.stdout, setup.stdout
    assert plugin.read_text().startswith("// kg memory for OpenCode")
    text = config.read_text()
    data = json.loads(jsonc.without_trailing_commas(jsonc.blank_comments(text)))
    assert data["mcp"]["kg"]["command"][-1] == "mcp" and data["mcp"]["other"]["command"] == ["/usr/bin/true"]
    ops = difflib.SequenceMatcher(None, OPENCODE_JSONC, text, autojunk=False).get_opcodes()
    assert {op for op, *_ in ops} <= {"equal", "insert"}, text  # text added only: not a byte of theirs changed
    assert kg(["setup", "--only", "opencode", "--yes"], env).stdout.count("OpenCode: up to date") == 1
    assert "ok    OpenCode" in kg(["doctor"], env).stdout

    edited = text.replace("// opencode allows", "// edited since; opencode allows")
    config.write_text(edited)
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0, out.stdout
    assert not plugin.exists() and config.read_text() == OPENCODE_JSONC.replace("// opencode", "// edited since; opencode")


def test_uninstall_gives_back_an_unchanged_opencode_config_with_comments_byte_for_byte(env, tmp_path):
    config = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    theirs = '{\r\n\t// mine\r\n\t"theme": "x",\r\n}\r\n'
    config.write_bytes(theirs.encode())
    assert kg(["setup", "--only", "opencode", "--yes"], env).returncode == 0
    added = config.read_bytes().decode()
    assert added.startswith('{\r\n\t// mine\r\n\t"theme": "x",\r\n\t"mcp": {\r\n\t\t"kg": {') and "\n\n" not in added
    assert kg(["uninstall", "--yes"], env).returncode == 0
    assert config.read_bytes() == theirs.encode()


def test_an_opencode_config_that_is_no_json_even_with_comments_allowed_is_left_whole(env, tmp_path):
    config = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text('{"model": "x", "mcp": [1, 2,}')
    setup = kg(["setup", "--only", "opencode", "--yes"], env)
    assert setup.returncode == 1 and f"OpenCode: FAILED: {config}: not valid JSON" in setup.stdout, setup.stdout
    assert not (config.parent / "plugin").exists() and "by hand)\n" not in setup.stdout


@pytest.mark.parametrize("had", ["none", "empty"])
def test_uninstall_after_an_edit_takes_out_the_containers_setup_added_and_keeps_the_users_own(env, tmp_path, had):
    # The user's own empty "mcp", "mcpServers" and "hooks" were taken out with kg's entries; the "$schema"
    # setup added to opencode.json stayed.
    opencode = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    gemini = tmp_path / "home" / ".gemini" / "settings.json"
    opencode.parent.mkdir(parents=True)
    gemini.parent.mkdir(parents=True)
    mine_oc = {"theme": "x"} | ({"mcp": {}} if had == "empty" else {})
    mine_gem = {"theme": "x"} | ({"mcpServers": {}, "hooks": {"SessionStart": []}} if had == "empty" else {})
    opencode.write_text(json.dumps(mine_oc))
    gemini.write_text(json.dumps(mine_gem))
    assert kg(["setup", "--only", "opencode,gemini", "--yes"], env).returncode == 0
    for path in (opencode, gemini):  # edited since: not restored whole, kg's entries taken out
        path.write_text(path.read_text().replace('"theme": "x"', '"theme": "y"'))
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0 and f"{opencode}: changed since kg setup" in out.stdout, out.stdout
    assert json.loads(opencode.read_text()) == mine_oc | {"theme": "y"}
    assert json.loads(gemini.read_text()) == mine_gem | {"theme": "y"}


def test_uninstall_cuts_kgs_entries_out_of_gemini_settings_with_comments_keeping_the_users_empty_lists(env, tmp_path):
    gemini = tmp_path / "home" / ".gemini" / "settings.json"
    gemini.parent.mkdir(parents=True)
    gemini.write_text('{"theme": "x", "mcpServers": {}, "hooks": {"BeforeAgent": []}}')
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    gemini.write_text(gemini.read_text().replace("{", "{ /* mine */", 1))
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0, out.stdout
    text = gemini.read_text()
    assert "/* mine */" in text and "kg-memory" not in text, text
    from kg_actors.setup import jsonc
    assert jsonc.loads(text) == {"theme": "x", "mcpServers": {}, "hooks": {"BeforeAgent": []}}


def test_setup_wiring_gemini_says_how_to_trust_a_folder_and_writes_no_trust_for_the_user(env, tmp_path):
    gemini = tmp_path / "home" / ".gemini"
    gemini.mkdir(parents=True)
    out = kg(["setup", "--only", "gemini", "--yes"], env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "only in a folder you trust" in out.stdout and "~/.gemini/trustedFolders.json" in out.stdout
    assert "TRUST_FOLDER" in out.stdout and not (gemini / "trustedFolders.json").exists()


def test_doctor_says_when_gemini_does_not_trust_the_folder_it_runs_in(env, tmp_path):
    """Gemini runs no MCP server in a folder it does not trust: kg's hooks still run there, its tools do not."""
    (tmp_path / "home" / ".gemini").mkdir(parents=True)
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    work, trusted = tmp_path / "work", tmp_path / "trusted"
    work.mkdir(), trusted.mkdir()
    rules = tmp_path / "home" / ".gemini" / "trustedFolders.json"
    rules.write_text(json.dumps({str(trusted): "TRUST_FOLDER"}))
    said = kg(["doctor"], env, cwd=work).stdout
    assert f"WARN  Gemini CLI: it does not trust this folder ({work})" in said, said
    assert "kg's tools are off here" in said and '"TRUST_FOLDER"' in said
    assert "does not trust" not in kg(["doctor"], env, cwd=trusted).stdout


def test_an_opencode_config_setup_cannot_add_mcp_kg_to_gets_no_plugin_either(env, tmp_path, monkeypatch):
    # The plugin alone would preload "call kg_read" into a session that has no kg tool.
    from kg_actors.setup import opencode, opencode_step
    from kg_actors.setup import plan
    from kg_actors.setup.files import Record
    from kg_actors.setup.plugin import kg_command, passed_env, plugin_source, render

    home = tmp_path / "home"
    config = home / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text(OPENCODE_JSONC)
    monkeypatch.setattr(jsonc, "insert", lambda text, *a: text)  # an insertion that did not take
    with pytest.raises(opencode.SetupError, match="could not add mcp.kg to it keeping its comments"):
        opencode.merged(config.read_bytes(), {"type": "local"}, config)
    plugin = render(plugin_source(), kg_command(), passed_env(env))
    found = opencode_step.found(env, home, plugin, Record(tmp_path / "record.json"))
    assert found.error and "add it by hand" in found.error and not found.installed
    step = plan._opencode(SimpleNamespace(opencode=found))
    assert step.problem and not step.actions  # nothing of the step is written: no plugin
    said = opencode_step.by_hand(env, home, plugin)
    assert said and said.startswith(f'  (add this to its "mcp" object of {config} by hand)\n  "kg": {{')


def test_setup_keeps_each_files_line_endings_bom_and_indent_unit(env, tmp_path):
    # Claude Desktop's config and Gemini's settings went from CRLF to LF; a BOM before Claude's settings.json
    # was dropped; a tab-indented file came back with two spaces.
    home = tmp_path / "home"
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    gemini = home / ".gemini" / "settings.json"
    claude = home / ".claude" / "settings.json"
    for path in (desktop, gemini, claude):
        path.parent.mkdir(parents=True)
    theirs = {desktop: b'{\r\n  "mcpServers": {\r\n    "other": {\r\n      "command": "other-mcp"\r\n    }\r\n  }\r\n}\r\n',
              gemini: b'{\r\n\t"ui": {\r\n\t\t"theme": "GitHub"\r\n\t}\r\n}\r\n',
              claude: b'\xef\xbb\xbf{\n    "model": "opus"\n}\n'}
    for path, data in theirs.items():
        path.write_bytes(data)
    fake = tmp_path / "bin"  # the gauge step writes Claude's settings.json where a `claude` is on PATH
    fake.mkdir()
    (fake / "claude").write_text("#!/bin/sh\nexit 0\n")
    (fake / "claude").chmod(0o755)
    env = {**env, "PATH": f"{fake}:{env['PATH']}"}
    out = kg(["setup", "--only", "desktop,gemini,gauge", "--yes"], env)
    assert out.returncode == 0, out.stdout
    for path, data in theirs.items():
        now = path.read_bytes()
        assert now != data and json.loads(now.decode("utf-8-sig")), path  # setup's entries are in
        assert now.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf"), (path, now)
        if b"\r\n" in data:
            assert now.count(b"\r\n") == now.count(b"\n"), (path, now)
        else:
            assert b"\r" not in now, (path, now)
        lead = {desktop: b"  ", gemini: b"\t", claude: b"    "}[path]  # their indent unit, one level deep
        second = now.split(b"\n")[1]
        assert second.startswith(lead) and second[len(lead):len(lead) + 1] == b'"', (path, now)
    assert kg(["uninstall", "--yes"], env).returncode == 0
    assert {path: path.read_bytes() for path in theirs} == theirs


def test_plan_names_gemini_settings_with_comments_as_a_problem_as_the_run_fails_it(env, tmp_path):
    # The plan listed the write as a step to do and exited 0; --yes then refused the file and exited 1.
    settings = tmp_path / "home" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    theirs = '{\n  // my theme\n  "theme": "Dracula"\n}\n'
    settings.write_text(theirs)
    plan = kg(["setup", "--plan", "--only", "gemini"], env)
    assert plan.returncode == 1, plan.stdout
    assert f"Gemini CLI: PROBLEM: {settings}: it holds comments" in plan.stdout, plan.stdout
    assert "add the kg hooks" not in plan.stdout and '"mcpServers": {' in plan.stdout  # the entries, to add by hand
    run = kg(["setup", "--yes", "--only", "gemini"], env)
    assert run.returncode == 1 and f"Gemini CLI: FAILED: {settings}: it holds comments" in run.stdout, run.stdout
    assert settings.read_text() == theirs
