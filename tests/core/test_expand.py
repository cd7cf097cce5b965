"""Vocabulary expansion (core/expand.py and core/search_concepts.py): stem families, related terms,
and how prompt recall scores a word found only through them."""

from __future__ import annotations

import pytest

from kg_actors.core import constants as C
from kg_actors.core import expand, recall
from kg_actors.core.model import GraphData, Node
from kg_actors.core.search import SearchIndex
from kg_actors.core.search_concepts import concept_hits, concepts, score_concepts
from kg_actors.core.terms import is_stopword, query_terms, stem


def index_of(nodes: list[Node]) -> tuple[GraphData, SearchIndex]:
    graph = GraphData("project", "/home/u/proj")
    for node in nodes:
        graph.set_node(node)
    return graph, SearchIndex.build(graph)


def filler(n: int) -> list[Node]:
    topics = ["naming convention", "review checklist", "owner list", "folder layout", "release notes"]
    return [Node(f"filler-{i}", f"the {topics[i % len(topics)]} number {i}") for i in range(n)]


# -- stem families -------------------------------------------------------------------


@pytest.mark.parametrize("a, b", [
    ("verify", "verification"), ("expiry", "expiration"), ("optimise", "optimize"),
    ("available", "availability"), ("retry", "retries"),
])
def test_derivations_snowball_leaves_apart_share_a_family(a, b):
    assert expand.family(stem(a)) == expand.family(stem(b))


@pytest.mark.parametrize("a, b", [
    ("user", "us"), ("differ", "diff"), ("state", "stats"), ("store", "story"), ("redis", "red"),
    ("signal", "sign"), ("number", "numb"), ("read", "ready"), ("part", "party"), ("hand", "handy"),
])
def test_root_words_are_not_joined_to_shorter_unrelated_ones(a, b):
    assert expand.family(stem(a)) != expand.family(stem(b))


def test_family_keeps_non_words_and_short_stems_as_they_are():
    assert expand.family("v1.2") == "v1.2"
    assert expand.family("api") == "api"
    assert expand.family("rate_limit.py") == "rate_limit.py"


# -- related terms --------------------------------------------------------------------


def test_related_terms_are_symmetric_stems_and_never_the_word_itself():
    for term, others in expand.RELATED.items():
        assert term not in others
        for other in others:
            assert term in expand.RELATED[other], (term, other)
    assert stem("latency") in expand.related(stem("slow"))
    assert stem("database") in expand.related(stem("db"))
    assert stem("deploy") in expand.related(stem("ship"))
    assert expand.related(stem("palindrome")) == ()


def test_every_related_group_holds_at_least_two_distinct_stems_and_no_stopword():
    for line in expand.RELATED_GROUPS:
        assert len({stem(w) for w in line.split()}) >= 2, line
    assert not [t for t in expand.RELATED if is_stopword(t)]


# -- the index keeps its family map current -----------------------------------------------


def test_the_index_family_map_follows_writes_and_matches_a_fresh_build():
    def kin(index: SearchIndex, word: str) -> set[str]:
        return {t for group in concepts(index, query_terms(word)) for t, _ in group}

    graph, index = index_of([Node("verify-webhooks", "verify the signature"), *filler(3)])
    assert kin(index, "verification") == {stem("verify")}  # only the family member is held
    index.update_node(Node("verification-order", "verification happens before parsing"))
    assert kin(index, "verify") == kin(index, "verification") == {stem("verify"), stem("verification")}
    graph.set_node(Node("verification-order", "verification happens before parsing"))
    assert SearchIndex.build(graph).families == index.families
    index.remove_node("verify-webhooks")
    assert kin(index, "verify") == {stem("verification")}
    assert index.families == {}  # `verifi` was the only stem held under a shorter key


# -- concepts and their scores -------------------------------------------------------------


def test_a_word_the_graph_lacks_is_found_through_its_related_terms_and_family():
    _, index = index_of([Node("api-latency-budget", "p99 latency budget per endpoint"),
                         Node("webhook-verify-raw-body", "verify signatures over the raw body"), *filler(10)])
    groups = concepts(index, query_terms("slow verification"))
    assert [t for t, _ in groups[0]] == [stem("latency")]
    assert groups[0][0][1] == C.RECALL_RELATED_WEIGHT
    assert groups[1] == ((stem("verify"), C.RECALL_FAMILY_WEIGHT),)


def test_the_word_itself_outranks_a_near_synonym():
    nodes = [Node("page-slow-render", "the page is slow when the list is long"),
             Node("page-latency-render", "the page has latency when the list is long"), *filler(20)]
    _, index = index_of(nodes)
    hits = concept_hits(index, query_terms("slow page"), frozenset(), limit=5)
    assert [h.node_id for h in hits[:2]] == ["page-slow-render", "page-latency-render"]
    assert hits[1].score < hits[0].score
    assert hits[1].matched_terms == 2  # the synonym still counts as evidence for the gates


def test_one_graph_term_credits_one_prompt_word_only():
    # "concurrency" and "parallelism" both relate to "parallel": the node holding it once must not
    # earn two words' worth for it.
    _, index = index_of([Node("parallel-test-workers", "tests run in parallel workers"), *filler(20)])
    groups = concepts(index, query_terms("concurrency parallelism"))
    held = [t for group in groups for t, _ in group]
    assert held.count(stem("parallel")) == 1


def test_a_concept_counts_a_node_once_however_many_alternatives_it_holds():
    nodes = [Node("db-both-words", "the postgres database pool"), Node("db-one-word", "the postgres pool"),
             *filler(20)]
    _, index = index_of(nodes)
    hits = {h.node_id: h for h in concept_hits(index, query_terms("db pool"), frozenset(), limit=5)}
    assert hits["db-both-words"].matched_terms == hits["db-one-word"].matched_terms == 2


def test_a_phrase_counts_once_not_on_top_of_its_words():
    """A pair the prompt says ("run migrations") and its words are one phrase: a node saying it in passing
    is not credited the pair over the words it already earned, so it does not outrank the lesson that holds
    those words in its gist (issue #12: a sibling lesson shown instead of the one needed)."""
    nodes = [Node("migrations-script", "Migrations run only through scripts/migrate.sh, which takes the advisory lock"),
             Node("deploy-checklist", "The deploy checklist for the API service",
                  notes=("Remember to run migrations before the traffic switch",)), *filler(30)]
    _, index = index_of(nodes)
    hits = concept_hits(index, query_terms("how should I run migrations"), frozenset(), limit=5)
    assert [h.node_id for h in hits] == ["migrations-script", "deploy-checklist"]
    # The phrase's holder earns the best of the pair and its words together, not their sum.
    groups = concepts(index, query_terms("run migrations"))
    words_only = score_concepts(index, [g for g in groups if " " not in g[0][0]], None)
    pair_only = score_concepts(index, [g for g in groups if " " in g[0][0]], None)
    both = score_concepts(index, groups, None)
    assert set(pair_only) == {"deploy-checklist"}
    assert both["deploy-checklist"] == pytest.approx(max(words_only["deploy-checklist"], pair_only["deploy-checklist"]))
    assert both["migrations-script"] == pytest.approx(words_only["migrations-script"])


def test_alternatives_per_word_are_capped():
    nodes = [Node(f"n-{w}", f"about {w}") for w in expand.RELATED_GROUPS[0].split()] + filler(5)
    _, index = index_of(nodes)
    groups = concepts(index, query_terms("slow"))
    assert 1 < len(groups[0]) <= C.RECALL_MAX_ALTERNATIVES


# -- end to end through the recall decision --------------------------------------------------


def test_a_paraphrased_prompt_recalls_the_lesson_and_an_unrelated_one_stays_silent():
    nodes = [Node("redis-session-ttl", "Session keys in redis always get a TTL",
                  notes=("keys without expiry filled the cache memory",)), *filler(60)]
    graph, index = index_of(nodes)
    views = {"project": (graph, index)}
    asked = recall.run(recall.prompt_terms("the cache memory keeps growing, do session keys expire?"),
                       views, frozenset())
    assert asked.reason == "injected" and "redis-session-ttl" in asked.text
    other = recall.run(recall.prompt_terms("write a haiku about the first snow of winter"), views, frozenset())
    assert other.text is None


def test_word_pairs_and_numbers_are_their_own_family_and_never_cached():
    """The index asks for the family of every new term; a rewritten gist brings new word pairs and
    numbers without end, and a cache of them grew a soaking server by 0.2-0.4 MiB a minute."""
    before = expand._word_family.cache_info().currsize
    for n in range(500):
        assert expand.family(f"pass {n}") == f"pass {n}" and expand.family(str(n)) == str(n)
    assert expand._word_family.cache_info().currsize == before
    assert expand.family("verifi") == expand.family("verif") == "verif"  # words still have theirs
