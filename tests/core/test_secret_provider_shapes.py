"""Provider keys with no prefix of their own: a Twilio auth token beside its Account SID, an Azure DevOps personal
access token under its names; and the legacy Notion token (`secret_` and 43 characters), a shape wherever it
stands (a name too). Each beside the lessons about them that stay stored."""

from __future__ import annotations

import pytest

from kg_actors.core.held_secrets import in_node
from kg_actors.core.secrecy import SecretRefused, clean_node, find

SID = "AC" + "adc6793f04a5abffb5cf7e26598306d2"  # assembled: no file holds one whole
TOKEN = "1d84d2b3c73e06c4" + "a68447944a550673"
PAT = "da5mfmtbafha6ghxaezjrycj" + "4mfwbx3ojpflrr7ok5ns4sq5r2df"
NOTION = "secret_" + "zZVaMTpzzwF4NwQ3prXy0gfdGYCFmXAKiHqdNWgNASM"


@pytest.mark.parametrize("text", [
    f"client = Client('{SID}', '{TOKEN}')",
    f"Twilio {SID} auth {TOKEN}",
    f"auth token {TOKEN} for account {SID}",
])
def test_a_twilio_auth_token_beside_its_account_sid_is_found(text):
    found = find(text)
    assert found is not None and "Twilio auth token" in found.kind and TOKEN not in found.preview, found


@pytest.mark.parametrize("text", [
    f"AZURE_DEVOPS_PAT={PAT}", f"Azure DevOps PAT {PAT}", f"export AZDO_PERSONAL_ACCESS_TOKEN={PAT}",
    f"vsts pat: {PAT}", f"the ADO personal access token is {PAT}",
])
def test_an_azure_devops_pat_under_its_names_is_found(text):
    found = find(text)
    assert found is not None and PAT not in found.preview, (text, found)


@pytest.mark.parametrize("text", [NOTION, f"Notion key {NOTION}", f"docs/{NOTION}"])
def test_a_legacy_notion_token_is_a_shape_in_text_and_in_names(text):
    found = find(text, shapes_only=True)
    assert found is not None and found.kind == "a Notion token", found


@pytest.mark.parametrize("text", [
    f"Twilio Account SID {SID} is not secret; the auth token lives in the vault",
    f"the call {SID} failed with md5 checksum mismatch",
    "Twilio auth tokens are 32 hex characters and Account SIDs start with AC",
    "Azure DevOps PATs expire after 90 days; store them in the pipeline's secret variables",
    "the Azure DevOps PAT needs the Code (read) scope",
    "secret_key_base is set from the environment in config/secrets.yml",
    "secret_manager_client_for_production_cluster_in_the_main_region_v2",
    "legacy Notion tokens start with secret_ and new ones with ntn_",
    "onion address abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwx.onion",
])
def test_lessons_about_these_keys_are_stored(text):
    assert find(text) is None, (text, find(text))


def _refused_node(gist: str, notes: list[str] | None = None) -> str | None:
    try:
        clean_node(gist, notes, None)
    except SecretRefused as refused:
        return f"{refused.field}: {refused.finding.kind}"
    return None


@pytest.mark.parametrize(("gist", "notes"), [
    ("secret_ValidatorForRotatingKeys2024Q3Release handle rotation", None),
    ("secret_ValidatorForRotatingKeys2024Q3Release handles rotation", None),
    ("we renamed secret_ManagerV2Client to VaultClient last week", ["updated: checked again on 2024-06-01"]),
])
def test_a_secret_named_identifier_and_the_words_after_it_are_no_notion_token(gist, notes):
    # Refused as a Notion token: `secret_` and the words after it, blanks and seams taken out, made 43 characters.
    assert _refused_node(gist, notes) is None
    assert in_node("n", {"id": "n", "gist": gist, "notes": notes or []}) is None


@pytest.mark.parametrize("text", [f"notion {NOTION[:27]} {NOTION[27:]}", f"Notion key {NOTION} for the wiki sync",
                                  f"{NOTION[:20]} {NOTION[20:35]} {NOTION[35:]} rotate it"])
def test_a_notion_token_cut_by_blanks_or_whole_stays_refused(text):
    found = find(text, shapes_only=True)  # the shape alone: other rules may name it first in a write
    assert found is not None and found.kind == "a Notion token", (text, found)
    assert _refused_node("notion", [text]) is not None


SID0 = "AC0123456789abcdef0123456789abcdef"  # the audit's: a documented-looking SID


@pytest.mark.parametrize("text", [
    f"Twilio account {SID0}: webhook failed, trace id 4bf92f3577b34da6a3ce929d0e0e4736",
    f"Twilio {SID0} media file md5 9e107d9d372bb6826bd81d3542a419d6",
    f"account {SID0}, commit 0a1b2c3d4e5f60718293a4b5c6d7e8f9 deployed it",
    f"x-request-id: 0a1b2c3d4e5f60718293a4b5c6d7e8f9 for account {SID0}",
    f"the call {SID} failed, span_id {TOKEN}",
    f"{SID} media etag {TOKEN} did not change",
])
def test_a_hex_value_named_as_an_id_or_a_digest_beside_a_sid_is_stored(text):
    # Refused as a Twilio auth token: only "hash" (and the like) anywhere before it excused a 32-hex value.
    assert find(text) is None, (text, find(text))
    assert _refused_node("twilio debugging", [text]) is None


@pytest.mark.parametrize("text", [
    f"Twilio {SID0} auth token {TOKEN}", f"auth {TOKEN} for the trace of {SID}",
    f"Client('{SID}', '{TOKEN}')  # commit it never",
])
def test_an_auth_token_beside_a_sid_stays_refused_whatever_words_follow(text):
    found = find(text)
    assert found is not None and "Twilio auth token" in found.kind, (text, found)
