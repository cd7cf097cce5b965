"""The `kg` management commands, run as a user would: start, status, logs, version, stop.

Each command is the installed `kg` with HOME, KG_HOME and the ports pointed
at a temporary store on free loopback ports.
"""

from __future__ import annotations

import contextlib
import json
import select
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from e2e_helpers import KG, another_program, kg, wait_until
from other_programs import SSH_BANNER, answering

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
        pid = int((store / "server.pid").read_text().split()[0])
        assert f"(pid {pid})" in start.stdout

        again = kg(["start"], env)
        assert again.returncode == 0 and "already running" in again.stdout

        status = kg(["status"], env)
        assert status.returncode == 0
        assert f"running at http://127.0.0.1:{env['KG_HTTP_PORT']}" in status.stdout
        assert f"version {kg_actors.__version__}" in status.stdout and str(store) in status.stdout

        # A start on another port finds the store's server where it runs (server.pid names its port), at once:
        # it waited 10 s for it to stop, then failed.
        elsewhere = free_port()
        other = kg(["start"], dict(env, KG_HTTP_PORT=str(elsewhere)))
        assert other.returncode == 1 and other.stdout == ""
        assert other.stderr == (f"kg: the server of {store} runs at http://127.0.0.1:{env['KG_HTTP_PORT']} (pid {pid}), "
                                f"not at http://127.0.0.1:{elsewhere} (KG_HTTP_PORT or --port): the clients and hooks "
                                f"set up for port {elsewhere} do not reach it; kg stop && kg start moves it to port "
                                f"{elsewhere}, or set KG_HTTP_PORT={env['KG_HTTP_PORT']}\n"), other.stderr
        assert "stopping" not in other.stdout + other.stderr
        status = kg(["status"], dict(env, KG_HTTP_PORT=str(elsewhere)))
        assert status.returncode == 0 and f"running at http://127.0.0.1:{env['KG_HTTP_PORT']}, version" in status.stdout
        assert f"runs at http://127.0.0.1:{env['KG_HTTP_PORT']} (pid {pid}), not at" in status.stderr, status.stderr
        assert (store / "server.pid").read_text() == f"{pid}\n{env['KG_HTTP_PORT']}\n"
        # `kg start` refuses port 0: no advice to move the server there.
        status0 = kg(["status"], dict(env, KG_HTTP_PORT="0"))
        assert f"set KG_HTTP_PORT={env['KG_HTTP_PORT']}" in status0.stderr, status0.stderr
        assert "moves it to port" not in status0.stderr, status0.stderr
        doctor = kg(["doctor"], dict(env, KG_HTTP_PORT=str(elsewhere)))
        assert f"FAIL  storage: {store} is served by the kg server (pid {pid}) on port {env['KG_HTTP_PORT']}, not on " \
            f"port {elsewhere} (KG_HTTP_PORT)" in doctor.stdout, doctor.stdout

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
    out = kg(["status"], dict(env, KG_HTTP_PORT="70000"))
    assert out.returncode == 2 and "KG_HTTP_PORT='70000' must be at most 65535" in out.stderr
    out = kg(["serve"], dict(env, KG_LOG_LEVEL="bogus"))
    assert out.returncode == 2 and out.stderr.strip() == (
        "kg: KG_LOG_LEVEL='bogus' is not a log level: one of DEBUG, INFO, WARNING, ERROR, CRITICAL"), out.stderr
    for name, raw in (("KG_HTTP_PORT", "+8765"), ("KG_HTTP_PORT", " 8765"), ("KG_EDITOR_PORT", "\uff18\uff17\uff16\uff16")):
        out = kg(["start"], dict(env, **{name: raw}))  # a server the hooks' URL would never reach
        assert out.returncode == 2 and f"kg: {name}={raw!r} is not a port: digits 0-9 only" in out.stderr, out.stderr
    out = kg(["start"], dict(env, KG_HTTP_HOST="127.0.0.2"))
    assert out.returncode == 2 and "KG_HTTP_HOST='127.0.0.2' is not 127.0.0.1" in out.stderr, out.stderr
    assert _health(env) is None
    out = kg(["serve"], dict(env, KG_HTTP_HOST="0.0.0.0"))
    assert out.returncode == 2 and "KG_HTTP_HOST='0.0.0.0' is not a loopback address" in out.stderr, out.stderr
    for argv, said in ((["status", "--port", "70000"], "70000 is not a port"),
                       (["logs", "-n", "0"], "0 is not a count of lines")):
        out = kg(argv, env)
        assert out.returncode == 2 and said in out.stderr, out.stderr


def test_a_file_of_the_users_that_cannot_be_read_is_named_without_a_traceback(env, tmp_path):
    store = tmp_path / "store"
    (store / "server.log").mkdir(parents=True)  # a folder where the log should be
    out = kg(["logs"], env)
    assert out.returncode == 1 and "server.log" in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_uninstall_where_setup_never_ran_says_so_and_leaves_nothing(env):
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0 and "kg setup has changed nothing here" in out.stdout
    assert not os.path.exists(os.path.join(env["KG_HOME"], "setup"))  # it left setup/lock behind


def test_a_reader_that_leaves_early_ends_the_command_quietly(env):
    # `kg doctor | head -1`: the pipe's end closes; no "Broken pipe: check that it exists" on the way out.
    proc = subprocess.Popen([KG, "doctor"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 141 and err == b""


def test_stop_never_signals_a_process_that_is_not_the_server(env, tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    for garbage in ("4194304999", "-1", "not a pid"):
        (store / "server.pid").write_text(garbage)
        out = kg(["stop"], env)
        assert out.returncode == 0 and "not running" in out.stdout, out.stderr
        assert not (store / "server.pid").exists()
    # A stale pid file naming a pid the system gave to another program since, even one that "serves".
    for argv in (["sleep", "60"], [sys.executable, "-c", "import time; time.sleep(60)", "serve"]):
        bystander = subprocess.Popen(argv)
        try:
            (store / "server.pid").write_text(str(bystander.pid))
            out = kg(["stop"], env)
            assert out.returncode == 0 and "stale pid file" in out.stdout
            assert bystander.poll() is None, f"kg stop signalled {argv}, which is not the server"
            assert not (store / "server.pid").exists()
        finally:
            bystander.kill()
            bystander.wait()


@contextlib.contextmanager
def _tmpfs(path, size: str):
    """A small file system mounted at `path` for the test (skipped where mounting is not allowed)."""
    path.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True).returncode:
        pytest.skip("no tmpfs mount here (needs root and a mount namespace that allows it)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def test_a_store_on_a_read_only_mount_is_named_as_such(env, tmp_path):
    # It said "not readable and writable by this user; fix its permissions": no permission would help.
    with _tmpfs(tmp_path / "ro", "1m") as mnt:
        (mnt / "store").mkdir()
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True, capture_output=True)
        out = subprocess.run([KG, "serve"], env={**env, "KG_HOME": str(mnt / "store")}, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert out.returncode == 1 and "it is on a file system mounted read-only" in out.stderr, out.stderr
        ro = {**env, "KG_HOME": str(mnt / "store")}
        start = kg(["start", "--no-editor"], ro)
        assert start.returncode == 1 and "mounted read-only" in start.stderr and "permissions" not in start.stderr
        doctor = kg(["doctor"], ro)
        assert "is on a file system mounted read-only" in doctor.stdout and "not writable by this user" not in \
            doctor.stdout, doctor.stdout


def test_start_with_an_unusable_storage_directory_says_why(env, tmp_path):
    not_a_dir = tmp_path / "store-is-a-file"
    not_a_dir.write_text("")
    out = kg(["start"], dict(env, KG_HOME=str(not_a_dir)))
    assert out.returncode == 1
    # It said "File exists; fix its permissions": no permission would help a file.
    assert f"{not_a_dir} is a file, not a folder: point KG_HOME at a folder" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    under = dict(env, KG_HOME=str(not_a_dir / "sub"))  # a store path under a file: no permission helps either
    out = kg(["start"], under)
    assert out.returncode == 1 and "a part of its path is a file, not a folder" in out.stderr, out.stderr
    doctor = kg(["doctor"], under)
    assert f"{not_a_dir} is a file, not a folder" in doctor.stdout and "not writable" not in doctor.stdout, doctor.stdout


def test_start_takes_the_serve_port_options_and_restart_keeps_serving(env, tmp_path):
    port, editor_port = free_port(), free_port()
    plain = {k: v for k, v in env.items() if k not in ("KG_HTTP_PORT", "KG_EDITOR_PORT")}
    try:
        down = kg(["editor", "--no-browser"], dict(env, KG_HTTP_PORT=str(port)))
        assert down.returncode == 1 and "start it first (kg start)" in down.stderr  # it printed a URL and exit 0
        start = kg(["start", "--port", str(port), "--editor-port", str(editor_port)], plain)
        assert start.returncode == 0, start.stderr
        health = _health(dict(env, KG_HTTP_PORT=str(port)))
        assert health is not None and health["editor"]["port"] == editor_port
        # The editor the server serves, not the environment's port.
        opened = kg(["editor", "--no-browser"], dict(env, KG_HTTP_PORT=str(port)))
        assert opened.returncode == 0 and opened.stdout.strip() == f"http://127.0.0.1:{editor_port}/", opened
        first_pid = health["pid"]
        restart = kg(["restart", "--port", str(port), "--no-editor"], plain)
        assert restart.returncode == 0, restart.stderr
        assert f"stopped (pid {first_pid})" in restart.stdout and "serving" in restart.stdout
        health = _health(dict(env, KG_HTTP_PORT=str(port)))
        assert health["pid"] != first_pid and health["editor"]["state"] == "off"
        off = kg(["editor", "--no-browser"], dict(env, KG_HTTP_PORT=str(port)))
        assert off.returncode == 1 and "serves no editor" in off.stderr
    finally:
        kg(["stop"], plain)


def test_a_busy_editor_port_leaves_mcp_and_hooks_serving_and_says_so_once(env, tmp_path):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen(1)
        busy = squatter.getsockname()[1]
        env = dict(env, KG_EDITOR_PORT=str(busy))
        try:
            start = kg(["start"], env)
            assert start.returncode == 0, start.stderr
            deadline = time.monotonic() + 20
            while (_health(env) or {}).get("editor", {}).get("state") == "starting" and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _health(env)["editor"]["state"].startswith(f"off: port {busy} is busy")
            status = kg(["status"], env)
            assert status.returncode == 0 and f"port {busy} is busy" in status.stdout
            assert "--editor-port" in status.stdout
            reply = _post_mcp(env, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            assert len(reply["result"]["tools"]) == 10
        finally:
            kg(["stop"], env)
    log = (tmp_path / "store" / "server.log").read_text()
    warnings = [line for line in log.splitlines() if "visual editor off" in line]
    assert len(warnings) == 1 and f":{busy}" in warnings[0] and "KG_EDITOR_PORT" in warnings[0], log


def test_an_editor_port_that_is_the_servers_own_is_named_as_such(env):
    """It said only "port N is busy (Address already in use)", the clash being kg's own two settings."""
    env = dict(env, KG_EDITOR_PORT=env["KG_HTTP_PORT"])
    try:
        assert kg(["start"], env).returncode == 0
        wait_until(lambda: (_health(env) or {}).get("editor", {}).get("state") not in (None, "starting"), 20,
                   "the editor's state")
        status = kg(["status"], env)
        said = f"port {env['KG_HTTP_PORT']} is this server's own HTTP port (KG_HTTP_PORT or --port)"
        assert said in status.stdout and "--editor-port" in status.stdout, status.stdout
    finally:
        kg(["stop"], env)


def _post_mcp(env: dict, message: dict) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{env['KG_HTTP_PORT']}/", data=json.dumps(message).encode(), method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def test_status_warns_when_the_server_on_the_port_serves_another_store(env, tmp_path):
    try:
        assert kg(["start"], env).returncode == 0
        other = tmp_path / "other-store"
        status = kg(["status"], dict(env, KG_HOME=str(other)))
        assert status.returncode == 3, status  # this store has no server (it exited 0, as if it had)
        # Said plainly on stdout, where a script reads it, not as a running server with a warning beside it.
        assert f"serves {tmp_path / 'store'}, not {other}" in status.stdout and "running at" not in status.stdout, \
            status.stdout
        assert "KG_HTTP_PORT" in status.stdout
        assert "warning" not in kg(["status"], env).stderr
    finally:
        kg(["stop"], env)


def test_logs_follow_prints_what_is_appended(env, tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "server.log").write_text("first line\n")
    follow = subprocess.Popen([KG, "logs", "-f"], env=env, stdout=subprocess.PIPE, text=True)

    def line() -> str:  # bounded: a line never printed fails the test instead of holding the run
        assert select.select([follow.stdout], [], [], 60)[0], "kg logs -f printed nothing"
        return follow.stdout.readline()

    try:
        assert line() == "first line\n"
        with open(store / "server.log", "a") as f:
            f.write("appended later\n")
        assert line() == "appended later\n"
        # Rotated (or a new server's log): the follower goes on with the new file.
        (store / "server.log").rename(store / "server.log.prev")
        (store / "server.log").write_text("in the new file\n")
        assert line() == "in the new file\n"
    finally:
        follow.kill()
        follow.wait()


def test_serve_on_a_busy_port_names_it_and_the_fix(env):
    # A project used before is warmed at start: its load, cut short by the refusal, logged a traceback first.
    project = Path(env["HOME"]) / "warm-proj"
    project.mkdir()
    assert kg(["start", "--no-editor"], env).returncode == 0
    try:
        body = json.dumps({"cwd": str(project), "session_id": "warm-check", "source": "startup"}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{env['KG_HTTP_PORT']}/api/session_bootstrap", data=body,
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=30).read()
    finally:
        kg(["stop"], env)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen(1)
        port = squatter.getsockname()[1]
        out = kg(["serve", "--no-editor"], dict(env, KG_HTTP_PORT=str(port)))
    assert out.returncode == 1
    assert f"cannot serve on 127.0.0.1:{port}" in out.stderr and "--port PORT or KG_HTTP_PORT" in out.stderr
    assert "Traceback" not in out.stderr, out.stderr


def test_serve_with_a_storage_path_that_is_a_file_names_the_store_not_the_port(env, tmp_path):
    not_a_dir = tmp_path / "store-file"
    not_a_dir.write_text("")
    out = kg(["serve", "--no-editor"], dict(env, KG_HOME=str(not_a_dir)))
    assert out.returncode == 1
    assert f"{not_a_dir} is a file, not a folder: point KG_HOME at a folder" in out.stderr, out.stderr
    assert "cannot serve on" not in out.stderr and "Traceback" not in out.stderr
    doctor = kg(["doctor"], dict(env, KG_HOME=str(not_a_dir)))
    assert doctor.returncode == 1 and f"FAIL  storage: {not_a_dir} is a file, not a folder" in doctor.stdout
    assert "Traceback" not in doctor.stderr, doctor.stderr


def test_status_with_another_programs_json_on_the_port_says_not_running(env):
    """A program on the port that answers /health with JSON that is no object is not a kg server."""
    with another_program(b"[1, 2]") as port:
        out = kg(["status"], dict(env, KG_HTTP_PORT=str(port)))
    assert out.returncode == 3, out.stderr
    assert "not running" in out.stdout
    assert "Traceback" not in out.stderr


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="no /sys/kernel here")
def test_a_store_no_file_can_be_made_in_fails_doctor_and_serve_before_it_announces(env):
    # As root, os.access says yes to /sys/kernel, where no file can be made: both probe by making one.
    sys_env = dict(env, KG_HOME="/sys/kernel")
    doctor = kg(["doctor"], sys_env)
    assert doctor.returncode == 1 and "FAIL  storage: /sys/kernel is not writable" in doctor.stdout, doctor.stdout
    out = kg(["serve", "--no-editor"], sys_env)
    assert out.returncode == 1 and "KG PREFLIGHT: cannot use the storage directory /sys/kernel" in out.stderr, out.stderr
    assert "serving" not in out.stderr
    # A line of the server's log (its stderr) stamped in UTC as every other line of it is
    assert re.search(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z ERROR \S+: KG PREFLIGHT: cannot use", out.stderr,
                     re.MULTILINE), out.stderr


def test_status_and_serve_point_at_what_tells_another_program_on_the_port(env):
    with another_program(b"not kg") as port:
        taken = dict(env, KG_HTTP_PORT=str(port))
        status = kg(["status"], taken)
        serve = kg(["serve", "--no-editor"], taken)
    assert status.returncode == 3 and "taken by a program that is not the kg server" in status.stdout, status.stdout
    assert serve.returncode == 1 and "(`kg doctor` tells whether it is kg)" in serve.stderr, serve.stderr


def _seeded(server_factory, tmp_path, name: str, files: dict[str, bytes]):
    """A running server whose store starts with `files` (name -> bytes)."""
    srv = server_factory(start=False, base=tmp_path / name)
    srv.store.mkdir(parents=True)
    for file, data in files.items():
        (srv.store / file).write_bytes(data)
    return srv.start("--no-editor")


def test_doctor_and_status_name_a_graph_that_cannot_be_read_and_the_fix(server_factory, tmp_path):
    broken = _seeded(server_factory, tmp_path, "broken", {"user.json": b"{broken"})
    user_file = broken.store / "user.json"
    # Asked at once: the server's own load of the user graph may still run; health waits for it.
    doctor = kg(["doctor"], broken.env)
    assert doctor.returncode == 1 and "all good" not in doctor.stdout, doctor.stdout
    assert f"FAIL  graph user: {user_file} is unreadable" in doctor.stdout, doctor.stdout
    assert f"fix: put a good copy back at {user_file} (`kg restore --at DATE user`" in doctor.stdout
    assert "kg stop && kg start" in doctor.stdout
    status = kg(["status"], broken.env)
    # A graph FAIL with its fix fails here as in kg doctor (it exited 0).
    assert status.returncode == 1 and f"kg: graph user: {user_file} is unreadable" in status.stdout, status.stdout
    assert broken.health()["graphs_in_trouble"]["user"]["kind"] == "unreadable"
    assert broken.health()["status"] == "ok"  # it serves: every other graph reads and takes changes

    good = json.dumps({"nodes": [], "edges": []}).encode()
    torn = _seeded(server_factory, tmp_path, "torn", {"user.json": b'{"nodes": [', "user.prev": good})
    kept = torn.store / "user.json.unreadable"
    doctor = kg(["doctor"], torn.env)
    assert doctor.returncode == 1 and "FAIL  graph user: its file could not be read" in doctor.stdout, doctor.stdout
    assert f"fix: look at {kept}" in doctor.stdout and "then remove it" in doctor.stdout
    kept.unlink()  # looked at: the trouble is over
    doctor = kg(["doctor"], torn.env)
    assert "FAIL  graph" not in doctor.stdout and "ok    graphs:" in doctor.stdout, doctor.stdout


def test_help_lists_the_commands_a_user_runs_and_merge_driver_still_runs(env):
    out = kg(["--help"], env)
    assert out.returncode == 0 and "doctor" in out.stdout
    assert "SUPPRESS" not in out.stdout and "merge-driver" not in out.stdout, out.stdout
    driver = kg(["merge-driver"], env)  # git's call, without its three files: the driver's own usage
    assert driver.returncode == 2 and "usage: python -m kg_actors merge-driver BASE OURS THEIRS" in driver.stderr


def test_a_wrong_command_line_names_what_is_wrong_and_lists_only_the_users_commands(env):
    out = kg(["--bogus"], env)  # said "the following arguments are required", never naming --bogus
    assert out.returncode == 2 and "unrecognized argument: --bogus" in out.stderr, out.stderr
    assert "required" not in out.stderr and out.stdout == "", out.stderr
    out = kg(["status", "--bogus", "-x"], env)
    assert out.returncode == 2 and "unrecognized arguments: --bogus -x" in out.stderr, out.stderr
    out = kg([], env)
    assert out.returncode == 2 and "a command is required" in out.stderr and "doctor" in out.stderr, out.stderr
    out = kg(["nosuchcmd"], env)
    assert out.returncode == 2 and "nosuchcmd" in out.stderr and "doctor" in out.stderr, out.stderr
    assert "merge-driver" not in out.stderr, out.stderr


def test_each_commands_help_says_what_it_does(env):
    listed = kg(["--help"], env).stdout
    for command in ("serve", "start", "restart", "stop", "status", "logs", "version", "mcp", "editor", "setup",
                    "uninstall", "doctor", "commit", "sync", "restore", "init-git", "gauge"):
        out = kg([command, "--help"], env)
        assert out.returncode == 0, (command, out.stderr)
        usage, summary = out.stdout.split("\n\n")[:2]
        assert usage.startswith(f"usage: kg {command}") and not summary.startswith(("options:", "positional")), \
            (command, out.stdout)
        # The summary is the line the command list shows, as a sentence.
        assert " ".join(summary.rstrip(".").lower().split()) in " ".join(listed.lower().split()), (command, summary)
    out = kg(["editor", "--help"], env)
    assert "--no-browser  " in out.stdout and out.stdout.split("--no-browser", 1)[1].strip(), out.stdout


def test_uninstall_without_the_setups_kg_home_names_it_and_leaves_the_entries(env, tmp_path):
    home = tmp_path / "home"
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    desktop.write_text('{"mcpServers": {}}')
    other = tmp_path / "other-store"
    assert kg(["setup", "--only", "desktop", "--yes"], dict(env, KG_HOME=str(other))).returncode == 0
    wired = desktop.read_text()
    plain = {k: v for k, v in env.items() if k != "KG_HOME"}  # the default store, where no record is
    out = kg(["uninstall", "--yes"], plain)
    assert out.returncode == 1, out.stdout
    assert f"written by a setup with KG_HOME={other} remain in {desktop}" in out.stdout, out.stdout
    assert f"run `KG_HOME={other} kg uninstall`" in out.stdout
    assert desktop.read_text() == wired and not (home / ".knowledge-graph").exists()
    done = kg(["uninstall", "--yes"], dict(env, KG_HOME=str(other)))  # what it said to run
    assert done.returncode == 0 and desktop.read_text() == '{"mcpServers": {}}', done.stdout
    again = kg(["uninstall", "--yes"], plain)
    assert again.returncode == 0 and "kg setup has changed nothing here" in again.stdout


def test_starts_at_once_all_answer_with_the_one_server_that_runs(env, tmp_path):
    """Several `kg start` (or `kg mcp` starting the server) at once: one server starts, and every one of
    them says it serves, with that server's pid (a loser's refused child is no failure, nor its pid)."""
    store = tmp_path / "store"
    starts = [subprocess.Popen([KG, "start"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for _ in range(4)]
    try:
        outs = [start.communicate(timeout=90) for start in starts]
        pid = int(wait_until(lambda: (store / "server.pid").exists() and (store / "server.pid").read_text(), 10,
                             "the pid file").split()[0])
        assert _health(env)["pid"] == pid
        for start, (out, err) in zip(starts, outs):
            assert start.returncode == 0, err
            assert f"(pid {pid})" in out, out
    finally:
        kg(["stop"], env)


def test_start_on_port_0_is_refused_at_once_and_starts_nothing(env, tmp_path):
    for args, extra in ((["start", "--port", "0"], {}), (["start"], {"KG_HTTP_PORT": "0"})):
        out = kg(args, dict(env, **extra))
        assert out.returncode == 2 and "needs a fixed port its clients can find, not 0" in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "store" / "server.pid").exists() and not (tmp_path / "store" / "server.log").exists()


def test_status_start_and_doctor_with_a_program_that_is_not_http_on_the_port(env):
    """Something speaking another protocol on the port (an SSH banner): named, never a traceback."""
    with answering(SSH_BANNER) as port:
        taken = dict(env, KG_HTTP_PORT=str(port))
        status = kg(["status"], taken)
        start = kg(["start"], taken)
        doctor = kg(["doctor"], taken)
    assert status.returncode == 3 and "taken by a program that is not the kg server" in status.stdout, status.stderr
    assert start.returncode == 1 and "another program holds the port" in start.stderr, start.stderr
    assert doctor.returncode == 1 and "is taken by a program that is not the kg server" in doctor.stdout, doctor.stderr
    for out in (status, start, doctor):
        assert "Traceback" not in out.stderr, out.stderr


def _editor_settled(env: dict) -> dict:
    deadline = time.monotonic() + 20
    while (_health(env) or {}).get("editor", {}).get("state") == "starting" and time.monotonic() < deadline:
        time.sleep(0.05)
    return _health(env)["editor"]


def test_doctor_checks_the_editor_the_running_server_reports_not_the_environments_port(env):
    """The environment's editor port is not the server's (--editor-port, --no-editor), and something
    listening there need not be the editor: doctor goes by what the server says of its editor."""
    moved = free_port()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen(1)
        busy = squatter.getsockname()[1]
        cases = [(["--editor-port", str(moved)], env, f"ok    editor: reachable at http://127.0.0.1:{moved}/"),
                 (["--no-editor"], env, "--    editor: off (the server runs without it"),
                 ([], dict(env, KG_EDITOR_PORT=str(busy)), f"FAIL  editor: off: port {busy} is busy")]
        for args, start_env, said in cases:
            try:
                assert kg(["start", *args], start_env).returncode == 0
                _editor_settled(env)
                doctor = kg(["doctor"], env)  # the environment names the default editor port
                assert said in doctor.stdout, doctor.stdout
                assert "Traceback" not in doctor.stderr
            finally:
                kg(["stop"], env)


@contextlib.contextmanager
def _full_disk(tmp_path, how: str, env: dict):
    """A store on a full disk: a real one (a 64 KiB tmpfs, filled; skipped where mounting is not allowed),
    or every write of the store failing with ENOSPC (storage/faults.py). Yields the environment and store."""
    if how == "injected":
        flag = tmp_path / "disk-full"
        flag.write_text("ENOSPC")
        yield dict(env, KG_TEST_STORAGE_FAULT=str(flag)), tmp_path / "store"
        return
    with _tmpfs(tmp_path / "disk", "64k") as disk:
        (disk / "store").mkdir()
        fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 4096):
                pass
        os.close(fd)
        yield dict(env, KG_HOME=str(disk / "store")), disk / "store"


@pytest.mark.parametrize("how", ["injected", "tmpfs"])
def test_a_full_disk_is_named_by_doctor_and_a_server_started_there_serves_reads(env, tmp_path, how):
    with _full_disk(tmp_path, how, env) as (full, store):
        start = kg(["start", "--no-editor"], full)
        health = _health(env)
        try:
            assert start.returncode == 0, start.stderr
            assert health is not None and health["status"] == "ok"
            with urllib.request.urlopen(f"http://127.0.0.1:{env['KG_HTTP_PORT']}/api/graph/read", timeout=10) as r:
                assert json.loads(r.read())["user"]["nodes"] == []
            assert not (store / "server.pid").exists()
            doctor = kg(["doctor"], full)
            assert f"FAIL  storage: the disk holding {store} is full" in doctor.stdout, doctor.stdout
            if how == "injected":  # a real full disk has no room for the log either
                log = (store / "server.log").read_text()
                assert "server.pid: No space left on device (the disk holding the store is full); serving" in log
        finally:
            if health is not None:
                os.kill(health["pid"], 15)
                wait_until(lambda: _health(env) is None, what="the server to stop")


def test_stop_finds_the_server_through_its_port_when_the_pid_file_is_gone(env, tmp_path):
    other = dict(env, KG_HOME=str(tmp_path / "other-store"), KG_HTTP_PORT=str(free_port()))
    try:
        assert kg(["start", "--no-editor"], env).returncode == 0
        pid = _health(env)["pid"]
        (tmp_path / "store" / "server.pid").unlink()
        stop = kg(["stop"], env)
        assert stop.returncode == 0 and f"stopped (pid {pid})" in stop.stdout, stop.stdout
        assert _health(env) is None
        # --port names where this store's server is: another store's server found there is not stopped.
        assert kg(["start", "--no-editor"], other).returncode == 0
        pid = _health(other)["pid"]
        stop = kg(["stop", "--port", other["KG_HTTP_PORT"]], env)
        assert stop.returncode == 1 and stop.stdout == "", stop.stdout
        assert stop.stderr.startswith(f"kg: not stopping it: the server at http://127.0.0.1:{other['KG_HTTP_PORT']} "
                                      f"(pid {pid}) serves {other['KG_HOME']}, not {env['KG_HOME']}"), stop.stderr
        assert _health(other)["pid"] == pid
        assert kg(["stop", "--port", other["KG_HTTP_PORT"]], other).returncode == 0
        assert _health(other) is None
        nothing = kg(["stop"], env)
        assert nothing.returncode == 0 and "not running (no pid file, and no kg server answers at" in nothing.stdout
    finally:
        kg(["stop"], env)
        kg(["stop"], other)


def test_a_store_path_that_is_not_utf8_is_served_and_named_by_health(env, tmp_path):
    store = str(tmp_path) + "/store-\udcff-not-utf8"  # the byte 0xff in the path, as the environment passes it
    odd = dict(env, KG_HOME=store)

    def kg(args, env):  # the path comes back in what it prints, as the byte it is
        return subprocess.run([KG, *args], env=env, capture_output=True, text=True, errors="surrogateescape",
                              timeout=60, stdin=subprocess.DEVNULL)

    try:
        start = kg(["start", "--no-editor"], odd)
        assert start.returncode == 0, start.stderr
        health = _health(env)
        assert health is not None and health["storage"] == store  # its escapes decode back to the same path
        status = kg(["status"], odd)
        assert status.returncode == 0 and "Traceback" not in status.stderr, status.stderr
    finally:
        kg(["stop"], odd)


def test_a_store_path_that_is_a_file_is_named_so_by_every_store_command(env, tmp_path):
    a_file = tmp_path / "store-file"
    a_file.write_text("")
    for argv in (["stop"], ["logs"], ["commit"], ["init-git"], ["sync", str(tmp_path / "remote")],
                 ["restore", "--at", "now"], ["setup", "--plan"], ["setup", "--yes"], ["uninstall", "--yes"],
                 ["editor", "--no-browser"]):
        out = kg(argv, dict(env, KG_HOME=str(a_file)))
        assert out.returncode == 1, (argv, out.stdout, out.stderr)
        assert out.stderr.strip().endswith(f"{a_file} is a file, not a folder: point KG_HOME at a folder"), out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and not out.stdout, (argv, out.stdout)
    status = kg(["status"], dict(env, KG_HOME=str(a_file)))  # no server of this store answers: 3, as the README says
    assert status.returncode == 3 and f"{a_file} is a file, not a folder\n    fix: point KG_HOME at a folder" in \
        status.stdout, (status.stdout, status.stderr)
    # doctor names it as storage, and sends no one to move a record that cannot be there.
    doctor = kg(["doctor"], dict(env, KG_HOME=str(a_file))).stdout
    assert f"FAIL  storage: {a_file} is a file, not a folder" in doctor, doctor
    assert "Not a directory" not in doctor and "move " not in doctor, doctor


def test_commit_and_restore_of_a_store_never_made_make_no_folders(env, tmp_path):
    missing = tmp_path / "nowhere" / "deeper"
    for argv in (["commit"], ["restore", "--at", "now"]):
        out = kg(argv, dict(env, KG_HOME=str(missing)))
        assert out.returncode == 1 and f"there is no store at {missing} (KG_HOME)" in out.stderr, out.stderr
        assert not (tmp_path / "nowhere").exists()


def test_a_server_started_from_a_folder_holding_mcp_py_serves_mcp(env, tmp_path):
    """`python -m` put the folder it ran in first on sys.path: a project's own `mcp.py` was imported for the
    MCP SDK, and the first request the server's fast path does not answer ended it."""
    folder = tmp_path / "a-project"
    folder.mkdir()
    (folder / "mcp.py").write_text("raise SystemExit('the project mcp.py was imported')\n")
    (folder / "trio.py").write_text("raise SystemExit('the project trio.py was imported')\n")
    start = subprocess.run([KG, "start", "--no-editor"], env=env, cwd=folder, capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
    try:
        assert start.returncode == 0, start.stderr
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{env['KG_HTTP_PORT']}/mcp", data=body, headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        with urllib.request.urlopen(request, timeout=30) as r:
            assert json.loads(r.read())["result"] == {}
        assert _health(env) is not None
    finally:
        kg(["stop"], env)


def test_stop_and_start_never_take_another_stores_server_for_this_ones(env, tmp_path):
    """`KG_HOME=/tmp/other kg stop` stopped the default store's server (found on the port), a copy of a store
    made while its server ran stopped that server (its pid file named it), and `kg start` said "already
    running" with exit 0 while the port's server held another store."""
    other = dict(env, KG_HOME=str(tmp_path / "other-store"))
    try:
        assert kg(["start", "--no-editor"], env).returncode == 0
        pid = _health(env)["pid"]
        stop = kg(["stop"], other)
        assert stop.returncode == 1 and "not stopping it: the server at" in stop.stderr, stop.stdout + stop.stderr
        start = kg(["start", "--no-editor"], other)
        # One message: it said "already running" on stdout, and on stderr that the server was another store's.
        assert start.returncode == 1 and start.stdout == "", start.stdout
        assert start.stderr.startswith(f"kg: not started: the server at http://127.0.0.1:{env['KG_HTTP_PORT']} "
                                       f"(pid {pid}) serves {env['KG_HOME']}, not {other['KG_HOME']}"), start.stderr
        assert len(start.stderr.splitlines()) == 1 and "already running" not in start.stderr
        copy = tmp_path / "copied-store"
        shutil.copytree(env["KG_HOME"], copy)
        copied = dict(env, KG_HOME=str(copy), KG_HTTP_PORT=str(free_port()))
        stop = kg(["stop"], copied)
        assert stop.returncode == 0 and "not running" in stop.stdout, stop.stdout + stop.stderr
        assert _health(env)["pid"] == pid, "the original store's server still runs"
    finally:
        kg(["stop"], env)


def test_a_folder_where_the_pid_file_goes_leaves_the_server_serving_and_stoppable(env, tmp_path):
    # `kg start` said "serving", then the server exited: unlinking the folder failed inside the except.
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "server.pid").mkdir()
    try:
        assert kg(["start", "--no-editor"], env).returncode == 0
        assert _health(env) is not None
        assert kg(["status"], env).returncode == 0
    finally:
        stop = kg(["stop"], env)
    assert stop.returncode == 0 and "stopped" in stop.stdout, stop.stdout + stop.stderr
    assert _health(env) is None


def test_setup_and_doctor_with_a_store_path_that_is_not_utf8_say_so_in_one_line(env, tmp_path):
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/bad\xff\xfedir")
    for command in (["setup", "--plan"], ["doctor"]):
        out = kg(command, dict(env, KG_HOME=odd))
        assert out.returncode == 2 and "(KG_HOME) is not valid UTF-8" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_status_names_a_server_that_holds_the_store_but_does_not_answer(env):
    # A stopped (SIGSTOP) server was called "a program that is not the kg server".
    assert kg(["start", "--no-editor"], env).returncode == 0
    pid = _health(env)["pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        out = kg(["status"], env)
        took = time.monotonic() - began
        assert out.returncode == 3 and f"(pid {pid}) is stopped (SIGSTOP)" in out.stdout, out.stdout
        assert f"`kill -CONT {pid}` resumes it, `kill -9 {pid}` ends it" in out.stdout, out.stdout
        assert "not the kg server" not in out.stdout
        assert took < 10, f"status waited {took:.1f} s on a hung server (it took 15 s before a 3 s /health check)"
        doctor = kg(["doctor"], env)
        assert doctor.returncode == 1 and "not the kg server" not in doctor.stdout, doctor.stdout
        assert f"FAIL  port: 127.0.0.1:{env['KG_HTTP_PORT']}: the port is held by a kg server (pid {pid}) that does " \
            "not answer /health within 3 s: it is hung" in doctor.stdout, doctor.stdout
        assert f"fix: kill {pid} (or kg stop with its KG_HOME), then kg start" in doctor.stdout
        # Without the pid file (another store's hung server, say): the process holding the port is named.
        (Path(env["KG_HOME"]) / "server.pid").rename(Path(env["KG_HOME"]) / "server.pid.aside")
        out = kg(["status"], env)
        assert out.returncode == 3 and f"held by a kg server (pid {pid}) that does not answer /health within 3 s: " \
            f"it is hung; kill {pid}" in out.stdout, out.stdout
    finally:
        os.kill(pid, signal.SIGCONT)
        kg(["stop"], env)


def test_stop_while_a_start_brings_the_server_up_waits_for_it_and_stops_it(env, tmp_path):
    # `kg stop` said "not running" while a `kg start` was bringing one up, and the server came up after it.
    import fcntl

    assert kg(["start", "--no-editor"], env).returncode == 0
    assert kg(["stop"], env).returncode == 0
    lock = tmp_path / "store" / "start.lock"

    def start_holds_the_lock() -> bool:
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    starting = subprocess.Popen([KG, "start", "--no-editor"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(start_holds_the_lock, 30, "the start to take its turn")
        stop = kg(["stop"], env)
        assert stop.returncode == 0 and "stopped" in stop.stdout, stop.stdout + stop.stderr
        starting.communicate(timeout=60)
        assert _health(env) is None
    finally:
        if starting.poll() is None:  # its server is up once it returns: the stop below then finds it
            starting.communicate(timeout=60)
        kg(["stop"], env)


def test_a_pid_file_of_an_older_kg_finds_the_server_on_another_port_through_proc(env, tmp_path):
    """An older kg wrote the pid alone: `kg start` on another port waited 10 s for that server to stop and
    failed; the ports it listens on are read from /proc."""
    store = tmp_path / "store"
    assert kg(["start"], env).returncode == 0
    try:
        pid = _health(env)["pid"]
        (store / "server.pid").write_text(str(pid))
        elsewhere = free_port()
        start = kg(["start"], dict(env, KG_HTTP_PORT=str(elsewhere)))
        assert start.returncode == 1 and start.stdout == "", start.stdout
        assert start.stderr.startswith(f"kg: the server of {store} runs at http://127.0.0.1:{env['KG_HTTP_PORT']} "
                                       f"(pid {pid}), not at http://127.0.0.1:{elsewhere}"), start.stderr
        assert _health(env)["pid"] == pid
    finally:
        kg(["stop"], env)


def test_uninstall_with_a_comment_in_geminis_settings_cuts_only_kgs_entries(env, tmp_path):
    """Gemini reads its settings.json with comments: uninstall refused to read it, yet removed the plugin
    files its hooks still pointed at."""
    settings = tmp_path / "home" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{\n  "theme": "dark"\n}\n')
    setup = kg(["setup", "--only", "gemini", "--yes"], env)
    assert setup.returncode == 0, setup.stdout
    wired = settings.read_text()
    plugin = Path(json.loads(wired)["hooks"]["SessionStart"][0]["hooks"][0]["command"].split()[1])
    assert plugin.is_file()
    settings.write_text(wired.replace('"theme": "dark"', '"theme": "dark" /* my theme */', 1)
                        .replace("{", "{\n  // my settings", 1))
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 0, out.stdout
    text = settings.read_text()
    assert "// my settings" in text and "/* my theme */" in text, text
    assert "kg-memory" not in text and '"mcpServers"' not in text and '"theme": "dark"' in text
    assert not plugin.exists()


def test_an_uninstall_that_could_not_clean_an_agents_settings_keeps_the_plugin_its_hooks_run(env, tmp_path):
    settings = tmp_path / "home" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text("{}\n")
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    plugin = Path(json.loads(settings.read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"].split()[1])
    settings.write_text(settings.read_text() + "\n}")  # torn: no Gemini reads it either
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 1 and f"FAILED: {settings}: not valid JSON" in out.stdout, out.stdout
    assert plugin.is_file() and (tmp_path / "store" / "setup" / "record.json").is_file()
    settings.write_text(settings.read_text()[:-2])
    assert kg(["uninstall", "--yes"], env).returncode == 0
    assert not plugin.exists() and "kg-memory" not in settings.read_text()


def test_uninstall_with_claudes_settings_unreadable_keeps_the_record_and_says_what_to_fix(env, tmp_path):
    """Claude Code's CLI, given a torn settings.json, answers "not found": uninstall took that as undone by
    hand, dropped its record, and kg's entries stayed in the file for good."""
    from kg_actors.setup.files import Record

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "claude-calls"
    claude = bin_dir / "claude"  # stands in for Claude Code's CLI: what it was asked, and "not found"
    claude.write_text(f'#!/bin/sh\necho "$*" >> {calls}\necho "Plugin kg-memory not found" >&2\nexit 1\n')
    claude.chmod(0o755)
    settings = tmp_path / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"enabledPlugins": {"kg-memory@kg-local": true}, "extraKnownMarketplaces": {"kg-local":')
    record_path = tmp_path / "store" / "setup" / "record.json"
    record_path.parent.mkdir(parents=True)
    record = Record.load(record_path)
    record.mark("claude", installed=True, marketplace=True)
    torn = settings.read_bytes()
    settings.write_text("{}")
    record.before_change(settings)  # setup wrote the file, then it was torn: "changed since", yet left alone
    settings.write_text('{"enabledPlugins": {"kg-memory@kg-local": true}}')
    record.after_change(settings)
    settings.write_bytes(torn)
    record.save()
    env = dict(env, PATH=f"{bin_dir}:{env['PATH']}")
    out = kg(["uninstall", "--yes"], env)
    assert out.returncode == 1, out.stdout
    assert settings.read_bytes() == torn
    assert "only kg's entries were taken out" not in out.stdout, out.stdout  # nothing was: it is not read
    assert f"Claude Code: PROBLEM: {settings}: not valid JSON" in out.stdout, out.stdout
    assert "fix or move that file, then run kg uninstall again (the setup record is kept)" in out.stdout
    assert Record.load(record_path).done("claude") == {"installed": True, "marketplace": True}
    assert not calls.exists(), "Claude Code's CLI is not asked to undo what its settings cannot show"
    assert "kg uninstall: done" not in out.stdout
    assert out.stdout.endswith(f"kg uninstall: not finished: the setup record ({record_path}) and the plugin folder "
                               "are kept; run kg uninstall again once what failed above is fixed\n"), out.stdout


def _agent_files(tmp_path) -> tuple[Path, Path]:
    desktop = tmp_path / "home" / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    desktop.write_text('{"mcpServers": {}}\n')
    gemini = tmp_path / "home" / ".gemini" / "settings.json"
    gemini.parent.mkdir(parents=True)
    gemini.write_text('{\n  // mine\n  "theme": "dark"\n}\n')
    return desktop, gemini


def test_the_plan_prints_the_gemini_entries_setup_tells_a_user_with_comments_to_add_by_hand(env, tmp_path):
    _desktop, gemini = _agent_files(tmp_path)
    setup = kg(["setup", "--only", "gemini", "--yes"], env)
    assert "`kg setup --plan --only gemini` prints them" in setup.stdout, setup.stdout
    plan = kg(["setup", "--plan", "--only", "gemini"], env).stdout
    said = f"  (the entries to add to {gemini} by hand:)\n"
    assert said in plan, plan
    entries = json.loads(plan.split(said, 1)[1].split("(plan only", 1)[0])
    gemini.write_text('{\n  "theme": "dark"\n}\n')  # without the comment, setup writes them itself
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    written = json.loads(gemini.read_text())
    assert written["mcpServers"]["kg"] == entries["mcpServers"]["kg"]
    assert all(written["hooks"][event] == groups for event, groups in entries["hooks"].items())


def test_doctor_quotes_why_a_setup_step_failed_instead_of_calling_it_left_out(env, tmp_path):
    desktop, gemini = _agent_files(tmp_path)
    setup = kg(["setup", "--only", "desktop,gemini", "--yes"], env)
    assert setup.returncode == 1 and f"Gemini CLI: FAILED: {gemini}: it holds comments" in setup.stdout, setup.stdout
    doctor = kg(["doctor"], env)
    # Foreseen by the plan doctor reuses (as --plan names it a PROBLEM): the cause and its fix, not "left out".
    assert f"FAIL  Gemini CLI: {gemini}: it holds comments" in doctor.stdout, doctor.stdout
    assert f"fix: add kg's entries to {gemini} by hand" in doctor.stdout
    assert "left it out" not in doctor.stdout and "ok    Claude Desktop" in doctor.stdout
    gemini.write_text('{\n  "theme": "dark"\n}\n')  # fixed, and set up again: the failure is over
    assert kg(["setup", "--only", "gemini", "--yes"], env).returncode == 0
    assert "ok    Gemini CLI" in kg(["doctor"], env).stdout


def test_doctor_says_what_changed_in_an_agent_setup_wired(env, tmp_path):
    desktop, gemini = _agent_files(tmp_path)
    gemini.write_text('{"theme": "dark"}\n')
    assert kg(["setup", "--only", "desktop,gemini", "--yes"], env).returncode == 0
    desktop.write_text('{"mcpServers": {}}\n')
    settings = json.loads(gemini.read_text())
    del settings["hooks"]["BeforeAgent"]
    gemini.write_text(json.dumps(settings))
    doctor = kg(["doctor"], env)
    assert f"FAIL  Claude Desktop: wired by kg setup, changed since: mcpServers.kg is gone from {desktop}" \
        in doctor.stdout, doctor.stdout
    assert f"FAIL  Gemini CLI: wired by kg setup, changed since: kg's hooks or MCP server in {gemini} were " \
        "removed or changed" in doctor.stdout
    assert "not wired" not in doctor.stdout and "fix: kg setup --only desktop" in doctor.stdout


def test_serve_on_port_0_logs_the_ports_it_bound(env):
    proc = subprocess.Popen([KG, "serve", "--port", "0", "--editor-port", "0"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        said = []
        for line in proc.stderr:  # the serve log goes to stderr; read until both lines are in
            said.append(line)
            if sum(("serving" in s) + ("visual editor on" in s) for s in said) == 2:
                break
        log = "".join(said)
        assert "visual editor on http://127.0.0.1:" in log and "serving" in log, log
        assert "127.0.0.1:0\n" not in log and "127.0.0.1:0/" not in log, log
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_start_rotates_a_server_log_past_its_size_and_kg_logs_shows_the_lines_across_both(env, tmp_path):
    from kg_actors.core import constants as C
    store = tmp_path / "store"
    store.mkdir()
    old = b"".join(b"2026-01-01 00:00:00,000 INFO kg_actors.runtime: line %d of a long run\n" % i
                   for i in range(C.SERVER_LOG_MAX_BYTES // 50))
    (store / "server.log").write_bytes(old)
    try:
        start = kg(["start"], env)
        assert start.returncode == 0, start.stderr
        assert (store / "server.log.prev").read_bytes() == old  # the long run's lines, kept once
        assert (store / "server.log").stat().st_size < 1_000_000 and f"serving {store}" in (store / "server.log").read_text()
        recent = kg(["logs", "-n", "20"], env)
        assert recent.returncode == 0 and f"serving {store}" in recent.stdout
        across = kg(["logs", "-n", "1000"], env).stdout.splitlines()  # more than this run wrote
        first_new = (store / "server.log").read_text().splitlines()[0]  # appended to only: it stays first
        at = across.index(first_new)
        assert len(across) == 1000 and at >= 2
        assert across[at - 2:at] == [line.decode() for line in old.splitlines()[-2:]]
    finally:
        kg(["stop"], env)
