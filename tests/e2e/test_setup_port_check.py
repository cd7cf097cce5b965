"""`kg setup` run with another port than the one this store's server runs on (`kg serve --port N`, then a shell
without KG_HTTP_PORT): it wrote that port into every agent and said done, and each session ran without memory and
without a word. It runs doctor's check first and refuses, with the fix; with no server running it goes on (the
shim starts one on the port it wrote)."""

from __future__ import annotations

import os

import pytest
from e2e_helpers import kg

from kg_actors.testing import ServerProcess, free_port


@pytest.fixture
def srv(tmp_path):
    server = ServerProcess(tmp_path).start("--no-editor")
    (server.home / ".gemini").mkdir(parents=True, exist_ok=True)
    yield server
    server.kill()


def _env(srv: ServerProcess, port: int) -> dict:
    return dict(os.environ, HOME=str(srv.home), KG_HOME=str(srv.store), KG_HTTP_PORT=str(port),
                KG_EDITOR_PORT=str(free_port()), PATH="/usr/bin:/bin")


def test_setup_on_a_port_where_this_stores_server_is_not_refuses_and_changes_nothing(srv):
    other = free_port()
    settings = srv.home / ".gemini" / "settings.json"
    out = kg(["setup", "--yes", "--only", "gemini"], _env(srv, other))
    assert out.returncode == 1, out.stdout + out.stderr
    said = out.stdout + out.stderr
    assert f"is served by the kg server (pid {srv.proc.pid}) on port {srv.port}, not on port {other}" in said, said
    assert f"KG_HTTP_PORT={srv.port} kg setup" in said and "kg stop && kg start" in said, said
    assert "Gemini CLI: done" not in said
    assert not settings.exists() and not (srv.store / "setup" / "record.json").exists()

    plan = kg(["setup", "--plan", "--only", "gemini"], _env(srv, other))
    assert plan.returncode == 1 and f"PROBLEM: {srv.store} is served by the kg server" in plan.stdout, plan.stdout
    assert f"KG_HTTP_PORT={srv.port} kg setup" in plan.stdout

    fine = kg(["setup", "--yes", "--only", "gemini"], _env(srv, srv.port))  # the port it runs on: wired
    assert fine.returncode == 0 and "Gemini CLI: done" in fine.stdout, fine.stdout + fine.stderr


def test_setup_with_no_server_running_wires_the_agents(tmp_path):
    server = ServerProcess(tmp_path)  # never started: the shim starts it on the port setup wrote
    (server.home / ".gemini").mkdir(parents=True)
    out = kg(["setup", "--yes", "--only", "gemini"], _env(server, server.port))
    assert out.returncode == 0 and "Gemini CLI: done" in out.stdout, out.stdout + out.stderr
    assert "PROBLEM" not in kg(["setup", "--plan", "--only", "gemini"], _env(server, server.port)).stdout
