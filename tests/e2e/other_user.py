"""A `kg serve` and its clients run as a user that a file of mode 000 refuses (tests run as root, which reads
every file): `nobody` through setpriv, over a folder it owns. A user other than root runs them as itself.
The server refuses another account's requests, so its clients (MCP calls, /health, `kg` commands) run as it too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kg_actors.testing import ServerProcess

NOBODY = 65534
ROOT = os.geteuid() == 0
needs_other_user = pytest.mark.skipif(ROOT and not shutil.which("setpriv"), reason="root reads every file; no setpriv")


@contextmanager
def other_user_server() -> Iterator[ServerProcess]:
    """A ServerProcess (not started) whose `kg serve` runs as that user, in a folder of /tmp it will own."""
    base = Path(tempfile.mkdtemp(prefix="kg-perm-", dir="/tmp"))
    base.chmod(0o755)
    python = None
    if ROOT:
        python = base / "python-as-nobody"
        python.write_text(f'#!/bin/sh\nexec setpriv --reuid={NOBODY} --regid={NOBODY} --clear-groups '
                          f'"{sys.executable}" "$@"\n')
        python.chmod(0o755)
    srv = _OtherUserServer(base / "srv", python=str(python) if python else None)
    try:
        yield srv
    finally:
        srv.kill()
        shutil.rmtree(base, ignore_errors=True)


class Client:
    """The server's clients, run as its user: MCP tool calls, /health and `kg status`."""

    def __init__(self, srv: ServerProcess) -> None:
        self.srv = srv

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([self.srv.python, *args], env=self.srv.env, capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL, cwd="/")

    def _py(self, code: str) -> Any:
        run = self._run("-c", f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); {code}")
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    def tool(self, tool: str, **arguments) -> tuple[str, bool]:
        text, err = self._py(f"from rpc_helpers import Conn; print(json.dumps(Conn({self.srv.port}, timeout=10)"
                             f".tool({tool!r}, **{arguments!r})))")
        return text, err

    def health(self) -> dict | None:
        return self._py(f"import urllib.request\ntry: print(urllib.request.urlopen('{self.srv.url}/health', "
                        "timeout=5).read().decode())\nexcept OSError: print('null')")

    def run(self, *command: str) -> subprocess.CompletedProcess:
        """A `kg` command."""
        return self._run("-m", "kg_actors", *command)


class _OtherUserServer(ServerProcess):
    def health(self) -> dict | None:  # asked as the server's user: it refuses another account's requests
        return Client(self).health()


_T = time.time() - 86_400  # the lessons' creation: a day ago


def graph_json(project_path: str | None, *ids: str) -> str:
    """A graph file of lessons `ids` (a project's when `project_path` is given), as these tests write them."""
    return json.dumps({"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": _T} for i in ids},
                       "edges": {}, "_meta": {"versions": {}, "project_path": project_path}})


def own(srv: ServerProcess) -> None:
    if ROOT:
        for path in [srv.home.parent, *srv.home.parent.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
