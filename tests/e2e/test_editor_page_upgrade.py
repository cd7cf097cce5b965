"""The editor's page and scripts installed under a running server (an upgrade in place): the server does not
serve them against its older API; its page says to restart it."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx

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
