"""A store the server cannot write or open a file of: reads answer, writes say NOT WRITTEN, and /health,
`kg status` and `kg doctor` name the graph and why until the trouble is over.

A real `kg serve`; tests run as root, so a folder's permissions stop nothing: the trouble is a file
where a folder must be (no project folder can be made) or a folder where a graph file must be.
"""

from __future__ import annotations

import json
import time

from e2e_helpers import graph, kg, nodes_by_id, wait_until
from rpc_helpers import Conn, session_id

T = time.time() - 86_400


def _graph_json(project_path: str | None, *ids: str) -> bytes:
    return json.dumps({"nodes": {i: {"id": i, "gist": f"gist of {i}", "_created_ts": T} for i in ids},
                       "edges": {}, "_meta": {"versions": {}, "project_path": project_path}}).encode()


def test_a_project_graph_the_store_cannot_create_is_read_and_searched_and_its_refusal_named(server_factory):
    srv = server_factory(start=False)
    cwd = srv.project("unmade")
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_bytes(_graph_json(None, "user-lesson-node"))
    (srv.store / "projects").write_text("a file where the projects folder must be")
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)  # a search that never answers fails here, not after the suite's timeout
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "user-lesson-node" in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_search", session_id=sid, query="lesson")
    assert not err and "user-lesson-node" in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="project-lesson", gist="not kept")
    assert err and text.startswith("Error: NOT WRITTEN") and "Not a directory" in text, text
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="user-write-works", gist="kept")
    assert not err, text
    text, err = conn.tool("kg_search", session_id=sid, query="kept")
    assert not err and "user-write-works" in text, text

    trouble = srv.health()["graphs_in_trouble"]["project:unmade"]
    assert trouble["kind"] == "not_saved" and "Not a directory" in trouble["why"], trouble
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and "FAIL  graph project:unmade: the store could not write" in doctor.stdout, \
        doctor.stdout
    status = kg(["status"], srv.env)
    assert "kg: graph project:unmade: the store could not write" in status.stdout, status.stdout

    # Once the store takes the graph, its next write is kept and the trouble is over.
    (srv.store / "projects").unlink()
    (srv.store / "projects").mkdir()
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="project-lesson", gist="kept now")
    assert not err, text
    assert "project:unmade" not in srv.health()["graphs_in_trouble"]
    assert "project-lesson" in nodes_by_id(graph(srv, project_path=cwd)["project"])
    assert srv.stop() == 0
    saved = json.loads((srv.store / "projects" / "unmade" / "graph.json").read_text())
    assert "project-lesson" in saved["nodes"] and saved["_meta"]["project_path"] == cwd


def test_a_graph_file_that_cannot_be_opened_is_served_empty_refusing_changes_and_named(server_factory):
    srv = server_factory(start=False)
    cwd_prev, cwd_none = srv.project("has-prev"), srv.project("no-prev")
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").mkdir()  # a folder where the user graph's file must be
    (srv.store / "user.json" / "stray.txt").write_text("kept as it is")
    prev_dir = srv.store / "projects" / "has-prev"
    (prev_dir / "graph.json").mkdir(parents=True)
    (prev_dir / "graph.prev").write_bytes(_graph_json(cwd_prev, "saved-before-node"))
    (srv.store / "projects" / "no-prev").mkdir()
    (srv.store / "projects" / "no-prev" / "graph.json").write_bytes(_graph_json(cwd_none, "project-node"))
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    # Every session still gets its project memory; the user graph is served empty and refuses changes.
    text, err = conn.tool("kg_read", cwd=cwd_none)
    assert not err and "project-node" in text and "The user memory could not be loaded" in text, text
    assert "Is a directory" in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="over-the-folder", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN"), text
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="project-write", gist="kept")
    assert not err, text
    # A project whose file cannot be opened but whose previous save reads: served from that save.
    text, err = conn.tool("kg_read", cwd=cwd_prev)
    assert not err and "saved-before-node" in text, text
    kept = prev_dir / "graph.json.unreadable"
    assert kept.is_dir() and not (prev_dir / "graph.json").is_dir()

    troubles = srv.health()["graphs_in_trouble"]
    assert troubles["user"]["kind"] == "unreadable" and "Is a directory" in troubles["user"]["why"], troubles
    assert troubles["project:has-prev"]["kind"] == "fell_back" and troubles["project:has-prev"]["kept"] == str(kept)
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1, doctor.stdout
    assert f"FAIL  graph user: {srv.store / 'user.json'} is unreadable (cannot be opened: Is a directory)" \
        in doctor.stdout, doctor.stdout
    assert "FAIL  graph project:has-prev: its file could not be read" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    assert (srv.store / "user.json" / "stray.txt").read_text() == "kept as it is", "nothing written over it"
    srv.start("--no-editor")  # the previous save is still what the project is served from
    assert "saved-before-node" in nodes_by_id(graph(srv, project_path=cwd_prev)["project"])


def _journal(header: dict, *records: dict, tail: bytes = b"") -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in (header, *records)) + tail


def test_doctor_reads_the_graphs_and_journals_the_server_has_not_loaded(server_factory):
    srv = server_factory(start=False)
    cwd = srv.project("fine")
    projects = srv.store / "projects"
    for name in ("fine", "torn", "lost"):
        (projects / name).mkdir(parents=True)
    (srv.store / "user.json").write_bytes(_graph_json(None, "user-node"))
    record = {"n": {"answered": {"id": "answered", "gist": "an answered write"}}}
    (srv.store / "user.json.journal").write_bytes(
        _journal({"base": None}, record, tail=b'{"n": {"dam\n' + json.dumps(record).encode() + b"\n"))
    (projects / "fine" / "graph.json").write_bytes(_graph_json(cwd, "fine-node"))
    torn = projects / "torn" / "graph.json"
    torn.write_bytes(b'{"nodes": {"cut-off')
    lost = projects / "lost" / "graph.json.journal"
    lost.write_bytes(_journal({"base": [10, 10, 10], "sha256": "0" * 64}, record))

    doctor = kg(["doctor"], srv.env)  # the server is down: every graph is read here
    out = doctor.stdout
    assert doctor.returncode == 1 and "FAIL  server" in out, out
    assert f"FAIL  graph user: {srv.store / 'user.json.journal'}: line(s) 3 could not be read" in out, out
    assert f"FAIL  graph project:torn: {torn} is unreadable" in out and "no graph.prev is beside it" in out, out
    # A journal begun on a file that is gone: its changes are replayed at the next start, the file's lessons missing.
    assert f"FAIL  graph project:lost: {lost.with_name('graph.json')} is missing though its journal graph.json.journal " \
           "was begun on it" in out, out
    assert "project:fine" not in out and "Traceback" not in doctor.stderr and not doctor.stderr.strip(), doctor.stderr

    srv.start("--no-editor")  # up: what it has loaded it names itself; the others are read here
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err, text
    doctor = kg(["doctor"], srv.env)
    out = doctor.stdout
    assert f"FAIL  graph project:torn: {torn} is unreadable" in out and "project:fine" not in out, out
    assert out.count("FAIL  graph user:") == 1 and "its journal could not be read" in out, out


def test_a_project_folder_that_cannot_be_read_costs_only_that_graph(server_factory):
    """A folder where the project's journal must be (or a folder the server may not read): the project is served
    empty refusing changes and named, as an unreadable graph file is; the session and the user graph work."""
    srv = server_factory(start=False)
    cwd = srv.project("pq")
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_bytes(_graph_json(None, "user-lesson-node"))
    folder = srv.store / "projects" / "pq"
    folder.mkdir(parents=True)
    (folder / "graph.json").write_bytes(_graph_json(cwd, "pq-lesson"))
    (folder / "graph.json.journal").mkdir()
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "user-lesson-node" in text, text
    assert "The project memory could not be loaded" in text and "graph.json.journal" in text, text
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="pq-write", gist="refused")
    assert err and text.startswith("Error: NOT WRITTEN"), text
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="user-write-works", gist="kept")
    assert not err, text
    trouble = srv.health()["graphs_in_trouble"]["project:pq"]
    assert trouble["kind"] == "unreadable" and "graph.json.journal" in trouble["why"], trouble
    assert "Is a directory" in trouble["why"], trouble
    status = kg(["status"], srv.env)
    assert "project:pq" in status.stdout, status.stdout
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and "FAIL  graph project:pq" in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    assert "pq-lesson" in json.loads((folder / "graph.json").read_text())["nodes"], "nothing written over it"
    assert (folder / "graph.json.journal").is_dir()


def test_files_set_aside_at_an_earlier_start_are_named_while_they_exist(server_factory):
    """A journal set aside at a roll-back (.dropped), one with damaged lines (.damaged), a file found unreadable
    (.unreadable): lessons answered but not served. Left by an earlier run, they are still named at every start
    (read notice, /health, kg status, kg doctor), and no more once removed."""
    srv = server_factory(start=False)
    cwd = srv.project("pd")
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_bytes(_graph_json(None, "user-lesson-node"))
    unreadable = srv.store / "user.json.unreadable"
    unreadable.write_bytes(b'{"nodes": {"torn')
    folder = srv.store / "projects" / "pd"
    folder.mkdir(parents=True)
    (folder / "graph.json").write_bytes(_graph_json(cwd, "pd-lesson"))
    record = {"n": {"rolled-back": {"id": "rolled-back", "gist": "an answered write"}}}
    dropped = folder / "graph.json.journal.dropped"
    dropped.write_bytes(_journal({"base": None}, record))
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and str(dropped) in text and str(unreadable) in text, text
    troubles = srv.health()["graphs_in_trouble"]
    assert troubles["project:pd"]["kind"] == "journal_dropped" and troubles["project:pd"]["kept"] == str(dropped)
    assert troubles["user"]["kind"] == "fell_back" and troubles["user"]["kept"] == str(unreadable), troubles
    status = kg(["status"], srv.env)
    assert f"kg: graph project:pd:" in status.stdout and str(dropped) in status.stdout, status.stdout
    doctor = kg(["doctor"], srv.env)
    assert "FAIL  graph project:pd" in doctor.stdout and str(dropped) in doctor.stdout, doctor.stdout
    assert srv.stop() == 0
    doctor = kg(["doctor"], srv.env)  # the server down: found on disk
    assert f"WARN  graph project:pd: {dropped}" in doctor.stdout and str(unreadable) in doctor.stdout, doctor.stdout
    dropped.unlink()
    unreadable.unlink()
    srv.start("--no-editor")
    text, err = Conn(srv.port, timeout=10).tool("kg_read", cwd=cwd)
    assert not err and "roll-back" not in text and not srv.health()["graphs_in_trouble"], text


def test_doctor_names_a_journal_it_cannot_read_and_a_projects_file_and_goes_on(server_factory):
    """A folder in the journal's place was blamed on the graph file; `projects` as a file was not named at all."""
    srv = server_factory(start=False)
    cwd = srv.project("pq")
    folder = srv.store / "projects" / "pq"
    folder.mkdir(parents=True)
    (folder / "graph.json").write_bytes(_graph_json(cwd, "pq-node"))
    (folder / "graph.json.journal").mkdir()
    out = kg(["doctor"], srv.env).stdout
    assert f"FAIL  graph project:pq: {folder / 'graph.json.journal'} cannot be read (Is a directory)" in out, out
    assert "fix: move graph.json.journal aside" in out and "graph.json could not be read" not in out, out

    (srv.store / "projects").rename(srv.store / "projects-aside")
    (srv.store / "projects").write_text("")
    doctor = kg(["doctor"], srv.env)
    assert f"FAIL  store: {srv.store / 'projects'} is a file, not a folder" in doctor.stdout, doctor.stdout
    assert "OpenCode" in doctor.stdout and not doctor.stderr.strip(), doctor.stderr  # the later checks ran


def test_a_full_read_with_a_graph_that_could_not_be_loaded_says_so_first_and_claims_no_full_graph(server_factory):
    srv = server_factory(start=False)
    cwd = srv.project("broken-proj")
    srv.store.mkdir(parents=True)
    (srv.store / "user.json").write_bytes(_graph_json(None, "user-lesson-node"))
    (srv.store / "projects" / "broken-proj").mkdir(parents=True)
    (srv.store / "projects" / "broken-proj" / "graph.json").write_text('{"nodes": {"cut-off')  # and no graph.prev
    srv.start("--no-editor")
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=cwd)
    assert not err and "user-lesson-node" in text, text
    warning = text.index("The project memory could not be loaded")
    assert warning < text.index("GRAPH —"), text  # before any graph: the first thing the agent reads
    assert "Full graph now in context" not in text, text
    # What is missing, and the way back (the file restored, then a reload), said once.
    assert "Only the user memory is in context: the project memory is missing" in text, text
    assert "kg restore" in text and text.count("could not be loaded") == 1, text
    # A second full read says the same; once the file is back and reloaded, the full graph is claimed again.
    text, _ = conn.tool("kg_read", session_id=session_id(text))
    assert "Only the user memory is in context" in text and "Full graph now" not in text, text
    (srv.store / "projects" / "broken-proj" / "graph.json").write_bytes(_graph_json(cwd, "restored-node"))
    assert "restored-node" in nodes_by_id(graph(srv, project_path=cwd, reload=True)["project"])
    sid = session_id(conn.tool("kg_read", cwd=cwd)[0])
    text, _ = conn.tool("kg_read", session_id=sid)
    assert "could not be loaded" not in text and "Only the user memory" not in text, text
    assert "restored-node" in text


def test_a_write_the_store_refuses_is_logged_in_one_line_not_a_traceback(server_factory, tmp_path):
    """A read-only disk refuses every write alike: each refusal is expected, and a traceback per write
    buried the log's other lines."""
    flag = tmp_path / "storage-fault"
    srv = server_factory(extra_env={"KG_TEST_STORAGE_FAULT": str(flag), "KG_AUTOCOMMIT_INTERVAL": "0"},
                         args=("--no-editor",))
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=srv.project("ro"))
    assert not err, text
    sid = session_id(text)
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="kept-before", gist="kept")
    assert not err, text
    flag.write_text("EROFS")
    for level in ("user", "project", "user"):
        text, err = conn.tool("kg_put_node", session_id=sid, level=level, id=f"refused-{level}", gist="refused")
        assert err and text.startswith("Error: NOT WRITTEN") and "Read-only file system" in text, text
    # A read answers; the read stamp it records on delivery is a write the disk refuses too.
    text, err = conn.tool("kg_read", session_id=sid, id="kept-before")
    assert not err and "kept-before" in text, text
    wait_until(lambda: "an effect on delivery" in srv.log.read_text(), what="the refused read stamp logged")
    flag.unlink()
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="kept-after", gist="kept")
    assert not err, text
    assert srv.stop() == 0
    log = srv.log.read_text()
    assert "Traceback" not in log and "StorageRefused" not in log, log[-4000:]
    assert "Read-only file system" in log, log[-4000:]


def test_a_graph_whose_saves_fail_while_its_journal_takes_changes_is_named_until_a_save_succeeds(server_factory):
    """Only server.log said so, while the journal grew: a folder where the save's temp file must be makes every
    save fail and leaves appends working."""
    srv = server_factory(extra_env={"KG_SAVE_INTERVAL": "0.2", "KG_AUTOCOMMIT_INTERVAL": "0"}, args=("--no-editor",))
    conn = Conn(srv.port, timeout=10)
    text, err = conn.tool("kg_read", cwd=srv.project("folds"))
    assert not err, text
    sid = session_id(text)
    in_the_way = srv.store / "user.json.tmp"
    in_the_way.mkdir()
    text, err = conn.tool("kg_put_node", session_id=sid, level="user", id="kept-in-the-journal", gist="kept")
    assert not err, text
    trouble = wait_until(lambda: srv.health()["graphs_in_trouble"].get("user"), what="the failed save named")
    assert trouble["kind"] == "not_folded" and "Is a directory" in trouble["why"], trouble
    assert "user.json.journal" in trouble["why"], trouble
    status = kg(["status"], srv.env)
    assert "kg: graph user:" in status.stdout and "could not be saved" in status.stdout, status.stdout
    doctor = kg(["doctor"], srv.env)
    assert doctor.returncode == 1 and "FAIL  graph user:" in doctor.stdout, doctor.stdout
    in_the_way.rmdir()
    wait_until(lambda: "user" not in srv.health()["graphs_in_trouble"], what="a save that succeeds")
    assert "kept-in-the-journal" in json.loads((srv.store / "user.json").read_text())["nodes"]
    assert srv.stop() == 0
