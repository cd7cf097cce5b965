"""A config file setup cannot read is said the same way for every agent, with the next step, and under one
label in a run (setup's and uninstall's)."""

from __future__ import annotations

import re

from test_setup_entries_kept import Desk


def test_unreadable_configs_are_failed_alike_each_with_its_next_step(tmp_path):
    desk = Desk(tmp_path)
    try:
        desk.gemini.write_text('{"theme": "Dracula",\n  "mcpServers": {"fs": {"command": "npx"}},,\n}\n')
        desk.desktop.write_text('{"mcpServers": {"a": 1},}')
        desk.opencode.write_text('{"mcp": [1, 2,}')
        setup = desk.kg("setup", "--yes", "--only", "desktop,gemini,opencode")
        assert setup.returncode == 1, setup.stdout
        lines = {agent: next(x for x in setup.stdout.splitlines() if x.startswith(agent + ":"))
                 for agent in ("Claude Desktop", "Gemini CLI", "OpenCode")}
        for agent, line in lines.items():
            assert re.fullmatch(rf"{agent}: FAILED: \S+: not valid JSON \(.+\); left untouched: fix or move it, "
                                r"then run kg setup again.*", line), line
        assert "PROBLEM" not in setup.stdout
    finally:
        desk.server.kill()
