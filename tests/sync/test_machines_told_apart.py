"""Three machines of one host name (each store with its own id): a node kept against a delete names the machine
whose commit deleted it, though the other machine's commits carry more than one id. Real git, stores and a bare
remote in tmp_path, the offline commands in-process."""

from __future__ import annotations

import subprocess

from kg_actors.storage import git_read
from kg_actors.storage.machine_id import machine_id
from kg_actors.sync import offline
from tests.sync.test_shard_sync import T, _graph, _load, _node, _save, git  # noqa: F401
from tests.sync.test_shard_sync import _git_identity  # noqa: F401 (autouse: HOME, git identity, KG_MACHINE)


def test_a_node_deleted_on_one_of_three_machines_of_one_name_names_that_machine(tmp_path):
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, timeout=60)
    a, b, c = (tmp_path / n for n in "abc")
    _save(a / "user.json", _graph(6))
    for store in (a, b, c):
        offline.sync(store, str(remote), T)
    ids = {store: machine_id(store) for store in (a, b, c)}
    assert len(set(ids.values())) == 3 and all(ids.values())
    on_c = _load(c / "user.json")
    del on_c["nodes"]["lesson-003"]
    on_c["edges"] = {k: e for k, e in on_c["edges"].items() if "lesson-003" not in k}
    _save(c / "user.json", on_c)
    offline.sync(c, str(remote), T + 10)  # c deletes it
    offline.sync(b, str(remote), T + 20)
    on_b = _load(b / "user.json")
    on_b["nodes"]["written-on-b"] = {**_node("written-on-b", "something else"), "_created_ts": T + 25}  # no rename
    _save(b / "user.json", on_b)
    offline.sync(b, str(remote), T + 30)  # b writes something else: theirs now carries two ids
    on_a = _load(a / "user.json")
    on_a["nodes"]["lesson-003"]["gist"] = "changed on a"
    _save(a / "user.json", on_a)
    before = git(a, "rev-parse", "HEAD").strip()
    offline.sync(a, str(remote), T + 40)
    [aside] = _load(a / "user.json")["nodes"]["lesson-003"]["_conflicts"]
    assert aside["deleted_on"] == f"machine-t [{ids[c]}]" and aside["changed_on"] == f"machine-t [{ids[a]}]", aside
    # Read per commit: the commits that changed a path, each with its machine.
    theirs = git(a, "rev-parse", "HEAD^2").strip()
    found = git_read.machines_by_path(a, before, theirs)
    assert {m for m in found.values()} <= {("machine-t", ids[b]), ("machine-t", ids[c])}
