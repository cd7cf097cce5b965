"""Provider keys the audit found stored: a legacy Notion token (`secret_` and 43 characters) as a node id, an edge's
end or its rel; a Twilio auth token beside its Account SID; an Azure DevOps PAT under its names. Each refused at
the write naming the field, nothing stored; the lessons about them stored."""

from __future__ import annotations

import pytest
from e2e_helpers import Session, start_server
from mcp import Client

NOTION = "secret_" + "zZVaMTpzzwF4NwQ3prXy0gfdGYCFmXAKiHqdNWgNASM"  # assembled: no file holds one whole
SID = "AC" + "adc6793f04a5abffb5cf7e26598306d2"
TOKEN = "1d84d2b3c73e06c4" + "a68447944a550673"
PAT = "da5mfmtbafha6ghxaezjrycj" + "4mfwbx3ojpflrr7ok5ns4sq5r2df"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("shapes"))
    yield server
    server.kill()


@pytest.fixture
async def session(srv):
    async with Client(srv.url + "/") as client:
        yield await Session.open(client, cwd=srv.project("shapes-proj"))


def _nothing_stored(srv, *secrets: str) -> None:
    srv.logs_written()
    for path in srv.store.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            assert not any(s.encode() in raw for s in secrets), f"{path} holds a secret"


async def test_a_legacy_notion_token_as_a_name_is_refused(srv, session):
    await session.ok("kg_put_node", level="project", id="docs-sync-base-node", gist="Docs sync job")
    text = await session.err("kg_put_node", level="project", id=NOTION, gist="Notion integration for the docs sync")
    assert "NOT WRITTEN: id holds what looks like a Notion token" in text and NOTION not in text, text
    for end in ({"to": NOTION, "rel": "uses"}, {"to": "src/sync.py", "rel": NOTION}):
        text = await session.err("kg_put_edge", level="project", frm="docs-sync-base-node", **end)
        assert "holds what looks like a Notion token" in text and NOTION not in text, text
    _nothing_stored(srv, NOTION, NOTION[7:])
    await session.ok("kg_put_node", level="project", id="notion-token-prefixes",
                     gist="legacy Notion tokens start with secret_ and new ones with ntn_")


@pytest.mark.parametrize(("field", "text", "kind"), [
    ("gist", f"client = Client('{SID}', '{TOKEN}')", "a Twilio auth token"),
    ("notes[0]", f"Twilio {SID} auth {TOKEN}", "a Twilio auth token"),
    ("gist", f"AZURE_DEVOPS_PAT={PAT}", "an Azure DevOps token"),
    ("notes[0]", f"Azure DevOps PAT {PAT}", "an Azure DevOps token"),
])
async def test_a_twilio_auth_token_and_an_azure_devops_pat_are_refused(srv, session, field, text, kind):
    gist, notes = (text, None) if field == "gist" else ("Provider credentials", [text])
    text = await session.err("kg_put_node", level="project", id="provider-creds", gist=gist,
                             **({"notes": notes} if notes else {}))
    assert f"NOT WRITTEN: {field} holds what looks like {kind}" in text, text
    assert TOKEN not in text and PAT not in text, text
    _nothing_stored(srv, TOKEN, PAT)


async def test_lessons_about_twilio_and_azure_devops_keys_are_stored(srv, session):
    await session.ok("kg_put_node", level="project", id="twilio-and-ado-keys",
                     gist="Twilio auth tokens are 32 hex characters and Account SIDs start with AC",
                     notes=[f"Twilio Account SID {SID} is not secret; the auth token lives in the vault",
                            "Azure DevOps PATs expire after 90 days; store them in the pipeline's secret variables"])


STRIPE = "sk_live_" + "Aouhlf7EvEhxmOaSetcEGc3a483qxQMK1pvFplLjEUk1QylcN4uE"
GROUPED = " ".join(STRIPE[i:i + 4] for i in range(0, len(STRIPE), 4))  # `sk_l ive_ Aouh …`: the prefix cut too


async def test_a_key_in_groups_of_four_cutting_its_prefix_is_refused(srv, session):
    text = await session.err("kg_put_node", level="project", id="spaced-stripe-key", gist="Billing key",
                             notes=[GROUPED])
    assert "NOT WRITTEN: notes[0] holds what looks like a Stripe key" in text and GROUPED[:14] not in text, text
    _nothing_stored(srv, GROUPED, STRIPE)


async def test_a_hand_written_key_in_groups_of_four_is_withheld(tmp_path):
    user = {"nodes": {"spaced-stripe-key": {"id": "spaced-stripe-key", "gist": "Billing key", "notes": [GROUPED],
                                            "_created_ts": 1_700_000_000.0}},
            "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}
    server = start_server(tmp_path, user=user)
    try:
        async with Client(server.url + "/") as client:
            s = await Session.open(client)
            read = await s.ok("kg_read", id="spaced-stripe-key", level="user")
            assert GROUPED[:14] not in read and "[withheld: holds what looks like a Stripe key" in read, read
    finally:
        server.kill()


async def test_a_key_in_hex_or_json_escapes_is_refused(srv, session):
    for gist in ("STRIPE_KEY_HEX=" + STRIPE.encode().hex(), '{"stripe": "\\u0073\\u006b_live_' + STRIPE[8:] + '"}'):
        text = await session.err("kg_put_node", level="project", id="escaped-stripe-key", gist=gist)
        assert "NOT WRITTEN: gist holds what looks like" in text and "Stripe key" in text, text
    _nothing_stored(srv, STRIPE[8:], STRIPE.encode().hex()[16:])
