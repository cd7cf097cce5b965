"""Removing a project moves only its own folder into the store's trash; the newest project is found by its files."""

from __future__ import annotations

import json
import os

import pytest

from kg_actors.core.errors import InvalidInput
from kg_actors.storage import layout as L

NOW = 1_780_000_000.0


def store_with(tmp_path, *projects: tuple[str, str | None, float]) -> L.Layout:
    lay = L.Layout(tmp_path / "store")
    lay.root.mkdir()
    (lay.root / "user.json").write_text("{}")
    for slug, folder, mtime in projects:
        path = lay.project_graph(slug)
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"nodes": {}, "edges": {}, "_meta": {"project_path": folder} if folder else {}}))
        os.utime(path, (mtime, mtime))
    return lay


def test_a_project_folder_moves_to_the_trash_whole_and_twice_keeps_both(tmp_path):
    lay = store_with(tmp_path, ("alpha", None, NOW))
    (lay.projects / "alpha" / "tool_events.json").write_text("{}")
    first = L.move_to_trash(lay, "alpha", NOW)
    assert first == lay.root / "trash" / "alpha-20260528T202640Z"
    assert (first / "graph.json").exists() and (first / "tool_events.json").exists()
    assert not (lay.projects / "alpha").exists() and (lay.root / "user.json").exists()
    again = lay.project_graph("alpha")
    again.parent.mkdir()
    again.write_text("{}")
    second = L.move_to_trash(lay, "alpha", NOW)
    assert second != first and second.exists() and first.exists()


@pytest.mark.parametrize("slug", ["", ".", "..", "../user.json", "a/b", "a\\b", "a\0b"])
def test_only_a_project_folder_name_is_accepted(tmp_path, slug):
    lay = store_with(tmp_path)
    with pytest.raises(InvalidInput):
        L.move_to_trash(lay, slug, NOW)
    assert (lay.root / "user.json").exists()


def test_a_folder_kg_memory_named_by_the_project_s_own_name_moves_to_the_trash(tmp_path):
    lay = store_with(tmp_path, ("my project", None, NOW))
    dest = L.move_to_trash(lay, "my project", NOW)
    assert (dest / "graph.json").exists() and not (lay.projects / "my project").exists()


def test_the_newest_project_is_the_last_written_whose_folder_exists(tmp_path):
    live, gone = tmp_path / "live", tmp_path / "gone"
    live.mkdir()
    lay = store_with(tmp_path, ("old-live", str(live), NOW - 100), ("new-gone", str(gone), NOW), ("pathless", None, NOW + 5))
    assert L.newest_project_root(lay) == str(live)
