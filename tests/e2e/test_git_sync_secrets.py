"""`kg sync` and secrets: a version from another machine holding one is never taken in, and a store holding one
(a hand edit) is never committed and pushed by a sync.

The other machine is played by a clone of the remote edited by hand (as a person, a script or an older kg
would write it); this machine is a real server, synced with `kg sync`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from e2e_helpers import Session, kg, nodes_by_id, graph
from git_helpers import bare_repo, committed_graph, git, git_env
from mcp import Client
from test_git_sync import T, _machine, _sync, _user

from kg_actors.storage import shards

STRIPE = "sk_live_51H8xKqLmN3pQ7rS9tU2vW4xY6zA8bC0dE"
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu3Kq8ZvR2mX7pL4nW9tY3bC6dFq1x8Zk2Lm3Np4Qr5St6Uv7\n"
       "-----END RSA PRIVATE KEY-----")
DB_URL = "postgres://admin:Tr0ub4dorSYNC@db/app"
AWS = "AKIAZ3Q7R2MX5KD8WPLV"
SECRETS = ("51H8xKqLmN3pQ7rS9tU2vW4xY6zA8bC0dE", "u3Kq8ZvR2mX7pL4nW9tY3bC6dFq1x8Zk2", "Tr0ub4dorSYNC", AWS)


def _other_machine_writes(remote: Path, work: Path, env: dict, edit) -> None:
    """Clone the remote, let `edit(folder)` change the user graph's mirror folder by hand, push."""
    if not work.exists():
        subprocess.run(["git", "clone", "-q", str(remote), str(work)], check=True, env=env, timeout=60)
    else:
        git(work, "pull", "-q", env=env)
    edit(work / shards.folder("user"))
    git(work, "add", "-A", env=env)
    git(work, "commit", "-qm", "edited on the other machine", env=env)
    git(work, "push", "-q", "origin", "HEAD:main", env=env)


def _bucket(folder: Path, node_id: str) -> tuple[Path, dict]:
    path = folder / shards.bucket(node_id)
    return path, (json.loads(path.read_text()) if path.exists() else {"nodes": {}, "edges": {}, "_meta": {}})


def _put(folder: Path, node: dict, edge: dict | None = None) -> None:
    path, part = _bucket(folder, node["id"])
    part.setdefault("nodes", {})[node["id"]] = node
    versions = part.setdefault("_meta", {}).setdefault("versions", {})
    versions["node:" + node["id"]] = {"v": 7, "ts": T + 500, "session": "other-machine"}
    if edge is not None:
        part.setdefault("edges", {})[f"{edge['from']}->{edge['to']}:{edge['rel']}"] = edge
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(part, indent=1))


def _holding(root: Path) -> list[str]:
    """Files of the store (not its git objects) holding any of the secrets."""
    out = []
    for path in root.rglob("*"):
        if ".git" in path.relative_to(root).parts or not path.is_file():
            continue
        data = path.read_bytes()
        out += [str(path.relative_to(root)) for s in SECRETS if s.encode() in data]
    return out


async def test_a_version_from_the_remote_holding_a_secret_is_left_out_and_named_and_not_pushed_back(tmp_path):
    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _user("sp-fp-rotate", "kept-lesson")).start()
    try:
        assert _sync(a, remote).returncode == 0

        def edit(folder: Path) -> None:
            _, part = _bucket(folder, "sp-fp-rotate")
            node = dict(part["nodes"]["sp-fp-rotate"])
            node.update(gist=f"other machine: deploy with {STRIPE}", notes=[PEM], touches=[DB_URL],
                        _written={"ts": T + 500, "by": "other-machine"})
            _put(folder, node)
            _put(folder, {"id": "synced-secret-node", "gist": "a new node from there", "touches": [DB_URL],
                          "_created_ts": T + 400},
                 {"from": "synced-secret-node", "to": "kept-lesson", "rel": "uses"})
            _, part = _bucket(folder, "kept-lesson")
            _put(folder, {**part["nodes"]["kept-lesson"], "gist": "an ordinary edit from there"},
                 {"from": "kept-lesson", "to": "sp-fp-rotate", "rel": "uses", "notes": [f"key {AWS}"]})

        _other_machine_writes(remote, tmp_path / "other", env, edit)
        out = _sync(a, remote)
        assert out.returncode == 0, out.stderr
        said = out.stdout + out.stderr
        # Named by entry, field and kind, never shown; the fix is said.
        assert "node 'sp-fp-rotate' gist holds" in said and "node 'synced-secret-node' touches[0] holds" in said
        assert "edge 'kept-lesson->sp-fp-rotate:uses' notes[0] holds" in said, said
        assert "machine it came from" in said and "kg_put_node (a node) or kg_put_edge (an edge)" in said, said
        assert not any(s in said for s in SECRETS), said
        # The rest of the sync is taken in; nothing of the secret-holding versions is stored or shown.
        nodes = nodes_by_id(graph(a)["user"])
        assert nodes["kept-lesson"]["gist"] == "an ordinary edit from there"
        assert nodes["sp-fp-rotate"]["gist"] == "gist of sp-fp-rotate" and "synced-secret-node" not in nodes
        assert _holding(a.store) == []
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            text = await s.ok("kg_read", id="sp-fp-rotate")
            assert "gist of sp-fp-rotate" in text and not any(x in text for x in SECRETS)
        # What the push sent holds none of it either (the remote's tip, as the next machine fetches it).
        tip = git(remote, "grep", "-l", "-e", SECRETS[0], "-e", SECRETS[2], "-e", AWS, "main", "--", ".",
                  env=env, check=False)
        assert tip == ""
        again = _sync(a, remote)
        assert again.returncode == 0 and "NOT TAKEN" not in again.stdout, again.stdout
    finally:
        a.stop()


def _hand_edited(*, gist: str = "a lesson written by hand", notes: list[str] | None = None) -> dict:
    user = _user("plain-lesson")
    user["nodes"]["hand-planted-node"] = {"id": "hand-planted-node", "gist": gist, "_created_ts": T,
                                          "notes": notes or ["first note", "second note", f"db at {DB_URL}"]}
    user["edges"]["hand-planted-node->plain-lesson:uses"] = {"from": "hand-planted-node", "to": "plain-lesson",
                                                             "rel": "uses", "notes": [f"key {AWS}"]}
    return user


async def test_a_sync_refuses_to_commit_and_push_a_store_holding_a_secret_until_it_is_fixed(tmp_path):
    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _hand_edited()).start()
    try:
        for attempt in ("through the server", "with no server"):
            out = _sync(a, remote)
            said = out.stdout + out.stderr
            assert out.returncode == 1, (attempt, said)
            assert "NOT SYNCED" in said and "user: node 'hand-planted-node' notes[2]" in said, said
            assert "user: edge 'hand-planted-node->plain-lesson:uses' notes[0]" in said
            assert "kg_put_node (a node) or kg_put_edge (an edge)" in said, said
            assert not any(s in said for s in SECRETS), said
            # Git untouched: no repository made of the store, nothing pushed.
            assert not (a.store / ".git").exists() and git(remote, "for-each-ref", env=env) == ""
            if attempt == "through the server":
                a.stop()
        # The user's file is as written: the lesson is not lost.
        stored = json.loads((a.store / "user.json").read_text())["nodes"]["hand-planted-node"]
        assert stored["notes"][2] == f"db at {DB_URL}"
        a.start()
        await _cleaned_by_the_tools(a)
        out = _sync(a, remote)
        assert out.returncode == 0, out.stdout + out.stderr
        assert git(remote, "grep", "-l", "-e", SECRETS[2], "-e", AWS, "main", "--", ".", env=env, check=False) == ""
    finally:
        a.stop()


async def _cleaned_by_the_tools(a) -> None:
    """The user does what the refusal says: the node and the edge written again without their secrets."""
    async with Client(a.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_read", id="hand-planted-node")
        await s.ok("kg_put_node", level="user", id="hand-planted-node", gist="a lesson written by hand",
                   notes=["first note", "second note", "db url in the vault at secret/app/db"])
        await s.ok("kg_put_edge", level="user", frm="hand-planted-node", to="plain-lesson", rel="uses",
                   notes=["key in the vault"])


def _head(srv) -> str:
    return git(srv.store, "rev-parse", "HEAD", env=srv.env).strip()


def _in_history(repo: Path, env: dict) -> list[str]:
    """Which of the secrets any commit of `repo` holds (every branch, every version of every file)."""
    text = git(repo, "log", "--all", "-p", "--format=%H", env=env, check=False)
    return [s for s in SECRETS if s in text]


async def test_no_commit_records_a_hand_edited_secret_and_once_fixed_the_store_commits_and_syncs_clean(tmp_path):
    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _user("plain-lesson"))
    assert kg(["init-git"], a.env).returncode == 0
    committed = _head(a)
    user = json.loads((a.store / "user.json").read_text())
    hand = _hand_edited()
    user["nodes"]["hand-planted-node"] = hand["nodes"]["hand-planted-node"]
    user["edges"].update(hand["edges"])
    (a.store / "user.json").write_text(json.dumps(user, indent=1))  # a hand edit, with no server running
    a.start()
    try:
        # The server's commit (the autocommit's path, in its child process) and the shutdown commit skip it.
        out = kg(["commit"], a.env)
        said = out.stdout + out.stderr
        assert out.returncode == 1 and "NOT COMMITTED" in said, said
        assert "user: node 'hand-planted-node' notes[2]" in said and "user: edge 'hand-planted-node->plain-lesson:uses'" in said
        assert not any(s in said for s in SECRETS), said
        assert _head(a) == committed
        a.stop()
        assert _head(a) == committed
        log = a.log.read_text()
        assert "commit at shutdown: NOT COMMITTED" in log and not any(s in log for s in SECRETS), log[-3000:]
        # No server: the same.
        out = kg(["commit"], a.env)
        assert out.returncode == 1 and "NOT COMMITTED" in out.stdout + out.stderr, out.stdout + out.stderr
        assert _head(a) == committed and _in_history(a.store, a.env) == []
        # The graph file keeps every lesson as written.
        assert json.loads((a.store / "user.json").read_text())["nodes"]["hand-planted-node"]["notes"][2] == f"db at {DB_URL}"
        a.start()
        await _cleaned_by_the_tools(a)
        out = kg(["commit"], a.env)
        assert out.returncode == 0 and _head(a) != committed, out.stdout + out.stderr
        out = _sync(a, remote)
        assert out.returncode == 0, out.stdout + out.stderr
        assert _in_history(a.store, a.env) == [] and _in_history(remote, env) == []
        assert "hand-planted-node" in committed_graph(a.store, env=a.env)["nodes"]
    finally:
        a.stop()


def test_init_git_on_a_store_holding_a_secret_makes_the_repository_and_commits_nothing_until_it_is_fixed(tmp_path):
    user = _user("plain-lesson", "other-lesson")
    user["edges"]["plain-lesson->other-lesson:uses"] = {"from": "plain-lesson", "to": "other-lesson", "rel": "uses",
                                                        "notes": [f"key {AWS}"]}
    a = _machine(tmp_path, "machine-a", user)
    out = kg(["init-git"], a.env)
    said = out.stdout + out.stderr
    assert out.returncode == 1 and "is now a git repository; NOT COMMITTED" in said, said
    # Worded by what holds it: an edge is edited with kg_put_edge.
    assert "user: edge 'plain-lesson->other-lesson:uses' notes[0]" in said and "with kg_put_edge (" in said, said
    assert "kg_put_node" not in said and AWS not in said, said
    assert git(a.store, "rev-parse", "-q", "--verify", "HEAD", env=a.env, check=False).strip() == ""
    assert AWS in (a.store / "user.json").read_text()  # the file as written


async def test_unpushed_commits_an_older_kg_made_holding_a_secret_are_squashed_into_one_from_the_fixed_files(tmp_path):
    from kg_actors.storage import git as G

    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _user("plain-lesson")).start()
    try:
        assert _sync(a, remote).returncode == 0  # the remote holds this machine's first commits
        pushed = _head(a)
        a.stop()
        user = json.loads((a.store / "user.json").read_text())
        hand = _hand_edited()
        user["nodes"]["hand-planted-node"] = hand["nodes"]["hand-planted-node"]
        user["edges"].update(hand["edges"])
        (a.store / "user.json").write_text(json.dumps(user, indent=1))
        G.commit(a.store, T + 1000, "save at shutdown")  # what an older kg's shutdown commit recorded
        held = _head(a)
        assert held != pushed and _in_history(a.store, a.env) != []
        a.start()
        await _cleaned_by_the_tools(a)
        out = _sync(a, remote)
        said = out.stdout + out.stderr
        assert out.returncode == 0, said
        # Said: which commit held what, and what was done instead; never the secret.
        assert f"commit {held[:12]}" in said and "user: node 'hand-planted-node' notes[2]" in said, said
        assert "squashed" in said and not any(x in said for x in SECRETS), said
        # The remote never got it; this machine's branch is the pushed one, the fixed lesson in it.
        assert _in_history(remote, env) == []
        tip = git(remote, "rev-parse", "main", env=env).strip()
        assert tip == _head(a)
        git(a.store, "merge-base", "--is-ancestor", pushed, tip, env=a.env)  # on what the remote had: no force
        assert git(a.store, "rev-list", "main", env=a.env).count(held) == 0
        assert committed_graph(a.store, env=a.env)["nodes"]["hand-planted-node"]["notes"][2].startswith("db url in")
        # The server goes on committing on the new line (kg's record of HEAD follows the squash).
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="after-the-squash", gist="a lesson written after it")
        out = kg(["commit"], a.env)
        assert out.returncode == 0, out.stdout + out.stderr
        assert _sync(a, remote).returncode == 0 and _in_history(remote, env) == []
    finally:
        a.stop()


def test_a_first_sync_with_no_server_squashes_a_history_holding_a_secret_and_refuses_while_the_last_commit_does(
        tmp_path):
    from kg_actors.storage import git as G

    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _hand_edited())
    G.init(a.store)
    G.commit(a.store, T, "commit")  # an older kg's commit of the hand edit
    held = _head(a)
    user = json.loads((a.store / "user.json").read_text())
    user["nodes"]["hand-planted-node"]["notes"][2] = "db url in the vault"
    (a.store / "user.json").write_text(json.dumps(user, indent=1))  # fixed by hand in the file
    # The edge note still holds its key: refused, nothing pushed or rewritten.
    out = _sync(a, remote)
    said = out.stdout + out.stderr
    assert out.returncode == 1 and "NOT SYNCED" in said and AWS not in said, said
    assert git(remote, "for-each-ref", env=env) == "" and _head(a) == held
    del user["edges"]["hand-planted-node->plain-lesson:uses"]["notes"]
    (a.store / "user.json").write_text(json.dumps(user, indent=1))
    out = _sync(a, remote)
    said = out.stdout + out.stderr
    assert out.returncode == 0 and f"commit {held[:12]}" in said and "squashed" in said, said
    assert _in_history(remote, env) == [] and git(remote, "rev-parse", "main", env=env).strip() == _head(a)
    assert git(a.store, "rev-list", "--count", "HEAD", env=a.env).strip() == "1"
    assert "hand-planted-node" in committed_graph(a.store, env=a.env)["nodes"]


async def test_a_remote_version_refused_for_a_secret_gives_way_to_the_last_one_there_without_it_never_to_ours(
        tmp_path):
    # Machine a edits a node (v2) and syncs; a third machine adds a token to it (v3); b, which never saw v2, refuses
    # v3. b's merge pushed b's own v1 over it, and a took that as a plain change: a's note and touch were gone
    # everywhere, with no version set aside.
    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _user("retry-backoff-policy")).start()
    b = _machine(tmp_path, "machine-b").start()
    try:
        assert _sync(a, remote).returncode == 0 and _sync(b, remote).returncode == 0
        async with Client(a.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_read", id="retry-backoff-policy")
            await s.ok("kg_put_node", level="user", id="retry-backoff-policy", gist="gist of retry-backoff-policy",
                       notes=["cap at 30 s"], touches=["src/retry.py"])
        assert _sync(a, remote).returncode == 0

        def edit(folder: Path) -> None:
            _, part = _bucket(folder, "retry-backoff-policy")
            node = dict(part["nodes"]["retry-backoff-policy"])
            node["notes"] = node["notes"] + [f"CI deploys with {STRIPE}"]
            _put(folder, node)

        _other_machine_writes(remote, tmp_path / "other", env, edit)
        out = _sync(b, remote)
        said = out.stdout + out.stderr
        assert out.returncode == 0 and "NOT TAKEN" in said and "notes[1] holds" in said, said
        assert STRIPE not in said
        # b takes the newest version there without the secret (a's v2), and says so.
        on_b = nodes_by_id(graph(b)["user"])["retry-backoff-policy"]
        assert on_b["notes"] == ["cap at 30 s"] and on_b["touches"] == ["src/retry.py"], on_b
        out = _sync(a, remote)
        assert out.returncode == 0, out.stdout + out.stderr
        on_a = nodes_by_id(graph(a)["user"])["retry-backoff-policy"]
        assert on_a["notes"] == ["cap at 30 s"] and on_a["touches"] == ["src/retry.py"], (on_a, out.stdout)
        assert "changed" not in out.stdout, out.stdout
        assert git(remote, "grep", "-l", "-e", SECRETS[0], "main", "--", ".", env=env, check=False) == ""
        assert _holding(a.store) == [] and _holding(b.store) == []
        assert "the newest version there without it" in said, said
    finally:
        a.stop()
        b.stop()
