"""Issue #5 end to end: the real hook scripts, fed recorded-shape payloads, against a real `kg serve`.

SessionStart preloads the compact core; UserPromptSubmit answers the full-read
reminder, then prompt recall or the hook's own pool line; PostToolUse answers
file recall or a capture nudge; other sessions' writes ride along. Claude Code
and Codex payloads go through the same scripts. One server serves the module;
each test works in its own project folder so tests do not see each other.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from hook_helpers import (
    CODEX_UA, HOOKS, VENV_BIN, Harness, hook_env, mcp_call, node, post, project_graph, recall_log, run_hook,
    user_graph,
)

from kg_actors.core import constants as C, recall
from kg_actors.core.recall import FULL_READ_REMINDER
from kg_actors.core.replies import nothing_to_print
from kg_actors.harness.profiles import CODEX_NO_HOOKS_HINT
from kg_actors.testing import ServerProcess, stored_sessions, write_store

FILES = ["src/auth.py", "src/clock.py", "src/billing.py", "src/limits.py", "src/cache.py", "src/queue.py",
         "src/mailer.py", "src/uncovered.py", "src/covered.py", "node_modules/lib/index.js", "README.md"]


# A level with no gist in view is refilled as it loads: a project whose lessons are archived for its recall to
# bring keeps one in view, as a level the compactor archived does.
IN_VIEW = node("changelog-kept-tidy", "a lesson in view: the changelog is kept tidy")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("hooks")
    server = ServerProcess(base)
    home = server.home
    projects = {}
    for name in ("recall-proj", "throttle-proj", "capture-proj", "codex-proj", "push-proj-a", "push-proj-b",
                 "silence-proj", "bad-proj", "cjk-proj", "paste-proj"):
        root = Path(server.project(name))
        for rel in FILES:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(f"# {rel}\n")
    recall_root = str(home / "recall-proj")
    projects["recall-proj"] = project_graph(recall_root, [
        node("auth-token-refresh", "JWT refresh uses a sliding window; silent failure if the session expired",
             touches=["src/auth.py:10-20 (refresh)"]),
        node("session-store-redis", "sessions live in redis with a 24 h TTL"),
        # Archived: not in the preload or the full read as gists, so recall has something new to bring.
        node("jwt-clock-skew", "JWT expiry checks allow 30 s of clock skew between servers",
             touches=["~/recall-proj/src/clock.py"], _archived=True),
        node("billing-retry-backoff", "billing retries back off exponentially, capped at 1 h",
             touches=[f"{recall_root}/src/billing.py"], _archived=True),
        node("rate-limit-window", "the rate limiter counts requests in a fixed 60 s window",
             touches=["src/limits.py#Limiter"], _archived=True),
        node("cache-warmup-order", "warm the cache after migrations, never before",
             touches=["./src/cache.py"], _archived=True),
        node("forgotten-orphan-node", "orphaned lesson about src/auth.py", touches=["src/auth.py"],
             _archived=True, _orphaned_ts=time.time() - 86_400),
    ], [("jwt-clock-skew", "auth-token-refresh", "refines")])
    throttle_root = str(home / "throttle-proj")
    projects["throttle-proj"] = project_graph(throttle_root, [
        node(f"file-lesson-{i}", f"lesson number {i} about its file", touches=[rel], _archived=True)
        for i, rel in enumerate(FILES[:6])] + [IN_VIEW])
    projects["capture-proj"] = project_graph(str(home / "capture-proj"), [
        node("covered-module-notes", "what covered.py is for", notes=["see src/covered.py for the details"])])
    projects["codex-proj"] = project_graph(str(home / "codex-proj"), [
        node("codex-queue-lesson", "the job queue drops jobs past 3 retries", touches=["src/queue.py"],
             _archived=True), IN_VIEW])
    projects["cjk-proj"] = project_graph(str(home / "cjk-proj"), [
        node("ja-redis-key-ttl", "Redis のセッションキーは TTL を 30 秒にして、期限切れはワーカーが掃除する",
             _archived=True),
        node("ko-alembic-migration", "Alembic 마이그레이션은 데이터베이스를 백업한 뒤에 실행한다", _archived=True),
        node("zh-deploy-freeze", "周五下午禁止发布生产环境", _archived=True),
        node("zh-deploy-rollback", "线上发布回滚流程：先用 helm rollback 回到上一个 revision", _archived=True),
        node("zh-mysql-emoji", "MySQL 的 utf8 只存三个字节，存表情符号要用 utf8mb4", _archived=True),
        node("ja-partner-csv-cp932", "取引先の CSV は Shift_JIS：UnicodeDecodeError が出たら encoding='cp932' で読み込む",
             _archived=True),
        node("ko-backup-restore", "데이터베이스 백업 복구 방법: pg_dump 덤프를 pg_restore 로 복구한다", _archived=True), IN_VIEW])
    projects["paste-proj"] = project_graph(str(home / "paste-proj"), [
        node("alembic-multiple-heads-merge", "alembic upgrade stops at 'Multiple head revisions are present': run "
             "alembic merge heads and commit the merge revision", _archived=True),
        node("alembic-env-database-url", "alembic reads the database url from the environment, not alembic.ini",
             _archived=True),
        node("alembic-enum-autogenerate", "alembic autogenerate misses new Postgres enum values: add them by hand",
             _archived=True), IN_VIEW])
    user = user_graph([node("prefer-small-commits", "commit one logical change at a time")])
    write_store(server.store, user, projects)
    server.start()
    yield server
    server.kill()


def sessions_on_disk(srv) -> set[str]:
    return set(stored_sessions(srv.store))


def records_for(srv, kg_sid: str) -> list[dict]:
    return [r for r in recall_log(srv) if r.get("kg_session") == kg_sid]


def test_a_prompt_holding_a_key_leaves_no_word_of_it_in_the_recall_log(srv):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    key = "AKIA" + "Q3EGRTY7ZK4PLM2X"
    h.prompt(f"the JWT refresh fails with my key {key} and password=Tr0ub4dor$3xQ, please fix it")
    h.prompt("how does the JWT refresh window work here")
    records = records_for(srv, h.kg_sid)
    assert [r["terms"] for r in records[-2:]][0] == ["<withheld>"]
    assert "refresh" in records[-1]["terms"]
    text = (srv.store / "recall.jsonl").read_text()
    assert key not in text and "Tr0ub4dor" not in text


def test_a_prompt_that_talks_of_credentials_without_giving_one_keeps_its_words_in_the_recall_log(srv):
    """Its search words are logged as any prompt's: only a secret given withholds them (a <private> block's
    words are cut before the search, the rest logged)."""
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    h.prompt("how do I rotate the staging database credentials")
    h.prompt("rotate the staging database keys")
    h.prompt("how do I reset the api key and password of the staging database")
    h.prompt("the staging database password is Kx9mQ2vLp4Zt, why does rotation fail")
    h.prompt("rotate the staging database <private>before the Initech audit</private> credentials")
    records = records_for(srv, h.kg_sid)[-5:]
    assert all("terms" in r for r in records), records
    talk, keys, reset, given, private = [r["terms"] for r in records]
    assert "credentials" in talk and "rotate" in talk, talk
    assert "keys" in keys and "rotate" in keys, keys
    assert "password" in reset and "staging" in reset, reset
    assert given == ["<withheld>"]
    assert "credentials" in private and not {"initech", "audit"} & set(map(str.lower, private)), private
    text = (srv.store / "recall.jsonl").read_text()
    assert "Kx9mQ2vLp4Zt" not in text and "Initech" not in text


def test_text_inside_private_in_a_prompt_is_neither_searched_nor_logged(srv):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    h.prompt("how does the JWT refresh window work <private>our client Globex is acquired by Initech</private>")
    record = records_for(srv, h.kg_sid)[-1]
    assert "refresh" in record["terms"] and not {"globex", "initech", "acquired"} & set(map(str.lower, record["terms"]))
    assert "Globex" not in (srv.store / "recall.jsonl").read_text()


# -- SessionStart and the full-read reminder ------------------------------------------------


def test_session_start_preloads_and_the_prompt_hook_reminds_until_the_full_read(srv):
    h = Harness(srv, srv.project("recall-proj"))
    run = h.start()
    assert run.rc == 0 and h.kg_sid
    assert run.json["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert run.context.startswith("KG MEMORY PRELOADED") and "PARTIAL" in run.context
    assert "auth-token-refresh: JWT refresh uses a sliding window" in run.context
    assert "prefer-small-commits: commit one logical change at a time" in run.context
    assert "I have recalled KG Memories" in run.context and "only after that read" in run.context
    assert run.message.startswith("kg memory: preloaded") and h.kg_sid in run.message and "\n" not in run.message
    for _ in range(2):
        assert h.prompt("how does the JWT refresh window work here").is_reminder
    full = h.full_read()
    assert "auth-token-refresh" in full and "JWT refresh uses a sliding window" not in full  # not repeated
    after = h.prompt("how does the JWT refresh window work here")
    assert not after.is_reminder
    reasons = [r["reason"] for r in records_for(srv, h.kg_sid)]
    assert reasons[:2] == ["full_read_nudge", "full_read_nudge"] and len(reasons) == 3


def test_prompt_recall_injects_unseen_gists_with_anchors_and_edges_then_falls_silent(srv):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    run = h.prompt("why does the JWT refresh fail when expiry checks see clock skew between servers")
    text = run.context
    assert run.json["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert text.startswith("KG recall — memory matching this prompt:")
    assert "- [project] jwt-clock-skew: JWT expiry checks allow 30 s of clock skew between servers" in text
    assert "- [project] auth-token-refresh (in context)" in text  # preloaded: an anchor, not its gist again
    assert "jwt-clock-skew --refines--> auth-token-refresh" in text
    assert len(text) <= C.RECALL_CHAR_BUDGET
    # The same question again: nothing new, so the server is silent and the hook speaks from its pool.
    again = h.prompt("why does the JWT refresh fail when expiry checks see clock skew between servers")
    assert again.is_pool_line
    # Not a prompt: a task notification, an image, a dragged path.
    for prompt in ["<task-notification><status>completed</status>billing retries done</task-notification>",
                   "[Image #1]", f"{h.cwd}/src/billing.py"]:
        assert h.prompt(prompt).is_pool_line
    reasons = [r["reason"] for r in records_for(srv, h.kg_sid)]
    assert reasons == ["injected", "all_seen", "not_a_prompt", "not_a_prompt", "not_a_prompt"]
    injected = records_for(srv, h.kg_sid)[0]
    assert injected["claude_session"] == h.sid and injected["project"] == h.cwd
    assert "prompt" not in injected and "skew" in injected["terms"]  # terms are logged, never the prompt
    assert {hit["id"] for hit in injected["hits"]} >= {"jwt-clock-skew"}


def test_a_gist_is_injected_once_per_session_and_other_sessions_get_their_own(srv):
    one, two = Harness(srv, srv.project("recall-proj")), Harness(srv, srv.project("recall-proj"))
    for h in (one, two):
        h.start()
        h.full_read()
    assert "rate-limit-window: the rate limiter" in one.prompt("how does the rate limiter window count requests").context
    follow = one.prompt("the rate limiter window: requests counted per minute?")
    assert "rate-limit-window: the rate limiter" not in follow.context
    assert "rate-limit-window: the rate limiter" in two.prompt("rate limiter window counting requests").context


def test_a_request_for_general_know_how_asks_the_words_for_more_and_the_model_decides(srv):
    # The rate limiter's lesson shares two words with both prompts; asked as general know-how
    # ("Explain ..."), that is not enough for the gates (core/asks.py), asked as the project's work it is.
    # Where the gates choose nothing, recall_gate's model may still bring its likeliest candidate: on the blind
    # memories of bench/ it brings a general request's lesson rightly about twice as often as wrongly
    # (bench/RESULTS-recall.md, pre-registration 28), and this one it thinks likely (two words and their sense).
    asked = {}
    for prompt in ("Explain window functions for rate calculations", "our rate calculations use the wrong window"):
        h = Harness(srv, srv.project("recall-proj"))
        h.start()
        h.full_read()
        asked[prompt] = (h.prompt(prompt), records_for(srv, h.kg_sid)[-1])
    general, record = asked["Explain window functions for rate calculations"]
    bar = recall.multi_bar(C.RECALL_CHANCE_FREE_WORDS)[0]
    assert record["threshold"] == pytest.approx(bar * C.RECALL_GENERAL_ASK_SCALE)
    hit = next(h for h in record["hits"] if h["id"] == "rate-limit-window")
    assert bar <= hit["score"] < record["threshold"], hit  # enough for the project's work, not for general know-how
    assert record["reason"] == "injected" and hit["p"] >= C.RECALL_GATE_BRING, hit  # the model's pick, logged
    assert "rate-limit-window: the rate limiter" in general.context
    situated, record = asked["our rate calculations use the wrong window"]
    assert "rate-limit-window: the rate limiter" in situated.context and record["reason"] == "injected"
    hit = next(h for h in record["hits"] if h["id"] == "rate-limit-window")
    assert C.RECALL_GATE_VETO <= hit["p"] <= 1, hit  # the model's probability, logged; the hit stood
    assert hit["like"] > 0.3, hit  # the server read the shipped meaning table, and the model read it: alike, it stood
    assert record["threshold"] == pytest.approx(recall.multi_bar(C.RECALL_CHANCE_FREE_WORDS)[0])  # a prompt of few words


def test_a_task_to_carry_out_asks_its_hits_for_more_than_a_symptom(srv):
    # "Add ..." tells the agent what to change: its bar is RECALL_TASK_ASK_SCALE times a symptom's (core/asks.py).
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    h.prompt("Add a rate calculations window to the admin page")
    record = records_for(srv, h.kg_sid)[-1]
    assert record["threshold"] == pytest.approx(recall.multi_bar(C.RECALL_CHANCE_FREE_WORDS)[0] * C.RECALL_TASK_ASK_SCALE), record


def test_a_pastes_identifiers_bring_the_lesson_they_name_once_a_line_was_typed(srv):
    # The typed line names nothing; the pasted code's names (`billing_retry_backoff`, `backoff_cap_hours`) name
    # the archived lesson.
    paste = "    policy = billing_retry_backoff(attempt=7, backoff_cap_hours=1)\n    return policy\n"
    typed = Harness(srv, srv.project("recall-proj"))
    typed.start()
    typed.full_read()
    run = typed.prompt("why does this job wait a whole hour before it runs again?\n\n" + paste)
    assert "- [project] billing-retry-backoff: billing retries back off exponentially" in run.context
    # The same paste with nothing typed around it earns no recall (the typed words must come first).
    bare = Harness(srv, srv.project("recall-proj"))
    bare.start()
    bare.full_read()
    assert bare.prompt(paste).is_pool_line
    assert records_for(srv, bare.kg_sid)[-1]["reason"] == "not_a_prompt"  # nothing typed: not a person's prompt


def test_claude_codes_shell_output_records_earn_no_recall(srv):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    for record in ["<bash-input>grep -rn backoff src/billing.py</bash-input>",
                   "<bash-stdout>billing retries back off exponentially, capped at 1 h</bash-stdout><bash-stderr>"
                   "</bash-stderr>",
                   "<bash-stdout></bash-stdout><bash-stderr>billing retries back off exponentially: why capped at"
                   " 1 h?</bash-stderr>",
                   "<local-command-stdout>billing retries back off exponentially, capped at 1 h</local-command-stdout>"]:
        assert "KG recall" not in h.prompt(record).context
    assert {r["reason"] for r in records_for(srv, h.kg_sid)} == {"not_a_prompt"}
    # What the person types next about the same thing is recalled.
    assert "billing-retry-backoff" in h.prompt("why do billing retries back off exponentially?").context


@pytest.mark.parametrize("prompt, node_id", [
    ("Redis の TTL を 30 秒にしたのにセッションキーが消えない", "ja-redis-key-ttl"),
    ("Alembic 마이그레이션 전에 데이터베이스를 어떻게 해야 하나요?", "ko-alembic-migration"),
    ("周五下午，发布生产环境？", "zh-deploy-freeze"),
    ("线上发布出问题了，回滚流程是什么？", "zh-deploy-rollback"),  # clauses no lesson holds whole: their words
    # Short prompts typed without punctuation are prompts, not pasted output:
    ("回滚流程是什么", "zh-deploy-rollback"),
    ("MySQL存表情符号报错了", "zh-mysql-emoji"),
    ("取引先のCSVを読み込むとUnicodeDecodeErrorが出て文字化けします", "ja-partner-csv-cp932"),
    ("UnicodeDecodeError on partner CSV", "ja-partner-csv-cp932"),
    ("백업 복구 방법", "ko-backup-restore"),
])
def test_a_prompt_in_japanese_korean_or_chinese_recalls_its_lesson(srv, prompt, node_id):
    h = Harness(srv, srv.project("cjk-proj"))
    h.start()
    h.full_read()
    context = h.prompt(prompt).context
    # Failed once in CI (the reminder instead of the lesson), not reproduced: the recall log's record says why.
    assert f"- [project] {node_id}: " in context, (context, records_for(srv, h.kg_sid)[-1:])


def test_a_question_naming_nothing_above_a_log_borrows_its_error_message(srv):
    h = Harness(srv, srv.project("paste-proj"))
    h.start()
    h.full_read()
    log = ("INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\n"
           "ERROR [alembic.util.messaging] Multiple head revisions are present for given argument 'head'; please "
           "specify a specific target revision\n  FAILED: Multiple head revisions are present")
    assert "- [project] alembic-multiple-heads-merge: " in h.prompt(f"why does this fail?\n\n{log}").context
    # The log alone, nothing typed: still no recall.
    bare = Harness(srv, srv.project("paste-proj"))
    bare.start()
    bare.full_read()
    assert "KG recall" not in bare.prompt(log).context


def test_unknown_sessions_get_nothing_and_leave_no_record(srv):
    before = len(recall_log(srv))
    stranger = Harness(srv, srv.project("recall-proj"))  # never started: no KG session is bound to it
    assert stranger.prompt("why do JWT expiry checks fail with clock skew").is_pool_line
    assert stranger.read(f"{stranger.cwd}/src/clock.py").out == ""
    assert len(recall_log(srv)) == before


@pytest.mark.parametrize("drop", ["session_id", "prompt"])
def test_a_prompt_payload_without_its_session_id_or_prompt_gets_nothing(srv, drop):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()  # no full read yet: a prompt would get the full-read reminder
    payload = {**h._base("UserPromptSubmit"), "prompt": "why do JWT expiry checks fail with clock skew"}
    del payload[drop]
    before = len(recall_log(srv))
    run = run_hook("prompt", payload, h.env)
    assert run.rc == 0 and run.out == ""  # neither the reminder nor a line of the pool
    r = post(srv, "/api/prompt_context", payload)
    assert r.status_code == 200 and r.json() != {} and "hookSpecificOutput" not in r.json()
    assert len(recall_log(srv)) == before
    assert h.prompt("why do JWT expiry checks fail with clock skew").is_reminder  # the session itself still is


# -- PostToolUse: file recall ---------------------------------------------------------------


@pytest.mark.parametrize("rel, node_id, form", [
    ("src/clock.py", "jwt-clock-skew", "~ touch"),
    ("src/billing.py", "billing-retry-backoff", "absolute touch"),
    ("src/limits.py", "rate-limit-window", "anchor touch"),
    ("src/cache.py", "cache-warmup-order", "./relative touch"),
])
def test_file_recall_matches_every_touch_form(srv, rel, node_id, form):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    run = h.read(f"{h.cwd}/{rel}")
    assert run.json["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert run.context.startswith(f"KG memory on {rel}:"), form
    assert f"- [project] {node_id}: " in run.context
    assert len(run.context) <= C.FILE_RECALL_CHAR_BUDGET
    assert h.read(f"{h.cwd}/{rel}").out == ""  # seen now: never shown again here
    outcomes = [r["outcome"] for r in records_for(srv, h.kg_sid) if r["reason"] == "file_recall"]
    assert outcomes == ["injected", "all_seen"]


def test_file_recall_for_edits_relative_paths_shell_reads_and_patches(srv):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    assert "jwt-clock-skew" in h.tool("Edit", {"file_path": "src/clock.py", "old_string": "a", "new_string": "b"}).context
    assert "billing-retry-backoff" in h.tool("MultiEdit", {"file_path": f"{h.cwd}/src/billing.py", "edits": []}).context
    assert "rate-limit-window" in h.shell("sed -n '1,40p' src/limits.py | head -5").context
    h2 = Harness(srv, srv.project("recall-proj"))
    h2.start()
    patch = "*** Begin Patch\n*** Update File: src/cache.py\n@@\n-a\n+b\n*** End Patch"
    assert "cache-warmup-order" in h2.tool("apply_patch", {"input": patch}).context
    assert h2.shell("sed -i 's/a/b/' src/clock.py").out == ""  # an edit through sed is no read
    assert h2.shell("cd src && cat clock.py").out == ""  # the directory moved: unknown
    # The preloaded lesson on src/auth.py is seen; the orphaned one is not, and comes with the Write.
    wrote = h2.tool("Write", {"file_path": f"{h2.cwd}/src/auth.py", "content": "x"}).context
    assert "forgotten-orphan-node" in wrote and "auth-token-refresh" not in wrote


def test_file_recall_reaches_an_orphaned_lesson_and_leaves_it_orphaned(srv):
    # No preload or full read shows an orphaned lesson: a read of the file it names is where it can come back.
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    run = h.read(f"{h.cwd}/src/auth.py")
    assert run.context.startswith("KG memory on src/auth.py:")
    assert "- [project] forgotten-orphan-node: orphaned lesson about src/auth.py" in run.context
    assert "auth-token-refresh" not in run.context  # preloaded: seen
    assert h.read(f"{h.cwd}/src/auth.py").out == ""  # seen now
    outcomes = [(r["outcome"], r.get("nodes")) for r in records_for(srv, h.kg_sid) if r["reason"] == "file_recall"]
    assert outcomes[0] == ("injected", ["forgotten-orphan-node"])
    # Shown, not promoted: search still finds it orphaned.
    assert "▸ forgotten-orphan-node (project, orphaned, seen)" in h.mcp("kg_search", query="forgotten orphan node")


def test_file_recall_allows_three_injections_per_ten_minutes(srv):
    h = Harness(srv, srv.project("throttle-proj"))
    h.start()
    got = [h.read(f"{h.cwd}/{rel}").context for rel in FILES[:5]]
    assert [bool(t) for t in got] == [True, True, True, False, False]
    outcomes = [r["outcome"] for r in records_for(srv, h.kg_sid) if r["reason"] == "file_recall"]
    assert outcomes == ["injected"] * 3 + ["throttled"] * 2
    # Throttled nodes stay unseen: another session still gets them.
    other = Harness(srv, srv.project("throttle-proj"))
    other.start()
    assert "file-lesson-3" in other.read(f"{other.cwd}/{FILES[3]}").context


def test_parallel_hooks_of_one_turn_show_a_gist_once_and_keep_the_file_recall_window(srv):
    """Claude Code runs a turn's Read calls in parallel, so their PostToolUse hooks overlap: each decided from
    the same seen set and each injected the same gist (9 times in 10), and 5 of 8 parallel reads passed a
    window of 3."""
    from concurrent.futures import ThreadPoolExecutor

    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    with ThreadPoolExecutor(6) as pool:
        shown = list(pool.map(lambda _: h.read(f"{h.cwd}/src/clock.py").context, range(6)))
    assert sum("- [project] jwt-clock-skew: " in text for text in shown) == 1, shown
    t = Harness(srv, srv.project("throttle-proj"))
    t.start()
    with ThreadPoolExecutor(6) as pool:
        shown = list(pool.map(lambda rel: t.read(f"{t.cwd}/{rel}").context, FILES[:6]))
    assert sum(bool(text) for text in shown) == 3, shown


# -- PostToolUse: capture nudges ------------------------------------------------------------------


def test_a_file_read_in_a_second_session_that_nothing_mentions_earns_one_nudge(srv):
    cwd = srv.project("capture-proj")
    first, second, third = (Harness(srv, cwd) for _ in range(3))
    for h in (first, second, third):
        h.start()
    target = f"{cwd}/src/uncovered.py"
    assert first.read(target).out == ""  # a first read never nudges
    assert first.read(target).out == ""  # nor does the same session again
    nudge = second.read(target).context
    assert nudge.startswith("KG capture: 'src/uncovered.py' — read in 2 distinct sessions now")
    assert f"session_id='{second.kg_sid}'" in nudge and "touches=['src/uncovered.py']" in nudge
    assert third.read(target).out == ""  # one per target per day
    # A file a node mentions is covered; a transient path never counts.
    for rel in ("src/covered.py", "node_modules/lib/index.js"):
        first.read(f"{cwd}/{rel}")
        assert third.read(f"{cwd}/{rel}").out == "", rel
    # Nudges are not recall decisions: recall.jsonl has none.
    assert not any("KG capture" in json.dumps(r) or r.get("reason") == "capture" for r in recall_log(srv))


def test_a_url_fetched_twice_earns_a_nudge(srv):
    h = Harness(srv, srv.project("capture-proj"))
    h.start()
    url = "https://docs.example.org/trio/reference-core.html#trio.testing.MockClock"
    assert h.tool("WebFetch", {"url": url, "prompt": "autojump?"}, {"result": "…"}).out == ""
    nudge = h.tool("WebFetch", {"url": url, "prompt": "autojump threshold?"}, {"result": "…"}).context
    # Counted and named without its fragment or query (`#access_token=`, `?code=` are kept nowhere).
    assert nudge.startswith(f"KG capture: '{url.split('#')[0]}' — fetched 2 times now")
    # The session's next nudge waits 10 minutes: a repeated search says nothing now.
    for _ in range(2):
        assert h.tool("WebSearch", {"query": "Trio MockClock autojump"}, {"results": []}).out == ""


def test_transient_paths_outside_home_never_count(srv, tmp_path):
    outside = tmp_path / "scratch.txt"
    outside.write_text("x")
    cwd = srv.project("capture-proj")
    a, b = Harness(srv, cwd), Harness(srv, cwd)
    for h in (a, b):
        h.start()
        assert h.read(str(outside)).out == ""
        assert h.read("/etc/hostname").out == ""


# -- Codex ---------------------------------------------------------------------------------


def test_a_codex_session_without_a_transcript_is_still_codex(srv):
    """Codex's schema allows `"transcript_path": null` (Claude Code always sends one): its preload is still
    sized in Codex's bytes, and the session is Codex's."""
    sid = str(uuid.uuid4())
    run = run_hook("session_start", {"session_id": sid, "transcript_path": None, "cwd": srv.project("codex-proj"),
                                     "hook_event_name": "SessionStart", "model": "gpt-5.1-codex",
                                     "permission_mode": "default", "source": "startup"}, hook_env(srv))
    assert run.context.startswith("KG MEMORY PRELOADED")
    records = stored_sessions(srv.store)
    assert [r.get("harness") for r in records.values() if r.get("claude_sid") == sid] == ["codex"]


def test_codex_sessions_count_shell_reads_and_measure_in_bytes(srv):
    cwd = srv.project("codex-proj")
    codex = Harness(srv, cwd, kind="codex")
    run = codex.start()
    assert run.context.startswith("KG MEMORY PRELOADED") and codex.kg_sid
    assert len(run.context.encode()) <= 9_000
    # Codex reads through its shell: an absolute operand, or a relative one with an explicit workdir.
    read = codex.shell(f"cat {cwd}/src/queue.py")
    assert "KG memory on src/queue.py:" in read.context and "codex-queue-lesson" in read.context
    # A relative operand without a known directory is skipped (Codex's hook cwd is not trusted for the shell).
    codex2 = Harness(srv, cwd, kind="codex")
    codex2.start()
    assert codex2.shell("cat src/queue.py").out == ""
    assert "codex-queue-lesson" in codex2.tool("shell", {"command": ["bash", "-lc", "cat src/queue.py"],
                                                          "workdir": cwd}).context
    # Or when the rollout holds the exact record of the completed call, with its directory.
    codex3 = Harness(srv, cwd, kind="codex")
    codex3.start()
    call, turn = f"call_{uuid.uuid4().hex[:12]}", str(uuid.uuid4())
    with open(codex3.transcript, "a") as f:
        f.write(json.dumps({"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg", "payload": {
            "type": "item_completed", "thread_id": codex3.sid, "turn_id": turn,
            "item": {"type": "CommandExecution", "id": call, "command": "cat src/queue.py", "cwd": cwd,
                     "status": "completed"}}}) + "\n")
    assert codex3.shell("cat src/queue.py").out == ""  # another call id: no evidence
    assert "codex-queue-lesson" in codex3.tool("Bash", {"command": "cat src/queue.py"}, tool_use_id=call,
                                                turn_id=turn).context
    # Under Codex a shell read counts toward capture: a second Codex session reading the same file.
    codex.shell(f"nl -ba {cwd}/src/mailer.py")
    nudge = codex2.shell(f"head -50 {cwd}/src/mailer.py").context
    assert nudge.startswith("KG capture: 'src/mailer.py' — read in 2 distinct sessions now")


def test_a_rollout_file_anywhere_marks_codex(srv):
    cwd = srv.project("codex-proj")
    elsewhere = srv.home / "work" / "logs"
    elsewhere.mkdir(parents=True, exist_ok=True)
    a, b = (Harness(srv, cwd, kind="codex", transcript=elsewhere / f"rollout-2026-11-30T11-00-00-{uuid.uuid4()}.jsonl")
            for _ in range(2))
    for h in (a, b):
        h.transcript.write_text("")
        assert len(h.start().context.encode()) <= 9_000
    assert a.shell(f"cat {cwd}/src/auth.py").out == ""
    assert b.shell(f"cat {cwd}/src/auth.py").context.startswith("KG capture: 'src/auth.py'")  # Codex: a read


def test_claude_shell_reads_are_recall_only_never_capture(srv):
    cwd = srv.project("capture-proj")
    a, b = Harness(srv, cwd), Harness(srv, cwd)
    for h in (a, b):
        h.start()
        assert h.shell(f"cat {cwd}/README.md").out == ""


def test_codex_kg_read_hints_until_a_codex_hook_reaches_the_server(srv):
    fresh = srv.project("codex-hint-proj")
    text = mcp_call(srv, "kg_read", {"cwd": fresh}, CODEX_UA)
    assert CODEX_NO_HOOKS_HINT in text
    assert CODEX_NO_HOOKS_HINT not in mcp_call(srv, "kg_read", {"cwd": fresh})  # Claude Code: no hint
    Harness(srv, fresh, kind="codex").start()
    assert CODEX_NO_HOOKS_HINT not in mcp_call(srv, "kg_read", {"cwd": fresh}, CODEX_UA)


# -- pushes ------------------------------------------------------------------------------------


def test_other_sessions_writes_ride_along_once_each_at_most_three(srv):
    cwd = srv.project("push-proj-a")
    reader, writer = Harness(srv, cwd), Harness(srv, cwd)
    for h in (reader, writer):
        h.start()
    reader.full_read()
    for i in range(5):
        writer.mcp("kg_put_node", level="project", id=f"pushed-lesson-{i}", gist=f"pushed gist number {i}")
    run = reader.prompt("zzz unrelated words here please")
    text = run.context
    assert text.startswith("While you worked, other sessions wrote to this memory:")
    shown = [line for line in text.splitlines() if line.startswith("- pushed-lesson-")]
    assert shown == [f"- pushed-lesson-{i} (new): pushed gist number {i}" for i in (4, 3, 2)]
    assert "+2 more — kg_sync(session_id) lists them." in text
    # Each change is pushed once: the next reply has nothing (the hook falls back to its pool).
    assert reader.prompt("zzz unrelated words here please").is_pool_line
    # A tool reply carries the next write; the writer never hears about its own.
    writer.mcp("kg_put_node", level="project", id="pushed-lesson-4", gist="pushed gist number 4, revised")
    tool = reader.tool("Grep", {"pattern": "x", "path": cwd}, {"filenames": []})
    assert "- pushed-lesson-4 (updated): pushed gist number 4, revised" in tool.context  # it saw the first
    assert writer.prompt("zzz unrelated words here please").is_reminder  # the writer: only its own reminder


def test_a_gist_the_reply_recalls_is_not_pushed_in_the_same_reply(srv):
    cwd = srv.project("push-proj-once")
    reader, writer = Harness(srv, cwd), Harness(srv, cwd)
    for h in (reader, writer):
        h.start()
    reader.full_read()
    writer.mcp("kg_put_node", level="project", id="quokka-retry-budget",
               gist="Quokka retry budget caps retries at five per minute per tenant")
    text = reader.prompt("what is the quokka retry budget per tenant?").context
    assert text.count("Quokka retry budget caps retries") == 1, text
    # File recall, the same: a lesson written meanwhile on the file just read.
    writer.mcp("kg_put_node", level="project", id="ceramic-loader-step", gist="the ceramic loader reads its steps in order",
               touches=["src/ceramic_loader.py"])
    source = Path(cwd) / "src" / "ceramic_loader.py"
    source.parent.mkdir(exist_ok=True)
    source.write_text("steps = []\n")
    text = reader.read(str(source)).context
    assert text.count("the ceramic loader reads its steps in order") == 1, text


def test_maintenance_writes_are_never_pushed(srv):
    cwd = srv.project("push-proj-a")
    reader, maint = Harness(srv, cwd), Harness(srv, cwd)
    for h in (reader, maint):
        h.start()
    reader.full_read()
    maint.mcp("kg_read", maintenance=True)
    maint.mcp("kg_put_node", level="project", id="maintained-lesson-node", gist="tidied by a maintenance pass")
    assert reader.tool("Glob", {"pattern": "*.py"}, {"filenames": []}).out == ""


def test_user_level_writes_reach_only_sessions_of_the_same_project(srv):
    a_cwd, b_cwd = srv.project("push-proj-a"), srv.project("push-proj-b")
    writer, same, other = Harness(srv, a_cwd), Harness(srv, a_cwd), Harness(srv, b_cwd)
    for h in (writer, same, other):
        h.start()
    same.full_read()
    other.full_read()
    writer.mcp("kg_put_node", level="user", id="user-level-push-node", gist="a cross-project principle")
    assert "user-level-push-node (new): a cross-project principle" in same.prompt("zzz nothing to match").context
    assert other.prompt("zzz nothing to match").is_pool_line


# -- silence ------------------------------------------------------------------------------------


def test_a_chore_session_hooks_say_nothing_at_all(srv):
    h = Harness(srv, srv.project("silence-proj"))
    env = {**h.env, "KG_CHORE": "1"}
    assert h.start(env=env).out == ""
    assert h.prompt("how does the JWT refresh work", env=env).out == ""
    assert h.tool("Read", {"file_path": f"{h.cwd}/src/auth.py"}, env=env).out == ""
    assert not [r for r in recall_log(srv) if r.get("claude_session") == h.sid]
    # The same events from a working session of the same project do speak.
    worker = Harness(srv, h.cwd)
    assert worker.start().context.startswith("KG MEMORY PRELOADED")
    assert worker.prompt("how does the JWT refresh work").is_reminder


POOLS = {  # the prompt hook's own lines, by how deep the session is (its transcript's size)
    "early": ("kg_search) before re-deriving", "write it down (kg_put_node)", "check kg_search before asserting"),
    "middle": ("figure out twice", "earns a kg_useful vote", "link new lessons"),
    "late": ("before wrapping up", "long session", "wrap-up"),
}


def test_the_pool_line_is_staged_by_how_long_the_transcript_has_grown(srv):
    h = Harness(srv, srv.project("pool-proj"))
    h.start()
    h.full_read()
    for stage, size in (("early", 0), ("middle", 300_000), ("late", 3_000_000)):
        grow = size - h.transcript.stat().st_size
        if grow > 0:  # lines the harness wrote meanwhile (tool output, say), so the transcript stays JSONL
            with open(h.transcript, "a") as f:
                f.write(json.dumps({"type": "progress", "data": "x" * grow}) + "\n")
        for _ in range(3):  # nothing in the memory matches: the server has nothing to say
            run = h.prompt("hello " * 10)
            assert run.rc == 0 and run.is_pool_line, run
            assert any(marker in run.context for marker in POOLS[stage]), (stage, run.context)
    # A path after a long prompt (past the payload's head), or one that is no transcript, counts as early.
    for path, prompt in ((str(h.transcript), "hello " * 20_000), ("/etc/passwd", "hello")):
        payload = {**h._base("UserPromptSubmit"), "prompt": prompt}
        del payload["transcript_path"]
        payload["transcript_path"] = path  # last: a long prompt comes before it
        context = run_hook("prompt", payload, h.env).context
        assert any(m in context for m in POOLS["early"]), (path, context)


def test_with_the_server_down_the_hooks_are_quiet_and_quick(server_factory, tmp_path):
    down = server_factory(start=False)  # a port nothing listens on
    h = Harness(down, down.project("proj"))
    prompt = h.prompt("how does the JWT refresh work")  # no reminder to use a memory that is not answering
    assert prompt.rc == 0 and prompt.out == "" and prompt.err == ""
    tool = h.read(f"{h.cwd}/README.md")
    assert tool.rc == 0 and tool.out == "" and tool.err == ""
    start = h.start()  # `kg` is not on PATH: nothing to start it with, so silence
    assert start.rc == 0 and start.out == "" and down.health() is None


def test_session_start_starts_a_server_that_is_down_and_says_so(server_factory):
    down = server_factory(start=False)
    h = Harness(down, down.project("autostart-proj"))
    env = hook_env(down, path=f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin")
    try:
        run = h.start(env=env)
        assert run.rc == 0 and down.health() is not None
        assert run.message.startswith("kg memory server started (it was down)") and "\n" not in run.message
        assert run.context.startswith("KG MEMORY PRELOADED") and h.kg_sid
        assert h.prompt("how does the JWT refresh work").is_reminder
    finally:
        stop = __import__("subprocess").run([str(VENV_BIN / "kg"), "stop"], env={**os.environ, **env},
                                              capture_output=True, text=True, timeout=30)
        assert stop.returncode == 0, stop.stderr
    assert down.health() is None


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [b"not json at all", b"{\"prompt\": ", b"[1, 2, 3]", b"\xff\xfe\x00garbage", b""])
def test_payloads_that_are_not_json(srv, body):
    h = Harness(srv, srv.project("bad-proj"))
    before, sessions_before = recall_log(srv), sessions_on_disk(srv)
    assert run_hook("prompt", body, h.env).out == ""  # refused (400): a failure, so not even the reminder
    assert run_hook("tool_event", body, h.env).out == ""
    assert run_hook("session_start", body, h.env).out == ""
    for path in ("/api/prompt_context", "/api/tool_event", "/api/session_bootstrap"):
        r = post(srv, path, body, timeout=2)
        assert r.status_code == 400 or r.json() in ({}, nothing_to_print()), (path, r.status_code, r.text)
    assert recall_log(srv) == before
    assert sessions_on_disk(srv) == sessions_before  # no session was registered from garbage


def test_a_one_megabyte_prompt(srv):
    h = Harness(srv, srv.project("bad-proj"))
    h.start()
    h.full_read()
    huge = ("JWT clock skew " * 70_000)[:1_000_000]
    run = h.prompt(huge)
    assert run.rc == 0
    record = records_for(srv, h.kg_sid)[-1]
    assert len(json.dumps(record)) < 10_000  # terms are logged, not the prompt
    r = post(srv, "/api/prompt_context", {"session_id": h.sid, "cwd": h.cwd, "prompt": "x" * 1_000_000}, timeout=2)
    assert r.status_code == 200


_LOG_LINE = "2026-11-30T14:0{m}:1{s}.482Z ERROR auth.jwt [req 7f3a9c2e] JWT expiry check failed: clock skew 41s > 30s (pod api-{m}f{s}c)\n"


@pytest.mark.parametrize("prompt", [
    "".join(_LOG_LINE.format(m=i % 10, s=i % 7) for i in range(200))[:20_000],  # a 20,000-character paste of a log
    bytes(range(256)).decode("latin-1") * 20,  # binary junk
    "🔥🔥🔥 😅🙏🚀 🎉🎉",  # only emoji
    "~/recall-proj/src/clock.py",  # only a path
    "数据库迁移" * 4_000,  # a 20,000-character paste in a script without spaces
])
def test_pastes_junk_emoji_and_bare_paths_are_answered_quickly_and_silently(srv, prompt):
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    h.full_read()
    run = h.prompt(prompt)
    assert run.rc == 0 and "KG recall" not in run.context  # nothing a person typed: no recall
    r = post(srv, "/api/prompt_context", {"session_id": h.sid, "cwd": h.cwd, "prompt": prompt,
                                          "hook_event_name": "UserPromptSubmit"}, timeout=2)
    assert r.status_code == 200 and "KG recall" not in json.dumps(r.json())
    # The same session still recalls what a person types afterwards.
    assert "jwt-clock-skew" in h.prompt("why do tokens fail with clock skew between servers?").context


@pytest.mark.parametrize("hook", [["prompt.sh"], ["session_start.sh"], ["gemini.sh", "BeforeAgent"],
                                  ["../harnesses/antigravity/hooks/kg-agy.sh", "PreInvocation"]])
def test_raw_bytes_with_nuls_leave_stderr_empty_where_sh_is_bash(srv, hook):
    # Where /bin/sh is bash (Fedora, Arch), a NUL read into a variable is warned of on stderr.
    h = Harness(srv, srv.project("recall-proj"))
    proc = subprocess.run(["bash", str((HOOKS / hook[0]).resolve()), *hook[1:]], input=bytes(range(256)) * 8, env=h.env,
                          capture_output=True, timeout=30, cwd=h.env.get("HOME"))
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert len(lines) <= 1 and all(json.loads(line) for line in lines)  # one line of hook JSON, or nothing


@pytest.mark.parametrize("transcript", ["/etc/passwd", "/etc/hosts.jsonl", "~/notes.txt", "../../x.jsonl", 42])
def test_transcript_paths_outside_home_or_not_jsonl_are_not_read(srv, transcript):
    cwd = srv.project("bad-proj")
    first = Harness(srv, cwd)
    first.start()
    (srv.home / "notes.txt").write_text(f"session_id: {first.kg_sid} (pass it\n")
    payload = {"session_id": f"other-{uuid.uuid4()}", "transcript_path": transcript, "cwd": cwd,
               "hook_event_name": "SessionStart", "source": "resume"}
    run = run_hook("session_start", payload, first.env)
    assert run.context.startswith("KG MEMORY PRELOADED")  # a fresh session, not a recovered one
    assert first.kg_sid not in run.context


def test_unknown_tools_and_binary_garbage_in_tool_responses(srv):
    h = Harness(srv, srv.project("bad-proj"))
    h.start()
    before = [r for r in recall_log(srv) if r.get("kg_session") == h.kg_sid]
    assert h.tool("mcp__some_server__frobnicate", {"x": [1, {"y": None}]}, {"weird": "\udcff"}).out == ""
    garbage = "".join(chr(c) for c in range(1, 32)) + "\u0000\ufffd" * 1000
    assert h.tool("Read", {"file_path": f"{h.cwd}/README.md"}, {"content": garbage}).out == ""
    assert h.tool("Read", {"file_path": "relative/nowhere.py\u0000"}).out == ""
    assert h.tool("Read", {"file_path": ["not", "a", "string"]}).out == ""
    assert h.tool("Bash", {"command": {"nested": True}}).out == ""
    assert h.tool(None, None).out == ""
    raw = {"session_id": h.sid, "cwd": h.cwd, "tool_name": "Read", "tool_input": {"file_path": "/dev/zero"},
           "tool_response": "\x00" * 100_000}
    assert post(srv, "/api/tool_event", raw, timeout=2).json() == {}
    after = [r for r in recall_log(srv) if r.get("kg_session") == h.kg_sid]
    assert all(r["reason"] == "file_recall" and r["outcome"] == "no_nodes" for r in after[len(before):])


# -- preload limits on a big graph ---------------------------------------------------------------


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A store far over every preload limit, in scripts whose units differ (emoji: 2 UTF-16 units, 4 bytes)."""
    server = ServerProcess(tmp_path_factory.mktemp("big"))
    root = server.project("big-proj")
    words = ["cache 🚀 eviction", "日本語のノート", "token refresh", "Ünïcödé lesson", "queue retry 🔁"]
    project = [node(f"big-project-node-{i}", f"{words[i % 5]} number {i}: " + "detail " * (i % 7), days_old=i % 90)
               for i in range(600)]
    project += [node(f"big-archived-node-{i}", f"archived {i}", _archived=True) for i in range(200)]
    edges = [(f"big-project-node-{i}", f"big-project-node-{i + 1}", "relates-to") for i in range(0, 598, 3)]
    user = [node(f"big-user-node-{i}", f"user principle {i} 😀 " + "why " * (i % 5)) for i in range(300)]
    write_store(server.store, user_graph(user), {"big-proj": project_graph(root, project, edges)})
    server.start()
    yield server
    server.kill()


@pytest.mark.parametrize("kind, limit, unit", [("claude", 9_500, "utf16"), ("codex", 9_000, "bytes")])
def test_the_preload_fits_each_harness_limit_in_its_own_unit(big, kind, limit, unit):
    h = Harness(big, big.project("big-proj"), kind=kind)
    run = h.start()
    text = run.context
    size = len(text.encode("utf-16-le")) // 2 if unit == "utf16" else len(text.encode())
    assert size <= limit
    assert size > limit - 400  # and it uses the room it has
    assert text.startswith("KG MEMORY PRELOADED") and f"session_id: {h.kg_sid} (pass" in text  # header included
    assert "more active gist(s) not shown (lowest-scored) — kg_read(session_id) renders the full graph" in text
    assert "=== USER GRAPH" in text and "=== PROJECT GRAPH" in text
    shown = text.count("\n  big-project-node-") + text.count("\n  big-user-node-")
    state = __import__("httpx").get(f"{big.url}/api/session_state", params={"session_id": h.kg_sid}).json()
    assert state["preloaded_count"] == shown  # what is marked preloaded is exactly what was shown
    assert run.message.startswith(f"kg memory: preloaded {shown} gist(s)")


@pytest.mark.parametrize("kind, limit, unit", [("claude", 9_500, "utf16"), ("codex", 9_000, "bytes")])
def test_the_note_on_a_folder_outside_home_fits_within_the_limit_too(big, tmp_path, kind, limit, unit):
    outside = tmp_path.joinpath(*[f"a-long-folder-name-{i:02d}" for i in range(3)])  # the harness names its transcript after it
    outside.mkdir(parents=True)
    run = Harness(big, str(outside), kind=kind).start()
    text = run.context
    size = len(text.encode("utf-16-le")) // 2 if unit == "utf16" else len(text.encode())
    assert "is outside your home" in text and "=== USER GRAPH" in text
    assert limit - 600 < size <= limit


def test_a_cwd_that_is_no_usable_path_is_refused_or_ignored(srv):
    h = Harness(srv, srv.project("bad-proj"))
    h.start()
    for cwd in ("/home/\u0000x", "relative/dir", "/etc", 7):
        r = post(srv, "/api/session_bootstrap", {"session_id": f"odd-{uuid.uuid4()}", "cwd": cwd, "source": "startup"})
        if cwd in ("/etc", "relative/dir"):  # a folder of no project: the user's memory, none of a project's
            context = r.json()["hookSpecificOutput"]["additionalContext"]
            said = "/etc is outside your home" if cwd == "/etc" else "relative/dir is a relative path"
            assert r.status_code == 200 and said in context, r.text
            assert "USER GRAPH" in context and "PROJECT GRAPH" not in context, context
            continue
        assert r.status_code == 400, (cwd, r.text)
        # The prompt and tool hooks of a known session go on as if no folder were given.
        r = post(srv, "/api/prompt_context", {"session_id": h.sid, "cwd": cwd, "prompt": "JWT refresh clock skew"})
        assert r.status_code == 200 and FULL_READ_REMINDER in r.text
        r = post(srv, "/api/tool_event", {"session_id": h.sid, "cwd": cwd, "tool_name": "Read",
                                          "tool_input": {"file_path": "src/auth.py"}})
        assert r.status_code == 200 and r.json() == {}


def test_session_state_answers_hooks_older_than_the_payload_contract(srv):
    import httpx
    cwd = srv.project("silence-proj")
    h = Harness(srv, cwd)
    h.start()
    state = httpx.get(f"{srv.url}/api/session_state", params={"project_path": cwd}).json()
    assert state["found"] and state["session_id"] == h.kg_sid and state["full_read_done"] is False
    h.full_read()
    assert httpx.get(f"{srv.url}/api/session_state", params={"project_path": cwd}).json()["full_read_done"] is True
    assert httpx.get(f"{srv.url}/api/session_state", params={"project_path": "/etc"}).json() == {"found": False}


def test_a_subagent_s_tool_calls_leave_the_session_s_lessons_to_the_session(srv):
    """Claude Code sends a subagent's tool hooks with the main session's id and an agent_id: what it would be
    shown goes into the subagent's context. It gets nothing, and the session's own read still recalls."""
    h = Harness(srv, srv.project("recall-proj"))
    h.start()
    explore = {"agent_id": "a1b2c3d4", "agent_type": "Explore"}
    sub = h.tool("Read", {"file_path": f"{h.cwd}/src/clock.py"}, {"type": "text"}, **explore)
    assert sub.rc == 0 and sub.out == ""
    run = h.read(f"{h.cwd}/src/clock.py")
    assert "- [project] jwt-clock-skew: " in run.context
