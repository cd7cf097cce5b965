"""Setup's decisions from what it found: pure, no files, no CLIs."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from kg_actors.setup.plan import (
    CUSTOMIZED, STEPS, AntigravityFound, ChoresFound, ClaudeFound, CodexFound, DesktopFound, Found, GeminiFound, OpenCodeFound, Undo,
    parse_only, plan_setup, plan_uninstall,
)
from kg_actors.setup.files import foreign_entry

MDIR = Path("/s/setup/marketplace")
KEY = "kg-memory@kg-local"
ENTRY = {"command": "/venv/bin/kg", "args": ["mcp"]}


def found(**kw) -> Found:
    base = dict(
        marketplace_dir=MDIR, marketplace_current=True, plugin_key=KEY, desktop_entry=ENTRY,
        claude=ClaudeFound("/bin/claude", marketplace=str(MDIR), installed=True, enabled=True, cache_current=True,
                           settings={"statusLine": {"type": "command", "command": "/venv/bin/kg gauge"}}),
        codex=CodexFound("/bin/codex", marketplace=str(MDIR), installed=True, enabled=True, cache_current=True,
                         trusted=True),
        desktop=DesktopFound(Path("/h/.config/Claude/claude_desktop_config.json"), entry=ENTRY),
        gemini=GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), installed=True),
        antigravity=AntigravityFound("/bin/agy", MDIR / "kg-memory/harnesses/antigravity", installed=True),
        opencode=OpenCodeFound("/bin/opencode", Path("/h/.config/opencode/opencode.json"), installed=True),
        chores=ChoresFound(Path("/s/chores.json"), enabled=True),
    )
    base.update(kw)
    return Found(**base)


def kinds(step) -> list[str]:
    return [a.kind if a.kind != "run" else " ".join(a.argv[1:3]) for a in step.actions]


def test_everything_in_place_plans_nothing():
    steps = plan_setup(found())
    assert [s.name for s in steps] == list(STEPS)
    assert all(not s.actions and not s.problem and s.note == ("on" if s.name == "chores" else
                                                                "up to date") for s in steps)


def test_a_fresh_machine_gets_the_plugin_through_each_cli():
    fresh = found(marketplace_current=False, claude=ClaudeFound("/bin/claude"), codex=CodexFound("/bin/codex"),
                  desktop=DesktopFound(Path("/h/c.json")))
    claude, codex, desktop, gauge = plan_setup(fresh, ("claude", "codex", "desktop", "gauge"))
    assert kinds(gauge) == ["claude_statusline"]  # the quota gauge is offered as its own question
    assert kinds(claude) == ["write_plugin", "plugin marketplace", "plugin install"]
    assert claude.actions[1].argv == ("/bin/claude", "plugin", "marketplace", "add", str(MDIR))
    assert claude.actions[2].argv == ("/bin/claude", "plugin", "install", KEY, "--scope", "user")
    assert kinds(codex) == ["write_plugin", "plugin marketplace", "plugin add", "codex_trust"]
    assert [a.fact for a in codex.actions] == [None, "marketplace", "installed", "trusted"]
    assert kinds(desktop) == ["desktop_write"]


def test_missing_harnesses_are_skipped_not_problems():
    steps = plan_setup(found(claude=ClaudeFound(None), codex=CodexFound(None), desktop=DesktopFound(None),
                             gemini=GeminiFound(None, Path("/h/.gemini/settings.json"), present=False),
                             antigravity=AntigravityFound(None, MDIR),
                             opencode=OpenCodeFound(None, Path("/h/.config/opencode/opencode.json"), present=False)))
    assert all(not s.actions and not s.problem and "skipped" in s.note for s in steps if s.name != "chores")


def test_a_changed_plugin_is_installed_afresh_in_claude_and_retrusted_in_codex():
    stale = found(claude=attrs.evolve(found().claude, cache_current=False),
                  codex=attrs.evolve(found().codex, cache_current=False))
    claude, codex = plan_setup(stale, ("claude", "codex"))
    assert kinds(claude) == ["plugin uninstall", "plugin install"]
    assert kinds(codex) == ["plugin add", "codex_trust"]


def test_a_marketplace_pointing_elsewhere_is_replaced():
    moved = found(claude=attrs.evolve(found().claude, marketplace="/old/place"))
    (claude,) = plan_setup(moved, ("claude",))
    assert kinds(claude)[:2] == ["plugin marketplace", "plugin marketplace"]
    assert claude.actions[0].argv[-1] == "kg-local" and claude.actions[1].argv[-1] == str(MDIR)


def test_a_removal_of_what_is_already_gone_is_done_so_the_install_after_it_runs():
    """Claude Code uninstalls a marketplace's plugins with it: the outdated copy's uninstall then finds none."""
    moved = found(claude=attrs.evolve(found().claude, marketplace="/old/place"))
    (claude,) = plan_setup(moved, ("claude",))
    assert kinds(claude) == ["plugin marketplace", "plugin marketplace", "plugin uninstall", "plugin install"]
    assert [a.gone_ok for a in claude.actions] == [True, False, True, False]


def test_untrusted_codex_hooks_get_trust_only():
    (codex,) = plan_setup(found(codex=attrs.evolve(found().codex, trusted=False)), ("codex",))
    assert kinds(codex) == ["codex_trust"]


def test_a_disabled_claude_plugin_is_enabled():
    (claude,) = plan_setup(found(claude=attrs.evolve(found().claude, enabled=False)), ("claude",))
    assert kinds(claude) == ["plugin enable"]


def test_unreadable_configs_are_problems_that_change_nothing():
    bad = found(claude=ClaudeFound("/bin/claude", error="settings.json: not valid JSON"),
                codex=CodexFound("/bin/codex", error="config.toml: not valid TOML"),
                desktop=DesktopFound(Path("/h/c.json"), error="c.json: expected a JSON object"))
    steps = plan_setup(bad, ("claude", "codex", "desktop", "gauge"))
    assert not any(s.actions for s in steps)
    assert [s.note for s in steps if s.problem] == ["settings.json: not valid JSON", "config.toml: not valid TOML",
                                                    "c.json: expected a JSON object"]  # each said once


def test_a_users_own_kg_server_beside_the_plugin_is_named_and_left_alone():
    # The plugin brings `kg`: Codex would hide it behind the user's [mcp_servers.kg], Claude Code show both.
    steps = plan_setup(found(marketplace_current=False,
                             claude=ClaudeFound("/bin/claude", own_server="/h/.claude.json: mcpServers.kg"),
                             codex=CodexFound("/bin/codex", own_server="/h/.codex/config.toml: [mcp_servers.kg]")),
                       ("claude", "codex"))
    assert [(s.problem, s.actions) for s in steps] == [(True, ()), (True, ())]
    assert "/h/.claude.json: mcpServers.kg is already set to something else; left untouched" in steps[0].note
    assert "`claude mcp remove kg --scope user`" in steps[0].note and "`codex mcp remove kg`" in steps[1].note


def test_a_foreign_desktop_entry_is_left_alone_but_our_old_one_is_updated():
    foreign = {"command": "/elsewhere/kg", "args": ["mcp"]}
    (d,) = plan_setup(found(desktop=DesktopFound(Path("/h/c.json"), entry=foreign)), ("desktop",))
    assert d.problem and not d.actions and "left untouched" in d.note
    (d,) = plan_setup(found(desktop=DesktopFound(Path("/h/c.json"), entry=foreign, ours=foreign)), ("desktop",))
    assert kinds(d) == ["desktop_write"]


def test_a_foreign_gemini_or_opencode_entry_is_left_alone():
    g = GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), foreign=True)
    o = OpenCodeFound("/bin/opencode", Path("/h/.config/opencode/opencode.json"), foreign=True)
    for step in plan_setup(found(gemini=g, opencode=o), ("gemini", "opencode")):
        assert step.problem and not step.actions and "is already set to something else; left untouched" in step.note


def test_gemini_settings_with_comments_are_a_problem_while_there_is_something_to_write():
    g = GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), comments=True)
    (step,) = plan_setup(found(gemini=g), ("gemini",))
    assert step.problem and not step.actions and "it holds comments" in step.note and "by hand" in step.fix
    (done,) = plan_setup(found(gemini=attrs.evolve(g, installed=True)), ("gemini",))  # kg's entries already in it
    assert not done.problem and done.note == "up to date"


def test_which_kg_entries_are_someone_elses():
    want, old = {"command": "/v/bin/kg", "args": ["mcp"]}, {"command": "/old/bin/kg", "args": ["mcp"]}
    theirs = {"command": "/opt/other/kg-server", "args": ["--stdio"]}
    assert not foreign_entry(None, want, None) and not foreign_entry(want, want, None)
    assert not foreign_entry(old, want, old)  # what setup wrote last time: updated
    assert foreign_entry(old, want, None)  # another kg install's entry, never written by this setup
    assert not foreign_entry(old, want, None, wrote_unrecorded=True)  # written by an older setup of ours
    assert foreign_entry(theirs, want, None, wrote_unrecorded=True)
    assert not foreign_entry({"command": ["/py", "-m", "kg_actors", "mcp"]}, want, None, wrote_unrecorded=True)
    assert foreign_entry({"command": "/v/bin/kg", "args": "mcp"}, want, None, wrote_unrecorded=True)


def test_only_picks_steps_in_order_and_rejects_unknown_names():
    assert parse_only(None) == STEPS
    assert parse_only("desktop, claude,claude") == ("desktop", "claude")
    assert [s.name for s in plan_setup(found(), parse_only("desktop,claude"))] == ["claude", "desktop"]
    with pytest.raises(ValueError, match="cursor"):
        parse_only("claude,cursor")
    for empty in ("", " , "):
        with pytest.raises(ValueError, match="--only takes"):
            parse_only(empty)


def test_uninstall_undoes_only_what_the_record_holds():
    undo = Undo({"codex": {"installed": True, "trusted": True}, "desktop": {"config": "/h/c.json"}},
                {Path("/h/.codex/config.toml"): True, Path("/h/c.json"): False}, MDIR, Path("/s/setup/record.json"),
                KEY, claude_cli="/bin/claude", codex_cli="/bin/codex")
    steps = {s.name: s for s in plan_uninstall(undo)}
    assert "claude" not in steps  # setup never touched it
    assert [a.argv[1:] for a in steps["codex"].actions] == [("plugin", "remove", KEY), ()]
    assert [a.kind for a in steps["codex"].actions] == ["run", "codex_untrust"]
    files = steps["files"].actions
    assert [(a.kind, a.path) for a in files] == [("restore", Path("/h/.codex/config.toml")),
                                                  ("remove_dir", MDIR), ("remove_dir", Path("/s/setup/record.json"))]


def test_uninstall_names_a_harness_whose_cli_is_gone():
    undo = Undo({"claude": {"installed": True, "marketplace": True}}, {}, MDIR, Path("/r"), KEY)
    claude = plan_uninstall(undo)[0]
    assert claude.problem and "no longer on PATH" in claude.note


def test_uninstall_with_claudes_settings_unreadable_runs_nothing_for_claude_and_keeps_the_record():
    undo = Undo({"claude": {"installed": True, "marketplace": True}}, {}, MDIR, Path("/r"), KEY, claude_cli="/bin/claude",
                claude_unreadable="/h/.claude/settings.json: not valid JSON (Expecting value)")
    claude = plan_uninstall(undo)[0]
    assert claude.problem and not claude.actions
    assert claude.note.startswith("/h/.claude/settings.json: not valid JSON (Expecting value): kg's entries in it "
                                  f"(the plugin {KEY}, the marketplace kg-local) stay")


def test_gemini_opencode_and_antigravity_are_wired_once_and_then_up_to_date():
    fresh = found(marketplace_current=False,
                  gemini=GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json")),
                  antigravity=AntigravityFound("/bin/agy", MDIR / "kg-memory/harnesses/antigravity"),
                  opencode=OpenCodeFound(None, Path("/h/.config/opencode/opencode.json")))
    gemini, agy, oc = plan_setup(fresh, ("gemini", "antigravity", "opencode"))
    assert kinds(gemini) == ["write_plugin", "gemini_write"] and gemini.actions[1].fact == "settings"
    assert kinds(agy) == ["write_plugin", "plugin install"]
    assert agy.actions[1].argv == ("/bin/agy", "plugin", "install", str(MDIR / "kg-memory/harnesses/antigravity"))
    assert kinds(oc) == ["opencode_write"]
    bad = found(gemini=GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), error="settings.json: not JSON"))
    (g,) = plan_setup(bad, ("gemini",))
    assert g.problem and not g.actions


def test_uninstall_takes_out_what_setup_put_into_gemini_opencode_and_antigravity():
    undo = Undo({"gemini": {"settings": True, "path": "/h/.gemini/settings.json"},
                 "opencode": {"settings": True, "path": "/h/.config/opencode/opencode.json"},
                 "antigravity": {"installed": True}}, {}, MDIR, Path("/s/setup/record.json"), KEY, agy_cli="/bin/agy")
    steps = {s.name: s for s in plan_uninstall(undo)}
    assert kinds(steps["gemini"]) == ["gemini_remove"] and kinds(steps["opencode"]) == ["opencode_remove"]
    assert steps["antigravity"].actions[0].argv == ("/bin/agy", "plugin", "uninstall", "kg-memory")
    gone = plan_uninstall(attrs.evolve(undo, agy_cli=None))
    assert any(s.name == "antigravity" and s.problem for s in gone)


def test_uninstall_removes_the_plugin_an_opencode_step_that_failed_half_way_wrote():
    def opencode_actions(facts: dict) -> list[tuple[str, str]]:
        steps = plan_uninstall(Undo({"opencode": facts}, {}, MDIR, Path("/s/setup/record.json"), KEY))
        return [(a.kind, str(a.path)) for s in steps if s.name == "opencode" for a in s.actions]

    plugin = "/h/.config/opencode/plugin/kg-memory.js"
    assert opencode_actions({"plugin": plugin}) == [("opencode_plugin_remove", plugin)]
    # A record from before the plugin's path was kept names only the plugin folder the step made.
    assert opencode_actions({"made": ["/h/.config/opencode/plugin", "/h/.config/opencode"]}) == [
        ("opencode_plugin_remove", plugin)]
    assert opencode_actions({"made": ["/h/.config/opencode"]}) == []  # no plugin folder of setup's: nothing in it
    done = {"settings": True, "path": "/h/.config/opencode/opencode.json", "plugin": plugin}
    assert opencode_actions(done) == [("opencode_remove", "/h/.config/opencode/opencode.json")]


def test_uninstall_removes_the_folders_setup_made_deepest_first_after_the_files():
    undo = Undo({"gemini": {"settings": True, "path": "/h/.gemini/settings.json", "made": ["/h/.gemini"]},
                 "opencode": {"settings": True, "path": "/h/.config/opencode/opencode.json",
                              "made": ["/h/.config/opencode/plugin", "/h/.config/opencode", "/h/.config"]}},
                {Path("/h/.gemini/settings.json"): True}, MDIR, Path("/s/setup/record.json"), KEY)
    tail = [a for a in plan_uninstall(undo)[-1].actions]
    folders = [str(a.path) for a in tail if a.kind == "remove_empty_dir"]
    assert folders[:2] == ["/h/.config/opencode/plugin", "/h/.config/opencode"] and folders[-1] == "/h/.config"
    assert set(folders) == {"/h/.gemini", "/h/.config/opencode/plugin", "/h/.config/opencode", "/h/.config"}
    assert kinds(plan_uninstall(undo)[-1])[0] == "restore"  # the file first: its folder is empty only after


def test_a_disabled_kg_plugins_rules_stay_when_a_namesake_is_installed_for_a_project():
    from kg_actors.setup.other_plugins import OtherPlugin

    other = OtherPlugin("mytool@user-tools3", "its MCP server notes runs `kg mcp`", ("notes",))
    settings = {"permissions": {"allow": ["mcp__plugin_mytool_notes__*", "Bash(git status)"]},
                "enabledPlugins": {"mytool@user-tools3": True, "mytool@user-tools": False}}
    claude = attrs.evolve(found().claude, settings=settings, others=(other,))
    (step,) = [s for s in plan_setup(found(claude=claude)) if s.name == "claude"]
    assert "claude_drop_rules" in kinds(step)  # no namesake anywhere: its rules go with it
    # The user's own mytool@user-tools, disabled for the user, is installed and enabled in a project.
    claude = attrs.evolve(claude, in_projects=frozenset({"mytool@user-tools"}))
    (step,) = [s for s in plan_setup(found(claude=claude)) if s.name == "claude"]
    assert "claude_drop_rules" not in kinds(step) and any("rules stay" in a.text for a in step.actions), step


def test_another_programs_server_named_kg_is_named_so_in_every_agent_and_renaming_it_is_the_fix():
    other = {"command": "npx", "args": ["-y", "some-other-kg-server"]}
    local = {"type": "local", "command": ["npx", "-y", "some-other-kg-server"]}
    steps = plan_setup(found(
        claude=ClaudeFound("/bin/claude", own_server="/h/.claude.json: mcpServers.kg", own_entry=other),
        codex=CodexFound("/bin/codex", own_server="/h/.codex/config.toml: [mcp_servers.kg]", own_entry=other),
        desktop=DesktopFound(Path("/h/c.json"), entry=other),
        gemini=GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), foreign=True, entry=other),
        opencode=OpenCodeFound("/bin/opencode", Path("/h/opencode.json"), foreign=True, entry=local)),
        ("claude", "codex", "desktop", "gemini", "opencode"))
    for step in steps:
        assert step.problem and not step.actions, step
        assert "is another program's MCP server named kg (it runs `npx -y some-other-kg-server`)" in step.note
        assert f"kg's tools are not set up for {step.title}" in step.note and "remove" not in step.note + step.fix
        assert "some-other-kg-server" in step.fix and step.fix.endswith(f"kg setup --only {step.name}")
    assert "[mcp_servers.some-other-kg-server]" in steps[1].note


def test_a_kg_servers_own_entry_under_that_name_is_still_the_one_to_take_out():
    # kg's `kg mcp` of another install: the plugin brings kg's server, so removing it loses nothing.
    old = {"command": "/opt/old-kg/bin/kg", "args": ["mcp"]}
    (codex,) = plan_setup(found(codex=CodexFound("/bin/codex", own_server="/h/config.toml: [mcp_servers.kg]",
                                                 own_entry=old)), ("codex",))
    assert "`codex mcp remove kg`" in codex.note and "another program" not in codex.note


def test_the_name_suggested_for_the_users_server_says_what_it_runs():
    from kg_actors.setup.name_taken import suggested
    assert suggested({"command": "npx", "args": ["-y", "@acme/graph-mcp@1.2"]}) == "graph-mcp"
    assert suggested({"command": "/opt/kubegraph/bin/kg-server", "args": ["--stdio"]}) == "kg-server"
    assert suggested({"command": ["uvx", "kg"]}) == "other-kg"
    assert suggested({"url": "https://example.com/mcp"}) == "other-kg"


def test_setup_says_it_keeps_the_users_own_kg_entry_where_it_adds_only_the_hooks():
    mine = {**ENTRY, "timeout": 30000}
    g = GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), customized=True, entry=mine, target=mine)
    (step,) = plan_setup(found(gemini=g), ("gemini",))
    text = step.actions[-1].text
    assert "kg MCP server" not in text and "mcpServers.kg, kg's as you set it, stays as it is" in text
    (step,) = plan_setup(found(gemini=GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"))), ("gemini",))
    assert "and the kg MCP server to /h/.gemini/settings.json" in step.actions[-1].text
    o = OpenCodeFound("/bin/opencode", Path("/h/oc/opencode.json"), customized=True, entry=mine, target=mine)
    (step,) = plan_setup(found(opencode=o), ("opencode",))
    assert "kg MCP server" not in step.actions[0].text and "mcp.kg in /h/oc/opencode.json, kg's as you set it, stays" \
        in step.actions[0].text


def test_the_users_own_entry_running_this_kgs_kg_mcp_is_kgs_in_claude_code_and_codex_too():
    # `claude mcp add -s user kg -- /venv/bin/kg mcp` and `codex mcp add kg -- /venv/bin/kg mcp`: kg's entry, as
    # Desktop, Gemini and OpenCode judge the same one; never "something else", never a removal.
    mine = {"type": "stdio", "command": "/venv/bin/kg", "args": ["mcp"], "env": {}}
    claude = ClaudeFound("/bin/claude", marketplace=str(MDIR), installed=True, enabled=True, cache_current=True,
                         own_server="/h/.claude.json: mcpServers.kg", own_entry=mine)
    codex = CodexFound("/bin/codex", marketplace=str(MDIR), installed=True, enabled=True, cache_current=True,
                       trusted=True, own_server="/h/.codex/config.toml: [mcp_servers.kg]", own_entry=dict(ENTRY))
    steps = plan_setup(found(claude=claude, codex=codex), ("claude", "codex"))
    assert [(s.problem, s.actions, s.note) for s in steps] == [(False, (), CUSTOMIZED), (False, (), CUSTOMIZED)]
    fresh = plan_setup(found(marketplace_current=False, claude=attrs.evolve(claude, installed=False),
                             codex=attrs.evolve(codex, installed=False)), ("claude", "codex"))
    for step in fresh:
        assert not step.problem and "install" in " ".join(a.text for a in step.actions)
        assert step.note.endswith("kg's entry, customized: left as you set it") and "remove" not in step.note


def test_uninstall_says_only_what_goes_when_the_users_own_kg_entry_stays():
    done = {"gemini": {"settings": True, "path": "/h/.gemini/settings.json"},
            "opencode": {"settings": True, "path": "/h/.config/opencode/opencode.json"},
            "desktop": {"config": "/h/.config/Claude/claude_desktop_config.json"}}
    undo = Undo(done, {}, MDIR, Path("/s/record.json"), KEY)
    said = [a.text for s in plan_uninstall(undo) for a in s.actions if s.name in ("gemini", "opencode", "desktop")]
    assert "MCP server" in said[0] and "MCP server" in said[1]
    assert said[2] == "remove the kg MCP server from /h/.config/Claude/claude_desktop_config.json"
    everyone = frozenset({"gemini", "opencode", "desktop"})
    kept = [a.text for s in plan_uninstall(attrs.evolve(undo, entries_kept=everyone))
            for a in s.actions if s.name in ("gemini", "opencode", "desktop")]
    assert kept == ["remove the kg hooks from /h/.gemini/settings.json",
                    "remove the kg-memory plugin from /h/.config/opencode",
                    "leave mcpServers.kg in /h/.config/Claude/claude_desktop_config.json: it is not what kg setup "
                    "put there (yours, or another server of that name)"]
