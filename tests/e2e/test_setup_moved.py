"""`kg setup` run again with another KG_HTTP_PORT or KG_HOME: the MCP entry setup itself wrote last time in
Claude Desktop, Gemini and OpenCode is setup's own and moves to the new port and store (the real `gemini mcp
list` and `opencode mcp list` then reach the server); only what the user changed in it is theirs, and stays.
An entry kg keeps that reaches another port or store is no `ok` for `kg doctor`. `kg uninstall` afterwards still
puts each file back byte for byte.

The real `kg setup`, `kg doctor` and `kg uninstall` on a HOME of the test's own, with a real server.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from e2e_helpers import KG
from npm_clients import client_env, npm_bin

from kg_actors.testing import ServerProcess, free_port

TIMEOUT = 120
ONLY = "desktop,gemini,opencode"
AGENTS = ("Claude Desktop", "Gemini CLI", "OpenCode")


class Desk:
    """A HOME with Claude Desktop's, Gemini's and OpenCode's config files, the real gemini and opencode on PATH,
    and a running server (`env` names its store and port)."""

    def __init__(self, base: Path):
        self.gemini_cli, self.opencode_cli = npm_bin("gemini"), npm_bin("opencode")
        self.server = ServerProcess(base).start("--no-editor")
        self.home = self.server.home
        self.env = {**client_env(self.home), "PATH": f"{Path(self.gemini_cli).parent}:/usr/bin:/bin",
                    "KG_HOME": str(self.server.store), "KG_HTTP_PORT": str(self.server.port),
                    "KG_EDITOR_PORT": str(self.server.editor_port)}
        self.desktop = self.home / ".config" / "Claude" / "claude_desktop_config.json"
        self.gemini = self.home / ".gemini" / "settings.json"
        self.opencode = self.home / ".config" / "opencode" / "opencode.json"
        self.desktop.parent.mkdir(parents=True, exist_ok=True)
        self.opencode.parent.mkdir(parents=True, exist_ok=True)
        self.gemini.parent.mkdir(parents=True, exist_ok=True)
        self.gemini.write_text('{\n  "ui": {"theme": "Default"}\n}\n')
        self.opencode.write_text('{"theme": "opencode"}')
        # Gemini runs no MCP server in a folder the user has not trusted.
        (self.home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(self.home): "TRUST_FOLDER"}))
        self.before = {p: (p.read_bytes() if p.exists() else None) for p in (self.desktop, self.gemini, self.opencode)}

    def kg(self, *args: str, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([KG, *args], env={**self.env, **env}, capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL, cwd=self.home)

    def setup(self, **env: str) -> str:
        out = self.kg("setup", "--yes", "--only", ONLY, **env)
        assert out.returncode == 0, out.stdout + out.stderr
        return out.stdout

    def earlier_setup(self, **env: str) -> None:
        """A setup of before, when this store's server was on another port: run while it is stopped (setup refuses
        a port where this store's running server is not)."""
        self.server.stop()
        self.setup(**env)
        self.server.start("--no-editor")
        self.env["KG_HTTP_PORT"] = str(self.server.port)

    def entries(self) -> dict[str, dict]:
        return {"Claude Desktop": json.loads(self.desktop.read_text())["mcpServers"]["kg"],
                "Gemini CLI": json.loads(self.gemini.read_text())["mcpServers"]["kg"],
                "OpenCode": json.loads(self.opencode.read_text())["mcp"]["kg"]}

    def edit(self, path: Path, change) -> None:
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data, indent=2))

    def connected(self) -> None:
        """The real CLIs start kg's entry as it is written (its env over theirs) and reach the server."""
        for cli in (self.gemini_cli, self.opencode_cli):
            listed = subprocess.run([cli, "mcp", "list"], env=self.env, capture_output=True, text=True,
                                    timeout=TIMEOUT, cwd=self.home, stdin=subprocess.DEVNULL)
            said = listed.stdout + listed.stderr
            assert re.search(r"✓ kg\b.*connected", said, re.I), f"{cli}:\n{said}"

    def uninstalled_byte_for_byte(self) -> None:
        out = self.kg("uninstall", "--yes")
        assert out.returncode == 0, out.stdout + out.stderr
        for path, data in self.before.items():
            assert (path.read_bytes() if path.exists() else None) == data, path


def env_of(entry: dict) -> dict:
    return entry.get("env") or entry.get("environment") or {}


@pytest.fixture
def desk(tmp_path):
    d = Desk(tmp_path)
    yield d
    d.server.kill()


def test_a_setup_on_a_new_port_moves_setups_own_entries_there_and_doctor_and_the_clients_agree(desk):
    desk.earlier_setup(KG_HTTP_PORT=str(free_port()))
    again = desk.setup()
    assert "customized" not in again and "as you set it" not in again, again
    for agent, entry in desk.entries().items():
        assert env_of(entry)["KG_HTTP_PORT"] == str(desk.server.port), (agent, entry)
    doctor = desk.kg("doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    for agent in AGENTS:
        line = next(x for x in doctor.stdout.splitlines() if agent in x)
        assert line.startswith("ok") and "customized" not in line, doctor.stdout
    desk.connected()
    assert desk.setup().count("up to date") == 3
    desk.uninstalled_byte_for_byte()


def test_a_setup_with_a_new_kg_home_moves_setups_own_entries_to_that_store(desk, tmp_path):
    desk.setup(KG_HOME=str(tmp_path / "old-store"))  # an earlier setup of another store (its record is there)
    again = desk.setup()
    assert "as you set it" not in again, again
    for agent, entry in desk.entries().items():
        assert env_of(entry)["KG_HOME"] == str(desk.server.store), (agent, entry)
    doctor = desk.kg("doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    desk.connected()
    # Each store's uninstall undoes its own setup: this one's puts back the other's entries, whose own then
    # puts back the files as they were.
    out = desk.kg("uninstall", "--yes")
    assert out.returncode == 0, out.stdout + out.stderr
    assert all(str(tmp_path / "old-store") in desk.entries()[agent]["env" if agent != "OpenCode" else "environment"]
               ["KG_HOME"] for agent in AGENTS)
    out = desk.kg("uninstall", "--yes", KG_HOME=str(tmp_path / "old-store"))
    assert out.returncode == 0, out.stdout + out.stderr
    for path, data in desk.before.items():
        assert (path.read_bytes() if path.exists() else None) == data, path


def test_what_the_user_changed_in_kgs_entry_stays_and_the_rest_moves_to_the_new_port(desk):
    desk.earlier_setup(KG_HTTP_PORT=str(free_port()))
    desk.edit(desk.desktop, lambda d: d["mcpServers"]["kg"]["env"].update(KG_LOG="debug"))
    desk.edit(desk.gemini, lambda d: d["mcpServers"]["kg"].update(timeout=30000))
    desk.edit(desk.opencode, lambda d: d["mcp"]["kg"].update(timeout=20000))
    again = desk.setup()
    for agent, entry in desk.entries().items():
        assert env_of(entry)["KG_HTTP_PORT"] == str(desk.server.port), (agent, entry)
    entries = desk.entries()
    assert env_of(entries["Claude Desktop"])["KG_LOG"] == "debug"
    assert entries["Gemini CLI"]["timeout"] == 30000 and entries["OpenCode"]["timeout"] == 20000
    assert "env KG_LOG" in again and again.count("timeout") >= 2, again  # the user's changes, said as kept
    doctor = desk.kg("doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    desk.connected()
    assert desk.setup().count("up to date") == 3
    desk.uninstalled_byte_for_byte()  # the user's changes were to kg's entry alone: they go with it


def test_doctor_fails_an_entry_the_user_pointed_at_another_port_and_setup_says_so(desk):
    desk.setup()
    elsewhere = str(free_port())
    desk.edit(desk.gemini, lambda d: d["mcpServers"]["kg"]["env"].update(KG_HTTP_PORT=elsewhere))
    desk.edit(desk.desktop, lambda d: d["mcpServers"]["kg"]["env"].update(KG_HOME="/tmp/not-this-store"))
    doctor = desk.kg("doctor")
    assert doctor.returncode == 1, doctor.stdout
    gemini = next(x for x in doctor.stdout.splitlines() if "Gemini CLI" in x)
    desktop = next(x for x in doctor.stdout.splitlines() if "Claude Desktop" in x)
    assert gemini.startswith("FAIL") and elsewhere in gemini and str(desk.server.port) in gemini, doctor.stdout
    assert desktop.startswith("FAIL") and "/tmp/not-this-store" in desktop, doctor.stdout
    out = desk.kg("setup", "--yes", "--only", ONLY)
    assert out.returncode == 1 and elsewhere in out.stdout, out.stdout
    assert env_of(desk.entries()["Gemini CLI"])["KG_HTTP_PORT"] == elsewhere  # the user's: said, not overwritten


def test_claude_codes_and_codexs_own_kg_entry_on_another_port_fails_setup_and_doctor(tmp_path):
    """The user's own `kg mcp` entry (`claude mcp add`, `codex mcp add`) is the one those agents run beside the
    plugin: kept as they set it, but on another port than this store's server it is named, never ok."""
    claude, codex = npm_bin("claude"), npm_bin("codex")
    server = ServerProcess(tmp_path).start("--no-editor")
    try:
        home, elsewhere = server.home, str(free_port())
        env = {**client_env(home), "PATH": f"{Path(claude).parent}:/usr/bin:/bin", "KG_HOME": str(server.store),
               "KG_HTTP_PORT": str(server.port), "KG_EDITOR_PORT": str(server.editor_port)}
        run = lambda *argv: subprocess.run(list(argv), env=env, capture_output=True, text=True,  # noqa: E731
                                           timeout=TIMEOUT, cwd=home, stdin=subprocess.DEVNULL)
        (home / ".codex").mkdir(parents=True, exist_ok=True)
        pairs = ["KG_HOME=" + str(server.store), "KG_HTTP_PORT=" + elsewhere]
        added = run(codex, "mcp", "add", "kg", "--env", pairs[0], "--env", pairs[1], "--", KG, "mcp")
        assert added.returncode == 0, added.stderr
        added = run(claude, "mcp", "add", "-s", "user", "kg", "-e", pairs[0], "-e", pairs[1], "--", KG, "mcp")
        assert added.returncode == 0, added.stderr
        out = run(KG, "setup", "--yes", "--only", "claude,codex")
        assert out.returncode == 1, out.stdout + out.stderr
        for where in (".claude.json: mcpServers.kg", "config.toml: [mcp_servers.kg]"):
            said = next(x for x in out.stdout.splitlines() if where in x and "reaches another kg server" in x)
            assert elsewhere in said and str(server.port) in said, out.stdout
        doctor = run(KG, "doctor")
        assert doctor.returncode == 1, doctor.stdout
        for agent in ("Claude Code", "Codex"):
            line = next(x for x in doctor.stdout.splitlines() if x.startswith(f"FAIL  {agent}:"))
            assert elsewhere in line and str(server.port) in line, doctor.stdout
    finally:
        server.kill()


def test_claude_code_keeps_kgs_plugin_when_setup_runs_again_with_another_kg_home(tmp_path):
    """The real `claude` uninstalls a marketplace's plugins when the marketplace is removed: setup's own removal
    of the outdated copy then finds it gone, which is what it wanted, and goes on to install the new one."""
    claude = npm_bin("claude")
    server = ServerProcess(tmp_path).start("--no-editor")
    try:
        home = server.home
        env = {**client_env(home), "PATH": f"{Path(claude).parent}:/usr/bin:/bin", "KG_HOME": str(server.store),
               "KG_HTTP_PORT": str(server.port), "KG_EDITOR_PORT": str(server.editor_port)}
        run = lambda *argv, **more: subprocess.run(list(argv), env={**env, **more}, capture_output=True,  # noqa: E731
                                                   text=True, timeout=TIMEOUT, cwd=home, stdin=subprocess.DEVNULL)
        first = run(KG, "setup", "--yes", "--only", "claude", KG_HOME=str(tmp_path / "first-store"))
        assert first.returncode == 0, first.stdout + first.stderr
        again = run(KG, "setup", "--yes", "--only", "claude")
        assert again.returncode == 0 and "Claude Code: done" in again.stdout, again.stdout + again.stderr
        installed = json.loads((home / ".claude" / "plugins" / "installed_plugins.json").read_text())["plugins"]
        copy = Path(installed["kg-memory@kg-local"][0]["installPath"])
        assert str(server.store) in (copy / ".mcp.json").read_text()  # the new store's plugin, not the first's
        enabled = json.loads((home / ".claude" / "settings.json").read_text())["enabledPlugins"]
        assert enabled == {"kg-memory@kg-local": True}
        listed = run(claude, "plugin", "list")
        assert "kg-memory@kg-local" in listed.stdout and "enabled" in listed.stdout.lower(), listed.stdout
        doctor = run(KG, "doctor")
        line = next(x for x in doctor.stdout.splitlines() if "Claude Code" in x)
        assert line.startswith("ok"), doctor.stdout
        assert "up to date" in run(KG, "setup", "--yes", "--only", "claude").stdout
    finally:
        server.kill()
