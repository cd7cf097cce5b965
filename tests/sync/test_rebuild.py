"""What a sync reports of one graph (sync/rebuild.py): the conflicts this merge made, not older ones."""

from __future__ import annotations

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
