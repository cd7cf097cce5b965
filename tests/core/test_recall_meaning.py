"""Prompt recall with likeness in meaning (core/meaning.py and the shipped table): the veto of a hit unlike the
prompt, a lesson said in other words brought where the gates chose nothing, and recall without a table."""

from __future__ import annotations

import functools

import pytest

from kg_actors import meaning_table
from kg_actors.core import asks, meaning, recall
from kg_actors.core.model import Node
from test_recall import build, filler

TABLE = meaning_table.shipped()
LESSONS = [
    Node("docker-image-pin-digest", "never deploy the latest tag of an image; pin the digest so a rebuild cannot change prod"),
    Node("redis-lock-ttl", "a Redis lock needs a TTL longer than the job, or two workers run the same job"),
    Node("stripe-webhook-retries", "Stripe retries a failed webhook for three days: make the handler idempotent"),
    Node("scorm-final-commit-beacon", "SCORM: send the final LMSCommit in a beacon when the course window unloads"),
    *filler(30),
]


def asked(prompt: str, with_text: bool = True, table: meaning.Table | None = TABLE) -> recall.Decision:
    graph, index = build(LESSONS)
    text = recall.human_text(prompt)
    assert text is not None
    return recall.run(recall.prompt_terms(text), {"project": (graph, index)}, frozenset(), asks.ask_scale(text),
                      "?" in text, text if with_text else None, table)


def test_the_shipped_table_finds_a_case_more_alike_its_lesson_than_another():
    likeness = meaning.Likeness("I raised the quota but training jobs are still Pending", TABLE)
    gpu = likeness("gpu-quota-pending-jobs", "training jobs stay Pending when the GPU node pool quota is exhausted", ())
    scorm = likeness("scorm-final-commit-beacon", "SCORM: send the final LMSCommit in a beacon on unload", ())
    assert gpu is not None and scorm is not None and gpu > 0.6 > 0.3 > scorm


def test_a_hit_met_on_one_word_of_an_unlike_prompt_goes():
    prompt = "the phone screen shows the latest holiday photo from the beach"
    words_only = asked(prompt, with_text=False)
    assert words_only.reason == "injected" and words_only.shown == (("project", "docker-image-pin-digest"),)
    decision = asked(prompt)
    assert decision.reason == "vetoed" and decision.text is None
    hit = next(h for h in decision.hits if h["id"] == "docker-image-pin-digest")
    assert hit["like"] < recall.C.RECALL_MEANING_VETO  # logged beside the model's p


def test_a_lesson_said_in_other_words_comes_where_the_gates_chose_nothing():
    prompt = "stripe keeps sending the event again and again"
    assert asked(prompt, with_text=False).reason == "weak_hit"
    decision = asked(prompt)
    assert decision.reason == "injected" and decision.shown == (("project", "stripe-webhook-retries"),)
    assert decision.text is not None and "make the handler idempotent" in decision.text


def test_a_hit_alike_its_prompt_stands():
    decision = asked("our webhook handler got the same payment event three times")
    assert decision.shown == (("project", "stripe-webhook-retries"),)
    assert next(h for h in decision.hits if h["id"] == "stripe-webhook-retries")["like"] > 0.5


def test_without_a_table_recall_goes_on_by_its_words(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(meaning_table, "TABLE", meaning_table.TABLE.with_name("missing.bin"))
    monkeypatch.setattr(meaning_table, "shipped", functools.cache(meaning_table.shipped.__wrapped__))
    assert meaning_table.shipped() is None
    for prompt in ("the phone screen shows the latest holiday photo from the beach",
                   "stripe keeps sending the event again and again"):
        plain, without = asked(prompt, with_text=False), asked(prompt, table=meaning_table.shipped())
        assert (without.reason, without.shown) == (plain.reason, plain.shown)
        assert all("like" not in h for h in without.hits)


def test_a_lesson_more_alike_than_the_hit_the_words_chose_comes_beside_it():
    siblings = [
        Node("stripe-webhook-retries", "Stripe retries a failed webhook for three days: make the handler idempotent"),
        Node("stripe-webhook-signature", "verify the Stripe webhook signature with the raw request body, not parsed JSON"),
        Node("stripe-webhook-events-order", "Stripe webhook events arrive out of order: read the object's current state"),
        *filler(30),
    ]
    graph, index = build(siblings)
    prompt = "the stripe webhook request body keeps coming back for days after a failure"
    terms = recall.prompt_terms(prompt)
    words_only = recall.run(terms, {"project": (graph, index)}, frozenset())
    assert words_only.shown == (("project", "stripe-webhook-signature"),)  # "request body" is the signature's
    decision = recall.run(terms, {"project": (graph, index)}, frozenset(), text=prompt, table=TABLE)
    assert decision.shown == (("project", "stripe-webhook-signature"), ("project", "stripe-webhook-retries"))
    likes = {h["id"]: h["like"] for h in decision.hits if "like" in h}
    assert likes["stripe-webhook-retries"] > likes["stripe-webhook-signature"]
    # A prompt about the signature itself: no other lesson is more alike than its hit, and none comes beside it.
    calm = recall.run(recall.prompt_terms("stripe webhook signature check with the raw body"), {"project": (graph, index)},
                      frozenset(), text="stripe webhook signature check with the raw body", table=TABLE)
    assert calm.shown == (("project", "stripe-webhook-signature"),)
