"""A folder of a gone folder's name takes its graph only on evidence: most of the files its lessons touch."""

import json

from kg_actors.storage import layout as L, same_project


def _stored(lay: L.Layout, name: str, root, touches: list[str]) -> None:
    path = lay.project_graph(name)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"nodes": {"a": {"id": "a", "gist": "x", "touches": touches}},
                                "_meta": {"project_path": str(root)}}))


def test_the_touched_files_that_count_are_the_projects_own_relative_ones():
    assert same_project.relative_files(["./src/a.py:3-9 (x)", "src/../src/a.py", "/etc/hosts", "~/notes.md",
                                        "../elsewhere/b.py", "https://x.org/a.py", "redis cache", "C:\\w\\a.py",
                                        "Makefile.am"]) == {"src/a.py", "Makefile.am"}


def test_a_gone_folder_of_this_home_is_taken_on_evidence_and_one_of_another_machines_home_by_name(tmp_path,
                                                                                                 monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    lay = L.Layout(tmp_path / "store")
    gone, same, stranger = tmp_path / "w" / "svc", tmp_path / "p" / "svc", tmp_path / "q" / "svc"
    _stored(lay, "svc", gone, ["src/a.py:1-3", "src/b.py", "README.md"])
    for folder in (same, stranger):
        (folder / "src").mkdir(parents=True)
    for name in ("src/a.py", "src/b.py"):  # two of three: most
        (same / name).write_text("x")
    (stranger / "src" / "a.py").write_text("x")  # one of three: not most
    assert L.choose_slug(lay, str(stranger)) == L.hashed_slug(str(stranger))
    assert L.choose_slug(lay, str(same)) == "svc"
    # A graph touching no file gives no evidence; one synced from another machine's home is taken by name.
    (lay.projects / "svc").rename(lay.projects / "aside")
    _stored(lay, "svc", gone, [])
    assert L.choose_slug(lay, str(same)) == L.hashed_slug(str(same))
    (lay.projects / "svc").rename(lay.projects / "aside2")
    _stored(lay, "svc", "/home/someone-else/w/svc", [])
    assert L.choose_slug(lay, str(stranger)) == "svc"


def test_files_any_project_has_and_a_single_file_are_no_evidence(tmp_path):
    for name in ("README.md", "readme.rst", "LICENSE", "web/package.json", ".github/workflows/ci.yml",
                 "requirements-dev.txt", "Makefile", ".gitignore", "go.mod", ".env.example"):
        assert same_project.boilerplate(name), name
    for name in ("src/readme_parser.py", "src/package.py", "docs/setup.md", "Makefile.am", "github/x.py"):
        assert not same_project.boilerplate(name), name
    for name in ("README.md", "package.json", ".gitignore", "src/app.py", "src/db.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    assert not same_project.shows_same({"README.md", "package.json", ".gitignore"}, str(tmp_path))
    assert not same_project.shows_same({"README.md", "package.json", "src/app.py"}, str(tmp_path))  # one file
    assert same_project.shows_same({"README.md", "src/app.py", "src/db.py"}, str(tmp_path))
    assert same_project.shows_same({"src/app.py", "src/db.py", "src/gone.py"}, str(tmp_path))  # two of three
    assert not same_project.shows_same({"src/app.py", "src/gone.py"}, str(tmp_path))  # one of two: not most


def test_a_resolved_path_under_a_link_out_of_home_is_named_through_the_link(tmp_path):
    from kg_actors.storage import home_paths
    home, data = tmp_path / "home", tmp_path / "data"
    (data / "code" / "app").mkdir(parents=True)
    home.mkdir()
    (home / "code2").symlink_to(data / "code")
    (home / "all").symlink_to(data)
    assert home_paths.through_link(str(data / "code" / "app"), str(home), 0) == str(home / "code2" / "app")
    assert home_paths.through_link(str(data / "code"), str(home), 0) == str(home / "code2")
    assert home_paths.through_link(str(data / "codex"), str(home), 0) == str(home / "all" / "codex")
    assert home_paths.through_link(str(tmp_path / "elsewhere"), str(home), 0) is None


def test_home_links_are_looked_up_again_when_a_target_appears_or_a_link_on_the_way_is_re_pointed(tmp_path):
    from kg_actors.storage import home_paths
    home, data = tmp_path / "home", tmp_path / "data"
    (data / "v1" / "app").mkdir(parents=True)
    home.mkdir()
    (home / "disk").symlink_to(data / "disk")  # an unmounted disk when first looked at
    (data / "cur").symlink_to(data / "v1")
    (home / "work").symlink_to(data / "cur")
    h = str(home)
    assert home_paths.through_link(str(data / "v1" / "app"), h, 100.0) == str(home / "work" / "app")
    (data / "disk" / "proj").mkdir(parents=True)  # mounted: home's own entries did not change
    assert home_paths.through_link(str(data / "disk" / "proj"), h, 100.5) is None  # looked again a second on
    assert home_paths.through_link(str(data / "disk" / "proj"), h, 101.0) == str(home / "disk" / "proj")
    (data / "v2" / "app").mkdir(parents=True)
    (data / "cur").unlink()
    (data / "cur").symlink_to(data / "v2")  # `ln -sfn v2 cur`
    assert home_paths.through_link(str(data / "v1" / "app"), h, 101.5) == str(home / "work" / "app")  # as read
    assert home_paths.through_link(str(data / "v1" / "app"), h, 102.0) is None  # ~/work leads elsewhere now
    assert home_paths.through_link(str(data / "v2" / "app"), h, 102.5) == str(home / "work" / "app")


def test_a_stored_graphs_touches_are_read_once_per_version_of_its_file(tmp_path, monkeypatch):
    """New folders beside one gone graph (`shop-v2`, `shop-v3`...) each weigh its touches: its JSON is read for
    the first, and again only once its file changed."""
    from kg_actors.project_folders import ProjectFolders

    monkeypatch.setenv("HOME", str(tmp_path))
    lay = L.Layout(tmp_path / "store")
    gone = tmp_path / "grp" / "shop"
    _stored(lay, "shop", gone, ["src/a.py", "src/b.py"])
    reads = []
    read = same_project.stored_touches
    monkeypatch.setattr(same_project, "stored_touches", lambda path: reads.append(path) or read(path))
    folders = ProjectFolders(lay, lambda slug: None)
    v2, v3, v4, v5 = (tmp_path / "grp" / f"shop-v{n}" for n in range(2, 6))
    for folder in (v2, v3, v4, v5):
        (folder / "src").mkdir(parents=True)
    for name in ("src/a.py", "src/c.py"):
        (v5 / name).write_text("x")
    assert folders.project_key(str(v2)) == "project:shop-v2"  # no evidence: its own, told of the gone one
    assert f"holds the memory of {gone}" in folders.notes[str(v2)], folders.notes
    assert folders.project_key(str(v3)) == "project:shop-v3"
    assert len(reads) == 1, reads
    graph_file = lay.project_graph("shop")
    graph_file.write_text(graph_file.read_text().replace("src/b.py", "src/c.py"))
    assert folders.project_key(str(v4)) == "project:shop-v4"
    assert len(reads) == 2, reads
    assert folders.project_key(str(v5)) == "project:shop"  # its files are there: the gone folder's memory
    assert len(reads) == 2, reads


def test_a_decision_stops_at_each_answer_not_weighed_and_binds_nothing_until_all_are(tmp_path, monkeypatch):
    """What GraphDirectory.project_key does on the loop: the decision asks, is stopped before binding anything,
    the answer is weighed (in a worker thread there), and the decision runs again; the outcome is the one a
    decision weighing where asked reaches."""
    from kg_actors.project_evidence import Unweighed
    from kg_actors.project_folders import ProjectFolders

    monkeypatch.setenv("HOME", str(tmp_path))
    lay = L.Layout(tmp_path / "store")
    gone, renamed = tmp_path / "grp" / "shop", tmp_path / "grp" / "shop-v2"
    _stored(lay, "shop", gone, ["src/a.py", "src/b.py"])
    for name in ("src/a.py", "src/b.py"):
        (renamed / name).parent.mkdir(parents=True, exist_ok=True)
        (renamed / name).write_text("x")
    folders = ProjectFolders(lay, lambda slug: None)
    ev, stops = folders.evidence(str(renamed)), 0
    while True:
        try:
            key = folders.project_key(str(renamed), ev)
            break
        except Unweighed as need:
            assert folders.slug_of == {} and folders.notes == {} and folders.taken == {}
            stops += 1
            need.weigh()
    assert stops >= 1 and key == "project:shop"
    assert f"took over the memory of {gone}" in folders.notes[str(renamed)]


def test_a_stored_graphs_touches_read_member_by_member_are_what_a_whole_read_finds(tmp_path):
    """stored_touches reads node by node (so a worker thread leaves the event loop its turns); it finds what
    json.loads of the whole file finds, and nothing in a file json.loads refuses."""
    graph = {"_meta": {"project_path": "/x", "versions": {"a": {"touches": ["src/old.py"]}}},
             "edges": {"a->b:uses": {"from": "a", "to": "b", "rel": "uses", "w": [1, 2.5, None, True, {"k": []}]}},
             "nodes": {"a": {"id": "a", "gist": "é \"touches\": [\"x.py\"] \\u00e9", "touches": ["src/a.py:3 (x)"]},
                       "b": {"id": "b", "touches": ["src/b.py", 7, "/abs.py"]}, "c": "odd", "d": {"touches": "x"}}}
    path = tmp_path / "graph.json"
    for text in (json.dumps(graph), json.dumps(graph, indent=2, ensure_ascii=False), "\ufeff" + json.dumps(graph)):
        path.write_text(text, encoding="utf-8")
        assert same_project.stored_touches(path) == {"src/a.py", "src/b.py"}
    for bad in ('{"nodes": {"a": {"touches": ["src/a.py"]}}} x', '{"nodes": {"a": {"touches": ["src/a.py"]}', "[]",
                '{"nodes": []}', '{"nodes": {"a": {"touches": ["src/a.py"]},}}', "", "[" * 100_000):
        path.write_text(bad)
        assert same_project.stored_touches(path) == set(), bad
