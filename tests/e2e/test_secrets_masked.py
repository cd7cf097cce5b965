"""A secret a hand edit left in a graph file is never handed to an agent: every agent-facing reply shows a
marker in the field's place (the editor, the user's own, shows it as written, so it can be fixed there).

Real `kg serve`, real hook scripts fed Claude Code's and Codex's payloads, MCP tools over HTTP.
"""

from __future__ import annotations

import json
import uuid

from e2e_helpers import graph, start_server
from editor_store import client
from hook_helpers import Harness, node, post, project_graph, run_hook

from kg_actors.testing import ServerProcess

# Assembled here so no file holds a whole one.
GHP = "ghp_" + "R7kQ" * 9
AWS_ID, AWS_SECRET = "AKIA" + "Q7ZT3MXKD5RWN2PB", "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCY" + "Zq8Lm3Np4Rt"
ANT = "sk-ant-" + "api03-" + "Xk3v9QmZ2aB7qLp0Wn4T" * 4
SECRETS = (GHP, AWS_ID, AWS_SECRET, ANT)
MARK = "[withheld: holds what looks like"


def _user() -> dict:
    return {"nodes": {
        "release-tagging-steps": node("release-tagging-steps", "release tagging runs from the deploy script",
                                      notes=["run it from the repo root", f"the ci token is {GHP}"],
                                      touches=["scripts/release.sh"]),
        "upload-bucket-keys": node("upload-bucket-keys",
                                   f"uploads sign with aws key {AWS_ID} and secret {AWS_SECRET}",
                                   notes=["the bucket is media-prod"]),
        "plain-user-lesson": node("plain-user-lesson", "an ordinary lesson about small commits")},
        "edges": {"release-tagging-steps->plain-user-lesson:uses": {
            "from": "release-tagging-steps", "to": "plain-user-lesson", "rel": "uses",
            "notes": [f"the api key {ANT}"]}},
        "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


def _project(root: str) -> dict:
    return project_graph(root, [
        node("llm-client-wiring", f"the llm client wiring is set up with {ANT}", touches=["src/llm.py"],
             _archived=True),
        node("make-deploy-token", f"make deploy pushes with token {GHP}", _archived=True),
        node("flaky-queue-retries", "the job queue retries flaky jobs three times before parking them",
             touches=[f"src/queue.py {AWS_ID} {AWS_SECRET}"], _archived=True),
        node("project-plain-lesson", "the changelog is kept tidy"),
    ])


def _server(tmp_path) -> tuple[ServerProcess, str]:
    srv = ServerProcess(tmp_path)
    root = srv.project("mask-proj")
    for rel in ("src/llm.py", "src/queue.py"):
        (srv.home / "mask-proj" / rel).parent.mkdir(parents=True, exist_ok=True)
        (srv.home / "mask-proj" / rel).write_text("# code\n")
    return start_server(tmp_path, user=_user(), projects={"mask-proj": _project(root)}), root


def _clean(text: str, where: str) -> str:
    for secret in SECRETS:
        assert secret not in text and secret[:12] not in text, f"{where} shows a secret: {text[:3000]}"
    return text


def _pre_tool(h: Harness, command: str):
    payload = {**h._base("PreToolUse"), "tool_name": "Bash", "tool_input": {"command": command},
               "tool_use_id": f"toolu_{uuid.uuid4().hex[:20]}"}
    return run_hook("pre_tool", payload, h.env)


def _reads(h: Harness) -> list[str]:
    """Every kg_read and kg_search reply an agent can ask for about the planted nodes."""
    out = [h.mcp("kg_read")]
    while "more=true" in out[-1] or "more: true" in out[-1]:
        out.append(h.mcp("kg_read", more=True))
    for node_id in ("release-tagging-steps", "upload-bucket-keys", "plain-user-lesson"):
        out.append(h.mcp("kg_read", id=node_id, level="user"))
    for node_id in ("llm-client-wiring", "make-deploy-token", "flaky-queue-retries"):
        out.append(h.mcp("kg_read", id=node_id, level="project"))
    out.append(h.mcp("kg_read", ids=["release-tagging-steps", "upload-bucket-keys"], level="user"))
    for query in ("release tagging deploy script", "uploads bucket aws", "llm client wiring", "make deploy token",
                  "job queue flaky retries"):
        out.append(h.mcp("kg_search", query=query))
    return out


def test_a_hand_planted_secret_reaches_no_agent_reply_and_a_marker_takes_its_place(tmp_path):
    srv, root = _server(tmp_path)
    try:
        before = {p: p.read_bytes() for p in srv.store.rglob("*.json")}
        h = Harness(srv, root)
        preload = _clean(h.start().context, "the preload")
        assert "release-tagging-steps" in preload and "upload-bucket-keys: " + MARK in preload, preload
        assert "an AWS" in preload.split("upload-bucket-keys: ")[1].split("\n")[0]
        # Recall still finds the nodes by their other words, and shows the marker.
        _clean(h.full_read(), "the full read")
        prompt = _clean(h.prompt("how is the llm client wiring set up here?").context, "prompt recall")
        file_read = _clean(h.read(f"{root}/src/queue.py").context, "file recall")
        command = _clean(_pre_tool(h, "make deploy ENV=prod").context, "command recall")
        assert "llm-client-wiring: " + MARK in prompt, prompt
        assert "flaky-queue-retries" in file_read, file_read
        assert "make-deploy-token: " + MARK in command, command
        replies = _reads(h)
        for text in replies:
            _clean(text, "a kg_read or kg_search")
        whole = "\n".join(replies)
        # The node read: each field held is a marker, every other field shows as usual.
        tagging = next(t for t in replies if "▸ release-tagging-steps" in t and "run it from the repo root" in t)
        assert "release tagging runs from the deploy script" in tagging and "scripts/release.sh" in tagging
        assert f"{MARK} a GitHub token; edit it in kg's editor]" in tagging, tagging
        assert f"{MARK} an Anthropic API key" in tagging  # the edge's note
        queue = next(t for t in replies if "▸ flaky-queue-retries" in t)
        assert "retries flaky jobs three times" in queue and "touches: " + MARK in queue, queue
        assert whole.count(MARK) >= 6
        codex = Harness(srv, root, kind="codex")
        _clean(codex.start().context, "Codex's preload")
        _clean(codex.prompt("how is the llm client wiring set up here?").context, "Codex's prompt recall")
        _clean(codex.mcp("kg_read", id="upload-bucket-keys", level="user"), "Codex's kg_read")
        # Gemini CLI's hook endpoint: the same decisions, in its own reply shape.
        gemini = {"session_id": str(uuid.uuid4()), "cwd": root, "transcript_path": str(tmp_path / "gemini.json")}
        start = post(srv, "/api/gemini/SessionStart",
                     {**gemini, "hook_event_name": "SessionStart", "source": "startup"})
        shown = _clean(start.text, "Gemini's preload")  # a small graph's preload holds its archived gists too
        assert "upload-bucket-keys: " + MARK in shown and "llm-client-wiring: " + MARK in shown, shown
        # The editor, the user's own view, shows each field as written, so it can be fixed there.
        with client(srv) as editor:
            shown = editor.get("/api/nodes/user/release-tagging-steps").json()["node"]
        assert f"the ci token is {GHP}" in shown["notes"]
        assert f"the ci token is {GHP}" in json.dumps(graph(srv)["user"])  # the store keeps it as written
    finally:
        srv.stop()
    # The reads stamped their nodes, so the stop saved the graphs: each field as written, none a marker.
    user = json.loads((srv.store / "user.json").read_text())
    assert user["nodes"]["release-tagging-steps"]["notes"] == ["run it from the repo root", f"the ci token is {GHP}"]
    assert user["nodes"]["upload-bucket-keys"]["gist"] == _user()["nodes"]["upload-bucket-keys"]["gist"]
    assert user["edges"]["release-tagging-steps->plain-user-lesson:uses"]["notes"] == [f"the api key {ANT}"]
    project = json.loads((srv.store / "projects" / "mask-proj" / "graph.json").read_text())
    assert project["nodes"]["flaky-queue-retries"]["touches"] == [f"src/queue.py {AWS_ID} {AWS_SECRET}"]
    assert "withheld" not in json.dumps(user) + json.dumps(project)
    assert any(before[p] != p.read_bytes() for p in before)  # saved indeed (a stamp), not left untouched


def test_a_save_without_the_secret_brings_the_node_back_and_a_hand_edit_while_serving_is_masked(tmp_path):
    srv, root = _server(tmp_path)
    try:
        h = Harness(srv, root)
        h.start()
        assert MARK in h.mcp("kg_read", id="release-tagging-steps", level="user")
        h.mcp("kg_put_node", level="user", id="release-tagging-steps", gist="release tagging runs from the deploy "
              "script", notes=["run it from the repo root", "the ci token lives in the vault"])
        fixed = h.mcp("kg_read", id="release-tagging-steps", level="user")
        assert "the ci token lives in the vault" in fixed and f"{MARK} a GitHub" not in fixed, fixed
        # The editor's save of a project node, the token left out: shown as written from then on.
        with client(srv) as editor:
            assert ANT in json.dumps(editor.get("/api/nodes/project/llm-client-wiring",
                                                params={"project_path": root}).json())
            saved = editor.post("/api/nodes", json={"level": "project", "project_path": root, "id": "llm-client-wiring",
                                                    "gist": "the llm client wiring reads its key from the vault",
                                                    "touches": ["src/llm.py"]})
            assert saved.status_code == 200, saved.text
        assert "reads its key from the vault" in h.mcp("kg_read", id="llm-client-wiring", level="project")
        # A hand edit while the server runs, read by a reload: masked from the first reply after it.
        path = srv.store / "user.json"
        data = json.loads(path.read_text())
        data["nodes"]["plain-user-lesson"]["gist"] = f"small commits; the deploy token is {GHP}"
        path.write_text(json.dumps(data))
        graph(srv, reload=True)
        for _ in range(200):  # bounded: the reload is done once a read shows the edit's other words
            text = _clean(h.mcp("kg_read", id="plain-user-lesson", level="user"), "a read after a hand edit")
            if MARK in text:
                break
        assert MARK in text and "a GitHub token" in text, text
        _clean(h.mcp("kg_search", query="small commits deploy token"), "a search after a hand edit")
        later = Harness(srv, root)
        _clean(later.start().context, "a preload after a hand edit")
    finally:
        srv.stop()


def test_a_large_graph_shows_no_secret_before_its_scan_in_a_child_is_done_nor_after(tmp_path):
    """From 500 nodes the load's scan runs in a child process for a while: a read meanwhile checks what it shows."""
    from kg_actors.core import constants as C

    nodes = {f"bulk-lesson-{i}": node(f"bulk-lesson-{i}", f"bulk lesson number {i} about retries", _archived=True)
             for i in range(C.SECRET_SCAN_PROCESS_MIN_NODES + 100)}
    nodes["planted-deploy-key"] = node("planted-deploy-key", f"deploys push with {GHP}", notes=["via the ci runner"])
    srv = start_server(tmp_path, user={"nodes": nodes, "edges": {},
                                       "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}})
    try:
        h = Harness(srv, str(srv.home))
        first = [_clean(h.start().context, "the preload"),
                 _clean(h.mcp("kg_read", id="planted-deploy-key", level="user"), "a read during the scan")]
        assert all("planted-deploy-key" in t and MARK in t for t in first), first
        said = "user.json holds what looks like a secret in 1 entry"
        for _ in range(3000):  # bounded: each turn is a read, the scan's line ends it
            text = _clean(h.mcp("kg_read", id="planted-deploy-key", level="user"), "a read during the scan")
            assert f"gist: {MARK} a GitHub token" in text and "via the ci runner" in text, text
            if said in srv.log.read_text():
                break
        assert said in srv.log.read_text()
        after = _clean(h.mcp("kg_search", query="deploys push ci runner"), "a search after the scan")
        assert "planted-deploy-key" in after and MARK in after, after
        assert "bulk lesson number 7 about retries" in h.mcp("kg_read", id="bulk-lesson-7", level="user")
    finally:
        srv.stop()
