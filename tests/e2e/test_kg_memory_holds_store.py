"""kg-memory 0.17's server still holds the store on a port of its own, as after an upgrade (its sessions leave
it running) with kg set up on another port: `kg start` says at once who holds the store (kg-memory, its pid and
port) and the fix that works, as do `kg status`, `kg doctor` and `kg stop`; a session's start hook says it too,
without waiting for `kg start`'s 4 s bound; following the fix (`kill PID`) lets kg start. Nothing is written to
the store meanwhile. The real `kg` commands and hook scripts; kg-memory is a stand-in that holds the store's lock
and answers its /health as 0.17 does (other_programs.py)."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest
from e2e_helpers import kg
from hook_helpers import hook_env
from other_programs import kg_memory_holding
from test_session_start_hooks import WITH_KG, session_start

from kg_actors.testing import free_port


def _env(tmp_path) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
                KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600")


def test_start_status_doctor_and_stop_name_kg_memory_holding_the_store_and_its_fix_works(tmp_path):
    env = _env(tmp_path)
    store = tmp_path / "store"
    with kg_memory_holding(store, tmp_path) as (proc, port, old_kg):
        pid = proc.pid
        before = sorted(p.name for p in store.iterdir())
        began = time.monotonic()
        start = kg(["start"], env)
        took = time.monotonic() - began
        status, doctor, stop = (kg([cmd], env) for cmd in ("status", "doctor", "stop"))
        held = f"{store} is held by kg-memory 0.17.0 (pid {pid}, on port {port}), another memory server, not this kg's"
        fix = f"stop it with its own kg (`KG_HTTP_PORT={port} {old_kg} stop`) or `kill {pid}`"
        for out in (start, status, doctor, stop):
            assert "Traceback" not in out.stderr, out.stderr
        assert start.returncode == 1 and f"kg: not started: {held}: {fix}" in start.stderr, start.stderr
        assert took < 8, took  # it waited 15 s for a server of its own that was never coming
        assert status.returncode == 3 and held in status.stdout and fix in status.stdout, status.stdout
        lines = doctor.stdout.splitlines()
        storage = next(i for i, line in enumerate(lines) if line.startswith("FAIL  storage:"))
        assert held in lines[storage] and fix in lines[storage + 1], doctor.stdout
        server = next(i for i, line in enumerate(lines) if line.startswith("FAIL  server:"))
        assert lines[server + 1].strip() != "fix: kg start" and f"kill {pid}" in lines[server + 1], doctor.stdout
        assert doctor.returncode == 1
        assert stop.returncode == 0 and held in stop.stdout, stop.stdout  # nothing of this kg's to stop
        assert sorted(p.name for p in store.iterdir()) == before  # no pid file, no log: the store untouched
        subprocess.run(["kill", str(pid)], check=True)  # the fix, followed
        proc.wait(10)
    started = kg(["start"], env)
    try:
        assert started.returncode == 0, started.stderr
    finally:
        kg(["stop"], env)


@pytest.mark.parametrize("kind", ["claude", "gemini"])
def test_a_session_start_says_at_once_that_kg_memory_holds_the_store(server_factory, tmp_path, kind):
    # The hook's `kg start` waited for the server it started until the hook's 4 s bound, then said only that
    # it "did not finish within 4 s (kg status says why)", and kg status named nobody.
    srv = server_factory(start=False)
    with kg_memory_holding(srv.store, tmp_path) as (proc, port, _old_kg):
        pid = proc.pid
        out, took = session_start(kind, hook_env(srv, WITH_KG), srv.project("proj"))
        said = json.loads(out)["systemMessage"]
        assert said.startswith(f"kg memory: not started: {srv.store} is held by kg-memory 0.17.0 (pid {pid}, on "
                               f"port {port})") and f"kill {pid}" in said, said
        assert took < 8, took  # a loaded machine may be slow to start sh and curl
        assert len(out.splitlines()) == 1 and not (srv.store / "server.log").exists()
