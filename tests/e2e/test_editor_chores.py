"""The Budget tab's chores section in Debian's headless Chromium: the graph's debt factors over time and the
chores that ran on it with their outcome (from chores.jsonl and the tick's readings), and GET /api/chores."""

from __future__ import annotations

import json
import shutil

import httpx
import pytest
from editor_graphs import NOW, USER_NODE, worn_project
from editor_store import editor_url

from kg_actors.testing import ServerProcess, write_store

CHROMIUM = shutil.which("chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _log(key: str) -> str:
    rows = [
        # Runs as kept once kg calls were counted: one never reached kg (exit 0), one looked and wrote nothing.
        {"ts": NOW - 9600, "event": "dispatch", "tier": "chore", "graph": key, "runner": "claude", "kind": "edge",
         "targets": ["orphan-notes"], "debt": 0.63},
        {"ts": NOW - 9590, "event": "done", "tier": "chore", "graph": key, "runner": "claude", "rc": 0,
         "elapsed_s": 4.0, "timed_out": False, "output": "Invalid API key · Please run /login\n", "kg_calls": 0,
         "kg_writes": 0, "outcome": "no kg call", "started": NOW - 9600},
        {"ts": NOW - 8400, "event": "dispatch", "tier": "chore", "graph": key, "runner": "codex", "kind": "gist",
         "targets": ["billing-service-hub"], "debt": 0.62},
        {"ts": NOW - 8300, "event": "done", "tier": "chore", "graph": key, "runner": "codex", "rc": 0,
         "elapsed_s": 95.0, "timed_out": False, "output": "nothing to do", "kg_calls": 3, "kg_writes": 0,
         "outcome": "no change", "started": NOW - 8400},
        {"ts": NOW - 7200, "event": "dispatch", "tier": "chore", "graph": key, "runner": "claude", "kind": "gist",
         "targets": ["billing-service-hub"], "debt": 0.61},
        {"ts": NOW - 7000, "event": "done", "tier": "chore", "graph": key, "runner": "claude", "rc": 0,
         "elapsed_s": 181.0, "timed_out": False, "output": "done", "debt_after": 0.52},
        {"ts": NOW - 3000, "event": "skip", "reason": "spacing: 20 min since the last run (at least 45)"},
        {"ts": NOW - 600, "event": "dispatch", "tier": "chore", "graph": key, "runner": "codex", "kind": "id",
         "targets": ["deploy-notes-2026-03-01"], "debt": 0.52},
        {"ts": NOW - 180, "event": "done", "tier": "chore", "graph": key, "runner": "codex", "rc": -9,
         "elapsed_s": 425.0, "timed_out": True, "output": ""},
        {"ts": NOW - 100, "event": "dispatch", "tier": "chore", "graph": "user", "runner": "claude", "kind": "edge",
         "targets": ["prefer-small-modules"], "debt": 0.3},
    ]
    return "".join(json.dumps(r) + "\n" for r in rows) + '{"torn": \n'


def _readings() -> str:
    rows = [{"ts": NOW - (6 - i) * 3600, "debt": round(0.61 - 0.02 * i, 2), "debt_level": "HIGH", "charge": 9000,
             "budget": 22000, "active": 5, "factors": {"oversized": 3 - i // 2, "unconnected": 3, "long_ids": 2,
                                                       "dangling": 0, "lift": 0, "smeared": 0}} for i in range(6)]
    return "".join(json.dumps(r) + "\n" for r in rows)


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("editor-chores"))
    s.paths = {"worn": s.project("worn")}
    write_store(s.store, user={"nodes": {USER_NODE["id"]: USER_NODE}, "edges": {}},
                projects={"worn": worn_project(s.paths["worn"])})
    (s.store / "chores.jsonl").write_text(_log("project:worn"))
    (s.store / "projects" / "worn" / "graph.readings.jsonl").write_text(_readings())
    s.start()
    yield s
    s.kill()


def test_the_chores_endpoint_pairs_each_run_with_its_outcome(srv):
    got = httpx.get(srv.url + "/api/chores", params={"level": "project", "project_path": srv.paths["worn"]})
    out = got.json()
    assert got.status_code == 200 and out["graph"] == "project:worn" and out["enabled"] is False
    assert [(r["kind"], r["outcome"]) for r in out["runs"]] == [("id", "timed out"), ("gist", "ok"),
                                                                ("gist", "no change"), ("edge", "no kg call")]
    assert out["runs"][3]["detail"] == "Invalid API key · Please run /login"
    assert (out["runs"][2]["kg_calls"], out["runs"][2]["kg_writes"]) == (3, 0)
    assert out["runs"][1]["debt_after"] == 0.52 and out["skips"][0]["reason"].startswith("spacing")
    assert [f["oversized"] for f in out["factors"]] == [3, 3, 2, 2, 1, 1]
    bad = httpx.get(srv.url + "/api/chores", params={"level": "maintain"})
    assert bad.status_code == 400 and bad.json()["field"] == "level"


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_the_budget_tab_shows_factors_over_time_and_the_chores_that_ran(srv, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.set_default_timeout(60_000)
            problems = []
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(f"{editor_url(srv)}/#{srv.paths['worn']}")
            page.wait_for_selector("body[data-graph=ready]")
            page.click("#tabs button[data-tab=budget]")
            page.wait_for_selector("#chores-panel table.chore-runs")
            rows = page.eval_on_selector_all("#chores-panel tr.chore-run", "els => els.map((e) => e.innerText)")
            assert len(rows) == 4
            assert "id: deploy-notes-2026-03-01" in rows[0] and "timed out (425 s)" in rows[0] and "codex" in rows[0]
            assert "gist: billing-service-hub" in rows[1] and "ok (181 s)" in rows[1] and "0.61 → 0.52" in rows[1]
            assert "no change (95 s)" in rows[2] and "3 kg calls, 0 writes" in rows[2]
            assert "no kg call (4 s)" in rows[3] and "Please run /login" in rows[3]
            # Only a run that wrote is green.
            classes = page.eval_on_selector_all("#chores-panel tr.chore-run", "els => els.map((e) => e.className)")
            assert classes == ["chore-run bad", "chore-run ok", "chore-run idle", "chore-run bad"]
            colours = page.eval_on_selector_all("#chores-panel tr.chore-run td.outcome",
                                                "els => els.map((e) => getComputedStyle(e).color)")
            assert colours[1] == "rgb(23, 100, 58)" and colours.count("rgb(23, 100, 58)") == 1
            oversized = page.inner_text("#chores-panel tr[data-factor=oversized]")
            assert oversized.split("\t")[1:] == ["3", "1–3", "1"]
            assert "Chores are off" in page.inner_text("#chores-panel .chores-state")
            page.screenshot(path=str(tmp_path / "budget-chores.png"))
            assert problems == []
        finally:
            browser.close()


def test_a_week_of_refusals_does_not_push_the_runs_out_of_view(tmp_path):
    """t_logbound.sh: the tab read the last 2000 lines of chores.jsonl; with chores on, every prompt logs a
    refusal, and a heavy week's took the runs out of view. The runs are kept apart (chore_runs.jsonl)."""
    s = ServerProcess(tmp_path)
    path = s.project("busy")
    write_store(s.store, projects={"busy": worn_project(path)})
    run = [{"ts": NOW - 5 * 86_400, "event": "dispatch", "tier": "chore", "graph": "project:busy",
            "runner": "claude", "kind": "gist", "targets": ["billing-service-hub"], "debt": 0.61},
           {"ts": NOW - 5 * 86_400 + 200, "event": "done", "tier": "chore", "graph": "project:busy",
            "runner": "claude", "rc": 0, "elapsed_s": 200.0, "timed_out": False, "output": "done",
            "started": NOW - 5 * 86_400}]
    skips = [{"ts": NOW - 4 * 86_400 + i, "event": "skip", "reason": "spacing: 1 min since the last run"}
             for i in range(3000)]
    (s.store / "chores.jsonl").write_text("".join(json.dumps(r) + "\n" for r in run + skips))
    (s.store / "chore_runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in run))
    s.start()
    try:
        out = httpx.get(s.url + "/api/chores", params={"level": "project", "project_path": path}).json()
    finally:
        s.kill()
    assert [(r["kind"], r["outcome"], r["started"]) for r in out["runs"]] == [("gist", "ok", NOW - 5 * 86_400)]
    assert len(out["skips"]) == 20 and out["skips"][0]["ts"] == NOW - 4 * 86_400 + 2999
