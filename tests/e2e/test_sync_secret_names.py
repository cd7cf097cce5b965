"""A remote node whose id holds a secret: not taken, and its id never printed (real `kg`, real server, a bare
remote changed by hand on a clone)."""

from __future__ import annotations

import json
import subprocess

from e2e_helpers import graph, nodes_by_id
from git_helpers import git, git_env
from test_git_sync import _machine, _sync, _user

from git_helpers import bare_repo

from kg_actors.storage import shards

TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


async def test_a_remote_node_whose_id_holds_a_token_is_named_masked_by_kg_sync_and_api_health(tmp_path):
    # The sync printed it whole (`node 'deploy-ghp_Z9y8...' id holds a GitHub token`), /api/health kept it, and
    # its advice (edit it "without the secret") cannot take a secret out of an id.
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    a = _machine(tmp_path, "machine-a", _user("some-user-lesson")).start()
    try:
        assert _sync(a, remote).returncode == 0
        env = git_env(tmp_path / "hand", "hand")
        clone = tmp_path / "hand-clone"
        subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True, env=env, timeout=60)
        part = clone / shards.folder("user") / shards.bucket("some-user-lesson")
        value = json.loads(part.read_text())
        value["nodes"][f"deploy-{TOKEN}"] = {"id": f"deploy-{TOKEN}", "gist": "an innocent gist"}
        part.write_text(json.dumps(value))
        git(clone, "commit", "-qam", "a node by hand", env=env)
        git(clone, "push", "-q", "origin", "HEAD:main", env=env)
        out = _sync(a, remote)
        said = out.stdout + out.stderr
        assert "NOT TAKEN from the remote" in said and "id holds a GitHub token" in said, said
        assert TOKEN not in said and TOKEN[:12] not in said, said
        assert "rename or delete that entry there" in said and "without the secret)" not in said, said
        assert TOKEN not in json.dumps(a.health()), a.health()["git"]
        assert sorted(nodes_by_id(graph(a)["user"])) == ["some-user-lesson"]
    finally:
        a.stop()
