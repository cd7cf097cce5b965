"""What a sync reports of one graph (sync/rebuild.py): the conflicts this merge made, not older ones."""

from __future__ import annotations

import json

import pytest

from kg_actors.storage import files, mirror, shards
from kg_actors.sync import rebuild
from kg_actors.sync.rebuild import GraphChange


def _change(before: dict, after: dict) -> GraphChange:
    return GraphChange("user", {"nodes": before}, {"nodes": after}, False, {}, {})


def test_a_conflict_still_unresolved_from_an_earlier_sync_is_not_reported_again():
    # Every sync touching the node's bucket said "changed on both machines" again for it.
    old = {"id": "old-conflict", "gist": "g", "_conflicts": [{"gist": "the other machine's"}]}
    fresh = {"id": "fresh-conflict", "gist": "h", "_conflicts": [{"gist": "another"}]}
    summary = _change({"old-conflict": old, "fresh-conflict": {"id": "fresh-conflict", "gist": "h"}},
                      {"old-conflict": old, "fresh-conflict": fresh, "new-node": {"id": "new-node", "gist": "n"}}).summary()
    assert summary["conflicts"] == ["fresh-conflict"]
    again = {**old, "_conflicts": [*old["_conflicts"], {"gist": "a third version"}]}  # a new version set aside
    assert _change({"old-conflict": old}, {"old-conflict": again}).summary()["conflicts"] == ["old-conflict"]


def _graph(*ids: str) -> dict:
    return {"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": 1.0} for i in ids}, "edges": {},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


@pytest.mark.parametrize("record", ["server format", "other format", "none"])
def test_a_node_a_merge_brought_to_a_running_graph_and_deleted_there_leaves_its_bucket(tmp_path, record):
    # The mirror's record stayed the file before the merge: the delete was no change against it, and the
    # next commit kept the node in its bucket (the other machine kept it, and the next sync brought it back).
    (tmp_path / ".git").mkdir()
    path = tmp_path / "user.json"
    path.write_bytes(files.dump_json(_graph("kept-node")))
    mirror.update(tmp_path)
    if record == "other format":  # a record in no format the text index reads: parsed and patched
        mirror.remember_folder(tmp_path, "user", json.dumps(_graph("kept-node")).encode())
    elif record == "none":
        mirror.remember_folder(tmp_path, "user", None)
    old = shards.read_folder(tmp_path, "user")
    new = shards.split(_graph("kept-node", "arrived-node"))  # what git's merge left in the folder
    parts = sorted(p for p in new if new[p] != old.get(p))
    shards.write_folder(tmp_path, "user", {p: new[p] for p in parts}, only=set(parts))
    change = GraphChange("user", None, {}, False, {p: old[p] for p in parts if p in old}, {p: new[p] for p in parts})
    rebuild.record_merge(tmp_path, change)
    path.write_bytes(files.dump_json(_graph("kept-node")))  # the actor absorbed it; a session deleted it since
    mirror.update(tmp_path)
    assert set(shards.join(shards.read_folder(tmp_path, "user"))["nodes"]) == {"kept-node"}
