"""Which projects a server loads at start: the session active last first, then the graph written last."""

from kg_actors.storage.layout import Layout
from kg_actors.warm_start import pick_recent, recent_roots


def test_sessions_rank_before_files_and_a_root_is_named_once():
    used = [(10.0, "/h/a"), (30.0, "/h/b")]
    written = [(99.0, "/h/c"), (50.0, "/h/b")]
    assert pick_recent(used, written, 1) == ["/h/b"]
    assert pick_recent(used, written, 3) == ["/h/b", "/h/a", "/h/c"]
    assert pick_recent([], written, 2) == ["/h/c", "/h/b"]
    assert pick_recent([], [], 1) == []


def test_a_folder_that_is_gone_is_passed_over_for_the_next(tmp_path):
    here = tmp_path / "here"
    here.mkdir()
    used = [(30.0, str(tmp_path / "gone")), (10.0, str(here))]
    assert recent_roots(Layout(tmp_path / "store"), used) == [str(here)]
