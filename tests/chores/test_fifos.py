"""A FIFO where a user's file is expected (chores.json, a Codex rollout, a payload's transcript) is read as
unreadable at once, never waited on: opening one for reading blocks until a writer comes, which is never."""

import os
import sys
import threading
import time
from pathlib import Path

from kg_actors.chores import gauge_files
from kg_actors.chores.config import ConfigWatcher
from kg_actors.harness import transcripts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from hook_helpers import Harness, post  # noqa: E402

from kg_actors.testing import ServerProcess  # noqa: E402

NOW = time.time()


def _soon(fn, *args):
    """fn(*args), which must return within seconds (a daemon thread: a blocked one cannot hang the run)."""
    out = []
    t = threading.Thread(target=lambda: out.append(fn(*args)), daemon=True)
    t.start()
    t.join(10)
    assert out, f"{fn.__name__} blocked"
    return out[0]


def test_a_fifo_chores_json_leaves_chores_off_with_a_warning(tmp_path):
    os.mkfifo(tmp_path / "chores.json")
    cfg = _soon(ConfigWatcher(tmp_path, {"KG_CHORES": "1"}).current)
    assert not cfg.enabled and "not a regular file" in cfg.warning


def test_a_fifo_rollout_is_not_read(tmp_path):
    day = tmp_path / ".codex" / "sessions" / "2027" / "01" / "15"
    day.mkdir(parents=True)
    fifo = day / "rollout-2027-01-15T08-00-00-a.jsonl"
    os.mkfifo(fifo)
    assert "not fully readable" in _soon(gauge_files.read_codex, tmp_path / ".codex", NOW, 5400)
    assert "not a regular file" in _soon(gauge_files.read_codex_rollout, fifo, NOW)
    assert gauge_files.codex_rollout(str(fifo), {"HOME": str(tmp_path)}) is None
    assert _soon(transcripts.recover_sid, fifo) is None


def test_codex_rollouts_are_trusted_only_under_codex_home(tmp_path):
    inside = tmp_path / ".codex" / "sessions" / "rollout-2027-01-15T08-00-00-a.jsonl"
    inside.parent.mkdir(parents=True)
    elsewhere = tmp_path / "work" / "rollout-2027-01-15T08-00-00-a.jsonl"
    elsewhere.parent.mkdir()
    own = tmp_path / "ch" / "rollout-2027-01-15T08-00-00-a.jsonl"
    own.parent.mkdir()
    for f in (inside, elsewhere, own):
        f.write_text("{}\n")
    assert transcripts.safe_transcript(str(inside), tmp_path, "") == inside
    assert transcripts.safe_transcript(str(elsewhere), tmp_path, "") is None  # under home, but not Codex's
    assert transcripts.safe_transcript(str(own), tmp_path, str(tmp_path / "ch")) == own
    env = {"HOME": str(tmp_path)}
    assert gauge_files.codex_rollout(str(inside), env) == inside and gauge_files.codex_rollout(str(elsewhere), env) is None


def test_hooks_whose_payload_names_a_fifo_answer_at_once(tmp_path):
    srv = ServerProcess(tmp_path / "srv")
    srv.start("--no-editor")
    try:
        project = srv.project("app")
        codex = Harness(srv, project, kind="codex")
        codex.start()
        fifo = codex.transcript.with_name("rollout-2026-11-30T10-00-00-fifo.jsonl")
        os.mkfifo(fifo)
        body = {"session_id": codex.sid, "transcript_path": str(fifo), "cwd": project, "model": "gpt-5-codex",
                "turn_id": "t1", "hook_event_name": "UserPromptSubmit", "prompt": "what did we decide?"}
        assert post(srv, "/api/prompt_context", body).status_code == 200
        conv = srv.home / ".gemini" / "antigravity-cli" / "conversations" / "c1"
        conv.mkdir(parents=True)
        os.mkfifo(conv / "transcript.jsonl")
        agy = {"conversationId": "c1", "workspacePaths": [project], "transcriptPath": str(conv / "transcript.jsonl")}
        assert post(srv, "/api/antigravity/hook/SessionStart", agy).status_code == 200
        assert post(srv, "/api/antigravity/hook/PreInvocation", {**agy, "invocationNum": 0}).status_code == 200
        assert srv.health() is not None
    finally:
        srv.kill()
