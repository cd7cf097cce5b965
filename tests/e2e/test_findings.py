"""The reference's findings (F1-F38, shared/reference/anchor-edges.md section 6) that apply to our
design, one test each, named by the finding, each showing we do not have it.

Most run a real `kg serve` over a socket; where a socket cannot place an event exactly (a client
that hangs up while its reply is built), the whole server runs in this process and the request
goes through the same app as raw ASGI (inprocess.py).
"""

from __future__ import annotations

import pytest
from inprocess import context_of, hook, server

from kg_actors.core.graph_ops import Writer


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def _tool_event(claude_sid: str, cwd: str) -> dict:
    return {"session_id": claude_sid, "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "true"}, "tool_response": {"ok": True}}


async def test_F38_a_push_whose_reply_the_client_abandoned_is_offered_again(tmp_path, home):
    cwd = home / "push-proj"
    cwd.mkdir()
    async with server(tmp_path / "store") as rt:
        for claude in ("claude-observer", "claude-writer"):
            status, _ = await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": claude,
                                                                  "source": "startup"})
            assert status == 200
        writer = await rt.sessions.find_by_claude(claude_sid="claude-writer")
        await rt.memory.put_node(writer.sid, "project", "pushed-lesson-node", "a lesson another session wrote",
                                 None, None)
        # The observer's hook reply carries the push, but its client gave up before the reply was sent.
        status, lost = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)), hang_up=True)
        assert status == 200 and "pushed-lesson-node" in context_of(lost)
        observer = await rt.sessions.find_by_claude(claude_sid="claude-observer")
        assert "pushed-lesson-node" not in observer.seen, "an undelivered push must not count as seen"
        # The next reply the client does read carries it again, and only that one.
        status, got = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)))
        assert "pushed-lesson-node" in context_of(got), "the abandoned push was lost (F38)"
        observer = await rt.sessions.find_by_claude(claude_sid="claude-observer")
        assert "pushed-lesson-node" in observer.seen
        status, again = await hook(rt, "/api/tool_event", _tool_event("claude-observer", str(cwd)))
        assert "pushed-lesson-node" not in context_of(again), "a delivered push comes once"
