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


def test_a_large_graph_is_read_by_its_tail_alone(tmp_path, monkeypatch):
    nodes = {f"n{i}": {"id": f"n{i}", "gist": "x" * 400} for i in range(2000)}  # about 1 MB
    raw = {"nodes": nodes, "edges": {}, "_meta": {"project_path": str(tmp_path)}}
    path = write(tmp_path / "graph.json", json.dumps(raw))
    seen = []
    real = L._last_meta
    monkeypatch.setattr(L, "_last_meta", lambda data: seen.append(len(data)) or real(data))
    assert L.recorded_project_path(path) == str(tmp_path.resolve())
    assert seen == [L._TAIL] and path.stat().st_size > 10 * L._TAIL  # one read of its tail, never the whole


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


def test_of_two_projects_of_one_name_synced_from_another_machine_each_folder_here_takes_its_own(tmp_path):
    # On the other machine ~/t1/svc and ~/t2/svc were two projects: graphs `svc` and `svc-<hash>`. Here neither
    # path exists; the folder that opens takes the graph whose recorded folder ends as it does, not `svc` by name.
    lay = L.Layout(tmp_path / "store")
    there_t1, there_t2 = "/home/other/t1/svc", "/home/other/t2/svc"
    _stored(lay, "svc", there_t1)
    _stored(lay, L.hashed_slug(there_t2), there_t2)
    here_t1, here_t2, here_x = tmp_path / "t1" / "svc", tmp_path / "t2" / "svc", tmp_path / "x" / "svc"
    for folder in (here_t1, here_t2, here_x):
        folder.mkdir(parents=True)
    assert L.choose_slug(lay, str(here_t2)) == L.hashed_slug(there_t2)
    assert L.choose_slug(lay, str(here_t1)) == "svc"
    assert L.choose_slug(lay, str(here_x)) == "svc"  # the name alone tells nothing more: the plain graph, as before
    # A twin whose folder is on this machine is another project of this name: never taken.
    local_twin = tmp_path / "t3" / "svc"
    local_twin.mkdir(parents=True)
    (lay.projects / L.hashed_slug(there_t2)).rename(lay.projects / "kept-aside")
    _stored(lay, L.hashed_slug(str(local_twin)), local_twin)
    assert L.choose_slug(lay, str(tmp_path / "elsewhere" / "t3" / "svc")) == "svc"


def _with_touches(lay: L.Layout, name: str, root, *files: str) -> None:
    path = lay.project_graph(name)
    path.parent.mkdir(parents=True)
    node = {"id": "n", "gist": "x", "touches": list(files)}
    path.write_text(json.dumps({"nodes": {"n": node}, "_meta": {"project_path": str(root)}}))


def test_a_moved_twin_whose_files_are_here_beats_the_plain_graph_ending_as_alike(home):
    # ~/t1/svc (graph `svc`) and ~/t2/svc (`svc-<hash>`) were two projects of this home. ~/t2/svc moved to
    # ~/t3/svc: both recorded folders end as it does by `svc` alone, and its files tell which graph it takes.
    lay = L.Layout(home / ".knowledge-graph")
    t1, t2, t3 = home / "t1" / "svc", home / "t2" / "svc", home / "t3" / "svc"
    for f in ("s/three.py", "s/four.py"):
        (t3 / f).parent.mkdir(parents=True, exist_ok=True)
        (t3 / f).write_text("x")
    _with_touches(lay, "svc", t1, "s/one.py", "s/two.py")
    _with_touches(lay, L.hashed_slug(str(t2)), t2, "s/three.py", "s/four.py")
    assert L.choose_slug(lay, str(t3)) == L.hashed_slug(str(t2))  # ~/t1/svc moved away as well
    t1.mkdir(parents=True)
    assert L.choose_slug(lay, str(t3)) == L.hashed_slug(str(t2))  # ~/t1/svc here: its graph is its own
    assert L.choose_slug(lay, str(t1)) == "svc"
    # Without the files, neither is taken: a graph of its own.
    bare = home / "t4" / "svc"
    bare.mkdir(parents=True)
    assert L.choose_slug(lay, str(bare)) == L.hashed_slug(str(bare))


def test_a_gone_projects_graph_is_taken_only_by_a_folder_of_its_very_name_never_of_its_slug(tmp_path):
    # `日本語プロジェクト` and `My App` keep their graphs in `project` and `My-App` (our slug rule); once their
    # folders are gone, `~/work/project` and `~/oss/My-App` share a slug with them but not a name.
    lay = L.Layout(tmp_path / "store")
    _stored(lay, "project", tmp_path / "ünï" / "日本語プロジェクト")
    _stored(lay, "My-App", tmp_path / "clients" / "My App")
    for name in ("work/project", "oss/My-App", "elsewhere/My App", "moved/日本語プロジェクト"):
        (tmp_path / name).mkdir(parents=True)
    assert L.choose_slug(lay, str(tmp_path / "work" / "project")) == L.hashed_slug(str(tmp_path / "work" / "project"))
    assert L.choose_slug(lay, str(tmp_path / "oss" / "My-App")) == L.hashed_slug(str(tmp_path / "oss" / "My-App"))
    # The same project moved to another parent folder keeps its memory.
    assert L.choose_slug(lay, str(tmp_path / "elsewhere" / "My App")) == "My-App"
    assert L.choose_slug(lay, str(tmp_path / "moved" / "日本語プロジェクト")) == "project"


def test_a_graph_that_records_no_folder_is_taken_only_by_the_folder_its_name_spells(tmp_path):
    lay = L.Layout(tmp_path / "store")
    for name in ("My-App", "svc"):
        path = lay.project_graph(name)
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"nodes": {}}))
    (tmp_path / "a" / "My App").mkdir(parents=True)
    (tmp_path / "a" / "svc").mkdir(parents=True)
    assert L.choose_slug(lay, str(tmp_path / "a" / "svc")) == "svc"
    assert L.choose_slug(lay, str(tmp_path / "a" / "My App")) == L.hashed_slug(str(tmp_path / "a" / "My App"))


def test_a_graph_folder_renamed_by_hand_for_a_renamed_project_is_taken_by_that_project(tmp_path):
    lay = L.Layout(tmp_path / "store")
    old, new = tmp_path / "repos" / "r07", tmp_path / "repos" / "r07-renamed"
    _stored(lay, "r07", old)
    new.mkdir(parents=True)
    assert L.choose_slug(lay, str(new)) == "r07-renamed"  # nothing there by that name yet: a new graph
    (lay.projects / "r07").rename(lay.projects / "r07-renamed")
    assert L.choose_slug(lay, str(new)) == "r07-renamed"
    (lay.projects / "r07-renamed").rename(lay.projects / "r07")
    # A name given as the folder's own (kg-memory 0.17's way): the same.
    spaced = tmp_path / "repos" / "r07 new"
    spaced.mkdir()
    (lay.projects / "r07").rename(lay.projects / "r07 new")
    assert L.choose_slug(lay, str(spaced)) == "r07 new"
    # Its recorded folder back on this machine: it is that folder's again, never the other's.
    old.mkdir()
    assert L.choose_slug(lay, str(spaced)) == "r07-new"  # a graph of its own


def test_a_folder_named_by_a_key_takes_a_hashed_masked_folder_never_a_plain_name_and_an_older_one_still_binds(tmp_path):
    lay = L.Layout(tmp_path / "store")
    token = "ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp" + "3Hs6Dj0Fg5Ca8Ue2"  # assembled: no file holds a whole one
    keyed, other_keyed, plain = (tmp_path / "work" / token), (tmp_path / "old" / token), tmp_path / "x" / "project"
    for folder in (keyed, other_keyed, plain):
        folder.mkdir(parents=True)
    slug = L.choose_slug(lay, str(keyed))
    assert slug.startswith("masked-") and slug == L.base_slug(str(keyed)), slug
    assert L.hashed_slug(str(keyed)).startswith(slug + "-") and "Zq8Xw2" not in L.hashed_slug(str(keyed))
    assert "Zq8Xw2" not in slug and L.choose_slug(lay, str(other_keyed)) not in (slug, "project")
    _stored(lay, slug, keyed)
    assert L.choose_slug(lay, str(keyed)) == slug
    assert L.choose_slug(lay, str(plain)) == "project"  # a folder named `project` keeps its own plain name
    spaced = tmp_path / "s" / " ".join(token)
    spaced.mkdir(parents=True)
    assert L.base_slug(str(spaced)).startswith("masked-")
    # An older kg's store folder for it, named `project` then (or `project-<hash>` beside another): still its own.
    _stored(lay, "project", other_keyed)
    assert L.choose_slug(lay, str(other_keyed)) == "project"
    assert L.choose_slug(lay, str(plain)) == L.hashed_slug(str(plain))  # taken: as for any name taken
    older = tmp_path / "older" / token
    older.mkdir(parents=True)
    _stored(lay, "project-" + L.base_slug(str(older))[len("masked-"):], older)
    assert L.choose_slug(lay, str(older)) == "project-" + L.base_slug(str(older))[len("masked-"):]


def test_a_plain_folder_named_as_a_masked_store_folder_and_the_key_named_folder_it_masks_keep_apart(tmp_path):
    lay = L.Layout(tmp_path / "store")
    token = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "T1mYp8sJf3Hg6Ua0EoZi"  # assembled: no file holds a whole one
    keyed = tmp_path / "work" / token
    masked = L.base_slug(str(keyed))
    plain, other_plain = tmp_path / "p" / masked, tmp_path / "q" / masked
    for folder in (keyed, plain, other_plain):
        folder.mkdir(parents=True)
    # Nothing stored: the plain folder never takes a name the masking scheme gives a key-named folder.
    assert L.choose_slug(lay, str(plain)) not in (masked, L.hashed_slug(str(keyed)))
    assert L.choose_slug(lay, str(keyed)) == masked
    # An older kg let the plain folder take that name: it keeps it, and the key-named folder takes another.
    _stored(lay, masked, plain)
    assert L.choose_slug(lay, str(plain)) == masked
    own = L.choose_slug(lay, str(keyed))
    assert own != masked and own.startswith("masked-") and "R7dLq2" not in own
    _stored(lay, own, keyed)
    assert L.choose_slug(lay, str(keyed)) == own and L.choose_slug(lay, str(plain)) == masked
    assert L.choose_slug(lay, str(other_plain)) not in (masked, own)  # another folder of that name: its own
