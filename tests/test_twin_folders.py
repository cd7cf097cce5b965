"""Which other store folder holds a graph of the project beside the one served (merged in at its load)."""

import json
import os

from kg_actors.storage import layout as L
from kg_actors.twin_folders import other_folder


def _stored(lay: L.Layout, slug: str, recorded: str) -> None:
    path = lay.project_graph(slug)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"nodes": {}, "_meta": {"project_path": recorded}}))


def test_a_graph_kept_under_a_second_links_name_is_the_projects_and_another_projects_twin_never(home, tmp_path):
    data = tmp_path / "data" / "code"
    (data / "app").mkdir(parents=True)
    (home / "code").symlink_to(data)
    (home / "work").symlink_to(data)
    (home / "elsewhere" / "app").mkdir(parents=True)
    lay = L.Layout(home / ".knowledge-graph")
    h = os.path.realpath(home)
    _stored(lay, "app", f"{h}/code/app")
    assert other_folder(lay, "app", f"{h}/code/app") is None
    _stored(lay, L.hashed_slug(f"{h}/elsewhere/app"), f"{h}/elsewhere/app")  # another project of this name
    assert other_folder(lay, "app", f"{h}/code/app") is None
    _stored(lay, L.hashed_slug(f"{h}/work/app"), f"{h}/work/app")  # the same folder through ~/work
    assert other_folder(lay, "app", f"{h}/code/app") == L.hashed_slug(f"{h}/work/app")
