"""Which graph a new folder gets may hang on evidence: the files a gone folder's lessons touch, read from its
graph file (14 MB, 0.8 s for 25,000 lessons) and looked for in the new folder. That work is done off the event
loop: a hook of another session is answered while it goes on. Here the reading of the gone graph's touches is
held until the test lets it go, so the outcome does not depend on the machine's speed; the whole server runs
in this process (inprocess.py)."""

from __future__ import annotations

import threading

import trio
from hook_helpers import node, project_graph, user_graph
from inprocess import context_of, hook, serve_inprocess

from kg_actors.storage import same_project
from kg_actors.testing import write_store

SHOP_GIST = "the cart total is rounded once, at checkout"


def _held_touch_reads(monkeypatch) -> tuple[threading.Event, threading.Event, list[tuple[bool, bool]]]:
    """Every read of a stored graph's touches waits until `release` is set (says it got there with `entered`);
    `reads` gets, per read, whether it ran on the event loop's own thread and whether the test let it go
    (False: it ran out of its wait, the test never got to set `release`)."""
    release, entered, reads = threading.Event(), threading.Event(), []
    read = same_project.stored_touches

    def held(graph_file):
        on_loop = _on_trio_loop()
        entered.set()
        reads.append((on_loop, release.wait(20)))  # a bound only a broken test meets: the test sets it
        return read(graph_file)

    monkeypatch.setattr(same_project, "stored_touches", held)
    return release, entered, reads


def _on_trio_loop() -> bool:
    try:
        trio.lowlevel.current_task()
    except RuntimeError:
        return False
    return True


async def test_a_hook_is_answered_while_a_first_session_weighs_a_gone_graph_beside_it(tmp_path, home, monkeypatch):
    gone, renamed, other = home / "grp" / "shop", home / "grp" / "shop-v2", home / "other"
    for folder in (renamed / "src", other):
        folder.mkdir(parents=True)
    for name in ("cart.py", "tax.py"):
        (renamed / "src" / name).write_text("x\n")
    store = tmp_path / "store"
    write_store(store, user_graph([node("prefer-small-commits", "commit one logical change at a time")]),
                {"shop": project_graph(str(gone), [node("cart-rounding", SHOP_GIST,
                                                        touches=["src/cart.py", "src/tax.py:4 (rate)"])])})
    async with serve_inprocess(store) as rt:
        status, _ = await hook(rt, "/api/session_bootstrap", {"cwd": str(other), "session_id": "claude-other",
                                                              "source": "startup"})
        assert status == 200
        release, entered, reads = _held_touch_reads(monkeypatch)
        opened: dict = {}

        async def first_session() -> None:
            opened["status"], opened["reply"] = await hook(
                rt, "/api/session_bootstrap", {"cwd": str(renamed), "session_id": "claude-new", "source": "startup"})

        with trio.fail_after(120):  # a hang guard only
            async with trio.open_nursery() as nursery:
                nursery.start_soon(first_session)
                try:
                    assert await trio.to_thread.run_sync(entered.wait, 60)  # the evidence is being read
                    status, _ = await hook(rt, "/api/prompt_context", {
                        "session_id": "claude-other", "cwd": str(other), "prompt": "what rounds the totals"})
                    assert status == 200
                finally:
                    release.set()  # only now: a read held on the loop ran out of its wait before the hook ran
        assert reads and all(let_go for _, let_go in reads), f"the prompt hook waited for the evidence: {reads}"
        assert not any(on_loop for on_loop, _ in reads), reads
        # The evidence rules decide as before: the renamed folder holds the gone one's files, so its memory.
        context = context_of(opened["reply"])
        assert opened["status"] == 200 and SHOP_GIST in context, context
        assert f"took over the memory of {gone}" in context, context
