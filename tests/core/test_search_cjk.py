"""Search in Chinese, Japanese and Korean (core/cjk.py): words inside unspaced text, and Korean words
with their particle, are found; a run of three characters or more is found only where it appears whole."""

from __future__ import annotations

import pytest

from kg_actors.core import constants as C, recall
from kg_actors.core.model import GraphData, Node
from kg_actors.core.search import SearchIndex, parse_query, rank

LESSONS = [
    Node("zh-db-migration", "我们的数据库迁移需要先备份生产环境", notes=("迁移脚本放在运维仓库里",)),
    Node("ja-migration-check", "本番のマイグレーションは事前にステージングで確認すること"),
    Node("ja-replication-lag", "レプリケーションの遅延は監視ダッシュボードで見る"),
    Node("ko-db-backup", "데이터베이스를 백업한 뒤에 스키마를 변경한다"),
    Node("en-cache-warmup", "warm the cache after migrations, never before"),
] + [Node(f"filler-{i}", f"unrelated topic number {i} about gardening") for i in range(20)]


def graph() -> GraphData:
    g = GraphData("project", "/home/u/proj")
    for node in LESSONS:
        g.set_node(node)
    return g


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex.build(graph())


def found(index: SearchIndex, query: str) -> list[str]:
    return [h.node_id for h in rank(index, parse_query(query))]


@pytest.mark.parametrize("query, node_id", [
    ("数据库", "zh-db-migration"),  # a Chinese word inside an unspaced sentence
    ("数据库迁移", "zh-db-migration"),
    ("运维仓库", "zh-db-migration"),  # in the notes
    ("マイグレーション", "ja-migration-check"),  # a katakana word between kanji and kana
    ("ステージング", "ja-migration-check"),
    ("マイグレーションの確認", "ja-migration-check"),  # a sentence-like query: its words, not its whole
    ("데이터베이스", "ko-db-backup"),  # the lesson says 데이터베이스를
    ("데이터베이스를", "ko-db-backup"),
    ("데이터베이스가", "ko-db-backup"),  # another particle on the same word
])
def test_a_word_inside_unspaced_text_or_with_a_particle_is_found(index, query, node_id):
    assert found(index, query)[:1] == [node_id]


@pytest.mark.parametrize("query, not_found", [
    ("コミュニケーション", "ja-migration-check"),  # shares ーション with マイグレーション: not the word
    ("アプリケーション", "ja-replication-lag"),  # shares ケーション with レプリケーション
    ("数据中心", "zh-db-migration"),  # 数据 is there, 数据中心 is not
])
def test_a_run_of_three_characters_or_more_must_appear_whole(index, query, not_found):
    assert not_found not in found(index, query)


def test_mixed_latin_and_cjk_in_one_token_counts_both(index):
    assert set(found(index, "cacheのマイグレーション")[:2]) == {"ja-migration-check", "en-cache-warmup"}


def test_a_query_of_only_hiragana_or_single_characters_has_no_word():
    with pytest.raises(Exception, match="query"):
        parse_query("のを")


def test_an_incremental_index_of_cjk_text_equals_a_fresh_build():
    g = GraphData("project", "/home/u/proj")
    index = SearchIndex.build(g)
    for node in LESSONS:
        g.set_node(node)
        index.update_node(node)
    index.remove_node("ko-db-backup")
    g.del_node("ko-db-backup")
    fresh = SearchIndex.build(g)
    assert {t: dict(index.postings[t]) for t in index.postings} == {t: dict(fresh.postings[t]) for t in fresh.postings}


@pytest.mark.parametrize("prompt, node_id", [
    ("本番環境でマイグレーションを実行する前に何を確認すべき？", "ja-migration-check"),
    ("데이터베이스를 백업한 뒤 스키마를 바꿔도 되나요?", "ko-db-backup"),
    ("数据库迁移，生产环境，备份？", "zh-db-migration")  # clauses: a run over six characters must appear whole,
])
def test_prompt_recall_finds_lessons_in_these_scripts(prompt, node_id):
    text = recall.human_text(prompt)
    assert text is not None
    decision = recall.run(recall.prompt_terms(text), {"project": (graph(), SearchIndex.build(graph()))}, frozenset())
    assert decision.reason == "injected" and decision.shown[:1] == (("project", node_id),)


def test_prompt_terms_of_cjk_text_are_its_words():
    assert recall.prompt_terms("マイグレーションの確認をお願いします") == ["マイグレーション", "確認"]
    assert recall.prompt_terms("PostgreSQL 데이터베이스를 백업") == ["PostgreSQL", "데이터베이스", "백업"]


def test_a_huge_paste_in_these_scripts_brings_few_short_terms():
    source = "我们的数据库迁移マイグレーション데이터베이스를"
    mixed = "".join(source[i * 7 % len(source)] for i in range(20_000))
    for paste in (mixed, "数据" * 10_000):
        terms = recall.prompt_terms(recall.human_text(paste) or "")
        assert len(terms) <= C.RECALL_MAX_TERMS and all(len(t) <= 24 for t in terms)
