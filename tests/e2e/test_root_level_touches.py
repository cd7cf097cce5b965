"""Touches naming a root-level file with no folder and no extension (`Dockerfile`, `Makefile`, `LICENSE`):
the real hook scripts against a real `kg serve`.

Spec 000 "Recall at the file": relative, ~, absolute and path:lines forms all match the file they
name; a bare `Dockerfile` is as relative as `build/Dockerfile`, so a read of <project>/Dockerfile
brings the lesson touching it, and recall before `make deploy` and the capture nudge agree.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hook_helpers import Harness, node, project_graph, run_hook, user_graph

from kg_actors.testing import ServerProcess, write_store

ROOT_FILES = ("Dockerfile", "Makefile", "LICENSE", "Procfile", "setup.cfg")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("root-touches"))
    root = Path(server.project("bare-proj"))
    for name in ROOT_FILES:
        (root / name).write_text(f"# {name}\n")
    # Archived: not preloaded, so a recall has them to bring (beside one in view, or the load refills them).
    write_store(server.store, user_graph([node("prefer-small-commits", "commit one logical change at a time")]), {
        "bare-proj": project_graph(str(root), [
            node("docker-cache-bust-order", "copy requirements before the sources, or every build busts the cache",
                 touches=["Dockerfile"], _archived=True),
            node("license-header-years", "the header's years are updated by the release job, never by hand",
                 touches=["LICENSE:1-3 (header)"], _archived=True),
            node("deploy-target-kube-context", "the deploy target reads KUBE_CONTEXT and refuses prod without it",
                 touches=["Makefile:12-20 (deploy target)"], _archived=True),
            node("setup-cfg-lint-rules", "flake8 settings live here, not in tox.ini", touches=["setup.cfg"],
                 _archived=True),
            node("changelog-kept-tidy", "a lesson in view: the changelog is kept tidy"),  # else the load refills
        ])})
    server.start()
    yield server
    server.kill()


@pytest.mark.parametrize("name, node_id", [
    ("Dockerfile", "docker-cache-bust-order"),
    ("LICENSE", "license-header-years"),
    ("Makefile", "deploy-target-kube-context"),
    ("setup.cfg", "setup-cfg-lint-rules"),  # with an extension: matched before, the bare names now alike
])
def test_a_read_of_a_root_level_file_brings_the_lesson_touching_it_by_bare_name(srv, name, node_id):
    h = Harness(srv, srv.project("bare-proj"))
    h.start()
    run = h.read(f"{h.cwd}/{name}")
    assert run.context.startswith(f"KG memory on {name}:"), run.out
    assert f"- [project] {node_id}: " in run.context


def test_a_make_target_lesson_touching_the_makefile_arrives_before_the_command(srv):
    h = Harness(srv, srv.project("bare-proj"))
    h.start()
    payload = {**h._base("PreToolUse"), "tool_name": "Bash", "tool_input": {"command": "make deploy ENV=prod"},
               "tool_use_id": f"toolu_{time.monotonic_ns()}"}
    run = run_hook("pre_tool", payload, h.env)
    assert "- [project] deploy-target-kube-context: " in run.context, run.out


def test_a_root_level_file_a_lesson_names_earns_no_capture_nudge(srv):
    cwd = srv.project("bare-proj")
    first, second = Harness(srv, cwd), Harness(srv, cwd)
    for h in (first, second):
        h.start()
    # Nothing names the Procfile: its read in a second session is a gap worth a nudge (the check can fail).
    first.read(f"{cwd}/Procfile")
    assert second.read(f"{cwd}/Procfile").context.startswith("KG capture: 'Procfile'")
    third, fourth = Harness(srv, cwd), Harness(srv, cwd)  # fresh sessions: the nudge throttle is per session
    for h in (third, fourth):
        h.start()
    third.read(f"{cwd}/Dockerfile")
    assert "KG capture" not in fourth.read(f"{cwd}/Dockerfile").out
