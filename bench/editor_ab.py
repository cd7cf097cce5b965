"""Paired A/B of the editor's warm open: run it once per checkout, alternating, in the same minutes.

    ROOT/.venv/bin/python bench/editor_ab.py ROOT [NODES]

ROOT is a checkout with its own venv (its `kg` serves, its page is drawn). Starts a server on a
NODES-node project (bench/editor_workload.py), opens the page 5 times in fresh browser contexts,
drops the first (cold) and prints the median page marks of the rest. On a shared machine only
alternating runs of two checkouts tell a change of the page from a change of the load.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
NODES = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
sys.path.insert(0, str(ROOT))

from bench.editor_workload import project_graph  # noqa: E402
from kg_actors.testing import ServerProcess, write_store  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
MARKS = ("graph-pick", "graph-fetched", "graph-built", "graph-ready")


def main() -> None:
    from playwright.sync_api import sync_playwright

    base = Path(tempfile.mkdtemp(prefix="kg-editor-ab-"))
    srv = ServerProcess(base)
    project = srv.project("bench")
    write_store(srv.store, projects={"bench": project_graph(NODES, project)})
    srv.start()
    try:
        url = f"http://127.0.0.1:{srv.editor_port}/#{project}"
        runs = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            for i in range(5):
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                page.goto(url)
                page.wait_for_selector("body[data-graph=ready]", timeout=120_000)
                marks = page.evaluate("() => Object.fromEntries(performance.getEntriesByType('mark')"
                                      ".map((m) => [m.name, Math.round(m.startTime)]))")
                page.wait_for_selector("body[data-complete=yes]", timeout=120_000)
                page.close()
                if i:
                    runs.append(marks)
            browser.close()
        print(f"{ROOT}: " + " ".join(f"{m} {statistics.median(r[m] for r in runs):.0f} ms" for m in MARKS))
    finally:
        srv.kill()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
