"""Search core: terms, index, ranking, connections, reply format, write-time hints."""

from __future__ import annotations

import math
import pickle
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core import constants as C
from kg_actors.core.errors import InvalidInput
from kg_actors.core.hints import (
    hub_mention, hub_mention_hint, near_duplicate, near_duplicate_hint, near_duplicate_steps,
)
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.search import (
    Hit, SearchIndex, base_idf, indexed_notes, merge_hits, parse_query, rank, sharpened, top_hits,
)
from kg_actors.core.search_paths import connection_paths
from kg_actors.core.search_format import BEST_EFFORT, format_search
from kg_actors.core.terms import query_terms, stem


def graph_of(*nodes: Node, edges: tuple[Edge, ...] = (), kind: str = "project") -> GraphData:
    graph = GraphData(kind)
    for node in nodes:
        graph.set_node(node)
    for edge in edges:
        graph.set_edge(edge)
    return graph


def ids(hits: list[Hit]) -> list[str]:
    return [h.node_id for h in hits]


def search(graph: GraphData, query: str, seen: frozenset[str] = frozenset()) -> list[Hit]:
    return rank(SearchIndex.build(graph), parse_query(query), seen)


def filler(n: int) -> list[Node]:
    """Unrelated nodes, so IDF has a population to work against."""
    return [Node(f"filler-{i}", f"unrelated topic number {i} about gardening") for i in range(n)]


# -- terms


def test_token_contributes_parts_composite_and_pairs():
    terms = query_terms("claude.md-cleanup")
    assert terms.unigrams == ("claud", "md", "cleanup", "claude.md-cleanup")
    assert terms.bigrams == ("claud md", "md cleanup")


def test_camel_case_identifiers_count_by_their_parts_and_as_written():
    assert query_terms("getUserByEmail").unigrams == ("get", "user", "by", "email", stem("getuserbyemail"))
    assert query_terms("XMLHttpRequest").unigrams == ("xml", "http", "request", stem("xmlhttprequest"))
    # Words that are all one case, and paths, are as before.
    assert query_terms("JWT").unigrams == ("jwt",)
    assert query_terms("src/hooks/useAuth.ts").unigrams == query_terms("src/hooks/useauth.ts").unigrams
    nodes = [Node("k8s-hpa-cpu-target", "HorizontalPodAutoscaler targets 70% CPU"), *filler(5)]
    assert ids(search(graph_of(*nodes), "autoscaler")) == ["k8s-hpa-cpu-target"]
    assert ids(search(graph_of(*nodes), "horizontalpodautoscaler")) == ["k8s-hpa-cpu-target"]


def test_token_ends_stripped_and_short_parts_dropped():
    assert query_terms("..foo_").unigrams == ("foo",)
    # "a" and "b" are too short to be parts; the whole token still counts exactly.
    assert query_terms("a-b-cd").unigrams == ("cd", "a-b-cd")
    # Prose punctuation does not glue to a word.
    assert query_terms("(window);").unigrams == ("window",)


def test_pairs_cross_whitespace_but_skip_function_words():
    terms = query_terms("Rate LIMIT of the api")
    assert terms.unigrams[:2] == ("rate", "limit")
    assert "rate limit" in terms.bigrams
    assert not any("the" in b.split() or "of" in b.split() for b in terms.bigrams)


def test_stemming_joins_word_forms():
    assert stem("schedule") == stem("scheduling") == stem("scheduled") == stem("scheduler")
    graph = graph_of(Node("cron-jobs", "Jobs are scheduled nightly"), *filler(3))
    assert ids(search(graph, "scheduling")) == ["cron-jobs"]


def test_caps_hold_for_huge_queries():
    words = " ".join(f"w{i}x{i}" for i in range(900))  # ~5,000 would-be terms, under the char cap
    words = words[: C.QUERY_MAX_CHARS]
    terms = parse_query(words)
    assert len(terms.unigrams) == C.SEARCH_MAX_UNIGRAMS
    assert len(terms.bigrams) == C.SEARCH_MAX_BIGRAMS


# -- matching and ranking


def test_store_does_not_match_restore():
    graph = graph_of(
        Node("restore-backup", "How to restore from a snapshot"),
        Node("store-layout", "Where the store keeps its files"),
        *filler(3),
    )
    assert ids(search(graph, "store")) == ["store-layout"]


def test_field_weights_rank_id_over_gist_over_notes():
    # Ids sort against the expected order, so only the field weights can produce it.
    graph = graph_of(
        Node("a-in-notes", "nothing here", notes=("the widget broke",)),
        Node("zz-widget", "nothing here"),
        Node("m-in-gist", "a widget lives here"),
        Node("b-in-touches", "nothing here", touches=("src/widget.py",)),
        *filler(6),
    )
    hits = search(graph, "widget")
    # id ×3, gist ×2; notes and touches ×1 tie and fall back to id order.
    assert ids(hits) == ["zz-widget", "m-in-gist", "a-in-notes", "b-in-touches"]
    assert [h.title_match for h in hits] == [True, True, False, False]


def test_rrf_scores_follow_the_formula():
    graph = graph_of(
        Node("alpha", "rare word zebra and common word apple"),
        Node("beta", "common word apple apple"),
        Node("gamma", "nothing"),
        Node("delta", "nothing either"),
    )
    hits = {h.node_id: h for h in search(graph, "zebra apple")}
    n = 4
    zebra, apple = sharpened(base_idf(1, n)), sharpened(base_idf(2, n))
    # apple: beta holds it twice in its gist (count 4), alpha once (count 2).
    assert hits["alpha"].score == pytest.approx(zebra / 60 + apple / 61)
    assert hits["beta"].score == pytest.approx(apple / 60)
    assert list(hits) == ["alpha", "beta"]
    assert hits["alpha"].matched_terms == 2
    assert hits["alpha"].max_term_idf == pytest.approx(math.log(4) / math.log(4))
    assert hits["beta"].max_term_idf == pytest.approx(math.log(2) / math.log(4))


@pytest.mark.parametrize("size", [1, 2, 3])
def test_a_term_every_node_holds_still_finds_them_all(size):
    nodes = [Node("shared-in-id", "a gist"), Node("two", "shared in the gist"),
             Node("three", "a gist", notes=("shared in the notes",))][:size]
    hits = search(graph_of(*nodes), "shared")
    # Ranked by the rest of the score: id ×3 before gist ×2 before notes ×1.
    assert ids(hits) == [n.id for n in nodes]
    assert all(h.score > 0 for h in hits)


def test_a_term_every_node_holds_weighs_the_floor_and_never_outvotes_a_rare_one():
    assert base_idf(5, 5) == C.SEARCH_IDF_FLOOR > 0
    assert base_idf(9_990, 10_000) == C.SEARCH_IDF_FLOOR  # low, flat, never zero
    graph = graph_of(Node("alpha", "shared zebra"), Node("beta", "shared shared"), Node("gamma", "shared"))
    assert ids(search(graph, "shared zebra"))[0] == "alpha"


def test_single_node_graph_uses_idf_one():
    graph = graph_of(Node("only-node", "lonely gist"))
    (hit,) = search(graph, "lonely")
    assert hit.score == pytest.approx(1 / 60)


def test_rare_term_outranks_several_common_ones():
    nodes = [Node(f"n{i}", "deploy service config" if i < 5 else "other things") for i in range(20)]
    nodes.append(Node("kafka-lag", "consumer lag alarms"))
    hits = search(graph_of(*nodes), "deploy kafka")
    assert hits[0].node_id == "kafka-lag"


def test_bigram_needs_adjacency():
    graph = graph_of(
        Node("b-adjacent", "the rate limit applies per key"),
        Node("a-scattered", "limit applies when the rate is high"),
        *filler(4),
    )
    index = SearchIndex.build(graph)
    assert index.df("rate limit") == 1
    hits = rank(index, parse_query("rate limit"))
    # Equal unigram counts tie by id (a- first); only the adjacent pair lifts b- above it.
    assert ids(hits) == ["b-adjacent", "a-scattered"]
    word, pair = sharpened(base_idf(2, 6)), sharpened(base_idf(1, 6))
    assert hits[0].score == pytest.approx(2 * word / 61 + pair / 60)
    assert hits[1].score == pytest.approx(2 * word / 60)


def test_pair_does_not_bridge_two_notes():
    graph = graph_of(Node("split", "x", notes=("ends with rate", "limit starts this")), *filler(3))
    assert SearchIndex.build(graph).df("rate limit") == 0


def test_all_tiers_are_returned_and_flagged_seen():
    graph = graph_of(
        Node("active-quartz", "quartz"),
        Node("archived-quartz", "quartz", archived=True),
        Node("orphaned-quartz", "quartz", archived=True, orphaned_ts=5.0),
        *filler(3),
    )
    hits = search(graph, "quartz", seen=frozenset({"archived-quartz"}))
    assert set(ids(hits)) == {"active-quartz", "archived-quartz", "orphaned-quartz"}
    assert [h.node_id for h in hits if h.seen] == ["archived-quartz"]


def test_top_hits_is_a_prefix_of_rank_with_the_total():
    nodes = [
        Node(f"node-{i:02d}", "beacon " * (i % 4 + 1), notes=("lamp post",) if i % 3 else ())
        for i in range(30)
    ]
    nodes += [Node("lamp-post", "a lamp"), *filler(5)]
    index = SearchIndex.build(graph_of(*nodes))
    terms = parse_query("beacon lamp post")
    full = rank(index, terms)
    top, total = top_hits(index, terms, limit=7)
    assert top == full[:7]  # the per-hit and per-term bookkeeping agree
    assert total == len(full) == 31
    by_id = {h.node_id: h for h in full}
    assert (by_id["lamp-post"].matched_terms, by_id["lamp-post"].title_match) == (2, True)
    assert (by_id["node-01"].matched_terms, by_id["node-01"].title_match) == (3, True)
    assert (by_id["node-00"].matched_terms, by_id["node-00"].max_term_idf) == (1, pytest.approx(base_idf(30, 36)))


def test_merge_hits_orders_levels_by_score_and_keeps_best():
    user = [Hit("u1", 0.02, 1, 1.0, True), Hit("u2", 0.005, 1, 1.0, False)]
    project = [Hit("p1", 0.01, 1, 1.0, True), Hit("u2", 0.03, 1, 1.0, True)]
    merged = merge_hits({"user": user, "project": project})
    assert [(lvl, h.node_id) for lvl, h in merged] == [
        ("project", "u2"), ("user", "u1"), ("project", "p1"), ("user", "u2"),
    ]
    dup = merge_hits({"project": [Hit("p", 0.01, 1, 1.0, True), Hit("p", 0.04, 2, 1.0, True)]})
    assert [h.score for _, h in dup] == [0.04]


# -- the index stays equal to a fresh build

WORDS = ["alpha", "beta", "gamma", "delta", "rate", "limit", "store", "restore", "scheduling", "a.b-c"]
node_strategy = st.builds(
    Node,
    id=st.sampled_from(["n1", "n2", "n3", "rate-limit", "store-x", "y.z"]),
    gist=st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
    notes=st.lists(st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join), max_size=2).map(tuple),
    touches=st.lists(st.sampled_from(["src/a_b.py", "docs/rate.md"]), max_size=2).map(tuple),
)
edit_strategy = st.one_of(
    st.tuples(st.just("set"), node_strategy),
    st.tuples(st.just("del"), st.sampled_from(["n1", "n2", "n3", "rate-limit", "store-x", "y.z"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(node_strategy, max_size=5), st.lists(edit_strategy, max_size=12))
def test_incremental_index_equals_fresh_build(initial, edits):
    graph = graph_of(*initial)
    incremental = SearchIndex.build(graph)
    synced = SearchIndex.build(graph)
    queries = [parse_query(q) for q in ("rate limit", "store", "alpha beta scheduled", "a.b-c")]
    for op, arg in edits:
        for q in queries:  # fill the sort caches, so a stale one would show
            rank(incremental, q)
        if op == "set":
            graph.set_node(arg)
            incremental.update_node(arg)
        else:
            graph.del_node(arg)
            incremental.remove_node(arg)
        synced.sync(graph)
    fresh = SearchIndex.build(graph)
    for index in (incremental, synced):
        assert index.postings == fresh.postings
        assert set(index.nodes) == set(fresh.nodes)
        assert index.title_counts == fresh.title_counts
        # Counted for shared terms only (a lone holder's term reads its posting), and right for every term.
        assert all(index.postings.df(t) >= 2 for t in index.title_counts)
        assert all(index.title_holders(t) == sum(p & 1 for p in index.postings[t].values()) for t in index.postings)
        assert index.hub_namers == fresh.hub_namers
        for q in queries:
            assert rank(index, q) == rank(fresh, q)


# -- connections


def chain(names: list[str], rel: str = "leads-to") -> list[Edge]:
    return [Edge(a, b, rel) for a, b in zip(names, names[1:])]


def test_connection_path_through_connectors():
    names = ["a", "b", "c", "d"]
    graph = graph_of(*(Node(n, n) for n in names), edges=tuple(chain(names)))
    connectors, edges = connection_paths({"project": graph}, [("project", "a"), ("project", "d")])
    assert connectors == [("project", "b"), ("project", "c")]
    assert [e.key for _, e in edges] == [("a", "b", "leads-to"), ("b", "c", "leads-to"), ("c", "d", "leads-to")]


def test_connection_beyond_max_hops_is_not_shown():
    names = ["a", "b", "c", "d", "e", "f"]
    graph = graph_of(*(Node(n, n) for n in names), edges=tuple(chain(names)))
    assert connection_paths({"project": graph}, [("project", "a"), ("project", "f")]) == ([], [])
    assert connection_paths({"project": graph}, [("project", "a"), ("project", "e")])[1]


def test_a_hub_is_where_paths_meet_not_a_way_through():
    """A node of more than SEARCH_PATH_HUB_DEGREE edges: paths that reach it from both sides are
    shown; one that needs a walk past it (through all its neighbours) is not."""
    spokes = [Node(f"spoke-{i}", "s") for i in range(C.SEARCH_PATH_HUB_DEGREE)]
    names = ["a", "x", "y", "b"]
    graph = graph_of(Node("hub", "hub"), *spokes, *(Node(n, n) for n in names),
                     edges=(*(Edge("hub", n.id, "has") for n in spokes), Edge("a", "hub", "in"),
                            Edge("hub", "x", "has"), Edge("x", "b", "leads-to"), *chain(["x", "y"])))
    refs = {n: ("project", n) for n in ["hub", "a", "x", "y", "b", "spoke-0"]}
    # a-hub-x-b (3 hops): a reaches the hub, b reaches it through x.
    assert connection_paths({"project": graph}, [refs["a"], refs["b"]])[0] == [refs["hub"], refs["x"]]
    # a-hub-spoke: each side within its half. The hub itself a hit: one hop from it.
    assert connection_paths({"project": graph}, [refs["a"], refs["spoke-0"]])[0] == [refs["hub"]]
    assert connection_paths({"project": graph}, [refs["hub"], refs["b"]])[0] == [refs["x"]]
    # Two hubs as hits: neither walks, and the edge between them is still shown.
    spokes2 = [Node(f"spoke2-{i}", "s") for i in range(C.SEARCH_PATH_HUB_DEGREE)]
    for n in spokes2:
        graph.set_node(n)
        graph.set_edge(Edge("hub2", n.id, "has"))
    graph.set_node(Node("hub2", "hub two"))
    graph.set_edge(Edge("hub", "hub2", "sibling-of"))
    assert connection_paths({"project": graph}, [refs["hub"], ("project", "hub2")]) == (
        [], [("project", Edge("hub", "hub2", "sibling-of"))])
    # a-hub-x-y (3 hops) is found as a-hub-x then x-y; a-hub-x-y-... past the hub on both sides is not:
    graph.set_edge(Edge("y", "z", "leads-to"))
    graph.set_node(Node("z", "z"))
    assert connection_paths({"project": graph}, [refs["a"], ("project", "z")]) == ([], [])


def test_connections_skip_artifacts_and_self_loops():
    graph = graph_of(
        Node("a", "a"), Node("b", "b"),
        edges=(Edge("a", "src/x.py", "touches"), Edge("b", "src/x.py", "touches"), Edge("a", "a", "self")),
    )
    assert connection_paths({"project": graph}, [("project", "a"), ("project", "b")]) == ([], [])


def test_connection_crosses_from_project_to_user():
    user = graph_of(Node("u-hub", "user hub"), Node("u-leaf", "leaf"), edges=(Edge("u-hub", "u-leaf", "has"),),
                    kind="user")
    project = graph_of(Node("p-node", "project node"), edges=(Edge("p-node", "u-hub", "uses"),))
    graphs = {"user": user, "project": project}
    connectors, edges = connection_paths(graphs, [("project", "p-node"), ("user", "u-leaf")])
    assert connectors == [("user", "u-hub")]
    assert [(lvl, e.key) for lvl, e in edges] == [
        ("project", ("p-node", "u-hub", "uses")), ("user", ("u-hub", "u-leaf", "has")),
    ]


def bfs_distance(graph: GraphData, a: str, b: str) -> int | None:
    dist, queue = {a: 0}, deque([a])
    while queue:
        x = queue.popleft()
        for e in graph.incident(x):
            y = e.other(x)
            if y != x and y in graph.nodes and y not in dist:
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist.get(b)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=18), st.integers(1, 5))
def test_connection_path_is_a_shortest_path(pairs, max_hops):
    graph = graph_of(*(Node(f"n{i}", "x") for i in range(10)),
                     edges=tuple(Edge(f"n{a}", f"n{b}", "r") for a, b in pairs))
    connectors, edges = connection_paths({"p": graph}, [("p", "n0"), ("p", "n9")], max_hops)
    true = bfs_distance(graph, "n0", "n9")
    if true is None or true > max_hops:
        assert edges == [] and connectors == []
    else:
        assert len(edges) == true
        assert len(connectors) == max(true - 1, 0)
        # The edges form a walk from n0 to n9.
        at = "n0"
        for _, e in edges:
            at = e.other(at)
        assert at == "n9"


# -- reply format


def nodes_map(*graphs: tuple[str, GraphData]) -> dict:
    return {(lvl, n.id): n for lvl, g in graphs for n in g.nodes.values()}


def test_format_shape():
    graph = graph_of(
        Node("cache-keys", "Keys are hashed", notes=("collision seen in prod",)),
        Node("cache-ttl", "TTL is 5 minutes", archived=True),
        Node("link", "glue"),
        *filler(3),
        edges=(Edge("cache-keys", "link", "uses"), Edge("link", "cache-ttl", "sets")),
    )
    index = SearchIndex.build(graph)
    merged = merge_hits({"project": rank(index, parse_query("cache"), frozenset({"cache-ttl"}))})
    connectors, edges = connection_paths({"project": graph}, [("project", h.node_id) for _, h in merged[:5]])
    text, shown, _ = format_search("cache", merged, nodes_map(("project", graph)), connectors, edges)
    assert text == (
        "Found 2 match(es) for 'cache' — top 2:\n"
        "\n"
        "▸ cache-keys (project)\n"
        "  gist: Keys are hashed\n"
        "  notes:\n"
        "    - collision seen in prod\n"
        "\n"
        "▸ cache-ttl (project, archived, seen)\n"
        "  gist: TTL is 5 minutes\n"
        "\n"
        "CONNECTIONS between hits:\n"
        "  link: glue\n"
        "  cache-keys --uses--> link\n"
        "  link --sets--> cache-ttl"
    )
    assert shown == [("project", "cache-keys"), ("project", "cache-ttl"), ("project", "link")]


def test_format_no_match_and_best_effort():
    text, shown, _ = format_search("nothing", [], {}, best_effort=True)
    assert text == f"No nodes found matching 'nothing' {BEST_EFFORT}"
    assert shown == []
    graph = graph_of(Node("orphan-x", "quartz", orphaned_ts=1.0), *filler(2))
    merged = merge_hits({"user": search(graph, "quartz")})
    text, *_ = format_search("quartz", merged, nodes_map(("user", graph)), best_effort=True)
    assert text.splitlines()[0] == f"Found 1 match(es) for 'quartz' — top 1: {BEST_EFFORT}"
    assert "▸ orphan-x (user, orphaned)" in text


def big_result(notes_per_hit: int = 40, note_len: int = 60):
    """15 hits (5 top with many notes, 10 more) and a connector between the top ones."""
    nodes = [
        Node(f"hit-{i:02d}", f"gist of hit {i} about topic", notes=tuple(f"n{i}-{j} " + "x" * note_len
                                                                          for j in range(notes_per_hit)))
        for i in range(15)
    ]
    nodes.append(Node("connector", "bridges the hits"))
    edges = tuple(Edge(f"hit-{i:02d}", "connector", "via") for i in range(5))
    graph = graph_of(*nodes, edges=edges)
    hits = [Hit(f"hit-{i:02d}", 1.0 - i / 100, 1, 1.0, True) for i in range(15)]
    merged = merge_hits({"project": hits})
    connectors, path = connection_paths({"project": graph}, [("project", h.node_id) for _, h in merged[:5]])
    return merged, nodes_map(("project", graph)), connectors, path


def test_format_trims_more_matches_first():
    merged, nodes, connectors, path = big_result(notes_per_hit=2, note_len=10)
    full, *_ = format_search("topic", merged, nodes, connectors, path)
    assert "MORE MATCHES:" in full and "CONNECTIONS between hits:" in full
    text, shown, _ = format_search("topic", merged, nodes, connectors, path, budget=len(full) - 1)
    assert len(text) <= len(full) - 1
    assert "  hit-14: gist of hit 14 about topic" not in text  # the lowest one-liner went
    assert "  hit-13: gist of hit 13 about topic" in text
    assert "CONNECTIONS between hits:" in text
    assert ("project", "hit-14") not in shown and ("project", "hit-13") in shown
    # At exactly its own length nothing is trimmed: the size arithmetic is exact.
    assert format_search("topic", merged, nodes, connectors, path, budget=len(full))[0] == full


def test_format_cap_trims_more_then_connections_then_low_notes():
    merged, nodes, connectors, path = big_result()
    text, shown, _ = format_search("topic", merged, nodes, connectors, path)
    assert len(text) <= C.SEARCH_CHAR_BUDGET
    assert "MORE MATCHES:" not in text
    assert "CONNECTIONS between hits:" not in text
    assert ("project", "connector") not in shown
    assert shown == [("project", f"hit-{i:02d}") for i in range(5)]
    for i in range(5):  # top gists are never trimmed
        assert f"  gist: gist of hit {i} about topic" in text
    kept = [sum(line.startswith(f"    - n{i}-") for line in text.splitlines()) for i in range(5)]
    assert kept[0] == 40  # the best hit keeps all its notes
    assert kept == sorted(kept, reverse=True) and kept[-1] < 40  # lowest-ranked lose notes first
    assert "more note(s) — kg_read it" in text or "not shown — kg_read it" in text


def test_format_cap_holds_with_giant_gists_and_ids_the_lowest_gists_cut_first():
    # Spec 003: capped at 10,000 characters. Five gists at the 20,000-character limit went out whole.
    graph = graph_of(*[Node(f"hit-{i:02d}", f"gist {i} " + "g" * 19_990) for i in range(5)])
    merged = merge_hits({"project": [Hit(f"hit-{i:02d}", 1.0 - i / 100, 1, 1.0, True) for i in range(5)]})
    text, shown, cut = format_search("topic", merged, nodes_map(("project", graph)))
    assert len(text) <= C.SEARCH_CHAR_BUDGET and len(shown) == 5
    assert text.count("(gist cut to fit the reply: kg_read it)") == 5  # each says where the rest is
    assert cut == set(shown)  # in context, not seen whole: a rewrite built on the cut is refused
    cut = [len(line) for line in text.splitlines() if line.startswith("  gist: ")]
    assert cut == sorted(cut, reverse=True) and cut[-1] >= 300  # the best keeps the most
    # An id of 200,000 characters (a hand-edited file): cut at the cap, saying so.
    graph = graph_of(Node("x" * 200_000, "a gist"))
    merged = merge_hits({"project": [Hit("x" * 200_000, 1.0, 1, 1.0, True)]})
    text, shown, cut = format_search("topic", merged, nodes_map(("project", graph)))
    assert len(text) <= C.SEARCH_CHAR_BUDGET and text.endswith("kg_read the ids above for the rest)")
    assert cut == set(shown) == {("project", "x" * 200_000)}
    # Nothing cut: nothing flagged.
    graph = graph_of(Node("short-one", "a gist"))
    merged = merge_hits({"project": [Hit("short-one", 1.0, 1, 1.0, True)]})
    assert format_search("topic", merged, nodes_map(("project", graph)))[2] == frozenset()


def test_format_seen_hit_is_a_gist_reminder():
    merged, nodes, connectors, path = big_result(notes_per_hit=3, note_len=5)
    seen = [(lvl, attr_seen(h)) if i == 0 else (lvl, h) for i, (lvl, h) in enumerate(merged)]
    text, *_ = format_search("topic", seen, nodes, connectors, path)
    assert "▸ hit-00 (project, seen)\n  gist: gist of hit 0 about topic\n\n▸ hit-01" in text
    assert "n0-0" not in text


def attr_seen(hit: Hit) -> Hit:
    return Hit(hit.node_id, hit.score, hit.matched_terms, hit.max_term_idf, hit.title_match, True)


def test_format_reports_the_given_total():
    merged, nodes, connectors, path = big_result(notes_per_hit=1, note_len=5)
    text, *_ = format_search("topic", merged, nodes, connectors, path, total=1234)
    assert text.startswith("Found 1234 match(es) for 'topic' — top 5:\n\n▸ hit-00 (project)\n")


def test_format_echo_of_long_query_is_clipped():
    text, *_ = format_search("q" * 3000, [], {})
    assert len(text) < 300


# -- bad queries


@pytest.mark.parametrize("query", ["", "   \n\t", None, "- . _"])
def test_query_without_words_is_invalid(query):
    with pytest.raises(InvalidInput) as err:
        parse_query(query)
    assert err.value.field == "query"
    assert err.value.rule == "must contain at least one word"


# "b" and "c" alone are words now (plan b, C): an article and "I" are not, and the refusal says so.
@pytest.mark.parametrize("query", ["a", "I", "a I", "(a)"])
def test_a_query_of_words_too_common_to_search_is_refused_as_such(query):
    with pytest.raises(InvalidInput) as err:
        parse_query(query)
    assert err.value.field == "query" and err.value.rule.startswith("holds only words too common to search")


def test_a_letter_named_with_plus_plus_or_hash_is_a_term_of_its_own():
    assert parse_query("c++").unigrams == ("c++",)
    assert parse_query("(C#), F#.").unigrams == ("c#", "f#")
    assert parse_query("the C build").unigrams == ("the", "c", "build")


def test_query_over_the_char_cap_is_invalid():
    with pytest.raises(InvalidInput) as err:
        parse_query("word " * (C.QUERY_MAX_CHARS // 5 + 1))
    assert err.value.field == "query"
    parse_query("w" * C.QUERY_MAX_CHARS)  # exactly at the cap is fine


# -- write-time hints


def hint_graph() -> GraphData:
    nodes = [Node(f"topic-{i}", f"unrelated subject {i} covering gardening soil number {i}") for i in range(12)]
    nodes.append(Node("retry-backoff-policy", "HTTP retries use exponential backoff with jitter, capped at 30s"))
    return graph_of(*nodes)


def test_near_duplicate_found():
    graph = hint_graph()
    index = SearchIndex.build(graph)
    found = near_duplicate(index, graph, "retry-backoff-rules", "HTTP retries use exponential backoff with jitter")
    assert found is not None
    node_id, ratio = found
    assert node_id == "retry-backoff-policy" and ratio >= C.NEAR_DUPLICATE_RATIO
    hint = near_duplicate_hint(graph.nodes[node_id])
    assert hint.startswith("Similar existing node: 'retry-backoff-policy' — \"HTTP retries use")
    assert hint.endswith("instead of adding a near-duplicate.")


def test_near_duplicate_same_answer_whether_or_not_the_new_node_is_indexed():
    graph = hint_graph()
    before = near_duplicate(SearchIndex.build(graph), graph, "retry-backoff-rules", "HTTP retries use backoff")
    graph.set_node(Node("retry-backoff-rules", "HTTP retries use backoff"))
    after = near_duplicate(SearchIndex.build(graph), graph, "retry-backoff-rules", "HTTP retries use backoff")
    assert before is not None and before == pytest.approx(after)


def test_near_duplicate_in_steps_pauses_and_answers_as_in_one():
    graph = hint_graph()
    index = SearchIndex.build(graph)
    gist = "HTTP retries use exponential backoff with jitter, capped at thirty seconds for every client"
    steps = near_duplicate_steps(index, graph, "retry-backoff-rules", gist, per_step=3)
    pauses = 0
    while True:
        try:
            next(steps)
            pauses += 1
        except StopIteration as done:
            stepwise = done.value
            break
    assert pauses >= 3  # a probe of a dozen terms and more, three per step
    assert stepwise is not None and stepwise == near_duplicate(index, graph, "retry-backoff-rules", gist)


def test_near_duplicate_not_for_unrelated_or_small_graphs():
    graph = hint_graph()
    index = SearchIndex.build(graph)
    assert near_duplicate(index, graph, "css-grid-layout", "Grid areas name the page regions") is None
    # One shared word is not a duplicate.
    assert near_duplicate(index, graph, "jitter-in-animations", "Animations add jitter on slow GPUs") is None
    small = graph_of(*list(graph.nodes.values())[-5:])
    text = "HTTP retries use exponential backoff with jitter"
    assert near_duplicate(SearchIndex.build(small), small, "retry-backoff-rules", text) is None


def hub_graph(mentions: int = 8, others: int = 32, hub_id: str = "postgres-setup") -> GraphData:
    nodes = [Node(hub_id, "How the Postgres cluster is provisioned")]
    nodes += [Node(f"uses-db-{i}", f"service {i} stores rows in postgres") for i in range(mentions - 1)]
    nodes += [Node(f"misc-{i}", f"unrelated subject {i}") for i in range(others)]
    graph = graph_of(*nodes)
    graph.set_edge(Edge("uses-db-0", hub_id, "depends-on"))
    return graph


def test_hub_mention_found():
    graph = hub_graph()
    index = SearchIndex.build(graph)
    found = hub_mention(index, graph, "billing-ledger", "Ledger rows live in postgres with row locks")
    assert found == ("postgres", "postgres-setup")
    hint = hub_mention_hint("postgres", graph.nodes["postgres-setup"])
    assert hint == (
        "Graph already names 'postgres': 'postgres-setup' — \"How the Postgres cluster is provisioned\". "
        "Link to it (kg_put_edge) rather than re-describe it; keep this gist to what is NEW here."
    )


@pytest.mark.parametrize("product", ["redis", "helm", "kafka"])
def test_hub_mention_names_a_short_product_name(product):
    nodes = [Node(f"{product}-setup", f"How {product} is deployed here")]
    nodes += [Node(f"uses-it-{i}", f"service {i} goes through {product} for its work") for i in range(7)]
    nodes += [Node(f"misc-{i}", f"unrelated subject {i}") for i in range(32)]
    graph = graph_of(*nodes)
    graph.set_edge(Edge("uses-it-0", f"{product}-setup", "depends-on"))
    found = hub_mention(SearchIndex.build(graph), graph, "billing-ledger", f"Ledger events pass through {product} first")
    assert found == (product, f"{product}-setup")


def test_hub_mention_picks_best_connected_namer():
    graph = hub_graph()
    graph.set_node(Node("postgres-tuning", "postgres vacuum settings"))
    for i in range(3):
        graph.set_edge(Edge(f"misc-{i}", "postgres-tuning", "about"))
    index = SearchIndex.build(graph)
    assert hub_mention(index, graph, "billing-ledger", "rows in postgres") == ("postgres", "postgres-tuning")


def test_hub_mention_ties_go_to_the_first_id_and_edges_decide_first():
    graph = hub_graph()  # postgres-setup: one edge
    graph.set_node(Node("postgres-backups", "postgres backup schedule"))
    graph.set_edge(Edge("misc-0", "postgres-backups", "about"))  # one edge too, and first by id
    index = SearchIndex.build(graph)
    assert hub_mention(index, graph, "billing-ledger", "rows in postgres") == ("postgres", "postgres-backups")
    graph.set_node(Node("postgres-access", "postgres roles"))  # the new node, indexed before asking
    for i in range(3):
        graph.set_edge(Edge(f"misc-{i + 1}", "postgres-access", "about"))
    index = SearchIndex.build(graph)
    assert hub_mention(index, graph, "postgres-access", "who may read postgres") is None  # its own subject
    assert hub_mention(index, graph, "ledger-access", "rows in postgres") == ("postgres", "postgres-access")


@pytest.mark.parametrize(
    "mentions, others, hub_id",
    [
        (4, 40, "postgres-setup"),  # too few holders (< 6)
        (12, 20, "postgres-setup"),  # too many (> a quarter)
        (8, 32, "postgres-2024-05-01"),  # the only namer is dated
        (8, 32, "database-setup"),  # nobody's id names it
    ],
)
def test_hub_mention_needs_the_band_and_an_undated_namer(mentions, others, hub_id):
    graph = hub_graph(mentions, others, hub_id)
    index = SearchIndex.build(graph)
    assert hub_mention(index, graph, "billing-ledger", "Ledger rows live in postgres") is None


def test_hub_mention_ignores_the_new_nodes_own_subject():
    graph = hub_graph()
    index = SearchIndex.build(graph)
    assert hub_mention(index, graph, "postgres-ledger", "Ledger rows live in postgres") is None


def test_an_index_in_pieces_joins_back_to_the_same_index():
    """What index_process.py hands over a pipe: the skeleton, then the tables a few entries at a time."""
    graph = graph_of(*filler(30), Node("redis-cache", "redis cache eviction"), Node("cache-helm", "helm chart cache"))
    built, fresh = SearchIndex.build(graph), SearchIndex.build(graph)
    pieces = [pickle.loads(pickle.dumps(p)) for p in built.pieces(7)]
    assert len(pieces) > 5 and not built.postings  # handed over: the source is emptied
    joined = pieces[0]
    for piece in reversed(pieces[1:]):  # any order
        joined.take_piece(piece)
    joined.nodes = dict(graph.nodes)
    assert joined.postings == fresh.postings and joined.title_counts == fresh.title_counts
    assert joined.hub_namers == fresh.hub_namers and joined.families == fresh.families
    assert ids(rank(joined, parse_query("cache"), frozenset())) == ids(rank(fresh, parse_query("cache"), frozenset()))


def test_the_best_connected_namer_leaves_out_the_new_node_and_ids_not_in_the_graph():
    from kg_actors.core.hints import _best_connected
    graph = hub_graph()  # postgres-setup: one edge
    graph.set_node(Node("postgres-tuning", "postgres vacuum settings"))
    for i in range(3):
        graph.set_edge(Edge(f"misc-{i}", "postgres-tuning", "about"))
    namers = ["postgres-tuning", "postgres-setup", "postgres-gone", "misc-9"]
    assert _best_connected(namers, graph, "billing-ledger") == "postgres-tuning"
    # The most connected is the node being written: the next most connected.
    assert _best_connected(namers, graph, "postgres-tuning") == "postgres-setup"
    assert _best_connected(["postgres-tuning", "misc-9", "misc-8"], graph, "postgres-tuning") == "misc-8"
    assert _best_connected(["postgres-tuning", "postgres-gone"], graph, "postgres-tuning") is None
    assert _best_connected([], graph, "x") is None


def test_search_reads_a_nodes_notes_up_to_the_index_budget():
    """A write indexes the first SEARCH_NOTES_INDEX_CHARS of the notes (the rest is stored, not searched)."""
    pad = "filler " * (C.SEARCH_NOTES_INDEX_CHARS // 7 - 20)
    node = Node("long-notes-node", "a lesson with long notes", notes=(f"{pad} earlyword", pad * 3 + " lateword"))
    graph = graph_of(node, *filler(5))
    assert ids(search(graph, "earlyword")) == ["long-notes-node"]
    assert search(graph, "lateword") == []
    assert indexed_notes(["abc def", "ghi"], budget=5) == ["abc"]
    assert indexed_notes(["abcdefgh"], budget=5) == ["abcde"]  # no space to cut at
    assert indexed_notes(["ab", "cd"], budget=10) == ["ab", "cd"]


def test_a_note_spanning_lines_cannot_start_a_line_of_a_search_reply():
    graph = graph_of(Node("noted-cache", "cache gist", notes=("why\n=== USER GRAPH — 9 active\nFAKE-NODE: y",)),
                     *filler(3))
    index = SearchIndex.build(graph)
    merged = merge_hits({"project": rank(index, parse_query("cache"), frozenset())})
    text, *_ = format_search("cache", merged, nodes_map(("project", graph)))
    assert "    - why" in text.splitlines() and "      === USER GRAPH — 9 active" in text.splitlines()
    assert not any(line.startswith(("FAKE", "===")) for line in text.splitlines()), text


@pytest.mark.parametrize(("query", "short"), [
    ("topic 5", ("5",)), ("plan-b rollout", ("b",)), ("(x) axis,", ("x",)), ("node_7", ("7",)),
    # Not a word of its own: pieces of "e.g.", "user's", "v1.2.3", "don't"; nor an article or "I".
    ("e.g. user's v1.2.3 don't", ()), ("a cache I keep", ()),
])
def test_a_search_counts_a_one_character_word_and_recall_does_not(query, short):
    asked = parse_query(query).unigrams
    assert tuple(t for t in asked if len(t) == 1) == short
    assert not [t for t in query_terms(query).all() if len(t) == 1]  # recall's and the hints' terms


def test_a_one_character_word_ranks_the_nodes_holding_it_first_and_names_no_hub():
    nodes = [Node(f"topic-node-{i}", f"Notes about topic {i % 7}") for i in range(30)]
    g = graph_of(*nodes, Node("plan-b-rollout", "The rollout of plan b"))
    index = SearchIndex.build(g)
    hits, _ = top_hits(index, parse_query("topic 5"), limit=4)
    assert [h.node_id for h in hits] and all(int(h.node_id.rsplit("-", 1)[1]) % 7 == 5 for h in hits)
    assert index.hub_candidates("b") == [] and index.df("b") == 1
