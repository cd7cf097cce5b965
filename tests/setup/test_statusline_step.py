"""The `gauge` setup step: `kg gauge` offered as Claude Code's status line, wrapping the user's own."""

import json
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
