"""A stored field withheld for what another field beside it holds (an AWS secret key beside its key id, a part
of a key split across notes) stays withheld whatever a write does next: a write that keeps it (unsent, or sent
back as its marker) while changing the field that made it a secret is refused naming it, and the file is kept.
A write that sends the field without it is stored."""

from __future__ import annotations

import json

from e2e_helpers import Session, start_server
from mcp import Client

KEY_ID = "AKIA" + "EH252R37RNCLSCK4"  # assembled here so no file holds one whole
SECRET = "xpm+NFZbYutVa4DX" + "fTu3a4SEdravE4jYdH/ryc2M"  # 40 random characters: an AWS secret key's shape
GHP = "ghp_" + "4I9nDH39Z3xqBtq4VrXvLh3JsouhbGEToJfw"
T = 1_700_000_000.0


def _store() -> dict:
    nodes = {
        "aws-pair": {"id": "aws-pair", "gist": f"Backup job uses access key {KEY_ID}", "notes": [SECRET],
                     "_created_ts": T},
        "aws-pair-flipped": {"id": "aws-pair-flipped", "gist": f"zebracorn second value {SECRET}",
                             "notes": [f"key id {KEY_ID}"], "_created_ts": T},
        "split-token": {"id": "split-token", "gist": "deploy token", "notes": [GHP[:20], GHP[20:]],
                        "_created_ts": T}}
    return {"nodes": nodes, "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


async def test_a_field_withheld_for_its_neighbour_stays_withheld_whatever_the_next_write(tmp_path):
    srv = start_server(tmp_path, user=_store())
    try:
        before = (srv.store / "user.json").read_bytes()
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            read = await s.ok("kg_read", ids=["aws-pair", "aws-pair-flipped", "split-token"], level="user")
            assert SECRET not in read and GHP[:12] not in read, read
            marker = next(line.strip()[2:] for line in read.splitlines() if "AWS secret access key" in line)
            # The agent removes the key id from the gist, leaving the notes unsent, or sending their marker back.
            for notes in ({}, {"notes": [marker]}):
                text = await s.err("kg_put_node", level="user", id="aws-pair",
                                   gist="Backup job uses the backup IAM user; keys live in the vault", **notes)
                assert "notes[0]" in text and "AWS secret access key" in text and SECRET not in text, text
            # The key id's note replaced, the gist sent back as its marker.
            shown = await s.ok("kg_read", id="aws-pair-flipped", level="user")
            gist_marker = next(line.split("gist: ", 1)[1].strip() for line in shown.splitlines() if "gist: " in line)
            text = await s.err("kg_put_node", level="user", id="aws-pair-flipped", gist=gist_marker,
                               notes=["the key id lives in the vault"])
            assert "gist" in text and "AWS secret access key" in text and SECRET not in text, text
            for node_id in ("aws-pair", "aws-pair-flipped"):
                read = await s.ok("kg_read", id=node_id, level="user")
                assert SECRET not in read, read
            assert (srv.store / "user.json").read_bytes() == before  # nothing refused was written
            # Half a split token kept as its marker, its other half replaced: still withheld (its prefix is
            # a key's shape alone), so the write stands and the half is never shown.
            shown = await s.ok("kg_read", id="split-token", level="user")
            first = next(line.strip()[2:] for line in shown.splitlines() if line.strip().startswith("- [withheld"))
            await s.ok("kg_put_node", level="user", id="split-token", gist="deploy token",
                       notes=[first, "rotated monthly"])
            read = await s.ok("kg_read", id="split-token", level="user")
            assert GHP[:12] not in read and "rotated monthly" in read and "- [withheld: holds" in read, read
            # Sending the field without the secret is how it goes.
            await s.ok("kg_put_node", level="user", id="aws-pair", gist="Backup job uses the backup IAM user",
                       notes=["keys live in the vault"])
        srv.stop()  # its graph saved
        stored = json.loads((srv.store / "user.json").read_text())["nodes"]["aws-pair"]
        assert SECRET not in json.dumps(stored) and stored["notes"] == ["keys live in the vault"], stored
    finally:
        srv.kill()
