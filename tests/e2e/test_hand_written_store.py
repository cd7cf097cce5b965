"""A store file written by hand loads without a silent loss: a node key held twice keeps its earlier version
(set aside on the node), unknown top-level keys stay, malformed values are named per node, and the file as
it was is kept as `.repaired` when what is read is not what it holds (bytes that are not UTF-8 included)."""

from __future__ import annotations

import json

from e2e_helpers import Session, graph, kg, nodes_by_id
from mcp import Client

HAND_WRITTEN = """{
  "nodes": {
    "dup-node": {"id": "dup-node", "gist": "the first thing written down"},
    "bad-node": {"id": "bad-node", "gist": "values of the wrong kind", "notes": 5, "_created_ts": "soon"},
    "latin-node": {"id": "latin-node", "gist": "caf\xe9 au lait"},
    "dup-node": {"id": "dup-node", "gist": "the second thing written down"}
  },
  "edges": {},
  "my_notes": {"todo": ["sort the graph out"]},
  "_meta": {"versions": {}}
}
"""


async def test_a_hand_written_user_graph_loses_nothing_without_a_word(server_factory):
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    original = HAND_WRITTEN.encode("latin-1")  # one byte that is not UTF-8: the é
    (srv.store / "user.json").write_bytes(original)
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        read = await s.ok("kg_read", id="dup-node")
        assert "the second thing written down" in read and "HELD TWICE IN ITS FILE" in read, read
        assert "the first thing written down" in read, read
        await s.ok("kg_put_node", level="user", id="new-node", gist="a write makes the server save the file")
    kept = srv.store / "user.json.repaired"
    assert kept.read_bytes() == original
    log = srv.log.read_text()
    assert "node 'bad-node': notes held 5, read as nothing (left out); _created_ts held 'soon'" in log, log
    assert "node 'dup-node' is held 2 times" in log and "bytes that are not UTF-8" in log, log
    doctor = kg(["doctor"], srv.env)
    assert f"WARN  store: {kept}" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    saved = json.loads((srv.store / "user.json").read_text())
    assert saved["my_notes"] == {"todo": ["sort the graph out"]} and list(saved)[-1] == "_meta"
    assert saved["nodes"]["dup-node"]["_conflicts"][0]["gist"] == "the first thing written down"
    srv.start("--no-editor")  # the saved file reads as written: no second copy
    assert "dup-node" in nodes_by_id(graph(srv)["user"])
    assert sorted(p.name for p in srv.store.glob("user.json.repaired*")) == ["user.json.repaired"]
