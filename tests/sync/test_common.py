"""sync/common.py: what a restore writes, beside what it says changed."""

from kg_actors.sync.common import carry_versions, renamed_by_merge

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
