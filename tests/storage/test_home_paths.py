"""A folder reached through a symlink in home counts as inside it, named by its path in home."""

import os
import time

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


def _settled(*folders) -> None:
    """Folders last changed a while ago: what is read of one changed just now is read again (its mtime ticks
    coarsely, so a change in the same tick would go unseen)."""
    past = time.time_ns() - 10 * 10**9
    for folder in folders:
        os.utime(folder, ns=(past, past), follow_symlinks=False)


def test_a_fresh_look_at_homes_links_lists_again_only_the_folders_whose_entries_changed(tmp_path, monkeypatch):
    home, data = tmp_path / "home", tmp_path / "data"
    for name in ("a", "b", "work"):
        (home / name).mkdir(parents=True)
    (data / "x").mkdir(parents=True)
    _settled(home, home / "a", home / "b", home / "work")
    h = os.path.realpath(home)
    assert P._links_out(h, 0.0, fresh=True) == ()
    listed = []
    real_scandir = os.scandir
    monkeypatch.setattr(P.os, "scandir", lambda path: listed.append(path) or real_scandir(path))
    assert P._links_out(h, 0.0, fresh=True) == () and listed == []  # nothing changed: a stat per folder
    (home / "work" / "xlink").symlink_to(data / "x")
    assert P._links_out(h, 0.0, fresh=True) == ((os.path.realpath(data / "x"), f"{h}/work/xlink"),)
    assert listed == [f"{h}/work"]


def test_a_fresh_look_resolves_again_only_the_links_that_may_lead_elsewhere_now(tmp_path, monkeypatch):
    # Each fresh look (a hook naming a path outside home, at most once a second) resolved every link in home's
    # folders on the event loop: 200-300 ms a hook with 4,000 links. A link is never changed in place, only
    # replaced (its folder's entries change): one that leads straight to a folder keeps its target till then.
    home, data = tmp_path / "home", tmp_path / "data"
    (home / "many").mkdir(parents=True)
    for name in ("doc", "v1", "v2"):
        (data / name).mkdir(parents=True)
    for i in range(50):
        (home / "many" / f"l{i}").symlink_to(data / "doc")
    (data / "current").symlink_to(data / "v1")
    (home / "cur").symlink_to(data / "current")  # through a link outside home: it may lead elsewhere any time
    (home / "many" / "later").symlink_to(data / "not-yet")  # a folder not there yet (an unmounted disk)
    _settled(home, home / "many")
    h, d = os.path.realpath(home), os.path.realpath(data)
    first = dict(P._links_out(h, 0.0, fresh=True))
    assert first[f"{d}/doc"] == f"{h}/many/l0" and first[f"{d}/v1"] == f"{h}/cur" and f"{d}/not-yet" not in first
    resolved = []
    real_realpath = os.path.realpath
    monkeypatch.setattr(P.os.path, "realpath", lambda p: resolved.append(p) or real_realpath(p))
    assert dict(P._links_out(h, 1.0, fresh=True)) == first
    assert sorted(resolved) == [f"{h}/cur", f"{h}/many/later"], resolved  # not the 50 straight ones
    # Each change of where a link leads is seen at the next fresh look all the same.
    (data / "current").unlink()
    (data / "current").symlink_to(data / "v2")
    (data / "not-yet").mkdir()
    (home / "many" / "l0").unlink()
    (home / "many" / "l0").symlink_to(data / "v1")  # re-pointed (ln -sfn): its folder's entries changed
    resolved.clear()
    now = dict(P._links_out(h, 2.0, fresh=True))
    assert now[f"{d}/v2"] == f"{h}/cur" and now[f"{d}/not-yet"] == f"{h}/many/later", now
    assert now[f"{d}/doc"] == f"{h}/many/l1" and now[f"{d}/v1"] == f"{h}/many/l0", now
    assert f"{h}/many/l1" in resolved, resolved  # its folder changed just now: each of its links looked at again


def test_a_link_re_pointed_in_the_tick_its_folder_was_read_is_seen(tmp_path):
    # A folder's mtime ticks coarsely: a link re-pointed right after its folder was read may leave the mtime
    # as it was. What was read of a folder changed that recently is read again at the next look.
    home, data = tmp_path / "home", tmp_path / "data"
    (home / "w").mkdir(parents=True)
    for name in ("v1", "v2"):
        (data / name).mkdir(parents=True)
    (home / "w" / "app").symlink_to(data / "v1")
    h, d = os.path.realpath(home), os.path.realpath(data)
    assert dict(P._links_out(h, 0.0, fresh=True))[f"{d}/v1"] == f"{h}/w/app"
    stamp = os.stat(home / "w").st_mtime_ns
    (home / "w" / "app").unlink()
    (home / "w" / "app").symlink_to(data / "v2")
    os.utime(home / "w", ns=(stamp, stamp))  # the same tick
    assert dict(P._links_out(h, 1.0, fresh=True)) == {f"{d}/v2": f"{h}/w/app"}

