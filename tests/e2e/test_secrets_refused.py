"""Secrets never reach the memory, through every door that writes: MCP tools and the editor's REST.

A refused write names the field and the kind of secret, shows a masked preview
only, changes nothing on disk, and leaves no copy in the server's log.
"""

from __future__ import annotations

import httpx
import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server, store_files
from mcp import Client

TOKEN = "ghp_" + "Zq8x" * 9  # a GitHub token's shape, assembled here so no file holds one whole


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("secrecy"))
    yield server
    server.kill()


@pytest.fixture
async def session(srv):
    async with Client(srv.url + "/") as client:
        yield await Session.open(client, cwd=srv.project("secrecy-proj"))


def _nothing_leaked(srv, text: str) -> None:
    assert TOKEN not in text and TOKEN[:12] not in text
    srv.logs_written()
    for path in srv.store.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), f"{path} holds the secret"
    assert TOKEN not in srv.log.read_text()


async def test_a_node_with_a_token_in_a_note_is_refused_naming_the_field(srv, session):
    # An acknowledged write first: the project graph's own creation record (its folder) is appended by the graph's
    # writer after the session's read has answered, and the writer acknowledges in order, so after this ack the
    # store holds everything that came before and only the refused write could change it.
    await session.ok("kg_put_node", level="project", id="deploy-from-ci", gist="Deploys run from CI, never by hand")
    before = store_files(srv.store)
    text, err = await session("kg_put_node", level="project", id="deploy-with-token",
                              gist="Deploy from CI with the bot token", notes=["first note", f"clone with {TOKEN}"])
    assert err and text.startswith("Error: NOT WRITTEN: notes[1] holds what looks like a GitHub token (ghp_…"), text
    assert "<private>" in text, "the refusal says how to keep such text out"
    after = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
    assert after == {k: v for k, v in before.items() if not k.endswith((".jsonl", ".log"))}
    _nothing_leaked(srv, text)


async def test_a_long_write_is_checked_as_a_short_one(srv, session):
    # Over 4,000 characters the check runs in a worker thread (conduct/write.py): the same rule, the same words.
    notes = ["a long note " + "x" * 19_980, "another " + "y" * 19_990, f"clone with {TOKEN}"]
    text, err = await session("kg_put_node", level="project", id="long-write-with-token", gist="a long lesson",
                              notes=notes)
    assert err and "NOT WRITTEN: notes[2] holds what looks like a GitHub token" in text, text
    saved = await session.ok("kg_put_node", level="project", id="long-write-without-token", gist="a long lesson",
                             notes=notes[:2] + ["clone with the bot's token from the vault"])
    assert "saved" in saved
    _nothing_leaked(srv, text)


async def test_edges_and_progress_are_held_to_the_same_rule(srv, session):
    await session.ok("kg_put_node", level="project", id="secret-rule-target", gist="a node to link to")
    text, err = await session("kg_put_edge", level="project", frm="secret-rule-target", to="src/deploy.sh",
                              rel="configured-by", notes=[f"uses password=Tr0ub4dor&3 for the db"])
    assert err and "notes[0] holds what looks like a credential assigned to a secret-named key" in text, text
    assert "Tr0ub4dor&3" not in text
    text, err = await session("kg_progress", task_id="deploy-fix", level="project",
                              state={"step": 2, "env": {"GITHUB_TOKEN": TOKEN}})
    assert err and "state.env.GITHUB_TOKEN holds what looks like a GitHub token" in text, text
    # A task id is free text: the whole rule, as for a note (only a key's shape was refused).
    text, err = await session("kg_progress", task_id="db password=Tr0ub4dor&3", level="project", state={"step": 1})
    assert err and "task_id holds what looks like a credential assigned to a secret-named key" in text, text
    _nothing_leaked(srv, text)


async def test_private_text_is_cut_out_of_touches_and_progress_too(srv, session):
    await session.ok("kg_put_node", level="project", id="private-in-touches", gist="a node touching a file",
                     touches=["src/app.py", "<private>/home/me/secret-plans.txt</private>"])
    await session.ok("kg_progress", task_id="private-progress", level="project",
                     state={"step": 1, "why": "waiting on <private>the acquisition memo</private>the review"})
    node = nodes_by_id(graph(srv, session_id=session.sid)["project"])["private-in-touches"]
    assert node["touches"] == ["src/app.py"]
    text, _ = await session("kg_progress", task_id="private-progress", level="project")
    assert "waiting on the review" in text and "acquisition" not in text, text
    srv.logs_written()
    for path in srv.store.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"secret-plans" not in data and b"acquisition memo" not in data, f"{path} holds the private text"


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("kg_put_node", {"id": TOKEN, "gist": "an id that is a token"}, "id"),
    ("kg_put_edge", {"frm": "secret-rule-target", "to": f"conf/{TOKEN}.txt", "rel": "reads"}, "to"),
    ("kg_put_edge", {"frm": "secret-rule-target", "to": "src/x.py", "rel": TOKEN}, "rel"),
    ("kg_progress", {"task_id": TOKEN, "state": {"step": 1}}, "task_id"),
    ("kg_progress", {"task_id": "key-as-key", "state": {"env": {TOKEN: True}}}, "state.env.<key 1>"),
    ("kg_put_node", {"id": "token-glued-to-a-word", "gist": f"the old {TOKEN}_ci token was revoked"}, "gist"),
])
async def test_ids_ends_rels_task_ids_and_keys_are_stored_too_and_held_to_the_rule(srv, session, tool, args, field):
    await session.ok("kg_put_node", level="project", id="secret-rule-target", gist="a node to link to")
    text, err = await session(tool, level="project", **args)
    assert err and f"NOT WRITTEN: {field} holds what looks like a GitHub token" in text, text
    _nothing_leaked(srv, text)


async def test_a_progress_state_takes_finite_numbers_and_shallow_nesting_only(srv, session):
    # NaN and 1e999 are what Python's JSON reads and writes back as no JSON (raw: the SDK sends NaN as null).
    for number in ("NaN", "1e999"):
        call = ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "kg_progress", "arguments": '
                '{"session_id": "%s", "level": "project", "task_id": "odd-numbers", "state": {"eta": %s}}}}'
                % (session.sid, number))
        r = httpx.post(srv.url + "/", content=call, timeout=30,
                       headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        assert "state.eta: must be a finite number" in r.text, r.text
    deep: dict = {}
    for _ in range(40):
        deep = {"d": deep}
    text, err = await session("kg_progress", task_id="odd-numbers", level="project", state=deep)
    assert err and "is nested deeper than 32 levels" in text, text
    text, err = await session("kg_progress", task_id="odd-numbers", level="project", state={"log": "x" * 70_000})
    assert err and "state: is 70,011 characters as JSON; at most 65,536" in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        assert http.get("/api/progress", params={"level": "user"}).status_code == 200


async def test_private_text_is_cut_out_before_anything_is_stored(srv, session):
    text = await session.ok("kg_put_node", level="project", id="staging-login-flow",
                            gist="Staging login goes through the SSO proxy <private>pin quokka-4471</private>",
                            notes=["<private>the proxy admin is alice</private>", "the proxy caches for 60 s"])
    assert "saved" in text
    # The writer is told: a lesson that names the tag to teach it loses the rest of its field otherwise.
    assert "text inside <private>...</private> was not stored (gist, notes[0])" in text, text
    node = nodes_by_id(graph(srv, project_path=srv.project("secrecy-proj"))["project"])["staging-login-flow"]
    assert node["gist"] == "Staging login goes through the SSO proxy"
    assert node["notes"] == ["the proxy caches for 60 s"]
    raw = b"".join(store_files(srv.store).values())
    # A word, not the digits alone: the session files' timestamps may hold any four digits.
    assert b"quokka" not in raw and b"alice" not in raw
    text, err = await session("kg_put_node", level="project", id="all-private-gist", gist="<private>x</private>")
    assert err and "gist: is empty once its <private> text is removed" in text


async def test_the_editor_applies_the_same_rule(srv, session):
    # The project graph exists whichever of this module's tests ran before on this worker.
    assert "saved" in await session.ok("kg_put_node", level="project", id="editor-rule-anchor",
                                       gist="The editor refuses what the MCP tools refuse")
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.project("secrecy-proj"),
                                          "id": "editor-secret-node", "gist": f"the bot uses {TOKEN}"})
    assert r.status_code == 400, r.text
    assert "gist holds what looks like a GitHub token" in r.text
    _nothing_leaked(srv, r.text)


async def test_a_password_said_in_prose_is_refused_and_prose_about_one_is_stored(srv, session):
    text, err = await session("kg_put_node", level="project", id="router-admin", gist="The router's admin login",
                              notes=["the root password is now " + "tangerine-walrus-pickle"])
    said = "NOT WRITTEN: notes[0] holds what looks like a password said in words (… (23 characters))"
    assert err and said in text, text
    assert "walrus" not in text
    saved = await session.ok("kg_put_node", level="project", id="django-password-hashes", gist="Password hashing",
                             notes=["Django stores password pbkdf2_sha256 hashes",
                                    "the password is misread by the driver",
                                    "set the password to expire after 90 days"])
    assert "saved" in saved
    node = nodes_by_id(graph(srv, session_id=session.sid)["project"])["django-password-hashes"]
    assert node["notes"][2] == "set the password to expire after 90 days"
    raw = b"".join(store_files(srv.store).values())
    assert b"walrus" not in raw


async def test_edges_and_progress_say_what_private_text_they_cut(srv, session):
    await session.ok("kg_put_node", level="project", id="secret-rule-target", gist="a node to link to")
    text = await session.ok("kg_put_edge", level="project", frm="secret-rule-target", to="src/deploy.sh",
                            rel="configured-by",
                            notes=["reads the key from <private reason=ops>the blue binder</private>",
                                   "  an untagged note <b>kept</b> as written  "])
    assert "text inside <private>...</private> was not stored (notes[0])" in text, text
    text = await session.ok("kg_progress", task_id="private-said", level="project",
                            state={"step": 1, "why": "waiting on \uff1cprivate\uff1ethe memo\uff1c/private\uff1e",
                                   "steps": ["a", "b <private\n>the cfo</private >"]})
    assert "text inside <private>...</private> was not stored (state.why, state.steps[1])" in text, text
    assert "not stored" not in await session.ok("kg_progress", task_id="private-plain", level="project",
                                                state={"step": 2, "note": "a <private hidden> word is no tag"})
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/progress", json={"level": "project", "project_path": srv.project("secrecy-proj"),
                                             "task_id": "private-rest", "state": {"x": "<private>y</private>z"}})
        assert r.status_code == 200 and "state.x" in " ".join(r.json()["warnings"]), r.text
        r = http.post("/api/edges", json={"level": "project", "project_path": srv.project("secrecy-proj"),
                                          "from": "secret-rule-target", "to": "src/x.py", "rel": "reads",
                                          "notes": ["<private>y</private>z"]})
        assert r.status_code == 201 and "notes[0]" in " ".join(r.json()["warnings"]), r.text
    edges = graph(srv, session_id=session.sid)["project"]["edges"]
    edge = next(e for e in edges if e["to"] == "src/deploy.sh")
    assert edge["notes"] == ["reads the key from", "  an untagged note <b>kept</b> as written  "]
    text, _ = await session("kg_progress", task_id="private-said", level="project")
    assert "waiting on" in text and "memo" not in text and "cfo" not in text, text
    text, _ = await session("kg_progress", task_id="private-plain", level="project")
    assert "a <private hidden> word is no tag" in text, text


async def test_a_task_id_holding_private_text_is_refused_naming_it(srv, session):
    # A task id is an identifier, stored and shown as written: cutting part of it would make another task's id.
    for task_id in ("task <private>HIDETASK</private>", "task \uff1cprivate\uff1eHIDETASK", "<private>HIDETASK"):
        text = await session.err("kg_progress", task_id=task_id, level="project", state={"step": 1})
        assert "task_id: holds a <private> tag" in text and "HIDETASK" not in text, text
        text = await session.err("kg_progress", task_id=task_id, level="project")
        assert "task_id: holds a <private> tag" in text and "HIDETASK" not in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/progress", json={"level": "project", "project_path": srv.project("secrecy-proj"),
                                             "task_id": "rest <private>HIDETASK</private>", "state": {"x": 1}})
        assert r.status_code == 400 and "task_id" in r.text and "HIDETASK" not in r.text, r.text
    srv.logs_written()
    for path in srv.store.rglob("*"):
        if path.is_file():
            assert b"HIDETASK" not in path.read_bytes(), f"{path} holds the private text"
    # Text that only looks like a tag is no tag: such an id is stored as written.
    await session.ok("kg_progress", task_id="a <private hidden> task", level="project", state={"step": 1})
    assert "a <private hidden> task" in await session.ok("kg_progress", task_id="a <private hidden> task",
                                                         level="project")


async def test_a_header_name_or_a_key_id_beside_a_secret_word_is_stored(srv, session):
    notes = ["API_KEY_HEADER_NAME=X-Api-Key is configurable so the gateway can rename it",
             "TOKEN_HEADER=X-Auth-Token lets the gateway read the token from a custom header",
             "the signing key is selected by kid=2024-06-rotation in the JWT header"]
    await session.ok("kg_put_node", level="project", id="gateway-key-header", gist="Gateway auth headers",
                     notes=notes)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["gateway-key-header"]["notes"] == notes


@pytest.mark.parametrize("note", ["the password is " + "Sunflowerlagoon!", "login for grafana: admin / " + "sunflowerlagoon",
                                  "the PIN for the yubikey is " + "482913"])
async def test_a_symbol_password_a_plain_login_password_and_a_pin_are_refused(srv, session, note):
    text = await session.err("kg_put_node", level="project", id="said-in-words", gist="how to log in", notes=[note])
    assert "NOT WRITTEN: notes[0] holds what looks like" in text and note.split()[-1] not in text, text
    assert await session.ok("kg_put_node", level="project", id="said-in-words", gist="how to log in",
                            notes=["the password is 8492 digits long? no: the pin is 1234 on the demo board"])


_KEY32 = "3f9a1c2b4d5e6f70" + "8192a3b4c5d6e7f8"
_AUDITED = [  # (what the audit stored, the secret in it): each assembled, so no file holds one whole
    (f"sentry: https://{_KEY32}@o123456.ingest.sentry.io/4505", _KEY32),
    ("kind: Secret\nmetadata:\n  name: db\ndata:\n  conn: " + "c3VwZXJzZWNy" + "ZXQxMjM=\n", "c3VwZXJzZWNy"),
    ("sqlplus scott/" + "Tiger2024x@//db.example.com:1521/ORCL", "Tiger2024x"),
    ('DriverManager.getConnection("jdbc:postgresql://h/db", "admin", "' + "Xk9#mPq2vL" + '")', "Xk9#mPq2vL"),
    ("mc alias set myminio http://localhost:9000 minio " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY3vQ9sLk2", "bPxRfiCY3vQ9"),
    ("the Mistral key is " + "8fKq2LmZ9xPv4TnW7sYb3HcR6dJe1AuG", "8fKq2LmZ9xPv"),
    ("psk: " + "Wx7pLm2qZ9", "Wx7pLm2qZ9"), ("u: admin p: " + "Wx7pLm2qZ", "Wx7pLm2qZ"),
    ("das Passwort für staging ist " + "hunter2", "hunter2"), ("the password is " + "7153", "7153"),
]


@pytest.mark.parametrize("note,secret", _AUDITED, ids=range(len(_AUDITED)))
async def test_what_an_audit_found_stored_is_refused_and_its_look_alikes_are_stored(srv, session, note, secret):
    text = await session.err("kg_put_node", level="project", id="audited-secret", gist="how to connect", notes=[note])
    assert "NOT WRITTEN: notes[0] holds what looks like" in text and secret not in text, text
    # A short secret (`7153`) may stand in a timestamp of the store: its words before it with it may not.
    stored = secret if len(secret) >= 9 else note[note.index(secret) - 3:]
    assert stored.encode() not in b"".join(store_files(srv.store).values())
    alike = ["the key is idempotency", "FROM node:18 on localhost:8080 at 12:30:00", "das Passwort ist falsch",
             "kind: ConfigMap\ndata:\n  mode: ZmFzdC1tb2Rl", "the password is 2048 bits of entropy",
             'DriverManager.getConnection(url, "admin", System.getenv("DB_PW"))']
    assert "saved" in await session.ok("kg_put_node", level="project", id="audited-look-alikes", gist="look-alikes",
                                       notes=alike)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])["audited-look-alikes"]["notes"] == alike


_INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff"]


@pytest.mark.parametrize("mark", _INVISIBLES, ids=[f"U+{ord(c):04X}" for c in _INVISIBLES])
async def test_an_invisible_character_inside_a_secret_is_refused_as_the_secret_without_it(srv, session, mark):
    """A zero-width space, a joiner or a soft hyphen inside a key or a password hides nothing: the refusal is
    the one the same text without it gets (field, kind and masked preview), and nothing of it is stored."""
    for plain in ("the stripe key is " + "sk_" + "live_" + "Rk8sW2nQ7xLp4ZaB3cD9eF0g", "password=" + "hunter2xyz!"):
        cut = plain.index("_", plain.index("sk_") + 3) + 1 if "sk_" in plain else plain.index("=") + 4
        hidden = plain[:cut] + mark + plain[cut:]
        said, err = await session("kg_put_node", level="project", id="invisible-secret", gist="how to pay",
                                  notes=[plain])
        assert err and "NOT WRITTEN: notes[0] holds what looks like" in said, said
        text, err = await session("kg_put_node", level="project", id="invisible-secret", gist="how to pay",
                                  notes=[hidden])
        assert err and text == said, (text, said)
    assert "invisible-secret" not in nodes_by_id(graph(srv, session_id=session.sid)["project"])


async def test_a_gist_that_holds_zero_width_characters_by_right_is_stored_as_written(srv, session):
    # Thai writes U+200B between words where a line may break; Persian writes U+200C inside a word (می‌خواهم).
    thai, persian = "ตั้งค่า\u200bเซิร์ฟเวอร์\u200bก่อน deploy", "برای استقرار اول سرور را تنظیم می\u200cکنیم"
    await session.ok("kg_put_node", level="project", id="thai-deploy-order", gist=thai, notes=[persian])
    node = nodes_by_id(graph(srv, session_id=session.sid)["project"])["thai-deploy-order"]
    assert (node["gist"], node["notes"]) == (thai, [persian])


async def test_the_first_part_of_an_anthropic_key_is_named_an_anthropic_key_by_mcp_and_the_editor(srv, session):
    key = "sk-ant-" + "api03-" + "AbCdEfGhIjKl"  # what an audit pasted: refused before, but as "an OpenAI API key"
    text, err = await session("kg_put_node", level="project", id="anthropic-key-note", gist="Calls the model API",
                              notes=[f"uses {key}"])
    assert err and "notes[0] holds what looks like an Anthropic API key" in text and "OpenAI" not in text, text
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        r = http.post("/api/nodes", json={"level": "project", "project_path": srv.project("secrecy-proj"),
                                          "id": "anthropic-key-editor", "gist": "Calls the model API",
                                          "notes": [f"export ANTHROPIC_API_KEY='{key}'"]})
    assert r.status_code == 400, r.text
    assert "notes[0] holds what looks like an Anthropic API key" in r.json()["error"] and "OpenAI" not in r.text, r.text
    assert key not in text and key not in r.text
