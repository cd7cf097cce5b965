"""The write's check and the load's scan (held_secrets.in_node: load, `kg doctor`, commit, sync) read texts joined
across lines and notes through one function (secrecy.joined_findings), so what a write stores no scan finds
holding a key. Run here over the seam corpora of the suite and an outside audit's texts: every note list a
write stores, the scan passes; every one refused for a key across its notes, the scan finds."""

from __future__ import annotations

import pytest

from kg_actors.core import held_secrets, held_progress, secrecy
from kg_actors.core.errors import KGError

GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"
ENV_FILE = ("STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nSTRIPE_WEBHOOK_SECRET=whsec_xxxxxxxxxxxxxxxx\n"
            "DATABASE_URL=postgres://user:pass@localhost:5432/db")
STORED = [
    ["STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx", "JWT_SECRET=changeme"],
    ["SLACK_BOT_TOKEN=xoxb-your-bot-token", "GITHUB_TOKEN=ghp_your_token_here",
     "AWS_SECRET_ACCESS_KEY=your-secret-access-key"],
    ["glpat- personal access tokens expire yearly", "glrt- runner tokens are per runner"],
    ["glpat- personal access tokens expire after 365 days max",
     "glrt- runner authentication tokens replace registration tokens"],
    ["DATABASE_URL=postgres://user:password@localhost:5432/app_dev", "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
     "JWT_SECRET=changeme", "OPENAI_API_KEY=<your-openai-key>", "SENDGRID_API_KEY=SG.xxxxxxxx.xxxxxxxx"],
    ["xoxb-your-bot-token", "ghp_your_token_here"],
    ["STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nJWT_SECRET=changeme"],
    ["SLACK_BOT_TOKEN=xoxb-your-bot-token\nGITHUB_TOKEN=ghp_your_token_here"],
    [ENV_FILE],
    ["sk_live_ keys are secret keys", "rk_live_ keys are restricted keys"],
]
REFUSED = [
    [GHP[:20], GHP[20:]],
    ["the token is " + GHP[:20], GHP[20:] + " and it expires"],
    ["glpat-", "Xk9mQ2vLp4Za7Rt5Wq8N"],
    ["STRIPE_SECRET_KEY=sk_live_", "4eC39HqLyjWDarjtT1zdp7dc"],
    ["ghp_4I9nDH39Z3xqBtq4", "VrXvLh3JsouhbGEToJfw", "deploy pipeline release notes"],
    [GHP[:20] + "\n" + GHP[20:]],
]


def _written(notes: list[str]) -> bool:
    try:
        secrecy.clean_node("A lesson.", notes, None)
    except KGError:
        return False
    return True


@pytest.mark.parametrize("notes", STORED)
def test_what_a_write_stores_the_scan_finds_clean(notes):
    assert _written(notes)
    assert held_secrets.in_node("n", {"gist": "A lesson.", "notes": notes}) is None
    items = {"items": notes}  # a task's progress state: the same joins, the same answer
    assert held_progress.progress_fields("task", items) == []


@pytest.mark.parametrize("notes", REFUSED)
def test_what_a_write_refuses_across_notes_the_scan_finds(notes):
    assert not _written(notes)
    assert held_secrets.in_node("n", {"gist": "A lesson.", "notes": notes}) is not None


def test_only_the_notes_of_a_key_split_across_notes_are_withheld():
    # The audit's LOW: the token's start read on, past its rest, into the next note's first word withheld it too.
    held = held_secrets.in_node("n", {"gist": "A lesson.", "notes": REFUSED[-2]})
    assert held is not None and held.fields() == (("notes[0] joined to notes[1]", "a GitHub token"),)


@pytest.mark.parametrize("gist", [ENV_FILE, "GitLab personal access tokens start with glpat- and runner tokens with glrt-",
                                  "glpat- and glrt- are GitLab prefixes",
                                  "kubectl create secret generic db-creds --from-file=password=./pw.txt",
                                  "Pagination: pass next_page_token=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2 from the previous "
                                  "response to get the next page",
                                  "pass pageToken=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2 to continue"])
def test_lessons_an_audit_saw_refused_are_stored(gist):
    assert secrecy.clean_node(gist, None, None).gist == gist
    assert held_secrets.in_node("n", {"gist": gist.replace("\n", " ")}) is None


@pytest.mark.parametrize("gist", [
    "kubectl create secret generic db-creds --from-literal=password=Xk9mQ2vLp4ZaTr0b",
    "pass api_token=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2 to continue",
    "STRIPE_SECRET_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\nJWT_SECRET=changeme",
    "GitLab token glpat-Xk9mQ2vLp4Za7Rt5Wq8N for the runner glrt-",
])
def test_their_secrets_beside_them_stay_refused(gist):
    with pytest.raises(secrecy.SecretRefused):
        secrecy.clean_node(gist, None, None)
