"""A store file written by hand loads without a silent loss: a node key held twice keeps its earlier version
(set aside on the node), unknown top-level keys stay, malformed values are named per node, and the file as
it was is kept as `.repaired` when what is read is not what it holds (bytes that are not UTF-8 included)."""

from __future__ import annotations

import json

import pytest
from e2e_helpers import Session, get_json, graph, kg, nodes_by_id
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
    original = HAND_WRITTEN.encode("latin-1")  # saved as Latin-1: its é is one byte, not UTF-8
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
    assert "node 'dup-node' is held 2 times" in log and log.count("read as Windows-1252") == 1, log
    doctor = kg(["doctor"], srv.env)
    assert f"WARN  store: {kept}" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    saved = json.loads((srv.store / "user.json").read_text())
    assert saved["my_notes"] == {"todo": ["sort the graph out"]} and list(saved)[-1] == "_meta"
    assert saved["nodes"]["dup-node"]["_conflicts"][0]["gist"] == "the first thing written down"
    srv.start("--no-editor")  # the saved file reads as written: no second copy
    assert "dup-node" in nodes_by_id(graph(srv)["user"])
    assert nodes_by_id(graph(srv)["user"])["latin-node"]["gist"] == "caf\xe9 au lait", "its accent kept"
    assert sorted(p.name for p in srv.store.glob("user.json.repaired*")) == ["user.json.repaired"]


MERGED_BY_HAND = """{
  "nodes": {
    "first-block-node": {"id": "first-block-node", "gist": "in the first nodes block", "notes": ["keep me"]},
    "in-both": {"id": "in-both", "gist": "the earlier block's version"},
    "field-twice": {"id": "field-twice", "gist": "the earlier gist", "gist": "the later gist"}
  },
  "edges": {"first-block-node->in-both:relates-to": {"from": "first-block-node", "to": "in-both",
                                                     "rel": "relates-to", "why": "earlier"},
            "first-block-node->in-both:relates-to": {"from": "first-block-node", "to": "in-both",
                                                     "rel": "relates-to", "why": "later"}},
  "nodes": {
    "second-block-node": {"id": "second-block-node", "gist": "in the second nodes block"},
    "in-both": {"id": "in-both", "gist": "the later block's version"}
  },
  "_meta": {"versions": {}}
}
"""


async def test_keys_held_twice_other_than_a_node_id_lose_nothing_without_a_word(server_factory):
    """A merge resolved by hand leaves two `nodes` blocks, a field or an edge twice: each earlier copy is read
    in or set aside and said, and the file as it was is kept as `.repaired` (a JSON reader keeps the last)."""
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_text(MERGED_BY_HAND)
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        read = await s.ok("kg_read", ids=["first-block-node", "second-block-node", "in-both", "field-twice"])
        assert "in the first nodes block" in read and "in the second nodes block" in read, read
        assert "the later block's version" in read and "the earlier block's version" in read, read
        assert "the later gist" in read and "the earlier gist" in read, read
        await s.ok("kg_put_node", level="user", id="new-node", gist="a write makes the server save the file")
    assert (srv.store / "user.json.repaired").read_text() == MERGED_BY_HAND
    log = srv.log.read_text()
    assert "'nodes' is held 2 times: read as one" in log and "node 'field-twice' holds 'gist' 2 times" in log, log
    assert "edge 'first-block-node->in-both:relates-to' is held 2 times" in log, log
    assert srv.stop() == 0
    saved = json.loads((srv.store / "user.json").read_text())["nodes"]
    assert saved["first-block-node"]["notes"] == ["keep me"] and "second-block-node" in saved
    assert saved["in-both"]["gist"] == "the later block's version"
    assert saved["in-both"]["_conflicts"][0]["gist"] == "the earlier block's version"
    assert saved["field-twice"]["gist"] == "the later gist"
    assert saved["field-twice"]["_conflicts"][0]["gist"] == "the earlier gist"


def test_a_graph_read_as_windows_1252_is_written_back_as_utf8_by_the_next_save_and_then_committed(server_factory):
    """Nothing written: the repair alone makes the next save (here `kg commit`'s, which saves first) write the
    graph as UTF-8, so the commit takes it instead of refusing a file that is not UTF-8."""
    import subprocess

    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(srv.store)], check=True)
    original = json.dumps({"nodes": {"latin-node": {"id": "latin-node", "gist": "caf\xe9 no\xe9l \u201cquoted\u201d"}},
                           "edges": {}, "_meta": {"versions": {}}}, ensure_ascii=False).encode("cp1252")
    (srv.store / "user.json").write_bytes(original)
    srv.start("--no-editor")
    assert nodes_by_id(graph(srv)["user"])["latin-node"]["gist"] == "caf\xe9 no\xe9l \u201cquoted\u201d"
    done = kg(["commit"], srv.env)
    assert done.returncode == 0, done.stdout + done.stderr
    saved = (srv.store / "user.json").read_bytes()
    assert json.loads(saved.decode("utf-8"))["nodes"]["latin-node"]["gist"] == "caf\xe9 no\xe9l \u201cquoted\u201d"
    assert (srv.store / "user.json.repaired").read_bytes() == original
    committed = subprocess.run(["git", "-C", str(srv.store), "ls-tree", "-r", "--name-only", "HEAD"],
                               capture_output=True, text=True, check=True).stdout
    assert "user" in committed, committed
    assert srv.stop() == 0


NOT_FINITE = """{
  "nodes": {
    "deploy-needs-warm-cache": {"id": "deploy-needs-warm-cache", "gist": "Deploys need a warm cache first",
                                "_useful_ts": [NaN, 1796000000.5], "_created_ts": Infinity,
                                "_last_read_ts": 1e999, "my_score": -Infinity}
  },
  "edges": {},
  "_meta": {"versions": {}, "my_stamp": NaN}
}
"""


async def test_a_nan_or_infinity_in_a_hand_written_graph_is_named_and_left_out(server_factory):
    """Python's json writes NaN and Infinity (and reads 1e999 as infinity): no JSON. Such a value was read as a
    number unsaid, the editor's node view and the graph read answered 500, doctor said all good, and the next
    save wrote it back. Now each is named (log and doctor), left out, and the node is kept and opens."""
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_text(NOT_FINITE)
    down = kg(["doctor"], srv.env).stdout  # the server down: the file read as the next load reads it
    assert "WARN  graph user: " in down and "_created_ts held Infinity, not a JSON number: left out" in down, down
    srv.start("--no-editor")
    node = get_json(srv, "/api/nodes/user/deploy-needs-warm-cache")
    assert "Deploys need a warm cache first" in json.dumps(node), node
    read = nodes_by_id(graph(srv)["user"])["deploy-needs-warm-cache"]
    assert read["_useful_ts"] == [1796000000.5] and "_created_ts" not in read and "_last_read_ts" not in read, read
    log = srv.log.read_text()
    for said in ("node 'deploy-needs-warm-cache': _useful_ts[0] held NaN", "_created_ts held Infinity",
                 "_last_read_ts held Infinity", "my_score held -Infinity", "'_meta.my_stamp' held NaN"):
        assert said in log, (said, log)
    doctor = kg(["doctor"], srv.env)
    assert "_created_ts held Infinity" in doctor.stdout and "all good" not in doctor.stdout, doctor.stdout
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="new-node", gist="a write makes the server save the file")
    assert srv.stop() == 0
    text = (srv.store / "user.json").read_text()
    saved = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} saved: {text}"))
    assert "deploy-needs-warm-cache" in saved["nodes"] and "my_stamp" not in saved["_meta"], saved
    assert (srv.store / "user.json.repaired").read_text() == NOT_FINITE


OVERFLOWING = """{
  "nodes": {
    "alpha-node-one": {"id": "alpha-node-one", "gist": "The first node of the pair"},
    "beta-node-two": {"id": "beta-node-two", "gist": "The second node of the pair", "_written": {"ts": 1e999},
                      "my_scale": -2.5E+400, "my_long": 1""" + "0" * 400 + """.0}
  },
  "edges": {"alpha-node-one->beta-node-two:depends-on": {"from": "alpha-node-one", "to": "beta-node-two",
                                                         "rel": "depends-on", "weight": 1e999}},
  "_meta": {"versions": {}}
}
"""


async def test_a_number_too_large_for_a_float_in_a_graph_file_is_named_and_left_out(server_factory):
    """1e999 (and any number past a float's range) is no NaN or Infinity token: json reads it as infinity without
    the parse_constant hook that flagged those. Outside the typed node fields it was kept unsaid: no log line,
    doctor silent, the editor's node view answered 500, and the next save wrote Infinity, no JSON."""
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_text(OVERFLOWING)
    down = kg(["doctor"], srv.env).stdout
    assert "WARN  graph user: " in down and "_written.ts held Infinity, not a JSON number" in down, down
    srv.start("--no-editor")
    node = get_json(srv, "/api/nodes/user/beta-node-two")  # answered 500 (no JSON for infinity)
    assert "The second node of the pair" in json.dumps(node), node
    log = srv.log.read_text()
    for said in ("node 'beta-node-two': _written.ts held Infinity", "node 'beta-node-two': my_scale held -Infinity",
                 "node 'beta-node-two': my_long held Infinity",
                 "'edges.alpha-node-one->beta-node-two:depends-on.weight' held Infinity"):
        assert said in log, (said, log)
    doctor = kg(["doctor"], srv.env).stdout
    assert "_written.ts held Infinity" in doctor and "all good" not in doctor, doctor
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="new-node", gist="a write makes the server save the file")
    assert srv.stop() == 0
    text = (srv.store / "user.json").read_text()
    saved = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} saved: {text}"))
    assert {"alpha-node-one", "beta-node-two", "new-node"} <= set(saved["nodes"]), saved
    assert "alpha-node-one->beta-node-two:depends-on" in saved["edges"], saved  # the edge kept, its weight out



GHOST_EDGE = {"nodes": {"linked-lesson": {"id": "linked-lesson", "gist": "has an edge whose other end was deleted"}},
              "edges": {"linked-lesson->ghost-node:depends-on": {
                  "from": "linked-lesson", "to": "ghost-node", "rel": "depends-on",
                  "notes": ["WHY: the migration must run before the cache warm-up, learned the hard way"]}},
              "_meta": {"versions": {}}}


async def test_an_edge_to_a_node_deleted_by_hand_is_removed_with_a_copy_its_notes_logged(server_factory):
    """Audit: the load removed such an edge with its notes, said only in an INFO line without them, and after the
    next save no file held the text. Spec 000 still removes it; a copy is kept (.repaired), named by the log
    with the notes and by kg doctor."""
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_text(json.dumps(GHOST_EDGE))
    srv.start("--no-editor")
    assert graph(srv)["user"]["edges"] == []  # removed at load, as spec 000 says
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="later-lesson", gist="a later write, then a save")
    assert srv.stop() == 0
    kept = srv.store / "user.json.repaired"
    copy = json.loads(kept.read_text())
    assert copy["edges"]["linked-lesson->ghost-node:depends-on"] == GHOST_EDGE["edges"][
        "linked-lesson->ghost-node:depends-on"] and copy["nodes"] == {}
    line = next(ln for ln in srv.log.read_text().splitlines() if "removing edge linked-lesson->ghost-node" in ln)
    assert "WARNING" in line and "learned the hard way" in line and f"kept in {kept}" in line, line
    srv.start("--no-editor")
    doctor = kg(["doctor"], srv.env)
    assert (f"WARN  store: {kept} holds 1 edge(s) a load removed because an end names no node, as they were (notes "
            "included)") in doctor.stdout, doctor.stdout


async def test_a_node_without_a_gist_or_with_another_id_than_its_key_is_named_and_kept_as_written(server_factory):
    """Audit: a node with no gist was served as an empty lesson, and an `id` other than its key replaced, with
    no log line, no .repaired copy and no kg doctor finding."""
    written = json.dumps({"nodes": {
        "no-gist-lesson": {"id": "no-gist-lesson", "notes": ["the lesson text went into the notes by mistake"]},
        "key-name-here": {"id": "real-id-other", "gist": "the key and the id field disagree"},
        "plain-lesson-ok": {"id": "plain-lesson-ok", "gist": "a well-formed neighbour"}}, "edges": {},
        "_meta": {"versions": {}}})
    srv = server_factory(start=False)
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_text(written)
    srv.start("--no-editor")
    assert set(nodes_by_id(graph(srv)["user"])) == {"no-gist-lesson", "key-name-here", "plain-lesson-ok"}
    log = srv.log.read_text()
    assert "node 'no-gist-lesson' holds no gist: read with an empty one (write its gist again)" in log, log
    assert "node 'key-name-here' holds id 'real-id-other': read under its key 'key-name-here'" in log, log
    kept = srv.store / "user.json.repaired"
    assert kept.read_text() == written
    doctor = kg(["doctor"], srv.env)
    assert f"WARN  store: {kept} is the file as it was before a load read it other than as written" in doctor.stdout
    assert "node 'no-gist-lesson' holds no gist" in doctor.stdout, doctor.stdout
