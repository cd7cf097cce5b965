"""A cwd's project root is resolved once a while, not on every hook."""

import os
from types import SimpleNamespace

import pytest

from kg_actors.core import constants as C
from kg_actors.core.errors import InvalidInput
from kg_actors.memory import Memory


def test_a_cwd_root_is_kept_a_while_then_resolved_again(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    link = tmp_path / "app"
    link.symlink_to(first)
    now = [1000.0]
    memory = Memory(SimpleNamespace(layout=None, has_project_graph=lambda root: False), None, lambda: now[0])

    assert memory.root_for(str(link)) == os.path.realpath(first)
    link.unlink()
    link.symlink_to(second)
    now[0] += C.ROOT_CACHE_SECONDS - 1
    assert memory.root_for(str(link)) == os.path.realpath(first)  # kept
    now[0] += 2
    assert memory.root_for(str(link)) == os.path.realpath(second)  # resolved again


def test_the_home_folder_is_user_only_and_a_bad_cwd_is_refused_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    memory = Memory(SimpleNamespace(layout=None, has_project_graph=lambda root: False), None, lambda: 5.0)
    assert memory.root_for(str(tmp_path)) is None
    for _ in range(2):
        with pytest.raises(InvalidInput, match="cwd"):
            memory.root_for("relative/folder")
        with pytest.raises(InvalidInput, match="outside the user's home"):
            memory.root_for("/")
