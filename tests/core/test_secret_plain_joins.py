"""Two notes each a placeholder or prose make no key where they meet (an .env.example's lines, prose naming
prefixes one note each); a key cut across two notes, with a random piece on one side, stays refused."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy
from kg_actors.core.errors import KGError

GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"
STORED = [
    ["STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx", "JWT_SECRET=changeme"],
    ["SLACK_BOT_TOKEN=xoxb-your-bot-token", "GITHUB_TOKEN=ghp_your_token_here",
     "AWS_SECRET_ACCESS_KEY=your-secret-access-key"],
    ["glpat- personal access tokens expire after 365 days max",
     "glrt- runner authentication tokens replace registration tokens"],
    ["DATABASE_URL=postgres://user:password@localhost:5432/app_dev", "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
     "JWT_SECRET=changeme", "OPENAI_API_KEY=<your-openai-key>", "SENDGRID_API_KEY=SG.xxxxxxxx.xxxxxxxx"],
]
REFUSED = [
    [GHP[:20], GHP[20:]],
    ["the token is " + GHP[:20], GHP[20:] + " and it expires"],
    ["glpat-", "Xk9mQ2vLp4Za7Rt5Wq8N"],
    ["STRIPE_SECRET_KEY=sk_live_", "4eC39HqLyjWDarjtT1zdp7dc"],
]


@pytest.mark.parametrize("notes", STORED)
def test_placeholders_and_prose_in_a_row_are_stored(notes):
    assert secrecy.clean_node("A lesson.", notes, None).notes == notes


@pytest.mark.parametrize("notes", REFUSED)
def test_a_key_cut_across_two_notes_stays_refused(notes):
    with pytest.raises(KGError, match="NOT WRITTEN: notes"):
        secrecy.clean_node("A lesson.", notes, None)
