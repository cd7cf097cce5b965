"""A key split across notes[0] and notes[2] with a remark between is refused by kg_put_node naming notes[0] and
notes[2], and a hand-written one withholds those two and shows the remark (kg_read, kg doctor, the log), where
the remark was named and withheld and the key's second half shown to every agent: the key's first part glued
to the remark's words read as a longer key."""

from __future__ import annotations

from e2e_helpers import Session, kg, start_server
from mcp import Client

GH = ("ghp_R7dLq2Vx" + "9NwBz4Kc", "XiOoPl8Tm3" + "Yh6Ds1FgAa")
AROUND = ["first half " + GH[0], "then an unrelated remark here", "second half " + GH[1]]
T = 1_700_000_000.0


def _no_part(text: str) -> None:
    assert all(p not in text for p in (GH[0][4:], GH[1])), text[-3000:]


async def test_a_key_split_around_a_remark_is_refused_naming_its_notes(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("split-proj"))
            said = await s.err("kg_put_node", level="project", id="gh-split", gist="A lesson.", notes=AROUND)
            assert "NOT WRITTEN: notes[0] joined to notes[2] holds what looks like a GitHub token" in said, said
            _no_part(said)
            await s.ok("kg_put_node", level="project", id="gh-words", gist="A lesson.",
                       notes=["first half of the rotation", "then an unrelated remark here"])
        srv.logs_written()
        for path in srv.store.rglob("*"):
            if path.is_file():
                _no_part(path.read_bytes().decode("utf-8", "replace"))
    finally:
        srv.kill()


def _store() -> dict:
    return {"nodes": {"hand-split-key": {"id": "hand-split-key", "gist": "A lesson.", "notes": AROUND,
                                         "_created_ts": T}},
            "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


async def test_a_stored_key_split_around_a_remark_withholds_its_parts_and_shows_the_remark(tmp_path):
    srv = start_server(tmp_path, user=_store())
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client)
            shown = await s.ok("kg_read", id="hand-split-key")
            _no_part(shown)
            assert "then an unrelated remark here" in shown and shown.count("[withheld: holds what looks like") == 2
        doctor = kg(["doctor"], srv.env)
        assert "'hand-split-key' notes[0] joined to notes[2]" in doctor.stdout, doctor.stdout
        _no_part(doctor.stdout + doctor.stderr)
        logged = srv.log.read_text(errors="replace")
        assert "'hand-split-key' notes[0] joined to notes[2]" in logged and "notes[0] joined to notes[1]" not in logged
    finally:
        srv.kill()
