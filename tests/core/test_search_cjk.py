"""Search in Chinese, Japanese and Korean (core/cjk.py): words inside unspaced text, and Korean words
with their particle, are found; a run of three characters or more is found only where it appears whole.
A Chinese clause in a query is cut into the words the graph holds (core/held_words.py)."""

from __future__ import annotations

import pytest

from kg_actors.core import cjk, constants as C, recall
from kg_actors.core.held_words import cut_terms
from kg_actors.core.model import GraphData, Node
from kg_actors.core.search import SearchIndex, parse_query, rank

LESSONS = [
    Node("zh-db-migration", "我们的数据库迁移需要先备份生产环境", notes=("迁移脚本放在运维仓库里",)),
    Node("ja-migration-check", "本番のマイグレーションは事前にステージングで確認すること"),
    Node("ja-replication-lag", "レプリケーションの遅延は監視ダッシュボードで見る"),
    Node("ko-db-backup", "데이터베이스를 백업한 뒤에 스키마를 변경한다"),
    Node("en-cache-warmup", "warm the cache after migrations, never before"),
    Node("zh-deploy-rollback", "线上发布回滚流程：先用 helm rollback 回到上一个 revision，再看数据库要不要降级"),
    Node("zh-csv-export-bom", "CSV 导出在 Excel 里中文乱码：文件开头要写 UTF-8 BOM"),
    Node("zh-fulltext-jieba", "中文全文搜索先用 jieba 分词，再写进 tsvector"),
    Node("zh-pay-callback", "微信支付回调必须验证签名并返回 SUCCESS，不然会重复通知"),
    Node("ja-zenkaku-hankaku", "全角と半角が混在する入力は NFKC で正規化してから比較する"),
    Node("zh-idempotency-key", "幂等键是什么：同一个请求重复提交只处理一次"),
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
    """kg_search's ranking: the query's Chinese runs cut into the words the graph holds."""
    return [h.node_id for h in rank(index, cut_terms(parse_query(query), (index,)))]


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
])
def test_a_run_of_three_characters_or_more_must_appear_whole(index, query, not_found):
    assert not_found not in found(index, query)


@pytest.mark.parametrize("query, node_id", [
    ("怎么回滚", "zh-deploy-rollback"),  # a question word glued to the word asked about
    ("导出乱码", "zh-csv-export-bom"),
    ("中文分词搜索", "zh-fulltext-jieba"),
    ("支付回调验签", "zh-pay-callback"),  # 验签 is held by no lesson: 支付回调 still finds it
    ("全角半角", "ja-zenkaku-hankaku"),  # kanji words apart in the lesson, together in the query
    ("线上发布出问题了，回滚流程是什么？", "zh-deploy-rollback"),
])
def test_a_chinese_run_not_held_whole_is_found_by_the_words_the_graph_holds(index, query, node_id):
    assert found(index, query)[:1] == [node_id]


def test_a_chinese_run_is_cut_greedily_into_held_stretches_without_filler():
    held = {"线上发布", "发布", "问题", "回滚流程", "回滚", "是什么", "什么"}.__contains__
    assert cjk.held_segments("线上发布出问题了", held) == ["线上发布", "问题"]
    assert cjk.held_segments("回滚流程是什么", held) == ["回滚流程"]  # 是什么 is held, and filler
    assert cjk.held_segments("回滚", held) == ["回滚"]  # a run held whole is its own one word
    assert cjk.held_segments("数据中心", held) == []


def test_a_question_of_filler_alone_finds_nothing_though_a_lesson_holds_it(index):
    assert "zh-idempotency-key" in found(index, "幂等键是什么")  # the word asked about finds it
    assert found(index, "这是什么") == []  # 是什么 alone: the lesson holds it, it asks about nothing
    decision = recall.run(recall.prompt_terms("这个到底是什么？"), {"project": (graph(), index)}, frozenset())
    assert decision.reason == "no_terms" and decision.text is None


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
    ("数据库迁移，生产环境，备份？", "zh-db-migration"),
    ("线上发布出问题了，回滚流程是什么？", "zh-deploy-rollback"),  # clauses of many words: the words held
    ("回滚流程是什么", "zh-deploy-rollback"),  # 回滚流程 is one term but two words: no one-word prompt
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
