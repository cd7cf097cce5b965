"""The first session after a big store is moved over: its project graph's first load (reading and settling
20,000 nodes) takes seconds, longer than the SessionStart hook waits. The preload does not wait it out: it
gives what is loaded (the user graph), says the project's memory is still loading and to call kg_read
shortly, and the load goes on. Here the project's load is held until the test lets it go, so the outcome
does not depend on the machine's speed. The whole server runs in this process (inprocess.py)."""

from __future__ import annotations

import threading

import trio
from hook_helpers import node, project_graph, user_graph
from inprocess import context_of, hook, serve_inprocess

from kg_actors import directory
from kg_actors.core import constants as C
from kg_actors.testing import write_store

USER_GIST = "commit one logical change at a time"
PROJECT_GIST = "JWT refresh uses a sliding window; silent failure if the session expired"


def _held_project_loads(monkeypatch) -> threading.Event:
    """Every project graph's load waits (in its worker thread) until the returned event is set."""
    release = threading.Event()
    load = directory.load_graph

    def held(path, kind, *args, **kwargs):
        if kind == "project":
            release.wait(120)  # a bound that only a broken test meets: the test sets it
        return load(path, kind, *args, **kwargs)

    monkeypatch.setattr(directory, "load_graph", held)
    return release


async def _start(rt, cwd, claude: str) -> dict:
    status, got = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": claude,
                                                            "source": "startup"})
    assert status == 200
    return got


async def test_a_project_still_loading_gets_the_user_preload_and_is_said_to_be_loading(tmp_path, home,
                                                                                         monkeypatch):
    cwd = home / "big-proj"
    cwd.mkdir()
    store = tmp_path / "store"
    write_store(store, user_graph([node("prefer-small-commits", USER_GIST)]),
                {"big-proj": project_graph(str(cwd), [node("auth-token-refresh", PROJECT_GIST)])})
    monkeypatch.setattr(C, "PRELOAD_LOAD_WAIT", 0.2, raising=False)  # the wait itself is not what is tested: keep it short
    release = _held_project_loads(monkeypatch)
    async with serve_inprocess(store) as rt:
        try:
            got = await _start(rt, cwd, "claude-first")
            context = context_of(got)
            sid = (await rt.sessions.find_by_claude(claude_sid="claude-first")).sid
            assert USER_GIST in context and PROJECT_GIST not in context
            assert "This project's memory is still loading" in context and f"kg_read(session_id='{sid}')" in context
            assert "the user graph (the project graph is still loading)" in context
            assert "still loading" in got["systemMessage"]
            view = await rt.sessions.get(sid=sid)
            assert view.preload_given and view.project_path == str(cwd)  # bound to its project all the same
        finally:
            release.set()
        key = rt.directory.project_key(str(cwd))
        with trio.fail_after(60):  # a hang guard only: the load was let go above
            await rt.directory.get(key)
        # Loaded now: the next session's preload holds the project, with no word of loading.
        context = context_of(await _start(rt, cwd, "claude-second"))
        assert PROJECT_GIST in context and USER_GIST in context and "still loading" not in context
