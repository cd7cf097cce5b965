"""GraphData.from_json fills its indexes in one pass: the same graph as a node-by-node, edge-by-edge load."""

import json
import random
from datetime import datetime, timezone

from kg_actors.core.model import Edge, GraphData, Node, snapshot_to_json


def _one_by_one(raw: dict, kind: str) -> GraphData:
    """The load as it was: set_node for each node, set_edge for each edge (the reference to match)."""
    meta = raw["_meta"]
    graph = GraphData(kind, meta.get("project_path"))
    for node_id, node in raw["nodes"].items():
        if isinstance(node, dict) or isinstance(node, str) and node.strip():  # a bare string is a gist
            graph.set_node(Node.from_json(str(node_id), node if isinstance(node, dict) else {"gist": node}))
    for raw_edge in raw["edges"].values():
        if isinstance(raw_edge, dict) and {"from", "to", "rel"} <= raw_edge.keys():
            graph.set_edge(Edge.from_json(raw_edge))
    graph.versions = dict(meta.get("versions") or {})
    graph.progress = dict(meta.get("progress") or {})
    graph.extra_meta = {k: v for k, v in meta.items() if k not in {"versions", "progress", "project_path"}}
    graph.forget_changes()
    return graph


def _random_raw(rng: random.Random, n: int) -> dict:
    ids = [f"node-{i}" for i in range(n)]
    nodes: dict = {}
    for node_id in ids:
        node: dict = {"id": node_id, "gist": f"gist {node_id}", "_created_ts": float(rng.randint(1, 9))}
        state = rng.random()
        if state < 0.3:
            node["_archived"] = True
        elif state < 0.55:
            node["_archived"] = True
            node["_orphaned_ts"] = 5.0
        nodes[node_id] = node
    nodes["not-a-node"] = 5  # skipped
    nodes["a-bare-gist"] = "a string"  # a node whose gist it is
    ends = ids + ["src/a.py", "missing-node"]
    edges: dict = {}
    for _ in range(n * 2):
        src, dst, rel = rng.choice(ends), rng.choice(ends), rng.choice(["uses", "requires"])
        if rng.random() < 0.05:
            dst = src  # a self-loop
        edges[f"{src}->{dst}:{rel}:{len(edges)}"] = {"from": src, "to": dst, "rel": rel}  # repeated keys too
    edges["broken"] = {"from": "a"}
    return {"nodes": nodes, "edges": edges, "_meta": {"versions": {}, "project_path": "/p", "custom": 1}}


def _orders(graph: GraphData) -> tuple:
    """Every map and set with its iteration order (snapshots copy sets in that order)."""
    return (
        list(graph.nodes.items()), list(graph.edges.items()),
        {s: list(ids) for s, ids in graph._by_state.items()},
        [(end, list(keys)) for end, keys in graph.incident_sets().items()],
        [(end, list(keys)) for end, keys in graph.unorphaned_sets().items()],
        graph.gen, graph.has_changes(),
    )


def test_bulk_load_builds_what_one_by_one_loading_built():
    for seed in range(30):
        raw = _random_raw(random.Random(seed), random.Random(seed).randint(0, 60))
        bulk, ref = GraphData.from_json(json.loads(json.dumps(raw)), "project"), _one_by_one(raw, "project")
        assert _orders(bulk) == _orders(ref), seed
        assert snapshot_to_json(bulk.snapshot_json()) == snapshot_to_json(ref.snapshot_json())
        snap, ref_snap = bulk.snapshot(), ref.snapshot()
        assert dict(snap.nodes) == dict(ref_snap.nodes) and list(snap.edges) == list(ref_snap.edges)
        for end in ref.incident_sets():
            assert list(snap.unorphaned_incident(end)) == list(ref_snap.unorphaned_incident(end))


def test_a_bulk_loaded_graph_changes_and_snapshots_like_any_other():
    raw = _random_raw(random.Random(7), 40)
    bulk, ref = GraphData.from_json(raw, "project"), _one_by_one(raw, "project")
    for graph in (bulk, ref):
        graph.snapshot()
        victim = graph.nodes["node-3"]
        graph.set_node(Node(victim.id, victim.gist, orphaned_ts=9.0, archived=True))
        graph.del_node("node-4")
        graph.set_edge(Edge("node-1", "node-5", "uses"))
    assert _orders(bulk) == _orders(ref)
    assert bulk.take_changes() == ref.take_changes()
    after, ref_after = bulk.snapshot(), ref.snapshot()
    assert list(after.edges) == list(ref_after.edges) and after.gen == ref_after.gen
    for end in ref.incident_sets():
        assert list(after.unorphaned_incident(end)) == list(ref_after.unorphaned_incident(end))


def test_node_moved_is_evolve_of_its_state_for_every_field():
    import attrs
    # A distinct object per field (attrs does not check types): a field moved() forgot would not be carried.
    node = Node(**{f.name: object() for f in attrs.fields(Node)})
    for archived, orphaned_ts in ((True, 5.0), (False, None), (True, None)):
        got, want = node.moved(archived, orphaned_ts), attrs.evolve(node, archived=archived, orphaned_ts=orphaned_ts)
        for field in attrs.fields(Node):
            assert getattr(got, field.name) is getattr(want, field.name), field.name


def _node_by_names(node_id: str, raw: dict) -> Node:
    """Node.from_json's rules written plainly (keyword arguments, a comprehension per field). A hand-edited
    file's odd values are read for what they mean: `"notes": "one"` is a note, `"_archived": "false"` false,
    `"gist": null` empty, a number in text a number."""
    def floats(v):
        return tuple(t for t in map(opt, v) if t is not None) if isinstance(v, list | tuple) else ()

    def opt(v):
        if isinstance(v, str):
            try:
                return float(v)
            except ValueError:
                pass
            try:
                d = datetime.fromisoformat(v)
            except ValueError:
                return None
            return (d if d.tzinfo else d.replace(tzinfo=timezone.utc)).timestamp()
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

    def text(v):
        return "" if v is None else " ".join(map(str, v)) if isinstance(v, list | tuple) else str(v)

    def flag(v):
        return v.strip().lower() in ("true", "1", "yes") if isinstance(v, str) else bool(v)

    known = {"id", "gist", "notes", "touches", "_created_ts", "_archived", "_orphaned_ts", "_last_read_ts",
             "_useful_ts", "_credited_ts", "_gist_ts", "_written", "_recurrence_ts"}
    written = raw.get("_written")
    return Node(id=node_id, gist=text(raw.get("gist", "")), notes=strings_of(raw.get("notes")),
                touches=strings_of(raw.get("touches")), created_ts=opt(raw.get("_created_ts")),
                archived=flag(raw.get("_archived", False)), orphaned_ts=opt(raw.get("_orphaned_ts")),
                last_read_ts=opt(raw.get("_last_read_ts")), useful_ts=floats(raw.get("_useful_ts")),
                credited_ts=floats(raw.get("_credited_ts")), gist_ts=floats(raw.get("_gist_ts")),
                written=dict(written) if isinstance(written, dict) else None,
                recurrence_ts=floats(raw.get("_recurrence_ts")),
                extra={k: v for k, v in raw.items() if k not in known})


def strings_of(v) -> tuple:
    if isinstance(v, str):
        return (v,) if v else ()
    return tuple(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in v) \
        if isinstance(v, list | tuple) else ()


def test_node_and_edge_from_json_read_every_field_as_before():
    import attrs
    rng = random.Random(3)
    odd = [None, True, 0, 3, 2.5, "7", "", [], [1, True, "x", 2.0], ("a", 1), {"k": 1}, {}, "2024-01-01T00:00:00",
           "2024-01-01 10:00+02:00", "false"]
    fields = ["gist", "notes", "touches", "_created_ts", "_archived", "_orphaned_ts", "_last_read_ts", "_useful_ts",
              "_credited_ts", "_gist_ts", "_written", "_recurrence_ts", "zz_extra", "aa_extra"]
    for _ in range(400):
        raw = {name: rng.choice(odd) for name in rng.sample(fields, rng.randint(0, len(fields)))}
        got, want = Node.from_json("n", raw), _node_by_names("n", raw)
        assert attrs.asdict(got, recurse=False) == attrs.asdict(want, recurse=False), raw
        assert list(got.extra) == list(want.extra)  # extra fields are written back in the file's order
        edge_raw = {"from": "a", "to": 1, "rel": "r", **{k: rng.choice(odd) for k in rng.sample(["notes", "w", "b"], 2)}}
        edge = Edge.from_json(edge_raw)
        assert (edge.src, edge.dst, edge.rel) == ("a", "1", "r") and edge.to_json() == {
            "from": "a", "to": "1", "rel": "r", **({"notes": list(strings_of(edge_raw["notes"]))}
                                                   if strings_of(edge_raw.get("notes")) else {}),
            **{k: v for k, v in edge_raw.items() if k in ("w", "b")}}


def test_a_hand_edits_times_as_text_and_notes_that_are_not_text_are_kept():
    """kg-memory's files may carry them; our first save used to drop the times and write the notes as Python's repr."""
    node = Node.from_json("hand-edited-node", {"gist": "g", "_useful_ts": ["2024-01-01T00:00:00", 5, "6.5", "never"],
                                               "notes": [{"k": 1}, 2, "plain"]})
    assert node.useful_ts == (1704067200.0, 5.0, 6.5)
    assert node.notes == ('{"k": 1}', "2", "plain")
