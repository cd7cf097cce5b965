"""Secrets in disguise never reach the memory either, through the doors that write (MCP tools, the editor's
REST): base64 of a key, a key split across lines or notes, a bare AWS secret beside its key id, Mailgun's
old-style key. Each refusal names the field and the kind and changes nothing on disk; the look-alikes an
outside audit checked are stored as written.
"""

from __future__ import annotations

import base64

import httpx
import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server, store_files
from mcp import Client

GHP = "ghp_" + "R7kQ2mX9vL4pZ8nW" + "3tY6bC1dF5gH0jK2aS4e"  # a GitHub token's shape, assembled here
AKID = "AKIA" + "Z3Q7R2MX5KD8WPLV"


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("disguised"))
    yield server
    server.kill()


@pytest.fixture
async def session(srv):
    async with Client(srv.url + "/") as client:
        yield await Session.open(client, cwd=srv.project("disguised-proj"))


def _stored(srv) -> bytes:
    srv.logs_written()
    return b"".join(store_files(srv.store).values())


async def test_base64_of_a_token_is_refused_in_a_gist_a_note_an_edge_note_and_the_editor(srv, session):
    await session.ok("kg_put_node", level="project", id="b64-anchor", gist="a node to link to")
    encoded = b64(GHP)
    text = await session.err("kg_put_node", level="project", id="b64-gist", gist="Deploy note for staging: " + encoded)
    assert "NOT WRITTEN: gist holds what looks like base64 of a GitHub token" in text and encoded not in text, text
    text = await session.err("kg_put_node", level="project", id="b64-note", gist="deploy", notes=["ok", encoded])
    assert "NOT WRITTEN: notes[1] holds what looks like base64 of a GitHub token" in text, text
    text = await session.err("kg_put_edge", level="project", frm="b64-anchor", to="src/deploy.sh", rel="reads",
                             notes=["key: " + b64("password=" + "Kx9mQ2vLp4Za7")])
    assert "NOT WRITTEN: notes[0] holds what looks like base64 of a credential assigned" in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.project("disguised-proj"),
                                          "id": "b64-editor", "gist": "the bot uses " + b64(AKID)})
    assert r.status_code == 400 and "gist holds what looks like base64 of an AWS access key id" in r.text, r.text
    stored = _stored(srv)
    assert encoded.encode() not in stored and b64(AKID).encode() not in stored
    # Base64 of data or prose is no secret: stored as written.
    gif = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
    notes = ["base64 of the 1px gif is " + gif, "encoded " + b64("rotate the AWS key every 90 days")]
    await session.ok("kg_put_node", level="project", id="b64-data", gist="base64 in a lesson", notes=notes)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["b64-data"]["notes"] == notes


async def test_a_token_split_across_lines_or_notes_is_refused_and_nothing_is_stored(srv, session):
    await session.ok("kg_put_node", level="project", id="split-anchor", gist="a node to link to")
    half = len(GHP) // 2
    text = await session.err("kg_put_node", level="project", id="split-gist",
                             gist="Deploy note for staging: " + GHP[:half] + "\n" + GHP[half:])
    assert "NOT WRITTEN: gist holds what looks like a GitHub token (ghp_…" in text, text
    text = await session.err("kg_put_node", level="project", id="split-note", gist="split token in notes",
                             notes=[GHP[:20] + "\n" + GHP[20:]])
    assert "NOT WRITTEN: notes[0] holds what looks like a GitHub token" in text, text
    text = await session.err("kg_put_node", level="project", id="split-two-notes", gist="split token across notes",
                             notes=[GHP[:20], GHP[20:]])
    assert "NOT WRITTEN: notes[0] joined to notes[1] holds what looks like a GitHub token" in text, text
    text = await session.err("kg_put_edge", level="project", frm="split-anchor", to="src/db.py", rel="connects-to",
                             notes=["postgres://admin:\n" + "Tr0ub4dorQx7@db/app"])
    assert "NOT WRITTEN: notes[0] holds what looks like a password in a URL" in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.project("disguised-proj"),
                                          "id": "split-editor", "gist": "key " + AKID[:10] + "\n" + AKID[10:]})
    assert r.status_code == 400 and "gist holds what looks like an AWS access key id" in r.text, r.text
    stored = _stored(srv)
    assert GHP[20:].encode() not in stored and b"Tr0ub4dorQx7" not in stored and AKID[10:].encode() not in stored
    assert "split-gist" not in nodes_by_id(graph(srv, session_id=session.sid)["project"])


async def test_the_audits_look_alikes_are_stored_across_lines_and_notes(srv, session):
    notes = ["rotate the AWS key every 90 days;\nIAM docs show AKIAXXXXXXXXXXXXXXXX", "AKIAIOSFODNN7EXAMPLE",
             "Stripe test keys look like sk_test_...", "fixed in commit 3f7a9c2e1b8d4f6a0c5e9b2d7f1a3c8e4b6d9f01",
             "tenant 123e4567-e89b-12d3-a456-426614174000",
             "digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
             "set password=${DB_PASSWORD}\nand token: <token>", "send Authorization: Bearer <token>",
             "use postgres://user:password@localhost/db", "max_tokens=4096",
             "SECRET_KEY=os.getenv('SECRET_KEY')", "JWT secret and token TTL"]
    gist = "Lessons that talk about keys\nand give none"
    await session.ok("kg_put_node", level="project", id="look-alikes-joined", gist=gist, notes=notes)
    node = nodes_by_id(graph(srv, session_id=session.sid)["project"])["look-alikes-joined"]
    assert node["notes"] == notes and node["gist"] == "Lessons that talk about keys and give none"
    await session.ok("kg_put_node", level="project", id="split-anchor", gist="a node to link to")
    await session.ok("kg_put_edge", level="project", frm="split-anchor", to="src/auth.py", rel="reads-config",
                     notes=["JWT secret and token TTL", "AKIAIOSFODNN7EXAMPLE"])


async def test_a_bare_aws_secret_beside_a_key_id_is_refused_and_alone_is_stored(srv, session):
    secret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Hq3Lm9T"
    text = await session.err("kg_put_node", level="project", id="aws-pair", gist="the key pair is AKIA... and " + secret)
    assert "NOT WRITTEN: gist holds what looks like an AWS secret access key (beside its key id)" in text, text
    text = await session.err("kg_put_node", level="project", id="aws-pair", gist="CI's AWS pair: AKIA...",
                             notes=["secret: see below", secret])
    assert "NOT WRITTEN: notes[1] holds what looks like an AWS secret access key" in text and secret not in text, text
    assert secret.encode() not in _stored(srv)
    alone = "a build id of 40 characters: " + secret.replace("/", "Q")
    await session.ok("kg_put_node", level="project", id="forty-alone", gist=alone)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["forty-alone"]["gist"] == alone


async def test_mailgun_old_style_key_is_refused_as_a_gist_a_note_an_id_a_rel_and_a_task_id(srv, session):
    key = "key-" + "3ax6xnjp29jd6fds" + "4gc373sgvjxteol0"
    await session.ok("kg_put_node", level="project", id="mailgun-anchor", gist="a node to link to")
    for tool, args, field in [
        ("kg_put_node", {"id": "mailgun-gist", "gist": "staging deploy uses " + key}, "gist"),
        ("kg_put_node", {"id": "mailgun-note", "gist": "staging deploy", "notes": ["ok", key]}, "notes[1]"),
        ("kg_put_node", {"id": key, "gist": "id holds it"}, "id"),
        ("kg_put_edge", {"frm": "mailgun-anchor", "to": "src/mail.py", "rel": key}, "rel"),
        ("kg_put_edge", {"frm": "mailgun-anchor", "to": key, "rel": "reads"}, "to"),
        ("kg_progress", {"task_id": key, "state": {"step": 1}}, "task_id"),
        ("kg_progress", {"task_id": "mailgun-task", "state": {key: "x"}}, "state.<key 1>"),
    ]:
        text = await session.err(tool, level="project", **args)
        assert f"NOT WRITTEN: {field} holds what looks like a Mailgun key (key-…" in text and key not in text, text
    srv.logs_written()
    for path in srv.store.rglob("*"):
        if path.is_file():
            assert key[4:].encode() not in path.read_bytes(), f"{path} holds the key"


async def test_a_short_secrets_refusal_names_the_field_and_kind_and_shows_none_of_it(srv, session):
    text = await session.err("kg_put_node", level="project", id="short-secret", gist="how to log in",
                             notes=["ok", "password=" + "Kx9mQ2vLp4Za7"])
    assert "NOT WRITTEN: notes[1] holds what looks like a credential assigned to a secret-named key " \
           "(… (13 characters))" in text, text
    assert "Kx9m" not in text and "Kx" not in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.project("disguised-proj"),
                                          "id": "short-secret-editor", "gist": "aws key " + AKID})
    assert r.status_code == 400 and "gist holds what looks like an AWS access key id (AKIA… (20 characters))" in r.text
    assert AKID[4:] not in r.text


async def test_base64_in_a_progress_state_is_refused_through_mcp_and_the_editor(srv, session):
    pg = "postgres://admin:" + "Zq7vN3pLx9Rt" + "@db.prod.internal:5432/app"
    for task, value, kind in [("t-b64", b64(GHP), "base64 of a GitHub token"),
                              ("t-b64-assigned", b64("token=" + GHP), "base64 of a GitHub token"),
                              ("t-b64-url", b64(pg), "base64 of a password in a URL")]:
        text = await session.err("kg_progress", level="project", task_id=task, state={"x": value, "step": 2})
        assert f"NOT WRITTEN: state.x holds what looks like {kind}" in text and value not in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/progress", json={"level": "user", "task_id": "rest-t", "state": {"x": b64("token=" + GHP)}})
    assert r.status_code == 400 and "state.x holds what looks like base64 of a GitHub token" in r.text, r.text
    stored = _stored(srv)
    assert b64(GHP).encode() not in stored and b64(pg).encode() not in stored and b64("token=" + GHP).encode() not in stored
    # Base64 of plain words in a state is stored as written.
    state = {"cursor": b64("304fd18e-4b6c-4b91-a52f-f0e04dbfa8c7"), "step": 3}
    await session.ok("kg_progress", level="project", task_id="t-b64-plain", state=state)
    text = await session.ok("kg_progress", level="project", task_id="t-b64-plain")
    assert state["cursor"] in text, text


async def test_base64_of_base64_of_a_token_is_refused_in_a_gist_an_edge_note_and_the_editor(srv, session):
    twice = b64(b64(GHP))
    pair = b64(b64("aws_access_key_id=" + AKID + "\naws_secret_access_key=" + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Hq3Lm9T"))
    await session.ok("kg_put_node", level="project", id="b64b64-anchor", gist="a node to link to")
    text = await session.err("kg_put_node", level="project", id="b64b64-gist", gist="blob " + twice)
    assert "NOT WRITTEN: gist holds what looks like base64 of base64 of a GitHub token" in text and twice not in text
    text = await session.err("kg_put_node", level="project", id="b64b64-aws", gist="blob " + pair)
    assert "NOT WRITTEN: gist holds what looks like base64 of base64 of an AWS access key id" in text, text
    text = await session.err("kg_put_edge", level="project", frm="b64b64-anchor", to="src/ci.sh", rel="reads",
                             notes=["ok", twice])
    assert "NOT WRITTEN: notes[1] holds what looks like base64 of base64 of a GitHub token" in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.project("disguised-proj"),
                                          "id": "b64b64-editor", "gist": "x " + twice})
    assert r.status_code == 400 and "gist holds what looks like base64 of base64 of a GitHub token" in r.text, r.text
    stored = _stored(srv)
    assert twice.encode() not in stored and pair.encode() not in stored
    # Base64 of base64 of words is stored as written.
    plain = "encoded twice: " + b64(b64("rotate the AWS key every 90 days"))
    await session.ok("kg_put_node", level="project", id="b64b64-words", gist=plain)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["b64b64-words"]["gist"] == plain


async def test_a_token_split_over_three_notes_or_around_a_note_is_refused(srv, session):
    await session.ok("kg_put_node", level="project", id="three-anchor", gist="a node to link to")
    text = await session.err("kg_put_node", level="project", id="three-notes", gist="three parts",
                             notes=[GHP[:12], GHP[12:26], GHP[26:]])
    assert "NOT WRITTEN: notes[0] joined to notes[1] joined to notes[2] holds what looks like a GitHub token" in text
    text = await session.err("kg_put_node", level="project", id="four-notes", gist="four parts",
                             notes=["see below", GHP[:10], GHP[10:20], GHP[20:30], GHP[30:]])
    assert "holds what looks like a GitHub token" in text and "notes[4]" in text, text
    text = await session.err("kg_put_node", level="project", id="skip-note", gist="skip a note",
                             notes=[GHP[:20], "a note between", GHP[20:]])
    assert "NOT WRITTEN: notes[0] joined to notes[2] holds what looks like a GitHub token" in text, text
    text = await session.err("kg_put_edge", level="project", frm="three-anchor", to="src/ci.sh", rel="reads",
                             notes=[GHP[:12], GHP[12:26], GHP[26:]])
    assert "joined to notes[2] holds what looks like a GitHub token" in text, text
    assert GHP[12:26].encode() not in _stored(srv)
    # Short notes that make no key together are stored as written.
    notes = ["step 1", "run make", "then deploy", "sk-", "ip: 10.0.0.1", "AKIA", "docs"]
    await session.ok("kg_put_node", level="project", id="short-notes", gist="a checklist", notes=notes)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["short-notes"]["notes"] == notes


async def test_a_token_cut_in_two_with_words_around_each_part_is_refused(srv, session):
    """The part holding the prefix is no prose; notes read joined at their seam make the key whole after its prefix
    (the words between read as cuts), and are named together."""
    half = 21
    text = await session.err("kg_put_node", level="project", id="split-words-gist", gist="ci reads "
                             + GHP[:half] + "\ncontinues: " + GHP[half:])
    # The two lines' halves read together (core/secret_pairs.py): named as the whole token they make.
    assert "NOT WRITTEN: gist holds what looks like a GitHub token (ghp_… (40 characters))" in text, text
    text = await session.err("kg_put_node", level="project", id="split-words-notes", gist="a token in two notes",
                             notes=["first half " + GHP[:half], "second half " + GHP[half:]])
    assert "NOT WRITTEN: notes[0] joined to notes[1] holds what looks like a GitHub token" in text, text
    await session.ok("kg_put_node", level="project", id="split-words-anchor", gist="a node to link to")
    text = await session.err("kg_put_edge", level="project", frm="split-words-anchor", to="src/ci.sh", rel="reads",
                             notes=["first half " + GHP[:half], "second half " + GHP[half:]])
    assert "NOT WRITTEN: notes[0] joined to notes[1] holds what looks like a GitHub token" in text, text
    assert GHP[:half].encode() not in _stored(srv)
    # Prose about the prefix, a short name after it: stored as written.
    notes = ["GitHub tokens start with ghp_ and hold 36 characters", "the ghp_short1 fixture"]
    await session.ok("kg_put_node", level="project", id="ghp-prose", gist="about GitHub tokens", notes=notes)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["ghp-prose"]["notes"] == notes


async def test_a_token_split_across_two_touches_or_an_edge_s_two_ends_is_refused_and_nothing_is_stored(srv, session):
    await session.ok("kg_put_node", level="project", id="split-anchor", gist="a node to link to")
    first, rest = GHP[:20], GHP[20:]
    text = await session.err("kg_put_node", level="project", id="split-touches", gist="CI token first half",
                             notes=["x"], touches=[f"cfg/{first}", f"cfg/{rest}"])
    # Read joined, the two paths give the whole key cut after its prefix (`…/cfg/…`): named by both touches.
    assert "NOT WRITTEN: touches[0] joined to touches[1] holds what looks like a GitHub token" in text, text
    assert first not in text
    for frm, to, field in (("split-anchor", f"src/{first}", "to"), (f"src/{first}", f"src/{rest}", "from"),
                           (f"{first.lower()}-notes", "split-anchor", "from")):
        text = await session.err("kg_put_edge", level="project", frm=frm, to=to, rel="pairs-with")
        assert f"NOT WRITTEN: {field} holds what looks like part of a GitHub token" in text and first not in text, text
    stored = _stored(srv)
    assert first.encode() not in stored and first.lower().encode() not in stored and rest.encode() not in stored
    # A path or an id that names GitHub's prefixes with words is no token: stored as written.
    await session.ok("kg_put_node", level="project", id="gh-prefixes", gist="GitHub token prefixes",
                     touches=["docs/ghp_tokens.md", "src/gh_cli/auth.py"])
    await session.ok("kg_put_edge", level="project", frm="gh-prefixes", to="docs/ghp_and_gho_prefixes.md",
                     rel="documents")


async def test_a_token_spaced_apart_or_cut_by_hyphens_is_refused_and_prose_so_cut_is_stored(srv, session):
    hyphens = "-".join(GHP[i:i + 10] for i in range(0, len(GHP), 10))
    for field, value in (("notes", [" ".join(GHP)]), ("notes", [hyphens]),
                         ("touches", ["cfg/" + hyphens[:21], "cfg/" + hyphens[22:]])):
        text = await session.err("kg_put_node", level="project", id="cut-apart", gist="CI token", **{field: value})
        assert f"NOT WRITTEN: {field}[0] " in text and "GitHub token" in text, text  # touches: joined to touches[1]
    stored = _stored(srv)
    assert GHP[4:14].encode() not in stored and b"cut-apart" not in stored
    notes = ["a b c d e f g h i j k l m n o p q r s t u", "state-of-the-art write-ahead-log"]
    await session.ok("kg_put_node", level="project", id="cut-prose", gist="prose cut apart", notes=notes,
                     touches=["src/my-app-v2/main.py"])
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["cut-prose"]["notes"] == notes


async def test_a_progress_state_is_refused_for_a_key_its_items_make_together_as_a_nodes_notes_are(srv, session):
    secret = "Qm7vT2xPz9LkWb4Ns8Rc" + "Yh3Jd6Fg1AeUoK5tHi0M"
    for task, state, field, kind in [
        ("t-aws", {"aws": ["key id AKIA…W9BN", secret]}, "state.aws[1]", "an AWS secret access key (beside its key id)"),
        ("t-aws-apart", {"id": AKID, "note": secret}, "state.id", "an AWS access key id"),
        ("t-aws-elided", {"id": "AKIA…WPLV", "note": secret}, "state.note", "an AWS secret access key"),
        ("t-split", {"split": [AKID[:10], AKID[10:]]}, "state.split[0] joined to state.split[1]",
         "an AWS access key id"),
        ("t-split-words", {"split": ["first half " + GHP[:20], "second half " + GHP[20:]]},
         "state.split[0] joined to state.split[1]", "a GitHub token"),  # as kg_put_node names it in notes
    ]:
        text = await session.err("kg_progress", level="project", task_id=task, state=state)
        assert f"NOT WRITTEN: {field} holds what looks like {kind}" in text, (task, text)
        assert secret not in text and AKID[4:] not in text, text
    stored = _stored(srv)
    assert secret.encode() not in stored and AKID[10:].encode() not in stored
    # A state of ordinary items is stored as written, its list read back whole.
    state = {"steps": ["read the config", "AKIAIOSFODNN7EXAMPLE is AWS's documented id"], "step": 2}
    await session.ok("kg_progress", level="project", task_id="t-plain-list", state=state)
    assert "AWS's documented id" in await session.ok("kg_progress", level="project", task_id="t-plain-list")


async def test_a_refusal_never_echoes_a_value_that_starts_with_a_pem_headers_dashes(srv, session):
    for value in ("-----BEGIN" + "Y6BzUZKC97i4xgciFnq9",
                  "-----BEGIN" + "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCpLIix6MEOLeMa61EqJomTEI1JEzO3jo"):
        text = await session.err("kg_put_node", level="project", id="begin-glued", gist=f"password={value}")
        assert "NOT WRITTEN: gist holds what looks like a credential assigned to a secret-named key" in text, text
        assert value[10:16] not in text and f"({len(value)} characters)" in text, text


_HALVES = [("an AWS access key id", "AKIAZ7QRT4", "XKLM2PW9BN"),
           ("an npm token", "npm_Lq2Vx9NwBz4KcXiOo", "Pp1234567890abCDefG"),
           ("a Google API key", "AIzaSyD8Vx9NwBz4KcXiOo", "Pp1234567890abCDe"),
           ("a SendGrid key", "SG.R7dLq2Vx9NwBz4KcXiOoPp.Vx9Nw", "Bz4KcXiOoPp1234567890abCDefGhIjKlMnOp")]


@pytest.mark.parametrize("kind, first, second", _HALVES, ids=[k for k, _, _ in _HALVES])
async def test_a_key_split_across_notes_or_gist_lines_with_words_around_each_half_is_refused(
        srv, session, kind, first, second):
    notes = [f"first half {first}", f"second half {second}"]
    text = await session.err("kg_put_node", level="project", id="split-words", gist="see notes", notes=notes)
    assert f"NOT WRITTEN: notes[0] joined to notes[1] holds what looks like {kind}" in text, text
    text = await session.err("kg_put_node", level="project", id="split-words", gist="\n".join(notes))
    assert f"NOT WRITTEN: gist holds what looks like {kind}" in text, text
    assert second[:10].encode() not in _stored(srv)
    # Words after the prefix's half that make no key with the next note's words: stored as written.
    ok = [f"first half {first[:4]} keys are rotated", "second half of the runbook"]
    await session.ok("kg_put_node", level="project", id=f"split-words-prose-{first[:3].lower()}", gist="see notes",
                     notes=ok)


async def test_an_ipv6_url_with_an_at_sign_in_its_path_is_stored_and_a_password_before_an_ipv6_host_is_refused(
        srv, session):
    for i, text in enumerate(("curl http://[::1]:3000/api/users/@me returns the current user",
                              "http://[2001:db8::1]:8080/users/@me is the ipv6 form")):
        await session.ok("kg_put_node", level="project", id=f"ipv6-url-{i}", gist=text)
        assert nodes_by_id(graph(srv, session_id=session.sid)["project"])[f"ipv6-url-{i}"]["gist"] == text
    text = await session.err("kg_put_node", level="project", id="ipv6-password",
                             gist="db at postgres://admin:" + "Tr0ub4dorV6x" + "@[::1]:5432/app")
    assert "NOT WRITTEN: gist holds what looks like a password in a URL" in text and "Tr0ub4dor" not in text, text


_NAMES_AFTER_PREFIXES = ["see xoxb-scopes-guide in the wiki",
                         "docs slug glpat-token-rotation-runbook-for-ci explains rotation",
                         "config key github_pat_scopes_and_permissions_guide is read by the bot",
                         "column fm1_reference_signal_strength is in dBm",
                         "feature fo2_total_revenue_by_region_quarterly is computed nightly"]


async def test_a_providers_prefix_followed_by_words_is_a_name_stored_as_written(srv, session):
    for i, text in enumerate(_NAMES_AFTER_PREFIXES):
        await session.ok("kg_put_node", level="project", id=f"prefix-words-{i}", gist=text, notes=[text])
        assert nodes_by_id(graph(srv, session_id=session.sid)["project"])[f"prefix-words-{i}"]["gist"] == text
    # The same prefixes before a random body are still refused.
    for key, kind in (("xoxb-" + "248163264128-1357911131517-" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp3Hs6", "a Slack token"),
                      ("glpat-" + "Vx9NwBz4KcXiOoPp12345", "a GitLab token"),
                      ("github_pat_" + "11ABCDEFG0" + "qZ8xW2lK9vB4nM7rT1yP3hS6dJ0fG5cA8uE2", "a GitHub token"),
                      ("fm1_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp3Hs6Dj0F", "a Fly.io token"),
                      ("glpat-" + "abcd_Zq8X-w2Lk9Vb4Nm7R", "a GitLab token")):
        text = await session.err("kg_put_node", level="project", id="prefix-key", gist=f"ci uses {key}")
        assert f"holds what looks like {kind}" in text and key[8:] not in text, (key, text)
