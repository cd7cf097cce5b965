"""The `gauge` setup step: `kg gauge` offered as Claude Code's status line, wrapping the user's own."""

import json
import time
from pathlib import Path

import pytest

from kg_actors.setup import SetupError, plan, statusline

SETTINGS = Path("/h/.claude/settings.json")
KG = ["/opt/kg/bin/kg"]


def test_offered_when_claude_code_has_no_status_line():
    step = plan.gauge_step("/bin/claude", {}, None, SETTINGS, KG)
    (action,) = step.actions
    assert action.kind == "claude_statusline" and action.argv == ("/opt/kg/bin/kg gauge",) and action.path == SETTINGS
    assert "5h N% · week M%" in action.text


def test_the_users_own_status_line_is_wrapped_not_replaced():
    settings = {"statusLine": {"type": "command", "command": "~/bin/my line.sh"}}
    (action,) = plan.gauge_step("/bin/claude", settings, None, SETTINGS, KG).actions
    assert action.argv == ("/opt/kg/bin/kg gauge --wrap '~/bin/my line.sh'",) and "my line.sh" in action.text


def test_up_to_date_skipped_or_broken_says_so():
    ours = {"statusLine": {"type": "command", "command": "/opt/kg/bin/kg gauge --wrap x"}}
    assert plan.gauge_step("/bin/claude", ours, None, SETTINGS, KG).note == "up to date"
    assert "skipped" in plan.gauge_step(None, None, None, SETTINGS, KG).note
    assert "skipped" in plan.gauge_step("/bin/claude", None, "bad JSON", SETTINGS, KG).note


def test_merged_keeps_every_other_setting():
    raw = json.dumps({"enabledPlugins": {"kg-memory@kg-local": True}, "model": "opus"}).encode()
    data = json.loads(statusline.merged(raw, "kg gauge", SETTINGS))
    assert data == {"enabledPlugins": {"kg-memory@kg-local": True}, "model": "opus",
                    "statusLine": {"type": "command", "command": "kg gauge"}}
    with pytest.raises(SetupError, match="not valid JSON"):
        statusline.merged(b"{", "kg gauge", SETTINGS)


def test_uninstall_gives_the_user_their_own_status_line_back_when_the_file_was_edited_since():
    """Claude Code rewrites settings.json often, so it is seldom restored whole: the gauge is taken out alone."""
    mine = "~/bin/my line.sh"
    wrapped = {"model": "opus", "statusLine": {"type": "command", "command": statusline.gauge_command(KG, mine),
                                               "padding": 1}}
    out = json.loads(statusline.without(json.dumps(wrapped).encode(), SETTINGS))
    assert out == {"model": "opus", "statusLine": {"type": "command", "command": mine, "padding": 1}}
    alone = {"statusLine": {"type": "command", "command": statusline.gauge_command(KG, None)}}
    assert json.loads(statusline.without(json.dumps(alone).encode(), SETTINGS)) == {}
    assert statusline.without(json.dumps({"statusLine": {"type": "command", "command": mine}}).encode(), SETTINGS) is None
    undo = plan.Undo({"gauge": {"statusline": True, "path": str(SETTINGS)}}, {SETTINGS: False}, Path("/m"),
                     Path("/r.json"), "kg-memory@kg-local")
    (gauge,) = [s for s in plan.plan_uninstall(undo) if s.name == "gauge"]
    assert [a.kind for a in gauge.actions] == ["statusline_remove"] and gauge.actions[0].path == SETTINGS
    untouched = plan.Undo(undo.done, {SETTINGS: True}, Path("/m"), Path("/r.json"), "kg-memory@kg-local")
    assert not [s for s in plan.plan_uninstall(untouched) if s.name == "gauge"]  # restored whole instead


def test_the_users_other_status_line_keys_and_their_file_s_layout_stay():
    raw = b'{\n    "statusLine": {"type": "command", "command": "~/bin/status.sh", "padding": 0},\n    "note": "\xc3\xbcn\xc3\xafcode"\n}\n'
    out = statusline.merged(raw, "/opt/kg/bin/kg gauge --wrap '~/bin/status.sh'", SETTINGS)
    data = json.loads(out)
    assert data["statusLine"] == {"type": "command", "command": "/opt/kg/bin/kg gauge --wrap '~/bin/status.sh'",
                                  "padding": 0}
    assert '\n    "note": "ünïcode"' in out.decode()  # four spaces and the text as typed, as the user wrote it
    back = json.loads(statusline.without(out, SETTINGS))
    assert back["statusLine"] == {"type": "command", "command": "~/bin/status.sh", "padding": 0}


def test_the_command_setup_writes_records_into_setups_store_whatever_claude_codes_environment(tmp_path):
    import os
    import subprocess
    import sys

    store = tmp_path / "my store"  # a KG_HOME with a space: the command quotes it
    kg = [sys.executable, "-P", "-m", "kg_actors"]
    (action,) = plan.gauge_step("/bin/claude", {}, None, SETTINGS, kg, store, tmp_path / ".knowledge-graph").actions
    frame = json.dumps({"rate_limits": {"five_hour": {"used_percentage": 30, "resets_at": time.time() + 3600}}})
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")} | {"HOME": str(tmp_path)}
    done = subprocess.run(["sh", "-c", action.argv[0]], input=frame, capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.stdout.strip() == "5h 30%", done.stderr
    assert json.loads((store / "claude-limits.json").read_text())["five_hour_pct"] == 30
    assert not (tmp_path / ".knowledge-graph").exists()


def _ours(command: str) -> dict:
    return {"statusLine": {"type": "command", "command": command}}


def test_a_status_line_running_a_kg_that_moved_is_rewritten_keeping_the_users_line():
    store, default = Path("/s"), Path("/h/.knowledge-graph")
    old = statusline.gauge_command(["/old/venv/bin/kg"], "~/bin/mine.sh", store)
    (action,) = plan.gauge_step("/bin/claude", _ours(old), None, SETTINGS, KG, store, default).actions
    assert action.argv == (statusline.gauge_command(KG, "~/bin/mine.sh", store),)
    assert action.argv[0] == "KG_HOME=/s /opt/kg/bin/kg gauge --wrap '~/bin/mine.sh'"
    assert "/old/venv/bin/kg" in action.text and "kg moved" in action.text
    back = json.loads(statusline.without(json.dumps(_ours(old)).encode(), SETTINGS))  # uninstall: theirs again
    assert back["statusLine"]["command"] == "~/bin/mine.sh"
    current = statusline.gauge_command(KG, "~/bin/mine.sh", store)
    assert plan.gauge_step("/bin/claude", _ours(current), None, SETTINGS, KG, store, default).note == "up to date"


def test_one_store_named_two_ways_is_one_store_and_another_store_is_named(tmp_path):
    default = tmp_path / ".knowledge-graph"
    default.mkdir()
    link = tmp_path / "kg-link"
    link.symlink_to(default)
    unnamed = statusline.gauge_command(KG, None)  # written before commands named the store: the default one
    for store in (default, link, Path(str(default) + "/")):
        assert plan.gauge_step("/bin/claude", _ours(unnamed), None, SETTINGS, KG, store, default).note == "up to date"
        named = statusline.gauge_command(KG, None, link)
        assert plan.gauge_step("/bin/claude", _ours(named), None, SETTINGS, KG, store, default).note == "up to date"
    other = tmp_path / "other"
    (action,) = plan.gauge_step("/bin/claude", _ours(unnamed), None, SETTINGS, KG, other, default).actions
    assert f"records into {default}, and this kg's store is {other}" in action.text
    assert action.argv == (f"KG_HOME={other} /opt/kg/bin/kg gauge",)


def test_uninstall_gives_back_another_kgs_gauge_setup_replaced_unless_its_wrapped_line_changed_since():
    """kg-memory 0.17 set its own `kg gauge` as the status line: setup's gauge took its place, and no `--wrap`
    kept it, so the bytes settings.json had before setup are where uninstall finds it."""
    old = "/home/u/.local/bin/kg gauge"
    before = json.dumps({"statusLine": {"type": "command", "command": old}}).encode()
    assert statusline.replaced(before) == old
    assert statusline.replaced(json.dumps({"statusLine": {"type": "command", "command": "~/my.sh"}}).encode()) is None
    assert statusline.replaced(None) is None and statusline.replaced(b"{") is None
    ours = {"env": {"LATER": "2"}, "statusLine": {"type": "command", "command": statusline.gauge_command(KG, None)}}
    out = json.loads(statusline.without(json.dumps(ours).encode(), SETTINGS, old))
    assert out == {"env": {"LATER": "2"}, "statusLine": {"type": "command", "command": old}}
    # Another kg's gauge that wrapped the user's line: ours wraps it too, and the whole old line comes back...
    wrapping = f"{old} --wrap '~/my.sh'"
    ours["statusLine"]["command"] = statusline.gauge_command(KG, "~/my.sh")
    assert json.loads(statusline.without(json.dumps(ours).encode(), SETTINGS, wrapping))["statusLine"]["command"] \
        == wrapping
    # ...but a line the user put behind kg's gauge since is theirs, given back as it is.
    ours["statusLine"]["command"] = statusline.gauge_command(KG, "~/newer.sh")
    assert json.loads(statusline.without(json.dumps(ours).encode(), SETTINGS, wrapping))["statusLine"]["command"] \
        == "~/newer.sh"
    undo = plan.Undo({"gauge": {"statusline": True, "path": str(SETTINGS)}}, {SETTINGS: False}, Path("/m"),
                     Path("/r.json"), "kg-memory@kg-local", statusline_back=old)
    (gauge,) = [s for s in plan.plan_uninstall(undo) if s.name == "gauge"]
    assert gauge.actions[0].argv == (old,) and old in gauge.actions[0].text
