"""The ambient channels' time rules under Trio's MockClock (autojump): minutes and days pass at once.

File recall: 3 injections per session per 10 minutes (a sliding window).
Capture nudges: one per session per 10 minutes, three per session, one per
target per day; counts and throttles persist in tool_events.json. Driven
through the SessionRegistry actor (what the endpoint asks) and the pure
functions of core/capture.py, with `now` derived from trio.current_time().
"""

from __future__ import annotations

import json
import time

import pytest
import trio

from kg_actors.core import capture
from kg_actors.core import constants as C
from kg_actors import session_messages as sm
from kg_actors.session_actor import run_session_registry

MINUTE = 60
HOUR = 3600
DAY = C.DAY_SECONDS
# Near the real wall clock: the registry prunes throttles by wall time when it saves.
EPOCH = float(int(time.time()))


def wall() -> float:
    return EPOCH + trio.current_time()


async def registry(nursery, tmp_path):
    return await nursery.start(run_session_registry, tmp_path / "sessions.json", {})


async def session(sessions) -> str:
    view = await sessions.register(project_path="/home/u/proj", harness="claude-code", now=wall())
    return view.sid


async def inject(sessions, sid: str) -> bool:
    """What the tool endpoint does for a file with unseen nodes: claim one of the window's injections."""
    return await sessions.claim_file_recall(sid=sid, now=wall())


# -- file recall ----------------------------------------------------------------------


async def test_file_recall_allows_three_injections_per_ten_minutes(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)
        sid = await session(sessions)
        assert [await inject(sessions, sid) for _ in range(3)] == [True, True, True]
        assert not await inject(sessions, sid)
        await trio.sleep(10 * MINUTE - 1)
        assert not await inject(sessions, sid)  # still inside the window
        await trio.sleep(1)
        assert await inject(sessions, sid)
        nursery.cancel_scope.cancel()


async def test_the_file_recall_window_slides(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)
        sid = await session(sessions)
        assert await inject(sessions, sid)  # t = 0
        await trio.sleep(5 * MINUTE)
        assert await inject(sessions, sid)  # t = 5 min
        assert await inject(sessions, sid)
        await trio.sleep(5 * MINUTE)  # t = 10 min: the first has left the window, two remain
        assert await inject(sessions, sid)
        assert not await inject(sessions, sid)
        await trio.sleep(5 * MINUTE)  # t = 15 min: the two of t = 5 min have left
        assert await inject(sessions, sid) and await inject(sessions, sid)
        assert not await inject(sessions, sid)
        nursery.cancel_scope.cancel()


async def test_the_file_recall_throttle_is_per_session(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)
        a, b = await session(sessions), await session(sessions)
        for _ in range(3):
            assert await inject(sessions, a)
        assert not await inject(sessions, a)
        assert await inject(sessions, b)
        nursery.cancel_scope.cancel()


# -- capture nudges: the pure rules -------------------------------------------------------


async def test_repetition_thresholds(autojump_clock):
    events: dict = {}
    record = capture.count_event(events, "read:src/a.py", "claude-1", wall())
    assert not capture.repeated("read", record)
    record = capture.count_event(events, "read:src/a.py", "claude-1", wall())
    assert record["count"] == 2 and not capture.repeated("read", record)  # the same session twice
    record = capture.count_event(events, "read:src/a.py", "claude-2", wall())
    assert capture.repeated("read", record)  # a second distinct session
    web = capture.count_event(events, "web:https://example.org/doc", "claude-1", wall())
    assert not capture.repeated("web", web)
    web = capture.count_event(events, "web:https://example.org/doc", "claude-1", wall())
    assert capture.repeated("web", web)  # fetched twice, one session is enough


async def test_only_the_last_ten_sessions_are_kept_per_target(autojump_clock):
    events: dict = {}
    for i in range(15):
        record = capture.count_event(events, "read:a.py", f"s{i}", wall())
    assert record["sessions"] == [f"s{i}" for i in range(5, 15)] and record["count"] == 15


async def test_one_nudge_per_ten_minutes_and_three_per_session(autojump_clock):
    events: dict = {}
    targets = [f"web:https://example.org/{i}" for i in range(5)]
    records = {t: capture.count_event(events, t, "claude-1", wall()) for t in targets}
    assert capture.throttle_allows(events, records[targets[0]], "kg-1", wall())
    capture.record_nudge(events, records[targets[0]], "kg-1", wall())
    await trio.sleep(10 * MINUTE - 1)
    assert not capture.throttle_allows(events, records[targets[1]], "kg-1", wall())
    assert capture.throttle_allows(events, records[targets[1]], "kg-2", wall())  # another session
    await trio.sleep(1)
    assert capture.throttle_allows(events, records[targets[1]], "kg-1", wall())
    capture.record_nudge(events, records[targets[1]], "kg-1", wall())
    await trio.sleep(10 * MINUTE)
    capture.record_nudge(events, records[targets[2]], "kg-1", wall())
    await trio.sleep(DAY)
    assert not capture.throttle_allows(events, records[targets[3]], "kg-1", wall())  # three per session, ever
    assert events["throttle"]["kg-1"]["count"] == 3


async def test_one_nudge_per_target_per_day_across_sessions(autojump_clock):
    events: dict = {}
    record = capture.count_event(events, "read:src/a.py", "claude-1", wall())
    capture.record_nudge(events, record, "kg-1", wall())
    await trio.sleep(DAY - 1)
    assert not capture.throttle_allows(events, record, "kg-2", wall())
    await trio.sleep(1)
    assert capture.throttle_allows(events, record, "kg-2", wall())


async def test_pruning_keeps_500_newest_targets_and_a_week_of_throttles(autojump_clock):
    events: dict = {}
    for i in range(C.TOOL_EVENTS_MAX_KEYS + 20):
        capture.count_event(events, f"read:f{i}.py", "s", wall())
        await trio.sleep(1)
    record = events["events"]["read:f0.py"]
    capture.record_nudge(events, record, "old-session", wall())
    await trio.sleep(8 * DAY)
    capture.record_nudge(events, events["events"]["read:f1.py"], "new-session", wall())
    capture.prune(events, wall())
    assert len(events["events"]) == C.TOOL_EVENTS_MAX_KEYS
    assert "read:f0.py" not in events["events"] and f"read:f{C.TOOL_EVENTS_MAX_KEYS + 19}.py" in events["events"]
    assert set(events["throttle"]) == {"new-session"}


@pytest.mark.parametrize("path, noise", [
    ("/home/u/proj/src/a.py", False),
    ("/home/u/proj/node_modules/x/index.js", True),
    ("/home/u/proj/.venv/lib/site.py", True),
    ("/home/u/proj/venv/lib/site.py", True),
    ("/home/u/proj/.git/config", True),
    ("/home/u/proj/build/out.js", True),
    ("/home/u/proj/dist/out.js", True),
    ("/home/u/proj/src/__pycache__/a.pyc", True),
    ("/home/u/.knowledge-graph/user.json", True),
    ("/home/u/.claude/settings.json", True),
    ("/home/u/.codex/sessions/rollout-1.jsonl", True),
    ("/tmp/scratch.txt", True),
    ("/var/tmp/scratch.txt", True),
])
def test_transient_paths_never_count(path, noise):
    assert capture.is_noise(path, "/home/u") is noise


def test_a_home_under_tmp_does_not_make_every_file_transient():
    assert not capture.is_noise("/tmp/ci/home/proj/src/a.py", "/tmp/ci/home")
    assert capture.is_noise("/tmp/ci/home/proj/tmp/a.py", "/tmp/ci/home")
    assert capture.is_noise("/tmp/other/a.py", "/tmp/ci/home")


# -- capture nudges through the registry ---------------------------------------------------


async def read(sessions, path, key, harness_sid, kg_sid) -> bool:
    """What the tool endpoint does for an uncovered read: count it, and claim a nudge if repeated."""
    record = await sessions.tool_event(path=path, key=key, harness_sid=harness_sid, now=wall())
    if not capture.repeated(key.split(":", 1)[0], record):
        return False
    return await sessions.claim_nudge(path=path, key=key, kg_sid=kg_sid, now=wall())


async def test_the_registry_applies_every_nudge_throttle(tmp_path, autojump_clock):
    events = str(tmp_path / "projects" / "proj" / "tool_events.json")
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)
        # A first read never nudges; a read in a second distinct session does.
        assert not await read(sessions, events, "read:src/a.py", "claude-1", "kg-1")
        assert await read(sessions, events, "read:src/a.py", "claude-2", "kg-2")
        # The same target again in a third session the same day: no.
        assert not await read(sessions, events, "read:src/a.py", "claude-3", "kg-3")
        # kg-2 repeats another target at once: the 10-minute spacing holds it back.
        assert not await read(sessions, events, "web:https://a.example/x", "claude-2", "kg-2")
        await trio.sleep(10 * MINUTE)
        assert await read(sessions, events, "web:https://a.example/x", "claude-2", "kg-2")
        await trio.sleep(10 * MINUTE)
        assert not await read(sessions, events, "search:trio mockclock", "claude-2", "kg-2")
        assert await read(sessions, events, "search:trio mockclock", "claude-2", "kg-2")
        await trio.sleep(10 * MINUTE)
        assert not await read(sessions, events, "search:fourth target", "claude-2", "kg-2")
        assert not await read(sessions, events, "search:fourth target", "claude-2", "kg-2")  # three per session
        # A day later the first target may nudge again, to a session with room.
        await trio.sleep(DAY)
        assert await read(sessions, events, "read:src/a.py", "claude-4", "kg-4")
        await sessions.save()
        nursery.cancel_scope.cancel()
    saved = json.loads((tmp_path / "projects" / "proj" / "tool_events.json").read_text())
    assert saved["events"]["read:src/a.py"]["sessions"] == ["claude-1", "claude-2", "claude-3", "claude-4"]
    assert saved["events"]["read:src/a.py"]["nudged_ts"] == pytest.approx(EPOCH + 30 * MINUTE + DAY)
    assert saved["throttle"]["kg-2"]["count"] == 3


async def test_counts_and_throttles_survive_a_restart(tmp_path, autojump_clock):
    events = str(tmp_path / "projects" / "proj" / "tool_events.json")
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)
        assert not await read(sessions, events, "read:src/a.py", "claude-1", "kg-1")
        assert await read(sessions, events, "read:src/a.py", "claude-2", "kg-2")
        await sessions.save()
        nursery.cancel_scope.cancel()
    await trio.sleep(HOUR)
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)  # a new registry: what a restarted server loads
        # The target was nudged an hour ago: not again today, even to a fresh session.
        assert not await read(sessions, events, "read:src/a.py", "claude-3", "kg-3")
        # kg-2's spacing is remembered too: its next nudge waits only the 10 minutes, long past.
        assert not await read(sessions, events, "read:src/b.py", "claude-1", "kg-1")
        assert await read(sessions, events, "read:src/b.py", "claude-2", "kg-2")
        record = await sessions.tool_event(path=events, key="read:src/a.py", harness_sid="claude-5",
                                           now=wall())
        assert record["count"] == 4
        nursery.cancel_scope.cancel()


# -- gists held for a reply in flight -------------------------------------------------------------------


async def test_a_gist_offered_by_one_reply_is_left_out_by_the_others_until_it_is_shown_or_let_go(tmp_path,
                                                                                                 autojump_clock):
    async with trio.open_nursery() as nursery:
        sessions = await registry(nursery, tmp_path)
        sid = await session(sessions)
        a, b, c = ("project", "a"), ("project", "b"), ("project", "c")
        assert await sessions.offer(sid=sid, refs=[a, b], now=wall()) == frozenset()
        assert await sessions.offer(sid=sid, refs=[b, c], now=wall()) == {b}  # held by the first reply
        assert await sessions.offer(sid=sid, refs=[("user", "b")], now=wall()) == frozenset()  # another node
        await sessions.unoffer(sid=sid, refs=[c])  # the second reply was never delivered
        assert await sessions.offer(sid=sid, refs=[c], now=wall()) == frozenset()
        await sessions.tell(sm.MarkSeen(sid=sid, refs=[a], via="file", at=wall()))
        assert await sessions.offer(sid=sid, refs=[a], now=wall()) == {a}  # seen now: never again
        await trio.sleep(C.OFFER_HOLD_SECONDS + 1)
        assert await sessions.offer(sid=sid, refs=[b], now=wall()) == frozenset()  # a reply that never came back
        nursery.cancel_scope.cancel()


def test_a_fetch_or_search_is_counted_without_what_may_be_secret():
    """tool_events.json keeps what was fetched and searched: a URL without its query (a reset link's code,
    a key), a query that holds a secret only as a digest."""
    from kg_actors.core import capture
    assert capture.web_target("WebFetch", {"url": "https://example.com/reset?code=Xk9mPq2Lw7#top"}) == \
        ("web", "https://example.com/reset")
    kind, key = capture.web_target("WebSearch", {"query": "the admin password is hunter2correcthorse rejected"})
    assert kind == "search" and key.startswith("withheld-") and "hunter2" not in key
    assert capture.web_target("WebSearch", {"query": "the admin password is hunter2correcthorse rejected"}) == \
        (kind, key)  # the same query counts as the same target
    assert capture.web_target("WebSearch", {"query": "Alembic  Upgrade head"}) == ("search", "alembic upgrade head")


@pytest.mark.parametrize("query", ["rotate API key: fl4c7xU2zxQ9mP3kR8", "sshpass -p Qw7rT5yU3iO1pA9s ssh deploy@host",
                                   "redis-cli -a Tg6Yh8Uj0Ik2Ol4Pm7Nb flushall",
                                   "password=correct-horse-battery-staple"])
def test_a_search_that_holds_a_secret_the_audit_found_is_withheld(query):
    """The counted query is lowercased before it is judged: a key's mixed case is gone, its name must say enough."""
    kind, key = capture.web_target("WebSearch", {"query": query})
    assert kind == "search" and key.startswith("withheld-")


@pytest.mark.parametrize("query", ["rotate the API key runbook", "redis-cli -a flag meaning", "password reset flow"])
def test_a_search_about_secrets_is_counted_as_typed(query):
    assert capture.web_target("WebSearch", {"query": query}) == ("search", query.lower())
