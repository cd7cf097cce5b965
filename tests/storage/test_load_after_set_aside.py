"""A graph file set aside as unreadable is not called "missing" (an ERROR) at every later load: the first
load said why as an error; a later one warns with the real reason."""

from __future__ import annotations

import logging

from kg_actors.storage import files, kept_aside


def test_a_later_load_of_a_set_aside_file_warns_with_the_real_reason(tmp_path, caplog):
    path = tmp_path / "graph.json"
    files.prev_of(path).write_text('{"good": 1}')
    path.write_text("{torn")
    with caplog.at_level(logging.WARNING):
        assert files.load_json(path) == {"good": 1}
        first = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(first) == 1 and "is unreadable" in first[0].getMessage()
        caplog.clear()
        assert files.load_json(path) == {"good": 1}
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert said and all(level == logging.WARNING for level, _ in said), said
    assert "set aside as unreadable (kept as graph.json.unreadable)" in said[0][1], said


def test_a_link_loop_set_aside_never_leads_to_the_file_saved_in_its_place(tmp_path):
    """`graph.json -> other -> graph.json`: the link moved aside keeps its relative target, which led back to
    the live name; it is made a loop of its own, so the graph saved there next is never read through it."""
    path = tmp_path / "graph.json"
    files.prev_of(path).write_text('{"good": 1}')
    (tmp_path / "other").symlink_to("graph.json")
    path.symlink_to("other")
    assert files.load_json(path) == {"good": 1}
    aside = tmp_path / "graph.json.unreadable"
    path.write_text('{"live": 1}')  # the next save
    assert aside.is_symlink() and not aside.exists(), "still a loop, not a link to the live file"
    assert kept_aside.loop_said(aside) is not None and kept_aside.loop_said(path) is None
