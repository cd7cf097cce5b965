"""The editor's page and scripts installed under a running server (an upgrade in place): the server does not
serve them against its older API; its page says to restart it."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import httpx
from e2e_helpers import kg, wait_until

import kg_actors


def test_an_editor_page_installed_under_a_running_server_is_not_served_against_its_older_api(server_factory):
    srv = server_factory(start=False)
    copy = srv.home / "kg_actors"  # `python -m kg_actors` in HOME runs this copy: the installed package
    shutil.copytree(Path(kg_actors.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    srv.start()
    # An upgrade in place before the editor's first connection: a new page and script beside the old API.
    index = copy / "editor" / "static" / "index.html"
    index.write_text(index.read_text().replace("<title>", "<title>NEWER BUILD "))
    script = copy / "editor" / "static" / "js" / "gitview.js"
    script.write_text(script.read_text() + "\n// NEWER-BUILD-SCRIPT\n")
    base = f"http://127.0.0.1:{srv.editor_port}"
    page = httpx.get(f"{base}/", timeout=60)
    assert "NEWER BUILD" not in page.text, page.text[:300]
    assert page.status_code == 503 and "kg stop &amp;&amp; kg start" in page.text, page.text
    got = httpx.get(f"{base}/static/js/gitview.js", timeout=60)
    assert got.status_code == 503 and "NEWER-BUILD-SCRIPT" not in got.text
    # The API the page uses still answers: only the mixed page is refused.
    assert httpx.get(f"{base}/health", timeout=60).json()["editor"]["state"] == "up"


def test_an_editor_that_did_not_load_is_fixed_by_a_restart_not_by_another_port(server_factory):
    srv = server_factory(start=False)
    copy = srv.home / "kg_actors"  # `python -m kg_actors` in HOME runs this copy: the installed package
    shutil.copytree(Path(kg_actors.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # Its web stack gone from the install (as a removed hypercorn): the editor's module does not load.
    server_py = copy / "editor" / "server.py"
    server_py.write_text("raise ModuleNotFoundError(\"No module named 'hypercorn'\")\n")
    srv.start()
    with contextlib.suppress(httpx.HTTPError):  # the first connection loads the editor: it fails, the port is let go
        httpx.get(f"http://127.0.0.1:{srv.editor_port}/", timeout=60)
    # The load runs in a thread of the server: wait (bounded) for it to say how it ended.
    state = wait_until(lambda: (s := srv.health()["editor"]["state"]) != "up" and s, 60, "the editor's load to end")
    assert state.startswith("off: the editor did not load (ModuleNotFoundError"), state
    status = kg(["status"], srv.env)
    said = next(line for line in status.stdout.splitlines() if "the visual editor is off" in line)
    assert "the editor did not load" in said and "--editor-port" not in said and "kg stop && kg start" in said, said
    doctor = kg(["doctor"], srv.env)
    line = next(i for i, text in enumerate(doctor.stdout.splitlines()) if "editor: off: the editor did not load" in text)
    fix = doctor.stdout.splitlines()[line + 1]
    assert "fix:" in fix and "--editor-port" not in fix and "kg stop && kg start" in fix, doctor.stdout


def test_the_editor_fix_is_another_port_only_for_a_busy_port():
    from kg_actors.server_probe import editor_fix

    assert "--editor-port PORT" in editor_fix("off: port 8766 is busy (Address already in use)")
    failed = editor_fix("off: the editor failed (AttributeError: module 'x' has no attribute 'y')")
    assert "--editor-port" not in failed and failed.startswith("kg stop && kg start")
