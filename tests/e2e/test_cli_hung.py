"""A store's server stopped by SIGSTOP or hung, told apart from one stopping: `kg start`, `kg stop`,
`kg status` and `kg doctor` say so at once, with how to resume or end it, instead of waiting for an exit
that cannot come. Real `kg` commands against a real `kg serve`."""

from __future__ import annotations

import os
import signal
import time

from e2e_helpers import kg

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
