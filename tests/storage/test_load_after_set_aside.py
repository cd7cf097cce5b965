"""A graph file set aside as unreadable is not called "missing" (an ERROR) at every later load: the first
load said why as an error; a later one warns with the real reason."""

from __future__ import annotations

import logging

from kg_actors.storage import files


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
