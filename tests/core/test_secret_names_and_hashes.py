"""What is no secret is stored: a provider's prefix before words of a name with a version or a count among them
(`xoxb-scopes-guide-v3`, `glpat-expiry-30d-policy`, `sk-ant-api03-format-notes`), and a password hash (Argon2's
PHC string, bcrypt's, crypt's) after the words "password hash" as anywhere: kg refuses passwords, and a hash is
what a system keeps in a password's place (README: a password given to a password-named key, in a URL, on a
command line or after the word "password"). A password beside a hash is still refused. A refusal names the note
as it was sent, whatever note before it was all `<private>`."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

NAMES = ["See xoxb-scopes-guide-v3 in the wiki", "See xoxp-user-token-oauth-v2-flow in the wiki",
         "See glpat-expiry-30d-policy in the wiki", "See github_pat_fine_grained_scopes_2024 in the wiki",
         "See sk-ant-api03-format-notes in the wiki", "the sk-proj-2nd-quarter-budget sheet"]
ARGON = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$" + "RdescudvJCsgt3ub+b+dWRWJTmaaJObG"
BCRYPT = "$2b$12$KIXQJQvUJ8rZ9L3rH8hGmeB6" + "cJtY0H2Z0QF6qjXq3wX1eY4N5s8zG"
HASHES = [f"A password hash: {ARGON}", f"Argon2 PHC format: {ARGON}", f"the password hash is {BCRYPT}",
          f"password hash {BCRYPT} from the seed file", "password hash $6$rounds=5000$saltsalt$" + "Kx9mQ2vLp4ZaHy7Tq"]
GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"


@pytest.mark.parametrize("text", NAMES)
def test_a_prefix_before_words_of_a_name_with_a_version_or_a_count_is_stored(text):
    assert secrecy.find(text) is None
    assert secrecy.name_finding(text.split()[1]) is None


def test_a_key_after_the_same_prefix_is_still_refused():
    assert secrecy.find("xoxb-" + "628674286148-7769046956488-" + "N20RT5MSpIAheZchu91vGTGP") is not None
    assert secrecy.find("glpat-" + "x7Kq2vLp9Za3Rt5Wq8Ny") is not None


@pytest.mark.parametrize("text", HASHES)
def test_a_password_hash_is_stored_after_the_words_password_hash_as_anywhere(text):
    assert secrecy.find(text) is None
    secrecy.clean_node("how passwords are kept", [text], None)


def test_a_password_beside_a_hash_is_still_refused():
    found = secrecy.find(f"password Kx9mQ2vLp4Za then hashed {BCRYPT}")
    assert found is not None and "Kx9m" not in found.preview


@pytest.mark.parametrize(("notes", "field"), [
    (["<private>internal hostname</private>", f"push with {GHP}"], "notes[1]"),
    (["<private>x</private>", "plain note", f"push with {GHP}"], "notes[2]"),
    (["first half " + GHP[:20], "<private>x</private>", "second half " + GHP[20:]], "notes[0] joined to notes[2]"),
])
def test_a_refusal_names_the_note_as_sent_after_one_that_was_all_private(notes, field):
    with pytest.raises(secrecy.SecretRefused) as node:
        secrecy.clean_node("pushing", notes, None)
    assert node.value.field == field
    with pytest.raises(secrecy.SecretRefused) as edge:
        secrecy.clean_notes(notes)
    assert edge.value.field == field
