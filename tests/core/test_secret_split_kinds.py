"""A key cut into two or three parts with words around each (notes, a gist's lines, a progress state's items; a
note between the parts) is refused as the whole it makes, whatever its provider: the rule reads a part by what it
is (a provider's prefix, or random as a key's part), not by a list of providers. Ordinary notes with ids, hashes
and versions at their seams are stored."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy, secret_state

# Assembled here: no file holds a whole key.
KEYS = {
    "a Docker Hub token": "dckr_pat_" + "VnCPsdAl_KjQtWdxyc3yanEBImN",
    "a Twilio key": "SK72a2baef" + "e2373d34e85af4e279cbb132",
    "a DigitalOcean token": "dop_v1_" + "9e5a4b21d6f0079d44e655c39cad9e0a50566356a1e76354ccfb4c5177c531cb",
    "a Telegram bot token": "6458370709:" + "AAe0zk3Yh02s7LVX5cBu6-t7maTkumjLjBY",
    "an Azure client secret": "gmT8Q~" + "8.DpGTae.TcRLBm8LosDs7GEU9ut3fjKDc",
    "a Discord bot token": "MDWxscOax5UFRXmF82N6lYY5" + ".V6amD0.RlTA9gsmA20wBDanv-UGcXM_Ind",
    "a Slack webhook URL": "https://hooks.slack.com/services/" + "T5KKI5ZSL/BKFYE6VDVQ7/gED3jnfHylyadSnb9XOIARta",
    "an npm token": "npm_" + "vXEwXyDG5B7pMg8vAWODZpKo3JxRm9AdrmjK",
    "an AWS access key id": "AKIA" + "ET1P2SQ9G5L37IEX",
}


def _refused_node(gist: str, notes: list[str] | None = None) -> bool:
    try:
        secrecy.clean_node(gist, notes, None)
    except secrecy.SecretRefused:
        return True
    return False


def _refused_state(items: list[str]) -> bool:
    try:
        secret_state.refuse_state("rotate-keys", {"items": items})
    except secrecy.SecretRefused:
        return True
    return False


@pytest.mark.parametrize("kind", list(KEYS))
def test_a_key_cut_in_two_with_words_around_each_half_is_refused_in_notes_lines_and_state_items(kind):
    key = KEYS[kind]
    a, b = key[:len(key) // 2], key[len(key) // 2:]
    halves = [f"first half {a}", f"second half {b}"]
    with pytest.raises(secrecy.SecretRefused) as refused:
        secrecy.clean_node("the deploy creds", halves, None)
    assert "notes[0] joined to notes[1]" in refused.value.field and a[4:] not in str(refused.value)
    assert _refused_node("\n".join(halves))
    assert _refused_state(halves)


@pytest.mark.parametrize("kind", ["an npm token", "an AWS access key id"])
def test_a_key_cut_in_three_or_with_a_note_between_its_halves_is_refused(kind):
    key = KEYS[kind]
    third, half = len(key) // 3, len(key) // 2
    a, b, c = key[:third], key[third:2 * third], key[2 * third:]
    assert _refused_node("the deploy creds", [f"part one {a}", f"part two {b}", f"part three {c}"])
    assert _refused_node("the deploy creds", [f"first half {key[:half]}", "(see below)", f"second half {key[half:]}"])
    assert _refused_node(f"key starts {key[:half]}", ["unrelated", f"ends with {key[half:]}"])
    assert _refused_state([f"part one {a}", f"part two {b}", f"part three {c}"])


ORDINARY = [
    ["commit 3f9a2b1c7d8e fixed the v2 build", "rebased onto 8e7d6c5b4a3f afterwards"],
    ["build svc12 on node22 first", "then deploy v3Beta2 to staging"],
    ["the PR #1234 adds OAuth2 login", "see RFC6749 section 4.1 for the flow"],
    ["SKU A12B3 is out of stock", "reorder 4e85af items from the vendor"],
    ["run sk-learn pipelines in the notebook", "ColumnTransformer2 replaced the old one"],
    ["the AKIA prefix marks an access key id", "ASIA marks a temporary one"],
    ["part one: set up the DB", "part two: migrate 20240101_add_users", "part three: backfill v2"],
    ["first half of the rollout went to eu-west-1", "(see below)", "second half to us-east-2 on day 3"],
    ["dckr_pat_ tokens expire", "the PAT for CI is in the vault at secret/ci/docker"],
    ["Discord ids look like 1094723810923841536", "our bot runs as MyBotV2 in guild 88123"],
]


@pytest.mark.parametrize("notes", ORDINARY, ids=[n[0][:24] for n in ORDINARY])
def test_ordinary_notes_with_ids_hashes_and_versions_at_their_seams_are_stored(notes):
    assert not _refused_node("an ordinary lesson", notes)
    assert not _refused_node("\n".join(notes))
    assert not _refused_state(notes)
