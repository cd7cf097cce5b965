"""A sync whose push loses the race (another machine pushed between its fetch and its push): the user is
told to run `kg sync` again, never git's own hint to `git pull` (a pull by hand is what leaves the graphs
behind HEAD). Real git, a bare remote and two stores, no server."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kg_actors.storage import git_merge, git_read
from kg_actors.sync import offline
from test_shard_sync import T, _graph, _git_identity, _save, git  # noqa: F401 (the fixture is used by name)


@pytest.fixture(autouse=True)
def _identity(_git_identity):
    return None


def test_a_push_that_lost_the_race_says_to_run_kg_sync_again(tmp_path):
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, timeout=60)
    a, b = tmp_path / "a", tmp_path / "b"
    _save(a / "user.json", _graph(3))
    assert offline.sync(a, str(remote), T)["pushed"]
    assert offline.sync(b, str(remote), T)["pushed"]
    graph = _graph(3)
    graph["nodes"]["lesson-001"]["gist"] = "rewritten on a"
    _save(a / "user.json", graph)
    offline.commit(a, T)
    fetched = git_merge.fetch(a, str(remote))  # a fetched; then b pushed first
    outcome = git_merge.merge_fetched(a, str(remote), fetched)
    graph = _graph(4)
    _save(b / "user.json", graph)
    assert offline.sync(b, str(remote), T)["pushed"]
    lost = git_merge.push(a, fetched, outcome)
    assert not lost.pushed and lost.push_error is not None
    assert "run `kg sync` again" in lost.push_error and "another machine pushed" in lost.push_error, lost.push_error
    assert "git pull" not in lost.push_error and "hint" not in lost.push_error
    again = offline.sync(a, str(remote), T)  # what the message says: merged and pushed
    assert again["pushed"], again
    pushed = git_read.graph_at(remote, "main", "user")["nodes"]
    assert pushed["lesson-001"]["gist"] == "rewritten on a" and "lesson-003" in pushed  # both machines' writes
