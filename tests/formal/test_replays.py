"""Counterexamples the models found, replayed on the real actors (the whole server in-process).

Each test follows the model's trace step by step, with the real handler for each step.
"""

from __future__ import annotations

import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from inprocess import serve_inprocess, sessions_of  # noqa: E402

from kg_actors import reply_effects as delivery  # noqa: E402
from kg_actors.conduct import rename as rename_uc, sync as sync_uc, write as write_uc  # noqa: E402



async def _reply(rt, sid: str):
    """Claim and build one hook reply's push, its delivery still open (the model's "in flight")."""
    window = await rt.sessions.claim_push(sid=sid, now=rt.clock())
    with delivery.collect() as effects:
        text = await sync_uc.push_notice(rt.floor, sid, window=window, claimed=True)
    return text or "", effects


async def test_push_delivery_window_counterexample_a_write_in_flight_is_not_offered_twice(tmp_path, home):
    """formal/models/push_delivery.py, design "window": write n0@1, claim A shows it, write n0@3,
    claim B shows it, A's client hangs up, claim C showed n0@3 again while B was in flight."""
    cwd = home / "replay-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        observer, writer = await sessions_of(rt, cwd, "claude-observer", "claude-writer")
        await write_uc.put_node(rt.floor, writer, "project", "replayed-node", "first version", None, None)
        a_text, a = await _reply(rt, observer)
        assert "first version" in a_text
        await write_uc.put_node(rt.floor, writer, "project", "replayed-node", "second version", None, None)
        b_text, b = await _reply(rt, observer)
        assert "second version" in b_text
        await a.abandoned()  # A's client hung up
        c_text, c = await _reply(rt, observer)
        assert "replayed-node" not in c_text, "the write in flight in B was offered again"
        await b.delivered()
        await c.delivered()
        d_text, _ = await _reply(rt, observer)
        assert "replayed-node" not in d_text, "delivered once, shown once"


async def test_push_delivery_an_abandoned_item_comes_back_once(tmp_path, home):
    cwd = home / "replay-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        observer, writer = await sessions_of(rt, cwd, "claude-observer", "claude-writer")
        await write_uc.put_node(rt.floor, writer, "project", "abandoned-node", "shown to nobody", None, None)
        text, a = await _reply(rt, observer)
        assert "abandoned-node" in text
        await a.abandoned()
        text, b = await _reply(rt, observer)
        assert "abandoned-node" in text
        await b.delivered()
        text, _ = await _reply(rt, observer)
        assert "abandoned-node" not in text


async def test_session_binding_counterexamples_a_forked_conversation_gets_its_own_session(tmp_path, home):
    """formal/models/session_binding.py, designs "share" and "steal": h0 starts and hooks, the
    harness forks h0 into h2 (the same transcript), then h2 starts, or only hooks: each must act
    for a session of its own, and h0 keeps its."""
    from inprocess import hook

    cwd = home / "replay-proj"
    cwd.mkdir()
    transcript = home / "h0.jsonl"
    async with serve_inprocess(tmp_path / "store") as rt:
        (h0,) = await sessions_of(rt, cwd, "claude-h0")
        transcript.write_text(f'{{"text": "Session: {h0}"}}\n')
        tool = {"cwd": str(cwd), "hook_event_name": "PostToolUse", "tool_name": "Bash",
                "tool_input": {"command": "true"}, "transcript_path": str(transcript)}
        await hook(rt, "/api/tool_event", {**tool, "session_id": "claude-h0"})
        # "steal": h2 only hooks; the transcript's session is bound to h0, so h2 must not take it.
        await hook(rt, "/api/tool_event", {**tool, "session_id": "claude-h2-hook-only"})
        stray = await rt.sessions.find_by_claude(claude_sid="claude-h2-hook-only")
        assert stray is None or stray.sid != h0
        # "share": h2 starts from the forked transcript: a copy of its own.
        await hook(rt, "/api/session_bootstrap", {"cwd": str(cwd), "session_id": "claude-h2", "source": "resume",
                                                  "transcript_path": str(transcript)})
        h2 = (await rt.sessions.find_by_claude(claude_sid="claude-h2")).sid
        assert h2 != h0 and (await rt.sessions.find_by_claude(claude_sid="claude-h0")).sid == h0


async def test_rename_levels_counterexample_a_user_rename_into_a_projects_own_id_is_refused(tmp_path, home):
    """formal/models/rename_levels.py, checked=False: the user graph holds a, the project holds b
    with an edge b -> a; renaming user a to b would make the edge resolve to the project's b."""
    from kg_actors.core.errors import Conflict

    cwd = home / "replay-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "claude-renamer")
        await write_uc.put_node(rt.floor, sid, "user", "shared-rule-a", "a user lesson", None, None)
        await write_uc.put_node(rt.floor, sid, "project", "local-rule-b", "a project lesson", None, None)
        await write_uc.put_edge(rt.floor, sid, "project", "local-rule-b", "shared-rule-a", "instance-of", None)
        try:
            await rename_uc.rename(rt.floor, sid, "shared-rule-a", "local-rule-b", "user")
        except Conflict as exc:
            assert "would redirect edges" in str(exc)
        else:
            raise AssertionError("the capturing rename was applied")
        project = await rt.directory.get(await rt.directory.project_key(str(cwd)))
        edges = sorted(project.snapshot().edges)
        assert edges == [("local-rule-b", "shared-rule-a", "instance-of")]


def test_shim_retry_counterexample_a_request_the_server_took_is_never_sent_again():
    """formal/models/shim_retry.py, retry_any=True: the server took the write, then died before its
    reply; sending it again after a restart would apply it twice. The shim answers an error."""
    import io
    import json
    import socket
    import threading

    from shim import Shim

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    posts: list[bytes] = []

    def serve() -> None:
        listener.settimeout(10)
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                data = conn.recv(65536)
                if data.startswith(b"POST"):
                    posts.append(data)  # "applied", then the server dies before its reply
                elif data.startswith(b"GET /health"):  # kg's shape: the shim serves no other server
                    body = b'{"status": "ok", "loaded_graphs": [], "storage": "/store"}'
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    out = io.BytesIO()  # the shim writes UTF-8 bytes, as MCP's stdio carries them
    write = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
             "params": {"name": "kg_put_node", "arguments": {"id": "x", "gist": "y"}}}
    Shim("127.0.0.1", port, out=out).handle(json.dumps(write))
    listener.close()
    thread.join(10)
    reply = json.loads(out.getvalue().splitlines()[-1])
    assert reply["id"] == 7 and "error" in reply, reply
    assert len(posts) == 1, "a request that reached the server was sent again"


# dropped_reply -----------------------------------------------------------------------------------

async def _long_nodes(rt, sid: str, prefix: str, count: int = 3) -> list[str]:
    """Nodes whose node read spans parts (each about 36,000 characters of notes, over Claude Code's 45,000 a part)."""
    ids = []
    for k in range(count):
        node_id = f"{prefix}-long-node-{k}"
        notes = [" ".join(f"{prefix} note {k}.{j} word{i}" for i in range(600)) for j in range(3)]
        await write_uc.put_node(rt.floor, sid, "project", node_id, f"{prefix} lesson {k}", notes, None)
        ids.append(node_id)
    return ids


async def _mcp_tool(rt, name: str, args: dict, hang_up: bool = False) -> str:
    """One MCP tools/call through the real app and SDK (in-process ASGI); `hang_up`: the client is gone
    once the call returned, before its reply is written."""
    import json

    from inprocess import asgi

    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": name, "arguments": args}}).encode()
    status, raw = await asgi(rt, "POST", "/", body, hang_up=hang_up)
    assert status == 200, raw[:500]
    return "\n".join(c.get("text", "") for c in json.loads(raw)["result"]["content"])


def _part_no(text: str) -> int | None:
    import re

    m = re.search(r"\[KG reply part (\d+) of \d+", text)
    return int(m[1]) if m else None


async def test_dropped_reply_at_return_counterexample_a_dropped_part_comes_back(tmp_path, home):
    """formal/models/dropped_reply.py, design "at return": kg_read renders, SetPages and returns part 1,
    the client is gone before the reply is written. Then the part was lost (and a part's nodes counted
    as read when it returned); now `more` gives that part again, what a dropped `more` reply showed
    stays unread until it is written, and every part comes once, in order."""
    from kg_actors.core.paging import NOTHING_PENDING

    cwd = home / "replay-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "claude-dropper")
        ids = await _long_nodes(rt, sid, "dropped")
        await rt.sessions.reset_context(sid=sid, now=rt.clock())  # the writes showed the nodes: start unseen

        async def seen() -> set[str]:
            return {i for _, i in (await rt.sessions.get(sid=sid)).seen} & set(ids)

        dropped = await _mcp_tool(rt, "kg_read", {"session_id": sid, "ids": ids}, hang_up=True)
        assert _part_no(dropped) == 1 and ids[0] in dropped
        parts = [await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})]
        assert parts[0] == dropped, "the dropped part was lost"
        while True:
            shown = await seen()
            text = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True}, hang_up=True)
            if text == NOTHING_PENDING:
                break
            assert await seen() == shown, "a dropped part's nodes counted as read"
            again = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})
            assert again == text, "the dropped part was lost"
            parts.append(again)
            assert len(parts) < 10
        assert [_part_no(p) for p in parts[:-1]] == list(range(1, len(parts))) and len(parts) >= 3
        assert await seen() == set(ids), "every node was read once its last part was written"


async def test_dropped_reply_reoffer_any_counterexample_a_replaced_read_stays_dropped(tmp_path, home):
    """formal/models/dropped_reply.py, design "reoffer any": read 0 and read 1 in flight, both set their
    parts and return part 1; read 0's client is gone. Its part must not come back in front of read 1's."""
    from kg_actors import reply_effects
    from kg_actors.harness import profiles
    from kg_actors.http.tool_handlers import Tools

    cwd = home / "replay-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (sid,) = await sessions_of(rt, cwd, "claude-dropper")
        old_ids = await _long_nodes(rt, sid, "older")
        new_ids = await _long_nodes(rt, sid, "newer")
        tools = Tools(rt.floor)

        async def returns(ids):  # the tool call returns its reply; the transport has not written it yet
            with reply_effects.collect() as effects:
                result = await tools.call("kg_read", {"session_id": sid, "ids": ids}, profiles.CLAUDE_CODE)
            return result.text, effects

        text0, reply0 = await returns(old_ids)
        text1, reply1 = await returns(new_ids)
        assert _part_no(text0) == _part_no(text1) == 1
        await reply0.abandoned()  # read 0's client is gone
        await reply1.delivered()
        nxt = await _mcp_tool(rt, "kg_read", {"session_id": sid, "more": True})
        assert _part_no(nxt) == 2 and new_ids[0] in nxt + text1 and not any(i in nxt for i in old_ids), \
            "a part of the replaced read came back"
