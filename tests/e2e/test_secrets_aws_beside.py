"""An AWS secret access key stored beside its key id in another field of the entry (a hand edit, another
machine's version): a write refuses it (`notes[1] holds ... (beside its key id)`), so every other path reads it
by the same rule. Agents are shown a marker in its place, the load's log and `kg doctor` name it, no sync pushes
it or takes it from the remote, and an agent sending the key id's marker back cannot put a new secret beside it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from e2e_helpers import Session, graph, kg, nodes_by_id, start_server
from git_helpers import bare_repo, git, git_env
from mcp import Client
from test_git_sync import _machine, _sync, _user
from test_git_sync_secrets import _other_machine_writes, _put

from kg_actors.testing import ServerProcess

KEY_ID = "AKIA" + "Z7QRT4XKLM2PW9BN"  # assembled here so no file holds one whole
SECRET = "Qm7vT2xPz9LkWb4Ns8Rc" + "Yh3Jd6Fg1AeUoK5tHi0M"  # 40 characters, random: an AWS secret access key's shape
ELIDED = "key id AKIA…W9BN"
T = 1_700_000_000.0


def _store() -> dict:
    return {"nodes": {
        "aws-elided-id": {"id": "aws-elided-id", "gist": "deploy user credentials", "notes": [ELIDED, SECRET],
                          "_created_ts": T},
        "aws-full-id": {"id": "aws-full-id", "gist": f"zebracorn second value {SECRET}",
                        "notes": [f"first value {KEY_ID}"], "_created_ts": T},
        "plain-lesson": {"id": "plain-lesson", "gist": "an ordinary lesson", "_created_ts": T}},
        "edges": {"aws-elided-id->plain-lesson:uses": {
            "from": "aws-elided-id", "to": "plain-lesson", "rel": "uses", "notes": [f"key id {KEY_ID}", SECRET]}},
        "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


async def test_a_secret_key_beside_its_key_id_in_another_field_is_withheld_named_and_kept_as_written(tmp_path):
    srv: ServerProcess = start_server(tmp_path, user=_store())
    try:
        before = (srv.store / "user.json").read_bytes()
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            assert SECRET not in s.first_text and "zebracorn" not in s.first_text  # the preload
            full = await s.ok("kg_read")
            read = await s.ok("kg_read", ids=["aws-elided-id", "aws-full-id"])
            hits = await s.ok("kg_search", query="zebracorn")
            for text in (full, read, hits):
                assert SECRET not in text and SECRET[:12] not in text, text
            assert "holds what looks like an AWS secret access key (beside its key id)" in read, read
            assert ELIDED in read  # the key id's elided mention is no secret: shown as written
            edge = await s.ok("kg_read", id="aws-elided-id")
            assert SECRET not in edge and KEY_ID not in edge, edge
        said = "user.json holds what looks like a secret in 3 entries"
        for _ in range(400):  # the scan runs beside the load (held_scan.py)
            log = srv.log.read_text()
            if said in log:
                break
            time.sleep(0.025)
        assert said in log, log[-2000:]
        assert "node 'aws-elided-id' notes[1] (holds an AWS secret access key (beside its key id))" in log, log[-2000:]
        doctor = kg(["doctor"], srv.env).stdout
        for name in ("node 'aws-elided-id' notes[1] (holds an AWS secret access key",
                     "node 'aws-full-id' gist (holds an AWS secret access key",  # not only the key id's field
                     "edge 'aws-elided-id->plain-lesson:uses' notes[0] (holds an AWS access key id), notes[1] (holds "
                     "an AWS secret access key"):
            assert f"graph user: {name}" in doctor, doctor
        assert SECRET not in log + doctor and KEY_ID not in log + doctor
        assert (srv.store / "user.json").read_bytes() == before  # the user's file as written
    finally:
        srv.stop()


async def test_an_agent_sending_the_key_ids_marker_back_cannot_put_a_secret_key_beside_it(tmp_path):
    srv: ServerProcess = start_server(tmp_path, user=_store())
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            read = await s.ok("kg_read", id="aws-full-id")
            marker = next(line.strip()[2:] for line in read.splitlines() if "AWS access key id" in line)
            other = "Zr4nB8kQ2pLx7Wm9" + "Tc3Vy6Hd1Gf5Js0Ke8UaR2wq"  # 40
            refused = await s.err("kg_put_node", level="user", id="aws-full-id", gist="the deploy user's keys",
                                  notes=[marker, other])
            assert "notes[1] holds what looks like an AWS secret access key (beside its key id)" in refused, refused
            assert other not in refused
            stored = nodes_by_id(graph(srv)["user"])["aws-full-id"]
            assert stored["notes"] == [f"first value {KEY_ID}"] and other not in json.dumps(graph(srv))
            # Without the secret the same resend goes through, the key id's field kept as stored.
            await s.ok("kg_put_node", level="user", id="aws-full-id", gist="the deploy user's keys",
                       notes=[marker, "the secret key is in the vault"])
            assert nodes_by_id(graph(srv)["user"])["aws-full-id"]["notes"] == [
                f"first value {KEY_ID}", "the secret key is in the vault"]
    finally:
        srv.stop()


def _elided_only() -> dict:
    user = _user("plain-lesson")
    user["nodes"]["aws-elided-id"] = {"id": "aws-elided-id", "gist": "deploy user credentials",
                                      "notes": [ELIDED, SECRET], "_created_ts": T}
    return user


async def test_a_sync_neither_pushes_a_secret_key_beside_its_key_id_nor_takes_one_from_the_remote(tmp_path):
    env = git_env(tmp_path, "x")
    remote = bare_repo(tmp_path / "remote.git", env)
    a = _machine(tmp_path, "machine-a", _elided_only()).start()
    try:
        out = _sync(a, remote)
        said = out.stdout + out.stderr
        assert out.returncode == 1 and "NOT SYNCED" in said, said
        assert "user: node 'aws-elided-id' notes[1] (holds an AWS secret access key" in said, said
        assert SECRET not in said and git(remote, "for-each-ref", env=env) == ""
        async with Client(a.url + "/") as c:  # fixed as the refusal says: the note written without it
            s = await Session.open(c)
            await s.ok("kg_read", id="aws-elided-id")
            await s.ok("kg_put_node", level="user", id="aws-elided-id", gist="deploy user credentials",
                       notes=[ELIDED, "the secret key is in the vault"])
        out = _sync(a, remote)
        assert out.returncode == 0, out.stdout + out.stderr

        def edit(folder: Path) -> None:
            _put(folder, {"id": "aws-from-remote", "gist": "deploy creds from there", "notes": [ELIDED, SECRET],
                          "_created_ts": T + 400})

        _other_machine_writes(remote, tmp_path / "other", env, edit)
        out = _sync(a, remote)
        said = out.stdout + out.stderr
        assert out.returncode == 0, said
        assert "node 'aws-from-remote' notes[1] holds" in said and "added: aws-from-remote" not in said, said
        assert "aws-from-remote" not in nodes_by_id(graph(a)["user"])
        assert [p for p in a.store.rglob("*") if p.is_file() and ".git" not in p.relative_to(a.store).parts
                and "deploy creds from there" in p.read_text(errors="replace")] == []  # nothing of it stored
    finally:
        a.stop()
