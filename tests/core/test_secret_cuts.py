"""Runs cut by hyphens are joined and read as a key only when they look cut from a random string: ordinary prose,
paths, ids and docs names whose join happens to have a key's shape are stored as written, and shown again when
a graph stored by an older kg is loaded; keys cut apart on purpose are still refused and held."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy
from kg_actors.core.secrecy import find
from kg_actors.core.held_secrets import held_in
from kg_actors.core.secret_cuts import cut_runs, words_only

UUID = "123e4567-e89b-12d3-a456-426614174000"
PNG_1PX = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4" "2mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
PROSE = [
    "Our bucket lives in ASIA-PACIFIC-NORTHEAST; the dashboard names regions in capitals",
    "deploys go to ASIA-PACIFIC-NORTHEAST first, then EU",
    "infra/ASIA-PACIFIC-NORTHEAST/main.tf",
    f"Message SIDs print as SK-{UUID} in the log",
    f"the workspace id is dapi-{UUID} in the export",
    "See the sk-learn-2024-pipeline-guide doc before changing features",
    "docs/sk-Learn-Transformers-Pipelines.md",
    "sk-learn-Pipeline-ColumnTransformer-examples",
    "raise MAX-RETRY-COUNT-EXCEEDED-ERROR when the queue gives up",
    "the AKIA-ROTATION-RUNBOOK-PAGE covers key rotation",
    "ASIA-NORTHEAST-REGION-AUDIT-2024-Q3 report",
    "HttpClient-RetryPolicy-Defaults are in the base class",
    "fixed in 3f11b87c2e4a9d6f1b0a8c7e5d3f2a1b0c9d8e7f (release-3f11b87)",
    f"the tiny logo: data:image/png;base64,{PNG_1PX}",
    "state-of-the-art write-ahead-log",
]
# Keys cut apart on purpose: assembled here, so no file holds a whole one.
GHP = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"
AKID = "AKIA" + "Z2DXDXDWQ7PL4M3N"
CUT_KEYS = [
    ("-".join(GHP[i:i + 10] for i in range(0, len(GHP), 10)), "a GitHub token"),
    ("ghp_-" + "-".join(GHP[i:i + 4] for i in range(4, len(GHP), 4)) + "-", "a GitHub token"),
    ("-".join(AKID[i:i + 4] for i in range(0, len(AKID), 4)), "an AWS access key id"),
    ("AKIA-" + AKID[4:], "an AWS access key id"),
    ("SK-" + "3f9a1c0e7b2d4f6a8c1e3b5d7f9a2c4e", "a Twilio key"),
    ("dapi-" + "3f9a1c0e7b2d4f6a8c1e3b5d7f9a2c4e", "a Databricks token"),
    ("-".join(GHP), "a GitHub token"),  # cut after every character
]


@pytest.mark.parametrize("text", PROSE)
def test_prose_paths_ids_and_docs_names_cut_by_hyphens_are_stored_as_written(text):
    assert secrecy.find(text) is None, text
    assert secrecy.name_finding(text) is None, text
    clean = secrecy.clean_node(text, [text], [text])
    assert (clean.gist, clean.notes, clean.touches) == (text, [text], [text])


def test_an_older_kgs_lesson_of_such_prose_is_not_held_from_agents_at_load():
    nodes = {f"n{i}": {"id": f"n{i}", "gist": text, "notes": [text], "touches": [text]} for i, text in enumerate(PROSE)}
    nodes["cut"] = {"id": "cut", "gist": "the ci token", "notes": [CUT_KEYS[1][0]]}
    held = list(held_in({"nodes": nodes, "edges": {}, "_meta": {"versions": {}}}))
    assert [(h.key, h.fields()) for h in held] == [("cut", (("notes[0]", "a GitHub token"),))]


@pytest.mark.parametrize(("text", "kind"), CUT_KEYS)
def test_a_key_cut_apart_by_hyphens_is_still_refused(text, kind):
    found = secrecy.find(f"we saw {text} in the old config")
    assert found is not None and found.kind == kind, text
    with pytest.raises(secrecy.SecretRefused, match=f"notes.0. holds what looks like {kind}"):
        secrecy.clean_node("a gist", [text], None)


def test_only_a_run_that_looks_cut_from_a_random_string_is_joined():
    assert list(cut_runs("ASIA-PACIFIC-NORTHEAST and SK-" + UUID)) == []
    assert set(cut_runs("AKIA-" + AKID[4:])) == {AKID}  # joined by hyphens, and as a key cut from its prefix
    assert words_only("learn-2024-pipeline-guide") and words_only("Learn-Transformers-Pipelines")
    assert words_only("MAX-RETRY-COUNT") and words_only("HttpClient-RetryPolicy")
    assert not words_only("learnpipelineguide")  # one piece: no cut says it is words
    assert not words_only("R7dL-q2Vx") and not words_only("AbCd-EfGh") and not words_only("a-b-c-d-e")


@pytest.mark.parametrize("text", ["see xoxb-scopes-guide in the wiki",
                                  "docs slug glpat-token-rotation-runbook-for-ci explains rotation",
                                  "config key github_pat_scopes_and_permissions_guide is read by the bot",
                                  "column fm1_reference_signal_strength is in dBm",
                                  "feature fo2_total_revenue_by_region_quarterly is computed nightly"])
def test_a_providers_prefix_followed_by_words_is_a_name_not_a_key(text):
    assert secrecy.clean_node(text, [text], None).notes == [text]


@pytest.mark.parametrize("key", ["glpat-" + "abcd_Zq8X-w2Lk9Vb4Nm7R", "fm1_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp3Hs6Dj0F",
                                 "xoxb-" + "248163264128-1357911131517-" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp3Hs6"])
def test_a_providers_prefix_before_a_random_body_cut_by_hyphens_is_still_a_key(key):
    assert secrecy.find(f"ci uses {key} today") is not None


_GROUPED_KEYS = {
    "a Stripe key": "sk_live_" + "Aouhlf7EvEhxmOaSetcEGc3a483qxQMK1pvFplLjEUk1QylcN4uE",
    "a Slack token": "xoxb-" + "264397713326-1879120452710-JoNyFEvUVGVGgDCYPYPGxxQ2",
    "a SendGrid key": "SG." + "Qt0KS8YWUu1smtUtdzGeRY.hmvoMmcsxXE96wjBdDTD3eMgLVs_aaM3BtwazlfuGmN",
    "a GitHub token": "github_pat_" + "112M209ZXPOX5Q1DFG0A32_GEzIpmjGOyMuewbawaj6nlvBoD2JitFG4zxhEBuIfT4WpD7lPJMvZcWunDn",
}


@pytest.mark.parametrize("kind", sorted(_GROUPED_KEYS))
@pytest.mark.parametrize("width", [3, 4, 5, 8])
def test_a_key_in_groups_of_a_fixed_width_cutting_its_prefix_is_found(kind, width):
    key = _GROUPED_KEYS[kind]
    grouped = " ".join(key[i:i + width] for i in range(0, len(key), width))
    for text in (grouped, f"Billing key {grouped} (rotate monthly)"):
        found = find(text)
        assert found is not None and found.kind == kind, (text, found)


@pytest.mark.parametrize("text", [
    "the cat sat on the mat and ran off",
    "fold -w4 prints each line in groups of four characters: abcd efgh ijkl mnop",
    "gpg fingerprint 3AA5 C343 7156 7BD2 9A6F 0B2D 1C3E 4F5A 6B7C 8D9E",
    "IBAN DE89 3704 0044 0532 0130 00 goes on the invoice",
    "sk_l ive_ keys are Stripe's secret keys; rk_l ive_ ones are restricted",
])
def test_prose_and_ids_in_groups_are_stored(text):
    assert find(text) is None, (text, find(text))
