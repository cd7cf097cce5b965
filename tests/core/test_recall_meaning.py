"""Prompt recall with likeness in meaning (core/meaning.py and the shipped table), which recall_gate's model reads
beside each candidate's search numbers: a hit unlike the prompt is doubted more, a lesson said in other words is
brought where the gates chose nothing, a sibling more alike comes beside the hit, and recall goes on without a table."""

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


def test_a_hit_met_on_one_word_of_an_unlike_prompt_is_doubted_more_and_goes(monkeypatch: pytest.MonkeyPatch):
    prompt = "the phone screen shows the latest holiday photo from the beach"
    words_only, decision = asked(prompt, with_text=False), asked(prompt)
    assert decision.reason == "vetoed" and decision.text is None
    hit = next(h for h in decision.hits if h["id"] == "docker-image-pin-digest")
    unread = next(h for h in words_only.hits if h["id"] == "docker-image-pin-digest")
    assert hit["like"] < 0.2 and hit["p"] < unread["p"] and "like" not in unread  # logged beside the model's p
    monkeypatch.setattr(recall.C, "RECALL_GATE_VETO", 0.0)  # what the words alone choose: "latest" is the lesson's
    assert asked(prompt).shown == (("project", "docker-image-pin-digest"),)


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


def test_a_sibling_the_model_finds_likely_comes_beside_the_hit_the_words_chose(monkeypatch: pytest.MonkeyPatch):
    siblings = [
        Node("stripe-webhook-retries", "Stripe retries a failed webhook for three days: make the handler idempotent"),
        Node("stripe-webhook-signature", "verify the Stripe webhook signature with the raw request body, not parsed JSON"),
        Node("stripe-webhook-events-order", "Stripe webhook events arrive out of order: read the object's current state"),
        *filler(30),
    ]
    views = {"project": build(siblings)}
    prompt = "the stripe webhook request body keeps coming back for days after a failure"
    terms = recall.prompt_terms(prompt)
    decision = recall.run(terms, views, frozenset(), text=prompt, table=TABLE)
    assert decision.shown == (("project", "stripe-webhook-signature"), ("project", "stripe-webhook-retries"))
    retries = next(h for h in decision.hits if h["id"] == "stripe-webhook-retries")
    assert retries["p"] >= recall.C.RECALL_GATE_BESIDE and retries["like"] > 0.7
    with monkeypatch.context() as m:  # the gates alone: "request body" is the signature's
        m.setattr(recall.C, "RECALL_GATE_BESIDE", 1.01)
        assert recall.run(terms, views, frozenset(), text=prompt, table=TABLE).shown == (
            ("project", "stripe-webhook-signature"),)
    # A prompt about the signature itself: the model finds no sibling likely, and none comes beside it.
    calm = "stripe webhook signature check with the raw body"
    decision = recall.run(recall.prompt_terms(calm), views, frozenset(), text=calm, table=TABLE)
    assert decision.shown == (("project", "stripe-webhook-signature"),)
    assert all(h["p"] < recall.C.RECALL_GATE_BESIDE for h in decision.hits if h["id"] != "stripe-webhook-signature")


def test_a_withheld_note_is_not_read_for_likeness():
    # Else a prompt guessing the secret's words would find the lesson more alike than a wrong guess does.
    key = "ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp" + "3Hs6Dj0Fg5Ca8Ue2"
    held = Node("deploy-credentials", "deploy credentials for the staging cluster", notes=(f"token {key} quokka",))
    bare = Node("deploy-credentials", "deploy credentials for the staging cluster")
    text = f"deploy credentials token {key} quokka"
    likes = []
    for lesson in (held, bare):
        graph, _ = build([lesson, *filler(10)])
        likes.append(recall.likeness(text, TABLE, {"project": graph})(("project", "deploy-credentials")))
    assert likes[0] is not None and likes[0] == likes[1]
