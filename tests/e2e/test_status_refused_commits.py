"""`kg status` says when no commit or sync can go through (a secret left by hand in a graph file): only
`kg doctor` said it, and the store silently stopped being saved to git. A real `kg serve`, a real git store."""

from __future__ import annotations

import time

from e2e_helpers import kg
from git_helpers import git_env

from kg_actors.testing import ServerProcess, write_store

TOKEN = "ghp_" + "R8x2Kq9ZtLm4Vb7Nc1Pd" + "3Fs6Hj0Wy5Ae2Gu8"  # assembled: no file holds a whole one


def _user(note: str) -> dict:
    return {"nodes": {"deploy-steps": {"id": "deploy-steps", "gist": "Deploy runs make release.", "notes": [note],
                                       "_created_ts": time.time() - 86_400}},
            "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


def test_kg_status_names_why_every_commit_and_sync_is_refused_and_points_at_kg_doctor(tmp_path):
    srv = ServerProcess(tmp_path, git_env(tmp_path))
    write_store(srv.store, _user("nothing secret"))
    assert kg(["init-git"], srv.env).returncode == 0
    write_store(srv.store, _user(f"the token is {TOKEN}"))  # by hand, with no server running
    srv.start("--no-editor")
    try:
        out = kg(["status"], srv.env)
        said = out.stdout + out.stderr
        [line] = [ln for ln in said.splitlines() if "refused" in ln]
        assert "user: node 'deploy-steps'" in line and "kg doctor" in line and TOKEN not in said, said
        assert "NOT COMMITTED" in (commit := kg(["commit"], srv.env)).stdout + commit.stderr  # as status said
    finally:
        srv.stop()
    write_store(srv.store, _user("nothing secret"))  # fixed: status has nothing to say of it
    srv.start("--no-editor")
    try:
        out = kg(["status"], srv.env)
        assert out.returncode == 0 and "refused" not in out.stdout + out.stderr, out.stdout + out.stderr
    finally:
        srv.stop()
