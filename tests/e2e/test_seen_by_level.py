"""Spec 003 lets the user graph and a project graph each hold a node of the same id: two nodes. What a
session has seen of one is no view of the other, for write arbitration (spec 000: a write over a version
the session never saw is refused with the node shown) and for recall (a gist is left out only when that
node's gist is in context). The whole server runs in this process (inprocess.py)."""

from __future__ import annotations

import pytest
from inprocess import context_of, hook, serve_inprocess, sessions_of

from kg_actors.conduct import read as read_uc, rename as rename_uc, search as search_uc, session as session_uc
from kg_actors.conduct import write as write_uc
from kg_actors.core.errors import WriteConflict
from kg_actors.harness import profiles

SHARED = "zookeeper-session-expiry"
USER_GIST = "zookeeper session expiry drops ephemeral znodes: renew before the timeout"
PROJECT_GIST = "zookeeper session expiry here: the client retries 30s then drops ephemeral znodes"
CLAUDE = profiles.from_user_agent("claude-code")


def _project(home):
    cwd = home / "levels-proj"
    cwd.mkdir(exist_ok=True)
    return cwd


async def _read(rt, cwd, sid: str, ids: list[str], level: str) -> str:
    opened = await session_uc.open_session(rt.floor, str(cwd), sid, CLAUDE)
    return await read_uc.read(rt.floor, opened, CLAUDE, ids, level, False)


async def _project_node(rt, cwd, node_id: str):
    return await (await rt.directory.get(await rt.directory.project_key(str(cwd)))).get_node(node_id=node_id)


async def test_reading_the_user_node_does_not_let_a_write_replace_the_project_node_of_that_id(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, b, "user", SHARED, USER_GIST, None, None)
        await write_uc.put_node(rt.floor, b, "project", SHARED, PROJECT_GIST, ["b's case"], None)
        await _read(rt, cwd, a, [SHARED], "user")  # a reads the user node only, after b's project write
        with pytest.raises(WriteConflict) as refused:
            await write_uc.put_node(rt.floor, a, "project", SHARED, "a's rewrite, built on the user node", None, None)
        assert refused.value.level == "project" and refused.value.node["gist"] == PROJECT_GIST
        assert (await _project_node(rt, cwd, SHARED)).gist == PROJECT_GIST
        # The refusal showed a the project node: the retry, built on it, goes through.
        await write_uc.put_node(rt.floor, a, "project", SHARED, "a's rewrite of the project node", None, None)
        assert (await _project_node(rt, cwd, SHARED)).notes == ("b's case",)


@pytest.mark.parametrize("named", [True, False], ids=["level-named", "level-found"])
async def test_a_delete_is_arbitrated_on_the_view_of_the_node_it_deletes(tmp_path, home, named):
    """Named: a deletes the project node having read only the user one. Found: a names no level, having read
    only the project node, and the user node (looked up first) is the one the delete finds."""
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, b, "user", SHARED, USER_GIST, None, None)
        await write_uc.put_node(rt.floor, b, "project", SHARED, PROJECT_GIST, None, None)
        await _read(rt, cwd, a, [SHARED], "user" if named else "project")
        target = "project" if named else "user"
        with pytest.raises(WriteConflict) as refused:
            await write_uc.delete_node(rt.floor, a, SHARED, "project" if named else None)
        assert refused.value.level == target and refused.value.reason.startswith("this session has not been shown it yet")
        assert await _project_node(rt, cwd, SHARED) is not None
        assert await (await rt.directory.get("user")).get_node(node_id=SHARED) is not None
        # Shown by the refusal: the delete goes through now, and takes only that node.
        assert (await write_uc.delete_node(rt.floor, a, SHARED, "project" if named else None))[0] == target
        assert (await _project_node(rt, cwd, SHARED) is None) == named


async def test_a_user_rename_moves_the_view_of_the_user_node_only(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, b, "user", "zookeeper-expiry-old", USER_GIST, None, None)
        await write_uc.put_node(rt.floor, b, "project", SHARED, PROJECT_GIST, None, None)
        await _read(rt, cwd, a, ["zookeeper-expiry-old"], "user")
        await rename_uc.rename(rt.floor, a, "zookeeper-expiry-old", SHARED, "user")
        with pytest.raises(WriteConflict):  # a saw the user node under its old id, never the project's
            await write_uc.put_node(rt.floor, a, "project", SHARED, "a's rewrite", None, None)
        await write_uc.put_node(rt.floor, a, "user", SHARED, "a's rewrite of the renamed user node", None, None)
        assert (await _project_node(rt, cwd, SHARED)).gist == PROJECT_GIST


async def test_recall_and_search_show_the_project_node_when_only_the_user_node_of_its_id_was_seen(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b, c = await sessions_of(rt, cwd, "claude-a", "claude-b", "claude-c")  # preloads: nothing yet
        await write_uc.put_node(rt.floor, b, "user", SHARED, USER_GIST, None, None)
        await write_uc.put_node(rt.floor, b, "project", SHARED, PROJECT_GIST, ["renew at two thirds of it"], None)
        await search_uc.search_text(rt.floor, b, "zookeeper")  # the indexes are built (b's seen set only)
        await _read(rt, cwd, a, [SHARED], "user")
        assert await rt.sessions.mark_full_read(sid=a, now=rt.clock())  # prompt recall follows a full read
        _, got = await hook(rt, "/api/prompt_context", {
            "session_id": "claude-a", "cwd": str(cwd),
            "prompt": "why does zookeeper session expiry drop our ephemeral znodes"})
        recalled = context_of(got)
        assert f"[project] {SHARED}: {PROJECT_GIST}" in recalled
        assert f"[user] {SHARED}: " not in recalled  # in context already
        view = await rt.sessions.get(sid=a)
        assert {("user", SHARED), ("project", SHARED)} <= view.seen
        # A search by another session that saw only the user node shows the project node's notes too.
        await _read(rt, cwd, c, [SHARED], "user")
        found = await search_uc.search_text(rt.floor, c, "zookeeper session expiry")
        assert "renew at two thirds of it" in found


async def test_a_full_read_shows_the_project_node_when_only_the_user_node_of_its_id_was_preloaded(tmp_path, home):
    from kg_actors import session_messages as sm
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, b, "user", SHARED, USER_GIST, None, None)
        await write_uc.put_node(rt.floor, b, "project", SHARED, PROJECT_GIST, None, None)
        await rt.sessions.tell(sm.SetPreloaded(sid=a, refs=[("user", SHARED)]))
        full = await _read(rt, cwd, a, [], None)
        assert full.count(f"{SHARED} (preloaded)") == 1  # the user node's anchor
        assert PROJECT_GIST in full and USER_GIST not in full


async def test_a_rename_and_a_delete_since_a_session_saw_the_nodes_still_refuse_its_writes_after_a_restart(
        tmp_path, home):
    """What a session saw and where it went are kept in sessions.json: known after a restart too."""
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, a, "user", "zookeeper-expiry-old", USER_GIST, None, None)
        await write_uc.put_node(rt.floor, a, "project", SHARED, PROJECT_GIST, None, None)
        await _read(rt, cwd, b, ["zookeeper-expiry-old"], "user")
        await _read(rt, cwd, b, [SHARED], "project")
        await rename_uc.rename(rt.floor, b, "zookeeper-expiry-old", "zookeeper-expiry-renewal", "user")
        await write_uc.delete_node(rt.floor, b, SHARED, "project")
    async with serve_inprocess(tmp_path / "store") as rt:
        with pytest.raises(WriteConflict) as renamed:
            await write_uc.put_node(rt.floor, a, "user", "zookeeper-expiry-old", "a's rewrite", None, None)
        assert renamed.value.node_id == "zookeeper-expiry-renewal" and renamed.value.node["gist"] == USER_GIST
        with pytest.raises(WriteConflict) as deleted:
            await write_uc.put_node(rt.floor, a, "project", SHARED, "a's rewrite", None, None)
        assert deleted.value.node is None and "was deleted after this session last saw it" in deleted.value.reason
        # b renamed and deleted them itself: nothing stands in its way (and a's retries go through).
        await write_uc.put_node(rt.floor, b, "project", SHARED, "b's new lesson", None, None)
        await write_uc.put_node(rt.floor, a, "user", "zookeeper-expiry-old", "a's lesson beside it", None, None)
        assert (await _project_node(rt, cwd, SHARED)).gist == "b's new lesson"
