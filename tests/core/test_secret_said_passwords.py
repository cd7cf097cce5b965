"""Passwords said in words that were stored: digits right after the word ("Wi-Fi password 84920174 for the office")
and a password given to a key glued onto an ARN (`arn:aws:s3:::bucket/DB_PASSWORD=<value>`). A number a word
after it counts ("password 100000 iterations") and an ARN naming where a secret lives stay stored."""

from __future__ import annotations

import pytest

from kg_actors.core.secrecy import SecretRefused, clean_node, find


@pytest.mark.parametrize("text", [
    "Wi-Fi password 84920174 for the office",
    "the password 84920174 opens the door",
    "arn:aws:s3:::acme-backups/DB_PASSWORD=" + "7wtYG3uv2xr77jRY",
])
def test_a_password_said_so_is_found(text):
    found = find(text)
    assert found is not None and "7wtYG3" not in found.preview and "84920174" not in found.preview, (text, found)


@pytest.mark.parametrize("text", [
    "password 100000 iterations of PBKDF2 are the floor",
    "pbkdf2 password 600000 rounds",
    "the password is at least 12 characters",
    "password 123456 is the most common one; ban it",
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password-AbC1dE",
    "arn:aws:ssm:us-east-1:123456789012:parameter/prod/DB_PASSWORD",
])
def test_a_rule_or_a_place_is_stored(text):
    assert find(text) is None, (text, find(text))


@pytest.mark.parametrize(("gist", "notes"), [
    ("password reset bug", ["password 482913 ticket was closed as dup"]),
    ("password column", ["password 20240115093000 migration id, run it before deploy"]),
    ("password error codes", ["password 401002 means locked"]),
    ("the password 202401 release note", []),
    ("password flow", ["password 5512034 build failed on arm64", "password 990001 error is a lockout"]),
])
def test_a_number_after_password_that_a_word_names_as_an_identifier_is_stored(gist, notes):
    # Refused as a password said in words: only a counting word after it ("600000 rounds") excused the number.
    for text in (gist, *notes):
        assert find(text) is None, (text, find(text))
    clean_node(gist, notes, None)


@pytest.mark.parametrize("text", ["Wi-Fi password 84920174", "the db password 93817264",
                                  "the db password 93817264 for staging", "office password 84920174, ask IT",
                                  "the router password 84920174 (the old one)"])
def test_a_number_said_as_the_password_stays_refused(text):
    found = find(text)
    assert found is not None and found.kind == "a password said in words", (text, found)
    with pytest.raises(SecretRefused):
        clean_node("passwords", [text], None)


@pytest.mark.parametrize("text", [
    "The guest Wi-Fi password 84920174 runs out on Friday",
    "The alarm panel password 84920174 maps to the installer account",
    "The router password 84920174 stands until IT rotates it",
    "The office wifi password 84920174 lines up with the sticker",
    "voicemail password 84920174 requests a reset after 90 days",
    "the vpn password 84920174 expires in May", "the door password 84920174 unlocks the lab",
    "the safe password 84920174 opens the cabinet", "the guest password 84920174 works until Friday",
    "the kiosk password 84920174 runs until the audit",
])
def test_a_verb_saying_what_the_password_does_is_no_identifier(text):
    # `_IDENTIFIED` read "runs", "maps", "stands", "lines", "requests" as a ticket's or a status's word, so the
    # password before them was stored; a word that says what the password does is the password's sentence.
    found = find(text)
    assert found is not None and found.kind == "a password said in words", (text, found)


@pytest.mark.parametrize("text", [
    "password 482913 runs were retried", "password 482913 requests were throttled by the gateway",
    "password 401002 lines 40-52 of the log", "password 482913 status: closed",
])
def test_a_number_that_names_runs_requests_or_lines_stays_stored(text):
    assert find(text) is None, (text, find(text))
