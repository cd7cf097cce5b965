"""Another kg memory plugin found by what it is (pure reads of the installed copies), and what setup plans for it."""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from kg_actors.setup.other_plugins import OtherPlugin, claude_others, codex_others, permissions_of, runs_kg_mcp
from kg_actors.setup.plan import Undo, plan_setup, plan_uninstall

from test_plan import KEY, MDIR, found


def _plugin(folder: Path, name: str, mcp: dict | None = None) -> Path:
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": name, "version": "0.17.0"}))
    if mcp is not None:
        (folder / ".mcp.json").write_text(json.dumps({"mcpServers": mcp}))
    return folder


def test_an_mcp_server_runs_kg_mcp_as_argv_or_in_a_shell_line_and_nothing_else_counts():
    assert runs_kg_mcp({"command": "/venv/bin/kg", "args": ["mcp"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", 'command -v kg >/dev/null && exec kg mcp; exec "$HOME/bin/kg" mcp']})
    assert not runs_kg_mcp({"command": "npx", "args": ["some-kg-mcp-server"]})
    assert not runs_kg_mcp({"command": "/bin/pkg", "args": ["mcp"]})
    assert not runs_kg_mcp("kg mcp")


def test_claude_code_plugins_enabled_that_are_kg_memory_or_run_kg_mcp_are_found_ours_and_others_are_not(tmp_path):
    old = _plugin(tmp_path / "old", "knowledge-graph")
    fork = _plugin(tmp_path / "fork", "my-memory", {"mem": {"command": "sh", "args": ["-c", "exec kg mcp"]}})
    ours = _plugin(tmp_path / "ours", "kg-memory", {"kg": {"command": "/venv/bin/kg", "args": ["mcp"]}})
    other = _plugin(tmp_path / "other", "linter", {"lint": {"command": "lint-server"}})
    off = _plugin(tmp_path / "off", "knowledge-graph")
    installed = {"plugins": {key: [{"scope": "user", "installPath": str(path)}] for key, path in (
        ("knowledge-graph@maxim-plugins", old), ("my-memory@m", fork), (KEY, ours), ("linter@m", other),
        ("knowledge-graph@off", off))}}
    settings = {"enabledPlugins": {"knowledge-graph@maxim-plugins": True, "my-memory@m": True, KEY: True,
                                   "linter@m": True, "knowledge-graph@off": False, "gone@m": True}}
    assert claude_others(settings, installed, KEY) == (
        OtherPlugin("knowledge-graph@maxim-plugins", "kg-memory 0.17.0's plugin"),
        OtherPlugin("my-memory@m", "its MCP server mem runs `sh -c 'exec kg mcp'`", ("mem",)))
    assert claude_others({"enabledPlugins": ["knowledge-graph@maxim-plugins"]}, installed, KEY) == ()


def test_codex_plugins_are_on_unless_enabled_is_false_and_read_from_its_cache(tmp_path):
    _plugin(tmp_path / "plugins" / "cache" / "maxim-plugins" / "knowledge-graph" / "0.17.0", "knowledge-graph")
    config = {"plugins": {"knowledge-graph@maxim-plugins": {}, KEY: {"enabled": True}}}
    assert codex_others(config, tmp_path, KEY) == (OtherPlugin("knowledge-graph@maxim-plugins",
                                                               "kg-memory 0.17.0's plugin"),)
    config["plugins"]["knowledge-graph@maxim-plugins"] = {"enabled": False}
    assert codex_others(config, tmp_path, KEY) == ()
    assert codex_others({"plugins": {"x@y": {}}}, tmp_path, KEY) == ()  # no copy in the cache: nothing to judge


def test_setup_plans_to_disable_each_and_uninstall_enables_again_what_setup_disabled():
    old = OtherPlugin("knowledge-graph@maxim-plugins", "kg-memory 0.17.0's plugin")
    f = found()
    f = attrs.evolve(f, claude=attrs.evolve(f.claude, others=(old,)), codex=attrs.evolve(f.codex, others=(old,)))
    steps = {s.name: s for s in plan_setup(f, ("claude", "codex"))}
    for name in ("claude", "codex"):
        assert [(a.kind, a.argv[0], a.argv[2]) for a in steps[name].actions] == [("disable_other", name, old.key)]
    undo = Undo({"claude": {"installed": True, "disabled": [old.key]}, "codex": {"installed": True}}, {}, MDIR,
                Path("/s/setup/record.json"), KEY, "/bin/claude", "/bin/codex")
    acts = {s.name: [a.kind for a in s.actions] for s in plan_uninstall(undo)}
    assert acts["claude"] == ["run", "enable_other"] and acts["codex"] == ["run"]


def test_only_the_permission_rules_of_the_other_plugins_own_servers_are_its_and_none_under_our_name():
    old = OtherPlugin("knowledge-graph@maxim-plugins", "kg-memory 0.17.0's plugin", ("kg",))
    allow = ["mcp__plugin_knowledge-graph_kg__kg_read", "mcp__plugin_knowledge-graph_kg", "Bash(ls:*)",
             "mcp__plugin_knowledge-graph_kg2__x", "mcp__plugin_knowledge-graph_kg_extra__y", 7,
             "mcp__plugin_kg-memory_kg__kg_read"]
    settings = {"permissions": {"allow": allow}}
    assert permissions_of(settings, old, KEY) == allow[:2]
    assert permissions_of(settings, OtherPlugin("kg-memory@fork", "x", ("kg",)), KEY) == []  # could be ours
    assert permissions_of({"permissions": {"allow": "x"}}, old, KEY) == [] and permissions_of(None, old, KEY) == []


def test_a_claude_desktop_server_running_kg_mcp_beside_kgs_is_taken_out_and_put_back_by_uninstall(tmp_path):
    from kg_actors.setup import desktop
    config = tmp_path / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir()
    old = {"command": "/home/u/.local/bin/kg", "args": ["mcp"]}
    config.write_text(json.dumps({"mcpServers": {"knowledge-graph": old, "other": {"command": "x"}}}))
    d = desktop.find({"XDG_CONFIG_HOME": str(tmp_path)}, tmp_path, None, platform="linux")
    assert d.others == ("knowledge-graph",)
    f = found(desktop=attrs.evolve(found().desktop, others=d.others))
    (step,) = plan_setup(f, ("desktop",))
    assert [(a.kind, a.argv) for a in step.actions] == [("desktop_drop_other", ("knowledge-graph",))]
    raw, entry = desktop.without_other(config.read_bytes(), config, "knowledge-graph")
    assert entry == old and json.loads(raw) == {"mcpServers": {"other": {"command": "x"}}}
    assert json.loads(desktop.with_other(raw, config, "knowledge-graph", entry))["mcpServers"]["knowledge-graph"] == old
    undo = Undo({"desktop": {"config": str(config), "dropped": {"knowledge-graph": old}}}, {}, MDIR,
                Path("/s/setup/record.json"), KEY)
    (back,) = [s for s in plan_uninstall(undo) if s.name == "desktop"]
    assert [a.kind for a in back.actions] == ["desktop_remove", "desktop_other_back"]


def test_a_longer_subcommand_or_a_program_other_than_kg_is_not_kg_mcp():
    # The user's own tools (`kg mcp-gateway`, `kg mcp-bridge`): `mcp` must be a whole argument of kg.
    assert not runs_kg_mcp({"command": "bash", "args": ["-lc", "exec $HOME/bin/kg mcp-gateway --notes"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "exec /opt/kgtools/kg mcp-bridge --port 5"]})
    assert not runs_kg_mcp({"command": "/opt/kg", "args": ["mcp-bridge"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "exec my-kg mcp"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "exec kg mcpx"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", "exec /opt/kgtools/kg mcp --port 5"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", "kg mcp"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", "kg mcp; echo done"]})


def test_kg_mcp_said_in_a_plain_argument_or_a_shell_line_that_does_not_run_it_is_not_kg_mcp():
    # The user's own servers: "kg mcp" as a title, echoed, or in a comment runs no kg.
    assert not runs_kg_mcp({"command": "/opt/labels/server", "args": ["--title", "kg mcp"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "echo starting kg mcp tools; exec /opt/mytool"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "# kg mcp is not run here; exec mytool"]})
    # kg-memory 0.17's own line, and the other forms a kg mcp is run by.
    assert runs_kg_mcp({"command": "sh", "args": ["-c", 'command -v kg >/dev/null && exec kg mcp; exec '
                                                        '"$HOME/.local/bin/kg" mcp']})
    assert runs_kg_mcp({"command": "env", "args": ["KG_HOME=/x", "kg", "mcp"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", "exec kg mcp>/dev/null"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", 'exec "/opt/x y/kg" mcp']})
    assert runs_kg_mcp({"command": "kg mcp"})


def test_rules_named_by_a_plugin_name_another_enabled_plugin_shares_are_left_and_the_plan_says_why():
    other = OtherPlugin("mytool@user-tools2", "its MCP server notes runs `kg mcp`", ("notes",))
    rules = ["mcp__plugin_mytool_notes__*", "mcp__plugin_mytool_notes__search"]
    settings = {"permissions": {"allow": [*rules, "Bash(ls:*)"]},
                "enabledPlugins": {"mytool@user-tools": True, "mytool@user-tools2": True}}
    assert permissions_of(settings, other, KEY) == []  # mytool@user-tools names its tools the same way
    settings["enabledPlugins"]["mytool@user-tools"] = False
    assert permissions_of(settings, other, KEY) == rules  # that one is off: the rules can only be the other's
    settings["enabledPlugins"]["mytool@user-tools"] = True
    f = found()
    f = attrs.evolve(f, claude=attrs.evolve(f.claude, others=(other,), settings=settings))
    (step,) = plan_setup(f, ("claude",))
    assert [a.kind for a in step.actions] == ["disable_other"]
    assert ("its permission rules stay (mytool@user-tools, also enabled, names its tools the same way)"
            in step.actions[0].text), step.actions[0].text


def test_one_permission_rule_is_said_as_one():
    old = OtherPlugin("knowledge-graph@maxim-plugins", "kg-memory 0.17.0's plugin", ("kg",))
    f = found()
    settings = {"permissions": {"allow": ["mcp__plugin_knowledge-graph_kg__kg_read"]}}
    f = attrs.evolve(f, claude=attrs.evolve(f.claude, others=(old,), settings=settings))
    (step,) = plan_setup(f, ("claude",))
    assert step.actions[-1].text.startswith(f"take the permission rule of {old.key}'s tools "
                                            "(mcp__plugin_knowledge-graph_kg__kg_read) out of "), step.actions[-1].text
    settings["permissions"]["allow"].append("mcp__plugin_knowledge-graph_kg__kg_put_node")
    (step,) = plan_setup(f, ("claude",))
    assert step.actions[-1].text.startswith(f"take the 2 permission rules of {old.key}'s tools "
                                            "(mcp__plugin_knowledge-graph_kg__kg_read, ...) out of ")


def test_uninstall_enables_again_and_gives_rules_back_only_to_a_plugin_still_installed():
    facts = {"installed": True, "disabled": ["knowledge-graph@maxim-plugins", "mem@m"],
             "dropped_rules": ["mcp__plugin_knowledge-graph_kg__kg_read", "mcp__plugin_mem_s__x"]}
    undo = Undo({"claude": facts}, {}, MDIR, Path("/s/setup/record.json"), KEY, "/bin/claude",
                claude_settings=Path("/h/.claude/settings.json"), claude_installed=frozenset({"mem@m", KEY}))
    (claude,) = [s for s in plan_uninstall(undo) if s.name == "claude"]
    assert [(a.kind, a.argv) for a in claude.actions[1:]] == [
        ("enable_other", ("claude", "/bin/claude", "mem@m")), ("claude_rules_back", ("mcp__plugin_mem_s__x",))]
    assert claude.note == ("left as you left it: knowledge-graph@maxim-plugins, which kg setup disabled, is no longer "
                           "installed")
    (claude,) = [s for s in plan_uninstall(attrs.evolve(undo, claude_installed=None)) if s.name == "claude"]
    assert [a.kind for a in claude.actions] == ["run", "enable_other", "enable_other", "claude_rules_back"]


def test_the_plugins_claude_code_has_installed_are_those_with_a_copy(tmp_path):
    from kg_actors.setup.other_plugins import installed_keys
    entries = {"a@m": [{"installPath": str(tmp_path)}], "b@m": [{"installPath": str(tmp_path / "gone")}], "c@m": []}
    assert installed_keys({"plugins": entries}) == frozenset({"a@m"})
    assert installed_keys({}) == frozenset() and installed_keys({"plugins": []}) is None


def test_doctor_reads_a_projects_own_and_local_claude_settings_from_the_folder_and_its_work_trees_top(tmp_path):
    from kg_actors.setup.doctor_others import check_project_plugins, project_folders
    old = _plugin(tmp_path / "cache" / "old", "knowledge-graph")
    home, top = tmp_path / "home", tmp_path / "repo"
    (home / ".claude" / "plugins").mkdir(parents=True)
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(json.dumps({"plugins": {
        "knowledge-graph@m": [{"scope": "local", "projectPath": str(top), "installPath": str(old)}]}}))
    (top / ".git").mkdir(parents=True)
    (top / "sub").mkdir()
    (top / ".claude").mkdir()
    (top / ".claude" / "settings.local.json").write_text(json.dumps({"enabledPlugins": {"knowledge-graph@m": True}}))
    assert project_folders(top / "sub") == [top / "sub", top] and project_folders(top) == [top]
    said: list[tuple[str, ...]] = []

    class R:
        def bad(self, what, text, fix):
            said.append(("bad", text, fix))

        def note(self, what, text):
            said.append(("note", text))

    check_project_plugins(R(), top / "sub", {}, home, KEY, wired=True)
    assert said == [("bad", f"another kg memory plugin is enabled in this project by {top}/.claude/settings.local.json: "
                            "knowledge-graph@m (kg-memory 0.17.0's plugin); its hooks and kg tools run beside kg's here "
                            "(every hook twice)",
                     f"cd {top} && claude plugin disable knowledge-graph@m --scope local (kg setup disables plugins "
                     "for the user only)")]
    said.clear()
    check_project_plugins(R(), top / "sub", {}, home, KEY, wired=False)
    assert [s[0] for s in said] == ["note"]
    # Enabled by the project's settings and disabled by the local ones: Claude Code reads the local over it.
    said.clear()
    (top / ".claude" / "settings.json").write_text(json.dumps({"enabledPlugins": {"knowledge-graph@m": True}}))
    (top / ".claude" / "settings.local.json").write_text(json.dumps({"enabledPlugins": {"knowledge-graph@m": False}}))
    check_project_plugins(R(), top, {}, home, KEY, wired=True)
    assert said == []
    (top / ".claude" / "settings.local.json").write_text("{}")
    check_project_plugins(R(), top, {}, home, KEY, wired=True)
    assert [s[0] for s in said] == ["bad"] and "--scope project" in said[0][2], said


def test_kg_mcp_run_through_a_package_runner_or_as_a_module_is_kg_mcp_and_other_packages_are_not():
    assert runs_kg_mcp({"command": "uvx", "args": ["kg-memory", "mcp"]})
    assert runs_kg_mcp({"command": "uvx", "args": ["--from", "kg-memory==0.17.0", "kg", "mcp"]})
    assert runs_kg_mcp({"command": "uv", "args": ["tool", "run", "kg-memory@0.17", "mcp"]})
    assert runs_kg_mcp({"command": "pipx", "args": ["run", "--spec", "kg-memory", "kg", "mcp"]})
    assert runs_kg_mcp({"command": "/usr/bin/python3.11", "args": ["-m", "kg_actors", "mcp"]})
    assert runs_kg_mcp({"command": "sh", "args": ["-c", "command -v uvx >/dev/null && exec uvx kg-memory mcp"]})
    assert runs_kg_mcp({"command": "uvx kg-memory mcp"})
    assert not runs_kg_mcp({"command": "uvx", "args": ["kg-memory", "mcp-bridge"]})
    assert not runs_kg_mcp({"command": "uvx", "args": ["--from", "kg-memory", "some-tool", "mcp"]})
    assert not runs_kg_mcp({"command": "pipx", "args": ["run", "my-kg", "mcp"]})
    assert not runs_kg_mcp({"command": "python3", "args": ["-m", "http.server", "mcp"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "echo 'uvx kg-memory mcp'; exec mytool"]})
    assert not runs_kg_mcp({"command": "sh", "args": ["-c", "# uvx kg-memory mcp\nexec mytool"]})


def test_kg_mcp_run_by_python_with_options_by_uv_run_or_by_a_package_name_spelt_otherwise_is_kg_mcp():
    """Audit: these ran another kg memory server beside kg's and setup left them (every kg tool twice)."""
    for argv in (["python", "-u", "-m", "kg_actors", "mcp"], ["python", "-X", "utf8", "-m", "kg_actors", "mcp"],
                 ["python3", "-I", "-m", "kg_actors", "mcp"], ["python", "-m", "kg_actors.cli", "mcp"],
                 ["uv", "run", "python", "-m", "kg_actors", "mcp"],
                 ["uv", "run", "--directory", "/src/kg", "python", "-m", "kg_actors", "mcp"],
                 ["uvx", "kg_memory", "mcp"], ["uvx", "KG.Memory", "mcp"],
                 ["uvx", "--refresh-package", "kg-memory", "kg-memory", "mcp"],
                 ["uvx", "--exclude-newer", "2026-01-01", "kg-memory", "mcp"],
                 ["uv", "--directory", "/src/kg", "run", "kg", "mcp"], ["uv", "--project", "/src/kg", "run", "kg", "mcp"],
                 ["uv", "-q", "run", "kg", "mcp"], ["python3", "-mkg_actors", "mcp"]):
        assert runs_kg_mcp({"command": argv[0], "args": argv[1:]}), argv
    for argv in (["uvx", "kg-memory-viewer", "mcp"], ["python", "-m", "kg_actors_fork", "mcp"],
                 ["uvx", "--with", "kg-memory", "other-server", "mcp"], ["pipx", "run", "other", "--spec", "kg-memory",
                                                                          "kg", "mcp"],
                 ["python", "-u", "-m", "http.server", "mcp"], ["uv", "run", "python", "-m", "kg_actors", "serve"],
                 ["uv", "--directory", "/src/kg", "run", "other", "mcp"], ["python3", "-mhttp.server", "mcp"]):
        assert not runs_kg_mcp({"command": argv[0], "args": argv[1:]}), argv
