"""A save's look at its graph file (graph_file_watch.py): damage is written back, a hand edit held."""

from kg_actors import graph_file_watch as watch


async def test_a_hand_edit_is_read_once_and_held_until_it_changes_again(tmp_path, monkeypatch):
    """A save that finds the file changed by hand reads it (to tell an edit from damage) once, not at every tick."""
    path = tmp_path / "user.json"
    path.write_text('{"nodes": {}, "edges": {}, "_meta": {}}')
    status: dict = {}
    watch.note(status, path)
    path.write_text('{"nodes": {"hand": {"id": "hand", "gist": "by hand"}}, "edges": {}, "_meta": {}}')
    reads = []
    real = watch.reads_as_graph
    monkeypatch.setattr(watch, "reads_as_graph", lambda p, kind: reads.append(p) or real(p, kind))
    for _ in range(3):
        assert await watch.before_save("user", path, "user", 0, status) is watch.Before.HOLD
    assert len(reads) == 1 and status[watch.HAND_EDITED] == str(path)
    path.write_text("{ torn")  # changed again, and no graph now: damage, written back
    assert await watch.before_save("user", path, "user", 0, status) is watch.Before.WRITE_BACK
    assert (tmp_path / "user.json.replaced").read_text() == "{ torn" and not path.exists()
    assert watch.HAND_EDITED not in status  # the edit is gone with the damage: memory is what is written back
