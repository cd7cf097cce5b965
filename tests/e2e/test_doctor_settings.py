"""`kg doctor` names a store's chores.json or config.json that does not read, with the fix: the server only
logged them (chores stay off; no autocommit syncs). Real `kg doctor` on a real store folder."""

from __future__ import annotations

import json
import os
import shlex

from e2e_helpers import kg

from kg_actors.testing import free_port


def test_doctor_names_an_unparseable_chores_json_and_config_json_with_the_fix(tmp_path):
    store = tmp_path / "my store"  # a space: the fix quotes the path it names
    store.mkdir()
    (tmp_path / "home").mkdir()
    env = dict(os.environ, HOME=str(tmp_path / "home"), KG_HOME=str(store), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()))
    (store / "chores.json").write_text('{"enabled": tru')
    (store / "config.json").write_text('{"sync_remote": ')
    doctor = kg(["doctor"], env)
    assert doctor.returncode == 1
    assert f"FAIL  chores: {store / 'chores.json'}: chores.json is not valid JSON" in doctor.stdout, doctor.stdout
    assert f"python3 -m json.tool {shlex.quote(str(store / 'chores.json'))}" in doctor.stdout
    assert f"FAIL  store config: {store / 'config.json'}: it is not valid JSON" in doctor.stdout, doctor.stdout
    assert "kg sync REMOTE --remember" in doctor.stdout
    (store / "chores.json").write_text(json.dumps({"enabled": True}))
    (store / "config.json").write_text(json.dumps({"sync_remote": "/somewhere"}))
    doctor = kg(["doctor"], env)
    assert "chores.json" not in doctor.stdout and "config.json" not in doctor.stdout, doctor.stdout


def test_doctor_names_the_field_of_a_valid_chores_json_that_breaks_a_rule(tmp_path):
    """Audit: for `"timeout_s": -1` the fix spoke of a JSON fault, though the JSON is valid."""
    store = tmp_path / "store"
    store.mkdir()
    (tmp_path / "home").mkdir()
    env = dict(os.environ, HOME=str(tmp_path / "home"), KG_HOME=str(store), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()))
    (store / "chores.json").write_text(json.dumps({"enabled": True, "timeout_s": -1}))
    doctor = kg(["doctor"], env)
    assert doctor.returncode == 1
    said = f"FAIL  chores: {store / 'chores.json'}: timeout_s: must be a number of at least 1 (seconds): chores stay off"
    assert said in doctor.stdout and "chores.json: chores.json" not in doctor.stdout, doctor.stdout
    assert "set timeout_s in it as the rule says, or remove timeout_s for its default" in doctor.stdout
    assert "JSON fault" not in doctor.stdout
