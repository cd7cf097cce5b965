"""A hook payload whose id, name or path is past any harness's is refused whole: the hook prints nothing, the
server answers 400 naming the field (or a harness adapter's empty reply), keeps nothing of it in sessions.json
or recall.jsonl, and goes on serving. Real hook scripts against a real `kg serve`."""

from __future__ import annotations

import pytest
from hook_helpers import Harness, post, recall_log, run_hook

from kg_actors.core import hook_fields
from kg_actors.testing import ServerProcess

LONG_SID = "oversized-session-" + "L" * 300
LONG_TOOL = "oversized-tool-" + "T" * 300


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("bounds"))
    server.project("bound-proj")
    server.start("--no-editor")
    yield server
    server.kill()


def _store_text(srv: ServerProcess) -> str:
    srv.logs_written()
    return "".join(p.read_text(errors="replace") for p in srv.store.rglob("*") if p.is_file())


def test_a_session_id_past_any_harnesss_is_refused_by_every_hook_and_kept_nowhere(srv):
    transcript = srv.home / "long-sid.jsonl"  # a file named for the id would be past the name limit
    transcript.touch()
    h = Harness(srv, srv.project("bound-proj"), sid=LONG_SID, transcript=transcript)
    for run in (h.start(), h.prompt("how does the JWT refresh work"), h.read(__file__),
                run_hook("pre_tool", {**h._base("PreToolUse"), "tool_name": "Bash",
                                      "tool_input": {"command": "git status"}}, h.env)):
        assert (run.out, run.rc) == ("", 0), run
    for path, event in (("/api/session_bootstrap", "SessionStart"), ("/api/prompt_context", "UserPromptSubmit")):
        r = post(srv, path, {**h._base(event), "source": "startup", "prompt": "how does the JWT refresh work"})
        assert r.status_code == 400 and r.json()["field"] == "session_id", r.text
    # Gemini's and OpenCode's adapters answer a payload that is not a harness's with their empty reply.
    assert post(srv, "/api/gemini/SessionStart", {**h._base("SessionStart"), "source": "startup"}).json() == {}
    assert post(srv, "/api/opencode/session.start", {"sessionID": LONG_SID, "directory": h.cwd}).json() == {}
    fine = Harness(srv, srv.project("bound-proj"))
    assert fine.start().context  # the server goes on serving
    fine.prompt("how does the JWT refresh work")
    assert any(r.get("claude_session") == fine.sid for r in recall_log(srv))
    assert "oversized-session-" not in _store_text(srv)


def test_a_tool_name_or_transcript_path_past_its_bound_is_refused_and_kept_nowhere(srv):
    h = Harness(srv, srv.project("bound-proj"))
    h.start()
    h.full_read()
    run = h.tool(LONG_TOOL, {"file_path": __file__})
    assert (run.out, run.rc) == ("", 0), run
    r = post(srv, "/api/tool_event", {**h._base("PostToolUse"), "tool_name": LONG_TOOL,
                                      "tool_input": {"file_path": __file__}})
    assert r.status_code == 400 and r.json()["field"] == "tool_name", r.text
    long_path = "/" + "p" * hook_fields.PATH_MAX_CHARS
    r = post(srv, "/api/prompt_context", {**h._base("UserPromptSubmit"), "transcript_path": long_path,
                                          "prompt": "how does it work"})
    assert r.status_code == 400 and r.json()["field"] == "transcript_path", r.text
    assert "oversized-tool-" not in _store_text(srv)


def test_ids_and_paths_within_their_bounds_pass_and_past_them_are_named():
    assert hook_fields.refusal({"session_id": "x" * hook_fields.ID_MAX_CHARS, "cwd": "/" * 4096}) is None
    exc = hook_fields.refusal({"session_id": "s", "cwd": "/" * (hook_fields.PATH_MAX_CHARS + 1)})
    assert exc is not None and exc.field == "cwd" and "at most 4096" in exc.rule
    assert hook_fields.refusal({"session_id": 7, "tool_name": None}) is None  # not text: read as absent elsewhere
