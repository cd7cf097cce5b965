"""Prompt recall (core/recall.py): what a person typed, its terms, the three gates, the injection.

Graphs are built in memory; `recall.run` is the whole decision the prompt
endpoint makes for a session (the endpoint adds identity, logging and marks).
"""

from __future__ import annotations

import pytest

from kg_actors.core import constants as C
from kg_actors.core import recall
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.search import SearchIndex


def build(nodes: list[Node], edges: list[Edge] = (), kind: str = "project") -> tuple[GraphData, SearchIndex]:
    graph = GraphData(kind, "/home/u/proj" if kind == "project" else None)
    for node in nodes:
        graph.set_node(node)
    for edge in edges:
        graph.set_edge(edge)
    return graph, SearchIndex.build(graph)


def filler(n: int, start: int = 0) -> list[Node]:
    """Nodes about nothing the prompts ask, so IDF has a population to work with."""
    topics = ["logging format", "ci pipeline", "release notes", "docker image", "lint rules", "api pagination",
              "email templates", "feature flags", "metrics dashboard", "backup schedule"]
    return [Node(f"filler-node-{i}", f"{topics[i % len(topics)]} convention number {i}") for i in range(start, start + n)]


def run(prompt: str, views: dict, seen: frozenset[tuple[str, str]] = frozenset()) -> recall.Decision:
    text = recall.human_text(prompt)
    return recall.run(recall.prompt_terms(text) if text else [], views, seen)


# -- what a person typed ------------------------------------------------------------


@pytest.mark.parametrize("prompt", [
    "<task-notification><task-id>b1</task-id><status>completed</status>token refresh done</task-notification>",
    "[SYSTEM NOTIFICATION] background job finished: token refresh failing",
    "<command-name>/clear</command-name><command-message>clear</command-message>",
    "[Image #1]",
    "[Image #1] [Image #2]",
    "/Users/me/proj/src/auth/refresh.py",
    "/Users/me/proj/src/auth/refresh.py /Users/me/proj/src/auth/session.py",
    "'/Users/me/My Documents/token refresh notes.md'",
    "fix it",  # under 8 typed characters
    None,
    42,
])
def test_harness_records_placeholders_and_bare_paths_are_not_prompts(prompt):
    assert recall.human_text(prompt) is None


@pytest.mark.parametrize("prompt", [
    "<bash-stdout>why does the JWT refresh token fail with clock skew between servers</bash-stdout>"
    "<bash-stderr></bash-stderr>",
    "<bash-stdout></bash-stdout><bash-stderr>the JWT refresh token fails with clock skew between servers"
    "</bash-stderr>",
    "  <bash-stderr>error: the token refresh window is broken on every server</bash-stderr>",
    "<bash-input>grep -rn 'token refresh window' src/auth</bash-input>",
    "<local-command-stdout>the token refresh window compacted and clock skew summarised</local-command-stdout>",
])
def test_claude_codes_shell_and_local_command_records_are_not_prompts(prompt):
    # Claude Code sends what a `!` command printed (and the command) as a user message: output, not a request.
    assert not recall.is_prompt(prompt)
    assert recall.human_text(prompt) is None


def test_a_prompt_that_names_a_record_tag_in_its_words_is_still_a_prompt():
    assert recall.human_text("why does <bash-stdout> show up in the token refresh logs?") is not None


def test_image_placeholders_are_removed_and_the_typed_words_stay():
    assert recall.human_text("[Image #1] why is the token refresh failing here") == \
        "why is the token refresh failing here"


def test_dragged_paths_reduce_to_file_names():
    text = recall.human_text("why does /Users/me/proj/src/auth/refresh.py fail on expiry")
    assert text == "why does refresh.py fail on expiry"
    assert recall.human_text('compare "/Users/me/My Docs/old notes.md" with the token store') == \
        "compare old notes.md with the token store"
    assert recall.human_text("see /Users/me/My\\ Docs/a.py when the tokens expire") == \
        "see a.py when the tokens expire"
    # An apostrophe is not a quote: the prose around it stays.
    assert "know why" in recall.human_text("I don't know why src/a.py isn't working")


def test_only_the_first_20000_characters_of_a_huge_prompt_count():
    text = recall.human_text("token " * 200_000)
    assert text is not None and len(text) <= C.RECALL_PROMPT_MAX_CHARS


def test_prompt_terms_drop_stopwords_short_words_and_repeats():
    terms = recall.prompt_terms("Why does the JWT token refresh fail? The token refresh is ok on CI, so...")
    assert terms == ["jwt", "token", "refresh", "fail"]
    assert recall.prompt_terms("I don't know why it's the scheduler's fault") == ["know", "scheduler", "fault"]
    assert recall.prompt_terms("refresh.py and rate_limit.py") == ["refresh.py", "rate_limit.py"]
    many = " ".join(f"word{i}x" for i in range(100))
    assert len(recall.prompt_terms(many)) == C.RECALL_MAX_TERMS


# -- the gates ----------------------------------------------------------------------------


def test_the_score_threshold_is_stricter_with_more_terms():
    # One term naming one node of 30: score 1/60 ≈ 0.0167 — above the single-term bar; said beside a second
    # term it is one term's worth of a prompt of two, which no bar of several terms lets open the channel.
    views = {"project": build([Node("token-refresh-window", "sliding window for JWT refresh"), *filler(29)])}
    one = recall.run(["token-refresh-window"], views, frozenset())  # a one-word prompt naming an id: enough alone
    assert one.reason == "injected" and one.threshold == C.RECALL_SCORE_SINGLE
    two = recall.run(["sliding", "zebra"], views, frozenset())
    assert two.text is None and two.reason in ("no_hits", "weak_hit")
    assert two.threshold == recall.multi_bar(2)[0] > one.threshold
    assert two.hits and two.hits[0]["id"] == "token-refresh-window" and two.hits[0]["score"] < C.RECALL_SCORE_STRONG


def test_evidence_one_common_word_in_notes_stays_silent():
    # "sharding" sits in the notes of 2 of 20 nodes: over the single-term score bar, not near-unique,
    # not in an id or gist — one common word in someone's notes.
    nodes = [Node("db-layout-choice", "tables split by tenant", notes=("we talked about sharding once",)),
             Node("queue-retry-policy", "retries back off", notes=("sharding came up in review",)), *filler(18)]
    views = {"project": build(nodes)}
    decision = recall.run(["sharding"], views, frozenset())
    assert decision.reason == "no_hits"
    hit = decision.hits[0]
    assert hit["score"] >= C.RECALL_SCORE_SINGLE and hit["matched_terms"] == 1
    assert hit["max_term_idf"] < C.RECALL_MIN_SOLO_IDF and not hit["title_match"]


def test_evidence_a_near_unique_term_or_a_title_term_or_two_terms_pass(monkeypatch: pytest.MonkeyPatch):
    # The gates alone: the model's pick where they choose nothing is test_recall_gate's.
    monkeypatch.setattr(C, "RECALL_GATE_BRING", 1.01)
    notes_only = [Node("db-layout-choice", "tables split by tenant", notes=("sharding by region",)), *filler(19)]
    decision = recall.run(["sharding", "zebra"], {"project": build(notes_only)}, frozenset())
    # Near-unique: it passes the evidence gate, but alone, in notes only, it is a weak hit (below).
    assert decision.reason == "weak_hit" and decision.hits[0]["max_term_idf"] >= C.RECALL_MIN_SOLO_IDF
    in_gist = [Node("db-layout-choice", "sharding tables by tenant"),
               Node("queue-retry-policy", "retries back off", notes=("sharding came up",)), *filler(18)]
    decision = recall.run(["sharding", "tables"], {"project": build(in_gist)}, frozenset())
    assert decision.reason == "injected" and decision.shown == (("project", "db-layout-choice"),)
    two_terms = [Node("db-layout-choice", "tables split by tenant", notes=("sharding and replicas",)),
                 Node("queue-retry-policy", "retries back off", notes=("sharding came up",)),
                 Node("cache-warmup-node", "cache warms", notes=("replicas lag",)), *filler(17)]
    decision = recall.run(["sharding", "replicas"], {"project": build(two_terms)}, frozenset())
    # Two terms, even in notes: more than one term's worth of score, so it opens the channel alone.
    assert decision.reason == "injected" and decision.shown == (("project", "db-layout-choice"),)
    assert decision.hits[0]["score"] > 1 / C.SEARCH_RRF_K


@pytest.mark.parametrize("word", ["database", "Database?", "databases", "connections", "pool"])
def test_a_one_word_prompt_of_an_everyday_word_recalls_nothing(word):
    # However well it matches a lesson's gist and notes: one everyday word says too little of what is asked.
    nodes = [Node("db-pool-size", "the database pool holds 20 connections", notes=("database pool sizing",)),
             *filler(30)]
    assert run(word, {"project": build(nodes)}).text is None


@pytest.mark.parametrize("word", ["`db-pool-size`", "db-pool-size?", "`database-pool`"])
def test_a_one_word_prompt_recalls_the_lesson_whose_id_it_names(word):
    nodes = [Node("db-pool-size", "the database pool holds 20 connections"),
             Node("database-pool", "pools are per worker"), *filler(30)]
    decision = run(word, {"project": build(nodes)})
    assert decision.reason == "injected"
    assert decision.shown[0] == ("project", word.strip("`?"))


def test_weak_hits_scattered_over_unrelated_nodes_do_not_open_the_channel():
    # Each prompt word names a different node, once: chance, not a topic (one or several such hits).
    nodes = [Node("cat-feeding-schedule", "the cat eats at noon"), Node("keyboard-layout-choice", "we type on qwerty"),
             Node("sleep-timer-setting", "screens sleep after ten minutes"), *filler(30)]
    decision = recall.run(["cat", "sleep", "keyboard", "names"], {"project": build(nodes)}, frozenset())
    assert decision.text is None and decision.reason in ("weak_hit", "no_hits")
    assert all(h["matched_terms"] == 1 for h in decision.hits)


def test_a_single_weak_hit_does_not_open_the_channel():
    nodes = [Node("db-layout-choice", "tables split by tenant", notes=("we shard by region",)),
             Node("token-refresh-window", "sliding window for JWT refresh"), *filler(30)]
    views = {"project": build(nodes)}
    # One word of a longer prompt, in one node's notes: evidence enough, but weak and alone.
    weak = recall.run(["shard", "migration", "plan", "tonight"], views, frozenset())
    assert weak.reason in ("weak_hit", "no_hits") and weak.text is None
    # Two prompt words naming a node in its id or gist: strong enough alone.
    strong = recall.run(["jwt", "refresh", "tonight"], views, frozenset())
    assert strong.reason == "injected" and strong.shown == (("project", "token-refresh-window"),)


def test_a_long_prompt_needs_more_score_than_chance_gives_its_many_words():
    # Two everyday words of a chatty prompt land in one lesson's id and gist; said in a short
    # prompt they are what it asks, in a prompt of thirty search words they are chance.
    nodes = [Node("build-cache-default", "the default build cache lives in the runner"), *filler(40)]
    views = {"project": build(nodes)}
    short = run("why is the build slow with default settings", views)
    assert short.reason == "injected" and short.shown == (("project", "build-cache-default"),)
    chatty = ("so my thesis stopped compiling after i added the notation section, no idea why, latexmk just says "
              "the build fails on my laptop with default settings, the coffee machine upstairs is broken again, "
              "honestly considering switching editors, any quick ideas before tomorrow morning's supervisor meeting")
    long = run(chatty, views)
    assert long.text is None and long.reason in ("weak_hit", "no_hits")
    assert long.hits[0]["id"] == "build-cache-default"  # the same match, judged against the prompt's length
    assert long.threshold > short.threshold
    assert recall.chance_scale(1) == recall.chance_scale(C.RECALL_CHANCE_FREE_WORDS) == 1.0
    assert recall.chance_scale(C.RECALL_CHANCE_FREE_WORDS + 20) == pytest.approx(1 + 20 * C.RECALL_CHANCE_PER_WORD)


def test_a_prompt_of_few_words_takes_the_lower_of_two_bars():
    # The bar of few words starts under the plain one and climbs faster; they meet near 14 words.
    for n in range(1, 40):
        bar, chance = recall.multi_bar(n)
        assert bar <= C.RECALL_SCORE_MULTI * recall.chance_scale(n) + 1e-12
        assert bar == pytest.approx(min(C.RECALL_SCORE_FEW * recall.chance_scale(n, C.RECALL_CHANCE_FEW_PER_WORD),
                                        C.RECALL_SCORE_MULTI * recall.chance_scale(n)))
    assert recall.multi_bar(4) == (C.RECALL_SCORE_FEW, 1.0)
    assert recall.multi_bar(13)[0] < C.RECALL_SCORE_MULTI * recall.chance_scale(13)
    assert recall.multi_bar(14) == (C.RECALL_SCORE_MULTI * recall.chance_scale(14), recall.chance_scale(14))
    assert recall.multi_bar(30)[1] == recall.chance_scale(30)
    # The decision is held to it: a prompt of a few terms to the lower bar, a long one to the plain bar.
    views = {"project": build([Node("build-cache-default", "the default build cache lives in the runner"), *filler(40)])}
    assert run("build cache default", views).threshold == pytest.approx(C.RECALL_SCORE_FEW)
    many = " ".join(f"word{c}{c}{c}" for c in "abcdefghijklmnopqrst")
    assert run(many, views).threshold == pytest.approx(C.RECALL_SCORE_MULTI * recall.chance_scale(20))


def test_the_function_word_parts_of_compounds_are_not_search_words():
    # "lunch-and-learn", "isVisible" and "deleted_at" split into parts; "and", "is", "at" must not
    # find the one node that says "and-or" in its id (a word every lesson's prose has).
    nodes = [Node("and-or-filters", "filters combine with and / or"), *filler(30)]
    views = {"project": build(nodes)}
    decision = run("planning the lunch-and-learn on isVisible naming and deleted_at columns", views)
    assert decision.text is None
    assert all(h["id"] != "and-or-filters" for h in decision.hits)


def test_a_word_of_several_parts_is_one_word_said_once():
    # "GitHub" is git, hub, github and the pair "git hub" to the index: one word, not four matches.
    nodes = [Node("runner-cache-rule", "GitHub runners cache pip wheels between jobs"), *filler(30)]
    views = {"project": build(nodes)}
    decision = run("how do I rename our GitHub organisation", views)
    hit = next(h for h in decision.hits if h["id"] == "runner-cache-rule")
    assert hit["matched_terms"] == 1
    # Said as a word of its own beside it, "git" is a second word.
    both = run("how do I rename our GitHub organisation in git", views)
    assert next(h for h in both.hits if h["id"] == "runner-cache-rule")["matched_terms"] == 2


def test_a_side_match_far_below_the_best_hit_stays_out():
    nodes = [Node("token-refresh-window", "sliding window for JWT refresh; refresh rotates the token"),
             Node("refresh-button-style", "the refresh button is blue", notes=("refresh",)),
             *filler(40)]
    decision = recall.run(["jwt", "token", "refresh", "sliding", "window"], {"project": build(nodes)}, frozenset())
    by_id = {h["id"]: h["score"] for h in decision.hits}
    assert by_id["refresh-button-style"] < C.RECALL_RELATIVE_CUT * by_id["token-refresh-window"]
    assert decision.shown == (("project", "token-refresh-window"),)


def _webgl_lesson(gist: str) -> dict:
    # "web" and "mode" are common here (three nodes each), so neither is near-unique evidence.
    return {"project": build([
        Node("mapbox-remove-on-unmount", gist),
        *[Node(f"deploy-checklist-{i}", f"deploy checklist item {i}", notes=(f"the web server restarts in step {i}",))
          for i in range(2)],
        *[Node(f"config-loader-{i}", f"config loader rule {i}", notes=(f"maintenance mode is set in step {i}",))
          for i in range(2)],
        *filler(46)])}


def test_common_words_a_lesson_holds_only_inside_other_compounds_do_not_recall_it():
    # "dark mode ... web UI" met StrictMode and WebGL on "mode" and "web": words the lesson never says.
    views = _webgl_lesson("Call map.remove() in the effect cleanup; React StrictMode's dev double-mount "
                          "otherwise leaks WebGL contexts")
    for prompt in ("can we get a dark mode theme for the web UI?", "dark mode for the web app"):
        decision = run(prompt, views)
        assert decision.hits[0]["id"] == "mapbox-remove-on-unmount" and decision.hits[0]["matched_terms"] == 2
        assert decision.text is None, prompt
    # The pair the compound is ("strict mode"), or a rare part of one ("webgl"), still recalls it.
    for prompt in ("why does strict mode double mount the map in dev?", "the map leaks webgl contexts"):
        assert run(prompt, views).shown == (("project", "mapbox-remove-on-unmount"),), prompt


def test_a_common_word_the_lesson_also_says_by_itself_still_counts(monkeypatch: pytest.MonkeyPatch):
    # What the words find, without the model's veto: it doubts a WebGL lesson for "dark mode" (p under 0.2).
    monkeypatch.setattr(C, "RECALL_GATE_VETO", 0.0)
    views = _webgl_lesson("Call map.remove() in the effect cleanup; in dev mode the web map otherwise leaks "
                          "WebGL contexts")
    assert run("dark mode for the web app", views).shown == (("project", "mapbox-remove-on-unmount"),)


def test_word_forms_tell_words_said_alone_from_parts_of_compounds():
    from kg_actors.core.recall_compounds import word_forms
    alone, inside = word_forms(Node("strict-mode-effects", "React StrictMode runs effects twice, in dev mode",
                                    notes=("see use_effect_twice",), touches=("src/web/app.tsx",)))
    assert {"strict", "mode", "effect", "dev", "react"} <= alone
    assert {"strict", "mode", "use", "web", "app"} <= inside
    assert "web" not in alone


def test_a_hit_matching_more_prompt_terms_outranks_one_first_for_a_single_word():
    # Fused ranks put a node first for one word (1/60) above one matching three words lower down;
    # the ranking after the gates prefers the latter, and the former is a side match.
    from kg_actors.core.search import Hit
    graphs = {"project": build([Node("dataclass-slots-memory", "slots cut memory of dataclasses"),
                                Node("release-script-tag-changelog", "the release script tags and writes the changelog")])[0]}
    one_word = Hit("dataclass-slots-memory", 0.030, 1, 0.9, True)
    three_words = Hit("release-script-tag-changelog", 0.027, 3, 0.7, True)
    terms = ["cutting", "new", "version", "release", "script"]
    decision = recall.decide(terms, [("project", one_word), ("project", three_words)], graphs, frozenset(), len(terms))
    assert decision.shown == (("project", "release-script-tag-changelog"),)
    # The bonus orders; it never opens the channel: the same hit under the threshold stays silent.
    faint = Hit("release-script-tag-changelog", recall.multi_bar(len(terms))[0] * 0.9, 3, 0.7, True)
    assert recall.decide(terms, [("project", faint)], graphs, frozenset(), len(terms)).text is None


def test_a_hit_whose_id_the_prompt_names_outranks_one_matching_as_many_words_elsewhere():
    from kg_actors.core.search import Hit
    graphs = {"project": build([Node("histogram-buckets-latency", "latency histograms need buckets around the SLO"),
                                Node("metric-routing-rule", "the metric routing rule: each series names its tenant")])[0]}
    elsewhere = Hit("histogram-buckets-latency", 0.028, 2, 0.9, True)
    named = Hit("metric-routing-rule", 0.027, 2, 0.9, True, id_share=0.9)
    terms = ["adding", "metric", "routing", "entry", "checkout", "latency", "series"]
    decision = recall.decide(terms, [("project", elsewhere), ("project", named)], graphs, frozenset(), len(terms))
    assert decision.shown == (("project", "metric-routing-rule"),)
    # It orders; it never opens the channel.
    faint = Hit("metric-routing-rule", recall.multi_bar(len(terms))[0] * 0.9, 2, 0.9, True, id_share=1.0)
    assert recall.decide(terms, [("project", faint)], graphs, frozenset(), len(terms)).text is None


def test_id_share_is_the_idf_weighted_part_of_an_id_the_prompt_names():
    from kg_actors.core.search_concepts import concept_hits
    from kg_actors.core.terms import query_terms
    nodes = [Node("metric-routing-rule", "the metric routing rule: each series names its tenant"),
             Node("histogram-buckets-latency", "latency metric histograms need buckets"),
             *[Node(f"other-{i}-rule", f"the other rule number {i}: lint and format") for i in range(8)], *filler(20)]
    _, index = build(nodes)
    hits = {h.node_id: h for h in concept_hits(index, query_terms("metric routing for checkout latency"), frozenset(), 10)}
    routing, buckets = hits["metric-routing-rule"], hits["histogram-buckets-latency"]
    assert 0.8 < routing.id_share < 1.0  # "rule", which ten ids say, is the small unnamed part
    assert 0.2 < buckets.id_share < 0.5  # latency of histogram-buckets-latency
    assert hits["metric-routing-rule"].matched_terms == 2


def test_novelty_nothing_new_is_silence_and_one_new_node_brings_the_others_as_anchors():
    views = {"project": build([
        Node("token-refresh-window", "sliding window for JWT refresh"),
        Node("token-refresh-errors", "JWT refresh fails silently when the session expired"),
        *filler(20)])}
    both = frozenset({("project", "token-refresh-window"), ("project", "token-refresh-errors")})
    assert recall.run(["jwt", "refresh"], views, both).reason == "all_seen"
    decision = recall.run(["jwt", "refresh"], views, frozenset({("project", "token-refresh-window")}))
    assert decision.reason == "injected"
    lines = decision.text.splitlines()
    assert lines[0] == recall.HEADER
    assert "- [project] token-refresh-window (in context)" in lines
    assert "- [project] token-refresh-errors: JWT refresh fails silently when the session expired" in lines
    assert decision.shown == (("project", "token-refresh-errors"),)


def test_an_anchor_far_below_the_best_hit_comes_along_only_when_an_edge_ties_it_to_a_new_hit():
    # A node already in context that clears the bars on a side word is no more what the prompt is
    # about than a new side match would be: its "(in context)" line rode along unasked.
    from kg_actors.core.search import Hit
    nodes = [Node("status-page-first-post", "post on the status page within 15 minutes of a SEV1"),
             Node("gdpr-export-all-systems", "a data export request covers every system we run")]
    terms = ["sev1", "declared", "quickly", "status", "page"]
    best = Hit("status-page-first-post", 0.06, 3, 0.95, True, id_share=1.0)
    side = Hit("gdpr-export-all-systems", 0.025, 2, 0.9, True, seen=True)
    assert recall.rank(side) < C.RECALL_RELATIVE_CUT * recall.rank(best)
    seen = frozenset({("project", "gdpr-export-all-systems")})
    hits = [("project", best), ("project", side)]
    alone = recall.decide(terms, hits, {"project": build(nodes)[0]}, seen, len(terms))
    assert alone.reason == "injected"
    assert "gdpr-export-all-systems" not in alone.text
    assert alone.text.splitlines()[1:] == ["- [project] status-page-first-post: post on the status page within 15 "
                                           "minutes of a SEV1"]
    # Joined to the new hit by an edge, the same anchor ties it in, and the edge comes along.
    tied = build(nodes, [Edge("status-page-first-post", "gdpr-export-all-systems", "relates-to")])[0]
    decision = recall.decide(terms, hits, {"project": tied}, seen, len(terms))
    lines = decision.text.splitlines()
    assert "- [project] gdpr-export-all-systems (in context)" in lines
    assert "  status-page-first-post --relates-to--> gdpr-export-all-systems" in lines
    assert decision.shown == (("project", "status-page-first-post"),)


def test_no_terms_and_no_matches_are_silence():
    views = {"project": build(filler(10))}
    assert recall.run([], views, frozenset()).reason == "no_terms"
    assert recall.run(["zebra", "quokka"], views, frozenset()).reason == "no_hits"


# -- what is injected ------------------------------------------------------------------


def test_at_most_four_hits_named_ones_first():
    # Six nodes match "cache eviction": two only in their notes (ranked first by repetition), four in id or gist.
    nodes = [
        Node("notes-heavy-one", "something else entirely", notes=("cache eviction, cache eviction",) * 3),
        Node("notes-heavy-two", "another topic", notes=("cache eviction again and cache eviction",) * 3),
        Node("cache-eviction-lru", "LRU cache eviction"),
        Node("cache-eviction-warmup", "warm up before cache eviction starts"),
        Node("cache-eviction-keys", "keys carry the tenant; cache eviction by prefix"),
        Node("cache-eviction-size", "512 MB before cache eviction"),
        # Enough nodes that "cache" and "eviction" (held by six) clear the bar by their words: the pair all
        # six hold adds nothing over them (a phrase counts once, search_concepts.score_concepts).
        *filler(194),
    ]
    decision = recall.run(["cache", "eviction"], {"project": build(nodes)}, frozenset())
    assert decision.reason == "injected"
    ranked = [h["id"] for h in decision.hits]
    assert ranked[:2] == ["notes-heavy-one", "notes-heavy-two"]  # the raw ranking puts notes first
    hit_lines = [line for line in decision.text.splitlines()[1:] if line.startswith("- ")]
    assert len(hit_lines) == C.RECALL_MAX_HITS
    shown = [line.split("] ", 1)[1].split(":")[0] for line in hit_lines]
    assert set(shown) == {"cache-eviction-lru", "cache-eviction-warmup", "cache-eviction-keys", "cache-eviction-size"}


def test_the_injection_fits_2500_characters_keeping_at_least_one_gist():
    long = "x" * 900
    nodes = [Node(f"cache-eviction-{i}", f"cache eviction rule {i} {long}") for i in range(4)] + filler(20)
    decision = recall.run(["cache", "eviction", "rule"], {"project": build(nodes)}, frozenset())
    assert decision.reason == "injected"
    assert len(decision.text) <= C.RECALL_CHAR_BUDGET
    assert 1 <= len(decision.shown) < 4  # trimmed, lowest first
    # Every node reported shown is in the text with its gist.
    for _, node_id in decision.shown:
        assert f"{node_id}: cache eviction rule" in decision.text
    huge = [Node("cache-eviction-huge", "cache eviction " + "y" * 5000), *filler(20)]
    decision = recall.run(["cache", "eviction"], {"project": build(huge)}, frozenset())
    assert decision.reason == "injected" and len(decision.text) <= C.RECALL_CHAR_BUDGET
    assert decision.shown == (("project", "cache-eviction-huge"),)
    # Cut short, it says so, and is flagged: in context, not seen whole.
    assert decision.text.endswith("…") and decision.cut == {("project", "cache-eviction-huge")}


def test_trimming_to_the_budget_keeps_the_edges_between_the_hits_left():
    long = "x" * 700
    nodes = [Node(f"cache-eviction-{i}", f"cache eviction rule {i} {long}") for i in range(4)] + filler(20)
    edges = [Edge("cache-eviction-0", "cache-eviction-1", "refines"), Edge("cache-eviction-1", "cache-eviction-2", "refines"),
             Edge("cache-eviction-2", "cache-eviction-3", "refines")]
    decision = recall.run(["cache", "eviction", "rule"], {"project": build(nodes, edges)}, frozenset())
    assert decision.reason == "injected" and len(decision.text) <= C.RECALL_CHAR_BUDGET
    shown = [node_id for _, node_id in decision.shown]
    assert 2 <= len(shown) < 4  # trimmed: a hit went, yet two or more are left
    between = [e for e in edges if e.src in shown and e.dst in shown]
    assert between
    for edge in between:
        assert f"{edge.src} --refines--> {edge.dst}" in decision.text


def test_edges_between_hits_and_their_connectors_come_along():
    nodes = [Node("auth-token-refresh", "JWT refresh uses a sliding window"),
             Node("session-store-redis", "sessions live in redis with a TTL"),
             # The connector mentions the prompt in passing (its notes): it carries something the hits need.
             Node("middleware-order", "auth middleware runs before the router", notes=("expiry checks run here",)),
             Node("token-expiry-clock", "JWT refresh fails when expiry clocks drift"), *filler(20)]
    edges = [Edge("auth-token-refresh", "middleware-order", "runs-in"),
             Edge("middleware-order", "token-expiry-clock", "calls"),
             Edge("auth-token-refresh", "session-store-redis", "requires")]
    decision = recall.run(["jwt", "refresh", "sliding", "expiry"], {"project": build(nodes, edges)}, frozenset())
    lines = decision.text.splitlines()
    assert "  connections:" in lines
    assert "  - [project] middleware-order: auth middleware runs before the router" in lines
    assert "  auth-token-refresh --runs-in--> middleware-order" in lines
    assert "  middleware-order --calls--> token-expiry-clock" in lines
    assert not any("session-store-redis" in line for line in lines)  # not a hit, not on a path
    assert ("project", "middleware-order") in decision.shown
    # A connector already in context shows as an anchor; its edges stay.
    again = recall.run(["jwt", "refresh", "sliding", "expiry"], {"project": build(nodes, edges)},
                       frozenset({("project", "middleware-order"), ("project", "auth-token-refresh")}))
    assert "  - [project] middleware-order (in context)" in again.text.splitlines()
    assert "  middleware-order --calls--> token-expiry-clock" in again.text.splitlines()


def test_a_connector_that_says_nothing_about_the_prompt_stays_out_and_direct_edges_stay():
    nodes = [Node("auth-token-refresh", "JWT refresh uses a sliding window"),
             Node("platform-overview", "the platform: api, workers and the web app"),
             Node("token-expiry-clock", "JWT expiry compares server clocks"),
             # "stale", not "expired": expired is in expiry's stem family, and a node naming all three
             # prompt words would rightly leave the other two as side matches.
             Node("token-refresh-errors", "JWT refresh fails silently when stale"),
             # "expiry" held twice, as "refresh" is: the three lessons meet two prompt words each, equally rare,
             # so all three are hits (one rarer word would leave the other two as side matches).
             Node("cookie-expiry-days", "session cookie expiry is 14 days"), *filler(20)]
    edges = [Edge("auth-token-refresh", "platform-overview", "part-of"),
             Edge("token-expiry-clock", "platform-overview", "part-of"),
             Edge("token-refresh-errors", "auth-token-refresh", "refines")]
    decision = recall.run(["jwt", "refresh", "expiry"], {"project": build(nodes, edges)}, frozenset())
    assert "platform-overview" not in decision.text  # a hub the prompt never names is no lesson the hits need
    assert "  token-refresh-errors --refines--> auth-token-refresh" in decision.text.splitlines()


def test_cross_level_hits_name_their_level():
    user = build([Node("prefer-small-commits", "commit JWT refresh fixes separately"), *filler(5)], kind="user")
    project = build([Node("auth-token-refresh", "JWT refresh uses a sliding window"), *filler(5, 100)])
    decision = recall.run(["jwt", "refresh"], {"user": user, "project": project}, frozenset())
    assert "- [user] prefer-small-commits: commit JWT refresh fixes separately" in decision.text
    assert "- [project] auth-token-refresh: JWT refresh uses a sliding window" in decision.text


def test_every_tier_takes_part_and_gistless_nodes_never_inject():
    nodes = [Node("token-refresh-window", "sliding JWT refresh window", archived=True),
             Node("token-refresh-orphan", "JWT refresh orphaned lesson", archived=True, orphaned_ts=1.0),
             Node("token-refresh-empty", ""), *filler(20)]
    decision = recall.run(["jwt", "refresh"], {"project": build(nodes)}, frozenset())
    assert set(decision.shown) == {("project", "token-refresh-window"), ("project", "token-refresh-orphan")}
    assert "- [project] token-refresh-orphan: JWT refresh orphaned lesson" in decision.text
    assert "token-refresh-empty" not in decision.text


def test_a_gist_is_never_injected_twice_in_a_session():
    views = {"project": build([Node("token-refresh-window", "sliding window for JWT refresh"),
                               Node("token-refresh-errors", "JWT refresh fails silently"), *filler(20)])}
    seen: frozenset[tuple[str, str]] = frozenset()
    injected: list[str] = []
    for prompt in ["why does the JWT refresh fail", "JWT refresh again, the sliding window",
                   "one more time: JWT refresh errors", "refresh the JWT please, window and errors"]:
        decision = run(prompt, views, seen)
        injected += [i for _, i in decision.shown]
        for _, node_id in decision.shown:
            assert f"{node_id}:" in decision.text
        for _, node_id in seen:
            assert f"] {node_id}:" not in (decision.text or "")
        seen = seen | set(decision.shown)
    assert sorted(injected) == ["token-refresh-errors", "token-refresh-window"]


def test_a_prompt_is_what_a_person_sent_even_when_it_asks_nothing_of_memory():
    """The chore trigger's test: a paste or a "go on" was sent by a person; a task notification was not."""
    assert recall.is_prompt("continue") and recall.human_text("continue") is None
    assert recall.is_prompt("2026-12-03 10:00:01 ERROR worker 3 died\n" * 40)
    assert not recall.is_prompt("<task-notification>done</task-notification>")
    assert not recall.is_prompt(None) and not recall.is_prompt({"text": "hi"})


def test_a_hit_found_only_by_a_withheld_gist_gives_its_place_to_the_next_best():
    """Else a right guess of a key a hand edit left would show fewer hits than a wrong one (withheld_terms.py)."""
    key = "ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp" + "3Hs6Dj0Fg5Ca8Ue2"
    held = [Node(f"held-{i}", f"walnut trees walnut trees {key}") for i in range(3)]  # the best matches but for it
    plain = [Node(f"walnut-lesson-{i}", f"a lesson on walnut trees number {i}") for i in range(C.RECALL_SEARCH_TOP + 2)]
    views = {"project": build(held + plain + filler(30))}
    _, hits = recall.search(["walnut", "trees"], views, frozenset())
    ids = [h.node_id for _, h in hits]
    assert len(ids) == C.RECALL_SEARCH_TOP and not any(i.startswith("held-") for i in ids), ids
