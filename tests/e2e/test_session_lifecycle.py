"""Resume, fork, clear and compaction, from transcript fixtures, through the real SessionStart hook.

A harness keeps what each hook and tool showed in its transcript; the server
recovers the KG session from the last marker there (`session_id: X (pass`,
`Session: X`, `session_id='X'`, `"session_id": "X"`). A resumed or forked
conversation gets its own copy of the session's state; clear starts fresh;
after a compaction the context state (seen, the preload, the full-read flag)
is reset and the core preloaded again.
"""

from __future__ import annotations

import json
import shutil
import uuid

import pytest
from e2e_helpers import wait_until
from hook_helpers import Harness, codex_rollout, node, project_graph, recall_log, user_graph

from kg_actors.testing import ServerProcess, stored_sessions, write_store

QUESTION = "why does the JWT refresh fail when expiry checks see clock skew between servers"
SKEW = "jwt-clock-skew: JWT expiry checks allow 30 s of clock skew"
LIMIT_Q = "how does the rate limiter window count requests"
LIMIT = "rate-limit-window: the rate limiter counts requests"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("lifecycle"))
    projects = {}
    for name in ("life-proj", "other-proj"):
        root = server.project(name)
        projects[name] = project_graph(root, [
            node("auth-token-refresh", "JWT refresh uses a sliding window; silent failure if the session expired"),
            node("session-store-redis", "sessions live in redis with a 24 h TTL"),
            node("jwt-clock-skew", "JWT expiry checks allow 30 s of clock skew between servers", _archived=True),
            node("rate-limit-window", "the rate limiter counts requests in a fixed 60 s window", _archived=True),
        ], [("jwt-clock-skew", "auth-token-refresh", "refines")])
    write_store(server.store, user_graph([node("prefer-small-commits", "commit one logical change at a time")]),
                projects)
    server.start()
    yield server
    server.kill()


def session_state(srv, kg_sid: str) -> dict:
    import httpx
    return httpx.get(f"{srv.url}/api/session_state", params={"session_id": kg_sid}, timeout=5).json()


def resumed(srv, parent: Harness, kind: str = "claude", same_file: bool = False) -> Harness:
    """A new harness session continuing `parent`'s conversation: its transcript starts as a copy of the parent's."""
    child = Harness(srv, parent.cwd, kind=kind)
    if same_file:
        child.transcript = parent.transcript
    else:
        shutil.copyfile(parent.transcript, child.transcript)
    return child


def started(srv, cwd: str | None = None, kind: str = "claude") -> Harness:
    h = Harness(srv, cwd or srv.project("life-proj"), kind=kind)
    assert h.start().context.startswith("KG MEMORY PRELOADED")
    return h


def test_resume_of_the_same_harness_session_keeps_its_kg_session_and_state(srv):
    h = started(srv)
    h.full_read()
    assert SKEW in h.prompt(QUESTION).context
    original = h.kg_sid
    run = h.start("resume")
    assert run.context.startswith(f"KG memory session resumed — session_id: {original} (pass")
    assert "preload earlier in this conversation remains in context" in run.context
    assert run.message == f"kg memory: session {original} resumed"
    assert h.kg_sid == original
    assert not h.prompt(QUESTION).is_reminder  # the full read still counts
    assert SKEW not in h.prompt(QUESTION).context  # and what it was shown stays seen


def test_the_same_harness_session_id_in_another_project_starts_a_session_of_its_own(srv):
    """Two harnesses (or a reused --session-id) may bring one id to two projects: the second was told its session
    was resumed, and served and wrote the first project's memory."""
    first = started(srv)
    other = Harness(srv, srv.project("other-proj"), sid=first.sid)  # the harness's id, as its payloads carry it
    run = other.start()
    assert run.context.startswith("KG MEMORY PRELOADED") and "resumed" not in run.context
    assert other.kg_sid != first.kg_sid
    def saved() -> dict:  # a new session is saved right after its start is answered
        on_disk = stored_sessions(srv.store)
        return on_disk if other.kg_sid in on_disk else {}

    saved = wait_until(saved, what="the new session stored")
    assert saved[other.kg_sid]["project_path"] == srv.project("other-proj")
    assert saved[first.kg_sid]["project_path"] == srv.project("life-proj")


def test_resume_in_a_new_harness_session_recovers_a_copy_from_the_transcript(srv):
    parent = started(srv)
    parent.full_read()
    assert SKEW in parent.prompt(QUESTION).context
    child = resumed(srv, parent)
    run = child.start("resume")
    assert child.kg_sid and child.kg_sid != parent.kg_sid
    assert run.context.startswith(f"KG memory session resumed — session_id: {child.kg_sid} (pass")
    assert f"it replaces {parent.kg_sid}, which stays with the session this one was forked from" in run.context
    # The copy holds the parent's state: the full read, and what it was shown.
    assert not child.prompt(QUESTION).is_reminder
    assert SKEW not in child.prompt(QUESTION).context
    # The parent keeps its own session.
    assert parent.prompt(LIMIT_Q).context.count(LIMIT) == 1
    assert {r["kg_session"] for r in recall_log(srv) if r.get("claude_session") == parent.sid} == {parent.kg_sid}
    assert session_state(srv, child.kg_sid)["full_read_done"] is True


def test_fork_two_harness_sessions_resuming_one_transcript_get_two_sessions_with_their_own_state(srv):
    parent = started(srv)
    parent.full_read()
    a, b = resumed(srv, parent), resumed(srv, parent)
    a.start("resume")
    b.start("resume")
    assert len({parent.kg_sid, a.kg_sid, b.kg_sid}) == 3
    # What one fork is shown does not count as seen in the other.
    assert SKEW in a.prompt(QUESTION).context
    assert SKEW in b.prompt(QUESTION).context
    assert LIMIT in b.prompt(LIMIT_Q).context
    assert LIMIT in a.prompt(LIMIT_Q).context
    assert SKEW in parent.prompt(QUESTION).context and LIMIT in parent.prompt(LIMIT_Q).context
    # Each harness session stays bound to its own KG session.
    for h in (parent, a, b):
        assert {r["kg_session"] for r in recall_log(srv) if r.get("claude_session") == h.sid} == {h.kg_sid}


def test_clear_starts_a_fresh_session(srv):
    h = started(srv)
    h.full_read()
    assert SKEW in h.prompt(QUESTION).context
    old = h.kg_sid
    run = h.start("clear")
    assert run.context.startswith("KG MEMORY PRELOADED") and h.kg_sid != old
    assert run.message.startswith("kg memory: preloaded")
    assert h.prompt(QUESTION).is_reminder  # a fresh session has made no full read
    h.full_read()
    assert SKEW in h.prompt(QUESTION).context  # and has seen nothing yet


def test_compaction_resets_the_context_state_and_preloads_again(srv):
    h = started(srv)
    preloaded = session_state(srv, h.kg_sid)["preloaded_count"]
    assert preloaded > 0
    h.full_read()
    assert SKEW in h.prompt(QUESTION).context
    sid = h.kg_sid
    run = h.start("compact")
    # The same session, the core preloaded again (not a continuity note).
    assert h.kg_sid == sid
    assert run.context.startswith("KG MEMORY PRELOADED") and f"session_id: {sid} (pass" in run.context
    assert "auth-token-refresh: JWT refresh uses a sliding window" in run.context
    state = session_state(srv, sid)
    assert state["full_read_done"] is False and state["preloaded_count"] == preloaded
    # The prompt hook reminds again until the next full read ...
    assert h.prompt(QUESTION).is_reminder
    full = h.full_read()
    assert "I have recalled KG Memories" in full and "JWT refresh uses a sliding window" not in full
    # ... and what the summary dropped can be recalled again.
    assert SKEW in h.prompt(QUESTION).context
    assert SKEW not in h.prompt(QUESTION).context


def test_the_last_marker_in_the_transcript_wins(srv):
    first, second = started(srv), started(srv)
    h = Harness(srv, first.cwd)
    with open(h.transcript, "a") as f:
        f.write(json.dumps({"type": "attachment", "content": f"session_id: {first.kg_sid} (pass it"}) + "\n")
        f.write(json.dumps({"type": "assistant", "message": {"content": [
            {"type": "tool_use", "name": "mcp__kg__kg_search",
             "input": {"session_id": second.kg_sid, "query": "x"}}]}}) + "\n")
    run = h.start("resume")
    assert f"it replaces {second.kg_sid}," in run.context


@pytest.mark.parametrize("marker", ["Session: {sid}", "session_id='{sid}'", "session_id: {sid} (pass it"])
def test_each_marker_form_recovers_the_session(srv, marker):
    first = started(srv)
    h = Harness(srv, first.cwd)
    with open(h.transcript, "a") as f:
        f.write(json.dumps({"type": "user", "message": {"content": marker.format(sid=first.kg_sid)}}) + "\n")
    assert f"it replaces {first.kg_sid}," in h.start("resume").context


def test_a_transcript_naming_another_projects_or_an_unknown_session_starts_fresh(srv):
    elsewhere = started(srv, srv.project("other-proj"))
    h = Harness(srv, srv.project("life-proj"))
    with open(h.transcript, "a") as f:
        f.write(json.dumps({"type": "user", "message": {"content": f"Session: {elsewhere.kg_sid}"}}) + "\n")
    run = h.start("resume")
    assert run.context.startswith("KG MEMORY PRELOADED") and h.kg_sid != elsewhere.kg_sid
    g = Harness(srv, srv.project("life-proj"))
    with open(g.transcript, "a") as f:
        f.write(json.dumps({"type": "user", "message": {"content": "Session: 0123abcd"}}) + "\n")
    assert g.start("resume").context.startswith("KG MEMORY PRELOADED")


def test_a_session_opened_by_kg_read_is_claimed_by_the_harness_session_whose_transcript_shows_it(srv):
    # SessionStart never reached the server (say it was down); the agent opened a session itself.
    h = Harness(srv, srv.project("life-proj"))
    text = h.mcp("kg_read", cwd=h.cwd)  # recorded in the transcript: "Session: <sid>"
    kg_sid = text.rsplit("Session: ", 1)[1].split()[0]
    assert SKEW in h.prompt(QUESTION).context  # the prompt hook finds it through the transcript and binds it
    assert {r["kg_session"] for r in recall_log(srv) if r.get("claude_session") == h.sid} == {kg_sid}
    # A session already bound to another harness session is never claimed this way.
    other = Harness(srv, h.cwd)
    shutil.copyfile(h.transcript, other.transcript)
    assert other.prompt(QUESTION).is_pool_line
    assert not [r for r in recall_log(srv) if r.get("claude_session") == other.sid]


def test_codex_resume_recovers_from_its_rollout(srv):
    parent = started(srv, kind="codex")
    parent.full_read()
    assert SKEW in parent.prompt(QUESTION).context
    child = Harness(srv, parent.cwd, kind="codex", transcript=codex_rollout(srv.home, str(uuid.uuid4())))
    shutil.copyfile(parent.transcript, child.transcript)
    run = child.start("resume")
    assert child.kg_sid != parent.kg_sid and f"it replaces {parent.kg_sid}," in run.context
    assert SKEW not in child.prompt(QUESTION).context and not child.prompt(QUESTION).is_reminder
    assert session_state(srv, child.kg_sid)["found"]
