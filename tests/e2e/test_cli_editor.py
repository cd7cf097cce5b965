"""`kg editor` says what is really wrong with the store's server, as `kg status` does: a stopped server is not
"start it first" (kg start refuses it then), the store's server on another port is the one whose editor it
names, and a server of another store is never offered as this store's editor. Real `kg` against real servers."""

from __future__ import annotations

import os
import signal

from e2e_helpers import kg

from kg_actors.testing import free_port


def test_editor_names_a_stopped_server_with_how_to_resume_it(server_factory):
    srv = server_factory()
    pid = srv.health()["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        out = kg(["editor", "--no-browser"], srv.env)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert out.returncode == 1 and not out.stdout, (out.stdout, out.stderr)
    assert f"(pid {pid}) is stopped (SIGSTOP)" in out.stderr and f"kill -CONT {pid}" in out.stderr, out.stderr
    assert "start it first" not in out.stderr, out.stderr
    assert srv.health()["pid"] == pid


def test_editor_of_the_stores_server_on_another_port_is_named_with_a_warning(server_factory):
    srv = server_factory()
    health = srv.health()
    env = dict(srv.env, KG_HTTP_PORT=str(free_port()), KG_EDITOR_PORT=str(free_port()))
    out = kg(["editor", "--no-browser"], env)
    assert out.returncode == 0, (out.stdout, out.stderr)
    assert out.stdout.strip() == f"http://127.0.0.1:{health['editor']['port']}/", out.stdout
    assert f"runs at http://127.0.0.1:{srv.port} (pid {health['pid']}), not at" in out.stderr, out.stderr


def test_editor_never_names_the_editor_of_another_stores_server(server_factory, tmp_path):
    srv = server_factory()
    other = tmp_path / "other-store"
    out = kg(["editor", "--no-browser"], dict(srv.env, KG_HOME=str(other)))
    assert out.returncode == 1 and not out.stdout, (out.stdout, out.stderr)
    assert f"serves {srv.store}, not {other} (KG_HOME)" in out.stderr, out.stderr
    assert not other.exists(), "asking for the editor made no store"
