"""A damaged install (hooks/common.sh missing, unreadable as shell, or a folder) never blocks a session.

Claude Code reads a hook's exit 2 from UserPromptSubmit or PreToolUse as "block this", and shows its stderr:
every hook script, Claude Code's, Codex's (the same scripts) and Gemini's, prints nothing and exits 0.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hook_helpers import HOOKS, SYSTEM_PATH

PAYLOAD = {"session_id": "5f1d2c3a-0000-4000-8000-000000000001", "transcript_path": "/nonexistent/t.jsonl",
           "cwd": "/tmp", "permission_mode": "default"}
RUNS = [
    ("session_start.sh", [], {"hook_event_name": "SessionStart", "source": "startup"}),
    ("prompt.sh", [], {"hook_event_name": "UserPromptSubmit", "prompt": "how does the JWT refresh work"}),
    ("pre_tool.sh", [], {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
    ("tool_event.sh", [], {"hook_event_name": "PostToolUse", "tool_name": "Read",
                           "tool_input": {"file_path": "/tmp/x.py"}, "tool_response": {}}),
    ("gemini.sh", ["SessionStart"], {"hook_event_name": "SessionStart", "source": "startup"}),
    ("gemini.sh", ["BeforeAgent"], {"hook_event_name": "BeforeAgent", "prompt": "how does it work"}),
    ("gemini.sh", ["AfterTool"], {"hook_event_name": "AfterTool", "tool_name": "read_file", "tool_input": {}}),
]


def _damage(hooks: Path, how: str) -> None:
    common = hooks / "common.sh"
    if how == "missing":
        common.unlink()
    elif how == "cut short":  # a copy stopped mid-write: a syntax error when sourced
        text = common.read_text()
        common.write_text(text[:text.index("kg_fetch() {") + len("kg_fetch() {")])
    elif how == "a folder":
        common.unlink()
        common.mkdir()
    elif how == "empty":  # reads, but defines nothing the hooks call
        common.write_text("")


@pytest.mark.parametrize("shell", ["sh", "bash"])
@pytest.mark.parametrize("how", ["missing", "cut short", "a folder", "empty"])
def test_every_hook_with_common_sh_damaged_prints_nothing_and_exits_0(tmp_path, how, shell):
    hooks = tmp_path / "plugin" / "hooks"
    shutil.copytree(HOOKS, hooks)
    _damage(hooks, how)
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": SYSTEM_PATH, "LANG": "C.UTF-8", "KG_HTTP_PORT": "9"}
    for script, args, extra in RUNS:
        proc = subprocess.run([shell, str(hooks / script), *args], input=json.dumps({**PAYLOAD, **extra}).encode(),
                              env=env, capture_output=True, timeout=30, cwd=home)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b""), (script, args, proc)
