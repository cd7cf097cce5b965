"""A server that stopped without shutting down (killed, or crashed): `kg status` says so, and where to look."""

from __future__ import annotations

import os
import signal

from e2e_helpers import health_at, kg, wait_until

from kg_actors.server_log import stopped_uncleanly
from kg_actors.testing import free_port


def test_status_after_a_server_was_killed_says_it_stopped_without_shutting_down(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600")
    assert kg(["start", "--no-editor"], env).returncode == 0
    assert kg(["stop"], env).returncode == 0
    stopped = kg(["status"], env)  # a stop: nothing to say but that it does not run
    assert stopped.returncode == 3 and "not running" in stopped.stdout and "without shutting down" not in stopped.stdout
    health = None
    try:
        assert kg(["start", "--no-editor"], env).returncode == 0
        health = health_at(env)
        os.kill(health["pid"], signal.SIGKILL)
        wait_until(lambda: health_at(env) is None, 60, "the killed server to stop answering")
        status = kg(["status"], env)
        assert status.returncode == 3 and "not running" in status.stdout, status.stdout
        assert "it stopped without shutting down: see kg logs" in status.stdout, status.stdout
    finally:
        if health_at(env) is not None:
            os.kill(health_at(env)["pid"], signal.SIGKILL)


def test_a_log_ending_in_a_traceback_or_without_a_stop_after_its_start_is_an_unclean_stop():
    serving = "2026-01-01 10:00:00,000 INFO kg_actors.runtime: kg_actors 0.1.0 serving /s on 127.0.0.1:8765"
    stopping = "2026-01-01 10:05:00,000 INFO kg_actors.runtime: received SIGTERM: shutting down"
    assert not stopped_uncleanly([serving, "x INFO y: a line", stopping, "x INFO kg_actors.sync: committed"])
    assert stopped_uncleanly([serving, "x INFO y: a line"])  # killed: its last run never said it was stopping
    assert stopped_uncleanly([serving, stopping, serving])
    # A traceback at the end, its start long out of the tail read.
    assert stopped_uncleanly(["Traceback (most recent call last):", '  File "x.py", line 3, in f', "ValueError: boom"])
    assert not stopped_uncleanly(["x INFO y: a line"]) and not stopped_uncleanly([])


def test_status_right_after_a_kill_9_before_the_server_is_reaped_says_it_no_longer_runs(server_factory):
    """A killed server its parent has not reaped yet (a zombie: /proc still lists it, with no command line)
    is no longer running, not "another program's process"."""
    srv = server_factory(args=("--no-editor",))
    pid = srv.proc.pid
    os.kill(pid, signal.SIGKILL)  # not waited for: the test process, its parent, leaves it unreaped

    def state() -> str:
        stat = open(f"/proc/{pid}/stat").read()
        return stat[stat.rfind(")") + 2:][:1]

    wait_until(lambda: state() == "Z", 60, "the killed server to be a zombie")
    status = kg(["status"], srv.env)
    assert status.returncode == 3, status.stdout + status.stderr
    assert f"it named pid {pid}, which no longer runs" in status.stdout, status.stdout
    assert "another program" not in status.stdout + status.stderr
    srv.kill()  # reaps it
