"""A graph's file written a node at a time holds exactly the bytes of the whole-dict dump."""

import json

from kg_actors.core.model import Edge, GraphData, Node, snapshot_to_json
from kg_actors.storage import files, graph_file


def _graph() -> GraphData:
    g = GraphData("project", "/home/u/code/app")
    g.set_node(Node("trio-nurseries-own-tasks", "A nursery — owns its tasks ☃", notes=("one", "two \"q\""),
                    touches=("src/app.py",), created_ts=1.5e9, useful_ts=(1.6e9,), extra={"future": {"k": [1, None]}}))
    g.set_node(Node("plain-lesson", "gist", archived=True, orphaned_ts=1.7e9))
    g.set_edge(Edge("trio-nurseries-own-tasks", "plain-lesson", "relates_to"))
    g.take_changes()
    return g


def test_the_streamed_file_is_byte_for_byte_the_whole_dump(tmp_path):
    for graph in (_graph(), GraphData("user")):
        snapshot = graph.snapshot_json()
        path = tmp_path / f"{graph.kind}.json"
        graph_file.write_snapshot(path, snapshot)
        whole = files.dump_json(snapshot_to_json(snapshot))
        assert path.read_bytes() == whole
        assert json.loads(whole) == snapshot_to_json(snapshot)


def test_members_stream_as_json_dumps_writes_them_at_any_depth():
    members = [("a", {"x": [1, 2.5, None]}), ("b", []), ("c", {})]
    for ind in ("", "    "):
        text = "".join(files.iter_indent2_object(iter(members), ind))
        assert text == files.dumps_indent2(dict(members), ind)
    assert "".join(files.iter_indent2_object(iter([]))) == json.dumps({}, indent=2)
    large = {f"node-{i}": {"v": i, "t": [i * 0.5]} for i in range(600)}  # streamed member by member too
    nested = [("versions", large), ("inner", {"deeper": large, "empty": {}}), ("n", 1)]
    assert "".join(files.iter_indent2_object(iter(nested), "  ")) == files.dumps_indent2(dict(nested), "  ")
    assert "".join(files.iter_indent2_object(iter(nested))) == json.dumps(dict(nested), indent=2)
    assert files.dumps_indent2({"k": [1, {"z": "☃"}]}) == json.dumps({"k": [1, {"z": "☃"}]}, indent=2,
                                                                        ensure_ascii=False)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "graph.json"
    path.write_text("old")

    def chunks():
        yield "{"
        raise OSError("disk full")

    try:
        files.write_atomic_chunks(path, chunks())
    except OSError:
        pass
    assert path.read_text() == "old" and not (tmp_path / "graph.json.tmp").exists()
