"""A setup step that fails leaves nothing of its own behind, and uninstall removes every file setup
recorded as its own, a failed step's too: real `kg setup` / `kg uninstall` runs on a temp HOME.

OpenCode loads every file in its plugin folder whatever opencode.json says, so a kg-memory.js
left there keeps starting the server after the user was told setup failed, or that uninstall was done.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from e2e_helpers import kg

from kg_actors.setup import opencode
from kg_actors.setup.files import Record
from kg_actors.testing import free_port

THEIRS = b'{\n  "$schema": "https://opencode.ai/config.json",\n  "theme": "tokyonight"\n}\n'


@pytest.fixture
def env(tmp_path) -> dict:
    home = tmp_path / "home"
    (home / ".config" / "opencode").mkdir(parents=True)
    # No `opencode` on PATH: the config folder alone makes setup find it.
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
                KG_EDITOR_PORT=str(free_port()), PATH="/usr/bin:/bin")


def test_a_read_only_opencode_json_fails_the_step_and_writes_no_plugin(env):
    home = Path(env["HOME"])
    config = opencode.config_path(env, home)
    config.write_bytes(THEIRS)
    config.chmod(0o444)  # setup judges the mode bits, so this holds when the tests run as root too
    out = kg(["setup", "--only", "opencode", "--yes"], env)
    assert out.returncode == 1 and "is read-only" in out.stdout and "FAILED" in out.stdout, out.stdout
    assert not opencode.plugin_path(env, home).exists()
    assert not opencode.plugin_path(env, home).parent.exists()  # the folder it would have made neither
    assert config.read_bytes() == THEIRS
    config.chmod(0o644)  # once fixed, the same command sets it up
    again = kg(["setup", "--only", "opencode", "--yes"], env)
    assert again.returncode == 0 and opencode.ours(opencode.plugin_path(env, home).read_bytes()), again.stdout


@pytest.mark.parametrize("fact", ["plugin", "made"])
def test_uninstall_removes_the_plugin_a_step_that_failed_half_way_wrote(env, fact):
    """As a setup that failed after writing the plugin recorded it: by its path (now), or only by the
    plugin folder it made (records before the fix)."""
    home = Path(env["HOME"])
    target = opencode.plugin_path(env, home)
    target.parent.mkdir()
    target.write_bytes(opencode.HEADER.encode() + b"\n// as setup renders it\n")
    record = Record.load(Path(env["KG_HOME"]) / "setup" / "record.json")
    record.mark("opencode", **({"plugin": str(target)} if fact == "plugin" else {"made": [str(target.parent)]}))
    record.failed("opencode", f"{opencode.config_path(env, home)} is read-only (mode 444); left untouched")
    record.save()
    plan = kg(["uninstall", "--plan"], env)
    assert str(target) in plan.stdout, plan.stdout
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0 and "kg uninstall: done" in out.stdout, out.stdout
    assert not target.exists() and not target.parent.exists()
    assert (home / ".config" / "opencode").is_dir()  # the user's, not setup's


def test_uninstall_leaves_a_plugin_file_of_the_users_own(env):
    home = Path(env["HOME"])
    target = opencode.plugin_path(env, home)
    target.parent.mkdir()
    target.write_bytes(b"// my own plugin, same name\n")
    record = Record.load(Path(env["KG_HOME"]) / "setup" / "record.json")
    record.mark("opencode", plugin=str(target))
    record.save()
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0, out.stdout
    assert target.read_bytes() == b"// my own plugin, same name\n"
