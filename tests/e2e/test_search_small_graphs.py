"""Issue #12: every matching term counts in kg_search, even one every node of a small graph holds.

Through the official MCP client against a real `kg serve` whose user graph is
empty, so the project graph alone sets the IDF: in a graph of 1, 2 or 3 nodes
that all say "redis", `kg_search("redis")` finds every one of them, ranked by
where they say it (id ×3, gist ×2, notes ×1) and by the query's other terms.
"""

from __future__ import annotations

import re

import pytest
from e2e_helpers import Session, start_server


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("small"))
    yield server
    server.kill()


NODES = [
    ("redis-session-store", "sessions live in redis with a 24 h TTL", ["TTL set on every key"]),
    ("cache-warmup-order", "warm the cache after migrations", ["the cache is redis too"]),
    ("queue-eviction-policy", "the job queue uses redis noeviction", ["allkeys-lru dropped jobs"]),
]


def found_ids(text: str) -> list[str]:
    """Node ids in the order a kg_search reply lists its top hits."""
    return re.findall(r"^▸ ([a-z0-9][a-z0-9.\-_]*)", text, flags=re.M)


@pytest.mark.parametrize("size", [1, 2, 3])
async def test_a_word_every_node_holds_still_finds_them_all(srv, client, size):
    s = await Session.open(client, cwd=srv.project(f"small-{size}"))
    for node_id, gist, notes in NODES[:size]:
        await s.ok("kg_put_node", level="project", id=node_id, gist=gist, notes=notes)
    text = await s.ok("kg_search", query="redis")
    assert not text.startswith("No nodes found"), text
    assert f"Found {size} match(es) for 'redis'" in text
    hits = found_ids(text)
    assert set(hits) == {n[0] for n in NODES[:size]}
    if size >= 2:
        # Ranked by the rest of the score: "redis" in the id counts ×3, in the gist ×2, in notes ×1.
        assert hits[0] == "redis-session-store" and hits[-1] == "cache-warmup-order"


async def test_a_common_word_ranks_below_a_rarer_one_but_still_counts(srv, client):
    s = await Session.open(client, cwd=srv.project("small-mixed"))
    for node_id, gist, notes in NODES:
        await s.ok("kg_put_node", level="project", id=node_id, gist=gist, notes=notes)
    # "migrations" is one node's; "redis" everyone's: the rare term leads, the common one still finds the rest.
    hits = found_ids(await s.ok("kg_search", query="redis migrations"))
    assert hits[0] == "cache-warmup-order" and set(hits) == {n[0] for n in NODES}


CJK_NODES = [
    ("zh-db-migration", "我们的数据库迁移需要先备份生产环境", ["迁移脚本放在运维仓库里"]),
    ("ja-migration-check", "本番のマイグレーションは事前にステージングで確認すること", []),
    ("ko-db-backup", "데이터베이스를 백업한 뒤에 스키마를 변경한다", []),
    ("zh-deploy-rollback", "线上发布回滚流程：先用 helm rollback 回到上一个 revision", []),
    ("zh-pay-callback", "微信支付回调必须验证签名并返回 SUCCESS", []),
]


async def test_words_inside_unspaced_text_and_korean_words_with_a_particle_are_found(srv, client):
    s = await Session.open(client, cwd=srv.project("small-cjk"))
    for node_id, gist, notes in CJK_NODES:
        await s.ok("kg_put_node", level="project", id=node_id, gist=gist, notes=notes)
    for query, node_id in [("数据库", "zh-db-migration"), ("マイグレーションの確認", "ja-migration-check"),
                           ("데이터베이스", "ko-db-backup"), ("운영 데이터베이스가", "ko-db-backup")]:
        assert found_ids(await s.ok("kg_search", query=query))[:1] == [node_id], query
    # A run of three characters or more is found only where it appears whole.
    assert "ja-migration-check" not in found_ids(await s.ok("kg_search", query="コミュニケーション"))
    # A Chinese clause no lesson holds whole is found by the words of it the graph holds.
    for query, node_id in [("线上发布出问题了，回滚流程是什么？", "zh-deploy-rollback"), ("怎么回滚", "zh-deploy-rollback"),
                           ("支付回调验签", "zh-pay-callback")]:
        assert found_ids(await s.ok("kg_search", query=query))[:1] == [node_id], query
