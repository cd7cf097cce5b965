"""`kg status` and `kg stop` over a pid file naming no server of this store: what it named is said (another
program's process, one that no longer runs), it is removed, and a store that refuses its removal (made
read-only under a running server, then `kg stop`) is said as such, with status's exit 3 for no server."""

from __future__ import annotations

import subprocess

from e2e_helpers import kg
from other_user import Client, needs_other_user, other_user_server, own

from kg_actors.testing import free_port


def _gone_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _env(tmp_path) -> dict:
    import os
    (tmp_path / "home").mkdir()
    (tmp_path / "store").mkdir()
    return dict(os.environ, HOME=str(tmp_path / "home"), KG_HOME=str(tmp_path / "store"),
                KG_HTTP_PORT=str(free_port()), KG_EDITOR_PORT=str(free_port()))


def test_status_says_the_pid_file_named_another_programs_process_and_was_removed(tmp_path):
    env = _env(tmp_path)
    pid_file = tmp_path / "store" / "server.pid"
    bystander = subprocess.Popen(["sleep", "60"])
    try:
        pid_file.write_text(str(bystander.pid))
        status = kg(["status"], env)
        assert status.returncode == 3, status
        assert (f"stale pid file: it named pid {bystander.pid}, another program's process, not a kg server; "
                "removed") in status.stdout, status.stdout
        assert not pid_file.exists() and bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
    gone = _gone_pid()
    pid_file.write_text(str(gone))
    stop = kg(["stop"], env)
    assert stop.returncode == 0, stop
    assert f"stale pid file: it named pid {gone}, which no longer runs; removed" in stop.stdout, stop.stdout


@needs_other_user
def test_a_store_made_read_only_leaves_a_pid_file_status_says_so_and_exits_3():
    with other_user_server() as srv:
        srv.store.mkdir()
        pid_file = srv.store / "server.pid"
        gone = _gone_pid()
        pid_file.write_text(f"{gone}\n")
        own(srv)
        srv.store.chmod(0o555)  # `chmod a-w ~/.knowledge-graph` while the server ran: it could not remove it
        client = Client(srv)
        status = client.run("status")
        assert status.returncode == 3, (status.stdout, status.stderr)
        assert "check that it exists" not in status.stderr and status.stdout.startswith("kg: not running"), status
        assert (f"it named pid {gone}, which no longer runs; it could not be removed (Permission denied): the "
                f"store's folder {srv.store} is not writable") in status.stdout, status.stdout
        stop = client.run("stop")
        assert stop.returncode == 0 and "could not be removed (Permission denied)" in stop.stdout, stop
        # Said in order: no server first, then the pid file left behind (not "..., and no kg server answers").
        assert stop.stdout.startswith(f"kg: not running (no kg server answers at {srv.url}; stale pid file"), stop
        assert "needs it writable, and" not in stop.stdout, stop.stdout
        srv.store.chmod(0o755)


def test_stop_names_a_stale_pid_file_in_a_store_a_server_ran_in_before(tmp_path):
    """`start.lock` stays after a server ran: `kg stop` looks again once no start holds it, and the second
    look (the file already removed) must not replace what the first said of it with "no pid file"."""
    env = _env(tmp_path)
    (tmp_path / "store" / "start.lock").write_text("")
    pid_file = tmp_path / "store" / "server.pid"
    for content, said in ((str(gone := _gone_pid()), f"stale pid file: it named pid {gone}, which no longer runs"),
                          ("garbage", f"{pid_file} holds no pid")):
        pid_file.write_text(content)
        stop = kg(["stop"], env)
        assert stop.returncode == 0, stop
        assert said in stop.stdout and "removed" in stop.stdout and "no pid file" not in stop.stdout, stop.stdout
        assert not pid_file.exists()
