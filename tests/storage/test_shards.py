"""The graph as git keeps it (shards: one small file per id-hash bucket) and the graph file's text spliced.

Pure: split/join/patch of dicts, the bucket encoding, and the indent-2 text
index that rebuilds a graph file after a merge without writing it whole.
"""

from __future__ import annotations

import copy
import json

from kg_actors.storage import files, graph_text, shards


def _graph(n: int = 60) -> dict:
    nodes = {f"node-{i:03d}": {"id": f"node-{i:03d}", "gist": f"gist {i} \"quoted\"\nline", "_created_ts": 1000.0 + i,
                               "notes": [f"note {i}"]} for i in range(n)}
    edges = {f"node-{i:03d}->node-{i + 1:03d}:related-to": {"from": f"node-{i:03d}", "to": f"node-{i + 1:03d}",
                                                           "rel": "related-to"} for i in range(n - 1)}
    edges["node-001->src/app.py:touches"] = {"from": "node-001", "to": "src/app.py", "rel": "touches"}
    versions = {f"node:{k}": {"v": 1, "ts": 1.0, "session": None} for k in nodes}
    versions["edge:node-001->node-002:related-to"] = {"v": 2, "ts": 2.0, "session": "s"}
    return {"nodes": nodes, "edges": edges,
            "_meta": {"versions": versions, "namespace": {"kind": "user", "owner": None},
                      "progress": {"task-a": {"last_ts": 5.0, "_trail": []}}}}


def test_split_and_join_give_the_graph_back_and_buckets_are_stable_bytes():
    g = _graph()
    parts = shards.split(g)
    assert shards.META in parts
    assert all(shards.bucket(i) == p for p, v in parts.items() if p != shards.META for i in v["nodes"])
    back = shards.join({p: json.loads(shards.encode(p, v)) for p, v in parts.items()})
    assert back["nodes"] == g["nodes"] and back["edges"] == g["edges"] and back["_meta"] == g["_meta"]
    assert list(back["nodes"]) == list(g["nodes"])  # creation order when rebuilt from nothing
    # A node, the edges going out of it and their version entries share its bucket.
    part = parts[shards.bucket("node-001")]
    assert "node-001" in part["nodes"] and "node-001->src/app.py:touches" in part["edges"]
    assert "edge:node-001->node-002:related-to" in part["_meta"]["versions"]
    # The same entries are the same bytes in whatever order they come (both machines write the same blob).
    shuffled = {"nodes": dict(reversed(list(part["nodes"].items()))), "edges": part["edges"], "_meta": part["_meta"]}
    assert shards.encode("a/bc.json", shuffled) == shards.encode("a/bc.json", part)
    node = next(iter(part["nodes"].values()))
    assert list(json.loads(shards.encode("a/bc.json", part))["nodes"][node["id"]]) == list(node)  # fields as written
    assert shards.encode("a/bc.json", part).count(b"\n") >= len(part["nodes"]) + 3  # an entry a line
    assert shards.split_path("shards/projects/web-app/a/bc.json") == ("project:web-app", "a/bc.json")
    assert shards.split_path("shards/user/meta.json") == ("user", "meta.json")
    assert shards.split_path("user.json") is None and shards.split_path("shards/user/x.txt") is None


def test_an_old_files_edge_list_comes_back_as_a_list():
    g = _graph(5)
    g["edges"] = list(g["edges"].values())
    back = shards.join(shards.split(g))
    assert isinstance(back["edges"], list) and sorted(map(json.dumps, back["edges"])) == sorted(map(json.dumps, g["edges"]))


def test_patch_replaces_changed_parts_in_the_files_order():
    g = _graph()
    parts = shards.split(g)
    changed = [shards.bucket("node-010"), shards.bucket("node-020")]
    old = {p: parts[p] for p in changed}
    new = copy.deepcopy(old)
    new[changed[0]]["nodes"]["node-010"]["gist"] = "rewritten"
    del new[changed[1]]["nodes"]["node-020"]
    new[changed[1]]["nodes"]["node-new"] = {"id": "node-new", "gist": "added", "_created_ts": 1.0}
    out = shards.patch(g, old, new)
    assert out["nodes"]["node-010"]["gist"] == "rewritten" and "node-020" not in out["nodes"]
    ids = list(out["nodes"])
    assert ids[-1] == "node-new" and ids.index("node-010") == 10  # kept in place; new ones last
    assert out["_meta"]["progress"] == g["_meta"]["progress"]


def test_the_text_splice_writes_what_a_whole_write_would_hold():
    g = _graph()
    text = files.dump_json(g).decode()
    ix = graph_text.index(text)
    assert ix is not None and len(ix.sections["nodes"].entries) == 60
    assert graph_text.value(ix, "nodes", "node-007") == g["nodes"]["node-007"]
    want = copy.deepcopy(g)
    want["nodes"]["node-003"]["gist"] = "new \"gist\"\nwith a newline"
    del want["nodes"]["node-004"]
    want["nodes"]["brand-new-node"] = {"id": "brand-new-node", "gist": "x"}
    del want["edges"]["node-004->node-005:related-to"]
    want["_meta"]["versions"]["node:brand-new-node"] = {"v": 1}
    want["_meta"]["progress"]["task-a"]["last_ts"] = 9.0
    out = graph_text.splice(ix, {
        "nodes": {"node-003": want["nodes"]["node-003"], "node-004": graph_text.MISSING,
                  "brand-new-node": want["nodes"]["brand-new-node"]},
        "edges": {"node-004->node-005:related-to": graph_text.MISSING},
        "_meta.versions": {"node:brand-new-node": {"v": 1}},
        "_meta": {"progress": want["_meta"]["progress"]},
    })
    assert out is not None and json.loads(out) == want
    again = graph_text.index(out)
    assert sorted(graph_text.changed_keys(ix, again, "nodes")) == ["brand-new-node", "node-003", "node-004"]
    assert json.loads(graph_text.skeleton(again))["_meta"]["progress"] == want["_meta"]["progress"]


def test_text_not_in_the_servers_shape_is_refused():
    g = _graph(3)
    assert graph_text.index(json.dumps(g)) is None  # compact
    assert graph_text.index(json.dumps(g, indent=4)) is None
    listed = {**g, "edges": list(g["edges"].values())}
    assert graph_text.index(files.dump_json(listed).decode()) is None
    ix = graph_text.index(files.dump_json({**g, "edges": {}}).decode())
    assert ix is None  # an empty section has no line to splice into
