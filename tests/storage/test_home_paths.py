"""A folder reached through a symlink in home counts as inside it, named by its path in home."""

import os

import pytest

from kg_actors.core.errors import InvalidInput, NotAProjectFolder
from kg_actors.storage import home_paths as P


def test_a_folder_behind_a_symlink_in_home_is_named_by_its_path_in_home(tmp_path):
    home, data = tmp_path / "home", tmp_path / "data"
    (data / "code" / "app" / "src").mkdir(parents=True)
    (home / "notes").mkdir(parents=True)
    (home / "code").symlink_to(data / "code")
    (home / "alias").symlink_to(home / "code")
    (data / "code" / "app" / "docs").symlink_to(home / "notes")  # and back into home
    h = os.path.realpath(home)
    assert P.home_side(f"{h}/code/app", h) == f"{h}/code/app"
    assert P.home_side(f"{h}/code/app/src/", h) == f"{h}/code/app/src"
    assert P.home_side(f"{h}/alias/app", h) == f"{h}/code/app"  # one folder, one name
    assert P.home_side(f"{h}/code/app/docs", h) == f"{h}/notes"
    assert P.home_side(f"{h}/code/app/../../notes", h) == f"{h}/notes"
    # Named from outside home, it is outside: its real path, as before.
    assert P.home_side(str(data / "code" / "app"), h) == os.path.realpath(data / "code" / "app")
    assert not P.inside(P.home_side(f"{h}/../data/code", h), h)
    assert P.inside(f"{h}/x", h) and P.inside(h, h) and not P.inside(f"{h}x/y", h)


def test_links_to_home_itself_and_loops_end(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "self").symlink_to(home)
    (home / "out").symlink_to(tmp_path / "nowhere")
    (home / "loop-a").symlink_to(home / "loop-b")
    (home / "loop-b").symlink_to(home / "loop-a")
    h = os.path.realpath(home)
    assert P.home_side(f"{h}/self/x", h) == f"{h}/x"
    assert P.home_side(f"{h}/out/y", h) == f"{h}/out/y"
    assert P.inside(P.home_side(f"{h}/loop-a/z", h), h)


def test_a_folder_name_ending_with_a_space_is_kept_as_given(home):
    from kg_actors.storage import layout as L

    (home / "app ").mkdir()
    h = os.path.realpath(home)
    assert L.project_root(f"{h}/app ") == f"{h}/app "
    assert L.project_folder("~/app ") == f"{h}/app "
    with pytest.raises(NotAProjectFolder, match="does not exist"):
        L.project_folder(f"{h}/app")  # the folder without the space is another, not there
    with pytest.raises(InvalidInput, match="cwd"):
        L.project_root("   ")


def test_one_folder_outside_home_has_one_name_however_it_is_reached(tmp_path):
    home, data = tmp_path / "home", tmp_path / "data"
    (data / "code" / "app").mkdir(parents=True)
    (data / "proj4").mkdir()
    (home / "work").mkdir(parents=True)
    (home / "code").symlink_to(data / "code")
    (home / "zcode").symlink_to(data / "code")  # a second link to the same place
    (home / "work" / "proj4link").symlink_to(data / "proj4")  # a link in a folder of home
    (home / "work" / "code").symlink_to(data / "code")  # and one more there: home's own link comes first
    h, d = os.path.realpath(home), os.path.realpath(data)
    for given in (f"{h}/code/app", f"{h}/zcode/app", f"{h}/work/code/app", f"{d}/code/app", f"{h}/zcode/app/"):
        assert P.named(given, h, now=100.0) == f"{h}/code/app", given
    for given in (f"{d}/proj4", f"{h}/work/proj4link", f"{d}/proj4/src/m.py"):
        assert P.named(given, h, now=100.0).startswith(f"{h}/work/proj4link"), given
    assert P.named(f"{d}/proj4/src/m.py", h, now=100.0) == f"{h}/work/proj4link/src/m.py"
    assert P.named(f"{h}/work/x", h, now=100.0) == f"{h}/work/x"  # inside home: its real path
    assert P.named(str(tmp_path / "elsewhere"), h, now=100.0) == os.path.realpath(tmp_path / "elsewhere")


def test_a_fresh_look_at_homes_links_lists_again_only_the_folders_whose_entries_changed(tmp_path, monkeypatch):
    home, data = tmp_path / "home", tmp_path / "data"
    for name in ("a", "b", "work"):
        (home / name).mkdir(parents=True)
    (data / "x").mkdir(parents=True)
    h = os.path.realpath(home)
    assert P._links_out(h, 0.0, fresh=True) == ()
    listed = []
    real_scandir = os.scandir
    monkeypatch.setattr(P.os, "scandir", lambda path: listed.append(path) or real_scandir(path))
    assert P._links_out(h, 0.0, fresh=True) == () and listed == []  # nothing changed: a stat per folder
    (home / "work" / "xlink").symlink_to(data / "x")
    assert P._links_out(h, 0.0, fresh=True) == ((os.path.realpath(data / "x"), f"{h}/work/xlink"),)
    assert listed == [f"{h}/work"]
