"""A credential split across notes or a gist's lines where the seam cuts a word apart (`pass` then `word is …`,
`-p9r` then `iwmf…`, `docke` then `r login …`) or falls where a header wants its space (`Authorization: Basic`
then its value) is refused by a write and named by the load's scan alike; two words a seam falls between are read
apart, so ordinary notes stay stored."""

from __future__ import annotations

import pytest

from kg_actors.core.held_secrets import in_node
from kg_actors.core.secrecy import SecretRefused, clean_node

SPLITS = {
    "basic-auth-two-notes": ("Deploy auth", ["Authorization: Basic ZGVw", "bG95Ondpa1FlbHNUcUxubkpFeTQ="]),
    "basic-auth-word-split": ("Deploy auth", ["Authorization: Basic", "ZGVwbG95Ondpa1FlbHNUcUxubkpFeTQ="]),
    "password-two-notes": ("Staging", ["the staging admin pass", "word is jry8elH3pGmEAM"]),
    "datadog-three-notes": ("Datadog", ["DD_API_KEY=781", "a30d7d1b19e38a", "7189691e4f3a043"]),
    "twilio-three-notes": ("Twilio", ["TWILIO_AUTH_TOKE", "N=00bbfaec3006fcc", "242fd3286c3a68a91"]),
    "docker-two-notes": ("Registry", ["docke", "r login -u ci -p IiATohH16bSbq1Up1Bi5 registry.acme.io"]),
    "sshpass-three-notes": ("Deploy", ["sshpass -p 'Hj8", "c3dWWUdhGdN' ssh", " deploy@10.0.0.4"]),
    "bearer-three-notes": ("API", ["Authorization: Beare", "r i2wTJAbR-gY5DF5-qUP", "nxlvGu0Kz0BpdXXiyM8v5"]),
    "slack-webhook-worded": ("Slack", ["first half: https://hooks.slack.com/services/TKQDIX",
                                       "second half: YIT/BNW6KVKB7X2/TqNYcTyIW4JyfOB3BVeaeq56"]),
    "curl-three-notes": ("Jobs API", ["curl -u admin:hc9Lu", "9ocWs05MebA https:/", "/api.acme.io/v1/jobs"]),
}
GIST_LINES = ["the staging admin pass\nword is jry8elH3pGmEAM", "mysql -u root -p9r\niwmfYSbA6coI orders"]


def _refused(gist: str, notes: list[str] | None) -> SecretRefused | None:
    try:
        clean_node(gist, notes, None)
    except SecretRefused as refused:
        return refused
    return None


@pytest.mark.parametrize("case", sorted(SPLITS))
def test_a_credential_split_across_notes_is_refused_and_named_by_the_scan(case):
    gist, notes = SPLITS[case]
    refused = _refused(gist, notes)
    assert refused is not None and "joined to" in refused.field, (case, refused)
    held = in_node("n", {"id": "n", "gist": gist, "notes": notes})
    assert held is not None and "joined to" in held.field, (case, held)


@pytest.mark.parametrize("gist", GIST_LINES)
def test_a_credential_split_across_a_gists_lines_is_refused(gist):
    refused = _refused(gist, None)
    assert refused is not None and refused.field == "gist", refused


@pytest.mark.parametrize("notes", [
    ["the default login is admin", "Change it on first login"],
    ["token=dev", "Build2Run is the next step"],
    ["DB_HOST=db", "token=dev"],
    ["the password rules", "word lists are banned"],
    ["run pass", "word count after the build"],
    ["upgrade to py311", "v2 of the SDK reads tokens from env"],
    ["Authorization: Basic", "credentials are sent base64-encoded, not encrypted"],
    ["cat > .env <<EOF", "API_KEY=", "EOF", "then source it"],
    ["see https://hooks.slack.com/services for the docs", "then restart"],
])
def test_ordinary_notes_a_seam_falls_between_are_stored(notes):
    assert _refused("a lesson", notes) is None
    assert in_node("n", {"id": "n", "gist": "a lesson", "notes": notes}) is None


UPDATED = "updated: checked again on 2024-06-01"  # the routine note an edit adds (an outside audit's)


@pytest.mark.parametrize(("gist", "notes"), [
    ("mysql -u root -p", ["then type it at the prompt, never on the line", UPDATED]),
    ("set GITHUB_TOK", ["EN in the workflow from secrets.GITHUB_TOKEN", UPDATED]),
    ("mysql -u root -p", [UPDATED]),  # a flag's letter is a whole option, no sliver of a word
])
def test_a_lesson_given_a_routine_note_is_stored_and_not_withheld(gist, notes):
    # Refused as "a password on a command line" (`-p` glued to `updated:` past the prose note between) and as a
    # credential (`secrets.GITHUB_TOKENupdated`: a word cut at the first seam read the second one glued too).
    assert _refused(gist, notes[:1]) is None
    assert _refused(gist, notes) is None
    assert in_node("n", {"id": "n", "gist": gist, "notes": notes}) is None


@pytest.mark.parametrize(("gist", "notes"), [
    ("mysql -u root -p9r", ["iwmfYSbA6coI orders", UPDATED]),  # a password glued to its flag, cut at a seam
    ("Registry", ["docke", "r login -u ci -p IiATohH16bSbq1Up1Bi5 registry.acme.io", UPDATED]),
    ("Staging", ["the staging admin pass", "word is jry8elH3pGmEAM", UPDATED]),
])
def test_a_credential_split_at_a_seam_stays_refused_beside_a_routine_note(gist, notes):
    refused = _refused(gist, notes)
    assert refused is not None and "joined to" in refused.field, refused
