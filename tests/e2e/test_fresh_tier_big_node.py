"""Spec 000 "Fresh tier" against a real `kg serve`: one node that alone costs more than the fresh share (30% of
the level's budget) is passed over, and the window goes on to the next newest nodes. It used to end there,
and the compaction that one long gist set off archived the lessons the session had just written."""

from __future__ import annotations

import time

import pytest
from e2e_helpers import Session, graph, reference_graph, start_server, wait_until
from mcp import Client

from kg_actors.core import constants as C
from kg_actors.core import render
from kg_actors.core.model import GraphData
from kg_actors.testing import write_store

NOW = time.time()
OLD = NOW - 60 * 86_400
OLD_IDS = [f"old-linked-lesson-{k}" for k in range(35)]
FRESH_IDS = [f"fresh-unlinked-lesson-{k}" for k in range(22)]
BIG_GIST = "Deploy runbook: " + "step: drain, migrate, flip, verify; " * 195


def _project(path: str) -> dict:
    nodes = [{"id": i, "gist": f"Old lesson {k}: " + "use monotonic clocks for deadlines; " * 7, "_created_ts": OLD + k}
             for k, i in enumerate(OLD_IDS)]
    nodes += [{"id": i, "gist": f"Fresh lesson {k}: " + "the parser rejects BOMs; " * 8, "_created_ts": NOW - 600 + k}
              for k, i in enumerate(FRESH_IDS)]
    edges = [(i, OLD_IDS[(k + d) % len(OLD_IDS)], "relates-to") for k, i in enumerate(OLD_IDS) for d in (1, 2, 3)]
    return reference_graph(nodes, edges, path)


def _charge(raw: dict) -> int:
    return render.charge(GraphData.from_json(raw, "project"))


@pytest.fixture
def srv(tmp_path):
    paths = {}

    def seed(s):
        paths["p"] = s.project("fresh-window")
        raw = _project(paths["p"])
        assert _charge(raw) <= C.MAX_CHARS_PER_LEVEL < _charge(raw) + len(BIG_GIST)  # the big one tips it over
        write_store(s.store, projects={"fresh-window": raw})

    server = start_server(tmp_path, before_start=seed)
    server.paths = paths
    yield server
    server.kill()


def _states(srv) -> dict[str, str]:
    level = graph(srv, project_path=srv.paths["p"])["project"]
    return {n["id"]: "orphaned" if "_orphaned_ts" in n else "archived" if n.get("_archived") else "active"
            for n in level["nodes"]}


def _charge_now(srv) -> int:
    level = graph(srv, project_path=srv.paths["p"])["project"]
    return _charge({"nodes": {n["id"]: n for n in level["nodes"]}, "edges": level["edges"]})


async def test_one_long_gist_does_not_strip_the_newest_lessons_of_their_protection(srv):
    assert len(BIG_GIST) > C.MAX_CHARS_PER_LEVEL * C.FRESH_BUDGET_RATIO
    async with Client(srv.url + "/") as c:
        agent = await Session.open(c, cwd=srv.paths["p"])
        said = await agent.ok("kg_put_node", level="project", id="deployment-runbook-full-text", gist=BIG_GIST)
    # The write's compaction brings the level back within its budget.
    wait_until(lambda: _charge_now(srv) <= C.MAX_CHARS_PER_LEVEL, 20, "the level back within its budget")
    states = _states(srv)
    assert [i for i in FRESH_IDS if states[i] != "active"] == []
    assert any(states[i] == "archived" for i in [*OLD_IDS, "deployment-runbook-full-text"])

    # The reply says what became of it (it is archived in the same step), and what to do.
    assert states["deployment-runbook-full-text"] == "archived"
    assert "saved to project graph" in said and "ARCHIVED at once: alone it renders" in said, said
    assert "more than the 6,600 a new node may take and stay protected" in said and "shorten the gist" in said


HUGE_GIST = "H" * 19_900


def _huge_project(path: str) -> dict:
    nodes = [{"id": "small-first-lesson-node", "gist": "A small lesson that was here first.", "_created_ts": OLD},
             {"id": "huge-single-lesson-node", "gist": HUGE_GIST, "_created_ts": OLD, "_archived": True}]
    edges = [("huge-single-lesson-node", f"src/some/long/path/module_number_{k:03d}.py", "documents-file")
             for k in range(40)]
    return reference_graph(nodes, edges, path)


async def test_a_read_of_a_node_bigger_than_the_budget_says_it_stays_archived_not_promoted(tmp_path):
    def seed(s):
        s.paths = {"p": s.project("huge")}
        write_store(s.store, projects={"huge": _huge_project(s.paths["p"])})

    srv = start_server(tmp_path, before_start=seed)
    try:
        async with Client(srv.url + "/") as c:
            agent = await Session.open(c, cwd=srv.paths["p"])
            text = await agent.ok("kg_read", id="huge-single-lesson-node")
            assert "promoted from archive" not in text, text[:300]
            assert "(project, archived, and stays so: alone it renders" in text and "shorten the gist" in text
            text = await agent.ok("kg_read", id="small-first-lesson-node")
            assert "(project, active)" in text
            # A write of it says the same, once the run its write owed is paid.
            said = await agent.ok("kg_put_node", level="project", id="huge-single-lesson-node", gist=HUGE_GIST + "!")
            assert "ARCHIVED at once" in said and "more than the level's whole budget of 22,000" in said, said
        wait_until(lambda: _states(srv)["huge-single-lesson-node"] == "archived", 20, "the huge node archived")
        assert _states(srv)["small-first-lesson-node"] == "active"
    finally:
        srv.kill()
