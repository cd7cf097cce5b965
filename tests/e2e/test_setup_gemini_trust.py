"""Gemini CLI run headless (`gemini -p`, default approval mode) leaves out every tool that would ask for a
confirmation: kg's entry without `"trust": true` left the model none of kg's tools while kg's preload told it to
call kg_read. Setup owns that entry, so it writes the trust; the refresh rules and uninstall's restore hold."""

from __future__ import annotations

import json
import os

import pytest
from e2e_helpers import kg

from kg_actors.testing import free_port


@pytest.fixture
def env(tmp_path) -> dict:
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
                KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600")


def _settings(env: dict) -> dict:
    with open(os.path.join(env["HOME"], ".gemini", "settings.json")) as f:
        return json.load(f)


def test_setup_trusts_kgs_gemini_entry_and_uninstall_gives_the_file_back_byte_for_byte(env):
    path = os.path.join(env["HOME"], ".gemini", "settings.json")
    theirs = b'{\n  "ui": {"theme": "Dracula"}\n}\n'
    with open(path, "wb") as f:
        f.write(theirs)
    out = kg(["setup", "--only", "gemini", "--yes"], env)
    assert out.returncode == 0, out.stdout + out.stderr
    entry = _settings(env)["mcpServers"]["kg"]
    assert entry["trust"] is True and entry["args"][-1] == "mcp", entry
    again = kg(["setup", "--only", "gemini", "--yes"], env)
    assert "Gemini CLI: up to date" in again.stdout, again.stdout
    assert "ok    Gemini CLI: kg hooks and MCP entry in its settings" in kg(["doctor"], env).stdout
    assert kg(["uninstall", "--yes"], env).returncode == 0
    with open(path, "rb") as f:
        assert f.read() == theirs


def test_an_entry_setup_wrote_before_without_trust_is_trusted_and_the_users_own_trust_false_stays(env, tmp_path):
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    record_path = tmp_path / "store" / "setup" / "record.json"
    path = os.path.join(env["HOME"], ".gemini", "settings.json")
    # As an earlier kg setup left it: its entry without trust, and its record of that entry.
    data, record = _settings(env), json.loads(record_path.read_text())
    data["mcpServers"]["kg"].pop("trust", None)
    record["done"]["gemini"]["entry"].pop("trust", None)
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
    record_path.write_text(json.dumps(record))
    out = kg(["setup", "--only", "gemini", "--yes"], env)
    assert out.returncode == 0 and "Gemini CLI: done" in out.stdout, out.stdout
    assert _settings(env)["mcpServers"]["kg"]["trust"] is True

    data = _settings(env)
    data["mcpServers"]["kg"]["trust"] = False  # the user wants Gemini to ask: theirs to set
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
    out = kg(["setup", "--only", "gemini", "--yes"], env)
    assert "Gemini CLI: up to date (kg's entry, customized" in out.stdout, out.stdout
    assert _settings(env)["mcpServers"]["kg"]["trust"] is False


def test_an_entry_an_older_setup_wrote_and_kept_no_record_of_is_trusted_not_kept_as_customized(env, tmp_path):
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    record_path = tmp_path / "store" / "setup" / "record.json"
    path = os.path.join(env["HOME"], ".gemini", "settings.json")
    data, record = _settings(env), json.loads(record_path.read_text())
    data["mcpServers"]["kg"].pop("trust", None)
    del record["done"]["gemini"]["entry"]  # a setup before 2026-12-03 kept no record of its entry
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
    record_path.write_text(json.dumps(record))
    out = kg(["setup", "--only", "gemini", "--yes"], env)
    assert out.returncode == 0 and "Gemini CLI: done" in out.stdout and "customized" not in out.stdout, out.stdout
    assert _settings(env)["mcpServers"]["kg"]["trust"] is True
