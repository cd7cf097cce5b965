"""`kg sync` with a remote whose URL carries a password: git gets it from an askpass script, never on its
command line (every local account reads a process's arguments in `ps` and /proc/PID/cmdline).

The remote is a real git smart-HTTP server (git http-backend behind basic auth); git itself runs through a
wrapper (`KG_GIT`) that records each command line it was given.
"""

from __future__ import annotations

import base64
import os
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from e2e_helpers import Session, kg
from git_helpers import committed_graph, git_env
from mcp import Client
from test_git_sync import _machine, _user

USER, PASSWORD = "kguser", "p@ss:w0rd S3cretPW"
QUOTED = "p%40ss%3Aw0rd%20S3cretPW"  # as the URL spells it


def _http_remote(root: Path) -> ThreadingHTTPServer:
    """A smart-HTTP git server for the repositories in `root`, answering only USER with PASSWORD."""
    expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            if self.headers.get("Authorization") != expected:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="kg"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            path, _, query = self.path.partition("?")
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            env = {**os.environ, "GIT_PROJECT_ROOT": str(root), "GIT_HTTP_EXPORT_ALL": "1", "PATH_INFO": path,
                   "QUERY_STRING": query, "REQUEST_METHOD": self.command, "REMOTE_USER": USER,
                   "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body))}
            if self.headers.get("Git-Protocol"):
                env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
            out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, timeout=60).stdout
            head, _, rest = out.partition(b"\r\n\r\n")
            status, headers = 200, []
            for line in head.decode().split("\r\n"):
                name, _, value = line.partition(": ")
                if name.lower() == "status":
                    status = int(value.split()[0])
                elif name:
                    headers.append((name, value))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(rest)))
            self.end_headers()
            self.wfile.write(rest)

        do_GET = do_POST = _serve

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _recording_git(tmp_path: Path) -> tuple[Path, Path]:
    """A git that writes each command line it is given (one argument a line) to a log, then runs git."""
    log = tmp_path / "git-argv.log"
    wrapper = tmp_path / "git-recording"
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\n" "--- $$" "$@" >> "{log}"\nexec git "$@"\n')
    wrapper.chmod(0o755)
    return wrapper, log


async def test_a_remotes_password_reaches_git_by_askpass_and_never_its_command_line(tmp_path):
    repos = tmp_path / "served"
    repos.mkdir()
    env = git_env(tmp_path, "x")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(repos / "mem.git")], check=True, env=env)
    subprocess.run(["git", "-C", str(repos / "mem.git"), "config", "http.receivepack", "true"], check=True, env=env)
    server = _http_remote(repos)
    url = f"http://{USER}:{QUOTED}@127.0.0.1:{server.server_address[1]}/mem.git"
    wrapper, log = _recording_git(tmp_path)
    scratch = tmp_path / "tmp"  # where the askpass script is made: empty again after each git call
    scratch.mkdir()
    a = _machine(tmp_path, "machine-a", _user("first-lesson"))
    a.env.update(KG_GIT=str(wrapper), TMPDIR=str(scratch))
    a.start()
    try:
        out = kg(["sync", url, "--remember"], a.env)
        assert out.returncode == 0, out.stdout + out.stderr
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="second-lesson", gist="written after the first sync")
        out = kg(["sync"], a.env)  # the remembered remote, through the server
        assert out.returncode == 0, out.stdout + out.stderr
        a.stop()
        out = kg(["sync"], a.env)  # no server: the offline path
        assert out.returncode == 0, out.stdout + out.stderr
        said = out.stdout + out.stderr
        assert PASSWORD not in said and QUOTED not in said and f"{USER}:***@" in said, said
    finally:
        a.stop()
        server.shutdown()
    # The password reached the server (the pushes went through) ...
    assert {"first-lesson", "second-lesson"} <= set(committed_graph(repos / "mem.git", env=env)["nodes"])
    # ... and no git was ever given it, whole or as the URL spells it; the remote's URL was given without it.
    argv = log.read_text()
    assert "ls-remote" in argv and "push" in argv and "fetch" in argv, argv
    assert PASSWORD not in argv and QUOTED not in argv and "S3cretPW" not in argv
    assert f"http://{USER}@127.0.0.1:{server.server_address[1]}/mem.git" in argv
    assert list(scratch.iterdir()) == []
