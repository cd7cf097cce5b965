"""Holding back what a reply implies (deferral.py) at a real session registry's door."""

from __future__ import annotations

import trio

from kg_actors import deferral
from kg_actors import session_messages as sm
from kg_actors.session_actor import run_session_registry


async def test_held_marks_apply_only_on_replay_and_a_peeked_push_claim_moves_nothing(tmp_path):
    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {})
        view = await sessions.register(project_path=None, harness="antigravity-cli", now=100.0, claude_sid="conv")
        with deferral.holding() as held:
            await sessions.mark_seen(sid=view.sid, refs=[("user", "a"), ("user", "b")], via="read", at=101.0)
            await sessions.tell(sm.SetPreloaded(sid=view.sid, refs=[("project", "a")]))
            window = await sessions.claim_push(sid=view.sid, now=150.0)
            assert await sessions.mark_full_read(sid=view.sid, now=150.0) is None  # held: its declared answer
        assert window is not None and window.since == 100.0
        assert [type(h.message) for h in held] == [sm.MarkSeen, sm.SetPreloaded, sm.ClaimPush, sm.MarkFullRead]
        now = await sessions.get(sid=view.sid)
        assert now.seen == frozenset() and now.preloaded == frozenset() and now.full_read_ts is None
        # Nothing moved the push watermark: a claim now still starts where the held one did.
        assert (await sessions.claim_push(sid=view.sid, now=120.0, peek=True)).since == 100.0
        await deferral.replay(held)
        after = await sessions.get(sid=view.sid)
        assert after.seen == {("user", "a"), ("user", "b")}
        assert after.preloaded == {"project:a"} and after.full_read_ts == 150.0
        assert (await sessions.claim_push(sid=view.sid, now=160.0)).since == 150.0
        sessions.close()


async def test_outside_a_holding_block_nothing_is_held(tmp_path):
    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {})
        view = await sessions.register(project_path=None, harness="claude-code", now=1.0)
        await sessions.mark_seen(sid=view.sid, refs=[("user", "x")], via="read", at=2.0)
        assert (await sessions.get(sid=view.sid)).seen == {("user", "x")}
        assert not deferral.active()
        sessions.close()


async def test_a_held_reply_keeps_its_effects_even_when_its_transport_collects_them(tmp_path):
    """An Antigravity tool call runs inside App._mcp's collector and a holding block at once: what
    the reply shows waits for the queue's acknowledgement, not for the MCP reply's write."""
    from kg_actors import reply_effects

    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {})
        view = await sessions.register(project_path=None, harness="antigravity-cli", now=1.0, claude_sid="conv")

        async def mark() -> None:
            await sessions.mark_seen(sid=view.sid, refs=[("user", "queued")], via="read", at=2.0)

        with reply_effects.collect() as effects:
            with deferral.holding() as held:
                await reply_effects.once_delivered(mark)
            assert not effects, "a held reply's effect went to the transport"
        await effects.delivered()
        assert (await sessions.get(sid=view.sid)).seen == frozenset()
        await deferral.replay(held)
        assert (await sessions.get(sid=view.sid)).seen == {("user", "queued")}
        sessions.close()
