"""sync/common.py: what a restore writes, beside what it says changed."""

from kg_actors.sync.common import carry_versions

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
