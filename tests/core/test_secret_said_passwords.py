"""Passwords said in words that were stored: digits right after the word ("Wi-Fi password 84920174 for the office")
and a password given to a key glued onto an ARN (`arn:aws:s3:::bucket/DB_PASSWORD=<value>`). A number a word
after it counts ("password 100000 iterations") and an ARN naming where a secret lives stay stored."""

from __future__ import annotations

import pytest

from kg_actors.core.secrecy import find


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
