"""The preload's HEALTH and DEBT lines against a real `kg serve`: they describe the graph as it stands at
session start, as the full read does, not as the last save tick left it."""

from __future__ import annotations

import re
from pathlib import Path

from hook_helpers import Harness, node, project_graph, user_graph

from kg_actors.testing import ServerProcess, write_store


def _line(text: str, head: str, level: str = "PROJECT") -> str:
    section = text.split(f"=== {level} GRAPH", 1)[1]
    return next(line for line in section.splitlines() if line.startswith(head))


def test_the_first_preload_counts_touches_already_gone_and_edges_just_written(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path)
    root = Path(srv.project("figures-proj"))
    (root / "src").mkdir()
    (root / "src" / "here.py").write_text("x\n")
    project = project_graph(str(root), [
        node("touches-a-file-here", "a lesson on a file that exists", touches=["src/here.py"]),
        node("touches-a-file-gone", "a lesson on a file deleted since", touches=["src/gone.py"]),
    ])
    write_store(srv.store, user_graph([]), {"figures-proj": project})
    srv.start("--no-editor")  # the save tick (30 s) has not run when the first session starts
    try:
        first = Harness(srv, str(root))
        preload = first.start().context
        assert re.search(r"\b1 dangling touch\(es\)", _line(preload, "DEBT:")), preload
        assert "1 dangling touch(es)" in _line(first.full_read(), "DEBT:")
        first.mcp("kg_put_edge", level="project", **{"from": "touches-a-file-here", "to": "touches-a-file-gone",
                                                      "rel": "depends-on"})
        again = Harness(srv, str(root)).start().context
        health = _line(again, "HEALTH:")
        assert health.startswith("HEALTH: 2 nodes, 1 edges, 0 with no edge shown"), again
        # Four lessons written just now, linked to nothing: the next preload's DEBT line counts them as its
        # HEALTH line does, and as a full read at the same moment does (it was the tick's, 30 s behind).
        for i in range(4):
            first.mcp("kg_put_node", level="project", id=f"unlinked-lesson-{i}", gist=f"lesson {i} " + "y" * 400)
        third = Harness(srv, str(root))
        preload = third.start().context
        assert "6 nodes, 1 edges, 4 with no edge shown" in _line(preload, "HEALTH:"), preload
        debt = _line(preload, "DEBT:")
        assert "4 unconnected" in debt and debt == _line(third.full_read(), "DEBT:"), preload
    finally:
        srv.stop()
