"""Who holds the store when no server of this kg does, read from /proc/locks' text and said with its fix."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

from kg_actors import store_holder
from kg_actors.store_holder import Holder, flock_pid

DEV = os.makedev(0xFE, 0)
LOCKS = ("1: POSIX  ADVISORY  WRITE 77 fe:00:2629799 0 EOF\n"
         "2: FLOCK  ADVISORY  WRITE 4242 fe:00:2629799 0 EOF\n"
         "2: -> FLOCK  ADVISORY  WRITE 5151 fe:00:2629799 0 EOF\n"
         "3: FLOCK  ADVISORY  WRITE 99 fe:00:26297990 0 EOF\n")


def test_the_flock_on_the_store_names_its_holder_not_a_posix_lock_a_waiter_or_another_file():
    assert flock_pid(LOCKS, DEV, 2629799) == 4242
    assert flock_pid(LOCKS, DEV, 26297990) == 99
    assert flock_pid(LOCKS, os.makedev(8, 1), 2629799) is None and flock_pid("", DEV, 1) is None
    # A holder in another pid namespace shows as 0: nobody to name or signal.
    assert flock_pid("1: FLOCK  ADVISORY  WRITE 0 fe:00:5 0 EOF", DEV, 5) is None


def test_kg_memory_is_named_with_its_own_kg_stop_on_its_port_and_another_program_with_its_pid():
    root = Path("/h/.knowledge-graph")
    old = Holder(42, "kg-memory 0.17.0", 18300, "/opt/old venv/bin/kg")
    assert old.said(root) == ("/h/.knowledge-graph is held by kg-memory 0.17.0 (pid 42, on port 18300), another "
                              "memory server, not this kg's")
    assert old.fix() == "stop it with its own kg (`KG_HTTP_PORT=18300 '/opt/old venv/bin/kg' stop`) or `kill 42`"
    assert "run with kg-memory's kg, not this one" in Holder(42, "kg-memory", None).fix()
    other = Holder(7, "another program (flock /h/.knowledge-graph sleep 1000)")
    assert other.said(root).endswith("(pid 7), not a kg server, not this kg's") and "`kill 7`" in other.fix()


def test_a_store_nobody_holds_or_this_process_holds_has_no_foreign_holder(tmp_path):
    assert store_holder.foreign(tmp_path) is None and store_holder.foreign(tmp_path / "none") is None
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert store_holder.foreign(tmp_path) is None  # this process: a kg command holding it itself
    finally:
        os.close(fd)


def test_a_program_holding_the_store_is_named_by_its_command(tmp_path):
    holding = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); "
                                "fcntl.flock(fd, fcntl.LOCK_EX); print(flush=True); sys.stdin.read()", str(tmp_path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holding.stdout is not None and holding.stdout.readline() == b"\n"  # it holds the lock now
        holder = store_holder.foreign(tmp_path)
        assert holder is not None and holder.pid == holding.pid and not holder.memory
        assert holder.name.startswith(f"another program ({sys.executable} -c import fcntl"), holder.name
    finally:
        holding.kill()
        holding.wait(10)
