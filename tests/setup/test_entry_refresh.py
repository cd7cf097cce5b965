"""kg's MCP entry at a later setup: setup's own last entry is rewritten to what setup writes now, only the user's
changes to it stay; and an entry kg keeps that reaches another port or store is said, never `up to date`."""

from __future__ import annotations

from pathlib import Path

from kg_actors.setup.entry_refresh import reach_said, refreshed
from kg_actors.setup.files import foreign_entry
from kg_actors.setup.plan import ClaudeFound, CodexFound, DesktopFound, GeminiFound, OpenCodeFound, plan_setup

from test_plan import ENTRY, MDIR, found

OLD = {"command": "/venv/bin/kg", "args": ["mcp"], "env": {"KG_HOME": "/s", "KG_HTTP_PORT": "31452"}}
NOW = {"command": "/venv/bin/kg", "args": ["mcp"], "env": {"KG_HOME": "/s", "KG_HTTP_PORT": "31453"}}
STORE = Path("/h/.knowledge-graph")


def test_setups_own_last_entry_is_rewritten_to_what_setup_writes_now():
    assert refreshed(OLD, NOW, OLD) == NOW
    moved = {**OLD, "command": "/new-venv/bin/kg"}
    assert refreshed(OLD, moved, OLD) == moved  # a new kg path too
    assert not foreign_entry({**OLD, "timeout": 5}, moved, OLD)  # the user's additions to setup's last entry: kg's


def test_only_the_users_changes_to_setups_last_entry_stay():
    mine = {**OLD, "env": {**OLD["env"], "KG_LOG": "debug"}, "timeout": 30000, "args": ["mcp", "--verbose"]}
    assert refreshed(mine, NOW, OLD) == {**NOW, "env": {**NOW["env"], "KG_LOG": "debug"}, "timeout": 30000,
                                         "args": ["mcp", "--verbose"]}
    theirs_port = {**OLD, "env": {**OLD["env"], "KG_HTTP_PORT": "9999"}}
    assert refreshed(theirs_port, NOW, OLD) == theirs_port  # a value the user set is theirs
    without = {"command": "/venv/bin/kg", "args": ["mcp"], "env": {"KG_HTTP_PORT": "31452"}}
    assert refreshed(without, NOW, OLD) == {**NOW, "env": {"KG_HTTP_PORT": "31453"}}  # what they took out stays out
    added_env = {"command": "/venv/bin/kg", "args": ["mcp"], "env": {"MINE": "1"}}
    no_env = {"command": "/venv/bin/kg", "args": ["mcp"]}
    assert refreshed(added_env, NOW, no_env) == {**NOW, "env": {**NOW["env"], "MINE": "1"}}


def test_without_a_record_of_setups_entry_kgs_entry_the_user_changed_is_left_whole():
    assert refreshed(OLD, NOW, None) == OLD
    assert refreshed(None, NOW, OLD) == NOW
    assert refreshed({"command": "/opt/other", "args": []}, NOW, None) == NOW  # not kg's: the caller's to refuse


def test_where_an_entry_sends_kg_mcp():
    assert reach_said(NOW, NOW, STORE) is None
    said = reach_said(OLD, NOW, STORE)
    assert said is not None and "31452" in said and "31453" in said
    said = reach_said({**NOW, "env": {"KG_HTTP_PORT": "31453"}}, NOW, STORE)
    assert said is not None and "KG_HOME" in said and str(STORE) in said and "/s" in said
    assert reach_said({"command": "kg", "args": ["mcp"]}, {"command": "kg", "args": ["mcp"]}, STORE) is None
    said = reach_said({"command": "kg", "args": ["mcp"]}, NOW, STORE)
    assert said is not None and "no KG_HTTP_PORT" in said


def test_a_desktop_gemini_or_opencode_entry_of_setups_last_run_is_updated_not_left_as_customized():
    (d,) = plan_setup(found(desktop_entry=NOW, desktop=DesktopFound(Path("/h/c.json"), entry=OLD, ours=OLD)),
                      ("desktop",))
    assert [a.kind for a in d.actions] == ["desktop_write"] and "KG_HTTP_PORT" in d.actions[0].text, d
    g = GeminiFound("/bin/gemini", Path("/h/.gemini/settings.json"), entry=OLD, target=NOW)
    o = OpenCodeFound("/bin/opencode", Path("/h/oc.json"), entry=OLD, target=NOW, want=NOW, plugin_current=True)
    for step in plan_setup(found(desktop_entry=NOW, gemini=g, opencode=o), ("gemini", "opencode")):
        assert step.actions and not step.problem and "as you set it" not in step.actions[-1].text, step
        assert "update its" in step.actions[-1].text and "KG_HTTP_PORT" in step.actions[-1].text


def test_kgs_entry_the_user_set_to_another_port_fails_in_every_agent():
    mine = {**NOW, "env": {**NOW["env"], "KG_HTTP_PORT": "9999"}}
    steps = plan_setup(found(
        desktop_entry=NOW, desktop=DesktopFound(Path("/h/c.json"), entry=mine, ours=NOW),
        gemini=GeminiFound("/bin/gemini", Path("/h/g.json"), installed=True, customized=True, entry=mine, target=mine),
        opencode=OpenCodeFound("/bin/opencode", Path("/h/oc.json"), installed=True, customized=True, entry=mine,
                               target=mine, want=NOW),
        claude=ClaudeFound("/bin/claude", marketplace=str(MDIR), installed=True, enabled=True, cache_current=True,
                           own_server="/h/.claude.json: mcpServers.kg", own_entry=mine),
        codex=CodexFound("/bin/codex", marketplace=str(MDIR), installed=True, enabled=True, cache_current=True,
                         trusted=True, own_server="/h/.codex/config.toml: [mcp_servers.kg]", own_entry=mine)),
        ("claude", "codex", "desktop", "gemini", "opencode"))
    for step in steps:
        assert step.problem and "9999" in step.note and "31453" in step.note, step
        assert "this store's" in step.fix, step
    assert "claude mcp remove kg" in steps[0].fix and "codex mcp remove kg" in steps[1].fix
    ok = plan_setup(found(claude=ClaudeFound("/bin/claude", marketplace=str(MDIR), installed=True, enabled=True,
                                             cache_current=True, own_server="/h/.claude.json: mcpServers.kg",
                                             own_entry=dict(ENTRY))), ("claude",))
    assert not ok[0].problem


def test_an_env_setup_no_longer_passes_keeps_only_the_users_variables():
    plain = {"command": "/venv/bin/kg", "args": ["mcp"]}
    assert refreshed(OLD, plain, OLD) == plain
    mine = {**OLD, "env": {**OLD["env"], "KG_LOG": "debug"}}
    assert refreshed(mine, plain, OLD) == {**plain, "env": {"KG_LOG": "debug"}}
