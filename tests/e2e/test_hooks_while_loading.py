"""A big store's graphs take seconds to load at a start (reading and settling 20,000 nodes), longer than a
hook waits. The first session's preload does not wait it out: it gives what is loaded (the user graph), says
the project's memory is still loading and to call kg_read shortly, and the load goes on. A prompt meanwhile
is answered at once, without recall, and what others wrote is pushed with a later prompt. Here the project's
load is held until the test lets it go, so the outcome does not depend on the machine's speed. The whole
server runs in this process (inprocess.py)."""

from __future__ import annotations

import threading

import trio
from hook_helpers import node, project_graph, user_graph
from inprocess import context_of, hook, serve_inprocess

from kg_actors import directory
from kg_actors.conduct import read as read_uc, session as session_uc, write as write_uc
from kg_actors.core import constants as C
from kg_actors.harness import profiles
from kg_actors.testing import write_store

USER_GIST = "commit one logical change at a time"
PROJECT_GIST = "JWT refresh uses a sliding window; silent failure if the session expired"


def _held_project_loads(monkeypatch, holding: bool = True, level: str = "project") -> tuple[threading.Event, threading.Event]:
    """Every project graph's load (or the user graph's: `level`) waits (in its worker thread) until `release`
    is set, and says it got there with `entered`; with `holding` False, only once `release` is cleared (and
    until it is set again)."""
    release, entered = threading.Event(), threading.Event()
    if not holding:
        release.set()
    load = directory.load_graph

    def held(path, kind, *args, **kwargs):
        if kind == level and not release.is_set():
            entered.set()
            release.wait(120)  # a bound that only a broken test meets: the test sets it
        return load(path, kind, *args, **kwargs)

    monkeypatch.setattr(directory, "load_graph", held)
    return release, entered


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
    release, _ = _held_project_loads(monkeypatch)
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
        key = await rt.directory.project_key(str(cwd))
        with trio.fail_after(60):  # a hang guard only: the load was let go above
            await rt.directory.get(key)
        # Loaded now: the next session's preload holds the project, with no word of loading.
        context = context_of(await _start(rt, cwd, "claude-second"))
        assert PROJECT_GIST in context and USER_GIST in context and "still loading" not in context
        # The first conversation resumed: its preload lacked the project's memory, which it is told of now.
        status, got = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": "claude-first",
                                                                "source": "resume"})
        context = context_of(got)
        assert status == 200 and f"session_id: {sid}" in context, context
        assert "this project's memory was still loading and is not in it" in context, context
        assert f"call kg_read(session_id='{sid}')" in context, context


async def test_a_user_graph_still_loading_leaves_the_project_preloaded_and_is_named_as_the_user_memory(
        tmp_path, home, monkeypatch):
    """A big user graph and a small project: the project's load does not wait for the user's, so the first
    preload holds the project and says it is the user memory that is still loading."""
    cwd = home / "big-proj"
    cwd.mkdir()
    store = tmp_path / "store"
    write_store(store, user_graph([node("prefer-small-commits", USER_GIST)]),
                {"big-proj": project_graph(str(cwd), [node("auth-token-refresh", PROJECT_GIST)])})
    monkeypatch.setattr(C, "PRELOAD_LOAD_WAIT", 0.2, raising=False)  # the wait itself is not what is tested
    release, _ = _held_project_loads(monkeypatch, level="user")
    async with serve_inprocess(store) as rt:
        try:
            key = await rt.directory.project_key(str(cwd))
            await rt.directory.get_within("user", 0)  # the user's load set going (held) before the project's
            with trio.fail_after(60):  # a hang guard only: the project's load waits for nothing held
                await rt.directory.get(key)
            got = await _start(rt, cwd, "claude-first")
            context = context_of(got)
            sid = (await rt.sessions.find_by_claude(claude_sid="claude-first")).sid
            assert PROJECT_GIST in context and USER_GIST not in context, context
            assert "The user memory is still loading" in context and f"kg_read(session_id='{sid}')" in context
            assert "the project graph (the user graph is still loading)" in context, context
            assert "Its memory" not in context and "of no graph" not in context, context
            assert "this project's memory; the user memory is still loading" in got["systemMessage"], got
        finally:
            release.set()
        with trio.fail_after(60):  # a hang guard only: the load was let go above
            await rt.directory.get("user")
        context = context_of(await _start(rt, cwd, "claude-second"))
        assert PROJECT_GIST in context and USER_GIST in context and "still loading" not in context


async def test_a_prompt_while_the_project_loads_is_answered_at_once_and_loses_no_push(tmp_path, home, monkeypatch):
    """After a restart of a big store the first prompt waited for the project's load (1.6-3.2 s): the hook,
    which waits 0.6 s, printed nothing. Now it is answered at once; the push window is left as it was."""
    cwd = home / "big-proj"
    cwd.mkdir()
    store = tmp_path / "store"
    write_store(store, user_graph([node("prefer-small-commits", USER_GIST)]),
                {"big-proj": project_graph(str(cwd), [node("auth-token-refresh", PROJECT_GIST)])})
    release, entered = _held_project_loads(monkeypatch, holding=False)
    claude = profiles.from_user_agent("claude-code")
    prompt = {"session_id": "claude-reader", "cwd": str(cwd), "prompt": "what did the others finish this morning"}
    async with serve_inprocess(store) as rt, trio.open_nursery() as nursery:
        await _start(rt, cwd, "claude-reader")
        reader = await rt.sessions.find_by_claude(claude_sid="claude-reader")
        await read_uc.read(rt.floor, session_uc.Opened(reader, (), False), claude, None, None, False)
        writer = (await session_uc.open_session(rt.floor, str(cwd), None, claude)).view.sid
        await write_uc.put_node(rt.floor, writer, "project", "export-csv-bom", "the CSV export needs a BOM for Excel",
                                None, None)
        key = await rt.directory.project_key(str(cwd))
        release.clear()  # the project is loaded again (a reload, as a restart would), and held
        nursery.start_soon(rt.directory.reload, key)
        try:
            assert await trio.to_thread.run_sync(entered.wait, 60)  # the reload's load is held
            status, got = await hook(rt, "/api/prompt_context", prompt)
            assert status == 200 and got == {}  # at once, while the load is held
            assert rt.directory.is_loading(key)
        finally:
            release.set()
        await rt.directory.get(key)
        _, got = await hook(rt, "/api/prompt_context", prompt)
        # Pushed now (the prompt shares no word with it: no recall hit shows it first).
        assert "export-csv-bom (new): the CSV export needs a BOM for Excel" in context_of(got)
