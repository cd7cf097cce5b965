"""Lessons about secrets that hold none are stored as written through MCP's kg_put_node (an outside audit found
each refused): a registry's host name after `--password-stdin`, a URL with a user and no password after
"secret:", base64 of an id, a PEM header named without a key body, RFC 7617's documented Basic example, jwt.io's
example token. Their secret-holding neighbours stay refused: a PEM header followed by its body, a URL with a
password, base64 of a random token beside "token", a Basic header of another login.
"""

from __future__ import annotations

import base64

import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server
from mcp import Client

ECR = ("aws ecr get-login-password --region ap-southeast-1 | docker login --username AWS --password-stdin "
       "123456789012.dkr.ecr.ap-southeast-1.amazonaws.com")
SENTRY = ("The Sentry DSN's public key is not a secret: https://abc123@o123456.ingest.sentry.io/4505 is safe in "
          "the frontend.")
CURSOR = ("Cursor tokens are base64 of the last id: MzA0ZmQxOGUtNGI2Yy00YjkxLWE1MmYtZjBlMDRkYmZhOGM3 = "
          "304fd18e-4b6c-4b91-a52f-f0e04dbfa8c7")
OPENSSH = "Only the private key file (-----BEGIN OPENSSH PRIVATE KEY-----) must stay out of git."
PEM = ("cryptography's load_pem_private_key needs the bytes including the '-----BEGIN PRIVATE KEY-----' header "
       "line.")
RFC = "RFC 7617's example: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== (Aladdin:open sesame)."
RANDOM = "Kx9mQ2vLp4Za7" + "Rt5Wq8Ny3Bc6"  # assembled here: no file holds it whole
JWT_IO = ("jwt.io's example token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
          "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c (John Doe, HS256)")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("lessons"))
    yield server
    server.kill()


@pytest.fixture
async def session(srv):
    async with Client(srv.url + "/") as client:
        yield await Session.open(client, cwd=srv.project("lessons-proj"))


@pytest.mark.parametrize("node_id, gist, notes", [
    ("aws-ecr-login", ECR, None),
    ("sentry-dsn-public", SENTRY, None),
    ("cursor-token-base64", CURSOR, None),
    ("ssh-private-key-file", "what stays out of git", [OPENSSH]),
    ("pem-header-line", PEM, None),
    ("basic-auth-rfc-example", RFC, None),
    ("jwt-io-example", JWT_IO, None),
])
async def test_a_lesson_about_secrets_that_holds_none_is_stored_as_written(srv, session, node_id, gist, notes):
    args = {"notes": notes} if notes is not None else {}
    await session.ok("kg_put_node", level="project", id=node_id, gist=gist, **args)
    node = nodes_by_id(graph(srv, session_id=session.sid)["project"])[node_id]
    assert node["gist"] == gist and node.get("notes", []) == (notes or []), node


@pytest.mark.parametrize("gist, kind", [
    ("the deploy key: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "a private key"),
    ("The DSN is not a secret: https://abc123:" + RANDOM + "@o123456.ingest.sentry.io/4505", "a password in a URL"),
    ("Cursor tokens are base64 of the last id: " + base64.b64encode(RANDOM.encode()).decode(),
     "base64 of a credential-like string next to a secret-named word"),
    ("the proxy wants Authorization: Basic " + base64.b64encode(b"deploy:" + RANDOM.encode()).decode(),
     "a basic auth header"),
])
async def test_their_neighbours_that_hold_a_secret_stay_refused(session, gist, kind):
    text = await session.err("kg_put_node", level="project", id="neighbour", gist=gist)
    assert f"NOT WRITTEN: gist holds what looks like {kind}" in text and RANDOM not in text, text


AWS_DOCS = "AKIAIOSFODNN7EXAMPLE appears in docs/aws/credentials/ExampleConfigurationFile.md"
CREDS_FILE = "The credentials file lives at config/credentials/ProductionDatabaseSettingsV2"


@pytest.mark.parametrize("node_id, gist", [
    ("aws-docs-credentials-folder", AWS_DOCS),
    ("aws-docs-credentials-folder-bare", "docs/aws/credentials/ExampleConfigurationFile.md"),
    ("credentials-folder-file", CREDS_FILE),
])
async def test_a_path_under_a_credentials_folder_is_stored_as_written(srv, session, node_id, gist):
    await session.ok("kg_put_node", level="project", id=node_id, gist=gist)
    assert nodes_by_id(graph(srv, session_id=session.sid)["project"])[node_id]["gist"] == gist


@pytest.mark.parametrize("gist", ["credentials: " + RANDOM, "credentials=" + RANDOM,
                                  "the value is config/credentials/" + RANDOM])
async def test_a_random_string_after_credentials_stays_refused(session, gist):
    text = await session.err("kg_put_node", level="project", id="creds-neighbour", gist=gist)
    assert "NOT WRITTEN: gist holds what looks like a credential" in text and RANDOM not in text, text


LOADER = ("Loading an SSH or PEM key in pyjwt's style:",
          ["if key_bytes.startswith(b\"ssh-rsa\"):\n    public_key: PublicKeyTypes = load_ssh_public_key(key_bytes)\n"
           "else:\n    private_key: PrivateKeyTypes = load_pem_private_key(\n        key_bytes, password=None\n    )",
           "private_key: Ed25519PrivateKey | Ed448PrivateKey\n"
           "private_key = Ed25519PrivateKey.from_private_bytes(d)"])


async def test_python_with_a_typed_key_variable_is_stored_as_written(srv, session):
    gist, notes = LOADER
    await session.ok("kg_put_node", level="project", id="typed-key-loader", gist=gist, notes=notes)
    node = nodes_by_id(graph(srv, session_id=session.sid)["project"])["typed-key-loader"]
    assert node["gist"] == gist and node["notes"] == notes, node


@pytest.mark.parametrize("note", ['private_key: "' + RANDOM + '"', 'api_key = "' + RANDOM + '"',
                                  'api_key: ApiKey = "' + RANDOM + '"'])
async def test_a_typed_key_variable_given_a_secret_stays_refused(session, note):
    text = await session.err("kg_put_node", level="project", id="typed-neighbour", gist="a key in code", notes=[note])
    assert "NOT WRITTEN: notes[0] holds what looks like a credential" in text and RANDOM not in text, text
