"""A user of kg-memory (the reference) runs `kg setup`: its plugin, enabled in Claude Code and Codex, is
disabled as a step of setup (never left running beside ours), named by doctor while enabled, and enabled
again by `kg uninstall`. Real Claude Code and Codex CLIs (from npm), as in test_setup.py.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from npm_clients import npm_bin
from test_setup import Machine

OLD_KEY = "knowledge-graph@old-market"  # not kg-memory's own marketplace name: found by what the plugin is
# kg-memory pre-approves its tools in Claude Code's settings; the last rule is another server's, not its.
OLD_RULES = ["mcp__plugin_knowledge-graph_kg__kg_read", "mcp__plugin_knowledge-graph_kg__kg_put_node"]
OTHER_RULE = "mcp__plugin_knowledge-graph_kg2__x"
OLD_DESKTOP = {"command": "/home/someone/.local/bin/kg", "args": ["mcp"]}  # kg-memory's Claude Desktop server


def _old_marketplace(root, market: str = "old-market", name: str = "knowledge-graph",
                    server: dict | None = None):
    """A local marketplace holding a plugin shaped as kg-memory 0.17 ships it: manifest name `knowledge-graph`,
    an MCP server `kg` that a shell line runs as `kg mcp` (or another plugin, with its own server)."""
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "marketplace.json").write_text(json.dumps({
        "name": market, "owner": {"name": "someone"},
        "plugins": [{"name": name, "source": f"./{name}", "version": "0.17.0"}]}))
    plugin = root / name
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name, "version": "0.17.0"}))
    servers = {"kg": {"command": "sh", "args": ["-c", "exec kg mcp"]}} if server is None else server
    (plugin / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    return root


@pytest.fixture
def migrated(tmp_path):
    m = Machine(tmp_path)
    settings = m.home / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["permissions"]["allow"] += [*OLD_RULES, OTHER_RULE]
    settings.write_text(json.dumps(data, indent=2))
    desktop = m.home / ".config" / "Claude" / "claude_desktop_config.json"
    data = json.loads(desktop.read_text())
    data["mcpServers"]["knowledge-graph"] = OLD_DESKTOP
    desktop.write_text(json.dumps(data))
    market = _old_marketplace(tmp_path / "old-market")
    for argv in (("claude", "plugin", "marketplace", "add", str(market)),
                 ("claude", "plugin", "install", OLD_KEY, "--scope", "user"),
                 ("codex", "plugin", "marketplace", "add", str(market)),
                 ("codex", "plugin", "add", OLD_KEY)):
        out = m.run(npm_bin(argv[0]), *argv[1:])
        assert out.returncode == 0, out.stdout + out.stderr
    yield m
    m.close()


def _claude_status(m, key: str) -> str:
    """`claude plugin list`'s status line for `key` (enabled / disabled), or "" when not listed."""
    lines = m.run(npm_bin("claude"), "plugin", "list").stdout.splitlines()
    at = next((i for i, line in enumerate(lines) if line.strip().endswith(key)), None)
    status = next((line for line in lines[at:at + 5] if "Status:" in line), "") if at is not None else ""
    return "disabled" if "disabled" in status else "enabled" if "enabled" in status else ""


def _allowed(m) -> list[str]:
    return json.loads((m.home / ".claude" / "settings.json").read_text())["permissions"]["allow"]


def _desktop_servers(m) -> dict:
    return json.loads((m.home / ".config" / "Claude" / "claude_desktop_config.json").read_text())["mcpServers"]


def _codex_enabled(m, key: str) -> object:
    config = tomllib.loads((m.home / ".codex" / "config.toml").read_text())
    return config.get("plugins", {}).get(key, {}).get("enabled", True)


def test_kg_memorys_plugin_is_disabled_by_setup_named_by_doctor_and_enabled_again_by_uninstall(migrated):
    m = migrated
    assert _claude_status(m, OLD_KEY) == "enabled" and _codex_enabled(m, OLD_KEY) is True
    plan = m.kg("setup", "--plan")
    assert plan.stdout.count(f"disable {OLD_KEY} (kg-memory 0.17.0's plugin)") == 2, plan.stdout  # Claude Code, Codex
    assert f"take the 2 permission rules of {OLD_KEY}'s tools ({OLD_RULES[0]}, ...)" in plan.stdout, plan.stdout
    assert _claude_status(m, OLD_KEY) == "enabled"  # the plan changes nothing
    out = m.kg("setup", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert _claude_status(m, OLD_KEY) == "disabled" and _claude_status(m, "kg-memory@kg-local") == "enabled"
    assert _codex_enabled(m, OLD_KEY) is False
    assert _allowed(m) == ["Bash(ls:*)", OTHER_RULE]  # its tools' rules out, the user's and another server's kept
    assert sorted(_desktop_servers(m)) == ["kg", "other"]
    # Its files and marketplace stay: only switched off.
    assert "old-market" in m.run(npm_bin("claude"), "plugin", "marketplace", "list").stdout
    listed = m.run(npm_bin("claude"), "mcp", "list").stdout
    assert "plugin:kg-memory:kg:" in listed and "plugin:knowledge-graph:kg" not in listed, listed
    doctor = m.kg("doctor")
    assert "another kg memory" not in doctor.stdout, doctor.stdout
    # Enabled again by hand: doctor fails it, with the fix; setup disables it again.
    assert m.run(npm_bin("claude"), "plugin", "enable", OLD_KEY, "--scope", "user").returncode == 0
    doctor = m.kg("doctor")
    assert doctor.returncode == 1
    assert f"FAIL  Claude Code: another kg memory plugin is enabled in Claude Code: {OLD_KEY}" in doctor.stdout
    assert f"fix: kg setup --only claude (it disables it), or `claude plugin disable {OLD_KEY}`" in doctor.stdout
    # So is kg-memory's Claude Desktop server put back by hand.
    desktop = m.home / ".config" / "Claude" / "claude_desktop_config.json"
    data = json.loads(desktop.read_text())
    data["mcpServers"]["knowledge-graph"] = OLD_DESKTOP
    desktop.write_text(json.dumps(data))
    doctor = m.kg("doctor")
    assert f"FAIL  Claude Desktop: another kg memory server is in {desktop}: mcpServers.knowledge-graph" in doctor.stdout
    assert m.kg("setup", "--yes", "--only", "desktop").returncode == 0 and "knowledge-graph" not in _desktop_servers(m)
    again = m.kg("setup", "--yes", "--only", "claude")
    assert again.returncode == 0 and _claude_status(m, OLD_KEY) == "disabled", again.stdout
    # Edited since: not restored whole, so what setup changed in it is undone piece by piece.
    settings = m.home / ".claude" / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "theme": "light"}, indent=2))
    desktop = m.home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.write_text(json.dumps({**json.loads(desktop.read_text()), "globalShortcut": "Ctrl+K"}))
    out = m.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert _claude_status(m, OLD_KEY) == "enabled" and _claude_status(m, "kg-memory@kg-local") == ""
    assert _codex_enabled(m, OLD_KEY) is True
    assert sorted(_allowed(m)) == sorted(["Bash(ls:*)", *OLD_RULES, OTHER_RULE])
    assert json.loads(settings.read_text())["theme"] == "light"
    assert _desktop_servers(m) == {"other": {"command": "x"}, "knowledge-graph": OLD_DESKTOP}


def test_the_users_own_kg_subcommands_and_a_namesakes_rules_are_never_taken_for_kg_memorys(migrated):
    """`kg mcp-gateway` / `kg mcp-bridge` are the user's own programs, not `kg mcp`; and a rule naming a plugin
    that another enabled plugin is named as is that one's too, so it stays."""
    m = migrated
    notes = {"notes": {"command": "node", "args": ["/opt/notes/server.js"]}}
    plugins = (("user-tools", "mytool", notes),  # the user's, enabled; a kg plugin of the same name comes next
               ("user-tools2", "mytool", {"notes": {"command": "sh", "args": ["-c", "exec kg mcp"]}}),
               ("gw-tools", "gw", {"gw": {"command": "bash", "args": ["-lc", "exec $HOME/bin/kg mcp-gateway --x"]}}))
    for market, name, server in plugins:
        root = _old_marketplace(m.home.parent / market, market, name, server)
        for argv in (("plugin", "marketplace", "add", str(root)), ("plugin", "install", f"{name}@{market}")):
            out = m.run(npm_bin("claude"), *argv)
            assert out.returncode == 0, out.stdout + out.stderr
    settings = m.home / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["permissions"]["allow"].append("mcp__plugin_mytool_notes__search")
    settings.write_text(json.dumps(data, indent=2))
    desktop = m.home / ".config" / "Claude" / "claude_desktop_config.json"
    bridge = {"command": "sh", "args": ["-c", "exec /opt/kgtools/kg mcp-bridge --port 5"]}
    data = json.loads(desktop.read_text())
    data["mcpServers"]["mykg"] = bridge
    desktop.write_text(json.dumps(data))
    plan = m.kg("setup", "--plan", "--only", "claude,desktop")
    assert "gw@" not in plan.stdout and "mykg" not in plan.stdout, plan.stdout
    assert ("disable mytool@user-tools2 (its MCP server notes runs `sh -c 'exec kg mcp'`)" in plan.stdout
            and "its permission rules stay (mytool@user-tools, also enabled, names its tools the same way)"
            in plan.stdout and "mytool_notes" not in plan.stdout), plan.stdout
    out = m.kg("setup", "--yes", "--only", "claude,desktop")
    assert out.returncode == 0, out.stdout + out.stderr
    assert _claude_status(m, OLD_KEY) == "disabled" and _claude_status(m, "mytool@user-tools2") == "disabled"
    assert _claude_status(m, "mytool@user-tools") == "enabled" and _claude_status(m, "gw@gw-tools") == "enabled"
    assert _allowed(m) == ["Bash(ls:*)", OTHER_RULE, "mcp__plugin_mytool_notes__search"]
    assert _desktop_servers(m)["mykg"] == bridge and "knowledge-graph" not in _desktop_servers(m)


def test_a_plugin_the_user_uninstalled_after_setup_is_not_enabled_again_by_uninstall(migrated):
    m = migrated
    assert m.kg("setup", "--yes", "--only", "claude,codex").returncode == 0
    assert _claude_status(m, OLD_KEY) == "disabled"
    for argv in (("claude", "plugin", "uninstall", OLD_KEY), ("codex", "plugin", "remove", OLD_KEY)):
        out = m.run(npm_bin(argv[0]), *argv[1:])
        assert out.returncode == 0, out.stdout + out.stderr
    out = m.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"left as you left it: {OLD_KEY}, which kg setup disabled, is no longer installed" in out.stdout, out.stdout
    enabled = json.loads((m.home / ".claude" / "settings.json").read_text()).get("enabledPlugins", {})
    assert OLD_KEY not in enabled and _claude_status(m, OLD_KEY) == "", enabled
    assert _allowed(m) == ["Bash(ls:*)", OTHER_RULE]  # its tools' rules stay out with it
    assert OLD_KEY not in tomllib.loads((m.home / ".codex" / "config.toml").read_text()).get("plugins", {})


def test_doctor_fails_another_kg_memory_only_beside_kgs_own_wiring(migrated):
    """Codex and Claude Desktop left out of setup: kg-memory's plugin and server there double nothing of kg's."""
    m = migrated
    assert m.kg("setup", "--yes", "--only", "claude").returncode == 0
    doctor = m.kg("doctor")
    lines = doctor.stdout.splitlines()
    assert not [line for line in lines if line.startswith("FAIL") and ("Codex" in line or "Desktop" in line)], \
        doctor.stdout
    assert (f"--    Codex: another kg memory plugin is enabled in Codex: {OLD_KEY} (kg-memory 0.17.0's plugin); kg "
            "is not wired here, so nothing runs twice" in lines), doctor.stdout
    assert ("--    Claude Desktop: another kg memory server is in "
            f"{m.home / '.config' / 'Claude' / 'claude_desktop_config.json'}: mcpServers.knowledge-graph runs a kg "
            "MCP server; kg's is not there, so no kg tool is doubled" in lines), doctor.stdout
    # Wired now: beside kg's, so each fails again.
    assert m.kg("setup", "--yes", "--only", "codex").returncode == 0
    doctor = m.kg("doctor")
    assert f"FAIL  Codex: another kg memory plugin is enabled in Codex: {OLD_KEY}" not in doctor.stdout  # disabled
    assert m.run(npm_bin("codex"), "plugin", "add", OLD_KEY).returncode == 0  # on again, beside kg's
    doctor = m.kg("doctor")
    assert f"FAIL  Codex: another kg memory plugin is enabled in Codex: {OLD_KEY}" in doctor.stdout, doctor.stdout


def test_doctor_in_a_project_names_kg_memorys_plugin_enabled_for_that_project_and_how_to_disable_it(migrated):
    m = migrated
    # Only at project scope: off for the user, on in the project (as `claude plugin install --scope project` does).
    out = m.run(npm_bin("claude"), "plugin", "disable", OLD_KEY, "--scope", "user")
    assert out.returncode == 0, out.stdout + out.stderr
    (m.project / ".git").mkdir()
    (m.project / ".claude").mkdir(exist_ok=True)
    (m.project / ".claude" / "settings.json").write_text(json.dumps({"enabledPlugins": {OLD_KEY: True}}))
    settings = m.project / ".claude" / "settings.json"
    plan = m.kg("setup", "--plan", "--only", "claude")
    assert (f"Claude Code: another kg memory plugin is enabled in this project by {settings}: {OLD_KEY} (kg-memory "
            "0.17.0's plugin); kg setup disables plugins for the user only, so it stays on in this project: run "
            f"`cd {m.project} && claude plugin disable {OLD_KEY} --scope project`" in plan.stdout), plan.stdout
    assert m.kg("setup", "--yes", "--only", "claude").returncode == 0
    doctor = m.kg("doctor")
    assert doctor.returncode == 1, doctor.stdout
    assert (f"FAIL  Claude Code: another kg memory plugin is enabled in this project by {settings}: {OLD_KEY} "
            "(kg-memory 0.17.0's plugin)" in doctor.stdout), doctor.stdout
    fix = f"cd {m.project} && claude plugin disable {OLD_KEY} --scope project"
    assert f"      fix: {fix} (kg setup disables plugins for the user only)" in doctor.stdout, doctor.stdout
    out = m.run("sh", "-c", fix)  # the fix said works as said
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(settings.read_text())["enabledPlugins"][OLD_KEY] is False
    doctor = m.kg("doctor")
    assert "enabled in this project" not in doctor.stdout and doctor.returncode == 0, doctor.stdout


def test_uninstall_gives_back_the_status_line_kg_memory_had_set_after_claude_code_rewrote_the_file(tmp_path):
    """kg-memory 0.17's `kg setup` set its own `kg gauge` as the status line. Setup rewrites it to this kg's gauge;
    once settings.json changed since (Claude Code rewrites it often), uninstall takes kg's part out alone, and
    that part gives back kg-memory's line, not no status line at all."""
    m = Machine(tmp_path)
    try:
        settings = m.home / ".claude" / "settings.json"
        old = {"type": "command", "command": "/home/someone/.local/bin/kg gauge"}
        settings.write_text(json.dumps({**json.loads(settings.read_text()), "statusLine": old}, indent=2))
        out = m.kg("setup", "--yes", "--only", "gauge")
        assert out.returncode == 0 and "Claude Code quota gauge: done" in out.stdout, out.stdout + out.stderr
        ours = json.loads(settings.read_text())["statusLine"]["command"]
        assert ours.endswith(" gauge") and str(m.store) in ours, ours  # this kg's gauge, recording into this store
        data = json.loads(settings.read_text())
        data["env"] = {"LATER": "2"}  # any change since setup: the file is no longer restored whole
        settings.write_text(json.dumps(data, indent=2))
        plan = m.kg("uninstall", "--plan")
        assert old["command"] in plan.stdout, plan.stdout  # the plan names the line it gives back
        out = m.kg("uninstall", "--yes")
        assert out.returncode == 0, out.stdout + out.stderr
        after = json.loads(settings.read_text())
        assert after["statusLine"] == old and after["env"] == {"LATER": "2"}, after
        assert after["permissions"] == {"allow": ["Bash(ls:*)"]} and after["theme"] == "dark"
    finally:
        m.close()
