"""A key cut apart after its provider's prefix, by spaces, underscores, dots, slashes or hyphens, is refused as the
key it is and withheld when a graph holding it is loaded; prose after a prefix ("ghp_ tokens are rotated",
"AKIA ids start every key") and ids, docs names and placeholders so cut are stored as written."""

from __future__ import annotations

import random
import string

import pytest

from kg_actors.core import secrecy, secret_anchors
from kg_actors.core.held_secrets import held_in
from kg_actors.core.secret_anchors import anchored_runs

_rng = random.Random(64)  # seeded: the same keys every run
_ALNUM = string.ascii_letters + string.digits


def _random(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


# Each provider's prefix and a body of its shape, made here: no file holds a whole key.
KEYS = {
    "a GitHub token": [("ghp_", _random(36)), ("github_pat_", "11" + _random(20, string.ascii_uppercase + string.digits)
                                                          + "_" + _random(59))],
    "an AWS access key id": [("AKIA", _random(16, string.ascii_uppercase + "234567"))],
    "a Slack token": [("xoxb-", _random(12, string.digits) + "-" + _random(13, string.digits) + "-" + _random(24))],
    "an OpenAI API key": [("sk-", _random(48)), ("sk-proj-", _random(64))],
    "an Anthropic API key": [("sk-ant-api03-", _random(93) + "AA")],
    "a Stripe key": [("sk_live_", _random(24))],
    "a Google API key": [("AIza", _random(35))],
    "a GitLab token": [("glpat-", _random(20))],
}
CUTS = {"space": " ", "underscore": "_", "dot": ".", "slash": "/", "hyphen": "-"}
CASES = [(kind, prefix + cut.join(body[i:i + n] for i in range(0, len(body), n)))
         for kind, keys in KEYS.items() for prefix, body in keys for cut in CUTS.values() for n in (2, 4, 6, 8)]
# Assembled: the audit's two examples, as written to kg_put_node.
DEPLOY = "The deploy token is " + "ghp_iK2Z" + " WeqhFWCE PyYngFb5 1yBMWXaS " + "CrUZoL8g here."
AWS_CUT = "AKIA" + " JNRF BWVH IYCV " + "OZNR"

PROSE = [
    "ghp_ tokens are rotated every ninety days by the platform team on a schedule",
    "AKIA ids start every key", "sk-learn is great",
    "sk-learn pipelines use v2 ColumnTransformer api docs here",
    "ghp_ tokens rotate via GH CLI and the org scheduled rotation job every week",
    "ghp_ prefix tokens are GitHub classic PATs; sk-proj- keys are OpenAI project keys; xoxb- is Slack bot.",
    "sk-proj- keys are scoped to one OpenAI project and shown once at creation time in the dashboard",
    "github_pat_ fine grained tokens are scoped per repository and expire after 90 days by default",
    "sk_live_ keys must never be committed; use sk_test_ keys in CI and rotate them yearly please",
    "glpat- tokens expire after 365 days unless set in GitLab admin settings page today",
    "Use AKIA.prefixed ids and sk-proj.keys in v1/v2 APIs for OpenAI Platform tutorials today",
    "Deploy to ASIA PACIFIC NORTHEAST first", "infra/ASIA/PACIFIC/NORTHEAST/main.tf",
    "docs/sk-learn/pipelines/v2/Guide.md", "sk-proj-docs-quickstart-example and sk-ant-admin-api-reference",
    "the workspace dapi 123e4567 e89b 12d3 a456 426614174000 is an id",
    "order SK 1234 5678 9012 3456 7890 1234 5678 9012 shipped",
    "AKIA XXXX XXXX XXXX XXXX is the placeholder", "AKIA IOSF ODNN 7EXA MPLE is the AWS docs key",
    "The AKIA KEYS WERE USED FROM HERE",
    # Placeholders cut as keys are, with a sentence's words after them: a shape filled in, words in its place.
    "paste ghp_xxxx xxxx xxxx xxxx xxxx xxxx xxxx xxxx xxxx here", "sk_test_xxxx xxxx xxxx xxxx goes here",
    "ghp_XXXX XXXX XXXX XXXX XXXX XXXX XXXX XXXX XXXX for example", "sk-proj-xxxx xxxx xxxx xxxx xxxx xxxx e.g.",
    "glpat-xxxx xxxx xxxx xxxx xxxx goes here", "AKIA XXXX XXXX XXXX XXXX for example", "paste <your token here>",
    "sk-your-key-here", "sk_live_your_key_goes_here", "ghp_your_token_here for example", "sk_test_YOUR_KEY_HERE",
]


def test_the_audits_two_examples_are_refused_as_the_keys_they_are():
    with pytest.raises(secrecy.SecretRefused, match=r"gist holds what looks like a GitHub token \(ghp_…"):
        secrecy.clean_node(DEPLOY, None, None)
    with pytest.raises(secrecy.SecretRefused, match=r"notes\[0\] holds what looks like an AWS access key id"):
        secrecy.clean_node("the deploy key", [f"use {AWS_CUT} for deploys"], None)


@pytest.mark.parametrize(("kind", "cut"), CASES)
def test_a_key_cut_after_its_prefix_is_refused_naming_its_provider(kind, cut):
    found = secrecy.find(f"Remember {cut} for deploys.")
    assert found is not None and found.kind == kind, (cut, found)
    assert cut[6:14] not in found.preview  # the refusal shows no more of the key than its first characters


@pytest.mark.parametrize("text", PROSE)
def test_prose_ids_and_placeholders_after_a_prefix_are_stored_as_written(text):
    assert secrecy.find(text) is None, text
    clean = secrecy.clean_node(text, [text], None)
    assert (clean.gist, clean.notes) == (text, [text])


def test_a_graph_holding_keys_so_cut_is_withheld_at_load_and_its_prose_is_not():
    nodes = {f"prose-{i}": {"id": f"prose-{i}", "gist": text} for i, text in enumerate(PROSE)}
    nodes["deploy"] = {"id": "deploy", "gist": DEPLOY}
    nodes["aws"] = {"id": "aws", "gist": "the deploy key", "notes": ["ok", f"use {AWS_CUT} for deploys"]}
    ghp = KEYS["a GitHub token"][0][1]
    nodes["slashed"] = {"id": "slashed", "gist": "the ci key", "touches": ["cfg/ghp_" + "/".join((ghp[:12], ghp[12:]))]}
    held = {h.key: h.fields() for h in held_in({"nodes": nodes, "edges": {}, "_meta": {"versions": {}}})}
    assert held == {"deploy": (("gist", "a GitHub token"),), "aws": (("notes[1]", "an AWS access key id"),),
                    "slashed": (("touches[0]", "a GitHub token"),)}


def test_each_piece_of_a_run_is_judged_once_however_many_prefixes_it_holds(monkeypatch):
    calls = []
    judge = secret_anchors._word
    monkeypatch.setattr(secret_anchors, "_word", lambda piece, capitals: calls.append(piece) or judge(piece, capitals))
    text = " ".join(["ghp_ tokens are rotated"] * 2000)  # one run of pieces, 2000 prefixes in it
    assert list(anchored_runs(text)) == []
    pieces = 4 * 2000 - 1  # read from after the first prefix
    assert len(calls) == 2 * pieces  # each piece read twice (as prose, as capitals), not once for each prefix


# What a sentence goes on with after a key the join would read on into (the join's pieces run to the sentence's
# end): a placeholder's words, which said of the key's own pieces make it none.
TRAILING = ["here", "goes here", "for example", "e.g.", "is set here.", "example", "here, for example"]
KEYS_CUT = [(kind, prefix + cut.join(body[i:i + 4] for i in range(0, len(body), 4)))
            for kind, keys in KEYS.items() for prefix, body in keys for cut in (" ", "_", ".")]


@pytest.mark.parametrize("words", TRAILING)
@pytest.mark.parametrize(("kind", "cut"), KEYS_CUT)
def test_a_cut_key_followed_by_a_placeholders_words_is_refused_as_the_key(kind, cut, words):
    for text in (f"paste {cut} {words}", f"{cut} {words}", f"the deploy uses {cut} {words}"):
        found = secrecy.find(text)
        assert found is not None and found.kind == kind, (text, found)
        assert cut[6:14] not in found.preview
    with pytest.raises(secrecy.SecretRefused, match=r"notes\[0\] holds what looks like"):
        secrecy.clean_node("the CI token", [f"the CI token {cut} {words}"], None)


def test_the_join_gives_back_the_key_without_the_words_after_it():
    key = "ghp_" + " ".join(("TBwx", "oHge", "Jckv", "srte", "xIAX", "FHJK", "zaJE", "0QHP", "GMwg"))
    joined = key.replace(" ", "")
    for words in TRAILING:
        assert list(anchored_runs(f"paste {key} {words}")) == [joined], words
    stripe = "sk_live_" + " ".join(("I5vyQxon", "geF9Tpzs", "mpzp3L5D"))
    assert list(anchored_runs(f"stripe: {stripe} goes here")) == [stripe.replace(" ", "")]


# One piece after the prefix, cut from it: a key as one cut into more pieces is (taking a sentence's words off a
# key could leave it so, and it was then read as glued to its prefix, a case the provider's shape reads alone).
# Not Slack's: its gate `xox` stops short of its prefix (`xoxb-`), whose rest is read glued to the body.
@pytest.mark.parametrize(("kind", "prefix", "body"), [(kind, prefix, body) for kind, keys in KEYS.items()
                                                      for prefix, body in keys if kind != "a Slack token"])
def test_a_key_cut_from_its_prefix_alone_is_refused_as_with_words_after_it(kind, prefix, body):
    for cut in (" ", ".", "/"):
        for text in (f"use {prefix}{cut}{body}", f"use {prefix}{cut}{body} here"):
            found = secrecy.find(text)
            assert found is not None and found.kind == kind, (text, found)


@pytest.mark.parametrize("text", ["AKIA IOSFODNN7EXAMPLE is the AWS docs key", "ghp_ " + "x" * 36,
                                  "sk- ColumnTransformerPipelines2024", "xoxb- 12345678901234567890",
                                  "ghp_ GitHubClassicTokens", "sk_live_ keys are never committed"])
def test_one_word_an_id_or_a_placeholder_cut_from_a_prefix_is_stored(text):
    assert secrecy.find(text) is None, text


# An outside audit's cases (audit65): a key cut once, right after its prefix, by a space, `.`, `/`, an extra `_`
# or two spaces; and a redacted placeholder key with words after it.
@pytest.mark.parametrize(("kind", "text"), [
    ("a GitHub token", "ci uses ghp_ R7dLq2Vx9NwBz4KcXiOoPp1234567890abCD"),
    ("a GitHub token", "ci uses ghp_.R7dLq2Vx9NwBz4KcXiOoPp1234567890abCD"),
    ("a GitHub token", "ci uses ghp_/R7dLq2Vx9NwBz4KcXiOoPp1234567890abCD"),
    ("a GitHub token", "ci uses ghp__R7dLq2Vx9NwBz4KcXiOoPp1234567890abCD"),
    ("a GitHub token", "ci uses ghp_  R7dLq2Vx9NwBz4KcXiOoPp1234567890abCD"),
    ("an AWS access key id", "deploy AKIA Z7QRT4XKLM2PW9BN"),
    ("an AWS access key id", "deploy AKIA_Z7QRT4XKLM2PW9BN"),
    ("a Stripe key", "billing sk_live_ 4eC39HqLyjWDarjtT1zdp7dX"),
    ("a Hugging Face token", "model pulls hf_ QkOw17vwWM7tpgke70lXBxkRcRH5Q9pA6k"),
    ("a GitLab token", "runner glpat- Vx9NwBz4KcXiOoPp12345"),
])
def test_a_key_cut_once_right_after_its_prefix_is_refused(kind, text):
    found = secrecy.find(text)
    assert found is not None and found.kind == kind, (text, found)


@pytest.mark.parametrize("text", [
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is the redacted form",
    "use ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx then run it",
    "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX in the template",
    "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx is the redacted form",
    "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is the redacted form",
    "glpat-xxxxxxxxxxxxxxxxxxxx is the redacted form",
    "xoxb-xxxxxxxxxxx is the redacted form",
])
def test_a_redacted_placeholder_key_followed_by_words_is_stored(text):
    assert secrecy.clean_node(text, [text], None).notes == [text]
