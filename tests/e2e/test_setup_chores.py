"""Spec 000, 'Chores': kg setup offers to switch background chores on. Asked, it writes chores.json's
"enabled": true (the file's other keys kept); --yes leaves them off (they spend the user's quota) and says how to
switch them on; kg uninstall puts the file back as it was."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from e2e_helpers import KG, kg

from kg_actors.core.chores import parse_config
from kg_actors.testing import free_port


@pytest.fixture
def env(tmp_path) -> dict:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "store").mkdir()
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
                KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600", PATH="/usr/bin:/bin")


def _asked(env: dict, answers: str, *args: str) -> subprocess.CompletedProcess:
    """`kg setup` as run in a terminal, answering its questions with `answers`."""
    return subprocess.run([KG, "setup", *args], env=env, capture_output=True, text=True, timeout=60, input=answers)


def test_setup_yes_leaves_chores_off_and_says_how_to_switch_them_on(env, tmp_path):
    out = kg(["setup", "--yes"], env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Background chores: stay off" in out.stdout and "kg setup --only chores" in out.stdout, out.stdout
    assert not (tmp_path / "store" / "chores.json").exists()
    plan = kg(["setup", "--plan", "--only", "chores"], env)
    assert plan.returncode == 0 and "switch background chores on" in plan.stdout, plan.stdout


def test_asked_setup_switches_chores_on_keeping_the_files_keys_and_uninstall_puts_it_back(env, tmp_path):
    chores = tmp_path / "store" / "chores.json"
    theirs = b'{\n  "runner": "codex",\n  "enabled": false\n}\n'
    chores.write_bytes(theirs)
    no = _asked(env, "n\n", "--only", "chores")
    assert "Background chores: skipped" in no.stdout and chores.read_bytes() == theirs, no.stdout
    out = _asked(env, "y\n", "--only", "chores")
    assert out.returncode == 0 and "Background chores: done" in out.stdout, out.stdout + out.stderr
    assert json.loads(chores.read_text()) == {"runner": "codex", "enabled": True}
    assert parse_config(chores.read_bytes()).enabled  # as the server reads it
    assert "Background chores: on" in kg(["setup", "--plan", "--only", "chores"], env).stdout
    undone = kg(["uninstall", "--yes"], env)
    assert undone.returncode == 0, undone.stdout
    assert chores.read_bytes() == theirs


def test_uninstall_switches_chores_back_off_in_a_file_edited_since_and_removes_one_setup_made(env, tmp_path):
    chores = tmp_path / "store" / "chores.json"
    assert _asked(env, "y\n", "--only", "chores").returncode == 0
    assert json.loads(chores.read_text()) == {"enabled": True}
    chores.write_text(json.dumps({"enabled": True, "max_per_day": 3}))  # the user's own limit since
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0, out.stdout
    assert json.loads(chores.read_text()) == {"max_per_day": 3}

    chores.unlink()
    assert _asked(env, "y\n", "--only", "chores").returncode == 0
    assert kg(["uninstall", "--yes"], env).returncode == 0
    assert not Path(chores).exists()
