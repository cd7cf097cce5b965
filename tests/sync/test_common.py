"""sync/common.py: what a restore writes, beside what it says changed."""

from pathlib import Path

import pytest

from kg_actors.storage import files
from kg_actors.sync.common import carry_versions, renamed_by_merge, stored_or_aside

NOW = 1.8e9


def test_a_restored_node_gets_a_version_past_both_sides_and_an_untouched_one_keeps_its_own():
    def graph(gists: dict, versions: dict) -> dict:
        return {"nodes": {i: {"id": i, "gist": g} for i, g in gists.items()},
                "_meta": {"versions": {f"node:{i}": {"v": v} for i, v in versions.items()}}}

    current = graph({"changed": "later words", "same": "kept"}, {"changed": 5, "same": 2})
    restored = graph({"changed": "earlier words", "same": "kept", "gone-since": "brought back"},
                     {"changed": 3, "same": 2, "gone-since": 7})
    out = carry_versions(current, restored, NOW)["_meta"]["versions"]
    assert out["node:changed"] == {"v": 6, "ts": NOW, "session": None}
    assert out["node:gone-since"]["v"] == 8 and out["node:same"] == {"v": 2}
    assert carry_versions(restored, restored, NOW) is restored  # nothing changed: nothing rewritten


def test_a_node_a_merge_renamed_is_found_by_its_creation_stamp_and_a_shared_stamp_proves_nothing():
    def nodes(**stamps: float) -> dict:
        return {i.replace("_", "-"): {"id": i.replace("_", "-"), "gist": "g", "_created_ts": t} for i, t in stamps.items()}

    before = nodes(old_name=1.0, batch_one=2.0, batch_two=2.0, plain_delete=3.0, kept=4.0)
    after = nodes(new_name=1.0, batch_renamed=2.0, kept=4.0, fresh=5.0)
    gone = {"old-name", "batch-one", "batch-two", "plain-delete"}
    assert renamed_by_merge(before, after, gone) == {"old-name": "new-name"}
    assert renamed_by_merge(before, after, set()) == {}


def test_a_graph_absent_from_a_commit_is_empty_then_when_it_exists_now_and_refused_when_it_never_did(tmp_path):
    import subprocess

    import pytest

    from kg_actors.storage import git as G
    from kg_actors.sync.common import emptied, graph_then

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                    "--allow-empty", "-m", "first"], check=True)
    assert graph_then(tmp_path, "HEAD", "user", exists_now=True) is None
    with pytest.raises(G.GitError, match="the project:gone graph is not in commit .*, nor in the store now"):
        graph_then(tmp_path, "HEAD", "project:gone", exists_now=False)
    current = {"nodes": {"a": {"id": "a"}}, "edges": {"a->b:x": {}}, "_meta": {"versions": {"node:a": {"v": 4}}}}
    out = carry_versions(current, emptied(current), NOW)
    assert out == {"nodes": {}, "edges": {}, "_meta": {"versions": {"node:a": {"v": 4}}}}  # a version is never reused


def test_an_undo_puts_back_what_the_restore_changed_and_keeps_what_was_written_since():
    from kg_actors.sync.restore_undo import unapply

    def graph(**gists: str) -> dict:
        return {"nodes": {i: {"id": i, "gist": g} for i, g in gists.items()}, "edges": {}, "_meta": {}}

    before = graph(seed="s", mistake="m", edited="before the restore")  # U: what the undo is to bring back
    restored = graph(seed="s", brought="back", edited="as restored")  # C: what the restore wrote
    now = graph(seed="s", brought="back", edited="as restored", synced_since="from machine b")
    out = unapply(restored, now, before, NOW)["nodes"]
    assert set(out) == {"seed", "mistake", "edited", "synced_since"}  # the restore's own changes undone, no more
    assert out["edited"]["gist"] == "before the restore"
    assert unapply(None, graph(synced_since="b"), before, NOW)["nodes"].keys() == {"seed", "mistake", "edited",
                                                                                   "synced_since"}


def test_a_dropped_edge_is_news_only_where_one_of_its_ends_was():
    from kg_actors.core.merge_dropped import DROPPED_EDGE, GONE_NODE
    from kg_actors.sync.common import new_conflicts

    entry = {DROPPED_EDGE: "other-end->gone:related-to", GONE_NODE: "gone", "_set_aside_ts": NOW}
    after = {"nodes": {"other-end": {"id": "other-end", "gist": "g", "_conflicts": [entry]}}}
    assert new_conflicts({"nodes": {"own": {"id": "own"}}}, after)["dropped"] == []  # joined later: old news
    assert new_conflicts({"nodes": {"gone": {"id": "gone"}}}, after)["dropped"] == [
        "other-end->gone:related-to (gone deleted)"]
    assert new_conflicts({"nodes": {"other-end": {"id": "other-end"}}}, after)["dropped"] != []


def test_a_restore_moves_a_damaged_graph_file_aside_and_never_one_it_may_not_read(tmp_path):
    torn = tmp_path / "user.json"
    torn.write_text('{"nodes": {"a": ')
    assert stored_or_aside(torn, files.load_json) == (None, tmp_path / "user.json.replaced")
    assert not torn.exists() and (tmp_path / "user.json.replaced").read_text() == '{"nodes": {"a": '

    def refused(path: Path) -> None:
        raise files.Unavailable(path, "permission denied", "chmod u+r it")

    kept = tmp_path / "graph.json"
    kept.write_text("{}")
    with pytest.raises(files.Unavailable):
        stored_or_aside(kept, refused)
    assert kept.exists()  # not damage: left where it is
