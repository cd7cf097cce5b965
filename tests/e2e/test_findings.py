"""The reference's findings (F1-F38, shared/reference/anchor-edges.md section 6) that apply to our
design, one test each, named by the finding, each showing we do not have it.

Most run a real `kg serve` over a socket; where a socket cannot place an event exactly (a client
that hangs up while its reply is built), the whole server runs in this process and the request
goes through the same app as raw ASGI (inprocess.py).
"""

from __future__ import annotations

import pytest
from inprocess import context_of, hook, serve_inprocess, sessions_of

from kg_actors.core.graph_ops import Writer
from kg_actors.conduct import read as read_uc, rename as rename_uc, session as session_uc, sync as sync_uc, useful as useful_uc, write as write_uc



def _tool_event(claude_sid: str, cwd: str) -> dict:
    return {"session_id": claude_sid, "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "true"}, "tool_response": {"ok": True}}


async def test_F38_a_push_whose_reply_the_client_abandoned_is_offered_again(tmp_path, home):
    cwd = home / "push-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        for claude in ("claude-observer", "claude-writer"):
            status, _ = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": claude,
                                                                  "source": "startup"})
            assert status == 200
        writer = await rt.sessions.find_by_claude(claude_sid="claude-writer")
        await write_uc.put_node(rt.floor, writer.sid, "project", "pushed-lesson-node", "a lesson another session wrote",
                                 None, None)
        # The observer's hook reply carries the push, but its client gave up before the reply was sent.
        status, lost = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)), hang_up=True)
        assert status == 200 and "pushed-lesson-node" in context_of(lost)
        observer = await rt.sessions.find_by_claude(claude_sid="claude-observer")
        assert ("project", "pushed-lesson-node") not in observer.seen, "an undelivered push must not count as seen"
        # The next reply the client does read carries it again, and only that one.
        status, got = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)))
        assert "pushed-lesson-node" in context_of(got), "the abandoned push was lost (F38)"
        observer = await rt.sessions.find_by_claude(claude_sid="claude-observer")
        assert ("project", "pushed-lesson-node") in observer.seen
        status, again = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)))
        assert "pushed-lesson-node" not in context_of(again), "a delivered push comes once"


# Shared set-up -----------------------------------------------------------------------------------

async def _bootstrap(rt, claude: str, cwd) -> str:
    return (await sessions_of(rt, cwd, claude))[0]


def _project(home, name: str = "finding-proj"):
    cwd = home / name
    cwd.mkdir(exist_ok=True)
    return cwd


# Store persistence ---------------------------------------------------------------------------------

async def test_F2_a_failed_save_is_never_recorded_as_saved(tmp_path, monkeypatch):
    """Invariant: not dirty => memory == disk. A fold that fails answers False and stays due."""
    import json

    import trio

    from kg_actors.core.model import GraphData
    from kg_actors.graph_actor import run_graph_actor

    flag = tmp_path / "fault"
    monkeypatch.setenv("KG_TEST_STORAGE_FAULT", str(flag))
    path = tmp_path / "graph.json"
    w = Writer(session=None)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await handle.put_node(node_id="acked-before-node", gist="in the journal", notes=None, touches=None,
                              now=100.0, writer=w)
        flag.write_text("EIO")
        assert await handle.fold() is False
        assert await handle.fold() is False, "a failed save stays due: the next fold tries again"
        flag.unlink()
        assert await handle.fold() is True
        assert json.loads(path.read_text()) == await handle.dump(), "saved means memory == disk"
        await handle.close()


async def test_F3_a_reload_keeps_every_acknowledged_write(tmp_path, home):
    """Disk wins on a reload, and what was acknowledged is on disk (the journal): nothing unsaved is lost."""
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        sid = await _bootstrap(rt, "claude-f3", cwd)
        await write_uc.put_node(rt.floor, sid, "project", "acked-not-folded-node", "acknowledged, not yet folded", None, None)
        key = await rt.directory.project_key(str(cwd))
        reloaded = await rt.directory.reload(key)
        assert "acked-not-folded-node" in await reloaded.node_ids()


# Rename -----------------------------------------------------------------------------------------

async def test_F5_a_rename_that_would_capture_a_cross_level_edge_is_refused(tmp_path, home):
    """A project edge to bare id X resolves to the user node X; a project node renamed to X would
    silently re-point it. The rename is refused and the edge keeps its target."""
    from kg_actors.core.errors import KGError

    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        sid = await _bootstrap(rt, "claude-f5", cwd)
        await write_uc.put_node(rt.floor, sid, "user", "shared-retry-rule", "retry idempotent calls only", None, None)
        await write_uc.put_node(rt.floor, sid, "project", "local-http-client", "our client retries GETs", None, None)
        await write_uc.put_node(rt.floor, sid, "project", "other-local-note", "an unrelated lesson", None, None)
        await write_uc.put_edge(rt.floor, sid, "project", "local-http-client", "shared-retry-rule", "instance-of", None)
        with pytest.raises(KGError, match="shared-retry-rule"):
            await rename_uc.rename(rt.floor, sid, "other-local-note", "shared-retry-rule", "project")
        project = await rt.directory.get(await rt.directory.project_key(str(cwd)))
        assert "other-local-note" in await project.node_ids()


# Sessions ---------------------------------------------------------------------------------------

async def test_F8_a_fork_gets_its_own_copy_of_the_session_state(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        parent = await _bootstrap(rt, "claude-parent", cwd)
        child = await rt.sessions.fork(sid=parent, claude_sid="claude-child", harness="claude-code", now=1e9)
        assert child.sid != parent
        await rt.sessions.mark_seen(sid=child.sid, refs=[("user", "only-the-child-saw-this")], via="read", at=1e9)
        assert ("user", "only-the-child-saw-this") in (await rt.sessions.get(sid=child.sid)).seen
        assert ("user", "only-the-child-saw-this") not in (await rt.sessions.get(sid=parent)).seen
        assert (await rt.sessions.find_by_claude(claude_sid="claude-parent")).sid == parent


async def test_F12_a_hook_never_takes_over_a_session_bound_to_another_harness_session(tmp_path, home):
    cwd = _project(home)
    transcript = home / "t.jsonl"
    async with serve_inprocess(tmp_path / "store") as rt:
        bound = await _bootstrap(rt, "claude-owner", cwd)
        transcript.write_text(f'{{"text": "Session: {bound}"}}\n')  # another conversation shows that session
        status, _ = await hook(rt, "/api/tool_event", {**_tool_event("claude-stranger", str(cwd)),
                                                       "transcript_path": str(transcript)})
        assert status == 200
        assert (await rt.sessions.find_by_claude(claude_sid="claude-owner")).sid == bound
        stranger = await rt.sessions.find_by_claude(claude_sid="claude-stranger")
        assert stranger is None or stranger.sid != bound


async def test_F11_a_write_from_a_stale_view_is_refused_not_applied(tmp_path, home):
    from kg_actors.core.errors import WriteConflict

    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a = await _bootstrap(rt, "claude-a", cwd)
        b = await _bootstrap(rt, "claude-b", cwd)
        await write_uc.put_node(rt.floor, a, "project", "contended-node", "first version", ["note by a"], None)
        await rt.sessions.mark_seen(sid=b, refs=[("project", "contended-node")], via="read", at=rt.clock(),
                                    full=True)  # b reads it
        await write_uc.put_node(rt.floor, b, "project", "contended-node", "second version by b", ["note by a", "note by b"],
                                 None)
        with pytest.raises(WriteConflict):
            await write_uc.put_node(rt.floor, a, "project", "contended-node", "a's rewrite from its old view",
                                     ["note by a"], None)
        project = await rt.directory.get(await rt.directory.project_key(str(cwd)))
        assert "note by b" in (await project.get_node(node_id="contended-node")).notes


# Delivery ---------------------------------------------------------------------------------------

def test_F13_a_paged_node_read_counts_only_with_the_part_that_ends_the_node():
    from kg_actors.core import paging, reads
    from kg_actors.core.model import Node

    node = Node("long-notes-node", "a gist", notes=tuple(f"note {i}: " + "x" * 300 for i in range(20)))
    lines = reads.node_read_lines([reads.node_block("project", node, [], False)], "abcd1234", [])
    parts = paging.split(lines, 2000, len, "abcd1234")
    assert len(parts) > 2
    with_read = [i for i, (_, eff) in enumerate(parts) if eff.get("read")]
    last_note = max(i for i, (text, _) in enumerate(parts) if "note 19:" in text)
    assert with_read == [last_note], "the read counts when the part ending the node's notes is delivered"


async def test_F14_a_push_in_a_reply_the_client_gave_up_on_is_not_marked_seen(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        observer = await _bootstrap(rt, "claude-observer", cwd)
        writer = await _bootstrap(rt, "claude-writer", cwd)
        await write_uc.put_node(rt.floor, writer, "project", "notice-node", "another session's lesson", None, None)
        _, reply = await hook(rt, "/api/prompt_context", {"session_id": "claude-observer", "cwd": str(cwd),
                                                          "prompt": "anything new"}, hang_up=True)
        view = await rt.sessions.get(sid=observer)
        assert ("project", "notice-node") not in view.seen


async def test_F15_a_compaction_preloads_again_what_the_old_context_had_shown(tmp_path, home):
    """The compacted context lost the preload's gists: the session must not go on believing it holds
    them (its preloaded anchors would render id-only); the compact start shows them again."""
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        sid = await _bootstrap(rt, "claude-f15", cwd)
        await write_uc.put_node(rt.floor, sid, "project", "preloaded-lesson-node", "a lesson the preload shows", None, None)
        await _bootstrap(rt, "claude-f15b", cwd)  # a new conversation: its preload shows the node
        status, reply = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": "claude-f15b",
                                                                  "source": "compact"})
        assert status == 200 and "a lesson the preload shows" in context_of(reply)


async def test_F16_a_new_read_replaces_undelivered_parts_instead_of_being_refused(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        sid = await _bootstrap(rt, "claude-f16", cwd)
        await rt.sessions.set_pages(sid=sid, parts=["old part 2", "old part 3"], effects=[{}, {}])
        await rt.sessions.set_pages(sid=sid, parts=["fresh part 2"], effects=[{}])
        assert (await rt.sessions.next_page(sid=sid))[0] == "fresh part 2"
        assert await rt.sessions.next_page(sid=sid) is None


# Compaction -------------------------------------------------------------------------------------

def test_F7_a_tick_does_not_refill_what_it_just_archived():
    import core.test_compaction as c
    c.test_a_settled_level_stays_settled_as_time_passes_and_wakes_on_a_change()


def test_F33_two_linked_nodes_never_swap_back_and_forth():
    import core.test_compaction as c
    c.test_two_linked_nodes_do_not_swap_back_and_forth()


def test_F34_no_node_stays_archived_when_everything_fits():
    import core.test_compaction as c
    c.test_refill_brings_the_whole_archive_back_when_everything_fits_active()


# Cross-session ----------------------------------------------------------------------------------

async def test_F35_a_vote_is_not_pushed_as_a_write(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        writer = await _bootstrap(rt, "claude-writer", cwd)
        await write_uc.put_node(rt.floor, writer, "project", "voted-node", "a lesson", None, None)
        observer = await _bootstrap(rt, "claude-observer", cwd)  # opens after the write
        voter = await _bootstrap(rt, "claude-voter", cwd)
        await useful_uc.useful(rt.floor, voter, ["voted-node"], None)  # bumps a stamp, writes no content
        _, reply = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)))
        assert "voted-node" not in context_of(reply)
        assert "voted-node" not in await sync_uc.sync(rt.floor, observer)


async def test_F36_an_own_rename_does_not_hide_another_sessions_change_from_kg_sync(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a = await _bootstrap(rt, "claude-a", cwd)
        b = await _bootstrap(rt, "claude-b", cwd)
        await sync_uc.sync(rt.floor, a)  # a's window starts here
        await write_uc.put_node(rt.floor, b, "project", "changed-by-b-node", "b's lesson", None, None)
        await write_uc.put_node(rt.floor, b, "project", "also-by-b-node", "b's other lesson", None, None)
        await rename_uc.rename(rt.floor, a, "changed-by-b-node", "renamed-by-a-node", "project")
        text = await sync_uc.sync(rt.floor, a)
        assert "also-by-b-node" in text
        assert "renamed-by-a-node" in text, "b's write, renamed by a, still shows in a's kg_sync"


async def test_F37_two_concurrent_hook_replies_never_carry_the_same_change(tmp_path, home):
    import trio

    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        await _bootstrap(rt, "claude-observer", cwd)
        writer = await _bootstrap(rt, "claude-writer", cwd)
        await write_uc.put_node(rt.floor, writer, "project", "once-only-node", "pushed to one reply", None, None)
        replies: list[str] = []

        async def one() -> None:
            _, reply = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)))
            replies.append(context_of(reply))

        async with trio.open_nursery() as nursery:
            for _ in range(4):
                nursery.start_soon(one)
        assert sum("once-only-node" in r for r in replies) == 1


async def test_F14_a_recall_in_a_prompt_reply_the_client_gave_up_on_stays_unseen(tmp_path, home):
    """The same rule for what recall shows: a gist counts as seen only once its reply was sent, so a
    hung-up client gets it recalled again by the next prompt that asks for it."""
    from kg_actors.harness import profiles

    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        sid = await _bootstrap(rt, "claude-recall", cwd)
        await write_uc.put_node(rt.floor, sid, "project", "zookeeper-session-expiry",
                                 "zookeeper session expiry drops ephemeral znodes: renew before the timeout",
                                 None, None)
        opened = await session_uc.open_session(rt.floor, str(cwd), sid, profiles.from_user_agent("claude-code"))
        await read_uc.read(rt.floor, opened, profiles.from_user_agent("claude-code"), None, None, False)  # the full read
        await rt.sessions.reset_context(sid=sid, now=rt.clock())  # what the full read showed is gone from the context
        await read_uc.read(rt.floor, opened, profiles.from_user_agent("claude-code"), ["other-id"], None, False)
        await rt.sessions.mark_full_read(sid=sid, now=rt.clock())
        prompt = {"session_id": "claude-recall", "cwd": str(cwd),
                  "prompt": "why does zookeeper session expiry drop our ephemeral znodes"}
        _, lost = await hook(rt, "/api/prompt_context", prompt, hang_up=True)
        assert "zookeeper-session-expiry" in context_of(lost)
        assert ("project", "zookeeper-session-expiry") not in (await rt.sessions.get(sid=sid)).seen
        _, got = await hook(rt, "/api/prompt_context", prompt)
        assert "zookeeper-session-expiry" in context_of(got), "recalled again: the first reply never arrived"
        assert ("project", "zookeeper-session-expiry") in (await rt.sessions.get(sid=sid)).seen
