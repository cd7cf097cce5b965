"""The chores step's decisions and its edits of chores.json: pure, no server."""

from __future__ import annotations

import json
from pathlib import Path

from kg_actors.setup.chores_file import switched_back, switched_on
from kg_actors.setup.found import ChoresFound
from kg_actors.setup.plan import Undo, plan_setup, plan_uninstall
from test_plan import found

PATH = Path("/s/chores.json")


def test_chores_off_are_offered_on_are_left_and_a_faulty_file_is_a_problem():
    (off,) = plan_setup(found(chores=ChoresFound(PATH)), ("chores",))
    assert [a.kind for a in off.actions] == ["chores_on"] and "--yes leaves them off" in off.note
    (on,) = plan_setup(found(chores=ChoresFound(PATH, enabled=True)), ("chores",))
    assert not on.actions and not on.problem
    (bad,) = plan_setup(found(chores=ChoresFound(PATH, error="max_per_day: must be ...")), ("chores",))
    assert bad.problem and not bad.actions


def test_switched_on_keeps_the_other_keys_and_back_restores_only_enabled():
    raw = b'{"runner": "codex", "enabled": false}'
    on = switched_on(raw, PATH)
    assert json.loads(on) == {"runner": "codex", "enabled": True}
    edited = json.dumps({"runner": "claude", "enabled": True}).encode()
    assert json.loads(switched_back(edited, PATH, raw) or b"") == {"runner": "claude", "enabled": False}
    assert json.loads(switched_back(edited, PATH, None) or b"") == {"runner": "claude"}
    assert switched_back(b'{"runner": "claude"}', PATH, None) is None  # switched off since: nothing to undo


def test_uninstall_puts_enabled_back_only_in_a_file_edited_since():
    done = {"chores": {"enabled": True, "path": str(PATH)}}
    edited = plan_uninstall(Undo(done, {PATH: False}, Path("/s/setup/marketplace"), Path("/s/setup/record.json"),
                                 "kg-memory@kg-local"))
    assert [a.kind for s in edited if s.name == "chores" for a in s.actions] == ["chores_back"]
    whole = plan_uninstall(Undo(done, {PATH: True}, Path("/s/setup/marketplace"), Path("/s/setup/record.json"),
                                "kg-memory@kg-local"))
    assert not [s for s in whole if s.name == "chores"]
    assert any(a.kind == "restore" and a.path == PATH for s in whole for a in s.actions)
