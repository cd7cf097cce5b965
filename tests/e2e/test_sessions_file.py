"""sessions.json holds what the live sessions need, not every write any session made.

Each write is pushed to every live session (three gists a reply), so a file that kept every node a
session was shown grew with writes x sessions: ~2 MB after 3,000 writes over 30 sessions, ~5.8 MB
with hooks. A session keeps the SEEN_KEPT nodes it was shown last (and as many view stamps); an
expired one leaves the file.
"""

from __future__ import annotations

import json
import time

from inprocess import asgi, hook, serve_inprocess, sessions_of
from rpc_helpers import Conn, rpc

from kg_actors.core import constants as C
from kg_actors.runtime import _tick
from kg_actors.testing import stored_sessions

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]


def _node_id(n: int) -> str:
    return f"{WORDS[n % 12]}-{WORDS[n // 12 % 12]}-{WORDS[n // 144 % 12]}-lesson"


async def _put(rt, sid: str, n: int) -> None:
    status, raw = await asgi(rt, "POST", "/", rpc("kg_put_node", {
        "session_id": sid, "level": "project", "id": _node_id(n), "gist": f"lesson {n}: how the thing behaves"}))
    result = json.loads(raw)["result"]
    assert status == 200 and not result.get("isError"), result


async def test_sessions_file_stops_growing_with_writes_and_keeps_what_each_session_was_shown_last(
        tmp_path, home, monkeypatch):
    kept = 40
    monkeypatch.setattr(C, "SEEN_KEPT", kept, raising=False)  # the bound, small enough to pass in a few hundred writes
    cwd = home / "busy-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        sids = await sessions_of(rt, cwd, *(f"claude-{i}" for i in range(6)))
        sizes = []
        n = 0
        for rounds in (40, 40):  # each session writes, and is pushed the others' writes
            for _ in range(rounds):
                for sid in sids:
                    await _put(rt, sid, n)
                    n += 1
            await rt.sessions.save()
            sizes.append(len(json.dumps(stored_sessions(tmp_path / "store"))))
        stored = stored_sessions(tmp_path / "store")
    # Twice the writes, not twice the records kept (it was 2x: growth with every write).
    assert sizes[1] < sizes[0] * 1.2, sizes
    over = kept + kept // 8
    for sid in sids:
        rec = stored[sid]
        assert "seen_ids" not in rec  # seen_via's keys, once
        assert len(rec["seen_via"]) <= over and len(rec["seen_at"]) <= over and len(rec["read_at"]) <= over
    # What a session did last is what it keeps: its own last write is still in its context.
    for i, sid in enumerate(sids):
        last = n - len(sids) + i
        assert f"project:{_node_id(last)}" in stored[sid]["seen_via"]


def test_a_sessions_file_of_an_unbounded_build_loads_trimmed_and_its_expired_session_is_dropped(server_factory):
    """A real server on a sessions.json as the build before the bound wrote it: 12,000 nodes seen
    (and seen_ids beside seen_via), and a session idle for two days."""
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    now = time.time()
    keys = [f"project:{_node_id(n)}-{n % 7}" if n >= 1728 else f"project:{_node_id(n)}" for n in range(12_000)]
    big = {"start_ts": now - 3600, "last_activity": now - 60, "project_path": srv.project("app"),
           "seen_via": dict.fromkeys(keys, "push"), "seen_ids": keys,
           "seen_at": {k: now - 3600 + i * 0.1 for i, k in enumerate(keys)}, "read_at": {}}
    idle = {"start_ts": now - 3 * 86400, "last_activity": now - 2 * 86400, "seen_via": {"user:old-lesson": "read"}}
    (srv.store / "sessions.json").write_text(json.dumps({"aaaa1111": big, "bbbb2222": idle}))
    srv.start("--no-editor")
    conn = Conn(srv.port)
    text, err = conn.tool("kg_read")  # a new session: stored before its reply
    conn.close()
    assert not err, text
    assert srv.stop() == 0  # a clean stop folds the sessions' journal: sessions.json whole again
    stored = json.loads((srv.store / "sessions.json").read_text())
    assert "bbbb2222" not in stored  # expired: a day idle
    rec = stored["aaaa1111"]
    assert "seen_ids" not in rec
    assert len(rec["seen_via"]) == len(rec["seen_at"]) == C.SEEN_KEPT
    assert keys[-1] in rec["seen_via"] and keys[0] not in rec["seen_via"]  # the last shown kept
    assert (srv.store / "sessions.json").stat().st_size < 1_500_000  # it was ~2.3 MB for this one session



async def test_past_the_sessions_kept_the_tick_lets_the_least_recently_active_go_and_a_busy_one_stays(
        tmp_path, home, monkeypatch):
    """Heavy automation (many short `claude -p` runs) opened ~5,000 sessions a day, each kept for a day."""
    monkeypatch.setattr(C, "SESSIONS_KEPT", 3, raising=False)
    monkeypatch.setattr(C, "SESSION_SPARED_SECONDS", 600, raising=False)
    now = [time.time()]
    cwd = home / "busy-proj"
    cwd.mkdir()
    async with serve_inprocess(tmp_path / "store", clock=lambda: now[0]) as rt:
        sids = []
        for i in range(5):  # one every ~17 minutes: none of them a day old
            sids += await sessions_of(rt, cwd, f"claude-{i}")
            now[0] += 1000
        # claude-0, the oldest, is at work again: active lately, it stays; the least recently active go.
        status, _ = await hook(rt, "/api/prompt_context", {"cwd": str(cwd), "session_id": "claude-0",
                                                            "prompt": "how is the deploy retried"})
        assert status == 200
        await _tick(rt)
        kept = [sid for sid in sids if await rt.sessions.get(sid) is not None]
        assert kept == [sids[0], sids[3], sids[4]]
        # A hook of a session let go opens a new one, as after a day idle.
        assert await rt.sessions.find_by_claude(claude_sid="claude-1") is None
        again = await sessions_of(rt, cwd, "claude-1")
        assert again[0] not in sids


def _aged_store(srv, now: float) -> dict:
    """sessions.json of a server stopped a day ago: 30 sessions idle past the expiry, one still live."""
    srv.store.mkdir(parents=True)
    old = {f"{i:08x}": {"start_ts": now - 26 * 3600, "last_activity": now - 25 * 3600,
                        "seen_via": {"user:old-lesson": "push"}, "seen_at": {"user:old-lesson": now - 25 * 3600}}
           for i in range(30)}
    live = {"start_ts": now - 3600, "last_activity": now - 60, "seen_via": {"user:a-lesson": "read"}}
    (srv.store / "sessions.json").write_text(json.dumps({**old, "live0001": live}))
    return live


def test_sessions_a_day_idle_leave_the_file_at_a_stop_with_nothing_else_saved(server_factory):
    srv = server_factory(start=False)
    live = _aged_store(srv, time.time())
    srv.start("--no-editor")
    assert srv.stop() == 0
    stored = json.loads((srv.store / "sessions.json").read_text())
    assert list(stored) == ["live0001"] and stored["live0001"]["seen_via"] == live["seen_via"]
    assert len(json.loads((srv.store / "sessions.prev").read_text())) == 31  # the file before, as DESIGN.md says


async def test_sessions_let_go_at_load_leave_the_file_at_the_first_tick(tmp_path, monkeypatch):
    class Store:
        store = tmp_path / "store"
    _aged_store(Store, time.time())
    async with serve_inprocess(Store.store) as rt:
        assert await rt.sessions.get("00000000") is None and await rt.sessions.get("live0001") is not None
        await _tick(rt)
        assert list(stored_sessions(Store.store)) == ["live0001"]
