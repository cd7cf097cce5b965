"""`kg commit` / `kg sync` / `kg restore` through a running server: what they make of its answer."""

from kg_actors.sync.commands import _answer


def test_a_json_object_is_the_answer():
    assert _answer(b'{"committed": true, "commit": "abc"}', "HTTP 200") == {"committed": True, "commit": "abc"}


def test_anything_else_is_an_error_naming_the_status_and_the_body():
    for raw in (b"[1, 2]", b"7", b"<html>busy</html>", b""):
        out = _answer(raw, "HTTP 502")
        assert set(out) == {"error"}, raw
        assert out["error"].startswith("HTTP 502 with a body that is not a JSON object"), out
        assert repr(raw[:120]) in out["error"]


def test_a_graph_folders_name_stays_a_name_and_a_path_names_the_project_of_its_work_tree(tmp_path, monkeypatch):
    from kg_actors.sync.commands import _graph_key

    home = tmp_path / "home"
    (home / "repo1" / ".git").mkdir(parents=True)
    (home / "repo1" / "sub").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home / "repo1" / "sub")
    store = tmp_path / "store"
    assert _graph_key(store, "user") == ("user", "user")
    assert _graph_key(store, "project:proj") == ("project:proj", "project:proj")
    assert _graph_key(store, "no-such-project") == ("project:no-such-project", "no-such-project")
    root = str((home / "repo1").resolve())
    for given in (".", "..", "~/repo1/sub", str(home / "repo1" / "sub")):
        assert _graph_key(store, given) == ("project:repo1", root), given
