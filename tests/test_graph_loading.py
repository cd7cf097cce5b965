"""Loading a graph for its actor: settling shares its charge index with the derived state; a file that cannot
be read falls back to `.prev` with its journal replayed, and what is set aside is never overwritten."""

import json
import os
from pathlib import Path

import pytest

from kg_actors.core import constants as C
from kg_actors.core.charge import ChargeIndex, fast_charge
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.graph_loading import load_graph, settle_and_derive
from kg_actors.storage import files, journal, user_files
from kg_actors.storage.files import Unreadable

NOW = 1_800_000_000.0


def _over_budget() -> GraphData:
    g = GraphData("project")
    count = C.MAX_CHARS_PER_LEVEL // 60 + 200  # more active lines than the level's budget holds
    for i in range(count):
        g.set_node(Node(f"lesson-{i:05d}", f"gist number {i} says something worth keeping " * 2,
                        created_ts=NOW - (i % 90) * C.DAY_SECONDS))
    for i in range(0, count - 1, 3):
        g.set_edge(Edge(f"lesson-{i:05d}", f"lesson-{i + 1:05d}", "relates_to"))
    g.take_changes()
    return g


def _index_fields(index: ChargeIndex) -> dict:
    return {k: v for k, v in vars(index).items() if k != "gen"}


def test_settling_on_load_brings_the_graph_within_budget_and_hands_its_charge_index_on_current():
    graph = _over_budget()
    assert fast_charge(graph) > C.MAX_CHARS_PER_LEVEL
    derived, _ = settle_and_derive(graph, NOW)
    assert fast_charge(graph) <= C.MAX_CHARS_PER_LEVEL
    # The index settling kept through its runs is the one a fresh build of the settled graph gives.
    assert _index_fields(derived.charges) == _index_fields(ChargeIndex.build(graph))
    assert derived.index is None  # the search index is the actor's background build


def test_a_graph_within_budget_is_left_as_it_is():
    graph = GraphData("project")
    graph.set_node(Node("one-small-lesson", "a gist", created_ts=NOW))
    graph.take_changes()
    derived, _ = settle_and_derive(graph, NOW)
    assert graph.nodes["one-small-lesson"].active and graph.take_changes() is None
    assert derived.charges.active == {"one-small-lesson"}


def test_a_graph_loaded_with_no_node_active_is_refilled_from_its_archive():
    """Every node archived by hand, then a start: the first reads showed no gist until the tick."""
    graph = GraphData("project")
    for i in range(10):
        graph.set_node(Node(f"archived-lesson-{i}", f"gist {i}", created_ts=NOW - 400 * C.DAY_SECONDS,
                            archived=True))
    graph.set_node(Node("orphaned-lesson", "stays out of view", archived=True, orphaned_ts=NOW))
    graph.take_changes()
    derived, _ = settle_and_derive(graph, NOW)
    assert {i for i, n in graph.nodes.items() if n.active} == {f"archived-lesson-{i}" for i in range(10)}
    assert graph.nodes["orphaned-lesson"].orphaned  # only a read or a credit brings an orphan back
    assert _index_fields(derived.charges) == _index_fields(ChargeIndex.build(graph))


def test_a_graph_loaded_with_gists_in_view_and_room_below_its_ceiling_waits_for_a_write_or_the_tick():
    graph = GraphData("project")
    graph.set_node(Node("active-lesson", "in view", created_ts=NOW))
    graph.set_node(Node("archived-lesson", "an archived gist", created_ts=NOW, archived=True))
    graph.take_changes()
    settle_and_derive(graph, NOW)
    assert graph.nodes["archived-lesson"].archived and graph.take_changes() is None


def test_a_graph_file_of_the_wrong_shape_is_as_corrupt_as_a_torn_one(tmp_path):
    """Valid JSON a graph cannot be made of (`"nodes": [...]`) falls back to `.prev`, like a torn file;
    with no `.prev` it is Unreadable (the graph is then served empty, refusing changes), never a crash."""
    path = tmp_path / "user.json"
    good = {"nodes": {"kept-node": {"id": "kept-node", "gist": "from the previous save"}}, "edges": {}}
    for bad in ({"nodes": [{"id": "u", "gist": "g"}]}, [1, 2]):
        path.write_text(json.dumps(bad))
        path.with_name("user.prev").write_text(json.dumps(good))
        graph, _ = load_graph(path, "user", None)
        assert list(graph.nodes) == ["kept-node"]
        aside = path.with_name("user.json.unreadable")
        assert aside.read_text() == json.dumps(bad)  # kept for a look by hand
        aside.unlink()
        path.with_name("user.prev").unlink()
        path.write_text(json.dumps(bad))
        with pytest.raises(Unreadable, match="user.json"):
            load_graph(path, "user", None)
    # A _meta field of the wrong type is left out, not the file: its nodes are the newest there are.
    path.write_text(json.dumps({"nodes": {"newest-node": {"id": "newest-node", "gist": "g"}}, "_meta": {"versions": [1]}}))
    path.with_name("user.prev").write_text(json.dumps(good))
    assert list(load_graph(path, "user", None)[0].nodes) == ["newest-node"]


def test_a_torn_file_falls_back_to_kg_memorys_prev_or_our_older_name_for_it(tmp_path):
    """kg-memory keeps `user.prev` (the extension replaced); our stores before 2026-12-03 kept
    `user.json.prev`. Either stands in for a torn file, the newer that reads first; a save then keeps
    `user.prev` and drops the older name."""
    path = tmp_path / "user.json"
    def prev(name: str) -> None:
        path.with_name(name).write_text(json.dumps({"nodes": {name: {"id": name, "gist": "the previous save"}}}))

    for name in ("user.prev", "user.json.prev"):
        path.write_text('{"nodes": {"torn')
        prev(name)
        graph, _ = load_graph(path, "user", None)
        assert list(graph.nodes) == [name]
        path.with_name("user.json.unreadable").unlink()
        path.with_name(name).unlink()
    prev("user.json.prev")
    prev("user.prev")
    graph, _ = load_graph(path, "user", None)  # both beside it, the file missing: the newer one
    assert list(graph.nodes) == ["user.prev"]
    os.utime(path.with_name("user.prev"), (1, 1))  # a stale one of kg-memory's beside our newer save
    graph, _ = load_graph(path, "user", None)
    assert list(graph.nodes) == ["user.json.prev"]
    path.with_name("user.json.prev").write_text('{"nodes": {"torn')  # the newer torn: the other one reads
    graph, _ = load_graph(path, "user", None)
    assert list(graph.nodes) == ["user.prev"]
    prev("user.json.prev")
    path.write_text(json.dumps({"nodes": {}}))
    files.write_atomic(path, json.dumps({"nodes": {"new": {"id": "new", "gist": "g"}}}), True)
    assert "new" not in path.with_name("user.prev").read_text() and not path.with_name("user.json.prev").exists()


def test_when_the_file_falls_back_to_prev_its_journals_answered_writes_are_replayed_over_it(tmp_path):
    """The journal's base is the file that became unreadable, so it never `belongs` to `.prev`: it was set
    aside, and the writes it held (answered) were served nowhere."""
    path = tmp_path / "graph.json"
    path.with_name("graph.prev").write_text(json.dumps({"nodes": {"saved-a": {"id": "saved-a", "gist": "a"}}}))
    path.write_text(json.dumps({"nodes": {"saved-a": {"id": "saved-a", "gist": "a"}}}))
    journal.append(journal.journal_path(path), [_record_of_new_node("in-journal")])
    path.write_text('{"nodes": {"saved-a": {"id": "sav')  # torn after the journal began
    graph, applied = load_graph(path, "project", None)
    assert set(graph.nodes) == {"saved-a", "in-journal"} and applied == 1


def test_a_second_file_set_aside_keeps_the_first(tmp_path):
    jpath = tmp_path / "graph.json.journal"
    for n in (1, 2):
        jpath.write_text(json.dumps({"n": {f"node-{n}": None}}) + "\n")
        count, aside = journal.set_aside(jpath)
        assert count == 1 and aside.name == ("graph.json.journal.dropped" if n == 1 else "graph.json.journal.dropped.2")
    assert "node-1" in (tmp_path / "graph.json.journal.dropped").read_text()
    assert files.unused_name(tmp_path / "graph.json.journal.dropped").name == "graph.json.journal.dropped.3"


def _record_of_new_node(node_id: str) -> dict:
    graph = GraphData("project")
    graph.set_node(Node(node_id, f"gist of {node_id}", created_ts=NOW))
    record = graph.take_changes()
    assert record is not None
    return record


def test_a_byte_that_is_not_utf8_or_a_nul_tail_costs_a_character_not_the_file(tmp_path):
    # Such a file was set aside whole: its previous save served (the newest nodes gone), or nothing.
    path = tmp_path / "user.json"
    good = {"nodes": {"old-node": {"id": "old-node", "gist": "from the previous save"}}, "edges": {}}
    path.with_name("user.prev").write_text(json.dumps(good))
    body = json.dumps({"nodes": {"newest-node": {"id": "newest-node", "gist": "caf\u00e9 au lait"}}, "edges": {}},
                      ensure_ascii=False)
    path.write_bytes(body.encode().replace("\u00e9".encode(), b"\xe9") + b"\0" * 512)
    graph, _ = load_graph(path, "user", None)
    # No other UTF-8 in the file: the byte is read as Windows-1252 (an editor's one-byte encoding).
    assert list(graph.nodes) == ["newest-node"] and graph.nodes["newest-node"].gist == "caf\u00e9 au lait"
    assert not path.with_name("user.json.unreadable").exists()


def _files_of(folder) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_read_only_load_changes_nothing_on_disk_and_counts_what_the_actor_s_load_would(tmp_path):
    # A look from outside the actor (the editor's project list) moved a torn file aside, set journals aside
    # and completed folds: the actor's load then found nothing to say.
    path = tmp_path / "graph.json"
    path.with_name("graph.prev").write_text(json.dumps({"nodes": {"saved-a": {"id": "saved-a", "gist": "a"}}}))
    path.write_text('{"nodes": {"saved-a": {"id": "sav')
    journal.journal_path(path).write_text(json.dumps(_record_of_new_node("in-journal")) + "\n")
    before = _files_of(tmp_path)
    graph, applied = load_graph(path, "project", None, read_only=True)
    assert set(graph.nodes) == {"saved-a", "in-journal"} and applied == 1
    assert _files_of(tmp_path) == before
    aside: list = []
    graph, _ = load_graph(path, "project", None, aside)  # the actor's load still falls back, and says so
    assert aside == [path.with_name("graph.json.unreadable")] and set(graph.nodes) == {"saved-a", "in-journal"}


def test_a_read_only_load_leaves_a_journal_that_does_not_belong_and_a_cut_fold_where_they_are(tmp_path):
    path = tmp_path / "graph.json"
    files.write_atomic(path, json.dumps({"nodes": {"saved-a": {"id": "saved-a", "gist": "a"}}}).encode())
    jpath = journal.journal_path(path)
    jpath.write_text(json.dumps({"base": [1, 2, 3]}) + "\n" + json.dumps(_record_of_new_node("stale")) + "\n")
    before = _files_of(tmp_path)
    graph, applied = load_graph(path, "project", None, read_only=True)
    # Its records are replayed over the file as it now is (a hand edit), as the actor's load does.
    assert set(graph.nodes) == {"saved-a", "stale"} and applied == 1 and _files_of(tmp_path) == before
    # A fold cut short between its renames: its journal (naming the file in place) is the one read.
    st = path.stat()
    journal._tmp(jpath).write_text(json.dumps({"base": [st.st_size, st.st_mtime_ns, st.st_ino]}) + "\n"
                                   + json.dumps(_record_of_new_node("after-fold")) + "\n")
    before = _files_of(tmp_path)
    graph, applied = load_graph(path, "project", None, read_only=True)
    assert set(graph.nodes) == {"saved-a", "after-fold"} and _files_of(tmp_path) == before


def _refused(monkeypatch, path, code: int, strerror: str) -> None:
    """Opening `path` fails with `code` (root reads everything, so the refusal is made here)."""
    real_open = user_files.open_regular

    def refuse(file):
        if str(file) == str(path):
            raise OSError(code, strerror, str(file))
        return real_open(file)

    monkeypatch.setattr(user_files, "open_regular", refuse)


def test_a_file_the_server_may_not_read_is_unavailable_never_stood_in_for_by_its_prev(tmp_path, monkeypatch):
    """No permission is not damage: the file holds its last save's lessons, which `.prev` lacks. It stays where
    it is, `.prev` is not served in its place, and what is said names the permission and the fix."""
    path = tmp_path / "user.json"
    path.write_text(json.dumps({"nodes": {"now": {"id": "now", "gist": "the current save"}}}))
    path.with_name("user.prev").write_text(json.dumps({"nodes": {"before": {"id": "before", "gist": "the last"}}}))
    _refused(monkeypatch, path, 13, "Permission denied")
    aside: list = []
    with pytest.raises(files.Unavailable) as refused:
        load_graph(path, "user", None, aside)
    said = str(refused.value)
    assert "Permission denied (EACCES)" in said and "a permission" in said and f"chmod u+rw {path}" in said, said
    assert aside == [] and sorted(p.name for p in tmp_path.iterdir()) == ["user.json", "user.prev"]
    with pytest.raises(files.Unavailable):
        load_graph(path, "user", None, read_only=True)
    monkeypatch.undo()
    graph, _ = load_graph(path, "user", None)  # the permission fixed: the file itself, whole
    assert list(graph.nodes) == ["now"]


@pytest.mark.parametrize("code, name", [(5, "EIO"), (12, "ENOMEM"), (116, "ESTALE"), (107, "ENOTCONN")])
def test_a_disk_or_share_error_reading_the_file_is_unavailable_not_corrupt(tmp_path, monkeypatch, code, name):
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"nodes": {"now": {"id": "now", "gist": "the current save"}}}))
    path.with_name("graph.prev").write_text(json.dumps({"nodes": {}}))
    _refused(monkeypatch, path, code, os.strerror(code))
    with pytest.raises(files.Unavailable, match=f"\\({name}\\), an error of the disk or share") as refused:
        load_graph(path, "project", None)
    assert "chmod" not in str(refused.value) and path.exists()
    assert not path.with_name("graph.json.unreadable").exists()


def test_a_folder_in_the_files_place_is_still_stood_in_for_by_its_prev(tmp_path):
    """Not a permission nor a passing error: the file itself is wrong, `.prev` is served and the folder set aside."""
    path = tmp_path / "user.json"
    path.mkdir()
    with pytest.raises(Unreadable, match="cannot be opened: Is a directory") as refused:
        load_graph(path, "user", None)
    assert not isinstance(refused.value, files.Unavailable)
    path.with_name("user.prev").write_text(json.dumps({"nodes": {"before": {"id": "before", "gist": "the last"}}}))
    aside: list = []
    graph, _ = load_graph(path, "user", None, aside)
    assert list(graph.nodes) == ["before"] and aside == [path.with_name("user.json.unreadable")]


def test_a_journal_or_folder_that_cannot_be_read_is_unreadable_naming_it(tmp_path, monkeypatch):
    """A journal the server may not open (root opens everything: the refusal is made here) or a folder where
    the journal must be: Unreadable naming the journal (the graph is served empty refusing changes), not an
    OSError failing the load and the session that asked for it."""
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"nodes": {"n": {"id": "n", "gist": "saved"}}}))
    jpath = journal.journal_path(path)
    jpath.mkdir()
    with pytest.raises(Unreadable, match=r"graph\.json\.journal cannot be read \(Is a directory\)"):
        load_graph(path, "project", None)
    jpath.rmdir()
    jpath.write_text(json.dumps({"base": None}) + "\n")
    real_open = user_files.open_regular

    def no_permission(file):
        if str(file) == str(jpath):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file)

    monkeypatch.setattr(user_files, "open_regular", no_permission)
    with pytest.raises(files.Unavailable, match=r"graph\.json\.journal may not be read .*Permission denied"):
        load_graph(path, "project", None)


def test_a_project_folder_that_cannot_be_looked_into_is_still_chosen_for_its_project(tmp_path, monkeypatch):
    """`projects/<slug>` mode 000 under another user: its file cannot even be stat'ed. The folder is still the
    project's (its load then says it is unreadable), and no look at it raises."""
    from pathlib import Path
    from kg_actors.storage import layout as L
    lay = L.Layout(tmp_path / "store")
    root = str(tmp_path / "pd")
    slug = L.base_slug(root)
    (lay.projects / slug).mkdir(parents=True)
    real_exists = Path.exists

    def denied(self, *args, **kwargs):
        if str(self).startswith(str(lay.projects / slug) + "/"):
            raise PermissionError(13, "Permission denied", str(self))
        return real_exists(self, *args, **kwargs)

    monkeypatch.setattr(Path, "exists", denied)
    assert L.choose_slug(lay, root) == slug
    assert lay.project_slugs() == [slug]


def test_a_journal_line_with_bytes_that_are_not_utf8_keeps_its_record(tmp_path):
    """As in a graph file, a byte that is not UTF-8 costs a character (read as U+FFFD), not the record."""
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"nodes": {}}))
    jpath = journal.journal_path(path)
    jpath.write_bytes(json.dumps({"base": None}).encode() + b"\n"
                      + b'{"n": {"caf-lesson": {"id": "caf-lesson", "gist": "caf\xe9 au lait"}}}\n')
    damaged: list = []
    assert journal.read(jpath, damaged)[0]["n"]["caf-lesson"]["gist"] == "caf\ufffd au lait" and damaged == []
    graph, applied = load_graph(path, "project", None)
    assert applied == 1 and graph.nodes["caf-lesson"].gist == "caf\ufffd au lait"
    assert not jpath.with_name(jpath.name + ".damaged").exists()


def test_a_graph_file_that_is_a_symlink_loop_is_unreadable_not_a_new_graph(tmp_path):
    """`Path.exists()` says no to a loop: it was taken for a graph not made yet, and a stat of it failed the
    actor's start. It is there and unreadable, as a torn file is: `.prev` stands in, else Unreadable."""
    from kg_actors.storage import file_seen
    path = tmp_path / "user.json"
    path.symlink_to(path.name)
    with pytest.raises(Unreadable, match="Too many levels of symbolic links"):
        load_graph(path, "user", None)
    assert file_seen.seen(path) is None
    assert file_seen.compare(None, file_seen.stat_of(path)) is file_seen.Found.NOT_A_FILE
    path.with_name("user.prev").write_text(json.dumps({"nodes": {"before": {"id": "before", "gist": "the last"}}}))
    graph, _ = load_graph(path, "user", None, read_only=True)
    assert list(graph.nodes) == ["before"] and path.is_symlink()


def _user_file(tmp_path, text: str, encoding: str) -> Path:
    path = tmp_path / "user.json"
    path.write_bytes(json.dumps({"nodes": {"n": {"id": "n", "gist": text}}}, ensure_ascii=False).encode(encoding))
    return path


def test_a_file_saved_as_windows_1252_keeps_its_accents_and_a_damaged_utf8_file_its_own(tmp_path, caplog):
    """No UTF-8 in it at all: a one-byte encoding, read as one (U+FFFD lost every accent), the file as it was
    kept beside it. A UTF-8 file with one bad byte keeps its other letters (the bad byte alone is U+FFFD)."""
    path = _user_file(tmp_path, "café déjà vu — naïve", "cp1252")
    original = path.read_bytes()
    graph, _ = load_graph(path, "user", None)
    assert graph.nodes["n"].gist == "café déjà vu — naïve"
    assert caplog.text.count("read as Windows-1252") == 1, caplog.text
    assert path.with_name("user.json.repaired").read_bytes() == original
    damaged = tmp_path / "d"
    damaged.mkdir()
    path = _user_file(damaged, "café olé", "utf-8")
    path.write_bytes(path.read_bytes().replace("olé".encode(), "olé".encode("latin-1")))
    graph, _ = load_graph(path, "user", None)
    assert graph.nodes["n"].gist == "café ol\ufffd"


def test_a_utf16_file_is_said_to_be_utf16_and_left_as_it_is(tmp_path):
    path = _user_file(tmp_path, "café", "utf-16")
    original = path.read_bytes()
    with pytest.raises(Unreadable, match=r"is UTF-16 text \(it begins with a UTF-16 byte order mark\), not UTF-8"):
        load_graph(path, "user", None)
    assert path.read_bytes() == original
