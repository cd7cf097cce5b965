"""Where a secret lives is stored (a GitHub Actions secret's name, an AWS ARN, a Secrets Manager ARN with its
random six-character suffix): the refusal itself tells users to write this. A value beside them stays refused."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

RANDOM = "Ffq7JCafB4YXwtw2hJYN" + "ey79DslFLmhIAUDcKSo2"
PLACES = [
    "secrets.AWS_DEPLOY_ROLE_ARN",
    "secrets.CODECOV_TOKEN",
    "role-to-assume: ${{ secrets.AWS_DEPLOY_ROLE_ARN }}",
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password-AbC1dE",
    "read it from arn:aws:secretsmanager:eu-west-1:034662176984:secret:stripe/api-token-x9Kq2Z at boot",
]
SECRETS = [
    f"secret {RANDOM}",
    f"secrets.{RANDOM}",
    f"arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db then password: {RANDOM}",
    f"secrets.DEPLOY_KEY is {RANDOM}",
]


@pytest.mark.parametrize("text", PLACES)
def test_where_a_secret_lives_is_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", SECRETS)
def test_a_secret_beside_its_place_stays_refused(text):
    assert secrecy.find(text) is not None, text
