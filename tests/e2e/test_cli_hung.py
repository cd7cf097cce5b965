"""A store's server stopped by SIGSTOP or hung, told apart from one stopping: `kg start`, `kg stop`,
`kg status` and `kg doctor` say so at once, with how to resume or end it, instead of waiting for an exit
that cannot come. Real `kg` commands against a real `kg serve`."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_helpers import kg, wait_until
from other_programs import silent

from kg_actors.testing import free_port


def test_start_stop_status_and_doctor_name_a_sigstopped_server_on_another_port(server_factory):
    srv = server_factory()
    pid = srv.health()["pid"]
    env = dict(os.environ, HOME=str(srv.home), KG_HOME=str(srv.store), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()))
    os.kill(pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        start = kg(["start"], env)
        took = time.monotonic() - began
        assert start.returncode == 1 and took < 8, (took, start)  # it waited 10 s and more before
        assert "is stopping" not in start.stdout + start.stderr
        assert f"(pid {pid}) is stopped (SIGSTOP)" in start.stderr and f"kill -CONT {pid}" in start.stderr \
            and f"kill -9 {pid}" in start.stderr, start.stderr
        began = time.monotonic()
        stop = kg(["stop"], env)
        assert stop.returncode == 1 and time.monotonic() - began < 8, stop
        assert f"(pid {pid}) is stopped (SIGSTOP)" in stop.stderr and f"kill -CONT {pid}" in stop.stderr, stop.stderr
        status = kg(["status"], env)
        assert status.returncode == 3 and f"kill -CONT {pid}" in status.stdout, status.stdout
        doctor = kg(["doctor"], env)
        assert doctor.returncode == 1 and f"kill -CONT {pid}" in doctor.stdout, doctor.stdout
        assert "kg stop && kg start (it moves" not in doctor.stdout, doctor.stdout
    finally:
        os.kill(pid, signal.SIGCONT)
    assert srv.health()["pid"] == pid, "a kg stop refused sends no signal that lands once it resumes"


async def test_a_sigstopped_servers_kill_9_loses_no_answered_write_and_status_says_so(server_factory):
    """It said `kill -9` loses "the writes since its last save": every answered write is in its graph's journal
    before it is answered, so the advice scared users away from the step that unblocks their sessions. Written
    with a save interval far off (the journal alone holds them), stopped, killed, started: all are there."""
    from e2e_helpers import Session, graph, nodes_by_id
    from mcp import Client

    srv = server_factory(extra_env={"KG_SAVE_INTERVAL": "600"})
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        for n in range(1, 4):
            await s.ok("kg_put_node", level="user", id=f"lesson-number-{n}", gist=f"lesson {n}")
    assert not (srv.store / "user.json").exists() and (srv.store / "user.json.journal").exists()
    pid = srv.health()["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        status = kg(["status"], srv.env)
    finally:
        os.kill(pid, signal.SIGKILL)
    assert status.returncode == 3 and f"`kill -9 {pid}` ends it" in status.stdout, status.stdout
    assert "are lost" not in status.stdout and "no answered write is lost" in status.stdout, status.stdout
    wait_until(lambda: srv.proc.poll() is not None, what="the killed server gone")
    srv.start("--no-editor")
    assert {f"lesson-number-{n}" for n in range(1, 4)} <= set(nodes_by_id(graph(srv)["user"]))


# A kg server whose loop is blocked, as the system shows it: a `kg_actors serve` process holding the store's lock,
# its pid file and its port, taking connections and answering none; a SIGTERM only notes itself (a blocked
# Trio loop never gets to act on it). It writes "TERM" to the file named after the port if one arrives.
HUNG_SERVER = """
import fcntl, os, signal, socket, sys, time
store, port, write_pid = sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
signal.signal(signal.SIGTERM, lambda *_: open(os.path.join(store, "got-term"), "w").write("TERM"))
fd = os.open(store, os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(16)
if write_pid:
    open(os.path.join(store, "server.pid"), "w").write(f"{os.getpid()}\\n{port}\\n")
open(os.path.join(store, "ready"), "w").write("ready")
held = []
while True:
    conn, _ = listener.accept()
    held.append(conn)  # read nothing, answer nothing
"""


@contextlib.contextmanager
def _hung_server(store: Path, port: int, pid_file: bool):
    store.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", HUNG_SERVER, "kg_actors", "serve", str(store), str(port),
                             "1" if pid_file else "0"])
    try:
        wait_until(lambda: (store / "ready").exists() or proc.poll() is not None, what="the hung server to listen")
        assert proc.poll() is None, "the hung server did not start"
        yield proc
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("pid_file", [True, False], ids=["pid-file", "no-pid-file"])
def test_stop_names_a_hung_server_at_once_with_how_to_end_it_and_signals_nothing(tmp_path, pid_file):
    store, port = tmp_path / "store", free_port()
    env = dict(os.environ, HOME=str(tmp_path), KG_HOME=str(store), KG_HTTP_PORT=str(port), KG_EDITOR_PORT=str(free_port()))
    with _hung_server(store, port, pid_file) as proc:
        began = time.monotonic()
        stop = kg(["stop"], env)
        took = time.monotonic() - began
        assert stop.returncode == 1 and took < 10, (took, stop)  # it waited 15 s for an exit that could not come
        said = stop.stdout + stop.stderr
        assert f"(pid {proc.pid})" in said and "hung" in said, said
        assert f"`kill {proc.pid}`" in said and f"`kill -9 {proc.pid}`" in said, said
        assert proc.poll() is None and not (store / "got-term").exists(), "kg stop signalled it: the user decides"


def test_stop_leaves_a_silent_program_that_is_not_kg_on_the_port_alone(tmp_path):
    with silent() as (port, _):
        env = dict(os.environ, HOME=str(tmp_path), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(port),
                   KG_EDITOR_PORT=str(free_port()))
        began = time.monotonic()
        stop = kg(["stop"], env)
        assert stop.returncode == 0 and "not running" in stop.stdout and time.monotonic() - began < 10, stop
        assert "not the kg server" in stop.stdout, stop.stdout
