"""A store's machine id: read from its file (cached by the file's stat), so a server and `kg sync` in another process
agree; and a store copied to another place (`cp -a` to make a second machine) gets an id of its own, said once."""

from __future__ import annotations

import logging
import shutil

from kg_actors.storage import machine_id as M


def _store(tmp_path, name="store"):
    root = tmp_path / name
    (root / ".git").mkdir(parents=True)
    return root


def test_an_id_remade_by_another_process_is_the_one_read_here(tmp_path):
    root = _store(tmp_path)
    first = M.machine_id(root, make=True)
    assert first and M.machine_id(root) == first
    (root / M.FILE).unlink()  # deleted while the server runs; `kg sync` (another process) makes a new one
    (root / M.FILE).write_text("0123abcd\n")
    assert M.machine_id(root) == "0123abcd"
    (root / M.FILE).unlink()
    made = M.machine_id(root, make=True)  # none there: made once, and read back as made
    assert made not in ("", first, "0123abcd") and (root / M.FILE).read_text().split()[0] == made
    assert M.machine_id(root) == made


def test_a_store_copied_elsewhere_gets_an_id_of_its_own_and_says_so_once(tmp_path, caplog):
    a = _store(tmp_path, "a")
    ident = M.machine_id(a, make=True)
    c = tmp_path / "c"
    shutil.copytree(a, c, symlinks=True)  # as `cp -a`: the id file with it
    with caplog.at_level(logging.WARNING):
        copied = M.machine_id(c, make=True)
        again = M.machine_id(c, make=True)
    assert copied and copied != ident and again == copied
    said = [r.getMessage() for r in caplog.records if "machine id" in r.getMessage()]
    assert len(said) == 1 and ident in said[0] and str(c) in said[0], said
    assert M.machine_id(a) == ident  # the original keeps its own


def test_an_id_file_of_an_earlier_build_keeps_its_id(tmp_path):
    root = _store(tmp_path)
    (root / M.FILE).write_text("17a1d882")  # the id alone, as the first builds wrote it
    assert M.machine_id(root, make=True) == "17a1d882"
    assert M.machine_id(root) == "17a1d882"
