"""Prose, paths, ids and docs names cut by hyphens whose join has a key's shape by chance (`ASIA-PACIFIC-NORTHEAST`,
`SK-<uuid>`, `sk-learn-2024-pipeline-guide`): a lesson an older kg stored with them is shown to agents after an
upgrade, and a new one is stored as written; a key cut apart on purpose is still held and refused.

A real `kg serve` on a store seeded as an older kg left it, real hook scripts, MCP tools over HTTP."""

from __future__ import annotations

import json

import pytest
from e2e_helpers import start_server
from hook_helpers import Harness, node, project_graph

from kg_actors.testing import ServerProcess

UUID = "123e4567-e89b-12d3-a456-426614174000"
REGION = "Our bucket lives in ASIA-PACIFIC-NORTHEAST; dashboards name regions in capitals"
NOTES = ["deploys go to ASIA-PACIFIC-NORTHEAST first, then EU", f"Message SIDs print as SK-{UUID} in the log",
         f"the workspace export names dapi-{UUID}", "MAX-RETRY-COUNT-EXCEEDED-ERROR ends the retries",
         "See the sk-learn-2024-pipeline-guide doc first", "docs name it sk-Learn-Transformers-Pipelines"]
TOUCHES = ["infra/ASIA-PACIFIC-NORTHEAST/main.tf"]
GHP = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"  # assembled: no file holds a whole one
CUT = "ghp_-" + "-".join(GHP[i:i + 4] for i in range(4, len(GHP), 4))
MARK = "[withheld: holds what looks like"


def _server(tmp_path) -> tuple[ServerProcess, str]:
    root = ServerProcess(tmp_path).project("regions-proj")
    older = project_graph(root, [node("deploy-regions", REGION, notes=NOTES, touches=TOUCHES),
                                 node("ci-token-cut", "the ci token of the old pipeline", notes=[CUT])])
    return start_server(tmp_path, projects={"regions-proj": older}), root


def test_an_older_kgs_lesson_of_such_prose_is_shown_and_a_new_one_stored_and_a_cut_key_still_held(tmp_path):
    srv, root = _server(tmp_path)
    try:
        h = Harness(srv, root)
        assert h.start().context and h.kg_sid
        shown = h.mcp("kg_read", id="deploy-regions", level="project")
        assert REGION in shown and MARK not in shown, shown
        assert all(note in shown for note in NOTES) and TOUCHES[0] in shown, shown
        found = h.mcp("kg_search", query="which region do deploys go to first")
        assert "deploy-regions" in found and "Our bucket lives in ASIA-PACIFIC-NORTHEAST" in found, found
        held = h.mcp("kg_read", id="ci-token-cut", level="project")
        assert f"{MARK} a GitHub token" in held and GHP[4:12] not in held, held
        # Written now: stored as written, every field.
        said = h.mcp("kg_put_node", level="project", id="region-layout", gist=REGION, notes=NOTES, touches=TOUCHES)
        assert "NOT WRITTEN" not in said, said
        with pytest.raises(AssertionError, match=r"NOT WRITTEN: notes\[0\] holds what looks like a GitHub token"):
            h.mcp("kg_put_node", level="project", id="cut-again", gist="the ci token", notes=[CUT])
    finally:
        srv.stop()
    stored = json.loads((srv.store / "projects" / "regions-proj" / "graph.json").read_text())["nodes"]
    assert stored["region-layout"]["gist"] == REGION and stored["region-layout"]["notes"] == NOTES
    assert stored["region-layout"]["touches"] == TOUCHES and "cut-again" not in stored
