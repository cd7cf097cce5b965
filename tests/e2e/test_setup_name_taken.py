"""An MCP server of another program that happens to be named kg, in each agent's config (Claude Code, Codex,
Claude Desktop, Gemini CLI, OpenCode): setup and doctor name it as that program's, say kg's tools are not set
up for that agent while the name is taken, and advise renaming the user's entry, never removing it.

The real `kg setup` and `kg doctor`, with the real Claude Code and Codex CLIs (from npm) on PATH.
"""

from __future__ import annotations

import json

import pytest
from npm_clients import npm_bin
from test_setup import Machine

OTHER = ["npx", "-y", "some-other-kg-server"]
TITLES = ("Claude Code", "Codex", "Claude Desktop", "Gemini CLI", "OpenCode")


@pytest.fixture
def taken(tmp_path):
    m = Machine(tmp_path)
    for cli in ("claude", "codex"):
        scope = ("--scope", "user") if cli == "claude" else ()
        added = m.run(npm_bin(cli), "mcp", "add", *scope, "kg", "--", *OTHER)
        assert added.returncode == 0, added.stdout + added.stderr
    desktop = m.home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.write_text(json.dumps({"mcpServers": {"kg": {"command": OTHER[0], "args": OTHER[1:]}}}))
    gemini = m.home / ".gemini" / "settings.json"
    gemini.parent.mkdir()
    gemini.write_text(json.dumps({"mcpServers": {"kg": {"command": OTHER[0], "args": OTHER[1:]}}}))
    opencode = m.home / ".config" / "opencode" / "opencode.json"
    opencode.parent.mkdir()
    opencode.write_text(json.dumps({"mcp": {"kg": {"type": "local", "command": OTHER}}}))
    m.files = [m.home / ".claude.json", m.home / ".codex" / "config.toml", desktop, gemini, opencode]
    yield m
    m.close()


def _lines(out: str, title: str) -> str:
    """What is said of one agent: its line and the `fix:` line under it (doctor)."""
    lines = out.splitlines()
    return "\n".join(x for i, x in enumerate(lines) if f"{title}:" in x.split(" (")[0]
                     or (x.strip().startswith("fix:") and i and f"{title}:" in lines[i - 1]))


def test_another_programs_server_named_kg_is_named_so_and_the_advice_is_to_rename_it(taken):
    before = {p: p.read_bytes() for p in taken.files}
    out = taken.kg("setup", "--yes")
    assert out.returncode == 1, out.stdout + out.stderr
    for title in TITLES:
        said = _lines(out.stdout, title)
        assert "another program's MCP server named kg" in said and "some-other-kg-server" in said, out.stdout
        assert f"kg's tools are not set up for {title}" in said and "rename yours" in said.lower(), said
        assert "remove" not in said, said
    assert {p: p.read_bytes() for p in taken.files} == before, "the user's servers are left as they were"
    doctor = taken.kg("doctor")
    assert doctor.returncode == 1
    for title in TITLES:
        said = _lines(doctor.stdout, title)
        assert said.startswith("FAIL") and "another program's MCP server named kg" in said, doctor.stdout
        fix = said.split("fix:")[-1]
        assert "rename" in fix and "remove" not in said and "fix that file" not in fix, said
