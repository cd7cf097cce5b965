"""A plain (not editable) install carries the plugin, and `kg setup` works from it, away from the checkout.

The wheel is built from the repository and installed into a fresh venv without its
dependencies; a .pth names this environment's site-packages for them (they are the same
versions), so the test takes seconds rather than a full install.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from kg_actors.testing import START_TIMEOUT, free_port

REPO = Path(__file__).resolve().parents[2]
PLUGIN = ["kg_actors/plugin/.claude-plugin/plugin.json", "kg_actors/plugin/.mcp.json",
          "kg_actors/plugin/hooks/hooks.json", "kg_actors/plugin/skills/kg-core/SKILL.md",
          # Harnesses with their own packages (issue #14), and Gemini CLI's hook script.
          "kg_actors/plugin/harnesses/antigravity/plugin.json", "kg_actors/plugin/harnesses/antigravity/hooks.json",
          "kg_actors/plugin/harnesses/antigravity/mcp_config.json", "kg_actors/plugin/harnesses/antigravity/README.md",
          "kg_actors/plugin/harnesses/antigravity/hooks/kg-agy.sh", "kg_actors/plugin/harnesses/opencode/kg-memory.js",
          "kg_actors/plugin/hooks/gemini.sh"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(REPO)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    (path,) = out.glob("kg_actors-*.whl")
    return path


def test_the_wheel_carries_every_plugin_file_with_the_scripts_executable(wheel):
    with zipfile.ZipFile(wheel) as z:
        infos = {i.filename: i for i in z.infolist()}
    for name in PLUGIN:
        assert name in infos, name
    hooks = json.loads(zipfile.ZipFile(wheel).read("kg_actors/plugin/hooks/hooks.json"))["hooks"]
    scripts = {c.split("/hooks/")[1].rstrip('"') for groups in hooks.values() for g in groups
               for c in (h["command"] for h in g["hooks"])}
    for script in scripts | {"common.sh", "gemini.sh"}:
        info = infos[f"kg_actors/plugin/hooks/{script}"]
        assert (info.external_attr >> 16) & 0o111, f"{script} is not executable in the wheel"
    assert "kg_actors/setup/plan.py" in infos


def test_the_wheel_carries_every_package_of_the_checkout(wheel):
    """A package left out of pyproject's list installs fine and fails at the first import of it."""
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    for init in sorted((REPO / "kg_actors").rglob("__init__.py")):
        rel = init.relative_to(REPO).as_posix()
        if "/plugin/" not in rel:
            assert rel in names, f"{rel} is not in the wheel: add its package to pyproject.toml"
    assert {"kg_shim/__init__.py", "kg_shim/lines.py", "kg_shim/routing.py"} <= names


def test_setup_runs_from_a_fresh_install(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    pip = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr[-3000:]
    fresh_site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                     capture_output=True, text=True, check=True).stdout.strip())
    (fresh_site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    home = tmp_path / "home"
    (home / ".config" / "Claude").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KG_", "CLAUDE", "CODEX"))}
    env.update(HOME=str(home), KG_HOME=str(tmp_path / "store"), PATH="/usr/bin:/bin")
    where = subprocess.run([str(py), "-c", "from kg_actors.setup.plugin import plugin_source; print(plugin_source())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert where.stdout.strip() == str(fresh_site / "kg_actors" / "plugin"), where.stdout + where.stderr
    kg = venv / "bin" / "kg"
    plan = subprocess.run([str(kg), "setup", "--plan"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert plan.returncode == 0, plan.stdout + plan.stderr
    assert "Claude Code: not found" in plan.stdout and "add the kg MCP server" in plan.stdout
    done = subprocess.run([str(kg), "setup", "--yes", "--only", "desktop"], capture_output=True, text=True, env=env,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    entry = json.loads((home / ".config" / "Claude" / "claude_desktop_config.json").read_text())["mcpServers"]["kg"]
    assert entry["command"] == str(kg) and entry["args"] == ["mcp"]
    # The README's first command ends in `kg serve`: the installed server must start and answer.
    port = free_port()
    server = subprocess.Popen([str(kg), "serve", "--no-editor", "--port", str(port)], env=env, cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        health = None
        while health is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=0.5) as r:
                    health = json.loads(r.read())
            except OSError:
                time.sleep(0.05)
        assert health is not None, f"the installed kg serve did not answer: {server.stdout.read1(4000) if server.poll() is not None else ''}"
        assert health["storage"] == str(tmp_path / "store")
    finally:
        server.kill()
        server.wait()
