"""The `kg` management commands, run as a user would: start, status, logs, version, stop.

Each command is the installed `kg` with HOME, KG_HOME and the ports pointed
at a temporary store on free loopback ports.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import urllib.request

import pytest
from e2e_helpers import kg

import kg_actors
from kg_actors.testing import free_port


@pytest.fixture
def env(tmp_path) -> dict:
    home = tmp_path / "home"
    home.mkdir()
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
                KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600")


def _health(env: dict) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{env['KG_HTTP_PORT']}/health", timeout=1) as r:
            return json.loads(r.read())
    except OSError:
        return None


def test_version_prints_the_package_version(env):
    out = kg(["version"], env)
    assert out.returncode == 0 and out.stdout.strip() == kg_actors.__version__


def test_start_status_logs_stop(env, tmp_path):
    store = tmp_path / "store"
    before = kg(["status"], env)
    assert before.returncode == 3 and "not running" in before.stdout
    try:
        start = kg(["start"], env)
        assert start.returncode == 0, start.stderr
        assert f"serving {store}" in start.stdout
        # `kg start` returns once /health answers: no waiting needed here.
        health = _health(env)
        assert health is not None and health["storage"] == str(store)
        pid = int((store / "server.pid").read_text())
        assert f"(pid {pid})" in start.stdout

        again = kg(["start"], env)
        assert again.returncode == 0 and "already running" in again.stdout

        status = kg(["status"], env)
        assert status.returncode == 0
        assert f"running at http://127.0.0.1:{env['KG_HTTP_PORT']}" in status.stdout
        assert f"version {kg_actors.__version__}" in status.stdout and str(store) in status.stdout

        # A second server on the same store, on another port, refuses and says why.
        other = kg(["start"], dict(env, KG_HTTP_PORT=str(free_port())))
        assert other.returncode == 1
        assert "KG PREFLIGHT: another memory server already uses" in other.stderr, other.stderr
        assert (store / "server.pid").read_text() == str(pid), "the refused server must not take the pid file"

        logs = kg(["logs", "-n", "20"], env)
        assert logs.returncode == 0 and f"serving {store}" in logs.stdout
        assert len(logs.stdout.splitlines()) <= 20
    finally:
        stop = kg(["stop"], env)
    assert stop.returncode == 0 and f"stopped (pid {pid})" in stop.stdout
    assert _health(env) is None
    assert not (store / "server.pid").exists()
    assert "shutting down" in (store / "server.log").read_text()
    after = kg(["status"], env)
    assert after.returncode == 3 and "not running" in after.stdout
    idle = kg(["stop"], env)
    assert idle.returncode == 0 and "not running" in idle.stdout


def test_logs_before_any_server_says_so(env):
    out = kg(["logs"], env)
    assert out.returncode == 0 and "no log yet" in out.stdout


def test_start_on_a_port_taken_by_something_else_says_why_and_fails(env, tmp_path):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen(1)
        port = squatter.getsockname()[1]
        env = dict(env, KG_HTTP_PORT=str(port))
        try:
            out = kg(["start"], env)
        finally:
            kg(["stop"], env)
        assert out.returncode != 0
        assert "the server did not start" in out.stderr
        assert f"cannot serve on 127.0.0.1:{port}" in out.stderr, out.stderr
        assert "Address already in use" in out.stderr or "in use" in out.stderr
    assert not (tmp_path / "store" / "server.pid").exists()


def test_a_malformed_environment_value_is_named(env):
    out = kg(["status"], dict(env, KG_HTTP_PORT="eighty"))
    assert out.returncode == 2 and "KG_HTTP_PORT" in out.stderr and "eighty" in out.stderr


def test_stop_never_signals_a_process_that_is_not_the_server(env, tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    for garbage in ("4194304999", "-1", "not a pid"):
        (store / "server.pid").write_text(garbage)
        out = kg(["stop"], env)
        assert out.returncode == 0 and "not running" in out.stdout, out.stderr
    # A stale pid file naming a pid the system gave to another program since.
    bystander = subprocess.Popen(["sleep", "60"])
    try:
        (store / "server.pid").write_text(str(bystander.pid))
        out = kg(["stop"], env)
        assert out.returncode == 0 and "stale pid file" in out.stdout
        assert bystander.poll() is None, "kg stop signalled a process that is not the server"
        assert not (store / "server.pid").exists()
    finally:
        bystander.kill()
        bystander.wait()


def test_start_with_an_unusable_storage_directory_says_why(env, tmp_path):
    not_a_dir = tmp_path / "store-is-a-file"
    not_a_dir.write_text("")
    out = kg(["start"], dict(env, KG_HOME=str(not_a_dir)))
    assert out.returncode == 1
    assert f"cannot use the storage directory {not_a_dir}" in out.stderr
    assert "Traceback" not in out.stderr
