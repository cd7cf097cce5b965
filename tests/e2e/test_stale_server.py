"""A server started before kg was upgraded (a pull and a reinstall keep the version) or from another install:
`kg doctor` and `kg status` name it, with the restart that fixes it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from e2e_helpers import kg
from git_helpers import git_env

import kg_actors
from kg_actors.build import build_id, stale_said


def test_doctor_and_status_name_a_server_running_other_code_than_the_installed_kg(server_factory):
    srv = server_factory(start=False)
    # The server runs `python -m kg_actors` in its HOME: a copy there, one file changed, is the code before an upgrade.
    copy = srv.home / "kg_actors"
    shutil.copytree(Path(kg_actors.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "build.py").write_text((copy / "build.py").read_text() + "\n# the code before an upgrade\n")
    srv.start("--no-editor")
    health = srv.health()
    assert health is not None and health["version"] == kg_actors.__version__ and health["build"] != build_id()
    status = kg(["status"], srv.env)
    assert status.returncode == 1, status.stdout + status.stderr
    assert "runs other code than the installed kg" in status.stdout and "fix: kg stop && kg start" in status.stdout
    assert "started before kg was upgraded or reinstalled" in status.stdout and "another install" not in status.stdout
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and f"FAIL  server: the server (pid {health['pid']}) runs other code" in doctor.stdout
    start = kg(["start"], srv.env)  # it is running: exit 0, and the restart it needs is said
    assert start.returncode == 0 and f"already running at {srv.url}" in start.stdout, start.stdout + start.stderr
    assert "runs other code than the installed kg" in start.stdout and "kg stop && kg start" in start.stdout, start.stdout
    plan = kg(["setup", "--plan"], srv.env)  # reads only, and says the restart the setup would
    assert "restart it to serve the installed kg: kg stop && kg start" in plan.stdout, plan.stdout
    setup = kg(["setup", "--yes"], srv.env)  # the upgrade's own step: the agents now run the installed kg
    assert "restart it to serve the installed kg: kg stop && kg start" in setup.stdout, setup.stdout
    assert setup.stdout.count("restart it") == 1, setup.stdout


def test_a_server_whose_install_is_gone_or_that_names_no_build_is_named_so_and_one_of_this_build_is_not_judged():
    mine = build_id()
    gone = {"build": "0" * 16, "python": "/nowhere/.venv/bin/python3", "pid": 7}
    assert "runs from an install that is gone (/nowhere/.venv/bin/python3 no longer exists)" in str(stale_said(gone, mine))
    assert stale_said({"build": mine, "python": sys.executable}, mine) is None
    # A kg from before /health named its build: the installed kg names its own, so that server runs older code.
    older = {"version": "0.1.0", "storage": "/home/u/.knowledge-graph", "loaded_graphs": ["user"], "pid": 7}
    said = str(stale_said(older, mine))
    assert "the server (pid 7) runs an older kg than the installed one" in said, said
    assert "restart" not in said, said  # each caller says the restart its own way, once
    assert stale_said({"version": "0.1.0"}, mine) is None  # not kg's answer: another program's, judged elsewhere
    # Other code: from another install when its Python is another, else this install's, upgraded since.
    other = str(stale_said({"build": "0" * 16, "python": str(Path(sys.executable).parent), "pid": 7}, mine))
    assert f"from another install ({Path(sys.executable).parent})" in other and "upgraded" not in other, other
    same = str(stale_said({"build": "0" * 16, "python": sys.executable, "pid": 7}, mine))
    assert "started before kg was upgraded or reinstalled" in same and "another install" not in same, same
    sibling = str(Path(sys.executable).with_name("python"))  # the venv's `python` beside its `python3`: one install
    same = str(stale_said({"build": "0" * 16, "python": sibling, "pid": 7}, mine))
    assert "another install" not in same, same


def test_a_commit_on_a_server_whose_python_was_removed_says_so_and_how_to_restart(server_factory, tmp_path):
    import site
    import sysconfig

    # The server's Python through a link that then goes, as an old venv deleted after an upgrade goes.
    python = tmp_path / "old-venv" / "python3"
    python.parent.mkdir()
    python.symlink_to(sys.executable)
    paths = [sysconfig.get_paths()["purelib"], *site.getsitepackages(), str(Path(kg_actors.__file__).parent.parent)]
    srv = server_factory(start=False, extra_env={"PYTHONPATH": ":".join(paths), **git_env(tmp_path)})
    srv.python = str(python)
    assert kg(["init-git"], srv.env).returncode == 0
    srv.start("--no-editor")
    assert srv.health()["python"] == str(python)
    python.unlink()
    done = kg(["commit"], srv.env)
    assert done.returncode != 0 and "internal error" not in done.stdout + done.stderr
    assert f"this server's Python ({python}) is gone" in done.stdout + done.stderr, done.stdout + done.stderr
    assert "kg stop && kg start" in done.stdout + done.stderr
    doctor = kg(["doctor"], srv.env)
    assert f"runs from an install that is gone ({python} no longer exists)" in doctor.stdout, doctor.stdout


def test_code_installed_under_a_running_server_is_not_mixed_into_what_it_loads_later(server_factory):
    import httpx

    srv = server_factory(start=False)
    copy = srv.home / "kg_actors"  # `python -m kg_actors` in HOME runs this copy: the installed package
    shutil.copytree(Path(kg_actors.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    srv.start()
    # An upgrade in place: the editor's new code reads what the modules the server loaded lack.
    server_py = copy / "editor" / "server.py"
    server_py.write_text(server_py.read_text().replace("websocket.PING_SECONDS", "websocket.PING_SECONDS_OF_A_NEWER_KG"))
    shutil.rmtree(copy / "editor" / "__pycache__", ignore_errors=True)
    # The editor's first connection loads its web side now, after the install.
    got = httpx.get(f"http://127.0.0.1:{srv.editor_port}/health", timeout=60)
    assert got.status_code == 200 and got.json()["editor"]["state"] == "up", got.text
    assert srv.health()["editor"]["state"] == "up"


def test_a_build_changes_with_the_code_and_the_editors_page_and_not_with_cached_bytecode(tmp_path):
    from kg_actors.build import build_of

    package = tmp_path / "kg_actors"
    (package / "editor" / "static").mkdir(parents=True)
    (package / "__pycache__").mkdir()
    (package / "server.py").write_text("x = 1\n")
    (package / "editor" / "static" / "app.js").write_text("let a = 1;\n")
    first = build_of(package)
    (package / "__pycache__" / "server.cpython-311.pyc").write_bytes(b"\0")
    (package / "editor" / "static" / ".app.js.swp").write_bytes(b"\0")  # an editor's leftovers: no change
    (package / "editor" / "static" / "app.js~").write_text("let a = 0;\n")
    assert build_of(package) == first
    (package / "editor" / "static" / "app.js").write_text("let a = 2;\n")  # an upgrade that changes only the page
    assert build_of(package) != first
    changed = build_of(package)
    (package / "server.py").write_text("x = 2\n")
    assert build_of(package) != changed
