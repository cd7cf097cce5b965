"""A key or a token of a kind that is no credential, named by its qualifier (a Kafka message key, a DynamoDB range
key, a dedupe or idempotency key, a KMS key's id, EC2's client token, a page's continuation token, MCP's progress
token), is stored with its UUID, hex or base64 value; an API, secret, access or auth key or token stays refused,
and so does any provider's shape behind a data key's name."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

UUID = "0dae3f5e-7a1c-4c8e-9b2d-5f6a7b8c9d0e"
SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
CURSOR = "eyJsYXN0X2lkIjoxMDQyLCJkaXIiOiJhc2MifQ=="  # base64 of {"last_id":1042,"dir":"asc"}
S3_CURSOR = "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="  # the ListObjectsV2 docs' example
RANDOM = "Ffq7JCafB4YXwtw2hJYN" + "ey79DslFLmhIAUDcKSo2"

DATA_KEYS = [
    f"the message key {UUID} always lands on partition 7",
    f"range key {UUID} for the newest item",
    f"sort key: {UUID}",
    f"progress token {UUID} in _meta",
    f"encryption key version: v7 (KMS key {UUID})",
    f"KMS key id {UUID}",
    f"client_token: {UUID}",
    f"aws ec2 run-instances --client-token {UUID} ...",
    f"the dedupe key {SHA} (sha256 of the payload)",
    f"idempotency key {UUID}",
    f"Idempotency-Key: {UUID}",
    f"the cache key {SHA}",
    f"object key {SHA}",
    f"ContinuationToken: {S3_CURSOR}",
    f"NextContinuationToken: {S3_CURSOR}",
    f"nextPageToken: {CURSOR}",
    f"next page token: {CURSOR}",
    f"next_page_token={CURSOR}",
    f"the cursor token {CURSOR}",
    f"progressToken: {UUID}",
]
SECRETS = [
    f"heroku api key {UUID}",
    f"HEROKU_API_KEY={UUID}",
    f"the api key {UUID}",
    f"secret key {SHA}",
    f"access token {SHA}",
    f"auth token: {RANDOM}",
    f"session key {SHA}",
    f"private key: {RANDOM}",
    f"token {SHA}",
    f"the stripe key: {RANDOM}",
    "nextPageToken: ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0",
    f"message key {UUID} and the api key {SHA}",
]


@pytest.mark.parametrize("text", DATA_KEYS)
def test_a_data_key_named_by_its_kind_is_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", SECRETS)
def test_a_credential_key_or_token_stays_refused(text):
    assert secrecy.find(text) is not None, text
