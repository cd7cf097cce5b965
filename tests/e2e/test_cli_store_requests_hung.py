"""`kg commit` and `kg restore` ask the store's server; one stopped by SIGSTOP, or hung, answers never: they
say so with the way out instead of waiting silently (for 10 minutes before). Real `kg` against real servers."""

from __future__ import annotations

import os
import signal

from e2e_helpers import kg
from test_cli_hung import _hung_server

from kg_actors.testing import free_port


def test_commit_and_restore_name_a_sigstopped_server_with_kill_cont(server_factory):
    srv = server_factory()
    pid = srv.health()["pid"]
    env = dict(os.environ, HOME=str(srv.home), KG_HOME=str(srv.store), KG_HTTP_PORT=str(srv.port),
               KG_EDITOR_PORT=str(free_port()))
    os.kill(pid, signal.SIGSTOP)
    try:
        for args in (["commit"], ["restore", "--at", "now"]):
            out = kg(args, env, timeout=120)  # it waited 600 s
            assert out.returncode == 1, out
            assert f"(pid {pid}) is stopped (SIGSTOP)" in out.stderr and f"kill -CONT {pid}" in out.stderr, out.stderr
    finally:
        os.kill(pid, signal.SIGCONT)
    assert srv.health()["pid"] == pid


def test_commit_names_a_hung_server_holding_the_store(tmp_path):
    store, port = tmp_path / "store", free_port()
    env = dict(os.environ, HOME=str(tmp_path), KG_HOME=str(store), KG_HTTP_PORT=str(port),
               KG_EDITOR_PORT=str(free_port()))
    with _hung_server(store, port, True) as proc:
        out = kg(["commit"], env, timeout=120)
        assert out.returncode == 1, out
        assert f"(pid {proc.pid})" in out.stderr and "hung" in out.stderr and f"kill -9 {proc.pid}" in out.stderr, \
            out.stderr
