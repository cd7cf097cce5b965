"""kg's own MCP server entry in Claude Desktop, Gemini and OpenCode, after the user changed it: customized
(an env var, an argument, a timeout added), it is still kg's (doctor ok, setup leaves it, uninstall takes it
out and says so); replaced by an unrelated server of the same name, it is the user's (uninstall names it and
leaves it).

The real `kg setup`, `kg doctor` and `kg uninstall` on a HOME of the test's own, with a real server.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from e2e_helpers import KG

from kg_actors.testing import ServerProcess

TIMEOUT = 120
ONLY = "desktop,gemini,opencode"


class Desk:
    """A HOME with Claude Desktop's, Gemini's and OpenCode's config folders (no CLIs), and a running server."""

    def __init__(self, base: Path):
        self.server = ServerProcess(base).start("--no-editor")
        self.home = self.server.home
        self.env = {"HOME": str(self.home), "PATH": "/usr/bin:/bin", "KG_HOME": str(self.server.store),
                    "KG_HTTP_PORT": str(self.server.port), "KG_EDITOR_PORT": str(self.server.editor_port)}
        self.desktop = self.home / ".config" / "Claude" / "claude_desktop_config.json"
        self.gemini = self.home / ".gemini" / "settings.json"
        self.opencode = self.home / ".config" / "opencode" / "opencode.json"
        for path in (self.desktop, self.gemini, self.opencode):
            path.parent.mkdir(parents=True, exist_ok=True)

    def kg(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([KG, *args], env=self.env, capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL, cwd=self.home)

    def edit(self, path: Path, change) -> None:
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data, indent=2))


@pytest.fixture
def desk(tmp_path):
    d = Desk(tmp_path)
    out = d.kg("setup", "--yes", "--only", ONLY)
    assert out.returncode == 0, out.stdout + out.stderr
    yield d
    d.server.kill()


def _customize(desk: Desk) -> None:
    desk.edit(desk.desktop, lambda d: d["mcpServers"]["kg"]["env"].update(KG_LOG="debug"))
    desk.edit(desk.gemini, lambda d: d["mcpServers"]["kg"].setdefault("env", {}).update(KG_LOG="debug"))
    desk.edit(desk.opencode, lambda d: d["mcp"]["kg"].update(timeout=20000))


def test_kgs_entry_the_user_customized_is_kgs_for_doctor_and_setup_leaves_it(desk):
    _customize(desk)
    before = {p: p.read_bytes() for p in (desk.desktop, desk.gemini, desk.opencode)}
    doctor = desk.kg("doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "something else" not in doctor.stdout
    for agent in ("Claude Desktop", "Gemini CLI", "OpenCode"):
        line = next(x for x in doctor.stdout.splitlines() if agent in x)
        assert "customized" in line, doctor.stdout
    setup = desk.kg("setup", "--yes", "--only", ONLY)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    assert {p: p.read_bytes() for p in before} == before, "setup keeps the user's changes to kg's entry"


def test_uninstall_takes_out_kgs_customized_entry_and_says_what_it_held(desk):
    _customize(desk)
    out = desk.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "kg" not in json.loads(desk.desktop.read_text() or "{}").get("mcpServers", {})
    assert "kg" not in json.loads(desk.gemini.read_text()).get("mcpServers", {})
    assert "kg" not in json.loads(desk.opencode.read_text()).get("mcp", {})
    assert f"{desk.desktop}: mcpServers.kg" in out.stdout and "env KG_LOG" in out.stdout, out.stdout
    assert f"{desk.opencode}: mcp.kg" in out.stdout and "timeout" in out.stdout, out.stdout


def test_uninstall_leaves_an_unrelated_server_named_kg_and_names_it(desk):
    theirs = {"command": "/opt/kubegraph/bin/kg-server", "args": ["--stdio"]}
    local = {"type": "local", "command": ["/opt/kubegraph/bin/kg-server", "--stdio"]}
    desk.edit(desk.desktop, lambda d: d["mcpServers"].update(kg=theirs))
    desk.edit(desk.gemini, lambda d: d["mcpServers"].update(kg=theirs))
    desk.edit(desk.opencode, lambda d: d["mcp"].update(kg=local))
    out = desk.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(desk.desktop.read_text())["mcpServers"]["kg"] == theirs
    gemini = json.loads(desk.gemini.read_text())
    assert gemini["mcpServers"]["kg"] == theirs and "kg_" not in json.dumps(gemini.get("hooks", {}))
    assert json.loads(desk.opencode.read_text())["mcp"]["kg"] == local
    for path in (desk.desktop, desk.gemini, desk.opencode):
        assert str(path) in out.stdout and "not kg's" in out.stdout and "/opt/kubegraph/bin/kg-server" in out.stdout, \
            out.stdout


def _kg_entries(desk: Desk, extra: dict) -> dict[Path, dict]:
    """kg's own `kg mcp` entry as a user would have written it by hand: an env var of their own and a
    timeout added, KG_EDITOR_PORT (which setup passes) left out."""
    kg = [KG, "mcp"]
    env = {"KG_HTTP_PORT": desk.env["KG_HTTP_PORT"], "KG_HOME": desk.env["KG_HOME"], **extra}
    return {desk.gemini: {"mcpServers": {"kg": {"command": kg[0], "args": kg[1:], "env": env, "timeout": 30000}}},
            desk.opencode: {"mcp": {"kg": {"type": "local", "command": kg, "enabled": True, "environment": env,
                                           "timeout": 30000}}}}


@pytest.fixture
def bare_desk(tmp_path):
    d = Desk(tmp_path)
    yield d
    d.server.kill()


@pytest.mark.parametrize("edited_since", [False, True], ids=["file-as-setup-left-it", "file-edited-since"])
def test_an_entry_the_user_had_before_setup_stays_at_uninstall_and_is_said_to_stay(bare_desk, edited_since):
    desk = bare_desk
    configs = _kg_entries(desk, {"MY_EXTRA": "1"})
    for path, data in configs.items():
        path.write_text(json.dumps(data))
    setup = desk.kg("setup", "--yes", "--only", "gemini,opencode")
    assert setup.returncode == 0, setup.stdout + setup.stderr
    assert setup.stdout.count("kg's as you set it, stays as it is") == 2, setup.stdout  # not said to be added
    if edited_since:  # not restored whole at uninstall: only kg's entries come out
        desk.edit(desk.gemini, lambda d: d.update(theme="Dracula"))
        desk.edit(desk.opencode, lambda d: d.update(theme="opencode"))
    out = desk.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(desk.gemini.read_text())["mcpServers"]["kg"] == configs[desk.gemini]["mcpServers"]["kg"]
    assert json.loads(desk.opencode.read_text())["mcp"]["kg"] == configs[desk.opencode]["mcp"]["kg"]
    for where in (f"{desk.gemini}: mcpServers.kg", f"{desk.opencode}: mcp.kg"):
        line = next((x for x in out.stdout.splitlines() if where in x), "")
        assert "before kg setup" in line and "left as it was" in line and "taken out" not in line, out.stdout


def test_uninstall_names_only_what_the_user_added_to_kgs_entry_not_what_it_lacks(desk):
    """The user replaced setup's entry with their own `kg mcp` one, without KG_EDITOR_PORT: what it held of
    theirs is named, not the variable it only lacks."""
    configs = _kg_entries(desk, {"MY_EXTRA": "1"})
    desk.edit(desk.gemini, lambda d: d["mcpServers"].update(configs[desk.gemini]["mcpServers"]))
    desk.edit(desk.opencode, lambda d: d["mcp"].update(configs[desk.opencode]["mcp"]))
    out = desk.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "kg" not in json.loads(desk.gemini.read_text()).get("mcpServers", {})
    assert "kg" not in json.loads(desk.opencode.read_text()).get("mcp", {})
    for where in (f"{desk.gemini}: mcpServers.kg", f"{desk.opencode}: mcp.kg"):
        line = next((x for x in out.stdout.splitlines() if where in x), "")
        assert "taken out" in line and "MY_EXTRA" in line and "timeout" in line, out.stdout
        assert "KG_EDITOR_PORT" not in line, line
