"""A progress state holding a secret in a graph file (a hand edit, an older kg, before the state rule): named at
load and by `kg doctor` as a node's field is, withheld from agents, never committed nor pushed by `kg sync`, and a
write to the task leaves it out of the trail it carries over."""

from __future__ import annotations

import json
import time

from e2e_helpers import Session, kg
from git_helpers import bare_repo, git, git_env
from mcp import Client
from test_git_sync import T, _machine, _sync, _user

GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"  # a GitHub token's shape (assembled: no file holds it whole)
NPM = "npm_" + "vXEwXyDG5B7pMg8vAWODZpKo3JxRm9AdrmjK"
SECRETS = (GHP, NPM, GHP[4:20], NPM[4:20])


def _store() -> dict:
    user = _user("plain-lesson")
    user["_meta"]["progress"] = {
        "rotate-keys": {"step": 2, "done": ["revoked old key", f"new key is {GHP}"], "last_ts": T,
                        "_trail": [{"_ts": T, "step": 1, "done": ["revoked old key", f"new key is {GHP}"]}]},
        f"task-{NPM}": {"step": 1, "last_ts": T},
        "plain-task": {"step": 3, "done": ["wrote the migration"], "last_ts": T}}
    return user


def _said_nothing_secret(text: str) -> None:
    assert not any(s in text for s in SECRETS), text[-3000:]


async def test_a_secret_in_a_stored_progress_state_is_named_withheld_and_never_committed_or_pushed(tmp_path):
    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _store()).start()
    try:
        before = (a.store / "user.json").read_bytes()
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            said = "user.json holds what looks like a secret in 2 entries"
            for _ in range(400):  # the load's scan runs beside it (held_scan.py), off the hooks' way
                log = a.log.read_text()
                if said in log:
                    break
                time.sleep(0.025)
            assert said in log, log[-2000:]
            assert "progress 'rotate-keys' state.done[1] (holds a GitHub token)" in log, log[-2000:]
            assert "progress task_id 'npm_" in log, log[-2000:]
            _said_nothing_secret(log)
            # An agent reading the task is shown a marker in the secret's place, the rest as stored.
            shown = await s.ok("kg_progress", task_id="rotate-keys", level="user")
            _said_nothing_secret(shown)
            assert "revoked old key" in shown and "[withheld: holds what looks like a GitHub token" in shown, shown
            # A task whose name holds one is not shown at all: answered as a task never saved.
            shown = await s.ok("kg_progress", task_id=f"task-{NPM}", level="user")
            assert shown == f"No progress found for task 'task-{NPM}'", shown
            plain = await s.ok("kg_progress", task_id="plain-task", level="user")
            assert "wrote the migration" in plain and "withheld" not in plain
            # kg doctor names both, entry, field and kind, never the secret.
            doctor = kg(["doctor"], a.env)
            assert "graph user: progress 'rotate-keys' state.done[1] (holds a GitHub token)" in doctor.stdout, doctor.stdout
            assert "graph user: progress task_id 'npm_" in doctor.stdout and "kg_progress" in doctor.stdout
            _said_nothing_secret(doctor.stdout + doctor.stderr)
            # Neither a sync nor a commit records it.
            out = _sync(a, remote)
            said = out.stdout + out.stderr
            assert out.returncode == 1 and "NOT SYNCED" in said and "progress 'rotate-keys'" in said, said
            _said_nothing_secret(said)
            assert git(remote, "for-each-ref", env=env) == ""
            assert kg(["init-git"], a.env).returncode == 0
            out = kg(["commit"], a.env)
            said = out.stdout + out.stderr
            assert out.returncode == 1 and "user: progress 'rotate-keys' state.done[1]" in said, said
            assert "a task whose id holds one: with the server stopped (`kg stop`), remove the task" in said, said
            _said_nothing_secret(said)
            assert git(a.store, "rev-parse", "-q", "--verify", "HEAD", env=a.env, check=False).strip() == ""
            assert (a.store / "user.json").read_bytes() == before  # the file is kept as written
            # A write to the task replaces its state; the trail it carries over keeps no entry holding the secret.
            await s.ok("kg_progress", task_id="rotate-keys", level="user", state={"step": 3, "done": ["new key in vault"]})
        a.stop()
        stored = json.loads((a.store / "user.json").read_text())["_meta"]["progress"]
        assert GHP not in json.dumps(stored["rotate-keys"]), stored["rotate-keys"]
        assert [e.get("step") for e in stored["rotate-keys"]["_trail"]] == [3]
    finally:
        a.stop()
