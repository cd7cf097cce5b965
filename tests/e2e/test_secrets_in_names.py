"""A secret a hand edit left in a name (a node's id, an edge's rel, an edge's end, which may be a file path) or
split across notes: named at load, by doctor and by a commit's refusal, and never shown to an agent.

A name cannot be shown as a marker (the agent would then write to the marker as if it were the id), so an entry
whose name holds a secret is left out of every agent-facing reply, with a line saying how many are withheld.
"""

from __future__ import annotations

import json

from e2e_helpers import graph, kg, nodes_by_id, wait_until
from hook_helpers import Harness, node, project_graph, recall_log
from test_git_sync import _machine

from kg_actors.testing import ServerProcess

from e2e_helpers import start_server

# Assembled here so no file holds a whole one.
GHP = "ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp" + "3Hs6Dj0Fg5Ca8Ue2"
SLACK = "xoxb-" + "248163264128-1357911131517-" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp3Hs6"
PATH = f"scripts/{GHP}.sh"
SECRETS = (GHP, GHP[4:24], SLACK, SLACK[:25])


def _user() -> dict:
    nodes = [node(GHP, "node whose id is a token mongoose", notes=["id holds it"]),
             node("ci-release-flow", "the release flow walnut uploads artefacts"),
             node("slack-deploy-notices", "the bot posts deploy notices heron")]
    graph = project_graph("", nodes)
    graph["_meta"] = {"versions": {}, "namespace": {"kind": "user", "owner": None}}
    graph["edges"] = {
        f"ci-release-flow->slack-deploy-notices:{SLACK}": {"from": "ci-release-flow", "to": "slack-deploy-notices",
                                                         "rel": SLACK, "notes": ["rel holds the token"]},
        f"{PATH}->ci-release-flow:documents": {"from": PATH, "to": "ci-release-flow", "rel": "documents"},
        "ci-release-flow->slack-deploy-notices:relates-to": {"from": "ci-release-flow",
                                                             "to": "slack-deploy-notices", "rel": "relates-to"}}
    return graph


def _clean(text: str, where: str, secrets: tuple[str, ...] = SECRETS) -> str:
    for secret in secrets:
        assert secret not in text, f"{where} shows a secret or a piece of one: {text[:3000]}"
    return text


def test_an_entry_whose_name_holds_a_secret_reaches_no_agent_and_is_named_by_the_scan_and_doctor(tmp_path):
    srv: ServerProcess = start_server(tmp_path, user=_user())
    try:
        h = Harness(srv, str(srv.home))
        preload = _clean(h.start().context, "the preload")
        assert "ci-release-flow" in preload and "withheld" in preload, preload
        full = _clean(h.full_read(), "the full read")
        assert "3 entries withheld" in full and "ci-release-flow --relates-to--> slack-deploy-notices" not in full
        assert "relates-to" in full, full
        node_read = _clean(h.mcp("kg_read", id="ci-release-flow", level="user"), "a node read")
        assert "relates-to" in node_read and "documents" not in node_read, node_read
        _clean(h.mcp("kg_read", id=GHP, level="user"), "a read of the held id")
        found = _clean(h.mcp("kg_search", query="mongoose token id"), "a search")
        assert "No nodes found" in found, found
        _clean(h.prompt("where does the node whose id is a token mongoose live?").context, "prompt recall")
        _clean(json.dumps(recall_log(srv)), "recall.jsonl")
        said = "user.json holds what looks like a secret in 3 entries"
        wait_until(lambda: said in srv.log.read_text(), what="the load's scan")
        log = srv.log.read_text()
        doctor = kg(["doctor"], srv.env)
        warned = sum(1 for line in doctor.stdout.splitlines() if line.startswith("WARN "))
        # Warnings, no problem: the end says so, and the exit status stays what problems make it.
        assert warned and "all good" not in doctor.stdout, doctor.stdout
        assert f"kg doctor: no problem; {warned} warning(s)" in doctor.stdout, doctor.stdout[-1500:]
        for text in (log, doctor.stdout):
            _clean(text, "the log or doctor")
            assert "node id 'ghp_… (40 characters)' (holds a GitHub token)" in text, text[-3000:]
            assert "edge 'ci-release-flow->slack-deploy-notices:xoxb… (56 characters)' (its rel holds" in text
            assert "edge 'ghp_… (40 characters)->ci-release-flow:documents' (its from end holds" in text
    finally:
        srv.stop()
    assert GHP in (srv.store / "user.json").read_text()  # kept as written, to be fixed in the editor


def test_no_commit_records_a_secret_in_a_name(tmp_path):
    a = _machine(tmp_path, "machine-a", _user())
    out = kg(["init-git"], a.env)
    said = _clean(out.stdout + out.stderr, "init-git")
    assert out.returncode == 1 and "NOT COMMITTED" in said and "user: node id 'ghp_… (40 characters)'" in said, said


SPLIT = ["ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp", "3Hs6Dj0Fg5" + "Ca8Ue2"]  # a token in two notes, refused so by a write
OSSH = ["-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        "QyNTUxOQAAACDZq8Xw2Lk9Vb4Nm7Rt1Yp3Hs6Dj0Fg5Ca8Ue2Ij4Ok6Pl8AAAAJhZq8Xw", "-----END OPENSSH PRIVATE KEY-----"]
PIECES = (SPLIT[0][4:], SPLIT[1], OSSH[1][:30], OSSH[2][:30])


def _split_store() -> dict:
    graph = project_graph("", [node("token-in-two-notes", "token split across two notes narwhal",
                                    notes=["before the token", *SPLIT, "after it"]),
                               node("signing-key-block", "the project signing key lemur", notes=OSSH),
                               node("plain-lesson", "an ordinary lesson")])
    graph["_meta"] = {"versions": {}, "namespace": {"kind": "user", "owner": None}}
    graph["edges"] = {"plain-lesson->signing-key-block:uses": {"from": "plain-lesson", "to": "signing-key-block",
                                                               "rel": "uses", "notes": SPLIT}}
    return graph


def test_a_key_split_across_notes_is_withheld_whole_and_named_by_the_scan(tmp_path):
    srv: ServerProcess = start_server(tmp_path, user=_split_store())
    try:
        h = Harness(srv, str(srv.home))
        _clean(h.start().context, "the preload", PIECES)
        _clean(h.full_read(), "the full read", PIECES)
        token = _clean(h.mcp("kg_read", id="token-in-two-notes", level="user"), "a node read", PIECES)
        assert "before the token" in token and "after it" in token and token.count("[withheld:") == 2, token
        key = _clean(h.mcp("kg_read", id="signing-key-block", level="user"), "a node read", PIECES)
        assert key.count("[withheld: holds what looks like a private key") == 4, key
        assert "BEGIN" not in key and key.count("[withheld: holds what looks like a GitHub token") == 2, key
        _clean(h.mcp("kg_search", query="narwhal lemur signing key token"), "a search", PIECES)
        said = "user.json holds what looks like a secret in 3 entries"
        wait_until(lambda: said in srv.log.read_text(), what="the load's scan")
        log = srv.log.read_text()
        assert "node 'token-in-two-notes' notes[1] joined to notes[2] (holds a GitHub token)" in log, log[-2000:]
        assert "edge 'plain-lesson->signing-key-block:uses' notes[0] joined to notes[1]" in log, log[-2000:]
    finally:
        srv.stop()
    a = _machine(tmp_path, "machine-a", _split_store())
    out = kg(["init-git"], a.env)
    said = _clean(out.stdout + out.stderr, "init-git", PIECES)
    assert out.returncode == 1 and "user: node 'token-in-two-notes' notes[1] joined to notes[2]" in said, said
    block = " joined to ".join(f"notes[{i}]" for i in range(4))  # the key's block, every line agents are not shown
    assert f"user: node 'signing-key-block' {block} (holds a private key)" in said, said


def _release_steps(tmp_path, notes: list[str]) -> tuple[ServerProcess, Harness, str]:
    """A server whose user graph holds `release-steps` with a token left in a note by hand; a session that read it;
    the marker it was shown in the token's place."""
    user = project_graph("", [node("release-steps", "release steps walnut", notes=notes,
                                   touches=["scripts/release.sh"])])
    user["_meta"] = {"versions": {}, "namespace": {"kind": "user", "owner": None}}
    srv: ServerProcess = start_server(tmp_path, user=user)
    h = Harness(srv, str(srv.home))
    h.start()
    shown = h.mcp("kg_read", id="release-steps", level="user")
    return srv, h, next(line.strip()[2:] for line in shown.splitlines() if "[withheld:" in line)


def test_a_marker_sent_back_as_shown_keeps_the_stored_field_and_the_reply_says_so(tmp_path):
    token = "ghp_" + "R7kQ" * 9
    srv, h, marker = _release_steps(tmp_path, ["run it from the root", f"the ci token is {token}", "tag after"])
    try:
        # The node sent back as shown, the marker where it stood moved first, and a new note.
        said = h.mcp("kg_put_node", level="user", id="release-steps", gist="release steps walnut",
                     notes=[marker, "run it from the root", "tag after", "a new lesson"],
                     touches=["scripts/release.sh"])
        assert token not in said and "notes[0] was sent as the marker shown for a stored note" in said, said
        stored = wait_until(lambda: (n := _stored(srv)) and "a new lesson" in n["notes"] and n, what="the write")
        assert stored["notes"] == [f"the ci token is {token}", "run it from the root", "tag after", "a new lesson"]
        again = h.mcp("kg_read", id="release-steps", level="user")
        assert token not in again and marker in again and "a new lesson" in again, again
    finally:
        srv.stop()



def test_a_marker_sent_where_it_stands_for_no_stored_field_is_refused_naming_the_field(tmp_path):
    token = "ghp_" + "R7kQ" * 9
    srv, h, marker = _release_steps(tmp_path, [f"the ci token is {token}", "tag after"])
    try:
        before = _stored(srv)
        rule = "is the marker kg shows in place of a withheld secret; send the field's text"
        for field, args in (("gist", {"gist": marker, "notes": [marker, "tag after"]}),
                            ("notes[1]", {"gist": "release steps walnut", "notes": [marker, marker]}),
                            ("touches[0]", {"gist": "release steps walnut", "touches": [marker]})):
            said = _refused(h, "kg_put_node", level="user", id="release-steps", **args)
            assert f"{field}: {rule}" in said and token not in said, said
        said = _refused(h, "kg_put_node", level="user", id="a-new-node", gist=marker)
        assert f"gist: {rule}" in said, said
        # With words of its own after it (or before): refused as the marker alone, naming the field.
        within = "holds the marker kg shows in place of a withheld secret; send the field's own text without it"
        said = _refused(h, "kg_put_node", level="user", id="a-new-node", gist=f"{marker} see docs")
        assert f"gist: {within}" in said, said
        said = _refused(h, "kg_put_node", level="user", id="release-steps", gist="release steps walnut",
                        notes=[f"{marker} plus my words", "tag after"])
        assert f"notes[0]: {within}" in said and token not in said, said
        said = _refused(h, "kg_put_edge", level="user", **{"from": "release-steps", "to": "scripts/release.sh"},
                        rel="runs", notes=[f"see {marker}"])
        assert f"notes[0]: {within}" in said, said
        said = _refused(h, "kg_put_edge", level="user", **{"from": "release-steps", "to": "scripts/release.sh"},
                        rel="runs", notes=[marker])
        assert f"notes[0]: {rule}" in said, said
        assert _stored(srv) == before and "a-new-node" not in nodes_by_id(graph(srv)["user"])
    finally:
        srv.stop()


def test_every_field_of_a_node_holding_a_secret_is_named_by_the_scan_and_a_commit_s_refusal(tmp_path):
    aws, oai = "AKIA" + "Z2DXDXDWQ7PL4M3N", "sk-proj-" + "Qm3vL9xZ2pK7rT4wY8bN1cF6hJ0dS5gA"
    user = project_graph("", [node("two-keys-in-notes", "Cloud credentials live in the vault",
                                   notes=[f"aws id {aws} for uploads", f"openai {oai} for evals", "plain"])])
    user["_meta"] = {"versions": {}, "namespace": {"kind": "user", "owner": None}}
    both = ("node 'two-keys-in-notes' notes[0] (holds an AWS access key id), notes[1] (holds an OpenAI API key)")
    srv: ServerProcess = start_server(tmp_path, user=user)
    try:
        Harness(srv, str(srv.home)).full_read()
        wait_until(lambda: "holds what looks like a secret" in srv.log.read_text(), what="the load's scan")
        log = srv.log.read_text()
        assert both in log and aws not in log and oai not in log, log[-2000:]
    finally:
        srv.stop()
    a = _machine(tmp_path, "machine-a", user)
    out = kg(["init-git"], a.env)
    said = _clean(out.stdout + out.stderr, "init-git", (aws, oai))
    assert out.returncode == 1 and both in said, said


def test_reading_an_id_that_holds_a_key_answers_as_for_any_id_not_there(tmp_path):
    """Held or absent: one answer, so a read confirms no guess (as rename and delete); a key-shaped id is
    masked either way, and any other one echoed as sent."""
    absent = GHP[:-4] + "Qx7Z"  # a wrong guess of the same shape
    srv: ServerProcess = start_server(tmp_path, user=_user())
    try:
        h = Harness(srv, str(srv.home))
        h.start()
        h.full_read()
        for args in ({"id": "{}"}, {"ids": ["{}"]}, {"ids": ["ci-release-flow", "{}"]}):
            said = []
            for asked in (GHP, absent, "no-such-lesson-here"):
                sent = {k: v.format(asked) if isinstance(v, str) else [i.format(asked) for i in v]
                        for k, v in args.items()}
                said.append(_clean(h.mcp("kg_read", level="user", **sent), "a read of an id", (GHP, absent)))
            assert said[0] == said[1], said
            assert said[0].replace("ghp_… (40 characters)", "ID") == said[2].replace("no-such-lesson-here", "ID")
            assert "NOT FOUND" in said[0] and "withheld" not in said[0], said[0]
    finally:
        srv.stop()


def _refused(h: Harness, tool: str, **args) -> str:
    try:
        return h.mcp(tool, **args)
    except AssertionError as refused:  # an error reply
        return str(refused)


def _stored(srv: ServerProcess) -> dict | None:
    return nodes_by_id(graph(srv)["user"]).get("release-steps")


def test_a_withheld_field_s_words_find_nothing_and_the_node_s_other_words_still_find_it(tmp_path):
    token = "ghp_" + "R7kQ" * 9
    user = project_graph("", [node("release-steps", "release steps walnut", notes=[f"the ci token is {token}"]),
                              node("plain-lesson", "an ordinary lesson about tokens")])
    user["_meta"] = {"versions": {}, "namespace": {"kind": "user", "owner": None}}
    srv: ServerProcess = start_server(tmp_path, user=user)
    try:
        h = Harness(srv, str(srv.home))
        h.start()
        for query in (token, f"{token} ci", token.lower()):
            found = h.mcp("kg_search", query=query)
            assert "release-steps" not in found, found  # no guess of the token is confirmed
        found = h.mcp("kg_search", query="release steps walnut")
        assert "release-steps" in found and token not in found, found
        recalled = h.prompt(f"is {token} the release steps walnut token?").context
        assert token not in recalled
    finally:
        srv.stop()


def test_a_write_that_would_keep_a_key_split_across_stored_notes_is_refused_naming_them(tmp_path):
    srv: ServerProcess = start_server(tmp_path, user=_split_store())
    try:
        h = Harness(srv, str(srv.home))
        h.start()
        h.mcp("kg_read", id="token-in-two-notes", level="user")
        from hook_helpers import mcp_call
        body = {"level": "user", "id": "token-in-two-notes", "gist": "a new gist only", "session_id": h.kg_sid}
        try:
            said = mcp_call(srv, "kg_put_node", body)
        except AssertionError as refused:
            said = str(refused)
        assert "notes[1] joined to notes[2] of the stored node holds what looks like a GitHub token" in said, said
        _clean(said, "the refusal", PIECES)
        _clean(h.mcp("kg_read", id="token-in-two-notes", level="user"), "a read after it", PIECES)
    finally:
        srv.stop()


def test_the_server_log_masks_a_key_in_a_name_it_prints(tmp_path):
    """The load drops an edge whose end names no node, and logs it: with the key whole, for `kg logs` to show."""
    gone = "ghp_" + "9876543210abcdefghij" + "ABCDEFGHIJ987654"
    graph = _user()
    graph["edges"] = {f"ci-release-flow->{gone}:uses": {"from": "ci-release-flow", "to": gone, "rel": "uses"}}
    srv: ServerProcess = start_server(tmp_path, user=graph)
    try:
        Harness(srv, str(srv.home)).full_read()
        wait_until(lambda: "removing edge ci-release-flow->" in srv.log.read_text(), what="the dangling edge's line")
        log = srv.log.read_text()
        assert gone not in log and "removing edge ci-release-flow->ghp_… (40 characters):uses" in log, log[-2000:]
        assert gone not in kg(["logs", "-n", "200"], srv.env).stdout
    finally:
        srv.stop()


def test_renaming_or_deleting_an_id_that_holds_a_key_answers_as_for_a_wrong_guess(tmp_path):
    """Either answer told the agent whether its guess of the key was right (and acted on it when it was)."""
    import httpx
    from hook_helpers import CLAUDE_UA, MCP_HEADERS

    wrong = GHP[:-4] + "0000"
    srv: ServerProcess = start_server(tmp_path, user=_user())
    try:
        h = Harness(srv, str(srv.home))
        h.start()
        h.full_read()

        def said(tool: str, args: dict) -> str:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": tool, "arguments": {"session_id": h.kg_sid, **args}}}
            r = httpx.post(srv.url + "/", json=body, headers={**MCP_HEADERS, "User-Agent": CLAUDE_UA}, timeout=30)
            return "\n".join(c["text"] for c in r.json()["result"]["content"])

        for tool, key, args in (("kg_rename_node", "old_id", {"new_id": "renamed-from-guess", "level": "user"}),
                                ("kg_delete_node", "id", {})):
            right, guess = (said(tool, {key: k, **args}) for k in (GHP, wrong))
            assert "not found" in right, right  # the id is the agent's own words, echoed as for any guess
            assert right.replace(GHP, "ID") == guess.replace(wrong, "ID"), (right, guess)
    finally:
        srv.stop()
    assert GHP in json.loads((srv.store / "user.json").read_text())["nodes"]  # neither renamed nor deleted


def test_the_editor_renames_or_deletes_a_node_whose_id_holds_a_key_as_doctor_says_and_a_commit_goes_through(
        tmp_path):
    """No tool reaches an entry agents are never shown: the user's editor is where kg says it is fixed."""
    from editor_store import client

    user = _user()
    user["nodes"][f"key-{GHP}"] = node(f"key-{GHP}", "a second node whose id holds the token")
    for key in (f"ci-release-flow->slack-deploy-notices:{SLACK}", f"{PATH}->ci-release-flow:documents"):
        del user["edges"][key]  # the edges whose rel or end holds one: the editor deletes those already
    srv: ServerProcess = start_server(tmp_path, user=user)
    try:
        doctor = kg(["doctor"], srv.env).stdout
        assert "fix: rename or delete it in kg's editor" in doctor, doctor
        with client(srv) as http:
            assert http.get(f"/api/nodes/user/{GHP}").status_code == 200  # the editor shows it as written
            r = http.post("/api/nodes/rename", json={"level": "user", "old_id": GHP, "new_id": "token-node-renamed"})
            assert r.status_code == 200 and r.json()["new_id"] == "token-node-renamed", r.text
            r = http.delete(f"/api/nodes/user/key-{GHP}")
            assert r.status_code == 200 and r.json()["deleted"] == f"key-{GHP}", r.text
        nodes = nodes_by_id(graph(srv)["user"])
        assert "token-node-renamed" in nodes and GHP not in nodes and f"key-{GHP}" not in nodes
        assert nodes["token-node-renamed"]["gist"] == "node whose id is a token mongoose"  # nothing else lost
        out = kg(["init-git"], srv.env)
        assert out.returncode == 0 and "NOT COMMITTED" not in out.stdout + out.stderr, out.stdout + out.stderr
        _clean(srv.log.read_text(), "the server log")
    finally:
        srv.stop()
