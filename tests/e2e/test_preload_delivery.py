"""A SessionStart hook gives up after a while (on a big project the preload may take longer): its reply is
then never read. What the preload shows counts only once the reply is delivered; a session no preload
reached is told its id; and when the agent opens a session itself (kg_read(cwd)), the hooks follow that one.
The whole server runs in this process (inprocess.py)."""

from __future__ import annotations

from inprocess import context_of, hook, serve_inprocess, sessions_of

from kg_actors.conduct import read as read_uc, session as session_uc, write as write_uc
from kg_actors.harness import profiles

NODE = "deploy-needs-the-vpn"
GIST = "deploys to staging need the office VPN up: the registry is private"
CLAUDE = profiles.from_user_agent("claude-code")


def _project(home):
    cwd = home / "preload-proj"
    cwd.mkdir(exist_ok=True)
    return cwd


async def _start(rt, cwd, claude: str, hang_up: bool) -> str:
    status, _ = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": claude,
                                                          "source": "startup"}, hang_up=hang_up)
    assert status == 200
    return (await rt.sessions.find_by_claude(claude_sid=claude)).sid


async def _prompt(rt, cwd, claude: str, prompt: str) -> str:
    _, got = await hook(rt, "/api/prompt_context", {"session_id": claude, "cwd": str(cwd), "prompt": prompt})
    return context_of(got)


async def test_a_preload_its_hook_gave_up_on_counts_for_nothing_and_the_hooks_follow_the_agents_session(
        tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        (b,) = await sessions_of(rt, cwd, "claude-b")
        await write_uc.put_node(rt.floor, b, "project", NODE, GIST, None, None)
        a = await _start(rt, cwd, "claude-a", hang_up=True)
        view = await rt.sessions.get(sid=a)
        assert ("project", NODE) not in view.seen and not view.preloaded  # never shown
        # Every prompt tells the agent the id it never got.
        reminder = await _prompt(rt, cwd, "claude-a", "how do I deploy to staging")
        assert a in reminder and "kg_read" in reminder
        # The agent opens a session of its own, with a full read: the hooks follow it from here on.
        opened = await session_uc.open_session(rt.floor, str(cwd), None, CLAUDE)
        assert opened.view.sid != a
        await read_uc.read(rt.floor, opened, CLAUDE, None, None, False)
        recalled = await _prompt(rt, cwd, "claude-a", "how do I deploy staging through the private registry vpn")
        assert a not in recalled and "PARTIAL view" not in recalled
        assert (await rt.sessions.find_by_claude(claude_sid="claude-a")).sid == opened.view.sid


async def test_when_two_preloads_failed_no_conversation_takes_the_session_one_agent_opened(tmp_path, home):
    """Which conversation's agent opened it is not known: each keeps its own session and reminder."""
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        (w,) = await sessions_of(rt, cwd, "claude-w")
        await write_uc.put_node(rt.floor, w, "project", NODE, GIST, None, None)
        a = await _start(rt, cwd, "claude-a", hang_up=True)
        b = await _start(rt, cwd, "claude-b", hang_up=True)
        opened = await session_uc.open_session(rt.floor, str(cwd), None, CLAUDE)
        await read_uc.read(rt.floor, opened, CLAUDE, None, None, False)
        for claude, own in (("claude-b", b), ("claude-a", a)):
            reminder = await _prompt(rt, cwd, claude, "how do I deploy to staging")
            assert own in reminder and "kg_read" in reminder
            assert (await rt.sessions.find_by_claude(claude_sid=claude)).sid == own


async def test_a_delivered_preload_counts_and_its_session_is_never_swapped(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        (b,) = await sessions_of(rt, cwd, "claude-b")
        await write_uc.put_node(rt.floor, b, "project", NODE, GIST, None, None)
        a = await _start(rt, cwd, "claude-a", hang_up=False)
        view = await rt.sessions.get(sid=a)
        assert ("project", NODE) in view.seen and view.preloaded
        # Another session opened since, by a tool call of some other conversation: never taken over.
        opened = await session_uc.open_session(rt.floor, str(cwd), None, CLAUDE)
        await read_uc.read(rt.floor, opened, CLAUDE, None, None, False)
        reminder = await _prompt(rt, cwd, "claude-a", "how do I deploy to staging")
        assert "PARTIAL view" in reminder
        assert (await rt.sessions.find_by_claude(claude_sid="claude-a")).sid == a


async def test_the_preload_says_when_a_graph_is_in_trouble(tmp_path, home):
    """A graph whose file could not be read is served empty and refuses changes: the preload, the only
    memory a session may see, said nothing of it (a full read did)."""
    cwd = _project(home)
    store = tmp_path / "store"
    store.mkdir()
    (store / "user.json").write_bytes(b"\x00 not a graph {{{")
    async with serve_inprocess(store) as rt:
        status, got = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": "claude-a",
                                                                "source": "startup"})
        assert status == 200
        preload = context_of(got)
        assert "The user memory could not be loaded" in preload, preload


async def test_a_resume_of_a_session_no_preload_reached_gets_the_preload(tmp_path, home):
    """The continuity note ("the preload earlier in this conversation remains") was said of a preload
    whose hook gave up: the conversation never held it, nor the session's id."""
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        (b,) = await sessions_of(rt, cwd, "claude-b")
        await write_uc.put_node(rt.floor, b, "project", NODE, GIST, None, None)
        a = await _start(rt, cwd, "claude-a", hang_up=True)
        status, got = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": "claude-a",
                                                                "source": "resume"})
        assert status == 200
        context = context_of(got)
        assert context.startswith("KG MEMORY PRELOADED") and f"session_id: {a} (pass" in context
        assert GIST in context and "remains in context" not in context
        view = await rt.sessions.get(sid=a)
        assert view.preload_given and ("project", NODE) in view.seen
        # Once one arrived, a resume keeps it.
        _, again = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": "claude-a",
                                                             "source": "resume"})
        assert "preload earlier in this conversation remains in context" in context_of(again)
