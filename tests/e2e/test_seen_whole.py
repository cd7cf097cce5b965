"""Write arbitration (spec 000) lets a write replace notes or touches only when the session has seen the
node whole: read in full, or written whole. A gist the session saw alone (a preload, a recall), or saw cut
short, is no view of the rest. The whole server runs in this process (inprocess.py)."""

from __future__ import annotations

import pytest
from inprocess import context_of, hook, serve_inprocess, sessions_of

from kg_actors.conduct import sync as sync_uc, write as write_uc
from kg_actors.core.errors import WriteConflict

NODE = "flaky-upload-retry"
GIST = "uploads to the blob store fail once in a while: retry twice with backoff"


def _project(home):
    cwd = home / "whole-proj"
    cwd.mkdir(exist_ok=True)
    return cwd


async def _notes(rt, cwd) -> tuple[str, ...]:
    graph = await rt.directory.get(await rt.directory.project_key(str(cwd)))
    return (await graph.get_node(node_id=NODE)).notes


async def test_a_gist_only_write_does_not_count_as_reading_the_notes(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        (b,) = await sessions_of(rt, cwd, "claude-b")
        await write_uc.put_node(rt.floor, b, "project", NODE, GIST, ["b's case: the 503 at midnight"], None)
        (a,) = await sessions_of(rt, cwd, "claude-a")  # its preload shows the gist, not the notes
        await write_uc.put_node(rt.floor, a, "project", NODE, GIST + " (seen in CI too)", None, None)
        with pytest.raises(WriteConflict) as refused:
            await write_uc.put_node(rt.floor, a, "project", NODE, GIST, ["a's note, replacing b's unseen"], None)
        assert "has not read" in refused.value.reason
        assert await _notes(rt, cwd) == ("b's case: the 503 at midnight",)
        # The refusal showed the node whole: the retry, built on it, goes through.
        await write_uc.put_node(rt.floor, a, "project", NODE, GIST, ["b's case: the 503 at midnight", "a's"], None)
        assert await _notes(rt, cwd) == ("b's case: the 503 at midnight", "a's")


async def test_a_write_that_gives_both_lists_or_makes_the_node_shows_it_whole(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        (b,) = await sessions_of(rt, cwd, "claude-b")
        await write_uc.put_node(rt.floor, b, "project", "other-node", "uploads need a content type", None, None)
        (a,) = await sessions_of(rt, cwd, "claude-a")
        await write_uc.put_node(rt.floor, a, "project", NODE, GIST, None, None)  # made by a: seen whole
        await write_uc.put_node(rt.floor, a, "project", NODE, GIST, ["a's first"], None)
        await write_uc.put_node(rt.floor, a, "project", NODE, GIST, ["a's second"], None)
        assert await _notes(rt, cwd) == ("a's second",)
        await write_uc.put_node(rt.floor, a, "project", "other-node", "uploads need one", ["a1"], ["./up.py"])
        await write_uc.put_node(rt.floor, a, "project", "other-node", "uploads need one", ["a2"], None)
        graph = await rt.directory.get(await rt.directory.project_key(str(cwd)))
        assert (await graph.get_node(node_id="other-node")).notes == ("a2",)


HEAD = "uploads to the blob store fail once in a while when the multipart session expires mid-way: "
END = "and the end of this gist says the one thing that matters, retry the whole upload not the part"
LONG = HEAD * 6 + END


async def test_a_gist_a_push_notice_cut_short_is_in_context_but_not_seen_whole(tmp_path, home):
    cwd = _project(home)
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, b, "project", NODE, LONG, None, None)
        pushed = await sync_uc.push_notice(rt.floor, a)
        assert pushed is not None and "…" in pushed and "retry the whole upload" not in pushed
        # In context: recall leaves it out (a gist never injects twice) ...
        assert ("project", NODE) in (await rt.sessions.get(sid=a)).seen
        # ... but a rewrite built on the cut would drop an end a never saw: refused, the node shown whole.
        with pytest.raises(WriteConflict) as refused:
            await write_uc.put_node(rt.floor, a, "project", NODE, "uploads fail when the session expires", None, None)
        assert refused.value.node["gist"] == LONG
        await write_uc.put_node(rt.floor, a, "project", NODE, "uploads fail mid-way: retry the whole upload", None, None)


async def test_a_gist_file_recall_cut_short_is_not_seen_whole(tmp_path, home):
    cwd = _project(home)
    source = cwd / "upload.py"
    source.write_text("print('upload')\n")
    async with serve_inprocess(tmp_path / "store") as rt:
        a, b = await sessions_of(rt, cwd, "claude-a", "claude-b")
        await write_uc.put_node(rt.floor, b, "project", NODE, HEAD * 20 + END, None, [str(source)])
        await rt.sessions.claim_push(sid=a, now=rt.clock())  # b's write is no news: the recall alone shows it
        _, got = await hook(rt, "/api/tool_event", {
            "session_id": "claude-a", "cwd": str(cwd), "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": str(source)}, "tool_response": {}})
        recalled = context_of(got)
        assert NODE in recalled and recalled.endswith("…") and "retry the whole upload" not in recalled
        assert ("project", NODE) in (await rt.sessions.get(sid=a)).seen
        with pytest.raises(WriteConflict):
            await write_uc.put_node(rt.floor, a, "project", NODE, "uploads fail when the session expires", None, None)
