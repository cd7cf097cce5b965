"""GET /api/chores: one graph's debt factors over time and the chores that ran on it, for the Budget tab.

From chore_runs.jsonl (each run's dispatch and its outcome, kept apart so
that refusals do not push them out of view), chores.jsonl's latest refusals,
and the tick's readings (the score and its factors). Read off the
event loop; a torn line is skipped.
"""

from __future__ import annotations

from typing import Any

import trio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..chores.left_runs import OUTCOMES
from ..chores.supervisor import load_log, load_runs
from ..conduct import graphs
from ..core import chore_outcome
from ..readings import read_readings
from .guard import RuntimeParts, guarded

RUNS_SHOWN = 100
SKIPS_SHOWN = 20


def runs_of(records: list[dict[str, Any]], key: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the runs on graph `key`, newest first, each dispatch with its outcome; the latest refusals anywhere)."""
    runs: list[dict[str, Any]] = []
    skips: list[dict[str, Any]] = []
    for rec in records:
        event = rec.get("event")
        if event == "dispatch" and rec.get("graph") == key:
            runs.append({"started": rec.get("ts"), "tier": rec.get("tier"), "runner": rec.get("runner"),
                         "kind": rec.get("kind"), "targets": rec.get("targets", []), "debt_before": rec.get("debt"),
                         "outcome": "running"})
        elif event in OUTCOMES and rec.get("graph") == key:
            run = _closed(runs, rec.get("started"))
            if run is None:
                continue
            if event == "spawn_failed":
                run.update(outcome="failed to start", detail=rec.get("reason"))
            elif event == "interrupted":
                run.update(outcome="interrupted", detail=rec.get("reason"), noticed=rec.get("ts"),
                           kg_calls=rec.get("kg_calls"), kg_writes=rec.get("kg_writes"))  # none: an older line
            else:
                calls, writes = rec.get("kg_calls"), rec.get("kg_writes")
                said = rec.get("outcome")  # a line from before kg calls were counted has none
                run.update(outcome=said if isinstance(said, str) else chore_outcome.outcome(
                               rec.get("rc"), bool(rec.get("timed_out")), calls, writes),
                           elapsed_s=rec.get("elapsed_s"), debt_after=rec.get("debt_after"), kg_calls=calls,
                           kg_writes=writes, detail=chore_outcome.detail(str(rec.get("output") or ""), calls, writes))
        elif event == "skip":
            skips.append({"ts": rec.get("ts"), "reason": rec.get("reason")})
    return runs[::-1][:RUNS_SHOWN], skips[::-1][:SKIPS_SHOWN]


def _closed(runs: list[dict[str, Any]], started: object) -> dict[str, Any] | None:
    """The run an outcome closes: the one it names by its start; an older line that names none closes the
    run before it (one run at a time)."""
    if started is not None:
        return next((r for r in reversed(runs) if r["started"] == started and r["outcome"] == "running"), None)
    return runs[-1] if runs and runs[-1]["outcome"] == "running" else None


def routes(runtime: RuntimeParts) -> list[Route]:
    async def chores(request: Request) -> JSONResponse:
        q = request.query_params
        key = await graphs.graph_key(runtime.floor, q.get("level", "user"), q.get("project_path"))
        records = await trio.to_thread.run_sync(load_log, runtime.config.root)
        kept = await trio.to_thread.run_sync(load_runs, runtime.config.root, records)
        readings = await trio.to_thread.run_sync(read_readings, runtime.layout.graph_file(key))
        runs, skips = runs_of(kept, key)[0], runs_of(records, key)[1]
        status = await runtime.chores.status() if runtime.chores is not None else None
        return JSONResponse({
            "graph": key, "enabled": bool(status and status.enabled), "warning": status.warning if status else None,
            "ignored": status.ignored if status else None,
            "running": status.running if status else None, "runs": runs, "skips": skips,
            "factors": [{"ts": r["ts"], "debt": r.get("debt"), **r["factors"]} for r in readings
                        if isinstance(r.get("factors"), dict)],
        })

    return [Route("/api/chores", guarded(chores), methods=["GET"])]
