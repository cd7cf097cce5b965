"""A client's `notifications/cancelled` over HTTP: the request it names counts its reply as not delivered."""

import json

from kg_actors.http import cancels, mcp_calls
from kg_actors.http.app import _collect, _replay
from kg_actors.runtime import _build_mcp

HEADERS = [(b"content-type", b"application/json"), (b"accept", b"application/json, text/event-stream"),
           (b"host", b"127.0.0.1"), (b"user-agent", b"node")]


def _scope(*extra: tuple[bytes, bytes]) -> dict:
    return {"type": "http", "method": "POST", "path": "/", "headers": [*HEADERS, *extra], "query_string": b"",
            "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5555)}


def test_a_cancel_marks_the_request_in_flight_with_its_id_from_the_same_client_only():
    table = cancels.Cancels()
    mine, other_id = table.watch(_scope(), 7, now=0.0), table.watch(_scope(), 8, now=0.0)
    other_client = table.watch(_scope((b"x-kg-client", b"claude-code")), 7, now=0.0)
    table.cancel(_scope(), 7, now=1.0)
    assert (mine.cancelled, other_id.cancelled, other_client.cancelled) == (True, False, False)
    for watch in (mine, other_id, other_client):
        table.done(watch)
    assert table._running == {} and not table._early  # the cancel was for a request in flight: nothing kept


def test_a_cancel_that_overtakes_its_request_waits_for_it_a_few_seconds_only():
    table = cancels.Cancels()
    table.cancel(_scope(), "a", now=10.0)
    table.cancel(_scope(), "b", now=10.0)
    assert table.watch(_scope(), "a", now=10.0 + cancels.EARLY_KEEP).cancelled
    assert not table.watch(_scope(), "a", now=11.0).cancelled  # taken once
    assert not table.watch(_scope(), "b", now=10.1 + cancels.EARLY_KEEP).cancelled  # too late: another request
    for k in range(cancels.EARLY_MAX + 10):
        table.cancel(_scope(), k, now=20.0)
    assert len(table._early) == cancels.EARLY_MAX


def test_only_a_cancel_as_the_protocol_words_it_is_taken():
    ok = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3, "reason": "Esc"}}
    assert cancels.cancelled_id(ok) == (True, 3)
    assert cancels.cancelled_id({**ok, "params": {"requestId": "x"}}) == (True, "x")
    for bad in ({**ok, "id": 1}, {**ok, "params": {}}, {**ok, "params": {"requestId": True}},
                {**ok, "params": {"requestId": 1.5}}, {**ok, "params": {"requestId": 1, "reason": 5}}, None, [ok]):
        assert cancels.cancelled_id(bad) == (False, None), bad


async def test_the_cancels_reply_is_the_sdks_own():
    body = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}).encode()
    manager = _build_mcp(None, None)
    out: list[dict] = []
    async with manager.run():
        await manager.handle_request(_scope(), _replay(body), _collect(out))
    sdk = [{**m, "status": int(m["status"])} if "status" in m else m for m in out]
    assert mcp_calls.json_reply(202, b"") == sdk


async def test_a_cancel_read_just_after_the_reply_revokes_what_it_handed_out_once():
    from kg_actors.reply_effects import Effects, collect, defer

    offered_again: list[str] = []

    async def seen() -> None:
        pass

    async def again() -> None:
        offered_again.append("part 2")

    table = cancels.Cancels()
    with collect() as effects:
        assert defer(seen, again)
    await effects.delivered()
    watch = table.watch(_scope(), 9, now=0.0)
    table.done(watch)
    table.answered(watch, effects, now=1.0)
    assert table.cancel(_scope((b"x-kg-client", b"other")), 9, now=2.0) is None  # another client's id 9
    late = table.cancel(_scope(), 9, now=2.0)
    assert late is effects
    await late.revoke()
    await late.revoke()
    assert offered_again == ["part 2"]
    table.answered(watch, effects, now=3.0)  # nothing left to revoke: not kept
    assert table.cancel(_scope(), 9, now=3.5) is None
    kept = Effects()
    with collect() as kept:
        defer(seen, again)
    await kept.delivered()
    table.answered(watch, kept, now=10.0)
    assert table.cancel(_scope(), 9, now=10.1 + cancels.EARLY_KEEP) is None  # too late to be its cancel
