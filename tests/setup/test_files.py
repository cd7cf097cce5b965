"""Atomic writes, the lock, and the record that lets uninstall restore a user's file byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from kg_actors.setup import SetupError
from kg_actors.setup.desktop import merged, without
from kg_actors.setup.files import Record, atomic_write, json_like, locked, read_tree, write_tree


def test_atomic_write_keeps_the_mode_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("old")
    os.chmod(path, 0o600)
    atomic_write(path, b"new")
    assert path.read_bytes() == b"new" and (path.stat().st_mode & 0o777) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


def test_a_file_the_user_made_read_only_is_left_untouched(tmp_path):
    # A rename replaced it all the same (its mode kept): the user's "do not touch" was ignored.
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "x"}')
    os.chmod(path, 0o444)
    with pytest.raises(SetupError, match="is read-only .mode 444.; left untouched"):
        atomic_write(path, b"new")
    assert path.read_text() == '{"theme": "x"}' and [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_atomic_write_through_a_symlink_keeps_the_link(tmp_path, linked_file):
    link, kept = linked_file
    atomic_write(link, b"new")
    assert link.is_symlink() and kept.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["elsewhere", "file.json", "file.json", "here"]


def test_write_tree_replaces_the_folder_whole(tmp_path):
    root = tmp_path / "m"
    write_tree(root, {"a/x": (b"1", 0o644), "b": (b"2", 0o755)})
    write_tree(root, {"a/y": (b"3", 0o644)})
    assert read_tree(root) == {"a/y": b"3"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


def test_the_record_keeps_the_first_before_and_the_last_after(tmp_path):
    user = tmp_path / "settings.json"
    user.write_bytes(b'{"theme": "dark"}\n')
    record = Record(tmp_path / "r.json")
    record.before_change(user)
    user.write_bytes(b"changed once")
    record.after_change(user)
    record.before_change(user)  # a second run: the original stays the one to restore
    user.write_bytes(b"changed twice")
    record.after_change(user)
    record.mark("claude", installed=True)
    record.save()
    again = Record.load(tmp_path / "r.json")
    ((path, (before, after)),) = again.files().items()
    assert path == user and before == b'{"theme": "dark"}\n'
    import hashlib
    assert after == hashlib.sha256(b"changed twice").hexdigest()
    assert again.done("claude") == {"installed": True}


def test_an_absent_file_is_recorded_as_absent(tmp_path):
    record = Record(tmp_path / "r.json")
    record.before_change(tmp_path / "missing.toml")
    assert record.files()[tmp_path / "missing.toml"][0] is None


def test_a_file_a_step_left_as_it_was_has_nothing_to_undo(tmp_path):
    # A step that failed before writing (a folder it may not write) must not leave uninstall a
    # "restore" of a file it never changed: one that fails as the step did, on every run.
    record = Record(tmp_path / "r.json")
    user, missing = tmp_path / "opencode.json", tmp_path / "missing.json"
    user.write_bytes(b'{"mcp": {}}\n')
    for path in (user, missing):
        record.before_change(path)
        record.after_change(path)
    assert record.files() == {}
    record.before_change(user)
    user.write_bytes(b'{"mcp": {"kg": {}}}\n')
    record.after_change(user)
    assert list(record.files()) == [user]


def test_a_broken_record_is_named_not_overwritten(tmp_path):
    (tmp_path / "r.json").write_text("{nope")
    with pytest.raises(SetupError, match=r"r\.json: the setup record is not valid JSON"):
        Record.load(tmp_path / "r.json")
    assert (tmp_path / "r.json").read_text() == "{nope"


def test_a_second_holder_waits_for_the_first(tmp_path):
    lock = tmp_path / "lock"
    order = []
    waited = threading.Event()
    # Another process holds the lock until we tell it to let go (through its stdin).
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl,os,sys; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX);"
        "print('held', flush=True); sys.stdin.read()"), str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    assert holder.stdout.readline().strip() == "held"

    def second():
        with locked(lock, on_wait=waited.set):
            order.append("second")

    t = threading.Thread(target=second)
    t.start()
    assert waited.wait(10)
    order.append("first done")
    holder.stdin.close()
    holder.wait(10)
    t.join(10)
    assert order == ["first done", "second"]


def test_desktop_merge_keeps_other_keys_and_removal_restores_the_shape():
    raw = b'{"mcpServers": {"other": {"command": "x"}}, "z": 1}'
    out = json.loads(merged(raw, {"command": "/kg", "args": ["mcp"]}, "c.json"))
    assert out == {"mcpServers": {"other": {"command": "x"}, "kg": {"command": "/kg", "args": ["mcp"]}}, "z": 1}
    assert json.loads(without(json.dumps(out).encode(), "c.json")) == json.loads(raw)
    assert json.loads(merged(None, {"command": "/kg"}, "c.json")) == {"mcpServers": {"kg": {"command": "/kg"}}}
    with pytest.raises(SetupError, match="c.json"):
        merged(b"[1]", {}, "c.json")


@pytest.mark.parametrize("toml", ['plugins = 3', 'marketplaces = "x"', 'hooks = 1', '[hooks]\nstate = 2'])
def test_a_codex_config_whose_tables_are_not_tables_is_named_and_left_untouched(tmp_path, toml):
    from kg_actors.setup.codex import read_config
    path = tmp_path / "config.toml"
    path.write_text(toml)
    config, error = read_config(path)
    assert config is None and error is not None and "is not a table; left untouched" in error


def test_gemini_hooks_that_are_not_lists_are_named_not_extended():
    from pathlib import Path

    from kg_actors.setup.gemini import current
    with pytest.raises(SetupError, match="hooks.BeforeTool is not a list"):
        current(b'{"hooks": {"BeforeTool": "not-a-list"}}', Path("/h/.gemini/settings.json"))


def test_a_settings_file_that_is_a_fifo_is_named_not_waited_on(tmp_path):
    # `kg setup` and `kg doctor` read the agents' settings: a FIFO there held them for ever.
    from kg_actors.setup.files import read_bytes

    os.mkfifo(tmp_path / "settings.json")
    with pytest.raises(SetupError, match="FIFO"):
        read_bytes(tmp_path / "settings.json")
    assert read_bytes(tmp_path / "missing.json") is None


def test_json_like_writes_in_the_files_indent_unit_line_endings_and_bom():
    data = {"a": {"b": 1}}
    assert json_like(data, None) == b'{\n  "a": {\n    "b": 1\n  }\n}\n'
    assert json_like(data, b'{\r\n\t"x": 1\r\n}\r\n') == b'{\r\n\t"a": {\r\n\t\t"b": 1\r\n\t}\r\n}\r\n'
    raw = b'\xef\xbb\xbf{"x": {\n        "y": 1},\n    "z": 2\n}'
    assert json_like({"x": {"y": 1}, "z": 2, **data}, raw) == raw[:-2] + \
        b',\n    "a": {\n        "b": 1\n    }\n}'  # the unit is the shallowest level, not the first
    assert json_like({"s": "two\nlines"}, b'{\r\n "x": 1\r\n}') == b'{\r\n "s": "two\\nlines"\r\n}'


def test_json_like_changes_only_what_differs_and_keeps_the_users_layout():
    theirs = b'{\r\n  "mcpServers": {\r\n    "other": {"command": "other-mcp"}\r\n  },\r\n  "globalShortcut": ""\r\n}\r\n'
    data = json.loads(theirs)
    data["mcpServers"]["kg"] = {"command": "/usr/bin/kg", "args": ["mcp"]}
    data["globalShortcut"] = "Ctrl+K"
    assert json_like(data, theirs) == (b'{\r\n  "mcpServers": {\r\n    "other": {"command": "other-mcp"},\r\n'
                                       b'    "kg": {\r\n      "command": "/usr/bin/kg",\r\n      "args": [\r\n'
                                       b'        "mcp"\r\n      ]\r\n    }\r\n  },\r\n  "globalShortcut": "Ctrl+K"\r\n}\r\n')
    del data["mcpServers"]["kg"]
    data["globalShortcut"] = ""
    assert json_like(data, json_like({**data, "mcpServers": {**data["mcpServers"], "kg": {}}}, theirs)) == theirs
    assert json_like({"a": 1, "b": [2]}, b'{"a": 1}') == b'{"a": 1, "b": [2]}'  # one line stays one line
