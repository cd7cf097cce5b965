"""The project folder a graph file records, read without parsing the whole graph when it can be."""

import json

from kg_actors.storage import layout as L


def write(path, text):
    path.write_text(text)
    return path


def test_meta_written_last_is_read_alone(tmp_path):
    raw = {"nodes": {"a": {"id": "a", "gist": "x"}}, "edges": {}, "_meta": {"project_path": str(tmp_path)}}
    path = write(tmp_path / "graph.json", json.dumps(raw, indent=2))
    assert L._last_meta(path.read_bytes()) == raw["_meta"]
    assert L.recorded_project_path(path) == str(tmp_path.resolve())


def test_a_meta_key_nested_in_a_node_is_never_taken_for_the_graphs(tmp_path):
    raw = {"_meta": {"project_path": str(tmp_path / "real")},
           "nodes": {"a": {"id": "a", "gist": "x", "_meta": {"project_path": "/elsewhere"}}}}
    path = write(tmp_path / "graph.json", json.dumps(raw))
    assert L._last_meta(path.read_bytes()) is None  # not the last top-level key: the whole file is parsed
    assert L.recorded_project_path(path) == str((tmp_path / "real").resolve())


def test_meta_in_a_string_or_a_broken_file(tmp_path):
    raw = {"nodes": {"a": {"id": "a", "gist": 'says "_meta": {} here'}}}
    assert L.recorded_project_path(write(tmp_path / "g1.json", json.dumps(raw))) is None
    assert L.recorded_project_path(write(tmp_path / "g2.json", '{"nodes": {}, "_meta": {"project_path": ')) is None


def test_the_answer_is_kept_until_the_file_changes(tmp_path, monkeypatch):
    path = write(tmp_path / "graph.json", json.dumps({"nodes": {}, "_meta": {"project_path": str(tmp_path / "a")}}))
    assert L.recorded_project_path(path) == str((tmp_path / "a").resolve())
    parses = []
    monkeypatch.setattr(L, "_last_meta", lambda data: parses.append(data) or None)
    assert L.recorded_project_path(path) == str((tmp_path / "a").resolve())
    assert parses == []  # the same file: not read again
    new = write(tmp_path / "next.json", json.dumps({"nodes": {}, "_meta": {"project_path": str(tmp_path / "b")}}))
    new.replace(path)  # replaced as saves replace it (a new file in its place)
    assert L.recorded_project_path(path) == str((tmp_path / "b").resolve())
    assert len(parses) == 1


def _stored(lay: L.Layout, name: str, root) -> None:
    path = lay.project_graph(name)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"nodes": {}, "_meta": {"project_path": str(root)}}))


def test_kg_memorys_folder_named_by_the_project_s_own_name_is_adopted_ours_first(tmp_path):
    lay = L.Layout(tmp_path / "store")
    root, other = tmp_path / "my project", tmp_path / "elsewhere" / "my project"
    root.mkdir()
    other.mkdir(parents=True)
    assert L.reference_slug(str(root)) == "my project" and L.reference_slug(str(tmp_path / "webapp")) is None
    assert L.reference_slug(str(tmp_path / "-flag")) is None
    assert L.choose_slug(lay, str(root)) == "my-project"  # nothing stored: our own rule
    _stored(lay, "my project", other)
    assert L.choose_slug(lay, str(root)) == "my-project"  # 0.17's folder of another project of that name
    (lay.projects / "my project").rename(lay.projects / "kept")
    _stored(lay, "my project", root)
    assert L.choose_slug(lay, str(root)) == "my project"
    _stored(lay, "my-project", root)  # ours, made beside it by an earlier kg: served (the other is merged in)
    assert L.choose_slug(lay, str(root)) == "my-project"
