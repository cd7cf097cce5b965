"""A large project's first search index comes from a child process (kg_actors/index_process.py), through a
real `kg serve`: kg_search finds the stored lessons once it is in, a write made meanwhile is found too,
and the server never had to fall back to building it itself."""

from __future__ import annotations

import re

from mcp import Client

from e2e_helpers import Session
from hook_helpers import project_graph, user_graph

from kg_actors.core import constants as C
from kg_actors.testing import ServerProcess, write_store

WORDS = ["alpha", "bravo", "delta", "kilo", "lima", "oscar", "papa", "romeo", "tango", "zulu"]


def _lessons(n: int) -> list[dict]:
    return [{"id": f"lesson-{WORDS[i % 10]}-{i:05d}", "gist": f"{WORDS[i % 10]} and {WORDS[(i * 3) % 10]} rule {i}",
             "notes": [f"seen while {WORDS[(i * 7) % 10]} ran"], "_archived": i % 4 != 0}
            for i in range(n)]


async def test_a_large_projects_index_is_built_by_the_child_and_search_finds_old_and_new_lessons(tmp_path):
    size = C.INDEX_PROCESS_MIN_NODES + 500
    srv = ServerProcess(tmp_path)
    cwd = srv.project("big")
    write_store(srv.store, user_graph([]), {"big": project_graph(cwd, _lessons(size))})
    srv.start()
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=cwd)
            # Written while the child may still be building: the index catches it up when it is installed.
            await s.ok("kg_put_node", level="project", id="quasar-cache-eviction",
                       gist="quasar caches evict by least recent use")
            found = await s.ok("kg_search", query="lesson 01234 romeo")  # waits for the first index
            assert re.search(r"^▸ lesson-[a-z]+-01234\b", found, flags=re.M), found
            new = await s.ok("kg_search", query="quasar eviction")
            assert re.search(r"^▸ quasar-cache-eviction\b", new, flags=re.M), new
    finally:
        srv.kill()
    log = srv.log.read_text()
    assert f"search index of {size} nodes built in a child process" in log, log[-2000:]
    assert "search index process failed" not in log
