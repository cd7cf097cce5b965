"""A key cut once, right after its provider's written prefix (`SG. <body>`, `dop_v1_ <body>`), is refused as the
key it is, its own `.`, `_` and `-` kept; and the providers' current shapes are known (Square's `EAAA…`,
Airtable's `pat….<hex>`, Asana's `2/<id>/<id>:<hex>`). Prose after such a prefix is stored."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

# Assembled here: no file holds a whole key.
CUT_ONCE = [
    ("xoxb-", "628674286148-7769046956488-" + "N20RT5MSpIAheZchu91vGTGP", "a Slack token"),
    ("SG.", "IR6jn2h0C_JEQFkMDtOCao." + "UFIUdFpiH718ikj049nbgA9-d43glJ0oGCg38N-RppN", "a SendGrid key"),
    ("AIza", "n1el2zMgsydfq2rZlGt5k4u8" + "lxHyp_MFjan", "a Google API key"),
    ("dckr_pat_", "VnCPsdAl_KjQt" + "Wdxyc3yanEBImN", "a Docker Hub token"),
    ("dop_v1_", "9e5a4b21d6f0079d44e655c39cad9e0a" + "50566356a1e76354ccfb4c5177c531cb", "a DigitalOcean token"),
    ("shpat_", "d9708ef9467a09d3" + "3e812eea3a040531", "a Shopify token"),
    ("sntrys_", "pogFn6ynJ7n8wHPSC0fuUfNG0yyI2y" + "WEUNNAaClHD7afeRW6Wu4W0CXLWxoa", "a Sentry token"),
]
FORMATS = [
    ("Square prod: " + "EAAAuSxa9HKXQBpG4VkcnAoje8Aekpv2" + "lhByVTAxl-qcOZS8WaGyhARAx5lihs0G", "a Square access token"),
    ("checkout calls Square with " + "EAAAuSxa9HKXQBpG4VkcnAoje8Aekpv2" + "lhByVTAxl-qcOZS8WaGyhARAx5lihs0G",
     "a Square access token"),
    ("Airtable PAT " + "pat7Gw1i184CaSDjY." + "54a8084b23af743e907921cf70d2b633079aa44ab3bb51744d7717643a97f8",
     "an Airtable token"),
    ("Asana PAT 2/2180953047188716/0233069090647138:" + "32a7c6c1672a19e515b873c2f53d6c80", "an Asana token"),
]
# Prose and names after such a prefix, and look-alikes of the new shapes: stored as written.
STORED = [
    "xoxb- tokens are bot tokens; xoxp- ones act for a user",
    "SG. Then the mail goes out through the relay",
    "AIza keys must be restricted to the app's referrers",
    "dckr_pat_ tokens expire after 90 days",
    "dop_v1_ prefixed tokens are personal access tokens",
    "shpat_ marks an admin API access token",
    "sntrys_ is the prefix of an organization auth token",
    "EAAA is how a Square access token starts, sq0atp- the older ones",
    "the patch path pattern is patches/0001-fix.patch",
    "ratio 2/3 of the 1/1000 requests; time 12:30:45",
    "the Asana task 1204567890123456 is linked from the runbook",
]


@pytest.mark.parametrize(("prefix", "body", "kind"), CUT_ONCE, ids=[c[0] for c in CUT_ONCE])
def test_a_key_cut_once_after_its_written_prefix_is_refused_as_its_provider(prefix, body, kind):
    whole = secrecy.find(f"the key is {prefix}{body} in prod")
    assert whole is not None and whole.kind == kind
    for cut in (" ", "  "):
        found = secrecy.find(f"the key is {prefix}{cut}{body} in prod")
        assert found is not None and found.kind == kind, (cut, found)
        assert body[:8] not in found.preview


@pytest.mark.parametrize(("text", "kind"), FORMATS, ids=[k for _, k in FORMATS])
def test_square_airtable_and_asana_tokens_are_refused_wherever_they_stand(text, kind):
    found = secrecy.find(text)
    assert found is not None and found.kind == kind, found
    with pytest.raises(secrecy.SecretRefused, match=f"notes.0. holds what looks like {kind}"):
        secrecy.clean_node("calls the payment api", [text], None)


@pytest.mark.parametrize("text", STORED)
def test_prose_after_a_prefix_and_look_alikes_of_the_new_shapes_are_stored(text):
    assert secrecy.find(text) is None
    secrecy.clean_node("key prefixes", [text], None)
