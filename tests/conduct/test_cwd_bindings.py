"""A cwd's project root is resolved once a while, not on every hook."""

import os
from types import SimpleNamespace

import pytest

from kg_actors.core import constants as C
from kg_actors.core.errors import InvalidInput
from kg_actors.conduct.bindings import CwdBindings


def test_a_cwd_root_is_kept_a_while_then_resolved_again(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    link = tmp_path / "app"
    link.symlink_to(first)
    now = [1000.0]
    bindings = CwdBindings(SimpleNamespace(has_project_graph=lambda root: False), lambda: now[0])

    assert bindings.root_for(str(link)) == os.path.realpath(first)
    link.unlink()
    link.symlink_to(second)
    now[0] += C.ROOT_CACHE_SECONDS - 1
    assert bindings.root_for(str(link)) == os.path.realpath(first)  # kept
    now[0] += 2
    assert bindings.root_for(str(link)) == os.path.realpath(second)  # resolved again


def test_a_sessions_start_resolves_its_cwd_afresh_and_the_hooks_after_it_take_that(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    sub = tmp_path / "wt" / "sub"
    sub.mkdir(parents=True)
    directory = SimpleNamespace(has_project_graph=lambda root: False, has_graph_for=lambda folder: False)
    bindings = CwdBindings(directory, lambda: 5.0)
    real = os.path.realpath
    assert bindings.root_for(str(sub)) == real(sub)  # a plain folder: its own project
    (tmp_path / "wt" / ".git").mkdir()  # then a git work tree, within the answer's time
    assert bindings.root_for(str(sub)) == real(sub)  # a hook's cached answer
    assert bindings.root_for(str(sub), fresh=True) == real(tmp_path / "wt")  # a session's start
    assert bindings.root_for(str(sub)) == real(tmp_path / "wt")  # the hooks after it


def test_the_home_folder_is_user_only_and_a_bad_cwd_is_refused_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    bindings = CwdBindings(SimpleNamespace(has_project_graph=lambda root: False), lambda: 5.0)
    assert bindings.root_for(str(tmp_path)) is None
    for _ in range(2):
        with pytest.raises(InvalidInput, match="cwd"):
            bindings.root_for("relative/folder")
        with pytest.raises(InvalidInput, match="outside the user's home"):
            bindings.root_for("/")


def test_a_cwd_binds_to_its_git_work_tree_unless_its_own_folder_has_a_graph(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".git").mkdir()  # a dotfiles repository in home makes no project
    repo, kept = tmp_path / "repo", tmp_path / "repo" / "kept"
    (repo / "src" / "deep").mkdir(parents=True)
    (repo / ".git").write_text("gitdir: /elsewhere\n")  # a linked work tree's .git is a file
    kept.mkdir()
    (tmp_path / "plain" / "sub").mkdir(parents=True)
    directory = SimpleNamespace(layout=None, has_project_graph=lambda root: False,
                                has_graph_for=lambda folder: folder == os.path.realpath(kept))
    bindings = CwdBindings(directory, lambda: 5.0)
    real = os.path.realpath
    assert bindings.binding(str(repo / "src" / "deep")) == (real(repo), real(repo / "src" / "deep"))
    assert bindings.root_for(str(repo)) == real(repo)
    assert bindings.root_for(str(kept)) == real(kept)
    assert bindings.root_for(str(tmp_path / "plain" / "sub")) == real(tmp_path / "plain" / "sub")
    with pytest.raises(InvalidInput, match="cwd: .* does not exist"):
        bindings.root_for(str(repo / "gone"))
    (repo / "file.txt").write_text("x")
    with pytest.raises(InvalidInput, match="is a file, not a folder"):
        bindings.root_for(str(repo / "file.txt"))


def test_a_stored_graphs_folder_is_read_once_per_version_of_its_file(tmp_path, monkeypatch):
    import json

    from kg_actors.directory import GraphDirectory
    from kg_actors.storage import layout as L

    monkeypatch.setenv("HOME", str(tmp_path))
    lay = L.Layout(tmp_path / "store")
    graph_file = lay.project_graph("sub")
    graph_file.parent.mkdir(parents=True)
    folder = str(tmp_path / "repo" / "sub")
    graph_file.write_text(json.dumps({"nodes": {}, "edges": {}, "_meta": {"project_path": folder}}))
    reads = []
    real = L.recorded_project_path
    monkeypatch.setattr(L, "recorded_project_path", lambda f: reads.append(f) or real(f))
    directory = GraphDirectory(lay, None)
    assert directory.has_graph_for(folder) and directory.has_graph_for(folder)
    assert not directory.has_graph_for(str(tmp_path / "other" / "sub"))
    assert len(reads) == 1
    os.utime(graph_file, ns=(1, 1))  # a new version of the file is read again
    assert directory.has_graph_for(folder) and len(reads) == 2


def test_a_folder_inside_the_store_is_user_only_as_home_is(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    store = tmp_path / ".knowledge-graph"
    (store / "projects" / "app").mkdir(parents=True)
    (store / ".git").mkdir()  # `kg init-git`: the store is a git work tree
    (tmp_path / "code" / "app").mkdir(parents=True)
    directory = SimpleNamespace(has_project_graph=lambda root: False, has_graph_for=lambda folder: False)
    bindings = CwdBindings(directory, lambda: 5.0, store)
    assert bindings.root_for(str(store / "projects" / "app")) is None
    assert bindings.root_for(str(store)) is None
    assert bindings.root_for(str(tmp_path / "code" / "app")) == os.path.realpath(tmp_path / "code" / "app")
    # A store that is home itself (or holds it) leaves every folder of home what it was.
    assert CwdBindings(directory, lambda: 5.0, tmp_path).root_for(str(tmp_path / "code" / "app")) is not None
