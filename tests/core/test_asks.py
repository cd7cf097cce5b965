"""What a prompt asks for (core/asks.py): general know-how raises recall's bar the most, a task to carry
out some, help with the project (a symptom, a question, a plan) not at all."""

from __future__ import annotations

import pytest

from kg_actors.core import constants as C, recall
from kg_actors.core.asks import ask_scale, general_ask, task_request
from kg_actors.core.model import Node
from kg_actors.core.search import SearchIndex
from kg_actors.core.model import GraphData


@pytest.mark.parametrize("text", [
    "How do I squash the last three commits into one?",
    "how can you tell which process holds a port on linux",
    "How to read a parquet file in chunks with pyarrow",
    "pytest: how do I skip a test only on windows?",
    "In Grafana Explore, how can I compare two queries side by side?",
    "hey quick one: what's the difference between COPY and ADD in a Dockerfile",
    "What's the cleanest way to flatten a nested list in python",
    "What does `set -euo pipefail` do exactly?",
    "Explain the CAP theorem in two sentences",
    "Can you write a regex that matches an ISO date?",
    "Give me a systemd unit file for a small python service",
    "Show me how to tail two log files at once",
    "Suggest a name for a module that holds retry policies",
    "Is there a way to make less wrap long lines?",
    "awk one-liner that sums the second column",
    "Vue Router 4 composition: how do I read a route param?",
    "Kafka: how can a consumer skip a poison message?",
    "What's the helm command to show a release's computed values?",
    "Which pip flag prints the dependency resolver's reasons?",
    "sqlite query to list every table with its row count",
    "Is there a flag to make grep print only the match?",
    "Docker: ENTRYPOINT vs CMD, which one do run's arguments replace?",
    "SQLAlchemy 2.0, what's the actual difference between merge() and add()?",
    "In Stripe, what's the relationship between a Product and a Price?",
    "useLayoutEffect vs useEffect, when do I need the first?",
    "Using the Stripe Python library, how do I list a customer's invoices?",
    "With asyncio.TaskGroup in 3.11, what's the difference from gather?",
    "Can someone explain Python 3.12's type parameter syntax?",
    "Is Python's sort stable, and what's its time complexity?",  # a plain question on a tool, nothing of ours
    "When does postgres choose a bitmap heap scan over an index scan?",
    "Why is KEYS considered dangerous on a production Redis?",
    "does Tailwind 3 support container queries without a plugin?",
    "React 18: does batching apply inside a setTimeout?",  # a label, then any question word
    "postgres: is a partial index used for an IN list?",
    "With Celery, what happens to a chain when one link fails?",
    "safest way to rename a column without downtime?",
    "What's the quickest way to list open ports on macOS",
    "asyncio.TaskGroup vs asyncio.gather(return_exceptions=True): if one task fails, what happens to the rest?",
])
def test_a_request_for_general_know_how(text):
    assert general_ask(text)


@pytest.mark.parametrize("text", [
    "how do we roll back a bad deploy of the billing service",  # "we": about us
    "The nightly export job died again with an OOM, can you look at src/export.py?",
    "Why does the checkout page show the old price after a refund?",
    "Add a --dry-run flag to scripts/release.sh",
    "I'm adding a retry to the webhook handler; what should the backoff be?",
    "Our staging deploy hangs at the migration step since this morning",
    "before we ship: how do I know the cache keys are per-tenant here?",  # the opening is the project's
    "Which file holds the retry policy for the payout worker?",
    "Our staging vs prod configs drifted, which one is right?",
    "the export is slow, what keeps it from using the index?",
    "With the new importer, our nightly run takes twice as long, can you look?",
    "Is it fine that my migration takes a lock on orders?",  # mine
    "Does payments.py retry when the provider times out?",  # a file of ours
    "Can you add a retry to the payout worker?",  # work asked for
    "Why is the nightly export slow since Monday? The logs show nothing.",  # "the export": ours
    "Deploy: how do we roll back the billing service?",  # labelled, but about us
    "Billing page: the total is wrong after a refund",  # a label, then no question
    "Also, does the webhook handler retry on a 500?",  # a comma joins a sentence: no label
    "",
])
def test_work_on_the_project(text):
    assert not general_ask(text)


def test_only_the_opening_is_read():
    assert not general_ask("x" * 300 + " how do I squash commits")
    assert not task_request("x" * 300 + " Add a retry to the worker")


@pytest.mark.parametrize("text", [
    "Add a '/' keyboard shortcut that focuses the search box in the top nav.",
    "add X-Robots-Tag: noindex for staging only",
    "Rename get_usr to get_user everywhere in src/ and tests/",
    "Can you refactor map_row into smaller functions?",
    "could you please update the NOTES.txt in our Helm chart",
    "please bump the base image from node:18-alpine to node:20-alpine",
    "ok now convert the order status strings into a StrEnum",
    "make the 404 page show a friendly message",
    "Fix the flaky test in tests/test_export.py",
])
def test_a_task_to_carry_out(text):
    assert task_request(text) and not general_ask(text)
    assert ask_scale(text) == C.RECALL_TASK_ASK_SCALE


@pytest.mark.parametrize("text", [
    "Support keeps forwarding screenshots of 'Something went wrong'",  # a noun, not the verb
    "Build fails on main since the lockfile change",
    "The export job adds a row twice when it retries",  # the verb, not first
    "Why does the checkout page show the old price after a refund?",
    "Add: the retry count is wrong",  # a label, no task
    "Adding a retry to the webhook handler; what should the backoff be?",
])
def test_not_a_task(text):
    assert not task_request(text)


def test_what_each_ask_costs():
    assert ask_scale("How do I squash the last three commits into one?") == C.RECALL_GENERAL_ASK_SCALE
    assert ask_scale("Our staging deploy hangs at the migration step since this morning") == 1.0
    assert 1.0 < C.RECALL_TASK_ASK_SCALE < C.RECALL_GENERAL_ASK_SCALE


def _views():
    graph = GraphData("project", "/home/u/proj")
    graph.set_node(Node("tailwind-purge-dynamic-classes",
                        "Tailwind purges class names built by string concatenation from the production CSS; "
                        "write full class names or list them in the safelist"))
    topics = ["logging format", "ci pipeline", "release notes", "docker image", "lint rules", "api pagination",
              "email templates", "feature flags", "metrics dashboard", "backup schedule"]
    for i in range(40):
        graph.set_node(Node(f"filler-node-{i}", f"{topics[i % len(topics)]} convention number {i}"))
    return {"project": (graph, SearchIndex.build(graph))}


def _recall(prompt: str) -> recall.Decision:
    text = recall.human_text(prompt)
    assert text
    return recall.run(recall.prompt_terms(text), _views(), frozenset(), ask_scale(text))


def test_a_how_to_question_sharing_a_lessons_tool_and_a_word_is_not_recall():
    # The same words, asked as work on the project, do recall: only the ask differs.
    situated = _recall("the tailwind classes for the two-column grid vanish after the production build")
    assert situated.reason == "injected" and "tailwind-purge-dynamic-classes" in situated.text
    general = _recall("How do I make tailwind classes responsive for a two-column grid?")
    assert general.reason != "injected" and general.text is None
    plain = recall.run(recall.prompt_terms("How do I make tailwind classes responsive for a two-column grid?"), _views(),
                       frozenset())
    assert plain.reason == "injected"  # what the raised bar turned away


def test_a_general_ask_still_recalls_a_lesson_it_is_wholly_about():
    decision = _recall("How do I keep tailwind from purging class names built by string concatenation?")
    assert decision.reason == "injected" and "tailwind-purge-dynamic-classes" in decision.text


def test_a_task_sharing_a_lessons_tool_needs_more_than_a_symptom_told_in_the_same_words():
    # A lesson on idempotent celery tasks comes up for any celery task by topic; a task to carry out
    # asks its hit for RECALL_TASK_ASK_SCALE times the bar, a symptom for the bar itself.
    from kg_actors.core.search import Hit
    graph = GraphData("project", "/home/u/proj")
    graph.set_node(Node("celery-task-idempotency-key", "celery tasks may run twice: key each one by its input"))
    hit = Hit("celery-task-idempotency-key", recall.multi_bar(C.RECALL_CHANCE_FREE_WORDS)[0] * 1.3, 2, 0.9, True)
    for text, spoke in [("Add a celery task that sends the digest", False),
                        ("The digest celery task sends it twice", True)]:
        terms = recall.prompt_terms(text)
        assert len(terms) <= C.RECALL_CHANCE_FREE_WORDS  # the bar is the prompt's ask alone
        decision = recall.decide(terms, [("project", hit)], {"project": graph}, frozenset(), len(terms),
                                 ask_scale(text))
        assert (decision.text is not None) is spoke, text
