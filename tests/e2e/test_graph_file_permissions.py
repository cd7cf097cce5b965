"""A graph file the server may not read (a permission, not damage): named with the fix, left where it is,
its previous save NOT served in its place, writes to it refused naming the cause while the other graphs
serve; once it reads again its next use loads it whole, with no restart.

A real `kg serve` run as another user: tests run as root, which reads a file of mode 000, so the server
is run as `nobody` (setpriv) over a store it owns, and so are its clients (the server refuses another
account's requests); a user other than root needs no setpriv.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from e2e_helpers import kg
from rpc_helpers import session_id

from kg_actors.testing import ServerProcess

NOBODY = 65534
T = time.time() - 86_400
ROOT = os.geteuid() == 0
pytestmark = pytest.mark.skipif(ROOT and not shutil.which("setpriv"), reason="root reads every file; no setpriv")


def _graph_json(project_path: str | None, *ids: str) -> str:
    return json.dumps({"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids},
                       "edges": {}, "_meta": {"versions": {}, "project_path": project_path}})


@pytest.fixture
def other_user_server():
    """A ServerProcess whose `kg serve` runs as a user a mode-000 file refuses, in a folder it owns."""
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


class _Client:
    """The server's clients, run as its user: MCP tool calls, /health and `kg status`."""

    def __init__(self, srv: ServerProcess) -> None:
        self.srv = srv

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([self.srv.python, *args], env=self.srv.env, capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL, cwd="/")

    def _py(self, code: str):
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
        return _Client(self).health()


def _own(srv: ServerProcess) -> None:
    if ROOT:
        for path in [srv.home.parent, *srv.home.parent.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)


def test_a_graph_file_the_server_may_not_read_is_named_waited_for_and_loaded_whole_once_it_reads(
        other_user_server):
    srv = other_user_server
    cwd = srv.project("pp")
    folder = srv.store / "projects" / "pp"
    folder.mkdir(parents=True)
    (srv.store / "user.json").write_text(_graph_json(None, "user-lesson-node"))
    graph = folder / "graph.json"
    graph.write_text(_graph_json(cwd, "pp-first-lesson", "pp-second-lesson"))
    (folder / "graph.prev").write_text(_graph_json(cwd, "pp-first-lesson"))  # the save before: lacks the second
    _own(srv)
    graph.chmod(0)

    srv.start("--no-editor")
    conn = _Client(srv)
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "user-lesson-node" in text, text
    assert "The project memory could not be loaded" in text and "Permission denied (EACCES)" in text, text
    assert f"chmod u+rw {graph}" in text and "pp-first-lesson" not in text, text  # `.prev` not served
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="while-refused", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN") and "Permission denied" in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="user-write-works", gist="kept")
    assert not err, text
    trouble = conn.health()["graphs_in_trouble"]["project:pp"]
    assert trouble["kind"] == "unavailable" and "EACCES" in trouble["why"], trouble
    status = conn.run("status")
    assert f"project:pp: {graph} may not be read" in status.stdout, status.stdout
    assert f"fix: `chmod u+rw {graph}`" in status.stdout and "put a good copy back" not in status.stdout, status.stdout
    doctor = conn.run("doctor")
    assert doctor.returncode == 1 and "FAIL  graph project:pp" in doctor.stdout, doctor.stdout
    assert f"`chmod u+rw {graph}`" in doctor.stdout and "put a good copy back" not in doctor.stdout, doctor.stdout
    assert sorted(os.listdir(folder)) == ["graph.json", "graph.prev"], "left where it is, nothing set aside"

    graph.chmod(0o644)  # the permission fixed: the next use loads the file whole, no restart
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "pp-second-lesson" in text and "could not be loaded" not in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="after-the-fix", gist="kept")
    assert not err, text
    assert "project:pp" not in conn.health()["graphs_in_trouble"]
    assert srv.stop() == 0
    saved = json.loads(graph.read_text())["nodes"]
    graph.chmod(0)  # with the server down, doctor reads the file as the next start would
    doctor = conn.run("doctor")
    assert doctor.returncode == 1 and "FAIL  graph project:pp" in doctor.stdout, doctor.stdout
    assert "Permission denied (EACCES)" in doctor.stdout and f"`chmod u+rw {graph}`" in doctor.stdout, doctor.stdout
    assert "the next start serves graph.prev" not in doctor.stdout, doctor.stdout
    graph.chmod(0o644)
    assert {"pp-first-lesson", "pp-second-lesson", "after-the-fix"} <= set(saved), sorted(saved)
    assert "Traceback" not in srv.log.read_text()


def test_doctor_names_a_file_an_older_kg_set_aside_that_reads_and_its_fix_merges_it_back(server_factory):
    """An older kg took a file it was refused for corrupt: moved aside as `.unreadable`, `.prev` served and saved
    over. The file reads now: doctor names it, counts what the graph lacks, and its fix merges it back whole."""
    srv = server_factory(start=False)
    folder = srv.store / "projects" / "pp"
    folder.mkdir(parents=True)
    cwd = srv.project("pp")
    (srv.store / "user.json").write_text(_graph_json(None, "user-lesson-node"))
    graph = folder / "graph.json"
    graph.write_text(_graph_json(cwd, "pp-first-lesson", "pp-written-since"))  # `.prev` served, then a write
    aside = folder / "graph.json.unreadable"
    aside.write_text(_graph_json(cwd, "pp-first-lesson", "pp-lost-lesson"))
    doctor = kg(["doctor"], srv.env)
    line = next((x for x in doctor.stdout.splitlines() if str(aside) in x and "reads as a graph" in x), None)
    assert line is not None and "1 of its node(s) are not in" in line, doctor.stdout
    fix = doctor.stdout.split(line, 1)[1].splitlines()[1]
    assert fix.strip().startswith("fix: `kg stop`, then `kg merge-driver /dev/null"), doctor.stdout
    merge = fix.split("`")[3].split()  # the command as said
    run = kg(merge[1:], srv.env)
    assert run.returncode == 0, run.stderr
    nodes = json.loads(graph.read_text())["nodes"]
    assert {"pp-first-lesson", "pp-written-since", "pp-lost-lesson"} <= set(nodes), sorted(nodes)
