"""The fix said for a refused save of the store is the one for its cause, read from the failure's text."""

from __future__ import annotations

import os
from pathlib import Path

from kg_actors.storage.refusals import user_fix

STORE = Path("/home/me/.knowledge-graph")


def test_each_cause_gets_its_own_fix_whether_the_text_names_its_errno_or_only_its_words():
    assert "chmod u+w /home/me/.knowledge-graph" in user_fix("([Errno 13] Permission denied: 'x.tmp')", STORE)
    assert "chattr -i -a" in user_fix("Operation not permitted", STORE)  # EPERM: no permission bit refuses it
    assert user_fix("[Errno 28] No space left on device", STORE).startswith("free space on the disk holding")
    assert user_fix("Disk quota exceeded", STORE).startswith("free space")
    assert "mounted read-only" in user_fix("could not be saved (Read-only file system)", STORE)
    unknown = user_fix("[Errno 27] File too large", STORE)
    assert "writable" in unknown and "free space" in unknown  # a cause with no fix of its own: both said


def test_a_folder_another_account_owns_gets_a_chown_and_one_of_the_servers_user_a_chmod(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    assert f"`chmod u+w {mine}`, as its owner" in user_fix("Permission denied", mine)
    if os.geteuid() == 0:  # only root gives a folder away
        theirs = tmp_path / "theirs"
        theirs.mkdir()
        os.chown(theirs, 65534, 65534)
        fix = user_fix("[Errno 13] Permission denied", theirs)
        assert f"`chown root {theirs}`, as root" in fix and "chmod u+w" not in fix, fix


def test_what_stands_in_the_way_is_named_with_the_move_that_clears_it(tmp_path):
    projects = tmp_path / "projects"
    projects.mkdir()
    (projects / "p1").write_text("x")
    fix = user_fix("could not write graph.json.journal (Not a directory)", projects / "p1", projects / "p1" / "graph.json")
    assert fix.startswith(f"{projects / 'p1'} is a file where the store keeps a folder: move it away "
                          f"(`mv {projects / 'p1'} {projects / 'p1'}.aside`)"), fix
    (tmp_path / "user.json").mkdir()
    fix = user_fix("[Errno 21] Is a directory", tmp_path, tmp_path / "user.json")
    assert f"{tmp_path / 'user.json'} is a folder where the store keeps a file" in fix, fix
